"""Regulation coverage: which paragraph of which regulation each rule checks, and which it cannot.

The paragraph index of the bundled texts (:mod:`compliance.paragraphs`, ``rulesets/coverage.yaml``) says
for each paragraph the rules that check it, why a transcript cannot show whether it was obeyed, or what no
rule checks yet.  :func:`coverage` joins it with the rulesets' citations, per ruleset: covered (by which
enabled rules), not checkable (why) or missing (what); never covered because the map alone says so; with
``coverage --transcript``, *not recorded* where every rule of a paragraph needs evidence the recording
lacks.  :func:`lint_map` is ``ruleset lint`` of the map itself; ``render_*`` print the result.

Why the index is ours and what the texts verify: docs/rule-authoring.md, "Regulation coverage";
paragraphs a recording cannot judge: docs/transcript.md, "Not judged".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from compliance import evidence, lintcodes
from compliance.checks import REGISTRY
from compliance.errors import UserError
from compliance.paragraphs import MAP_FILE, CoverageMap, Entry, MapProblem, index_problems, load_map, paragraph_index
from compliance.ruleset.lint import Diagnostic, from_where, lint_file
from compliance.ruleset.loader import bundled_rulesets
from compliance.ruleset.models import Ruleset

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


# ------------------------------------------------------------------ ruleset lint of the map


def lint_map(path: str | Path, display: str | None = None) -> list[Diagnostic]:
    """``ruleset lint`` of the coverage map: its form, whether it agrees with the bundled rulesets (paragraph
    ids, rules citing a paragraph it does not list them under) and, where the regulation texts are at hand,
    whether its index agrees with them; sorted by place."""
    display = display or str(path)
    try:
        cmap = load_map(Path(path))
    except UserError as e:
        _, line, col = from_where(e.where, display)
        return [Diagnostic(display, line, col, "error", lintcodes.COVERAGE_MAP.code, e.message)]
    found = [Diagnostic(display, problem.line or 1, 1, "error", lintcodes.COVERAGE_MAP.code, problem.message)
             for problem in coverage(cmap=cmap).problems + index_problems(cmap)]
    return sorted(found, key=Diagnostic.sort_key)


def lint_files(paths: list[str | Path]) -> list[Diagnostic]:
    """``ruleset lint`` of each file: the coverage map by :func:`lint_map`, a ruleset by its lint."""
    out: list[Diagnostic] = []
    for p in paths:
        out.extend(lint_map(p) if Path(p).name == MAP_FILE else lint_file(p))
    return out
