"""Regulation coverage: which paragraph of which regulation each rule checks, and which it cannot.

``rulesets/coverage.yaml``, written by hand and shipped in the package, is two
things at once:

* the **paragraph index** of every bundled regulation text: its numbered
  paragraphs, in the text's order, each with what it is about, in our own
  words (never the text's; the texts themselves are not part of the project).
  :func:`paragraph_index` reads it; coverage, lint's citation check and the
  docs rest on it alone, so they work wherever the package is installed;
* for each paragraph, either the rules that check it (``rules``), why a
  transcript cannot show whether it was obeyed (``not_checkable``), or what a
  rule would have to check that no rule does yet (``gap``).

A text that is public but not bundled with the regulation texts (Pennsylvania's
chapters) is indexed the same way, and says why only its index is here
(``not_bundled: ...``): the index is ours, written from the public code's
table of contents, and nothing verifies it unless the text is put beside the
others.

The regulation texts, where they are at hand (``$BACCARAT_AUDIT_REGULATIONS``
or ``../shared/regulations``), only verify the index: :func:`paragraphs` splits
a text into its numbered paragraphs and :func:`index_problems` says where the
index and the texts disagree (``tests/test_coverage.py``, and ``ruleset lint``
of the map).  Nothing works differently with them.

The rulesets' citations are the other half of the map: a rule citing a
paragraph of a bundled text checks it.  :func:`coverage` joins the two, per
ruleset, and says for every paragraph: covered (by which rules), not
checkable (why), or missing (what, and why it is missing).  It never counts a
paragraph as covered because the map says so: only an enabled rule of the
ruleset that the map or the citation names covers it.

Given what a recording holds (``coverage --transcript``: its ``recorded``,
:mod:`compliance.evidence`), a covered paragraph whose every rule needs
evidence the recording lacks is *not recorded*: the rules exist, but this
evidence does not let them judge it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from compliance import evidence
from compliance.checks import REGISTRY
from compliance.errors import UserError
from compliance.ruleset.loader import bundled_dir, bundled_rulesets
from compliance.ruleset.models import Ruleset
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
    path = path or bundled_dir() / MAP_FILE
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


# ------------------------------------------------------------------ joining map and rulesets


@dataclass
class Row:
    paragraph: str
    about: str
    status: str  # covered, not-checkable, missing; not-recorded (its rules need evidence the recording lacks)
    rules: list[str]
    reason: str = ""  # why not checkable, what is missing, or what was not recorded


@dataclass
class TextCoverage:
    text: str
    title: str
    ruleset: str | None
    rows: list[Row]
    indexed: bool = True  # a bundled text: its paragraphs come from the paragraph index
    not_bundled: str | None = None  # an index of a text that is not bundled: why

    @property
    def checkable(self) -> int:
        return sum(r.status != "not-checkable" for r in self.rows)

    @property
    def covered(self) -> int:
        return sum(r.status == "covered" for r in self.rows)

    @property
    def missing(self) -> list[Row]:
        return [r for r in self.rows if r.status == "missing"]

    @property
    def not_recorded(self) -> int:
        return sum(r.status == "not-recorded" for r in self.rows)


@dataclass
class Outside:
    """A rule resting on a paragraph of a text that is not bundled."""

    ruleset: str
    rule: str
    citation: str
    not_recorded: str = ""  # with a recording given: why this evidence does not let the rule judge


@dataclass
class Coverage:
    texts: list[TextCoverage]
    outside: list[Outside] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # map and rulesets disagree
    recorded: tuple[str, ...] | None = None  # the evidence of the recording it was worked out for, if one
    notes: dict[str, str] = field(default_factory=dict)  # the map's notes (texts not reached, red teams)
    # the history of each ruleset that has one: (ruleset id, the version judged here (None: every day), the
    # amendments and selections, each its words and the source it rests on)
    histories: list[tuple[str, str | None, list[tuple[str, str]]]] = field(default_factory=list)

    @property
    def checkable(self) -> int:
        return sum(t.checkable for t in self.texts)

    @property
    def covered(self) -> int:
        return sum(t.covered for t in self.texts)

    def as_dict(self) -> dict:
        extra = {} if self.recorded is None else {"recorded": list(self.recorded)}
        return extra | {
            "checkable": self.checkable,
            "covered": self.covered,
            "share": _share(self.covered, self.checkable),
            "texts": [{
                "text": t.text, "title": t.title, "ruleset": t.ruleset, "bundled": t.not_bundled is None,
                "checkable": t.checkable,
                "covered": t.covered, "share": _share(t.covered, t.checkable),
                "paragraphs": [{"paragraph": r.paragraph, "about": r.about, "status": r.status, "rules": r.rules,
                                "reason": r.reason} for r in t.rows],
            } for t in self.texts],
            "outside_bundled_texts": [{"ruleset": o.ruleset, "rule": o.rule, "citation": o.citation}
                                      | ({"not_recorded": o.not_recorded} if o.not_recorded else {})
                                      for o in self.outside],
            "problems": self.problems,
        } | ({"notes": self.notes} if self.notes else {}) | ({"histories": [
            {"ruleset": rid, "version": version, "amendments": [{"words": w, "source": src} for w, src in items]}
            for rid, version, items in self.histories]} if self.histories else {})


def _share(covered: int, checkable: int) -> str:
    return f"{(covered / checkable * 100) if checkable else 100:.1f}%"


def texts_of(ruleset: Ruleset) -> dict[str, str]:
    """Bundled text file -> source key, for the sources of a ruleset that have one."""
    return {s.text: key for key, s in sorted(ruleset.sources.items()) if s.text}


def citing(ruleset: Ruleset, text: str) -> dict[str, list[str]]:
    """paragraph -> ids of the enabled rules of ``ruleset`` whose citation names it in ``text``."""
    out: dict[str, list[str]] = {}
    for r in ruleset.rules:
        for c in r.all_citations():  # its own citation, and what it cites at the tables of each game
            src = ruleset.sources.get(c.source)
            if src is not None and src.text == text:
                for p in c.at:
                    if r.id not in out.setdefault(p, []):
                        out[p].append(r.id)
    return out


def unjudged(ruleset: Ruleset, have: frozenset[str] | None) -> dict[str, str]:
    """rule id -> why the evidence ``have`` does not let it judge ("calls not recorded"); none when ``have`` is None."""
    if have is None:
        return {}
    out = {}
    for r in ruleset.rules:
        kind = REGISTRY[r.check]
        lacking = evidence.missing(kind.needs, have)
        if lacking:
            part = [words for part, words in kind.partly if have.issuperset(part)]
            out[r.id] = evidence.reason(lacking) + (f"; judges only {'; '.join(part)}" if part else "")
    return out


def coverage(rulesets: list[Ruleset] | None = None, cmap: CoverageMap | None = None,
             recorded: tuple[str, ...] | None = None, have: frozenset[str] | None = None) -> Coverage:
    """The coverage of every bundled text by the rulesets that rest on it (default: the bundled ones).

    Paragraphs are taken from the paragraph index; a map other than the bundled one is compared with it.
    With ``have`` (the evidence of a recording, whose ``recorded`` list it came from), a paragraph is covered
    only by the rules that evidence lets judge."""
    cmap = cmap or load_map()
    all_rulesets = rulesets if rulesets is not None else bundled_rulesets()
    restricted = rulesets is not None
    result = Coverage(texts=[], recorded=recorded if have is not None else None,
                      notes={} if restricted else dict(cmap.notes))
    by_text: dict[str, list[Ruleset]] = {}
    for rs in all_rulesets:
        for text in texts_of(rs):
            by_text.setdefault(text, []).append(rs)
    names = sorted(by_text) if restricted else sorted(set(cmap.texts) | set(by_text))
    for text in names:
        entries = cmap.texts.get(text)
        if entries is None:
            result.problems.append(MapProblem(cmap.path, None, f"no entry for {text}, which "
                                   + ", ".join(r.id for r in by_text.get(text, [])) + " rest(s) on"))
            entries = {}
        paras = paragraph_index(text)
        for rs in by_text.get(text) or [None]:
            result.texts.append(_text_coverage(text, entries, paras, rs, cmap, result.problems,
                                               unjudged(rs, have) if rs is not None else {}))
            result.texts[-1].not_bundled = cmap.not_bundled.get(text)
    for rs in all_rulesets:
        first = rs.versions[0].period if rs.versions else rs.period
        if rs.history or (first is not None and first.cite):
            items = ([(f"as first made: {first.cite}" + (f", in force from {first.known_from}" if first.known_from
                                                         else ""), first.cite)] if first and first.cite else [])
            items += [(f"{a.title}: {a.words()}" + (f"; changes {', '.join(a.changes)}" if a.changes else ""), a.cite)
                      for a in rs.history]
            version = rs.period.words() if rs.period is not None and not rs.history else None
            result.histories.append((rs.id, version, items))
    for rs in all_rulesets:
        why = unjudged(rs, have)
        for r in rs.rules:
            outside = [c for c in r.all_citations() if (src := rs.sources.get(c.source)) is not None and not src.text]
            if outside:
                result.outside.append(Outside(rs.id, r.id, rs.cite(outside), why.get(r.id, "")))
    return result


def _text_coverage(text: str, entries: dict[str, Entry], paras: dict[str, str] | None, rs: Ruleset | None,
                   cmap: CoverageMap, problems: list[str], unjudged_rules: dict[str, str]) -> TextCoverage:
    title = ""
    cited: dict[str, list[str]] = {}
    enabled: set[str] = set()
    disabled: set[str] = set()
    if rs is not None:
        key = texts_of(rs)[text]
        title = rs.sources[key].title
        cited = citing(rs, text)
        enabled = {r.id for r in rs.rules}
        disabled = set(rs.disabled)
    order = list(paras) if paras is not None else list(entries)
    order += [p for p in entries if p not in order]
    rows = []
    for pid in order:
        e = entries.get(pid)
        if paras is not None and pid not in paras:
            problems.append(MapProblem(cmap.path, e.line, f"{text} has no paragraph {pid!r}"))
        if e is None:
            problems.append(MapProblem(cmap.path, None, f"{text} paragraph {pid} is not in the map"))
            e = Entry(pid, "(not in the coverage map)", gap="the coverage map does not say what this paragraph needs")
        by_citation = cited.get(pid, [])
        listed_here = [r for r in e.rules if r in enabled]
        rules = sorted(set(listed_here) | set(by_citation))
        for r in by_citation:
            if r not in e.rules:
                problems.append(MapProblem(cmap.path, e.line, f"{rs.id} rule {r} cites {text} {pid}, "
                                "but the map does not list it there"))
        if rules:
            if e.not_checkable:
                problems.append(MapProblem(cmap.path, e.line, f"{pid} is marked not checkable, yet {', '.join(rules)} check(s) it"))
            judged = [r for r in rules if r not in unjudged_rules]
            if judged:
                rows.append(Row(pid, e.about, "covered", judged))
            else:
                rows.append(Row(pid, e.about, "not-recorded", rules,
                                "; ".join(f"{r}: {unjudged_rules[r]}" for r in rules)))
        elif e.not_checkable:
            rows.append(Row(pid, e.about, "not-checkable", [], e.not_checkable))
        else:
            why = []
            if rs is None:
                why.append("no bundled ruleset rests on this text")
            absent = [r for r in e.rules if r not in enabled]
            for r in absent:
                why.append(f"{r} is disabled in {rs.id}" if rs is not None and r in disabled
                           else f"{r} is not a rule of {rs.id if rs else 'any bundled ruleset'}")
            if e.gap:
                why.append(e.gap)
            rows.append(Row(pid, e.about, "missing", [], "; ".join(why)))
    return TextCoverage(text, title, rs.id if rs else None, rows, indexed=paras is not None)


# ------------------------------------------------------------------ rendering (formats only)


def render_text(cov: Coverage) -> str:
    out = []
    for t in cov.texts:
        head = f"{t.text}" + (f"  [{t.ruleset}]" if t.ruleset else "  [no ruleset]")
        out.append(head)
        if t.not_bundled:
            out.append(f"  (an index of a text that is not bundled: {t.not_bundled})")
        elif not t.indexed:
            out.append("  (not a bundled text: paragraph ids taken from the map)")
        width = max((len(r.paragraph) for r in t.rows), default=4)
        for r in t.rows:
            mark = {"covered": "covered", "not-checkable": "n/a", "missing": "MISSING",
                    "not-recorded": "NOT-REC"}[r.status]
            detail = r.reason if r.status == "not-recorded" else ", ".join(r.rules) if r.rules else r.reason
            out.append(f"  {r.paragraph:<{width}}  {mark:<8} {r.about}" + (f" — {detail}" if detail else ""))
        out.append(f"  {t.covered} of {t.checkable} checkable paragraphs covered ({_share(t.covered, t.checkable)}); "
                   f"{len(t.rows) - t.checkable} not checkable from a transcript"
                   + (f"; {t.not_recorded} not judged with what this recording holds" if t.not_recorded else ""))
        out.append("")
    missing = [(t, r) for t in cov.texts for r in t.missing]
    if missing:
        out.append(f"missing ({len(missing)}):")
        for t, r in missing:
            out.append(f"  {t.ruleset or '-'} {t.text} {r.paragraph}: {r.reason}")
        out.append("")
    if cov.outside:
        out.append("rules resting on paragraphs outside the bundled texts (not verifiable here):")
        for o in cov.outside:
            out.append(f"  {o.ruleset} {o.rule}: {o.citation}" + (f" — NOT JUDGED: {o.not_recorded}"
                                                                   if o.not_recorded else ""))
        out.append("")
    for p in cov.problems:
        out.append(f"map out of date: {p}")
    for rid, version, items in cov.histories:
        out.append(f"history of {rid}" + (f" (judged here as in force {version})" if version else "") + ":")
        out += [f"  {words}" for words, _ in items]
    for title, text in cov.notes.items():
        out.append(f"note: {title}: {text}")
    if cov.recorded is not None:
        out.append("with what the recording holds: " + (", ".join(cov.recorded) or "nothing")
                   + " (paragraphs its evidence does not let the rules judge are NOT-REC)")
    out.append(f"total: {cov.covered} of {cov.checkable} checkable paragraphs covered "
               f"({_share(cov.covered, cov.checkable)})")
    return "\n".join(out) + "\n"


def _md(s: str) -> str:
    return s.replace("|", "\\|")


def render_markdown(cov: Coverage) -> str:
    out = ["# Regulation coverage", "",
           "<!-- generated by `baccarat-audit coverage --format markdown` (make docs); do not edit -->", "",
           "Every paragraph of the regulation texts the rulesets rest on, with the rules that check it, "
           "or why a transcript cannot show whether it was obeyed. The map is `rulesets/coverage.yaml`; "
           "a paragraph counts as covered only when an enabled rule of the ruleset checks it.", "",
           f"**Total: {cov.covered} of {cov.checkable} checkable paragraphs covered "
           f"({_share(cov.covered, cov.checkable)}).**", "",
           "| text | ruleset | checkable | covered | share |", "|---|---|---:|---:|---:|"]
    for t in cov.texts:
        out.append(f"| {t.title or t.text} | {t.ruleset or '—'} | {t.checkable} | {t.covered} | "
                   f"{_share(t.covered, t.checkable)} |")
    out.append("")
    for t in cov.texts:
        out += [f"## {t.title or t.text}", "", f"`{t.text}` — ruleset `{t.ruleset or 'none'}`", ""]
        if t.not_bundled:
            out += [f"An index of a text that is not bundled: {_md(t.not_bundled)}.", ""]
        out += ["| paragraph | about | status | rules / reason |", "|---|---|---|---|"]
        for r in t.rows:
            detail = ", ".join(f"`{x}`" for x in r.rules) if r.rules else _md(r.reason)
            status = {"covered": "covered", "not-checkable": "not checkable", "missing": "**missing**",
                      "not-recorded": "not judged (not recorded)"}[r.status]
            detail = _md(r.reason) if r.status == "not-recorded" else detail
            out.append(f"| {r.paragraph} | {_md(r.about)} | {status} | {detail} |")
        out.append("")
    if cov.outside:
        out += ["## Rules resting on texts that are not bundled", "",
                "These rules cite paragraphs outside the bundled extracts; their paragraphs cannot be verified "
                "against a text here.", "", "| ruleset | rule | citation |", "|---|---|---|"]
        out += [f"| {o.ruleset} | `{o.rule}` | {_md(o.citation)} |" for o in cov.outside]
        out.append("")
    if cov.histories:
        out += ["## Histories", "",
                "The versions of each ruleset that has a history: a coup is judged by the version in force on the "
                "day it was dealt (`baccarat-audit ruleset history ID`). Each line names the register notice it "
                "rests on; what a history leaves out, and why, is in the notes below.", ""]
        for rid, version, items in cov.histories:
            out += [f"### {rid}" + (f" (judged here as in force {version})" if version else ""), ""]
            out += [f"* {_md(words)}" for words, _ in items] + [""]
    if cov.notes:
        out += ["## Notes", ""]
        for title, text in cov.notes.items():
            out += [f"### {_md(title)}", "", _md(text), ""]
    if cov.problems:
        out += ["## Map out of date", ""] + [f"* {_md(p)}" for p in cov.problems] + [""]
    return "\n".join(out)
