"""The check: read -> replay -> checks -> findings, for one transcript at a time.

    transcript + ruleset (validated models)
        -> Replayer (one pass per coup builds its CoupState)
        -> each enabled rule's check kind (pure function of state + params)
        -> Findings, sorted, with the line and column of their events
    and, once the run's transcripts are read, the game's integrity stage (:func:`judge_run`)

A rule is judged in a coup only where the recording holds the evidence its kind needs; elsewhere it is
counted as not judged.  Renderers (:mod:`compliance.report`) only format what this returns.

The flow: docs/architecture.md; not judged: docs/transcript.md, "Not judged".
"""

from __future__ import annotations

import dataclasses
import decimal
import operator
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from compliance import evidence, games, registry
from compliance.checks import REGISTRY
from compliance.context import RunContext
from compliance.errors import UserError
from compliance.findings import MONEY, Finding
from compliance.games.common import ReplayError
from compliance.printable import bounded_name, bounded_staff
from compliance.reading.reader import CoupRecord, TranscriptFile, bounded, open_transcript
from compliance.ruleset import cache as ruleset_cache
from compliance.ruleset.loader import load_jurisdiction
from compliance.ruleset.models import BoundRule, Ruleset
from compliance.transcript.locate import event_offsets, position
from compliance.transcript.staff import Staffing


@dataclass
class TranscriptResult:
    """What checking one transcript gave."""

    transcript: str  # the path as the user gave it
    table: str
    jurisdiction: str | None
    game: str
    ruleset: Ruleset
    coups: int = 0
    unreadable: int = 0
    sha256: str = ""
    findings: list[Finding] = field(default_factory=list)
    states: list | None = None  # the game's CoupPicture of each coup with findings, kept only when a report draws them
    coup_numbers: list[int] | None = None  # every readable coup's number, kept only for reports listing each coup
    # rules not judged for want of evidence: (rule id, the evidence missing) -> coups
    not_judged: dict[tuple[str, tuple[str, ...]], int] = field(default_factory=dict)
    recorded: tuple[str, ...] | None = None  # what the header says the recording holds (None: a v1 transcript)
    ruleset_chosen: bool = False  # the ruleset came from --ruleset (or the configuration), not from the header
    integrity: object | None = None  # what the game's integrity stage gathered (its shoes), when a rule needs it
    # dealer -> the coups they dealt (read or not), where the transcript names who dealt; {} where it names nobody
    dealt: dict[str, int] = field(default_factory=dict)
    # the record's findings to come (record.declaration, record.evidence-missing): key -> [finding at the first
    # coup, its counts left open; coups]; made into findings once every coup is read (finish_record)
    record_tally: dict[str, list] = field(default_factory=dict)
    rejected_rows: int = 0  # rows of the recorders' logs the import could not use (format 1.1 `rejected_rows`)
    # each version of the ruleset's history that judged coups (VersionUse), in the order first used; [] for a
    # ruleset without history.  ``dated_by``: how the coups were dated (see Checker._check_source)
    versions: list = field(default_factory=list)
    dated_by: str | None = None
    # where other transcripts of the run name the same table: "joined" (the integrity stage judged them as one
    # table's record: their shoes follow each other) or "apart" (each as a table of its own); None otherwise
    shared_table: str | None = None


@dataclass
class VersionUse:
    """A version of a ruleset's history (its own :class:`Ruleset`, with its ``period``) and the coups it judged."""

    ruleset: Ruleset
    coups: int = 0
    first: int | None = None  # the first and last coup numbers it judged
    last: int | None = None
    undated: int = 0  # of its coups, those that gave no date (judged by the current version)
    earliest: str | None = None  # the earliest day of its coups

    def merge(self, other: VersionUse) -> None:
        """Count in the coups ``other`` judged under the same version (another chunk of the file)."""
        self.coups += other.coups
        self.undated += other.undated
        self.first = min((x for x in (self.first, other.first) if x is not None), default=None)
        self.last = max((x for x in (self.last, other.last) if x is not None), default=None)
        self.earliest = min((x for x in (self.earliest, other.earliest) if x is not None), default=None)

    def add(self, number: int | None, undated: bool, day: str | None) -> None:
        self.coups += 1
        if undated:
            self.undated += 1
        if day is not None and (self.earliest is None or day < self.earliest):
            self.earliest = day
        if number is not None:  # (compared, not min/max: this runs once a coup)
            if self.first is None or number < self.first:
                self.first = number
            if self.last is None or number > self.last:
                self.last = number


def _day_of(coup) -> str | None:
    """The day a decoded coup was dealt: the date of its first timestamped event (YYYY-MM-DD), else None."""
    for e in getattr(coup, "events", None) or ():
        at = e.at
        if at is not None:
            return at[:10] if len(at) >= 10 and at[4] == "-" else None
    return None


class _Version:
    """What a transcript's coups are judged with under one version of its ruleset, bound the first time needed."""

    __slots__ = ("ruleset", "table", "rules", "unreadable_rule", "by_key", "use")

    def __init__(self, ruleset: Ruleset, table, use: VersionUse | None):
        self.ruleset, self.table, self.use = ruleset, table, use
        self.rules = [(r, REGISTRY[r.check].fn) for r in ruleset.rules if r.category not in ENGINE_REPORTED]
        self.unreadable_rule = next((r for r in ruleset.rules if r.category == "transcript.unreadable"), None)
        # (dealing method, evidence) -> the rules' plan (Checker._plan)
        self.by_key: dict[tuple, tuple[list, list, list]] = {}


class RulesetCache:
    """Loads each ruleset once per run: the run's own, handed to every unit of work and every worker process.

    The ruleset is the operator's choice (the context's ``ruleset``: --ruleset or the
    configuration's ``ruleset``, an id or a file), else the transcript's
    ``table.jurisdiction``, which may only be a bundled ruleset id or one the
    configuration maps (``jurisdictions``: id -> ruleset id or file): the
    evidence never names the file it is judged by.  With the context's ``cache``, a ruleset comes from the
    cache of validated rulesets kept between runs while its files are unchanged (:mod:`compliance.ruleset.cache`).
    A ruleset is loaded once whoever asks for it (the command, for the rules it knows; a transcript's header);
    a ``table.jurisdiction`` that names no usable ruleset is tried once and its error kept, said for each
    transcript that names it.  It pickles, rulesets and all, for the driver's workers (:mod:`compliance._internal.driver`).
    """

    def __init__(self, context: RunContext = RunContext()):
        self.context = context
        self.override = context.ruleset
        self.jurisdictions = context.jurisdiction_map
        self._loaded: dict[str, Ruleset | UserError] = {}  # the override, or table.jurisdiction:<ref> -> its ruleset
        self._by_ref: dict[str, Ruleset] = {}  # ruleset id or file -> the ruleset loaded

    def for_header(self, header, where: str) -> Ruleset:
        if self.override:
            return self.chosen()
        return self.for_jurisdiction(header.table.jurisdiction, where)

    def for_source(self, source: TranscriptFile) -> Ruleset:
        """:meth:`for_header` of an opened transcript: a ``table.jurisdiction`` that names no ruleset is said at
        its place in the file (``file:line:column``)."""
        submission = getattr(source, "submission", None)  # a procedure document's own (compliance.procedures)
        if submission is not None and not self.override:
            return submission
        try:
            return self.for_header(source.header, source.display)
        except UserError as e:
            if e.where != source.display:
                raise
            place = source.header_place("$.table.jurisdiction") or source.header_place("$") or source.display
            raise UserError(e.message, place) from None

    def chosen(self) -> Ruleset | None:
        """The operator's ruleset (--ruleset, the configuration's ``ruleset``); None where there is none."""
        if not self.override:
            return None
        if self.override not in self._loaded:
            self._loaded[self.override] = self.load(self.override)
        return self._loaded[self.override]

    def for_jurisdiction(self, ref: str | None, where: str) -> Ruleset:
        """The ruleset of a transcript whose header (at ``where``) names ``table.jurisdiction`` ``ref``."""
        if not ref:
            raise UserError("the transcript names no table.jurisdiction: choose a ruleset with --ruleset", where)
        key = "table.jurisdiction:" + ref  # never the same entry as an override of the same spelling
        found = self._loaded.get(key)
        if found is None:
            try:
                found = load_jurisdiction(ref, self.jurisdictions, load=self.load)
            except UserError as e:
                found = e
            self._loaded[key] = found
        if isinstance(found, UserError):
            if found.where is None:  # the transcript's table.jurisdiction names no ruleset
                raise UserError(f"table.jurisdiction: {found.message}", where) from None
            raise UserError(found.message, found.where) from None
        return found

    def load(self, ref: str, allow_abstract: bool = False) -> Ruleset:
        """The ruleset ``ref`` (a bundled id or a file), loaded the first time it is asked for; ``allow_abstract``:
        an abstract base may be loaded (the rules a command knows of), else it is refused as the loader refuses it."""
        found = self._by_ref.get(ref)
        if found is not None and (allow_abstract or not found.abstract):
            return found
        ruleset = ruleset_cache.load(ref, allow_abstract=allow_abstract, enabled=self.context.cache,
                                     bounds=self.context.limits)
        self._by_ref[ref] = ruleset
        return ruleset

    def loaded(self) -> list[Ruleset]:
        """Every ruleset loaded so far, in the order first loaded."""
        return list(self._by_ref.values())

    def __setstate__(self, state):  # in a worker process: the check kinds of the rulesets' games registered
        self.__dict__.update(state)
        for ruleset in self._by_ref.values():
            registry.load_checks(getattr(ruleset, "game_kind", None) or registry.BACCARAT)


#: the categories whose findings the engine reports itself (their check kinds only document them)
ENGINE_REPORTED = frozenset({"transcript.unreadable", "record.declaration", "record.evidence-missing"})


class _RecordRules:
    """What a transcript's record holds, against what it says and what is required of it: the findings of
    ``record.declaration`` (a declaration its coups contradict) and ``record.evidence-missing`` (evidence the
    ruleset's rule or the run requires that coups lack), each gathered coup by coup and reported once."""

    def __init__(self, ruleset: Ruleset, run_requires: frozenset[str]):
        by_category = {r.category: r for r in ruleset.rules if r.category in ENGINE_REPORTED}
        self.declaration = by_category.get("record.declaration")
        rule = by_category.get("record.evidence-missing")
        from_ruleset = evidence.required(rule.params.require) if rule is not None else frozenset()
        if rule is None and run_requires:  # the run's requirement holds whatever the ruleset names
            rule = _run_rule(ruleset)
        self.missing_rule = rule
        self.required = (from_ruleset | run_requires) if rule is not None else frozenset()
        self.by = " and ".join(w for w, on in (("the ruleset", from_ruleset), ("the run (--require-evidence)",
                                                                              run_requires)) if on)
        self.first_contradiction = None  # (record, declared, whose, evidence shown but not declared)
        self.contradictions = 0
        self.lacking: dict[str, list] = {}  # evidence -> [first record lacking it, coups lacking it]

    def contradicted(self, record: CoupRecord, declared, own: bool, extra: frozenset[str]) -> None:
        self.contradictions += 1
        if self.first_contradiction is None:
            self.first_contradiction = (record, declared, own, extra)

    def short(self, record: CoupRecord, have: frozenset[str]) -> None:
        for name in self.required - have:
            found = self.lacking.get(name)
            if found is None:
                self.lacking[name] = [record, 1]
            else:
                found[1] += 1

    def tally(self, checker: Checker, source, tallies: dict) -> None:
        """Put what this transcript (or chunk of it) gave into ``tallies`` (``TranscriptResult.record_tally``):
        each finding to come, made at its first coup with its counts left open (:func:`finish_record`)."""
        if self.declaration is not None and self.first_contradiction is not None:
            record, declared, own, extra = self.first_contradiction
            whose = "this coup's" if own else "the header's"
            stated = ", ".join(declared) if declared else "nothing"
            f = checker._finding(
                self.declaration, self.declaration.severity, source, record, None,
                f"{whose} `recorded` says the record holds {stated}, but coup {record.number} holds "
                f"{_and([n for n in evidence.EVIDENCE if n in extra])} too: what a record holds is judged whatever "
                f"it declares ({_COUNT} hold evidence their declaration leaves out)")
            tallies["record.declaration"] = [f, self.contradictions]
        if self.missing_rule is not None:
            for name in evidence.EVIDENCE:
                if name in self.lacking:
                    record, n = self.lacking[name]
                    f = checker._finding(
                        self.missing_rule, self.missing_rule.severity, source, record, None,
                        f"{name} ({evidence.EVIDENCE[name]}) is required of every coup by {self.by}, but "
                        f"{_N} of {_OF} lack it, the first coup {record.number}")
                    tallies[name] = [f, n]


#: where a tallied finding's message gives its counts, filled in once the whole transcript is read
_COUNT, _N, _OF = "\x00count\x00", "\x00n\x00", "\x00of\x00"


def finish_record(result: TranscriptResult) -> None:
    """The findings of the record's tallies (what it declared against what it holds, evidence required that
    coups lack), once every coup of the transcript is read: added to its findings (which the caller sorts)."""
    of = _coups(result.coups - result.unreadable)
    for f, n in result.record_tally.values():
        result.findings.append(dataclasses.replace(f, message=f.message.replace(_COUNT, _coups(n)).replace(_N, f"{n:,}")
                                                   .replace(_OF, of)))
    result.record_tally = {}


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _coups(n: int) -> str:
    return f"{n:,} coup" + ("" if n == 1 else "s")


def _run_rule(ruleset: Ruleset) -> BoundRule:
    """The rule a run's ``--require-evidence`` reports under where the ruleset names none of its kind."""
    kind = REGISTRY["record.evidence-missing"]
    return BoundRule(id="RECORD-EVIDENCE", title="Every coup holds the evidence the run requires",
                     check=kind.name, category=kind.category, severity="error", citation=None,
                     citation_text="required by the run (--require-evidence)", summary=None,
                     params=kind.params(), defined_in=ruleset.id, location="--require-evidence")


def _applies(rule: BoundRule, method: str | None) -> bool:
    return rule.dealing_methods is None or (method is not None and method in rule.dealing_methods)


def _gate(when: tuple[str, ...]):
    """None for a check kind called on every coup; else a test of a coup state that is false where every
    field the kind names in ``when`` is empty (so it would find nothing there, and is not called)."""
    if not when:
        return None
    get = operator.attrgetter(*when)
    return get if len(when) == 1 else lambda state: any(get(state))


class Checker:
    """Checks transcripts against rulesets, as the run's context says (:class:`compliance.context.RunContext`:
    the ruleset, the selection, the limits, the cache, what to keep for the reports).  Every rule of a
    transcript's ruleset is judged: the selection (--select, --ignore) filters only which findings a report
    shows (:class:`compliance.report.model.Report`), never what a rule computes from.

    ``Checker(context)``, or the context's fields as keywords for a context of them
    (``Checker(ruleset="us-nj", keep_states=True)``).  ``judge``: judge each transcript's shoes as a run of
    its own once it is read (the integrity stage); whoever checks several transcripts as one run passes
    False and calls :func:`judge_run` on them all.
    """

    chunked = False  # True: it checks a chunk of a file, whose record tallies the driver adds up

    def __init__(self, context: RunContext | None = None, *, judge: bool = True,
                 rulesets: RulesetCache | None = None, **choices):
        if context is None:
            context = RunContext(**choices)
        elif choices:
            context = replace(context, **choices)
        self.context = context
        # loading a ruleset imports the check kinds of its game; ``rulesets``: the run's, loaded once for all its units
        self.rulesets = rulesets if rulesets is not None else RulesetCache(context)
        self.keep_states = context.keep_states
        self.keep_coups = context.keep_coups
        self.selection = context.selection
        self.judge = judge
        self.require_evidence = context.require_evidence

    def check_file(self, path: str | Path, display: str | None = None,
                   on_coup: Callable[[int, int], None] | None = None) -> TranscriptResult:
        display = display or str(path)
        source = open_transcript(path, display, self.context.limits)
        return self.check_source(source, on_coup)

    def check_source(self, source: TranscriptFile, on_coup=None) -> TranscriptResult:
        """Check every coup of ``source``; ``on_coup(coups, nbytes)``, if given, is called as each coup is read
        with the coups read so far and about how many bytes of the file they took (for a progress display)."""
        try:
            with decimal.localcontext(MONEY):  # every sum of money exact (findings.MONEY)
                return self._check_source(source, on_coup)
        finally:
            source.close()

    def cards_of(self, source: TranscriptFile, numbers: set[int]) -> list:
        """The pictures (:class:`compliance.games.common.CoupPicture`, as :attr:`TranscriptResult.states` keeps them) of the coups
        ``numbers`` of ``source``, replayed again up to the last of them; a coup that cannot be replayed gives
        none.  A finding of whole shoes (the integrity stage, judged once the run is read) cites the coup at
        which it became decisive: the check kept that coup's cards only if a rule of its own had a finding
        there, and a report that draws the coups asks for the others here."""
        try:
            header = source.header
            ruleset = self.rulesets.for_source(source)
            game = source.game
            replayer = self.replayer(game, games.table_context(game, header, ruleset, source.display))
            last, out = max(numbers), []
            for record in source.records():
                if record.error is None:
                    try:
                        state = replayer.replay(record.coup, record.line)
                    except (ReplayError, ArithmeticError):
                        state = None
                    if state is not None and record.number in numbers:
                        picture = game.coup_view(state)
                        if picture is not None:
                            out.append(picture)
                if record.number is not None and record.number >= last:
                    break
            return out
        finally:
            source.close()

    def _check_source(self, source: TranscriptFile, on_coup=None) -> TranscriptResult:
        header = source.header
        ruleset = self.rulesets.for_source(source)
        game = source.game  # the reader picked it by table.game, to decode the coups
        result = TranscriptResult(source.display, bounded_name(header.table.id), header.table.jurisdiction, header.table.game,
                                  ruleset, ruleset_chosen=self.rulesets.override is not None)
        # the version of the ruleset's history in force: on --as-of, else each coup's day (its first timestamp),
        # else the header's date, else the current version; looked up again only when a coup leaves its days
        as_of, header_day = self.context.as_of, getattr(header, "date", None) or getattr(source, "day", None)
        dated = bool(ruleset.versions) and as_of is None
        bound: dict[str | None, _Version] = {}

        def version_of(rs: Ruleset) -> _Version:
            key = rs.period.start if rs.period is not None else None
            v = bound.get(key)
            if v is None:
                use = VersionUse(rs) if ruleset.versions else None
                v = bound[key] = _Version(rs, games.table_context(game, header, rs, source.display), use)
                if use is not None:
                    result.versions.append(use)
            return v

        if ruleset.versions:
            result.dated_by = (f"--as-of {as_of}" if as_of else "coup times" + (f", else the date {header_day}"
                               if header_day else ""))
        v = version_of(ruleset.version_on(as_of or header_day))
        same_day = None  # the day of the last dated coup, judged by ``v``
        current = v if not ruleset.versions else None  # the version an undated coup is judged by
        table = v.table
        declared = getattr(header, "recorded", None)  # format 1.1: what the recording holds (None: v1)
        result.recorded = None if declared is None else tuple(dict.fromkeys(declared))
        self._staffing = Staffing(getattr(header, "staff", None))
        if self.keep_states:
            result.states = []
        numbers = result.coup_numbers = [] if self.keep_coups else None
        # every rule is judged, whatever the run selects: a rule's verdict may rest on another's (the integrity
        # stage's settlement drift on the wrong settlements), and selection only filters what a report shows
        rules, unreadable_rule = v.rules, v.unreadable_rule
        record_rules = _RecordRules(v.ruleset, self.require_evidence)
        collector = None
        findings = result.findings
        whole = [r for r, _ in rules if REGISTRY[r.check].scope == "run"]  # judged over shoes, after the replay
        later = dated and any(REGISTRY[r.check].scope == "run" for rs in ruleset.versions for r in rs.rules)
        if (whole or later) and game.integrity is not None:  # (or a later version's, from its first coup)
            collector = game.integrity.Collector(header, table, whole)
        staffed = self._staffing.stretches or None
        result.rejected_rows = sum(r.count or 1 for r in getattr(header, "rejected_rows", None) or ())
        findings.extend(getattr(source, "house_findings", ()))  # a procedure document's house tables
        if getattr(source, "judges_header", True):  # (a chunk of a file other than its first: judged there)
            findings.extend(self._of_header([r for r, _ in rules if REGISTRY[r.check].scope == "transcript"],
                                            header, table, source))
        replayer = self.replayer(game, table)
        passed_over = getattr(replayer, "passed_over", None)  # a replay that follows the numbering of the record
        header_have = evidence.held(declared)
        header_full = header_have >= evidence.SHOWABLE  # nothing a coup shows can add to what the header states
        joined: dict[tuple, frozenset] = {}  # (declared, shown) -> the evidence the coup holds
        held: dict[tuple, frozenset] = {}  # a coup's own `recorded` -> the evidence it gives
        # (dealing method, evidence) -> (rule, check, params, gate) of the rules that apply and are judged, and the
        # (rule id, evidence missing) of those that apply but are not judged
        by_key = v.by_key
        unjudged_ids: dict[int, frozenset] = {}  # id(a plan's unjudged) -> those rules' ids, for the collector
        not_judged = result.not_judged
        nbytes = 0
        dealt = result.dealt
        for record in source.records():
            result.coups += 1
            if v.use is not None:
                day = _day_of(record.coup) if dated and record.coup is not None else None
                undated = dated and day is None and header_day is None
                if dated:
                    day = day or header_day
                    if day is None:
                        if current is None:
                            current = version_of(ruleset.version_on(None))
                        nv, same_day = current, None
                    elif day == same_day:  # the day of the coup before: the same version (most coups)
                        nv = v
                    else:
                        nv = v if v.ruleset.period.holds(day) else version_of(ruleset.version_on(day))
                        same_day = day
                    if nv is not v:  # a coup dealt under other rules: this stretch is judged by them
                        v = nv
                        table, rules, unreadable_rule, by_key = v.table, v.rules, v.unreadable_rule, v.by_key
                        if hasattr(replayer, "table"):
                            replayer.table = table
                        if collector is not None and hasattr(collector, "table"):
                            collector.table = table  # each shoe's own tests: the version at its first coup
                v.use.add(record.number, undated, day if dated else as_of)
            coup_staff = None
            if staffed or getattr(record.coup, "staff", None) is not None:  # who dealt it, where recorded
                coup_staff = self._staffing.of(record.number, getattr(record.coup, "staff", None))
                dealer = next((name for role, name in coup_staff if role == "dealer"), None)
                if dealer is not None:  # (the reports' count of a dealer's coups, under the name they show)
                    dealer = bounded_name(dealer)
                    dealt[dealer] = dealt.get(dealer, 0) + 1
            if on_coup is not None:
                nbytes += len(record.raw) + 1  # its line, or its place in the document
                on_coup(result.coups, nbytes)
            if numbers is not None and record.number is not None:
                numbers.append(record.number)
            why, event = record.error, None  # why the coup cannot be read or replayed, and at which event
            if why is None:
                try:
                    state = replayer.replay(record.coup, record.line)
                except ReplayError as e:
                    why, event = str(e), e.event
                except ArithmeticError:  # e.g. 9e999999 + 9e999999: beyond exact decimal arithmetic
                    why = "its amounts are too large to add up exactly"
            if why is not None:
                result.unreadable += 1
                if passed_over is not None:
                    passed_over(record.number)
                if unreadable_rule:
                    findings.append(self._unreadable(unreadable_rule, source, record, why, event))
                continue
            have = header_have
            own = getattr(record.coup, "recorded", None)
            if own is not None:
                key = tuple(own)
                have = held.get(key) or held.setdefault(key, evidence.held(own))
            if own is not None or not header_full:  # a declaration explains what is absent, never exempts what is there
                shows = getattr(state, "shows", None)
                shown = shows() if shows is not None else have
                if not have >= shown:
                    key = (have, shown)
                    record_rules.contradicted(record, own if own is not None else declared, own is not None,
                                              shown - have)
                    have = joined.get(key) or joined.setdefault(key, evidence.with_shown(have, shown))
            lacking = getattr(state, "lacking", None)
            if lacking:
                have = have - lacking
            if record_rules.required and not have >= record_rules.required:
                record_rules.short(record, have)
            plan = by_key.get((state.method, have))
            if plan is None:
                plan = by_key[(state.method, have)] = self._plan(rules, state.method, have, declared is not None)
            applicable, unjudged, partly = plan
            for key in unjudged:
                not_judged[key] = not_judged.get(key, 0) + 1
            if collector is not None:
                skip = unjudged_ids.get(id(unjudged))
                if skip is None:
                    skip = unjudged_ids[id(unjudged)] = frozenset(rule_id for rule_id, _ in unjudged)
            found = self._run_rules(applicable, state, table, source, record, unreadable_rule, not_judged)
            if partly:
                found = self._run_partly(partly, state, table, source, record, unreadable_rule, not_judged, found)
            if collector is not None:
                collector.add(state, record, found, have, coup_staff or (), skip)
            if found:
                findings.extend(found)
                if result.states is not None:  # for the reports that draw the coups with findings
                    picture = game.coup_view(state)
                    if picture is not None:
                        result.states.append(picture)
        result.sha256 = source.sha256()
        result.versions = sorted((u for u in result.versions if u.coups), key=lambda u: u.ruleset.period.start or "")
        record_rules.tally(self, source, result.record_tally)
        if not self.chunked:
            finish_record(result)
        findings.sort(key=Finding.sort_key)
        if collector is not None:
            result.integrity = collector.finish()
            game.integrity.prepare(result.integrity, ruleset, self.context)  # each shoe alone, here (a worker's unit)
            if self.judge:
                judge_run([result], self.context)
        return result

    @staticmethod
    def _plan(rules, method: str | None, have: frozenset, declared: bool) -> tuple[list, list, list]:
        """The rules that apply under ``method``: those judged with the evidence ``have`` (each with its
        ``gate``, :func:`_gate`); the (rule id, evidence missing) of those that cannot be; and those that judge
        part of what they judge with ``have`` (``partly``), each with what the coup lacks (see :meth:`_run_partly`).
        A version 1 transcript (``declared`` false) could not claim every coup of its shoes (``coups``): a rule
        needing only that does not apply to it, and is not listed as not judged."""
        judged, unjudged, partly = [], [], []
        absent = frozenset(evidence.EVIDENCE) - have
        for r, fn in rules:
            if not _applies(r, method):
                continue
            kind = REGISTRY[r.check]
            lacking = evidence.missing(kind.needs, have)
            if not lacking:
                if kind.scope == "coup":  # a rule of whole shoes is judged after the replay (judge_run)
                    judged.append((r, fn, r.params, _gate(kind.when)))
                continue
            if not declared:
                lacking = tuple(n for n in lacking if n in evidence.V1)
            if not lacking:
                continue
            if any(have.issuperset(part) for part, _ in kind.partly):
                if kind.scope == "coup":
                    partly.append((r, fn, r.params, absent, lacking))
                # (a kind of whole shoes judges such a coup in its game's integrity stage, which counts it not
                # judged only where a fact it needed was not recorded)
            else:
                unjudged.append((r.id, lacking))
        return judged, unjudged, partly

    def _run_partly(self, rules, state, table, source, record: CoupRecord, unreadable_rule, not_judged, found):
        """The rules judged on what the coup's record holds, short of what they need: each reads the coup
        through its evidence view (:class:`compliance.evidence.View`), reports what the recorded evidence proves,
        and leaves the coup not judged only where a fact it needed came back unknown."""
        for rule, fn, params, absent, lacking in rules:
            try:
                breaches = fn(evidence.View(state, absent), params, table)
            except evidence.Unknown as e:
                key = (rule.id, e.names or lacking)
                not_judged[key] = not_judged.get(key, 0) + 1
                continue
            except Exception as e:  # a bug must not hide the other coups: report it on this coup
                if unreadable_rule is not None:
                    found = found or []
                    found.append(self._unreadable(unreadable_rule, source, record, f"rule {rule.id} could not judge "
                                                  f"this coup ({type(e).__name__}: {e})", None))
                continue
            if breaches:
                out = [self._finding(rule, b.severity or rule.severity, source, record, b.event, b.message,
                                     b.money, b.citation)
                       for b in breaches]
                self._locate(out, record)
                found = (found or []) + out
        return found

    def replayer(self, game: games.Game, table):
        """The replayer a transcript's coups go through (a chunk of a file starts it part-way: see compliance._internal.driver)."""
        return game.replayer(table)

    def _run_rules(self, rules, state, table, source, record: CoupRecord, unreadable_rule, not_judged=None):
        out = None
        for rule, fn, params, gate in rules:
            if gate is not None and not gate(state):
                continue  # nothing in this coup the rule could find anything in
            try:
                breaches = fn(state, params, table)
            except evidence.Unknown as e:  # a fact it needs the record holds only in part (a card recorded as 7?)
                if not_judged is not None:
                    key = (rule.id, e.names or ("cards",))
                    not_judged[key] = not_judged.get(key, 0) + 1
                continue
            except Exception as e:  # a bug must not hide the other coups: report it on this coup
                if unreadable_rule is None:
                    continue
                breaches = ()
                out = out or []
                out.append(self._unreadable(unreadable_rule, source, record,
                                            f"rule {rule.id} could not judge this coup ({type(e).__name__}: {e})", None))
            if not breaches:
                continue
            for b in breaches:
                out = out or []
                out.append(self._finding(rule, b.severity or rule.severity, source, record, b.event, b.message,
                                         b.money, b.citation))
        if out:
            self._locate(out, record)
        return out

    def _of_header(self, rules, header, table, source) -> list[Finding]:
        """The findings of the rules judged on the header (``scope="transcript"``): they name no coup."""
        out = []
        line = getattr(source, "_header_line", 1)
        for rule in rules:
            for b in REGISTRY[rule.check].fn(header, rule.params, table):
                out.append(Finding(rule=rule.id, category=rule.category, severity=b.severity or rule.severity,
                                   transcript=source.display, coup=b.coup, event=None, message=b.message,
                                   citation=rule.citation_text, line=line, column=1, table=bounded_name(header.table.id)))
        return out

    def _finding(self, rule: BoundRule, severity: str, source, record: CoupRecord, event, message,
                 money=None, cites: str | None = None) -> Finding:
        staff, at = (), None
        coup = record.coup
        if coup is not None:  # who and when, where the record says (format 1.1 staff; the events' timestamps)
            staff = bounded_staff(self._staffing.of(record.number, getattr(coup, "staff", None)))
            at = _time_of(coup, event)
        return Finding(rule=rule.id, category=rule.category, severity=severity, transcript=source.display,
                       coup=record.number, event=event, message=message,
                       citation=rule.cite_for(getattr(source.header.table, "game", None))
                       + (f"; {cites}" if cites else ""),
                       line=record.line, column=record.column, table=bounded_name(source.header.table.id), staff=staff, at=at,
                       money=money)

    def _unreadable(self, rule, source, record: CoupRecord, why: str, event) -> Finding:
        where = f"{source.display}:{record.line}"
        f = self._finding(rule, rule.severity, source, record, event, f"coup cannot be read ({where}): {bounded(why)}")
        if event is not None:
            self._locate([f], record)
        return f

    @staticmethod
    def _locate(found: list[Finding], record: CoupRecord) -> None:
        offsets = None
        for f in found:
            if f.event is None:
                continue
            if offsets is None:
                offsets = event_offsets(record.raw)
            if f.event < len(offsets):
                line, column = position(record.raw, record.line, record.column, offsets[f.event])
                object.__setattr__(f, "line", line)
                object.__setattr__(f, "column", column)


def _time_of(coup, event: int | None) -> str | None:
    """The timestamp of event ``event`` of a decoded coup, else of its first event that has one."""
    events = getattr(coup, "events", None) or ()
    if event is not None and event < len(events):
        at = getattr(events[event], "at", None)
        if at is not None:
            return at
    return next((e.at for e in events if getattr(e, "at", None) is not None), None)


def judge_run(results: list[TranscriptResult], context: RunContext = RunContext()) -> None:
    """The integrity stage over a run: each game's shoes, tables, dealers and the run judged as a whole.

    The findings go into the results they point into (sorted again); each result's ``integrity`` then
    carries the views the reports draw.  ``context``: the run's (the integrity stage's odds obey its cache)."""
    by_game: dict[str, list[TranscriptResult]] = {}
    for r in results:
        if r.integrity is not None:
            by_game.setdefault(registry.for_table_game(r.game).kind, []).append(r)
    for kind, mine in by_game.items():
        with decimal.localcontext(MONEY):
            registry.get(kind).integrity.judge(mine, context)

