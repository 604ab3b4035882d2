"""``baccarat-audit test-rules DIR``: rule tests, the way Semgrep and OPA test their rules.

A rule test is a transcript beside a sidecar ``<name>.expected.yaml`` saying which rules
must fire (``fires``), which must stay silent (``silent``, or ``all``) and which findings
are known gaps.  :func:`discover` pairs transcripts with sidecars, :func:`read_sidecar`
reads one, :func:`judge` compares a case's findings with it, :func:`untested` lists the
rules lacking a firing or a non-firing test, :func:`run_dir` does all of it for a folder
(``render_text``/``render_json`` print it), and :func:`examples` gives ``rules show`` its
examples.

The sidecar's format and what ``test-rules`` reports: docs/rule-authoring.md, "Rule tests".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from importlib import resources
from pathlib import Path

from compliance import evidence
from compliance.engine import Checker
from compliance.errors import UserError
from compliance.findings import Finding
from compliance.reading.reader import open_transcript
from compliance.ruleset.loader import load_jurisdiction, load_ruleset
from compliance.ruleset.models import Ruleset
from compliance.yamlread import YamlDoc, read_yaml

SUFFIX = ".expected.yaml"
TRANSCRIPT_SUFFIXES = (".json", ".jsonl")


def bundled_dir() -> Path:
    """The rule tests shipped with the package (``fixtures/rules`` of the project)."""
    return Path(str(resources.files("compliance.rule_tests")))


@dataclass(frozen=True)
class Expected:
    """One expected finding: a rule, and optionally the coup and event it is reported at."""

    rule: str
    coup: int | None = None
    event: int | None = None
    reason: str | None = None  # known gaps only

    def matches(self, f: Finding) -> bool:
        return f.rule == self.rule and (self.coup is None or f.coup == self.coup) and (
            self.event is None or f.event == self.event)

    def __str__(self) -> str:
        where = "".join(f" {k} {v}" for k, v in (("coup", self.coup), ("event", self.event)) if v is not None)
        return self.rule + where


@dataclass
class Sidecar:
    path: Path
    ruleset: str | None
    description: str
    fires: list[Expected]
    silent: list[str] | str  # rule ids, or "all"
    known_gaps: list[Expected]
    require_evidence: tuple[str, ...] = ()  # the run's --require-evidence for this test


@dataclass
class CaseResult:
    """The outcome of one rule test."""

    transcript: str
    sidecar: str
    description: str = ""
    ruleset: str | None = None  # id of the ruleset the case ran under
    status: str = "pass"  # pass, fail, error
    failures: list[str] = field(default_factory=list)
    gaps: list[tuple[Expected, bool]] = field(default_factory=list)  # (gap, now reported?)
    fired: set[str] = field(default_factory=set)  # rules this case tests as firing
    silenced: set[str] = field(default_factory=set)  # rules this case tests as silent
    firing: dict[str, Finding] = field(default_factory=dict)  # rule -> the first expected finding reported

    @property
    def firing_coups(self) -> dict[str, int]:
        """rule -> the coup where it fired first."""
        return {rule: f.coup for rule, f in self.firing.items()}

    def fail(self, message: str) -> None:
        self.status = "fail" if self.status != "error" else "error"
        self.failures.append(message)

    def error(self, message: str) -> None:
        self.status = "error"
        self.failures.append(message)


@dataclass
class Untested:
    ruleset: str
    rule: str
    lacks: list[str]  # "firing", "non-firing"


@dataclass
class SuiteResult:
    root: str
    cases: list[CaseResult]
    untested: list[Untested]
    orphans: list[str] = field(default_factory=list)  # sidecars without a transcript

    @property
    def failed(self) -> list[CaseResult]:
        return [c for c in self.cases if c.status != "pass"]

    @property
    def ok(self) -> bool:
        return not self.failed and not self.orphans

    def as_dict(self) -> dict:
        return {
            "root": self.root,
            "cases": [{
                "transcript": c.transcript, "sidecar": c.sidecar, "ruleset": c.ruleset, "status": c.status,
                "description": c.description, "failures": c.failures,
                "known_gaps": [{"rule": g.rule, "coup": g.coup, "event": g.event, "reason": g.reason,
                                "now_reported": now} for g, now in c.gaps],
                "fires": sorted(c.fired), "silent": sorted(c.silenced),
            } for c in self.cases],
            "orphan_sidecars": self.orphans,
            "untested": [{"ruleset": u.ruleset, "rule": u.rule, "lacks": u.lacks} for u in self.untested],
            "summary": self.summary(),
        }

    def summary(self) -> dict:
        return {
            "cases": len(self.cases),
            "passed": sum(c.status == "pass" for c in self.cases),
            "failed": sum(c.status == "fail" for c in self.cases),
            "errors": sum(c.status == "error" for c in self.cases) + len(self.orphans),
            "known_gaps": sum(len(c.gaps) for c in self.cases),
            "without_firing_test": sum("firing" in u.lacks for u in self.untested),
            "without_non_firing_test": sum("non-firing" in u.lacks for u in self.untested),
        }


# ------------------------------------------------------------------ the sidecar


def read_sidecar(path: Path) -> Sidecar:
    """Read and validate an ``.expected.yaml`` file (every problem names file:line:column)."""
    doc = read_yaml(path, what="sidecar")
    data = doc.data
    if not isinstance(data, dict):
        raise UserError("an expected.yaml is a mapping with fires / silent / known_gaps", doc.where())
    allowed = {"ruleset", "description", "fires", "silent", "known_gaps", "require_evidence"}
    for k in data:
        if k not in allowed:
            raise UserError(f"unknown key {k!r} (allowed: {', '.join(sorted(allowed))})", doc.where((k,)))
    ruleset = data.get("ruleset")
    if ruleset is not None and not isinstance(ruleset, str):
        raise UserError("`ruleset` is a ruleset id or a path", doc.where(("ruleset",)))
    description = data.get("description") or ""
    if not isinstance(description, str):
        raise UserError("`description` is one line of text", doc.where(("description",)))
    fires = _expectations(doc, "fires", gap=False)
    gaps = _expectations(doc, "known_gaps", gap=True)
    silent = data.get("silent", [])
    if silent is None:
        silent = []
    if isinstance(silent, str):
        if silent != "all":
            raise UserError("`silent` is a list of rule ids or the word all", doc.where(("silent",)))
    elif not isinstance(silent, list) or not all(isinstance(s, str) for s in silent):
        raise UserError("`silent` is a list of rule ids or the word all", doc.where(("silent",)))
    else:
        silent = [str(s) for s in silent]
    if not fires and not silent and not gaps:
        raise UserError("the sidecar expects nothing: give fires, silent or known_gaps", doc.where())
    require = data.get("require_evidence", [])
    try:
        if not isinstance(require, list) or not all(isinstance(n, str) for n in require):
            raise ValueError("`require_evidence` is a list of evidence names (as check --require-evidence)")
        evidence.required(require)
    except ValueError as e:
        raise UserError(str(e), doc.where(("require_evidence",))) from None
    return Sidecar(path, ruleset, " ".join(description.split()), fires, silent, gaps, tuple(require))


def _expectations(doc: YamlDoc, key: str, gap: bool) -> list[Expected]:
    items = doc.data.get(key)
    if items is None:
        return []
    if not isinstance(items, list):
        raise UserError(f"`{key}` is a list of {{rule, coup, event}}", doc.where((key,)))
    out = []
    allowed = {"rule", "coup", "event", "reason"} if gap else {"rule", "coup", "event"}
    for i, item in enumerate(items):
        at = doc.where((key, i))
        if isinstance(item, str):
            item = {"rule": item}
        if not isinstance(item, dict):
            raise UserError(f"`{key}` entries are mappings like {{rule: ID, coup: 3}}", at)
        unknown = set(item) - allowed
        if unknown:
            raise UserError(f"unknown key(s) {', '.join(sorted(unknown))} in `{key}` "
                            f"(allowed: {', '.join(sorted(allowed))})", at)
        if not isinstance(item.get("rule"), str):
            raise UserError(f"every `{key}` entry names its `rule`", at)
        for k in ("coup", "event"):
            v = item.get(k)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise UserError(f"`{k}` is a number", at)
        if gap and not isinstance(item.get("reason"), str):
            raise UserError("a known gap says why: give `reason`", at)
        out.append(Expected(item["rule"], item.get("coup"), item.get("event"), item.get("reason")))
    return out


# ------------------------------------------------------------------ running


def discover(root: Path) -> tuple[list[tuple[Path, Path | None]], list[Path]]:
    """(transcript, its sidecar or None) under ``root``, sorted; and sidecars without a transcript."""
    transcripts = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in TRANSCRIPT_SUFFIXES)
    pairs = []
    used = set()
    for t in transcripts:
        side = t.with_name(t.name[: -len(t.suffix)] + SUFFIX)
        pairs.append((t, side if side.is_file() else None))
        used.add(side)
    orphans = sorted(p for p in root.rglob("*" + SUFFIX) if p not in used)
    return pairs, orphans


class Runner:
    """Runs rule tests; loads each ruleset and builds each checker once."""

    def __init__(self, jurisdictions: dict[str, str] | None = None):
        self.jurisdictions = tuple((jurisdictions or {}).items())  # the configuration's: table.jurisdiction -> ruleset
        self._checkers: dict[tuple, Checker] = {}  # (ruleset, evidence required) -> its checker
        self.rulesets: dict[str, Ruleset] = {}  # ruleset id -> ruleset, for every ruleset a case ran under
        self._ids: dict[str, str] = {}  # a ruleset reference ("\0" and a table.jurisdiction) -> its id

    def _ruleset_ref(self, transcript: Path, side: Sidecar | None) -> str | None:
        """The sidecar's ruleset (an id, or a file beside it), else None: the transcript's table.jurisdiction,
        which, as for `check`, may only be a bundled ruleset id (the Checker refuses anything else)."""
        if side is not None and side.ruleset:
            ref = side.ruleset
            if ref.endswith((".yaml", ".yml")):
                return str(side.path.parent / ref)
            return ref
        source = open_transcript(transcript, str(transcript))
        source.close()
        if not source.header.table.jurisdiction:
            raise UserError("the transcript names no table.jurisdiction and the sidecar no ruleset", str(transcript))
        return None

    def ruleset_id(self, transcript: Path, side: Sidecar) -> str | None:
        """The id of the ruleset a case runs under, found without checking it (None: the case cannot run)."""
        try:
            if side.ruleset:
                ref = self._ruleset_ref(transcript, side)
            else:  # the transcript's table.jurisdiction, read once
                source = open_transcript(transcript, str(transcript))
                source.close()
                ref = "\0" + (source.header.table.jurisdiction or "")
            if ref not in self._ids:
                self._ids[ref] = (load_jurisdiction(ref[1:], dict(self.jurisdictions)).id if ref.startswith("\0")
                                  else load_ruleset(ref).id)
            return self._ids[ref]
        except UserError:
            return None

    def run_case(self, transcript: Path, sidecar: Path | None, display_root: Path | None = None) -> CaseResult:
        shown = str(transcript.relative_to(display_root)) if display_root else str(transcript)
        case = CaseResult(transcript=shown, sidecar=str(sidecar) if sidecar else "")
        if sidecar is None:
            case.error(f"no sidecar {transcript.name[: -len(transcript.suffix)]}{SUFFIX}: "
                       "say what must fire and what must stay silent")
            return case
        try:
            side = read_sidecar(sidecar)
            case.description = side.description
            ref = self._ruleset_ref(transcript, side)
            key = (ref, side.require_evidence)
            checker = self._checkers.get(key)
            if checker is None:
                checker = self._checkers[key] = Checker(ruleset=ref, jurisdictions=self.jurisdictions,
                                                        require_evidence=evidence.required(side.require_evidence))
            result = checker.check_file(transcript, shown)
        except UserError as e:
            case.error(str(e))
            return case
        rs = result.ruleset
        case.ruleset = rs.id
        self.rulesets.setdefault(rs.id, rs)
        judge(case, side, rs, result.findings)
        return case


def judge(case: CaseResult, side: Sidecar, rs: Ruleset, findings: list[Finding]) -> None:
    """Compare what the checker found with what the sidecar expects."""
    enabled = {r.id for r in rs.rules}
    known = enabled | set(rs.disabled)
    named = [e.rule for e in side.fires] + [g.rule for g in side.known_gaps] + (
        list(side.silent) if isinstance(side.silent, list) else [])
    for rid in dict.fromkeys(named):
        if rid not in known:
            case.error(f"{rid} is not a rule of {rs.id}")
    if case.status == "error":
        return
    for e in side.fires:
        hits = [f for f in findings if e.matches(f)]
        if hits:
            case.firing.setdefault(e.rule, hits[0])
        elif e.rule in rs.disabled:
            case.fail(f"expected {e}: the rule is disabled in {rs.id}")
        else:
            same_rule = [f for f in findings if f.rule == e.rule]
            seen = "; reported at " + ", ".join(_at(f) for f in same_rule[:5]) if same_rule else ""
            case.fail(f"expected {e}: not reported{seen}")
        case.fired.add(e.rule)
    if side.silent == "all":
        loud = {e.rule for e in side.fires} | {g.rule for g in side.known_gaps}
        quiet = [r.id for r in rs.rules if r.id not in loud]
    else:
        quiet = list(side.silent)
    quiet_set = set(quiet)
    for f in findings:
        if f.rule in quiet_set:
            case.fail(f"{f.rule} must be silent, but reported {_at(f)}: {f.message}")
    case.silenced |= {r for r in quiet if r in enabled}
    for g in side.known_gaps:
        case.gaps.append((g, any(g.matches(f) for f in findings)))


def _at(f: Finding) -> str:
    return "coup " + str(f.coup) + ("" if f.event is None else f" event {f.event}")


def untested(cases: list[CaseResult], rulesets: list[Ruleset]) -> list[Untested]:
    """Rules of ``rulesets`` without a firing test or without a non-firing test among ``cases``."""
    fired: dict[str, set[str]] = {}
    silenced: dict[str, set[str]] = {}
    for c in cases:
        if c.ruleset is None:
            continue
        fired.setdefault(c.ruleset, set()).update(c.fired)
        silenced.setdefault(c.ruleset, set()).update(c.silenced)
    out = []
    for rs in sorted(rulesets, key=lambda r: r.id):
        for r in rs.rules:
            lacks = []
            if r.id not in fired.get(rs.id, ()):
                lacks.append("firing")
            if r.id not in silenced.get(rs.id, ()):
                lacks.append("non-firing")
            if lacks:
                out.append(Untested(rs.id, r.id, lacks))
    return out


def run_dir(root: str | Path, rulesets: list[Ruleset] | None = None,
            jurisdictions: dict[str, str] | None = None) -> SuiteResult:
    """Run every rule test under ``root``; report untested rules of ``rulesets`` and of every ruleset a test
    ran under.  ``jurisdictions``: the configuration's map of ``table.jurisdiction`` values to rulesets."""
    root = Path(root)
    if not root.is_dir():
        raise UserError("no such directory", str(root))
    pairs, orphans = discover(root)
    runner = Runner(jurisdictions)
    cases = [runner.run_case(t, s, root) for t, s in pairs]
    wanted = {rs.id: rs for rs in rulesets or ()}
    for rid, rs in runner.rulesets.items():
        wanted.setdefault(rid, rs)
    return SuiteResult(str(root), cases, untested(cases, list(wanted.values())), [str(p) for p in orphans])


# ------------------------------------------------------------------ rendering (formats only)


def render_text(suite: SuiteResult, verbose: bool = False) -> str:
    out = []
    for c in suite.cases:
        if c.status == "pass":
            if verbose:
                out.append(f"PASS  {c.transcript}" + (f"  ({c.description})" if c.description else ""))
        else:
            out.append(f"{c.status.upper():<5} {c.transcript}" + (f"  ({c.description})" if c.description else ""))
            out += [f"      {m}" for m in c.failures]
        for g, now in c.gaps:
            note = "  [now reported: move it to `fires`]" if now else ""
            out.append(f"GAP   {c.transcript}: {g} — {g.reason}{note}")
    for o in suite.orphans:
        out.append(f"ERROR {o}: no transcript next to this sidecar")
    if suite.untested:
        out.append("")
        out.append("rules without a firing or a non-firing test:")
        width = max(len(u.rule) for u in suite.untested)
        for u in suite.untested:
            out.append(f"  {u.ruleset:<12} {u.rule:<{width}}  no {' and no '.join(u.lacks)} test")
    s = suite.summary()
    out.append("")
    out.append(f"{s['cases']} rule tests: {s['passed']} passed, {s['failed']} failed, {s['errors']} errors; "
               f"{s['known_gaps']} known gaps; {s['without_firing_test']} rules without a firing test, "
               f"{s['without_non_firing_test']} without a non-firing test")
    return "\n".join(out).lstrip("\n") + "\n"


def render_json(suite: SuiteResult) -> str:
    return json.dumps(suite.as_dict(), indent=2, sort_keys=True) + "\n"


# ------------------------------------------------------------------ examples for `rules show`


@dataclass
class Example:
    transcript: Path
    coup: int
    raw: dict
    finding: Finding | None = None  # for a breaching example: what the rule reported


def examples(root: Path, ruleset: Ruleset, rule: str) -> tuple[Example | None, Example | None]:
    """A compliant and a breaching example coup for ``rule``, taken from the passing rule tests under ``root``."""
    if not root.is_dir():
        return None, None
    pairs, _ = discover(root)
    runner = Runner()
    compliant = breaching = None
    sides = []
    for t, s in pairs:
        if s is None:
            continue
        try:
            sides.append((t, s, read_sidecar(s)))
        except UserError:
            continue
    # a clean transcript (nothing fires) is the best compliant example: look at those first
    sides.sort(key=lambda x: (bool(x[2].fires), str(x[0])))
    for t, s, side in sides:
        want_breach = breaching is None and any(e.rule == rule for e in side.fires)
        want_compliant = compliant is None and not any(e.rule == rule for e in side.fires) and (
            side.silent == "all" or (isinstance(side.silent, list) and rule in side.silent))
        if not (want_breach or want_compliant) or runner.ruleset_id(t, side) != ruleset.id:
            continue
        case = runner.run_case(t, s)
        if case.status != "pass" or case.ruleset != ruleset.id:
            continue
        if want_breach and rule in case.firing_coups:
            breaching = _example(t, case.firing_coups[rule])
            if breaching is not None:
                breaching.finding = case.firing[rule]
        elif want_compliant and rule in case.silenced:
            compliant = _example(t, None)
        if compliant and breaching:
            break
    return compliant, breaching


def _example(path: Path, coup: int | None) -> Example | None:
    for record in open_transcript(path, str(path)).records():
        if record.error is None and (coup is None or record.number == coup):
            return Example(path, record.number, json.loads(record.raw, parse_float=Decimal))
    return None
