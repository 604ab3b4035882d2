"""What ``check`` is given, turned into the transcripts to check.

* a ``.json`` or ``.jsonl`` file is one transcript;
* a directory stands for every ``.json`` and ``.jsonl`` file under it (hidden
  directories skipped), in path order;
* a Markdown file (``.md``, ``.markdown``) stands for each of its fenced blocks
  tagged ``baccarat-transcript``.

Each transcript becomes an :class:`Input` (small and picklable, so a parallel
runner can ship it to a worker); ``Input.check`` opens and checks it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from compliance.errors import UserError

TRANSCRIPT_SUFFIXES = (".json", ".jsonl")
MARKDOWN_SUFFIXES = (".md", ".markdown")


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

    def open(self):
        if self.block is None:
            from compliance.reading.reader import open_transcript

            return open_transcript(self.path, self.display)
        from compliance.reading.markdown import open_block

        return open_block(self.path, self.display, self.block)

    def check(self, checker, on_coup: Callable[[int], None] | None = None):
        """Check this transcript with a :class:`compliance.engine.Checker`; UserError when it cannot be read."""
        result = checker.check_source(self.open(), on_coup)
        result.transcript = self.name
        return result


def display_name(path: Path) -> str:
    """The path relative to the working directory when it is inside it, else as given; ``/`` separators."""
    try:
        rel = path.resolve().relative_to(Path.cwd().resolve())
        return rel.as_posix()
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop (reported when it is opened)
        return Path(os.path.normpath(path)).as_posix()


def _walk(directory: Path) -> list[Path]:
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(Path(root) / f for f in files if Path(f).suffix.lower() in TRANSCRIPT_SUFFIXES)
    return sorted(found)


def _size(p: Path) -> int:
    try:
        return p.stat().st_size
    except OSError:
        return 0


def collect(paths: Iterable[str | Path], on_error: Callable[[UserError], None]) -> list[Input]:
    """The transcripts the arguments stand for, in the order given (directories in path order)."""
    out: list[Input] = []
    for arg in paths:
        p = Path(arg)
        if p.is_dir():
            files = _walk(p)
            if not files:
                on_error(UserError("directory holds no .json or .jsonl transcript", str(arg)))
            out.extend(Input(str(f), display_name(f), size=_size(f)) for f in files)
        elif p.suffix.lower() in MARKDOWN_SUFFIXES:
            from compliance.reading.markdown import read_blocks

            display = display_name(p)
            try:
                found = read_blocks(p, display)
            except UserError as e:
                on_error(e)
                continue
            out.extend(Input(str(p), display, b.index, b.line, len(b.text)) for b in found)
        else:
            out.append(Input(str(p), display_name(p), size=_size(p)))
    return out
