"""What ``check`` is given, turned into the transcripts to check.

:func:`collect` turns paths into :class:`Input` s: a ``.json`` or ``.jsonl`` file is one
transcript, a Markdown file each of its ``baccarat-transcript`` blocks, a directory every
transcript and document under it (hidden folders skipped, in path order; a document there
without a tagged block is passed over, unless it carries a submission or marks a house
table: an error), ``-`` standard input (spooled first, :func:`spool_stdin`).  What
baccarat-audit wrote itself is skipped with a note (:func:`own_output`), and ``--exclude``
(:class:`Exclude`) skips more, though never a file named on the command line.

What can be checked: docs/reports.md, "What can be checked"; a configuration's
``exclude``: docs/security.md, "Configuration files found on the way up".
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from compliance import fileread, limits
from compliance.errors import UserError

TRANSCRIPT_SUFFIXES = (".json", ".jsonl")
MARKDOWN_SUFFIXES = (".md", ".markdown")
STDIN = "-"
STDIN_NAME = "<stdin>"
INJECTED_SUFFIX = ".injected.json"  # what simulate --inject lists beside its transcript

#: what baccarat-audit writes itself, told from the first bytes of a .json file: never a transcript
_OWN_OUTPUTS = (
    (re.compile(rb'"baseline_version"\s*:'), "a baccarat-audit baseline"),
    (re.compile(rb'"tool"\s*:\s*"baccarat-audit"'), "a baccarat-audit JSON report"),
    (re.compile(rb'"\$schema"\s*:\s*"[^"]*sarif', re.IGNORECASE), "a SARIF report"),
    (re.compile(rb'\A\s*\[\s*\{\s*"(description|check_name)"\s*:'), "a Code Quality report"),
    (re.compile(rb'"not_injected"\s*:'), "a list of injected breaches (simulate --inject)"),
)
_HEAD = 4096


@dataclass(frozen=True)
class Input:
    path: str  # where to read it
    display: str  # the name findings carry: the path relative to the working directory
    block: int | None = None  # Markdown: index of the tagged block
    line: int | None = None  # Markdown: line of the block in the document
    size: int = 0  # bytes, for progress

    @property
    def name(self) -> str:
        """The transcript's name in reports: a Markdown block is ``document.md#L<line>``."""
        return self.display if self.block is None else f"{self.display}#L{self.line}"

    def open(self, bounds: limits.Limits = limits.DEFAULTS):
        """The transcript, opened within the run's size limits (``bounds``)."""
        if self.block is None:
            from compliance.reading.reader import open_transcript

            return open_transcript(self.path, self.display, bounds)
        from compliance.reading.markdown import open_block

        return open_block(self.path, self.display, self.block, bounds)

    def check(self, checker, on_coup: Callable[[int, int], None] | None = None):
        """Check this transcript with a :class:`compliance.engine.Checker`; UserError when it cannot be read."""
        result = checker.check_source(self.open(checker.context.limits), on_coup)
        result.transcript = self.name
        return result


def display_name(path: Path) -> str:
    """The path relative to the working directory when it is inside it, else as given; ``/`` separators."""
    try:
        rel = path.resolve().relative_to(Path.cwd().resolve())
        return rel.as_posix()
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop (reported when it is opened)
        return Path(os.path.normpath(path)).as_posix()


class Exclude:
    """``--exclude`` globs (and the configuration's ``exclude``), as Ruff and yamllint read them.

    A glob without ``/`` (``*.injected.json``, ``archive``) matches the name of a file, or of a directory
    on its path (everything under it); a glob with ``/`` (``recordings/2019/*``) matches the whole path,
    taken from the working directory, or a directory the path is under.
    """

    def __init__(self, patterns: Iterable[str] = (), source: str = "--exclude", named: bool = True):
        """``source``: where the globs come from, for the note; ``named``: they also skip what is named on
        the command line (``--exclude``), not only what a directory holds (a configuration's ``exclude``)."""
        self.source = source
        self.named = named
        self.names: list[str] = []
        self.paths: list[str] = []
        for p in patterns:
            p = p.replace("\\", "/").rstrip("/")
            if not p:
                continue
            if "/" in p:
                self.paths.append(_absolute(p))
            else:
                self.names.append(p)

    def __bool__(self) -> bool:
        return bool(self.names or self.paths)

    def __call__(self, path: Path, within: Path | None = None) -> bool:
        """``path`` is excluded; ``within``: the directory it was found in (names above it are not looked at)."""
        if not self:
            return False
        shown = PurePosixPath(display_name(path) if within is None else path.relative_to(within).as_posix())
        parts = shown.parts if not shown.is_absolute() else (shown.name,)
        if any(fnmatchcase(part, n) for part in parts for n in self.names):
            return True
        if self.paths:
            full = PurePosixPath(_absolute(str(path)))
            candidates = [full, *full.parents]
            return any(fnmatchcase(c.as_posix(), p) for c in candidates for p in self.paths)
        return False


def _absolute(path: str) -> str:
    return PurePosixPath(os.path.normpath(os.path.join(os.getcwd(), path)).replace("\\", "/")).as_posix()


def own_output(path: Path) -> str | None:
    """What baccarat-audit file ``path`` is (its reports, baselines, injection lists), or None.

    Only a regular file is looked into: a FIFO (``<(recorder --export)``) is read once, by the reader."""
    if path.suffix.lower() != ".json":
        return None
    if path.name.lower().endswith(INJECTED_SUFFIX):
        return "a list of injected breaches (simulate --inject)"
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as f:
            head = f.read(_HEAD)
    except OSError:
        return None  # reading it as a transcript will say what is wrong
    return next((what for pattern, what in _OWN_OUTPUTS if pattern.search(head)), None)


def _walk(directory: Path, exclude: Exclude) -> list[Path]:
    found = []
    for root, dirs, files in os.walk(directory):
        here = Path(root)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not exclude(here / d, directory))
        found.extend(here / f for f in files if Path(f).suffix.lower() in TRANSCRIPT_SUFFIXES + MARKDOWN_SUFFIXES
                     and not exclude(here / f, directory))
    return sorted(found)


def _size(p: Path) -> int:
    try:
        return p.stat().st_size
    except OSError:
        return 0


def _loops(p: Path) -> bool:
    """Is ``p`` a symbolic link that leads back to itself (``exists()`` says False for both that and nothing)?"""
    try:
        os.stat(p)
    except OSError as e:
        return e.errno == errno.ELOOP
    return False


def spool_stdin(stream: BinaryIO, directory: Path, name: str | None = None,
                bounds: limits.Limits = limits.DEFAULTS) -> Path:
    """Standard input copied to a file in ``directory``, so that it is read as any transcript is (in one
    pass, or in parallel chunks). Its kind comes from ``name``'s extension (--stdin-filename), else from
    its first line: a Markdown document unless it starts with ``{``; JSON Lines when the first line is a
    whole object without ``coups``; else one JSON document."""
    raw = directory / "stdin.tmp"
    most, copied = limits.limit("stream", bounds), 0  # bounded: `< /dev/zero` must not fill the disk
    with open(raw, "wb") as out:
        while chunk := stream.read(1 << 20):
            copied += len(chunk)
            if copied > most:
                raise UserError(f"standard input is {limits.too_large('stream', None, bounds)}", name or STDIN_NAME)
            out.write(chunk)
    suffix = Path(name).suffix.lower() if name else ""
    if suffix not in TRANSCRIPT_SUFFIXES + MARKDOWN_SUFFIXES:
        suffix = _sniff(raw)
    return raw.rename(directory / f"stdin{suffix}")


def _sniff(path: Path) -> str:
    import msgspec

    with open(path, "rb") as f:
        first = f.readline(16 << 20).removeprefix(b"\xef\xbb\xbf").strip()
        more = bool(f.read(1).strip() or f.read(4096).strip())
    if not first.startswith(b"{"):
        return ".md"
    try:
        obj = msgspec.json.decode(first)
    except msgspec.DecodeError:
        return ".json"  # an object spread over lines: one document
    return ".jsonl" if isinstance(obj, dict) and "coups" not in obj and more else ".json"


def collect(paths: Iterable[str | Path], on_error: Callable[[UserError], None], exclude: Exclude | None = None,
            on_skip: Callable[[str], None] | None = None, stdin: tuple[Path, str] | None = None,
            bounds: limits.Limits = limits.DEFAULTS) -> list[Input]:
    """The transcripts the arguments stand for, in the order given (directories in path order).

    ``stdin``: the file standard input was spooled to and the name it goes by, for an argument ``-``;
    ``bounds``: the run's size limits (a Markdown document is read to find its blocks).
    """
    exclude = exclude or Exclude()
    skip = on_skip or (lambda note: None)
    out: list[Input] = []
    for arg in paths:
        if str(arg) == STDIN and stdin is not None:
            out.extend(_file(stdin[0], stdin[1], on_error, bounds=bounds))
            continue
        p = Path(arg)
        if not p.exists():
            on_error(UserError("cannot read: a symbolic link loop" if _loops(p) else "no such file or directory",
                               str(arg)))
            continue
        if exclude.named and exclude(p):
            skip(f"{display_name(p)}: excluded ({exclude.source})")
            continue
        if p.is_dir():
            found: list[Input] = []
            for f in _walk(p, exclude):
                what = own_output(f)
                if what:
                    skip(f"skipped {display_name(f)}: {what}, not a transcript")
                    continue
                found.extend(_file(f, display_name(f), on_error, in_directory=True, bounds=bounds))
            if not found:
                on_error(UserError("directory holds no transcript: no .json or .jsonl file and no Markdown "
                                   "document with a ```baccarat-transcript block", str(arg)))
            out.extend(found)
            continue
        what = own_output(p)
        if what:
            skip(f"skipped {display_name(p)}: {what}, not a transcript")
            continue
        out.extend(_file(p, display_name(p), on_error, bounds=bounds))
    return out


def _file(p: Path, display: str, on_error, in_directory: bool = False,
          bounds: limits.Limits = limits.DEFAULTS) -> list[Input]:
    suffix = p.suffix.lower()
    if suffix in MARKDOWN_SUFFIXES:
        from compliance.reading.markdown import read_blocks

        try:
            found = read_blocks(p, display, bounds)
        except UserError as e:
            on_error(e)
            return []
        if not found:
            from compliance.procedures import states_rules

            stated = states_rules(fileread.decode_text(fileread.read_input(p, "markdown", display, bounds=bounds),
                                                     display))
            if stated:  # its house tables are judged with its worked examples: without one they would not be
                on_error(UserError(f"a procedure document with {stated} but no ```baccarat-transcript block: its "
                                   "submission and house tables are judged with its worked examples; add one", display))
            elif not in_directory:  # named (or standard input): it was meant to be checked
                on_error(UserError("not a transcript: neither JSON nor a Markdown document with a "
                                   "```baccarat-transcript block", display))
        return [Input(str(p), display, b.index, b.line, len(b.text)) for b in found]
    if suffix not in TRANSCRIPT_SUFFIXES and not in_directory:
        on_error(UserError("not a transcript: give a .json or .jsonl transcript, a Markdown document with "
                           "```baccarat-transcript blocks, or a directory of them", display))
        return []
    return [Input(str(p), display, size=_size(p))]
