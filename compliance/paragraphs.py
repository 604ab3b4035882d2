"""The paragraph index of the bundled regulation texts (``rulesets/coverage.yaml``), and its verification.

The map, written by hand and shipped with the rulesets, lists every bundled text's numbered paragraphs in
the text's order, each with what it is about in our own words (never the text's), and for each the rules
that check it, why a transcript cannot show it, or what no rule checks yet.  ``ruleset lint`` checks
citations against :func:`paragraph_index`; :mod:`compliance.coverage` joins the map with the rulesets.
The regulation texts, where they are at hand, only verify the index (:func:`index_problems`).
Below both the rulesets and the games: it reads YAML and nothing of theirs (docs/coverage.md).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from compliance.errors import UserError
from compliance.yamlread import read_yaml

MAP_FILE = "coverage.yaml"
ENV_DIR = "BACCARAT_AUDIT_REGULATIONS"


# ------------------------------------------------------------------ the texts (to verify the index only)


def regulations_dir() -> Path | None:
    """Where the regulation texts are, if anywhere: $BACCARAT_AUDIT_REGULATIONS, else
    ``../shared/regulations`` next to the project (or the working directory).  Only the
    verification of the paragraph index reads them."""
    env = os.environ.get(ENV_DIR)
    candidates = [Path(env)] if env else []
    project = Path(__file__).resolve().parent.parent
    candidates += [project.parent / "shared" / "regulations", Path.cwd().parent / "shared" / "regulations",
                   Path.cwd() / "regulations"]
    return next((c for c in candidates if c.is_dir()), None)


_SEC = re.compile(r"^Sec\.\s+(\d+)\.\s*$")
_CODE_SECTION = re.compile(r"^§\s*(\d+[a-z]?\.\d+)\.\s")
_SECTION = re.compile(r"^Section\s+[\w:]+-(\d+(?:\.\d+)*)\s+-")
_LETTER = re.compile(r"^\(([a-z])\)\s")
_NUMBER = re.compile(r"^(?:\((\d+)\)|(\d+)\.)\s")
_DECIMAL = re.compile(r"^\s*(?:[•\-*]\s*)?(\d+(?:\.\d+)+)\s")


def paragraphs(text: str) -> dict[str, int]:
    """The numbered paragraphs of a regulation text, id -> line (1-based), in order.

    Three numberings are understood.  A code of many sections (Pennsylvania):
    ``§ 627a.8.`` starts a section, with ids ``627a.8``, ``627a.8(c)``,
    ``627a.8(c)(2)``.  Lettered sections (Indiana, New Jersey):
    ``Sec. 12.`` or ``Section 13:69F-3.7 -`` names the section; ``(a)`` starts
    a paragraph, ``(1)`` or ``1.`` a subparagraph of the last lettered one:
    ids ``12(g)(5)``, ``3.7(d)(5)``.  Decimal rules (NSW, New Zealand):
    ``8.8.1`` with or without a bullet; ``12.0`` is a heading.  A text that
    begins in the middle of a paragraph (lower-case first line) holds the end
    of the paragraph numbered one before its first.
    """
    lines = text.splitlines()
    if any(_CODE_SECTION.match(line.strip()) for line in lines[:50]):
        return _code_sections(lines)
    section = None
    for line in lines:
        m = _SEC.match(line.strip()) or _SECTION.match(line.strip())
        if m:
            section = m.group(1)
            break
    out: dict[str, int] = {}
    if section is not None:
        letter = None
        for n, line in enumerate(lines, 1):
            s = line.strip()
            m = _LETTER.match(s)
            if m:
                letter = m.group(1)
                out[f"{section}({letter})"] = n
                continue
            m = _NUMBER.match(s)
            if m and letter is not None:
                out[f"{section}({letter})({m.group(1) or m.group(2)})"] = n
        return out
    continuation = None
    for n, line in enumerate(lines, 1):
        m = _DECIMAL.match(line)
        if m:
            pid = m.group(1)
            if pid.endswith(".0"):
                continue
            if not out and continuation is not None:
                head, _, last = pid.rpartition(".")
                if last.isdigit() and int(last) > 1:
                    out[f"{head}.{int(last) - 1}"] = continuation
            out.setdefault(pid, n)
        elif not out and continuation is None and line[:1].islower():
            continuation = n
    return out


def _code_sections(lines: list[str]) -> dict[str, int]:
    """A code of many sections (Pennsylvania): ``§ 627a.8.`` starts a section (id ``627a.8``), ``(a)`` its
    subsection, ``(1)`` a paragraph of the last subsection: ids ``627a.8(c)(2)``."""
    out: dict[str, int] = {}
    section = letter = None
    for n, line in enumerate(lines, 1):
        s = line.strip()
        m = _CODE_SECTION.match(s)
        if m:
            section, letter = m.group(1), None
            out.setdefault(section, n)
            continue
        if section is None:
            continue
        m = _LETTER.match(s)
        if m:
            letter = m.group(1)
            out.setdefault(f"{section}({letter})", n)
            continue
        m = _NUMBER.match(s)
        if m and letter is not None and m.group(1):
            out.setdefault(f"{section}({letter})({m.group(1)})", n)
    return out


@lru_cache(maxsize=32)
def _paragraphs_of(path: str, mtime: float) -> dict[str, int]:
    return paragraphs(Path(path).read_text(encoding="utf-8"))


def text_paragraphs(name: str, directory: Path | None = None) -> dict[str, int] | None:
    """Paragraphs of the regulation text ``name`` as read from the text itself; None when it is not at hand."""
    directory = directory or regulations_dir()
    if directory is None:
        return None
    try:
        p = directory / name
        if not p.is_file():
            return None
        return _paragraphs_of(str(p), p.stat().st_mtime)
    except (OSError, ValueError, UnicodeDecodeError):
        return None  # not a readable text: nothing to compare citations with


# ------------------------------------------------------------------ the map


@dataclass(frozen=True)
class Entry:
    """What coverage.yaml says about one paragraph."""

    paragraph: str
    about: str
    rules: tuple[str, ...] = ()
    not_checkable: str | None = None
    gap: str | None = None
    line: int = 0


@dataclass
class CoverageMap:
    path: str
    texts: dict[str, dict[str, Entry]]  # text file -> paragraph -> entry
    not_bundled: dict[str, str] = field(default_factory=dict)  # text file -> why only its index is here
    notes: dict[str, str] = field(default_factory=dict)  # title -> what the map says beside the texts, in our words


_ENTRY_KEYS = {"about", "rules", "not_checkable", "gap"}


def load_map(path: Path | None = None) -> CoverageMap:
    """Read and validate coverage.yaml (default: the bundled one)."""
    path = path or Path(str(resources.files("compliance.rulesets"))) / MAP_FILE
    doc = read_yaml(path, what="coverage map")
    data, display = doc.data, doc.display
    if not isinstance(data, dict) or not isinstance(data.get("texts"), dict):
        raise UserError("the coverage map needs a `texts` mapping: text file -> paragraphs", doc.where())
    unknown = set(data) - {"texts", "notes"}
    if unknown:
        raise UserError(f"the coverage map: unknown key(s) {', '.join(sorted(map(str, unknown)))}", doc.where())
    notes = data.get("notes") or {}
    if not isinstance(notes, dict) or not all(isinstance(k, str) and isinstance(v, str) and v.strip()
                                              for k, v in notes.items()):
        raise UserError("`notes` is a mapping: title -> what the map says of it, in our words",
                        doc.where(("notes",)))
    texts: dict[str, dict[str, Entry]] = {}
    not_bundled: dict[str, str] = {}
    for name, body in data["texts"].items():
        where = doc.where(("texts", name))
        if not isinstance(body, dict) or not isinstance(body.get("paragraphs"), dict):
            raise UserError(f"text {name!r} needs a `paragraphs` mapping", where)
        unknown = set(body) - {"paragraphs", "not_bundled"}
        if unknown:
            raise UserError(f"text {name!r}: unknown key(s) {', '.join(sorted(unknown))}", where)
        if "not_bundled" in body:
            if not isinstance(body["not_bundled"], str) or not body["not_bundled"].strip():
                raise UserError(f"text {name!r}: `not_bundled` says why only an index of the text is here",
                                doc.where(("texts", name, "not_bundled")))
            not_bundled[str(name)] = _text(body["not_bundled"])
        entries: dict[str, Entry] = {}
        paras = body["paragraphs"]
        for pid, e in paras.items():
            at = doc.where(("texts", name, "paragraphs", pid))
            line = at.line
            if not isinstance(e, dict):
                raise UserError(f"paragraph {pid!r}: expected a mapping with `about` and one of rules, "
                                "not_checkable, gap", at)
            unknown = set(e) - _ENTRY_KEYS
            if unknown:
                raise UserError(f"paragraph {pid!r}: unknown key(s) {', '.join(sorted(unknown))}", at)
            if not isinstance(e.get("about"), str) or not e["about"].strip():
                raise UserError(f"paragraph {pid!r}: `about` (what it is about, in our words) is required", at)
            kinds = [k for k in ("rules", "not_checkable", "gap") if e.get(k)]
            if len(kinds) != 1:
                raise UserError(f"paragraph {pid!r}: give exactly one of rules, not_checkable, gap", at)
            rules = e.get("rules") or []
            if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
                raise UserError(f"paragraph {pid!r}: `rules` is a list of rule ids", at)
            entries[str(pid)] = Entry(str(pid), str(e["about"]).strip(), tuple(rules),
                                      _text(e.get("not_checkable")), _text(e.get("gap")), line)
        texts[str(name)] = entries
    return CoverageMap(display, texts, not_bundled, {k: _text(v) for k, v in notes.items()})


def _text(v) -> str | None:
    return " ".join(str(v).split()) if v else None


# ------------------------------------------------------------------ the paragraph index


@lru_cache(maxsize=1)
def bundled_map() -> CoverageMap:
    """The coverage map shipped in the package (read once)."""
    return load_map()


def paragraph_index(text: str) -> dict[str, str] | None:
    """The paragraphs of the bundled regulation text ``text``, in the text's order, each with what it
    is about (our words); None when ``text`` is not a bundled text."""
    entries = bundled_map().texts.get(text)
    return None if entries is None else {pid: e.about for pid, e in entries.items()}


class MapProblem(str):
    """Where the map and the texts or rulesets disagree, as ``map:line: message``; keeps its line and message."""

    line: int | None
    message: str

    def __new__(cls, path: str, line: int | None, message: str):
        self = super().__new__(cls, f"{path}:{line}: {message}" if line else f"{path}: {message}")
        self.line, self.message = line, message
        return self


def index_problems(cmap: CoverageMap | None = None, directory: Path | None = None) -> list[str]:
    """Where the paragraph index (of ``cmap``, default the bundled map) and the regulation texts at
    hand disagree: a text without an entry, a paragraph one has and the other lacks, another order.
    Empty when the texts are not at hand (nothing to verify with)."""
    cmap = cmap or bundled_map()
    directory = directory or regulations_dir()
    if directory is None:
        return []
    out = [MapProblem(cmap.path, None, f"no entry for {p.name}, a regulation text in {directory}")
           for p in sorted(directory.glob("*.txt")) if p.name not in cmap.texts]
    for text, entries in cmap.texts.items():
        paras = text_paragraphs(text, directory)
        if paras is None and text in cmap.not_bundled:
            continue  # an index of a text that is not bundled: nothing to verify it with
        if paras is None:
            out.append(MapProblem(cmap.path, None, f"{text} is not a regulation text in {directory}"))
            continue
        out += [MapProblem(cmap.path, e.line, f"{text} has no paragraph {pid!r}") for pid, e in entries.items()
                if pid not in paras]
        out += [MapProblem(cmap.path, None, f"{text} paragraph {pid} is not in the map") for pid in paras if pid not in entries]
        shared = [pid for pid in entries if pid in paras]
        if shared != [pid for pid in paras if pid in entries]:
            first = next(pid for pid, want in zip(shared, (p for p in paras if p in entries)) if pid != want)
            out.append(MapProblem(cmap.path, entries[first].line, f"{text}: paragraph {first} is out of the text's order"))
    return out
