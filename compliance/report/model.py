"""The report of a run: what every renderer formats (renderers compute nothing).

A run's findings fall in three groups:

* **reported** (``Report.findings``): what the run reports and what can fail it;
* **waived**: covered by a waiver in force (counted apart, never failing);
* **in the baseline**: known before (``--baseline``), not reported again.

Waivers are applied first, so a waiver covering a baselined finding still counts as used.  :class:`Report`
gathers, once, what the renderers show; each part is a module of its own subject beside it: ``notjudged``
(rules not judged for want of evidence), ``groups`` (by dealer, table and hour), ``money``, ``patrons``,
``hold``, ``digest`` (a long run as a page draws it), ``origin`` (a ruleset loaded from a file).
"""

from __future__ import annotations

import datetime as dt
import functools
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from compliance import __version__
from compliance.categories import CATEGORIES, SEVERITIES, SEVERITY_RANK
from compliance.context import ConfigSource
from compliance.findings import Finding
from compliance.report.digest import Bars, TimeFold, bars, time_fold
from compliance.report.groups import NOT_RECORDED, group_findings, hour_of
from compliance.report.hold import hold_percent, hold_view
from compliance.report.money import MoneySummary, money_summary
from compliance.report.notjudged import NotJudged, not_judged
from compliance.report.origin import RulesetOrigin, ruleset_origin
from compliance.report.patrons import PatronCounts, patron_counts
from compliance.report.wording import listed, plural
from compliance.selection import ALWAYS, Selection

if TYPE_CHECKING:  # types only: a run without waivers or a baseline never imports their readers
    from compliance.baseline import Baseline, BaselineEntry
    from compliance.engine import TranscriptResult
    from compliance.ruleset.models import BoundRule, Ruleset
    from compliance.waivers import Entry, Rejected, Waivers

SCHEMA_VERSION = "1.3"


def category_counts(by_category: Counter) -> dict[str, int]:
    """Findings by category, in the spec's order of the categories, those with none left out."""
    return {c: by_category[c] for c in CATEGORIES if by_category[c]}


@dataclass
class TranscriptView:
    """One transcript's share of the report."""

    result: TranscriptResult
    findings: list[Finding]  # reported
    waived: list[tuple[Finding, Entry]]
    baselined: int
    by_severity: Counter
    by_category: Counter
    not_judged: list[NotJudged] = field(default_factory=list)

    @property
    def document(self) -> str:
        """The file the transcript is in (a Markdown block's name carries ``#L<line>``)."""
        return self.result.transcript.split("#L", 1)[0]


@dataclass
class CoupView:
    """One coup's findings, for reports that go coup by coup (JUnit, HTML)."""

    number: int | None
    findings: list[Finding]  # reported
    waived: list[tuple[Finding, Entry]]
    line: int | None = None  # where an unreadable coup without a number was found
    cards: tuple | None = None  # the game's CoupPicture, when the run kept them (HTML)

    @property
    def dealer(self) -> str | None:
        """Who dealt the coup, as its findings record it."""
        return next((f.dealer for f in self.findings if f.dealer is not None),
                    next((f.dealer for f, _ in self.waived if f.dealer is not None), None))

    @property
    def at(self) -> str | None:
        """When the coup was dealt: the earliest time its findings record."""
        times = [f.at for f in self.findings if f.at is not None] + [f.at for f, _ in self.waived if f.at is not None]
        return min(times) if times else None

    @property
    def hour(self) -> str | None:
        return hour_of(self.at)

    @property
    def unreadable(self) -> bool:
        return any(f.category == "transcript.unreadable" for f in self.findings)


@dataclass
class RuleGroup:
    """One rule's share of a transcript, for reports that go rule by rule (JUnit)."""

    rule: str
    bound: BoundRule | None  # None for a finding whose rule the transcript's ruleset does not list
    findings: list[Finding]  # reported
    waived: list[tuple[Finding, Entry]]

    @property
    def coups(self) -> list[int | None]:
        """The coups of its reported findings, once each, in order."""
        return list(dict.fromkeys(f.coup for f in self.findings))


@dataclass(frozen=True)
class TableCount:
    """One table's share of the run: its transcripts, coups and reported findings by severity."""

    table: str
    transcripts: int
    coups: int
    by_severity: Counter
    waived: int


@dataclass(frozen=True)
class RuleCount:
    """How often one rule was broken in the run (``--statistics``)."""

    rule: str
    category: str
    severity: str  # the most severe of its findings
    count: int
    coups: int
    title: str


@dataclass
class Report:
    results: list[TranscriptResult]
    fail_on: str = "error"
    errors: list[str] = field(default_factory=list)  # files that could not be checked (exit 2)
    tool_version: str = __version__
    generated: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC).replace(microsecond=0))
    waivers: Waivers | None = None
    baseline: Baseline | None = None
    selection: Selection = field(default_factory=Selection)  # --select / --ignore: the rules the run applied
    config: ConfigSource | None = None  # the configuration file the run's settings came from
    isolated: bool = False  # --isolated: no configuration file was read

    def __post_init__(self):
        # --select / --ignore choose the findings reported; every rule was judged (compliance.engine.Checker)
        applies = self.selection.applies
        self._selected: list[list[Finding]] = (
            [[f for f in r.findings if applies(f.rule, f.category)] for r in self.results] if self.selection
            else [r.findings for r in self.results])
        self.all_findings: list[Finding] = [f for found in self._selected for f in found]
        self._waived: dict[int, Entry] = {}
        used: set[str] = set()
        seen_fingerprints: set[str] = set()
        baselined: set[int] = set()
        for f in self.all_findings:
            entry = self.waivers.waiver_for(f) if self.waivers else None
            if entry is not None:
                self._waived[id(f)] = entry
                used.add(entry.key)
            if self.baseline is not None:
                seen_fingerprints.add(f.fingerprint)
                if entry is None and f in self.baseline:
                    baselined.add(id(f))
        self.findings: list[Finding] = [f for f in self.all_findings if id(f) not in self._waived
                                        and id(f) not in baselined]
        self.waived: list[tuple[Finding, Entry]] = [(f, self._waived[id(f)]) for f in self.all_findings
                                                    if id(f) in self._waived]
        self.baselined = len(baselined)
        self.unused_waivers: list[Entry] = [e for e in self.waivers.active if e.key not in used] if self.waivers else []
        self.rejected_waivers: list[Rejected] = self.waivers.rejected if self.waivers else []
        self.stale: list[BaselineEntry] = ([e for fp, e in self.baseline.entries.items() if fp not in seen_fingerprints]
                                           if self.baseline else [])
        self.by_severity = Counter(f.severity for f in self.findings)
        self.by_category = Counter(f.category for f in self.findings)
        self.coups = sum(r.coups for r in self.results)
        self.transcripts: list[TranscriptView] = []
        for r, found in zip(self.results, self._selected):
            mine = [f for f in found if id(f) not in self._waived and id(f) not in baselined]
            self.transcripts.append(TranscriptView(
                r, mine, [(f, self._waived[id(f)]) for f in found if id(f) in self._waived],
                sum(1 for f in found if id(f) in baselined),
                Counter(f.severity for f in mine), Counter(f.category for f in mine),
                [nj for nj in not_judged(r) if applies(nj.rule.id, nj.rule.category)]))
        self.not_judged: list[NotJudged] = [nj for t in self.transcripts for nj in t.not_judged]
        self.groups = group_findings(self.findings, self.results)
        self.money: MoneySummary | None = money_summary(self.findings)
        self.patrons: dict[str, PatronCounts] = patron_counts(self.findings, self.results)
        self.hold = hold_view(self.results)
        if self.hold is not None and not applies(self.hold.rule, self.hold.category):
            self.hold = None  # the run does not select its rule (--select, --ignore): its findings are not shown
        threshold = SEVERITY_RANK[self.fail_on]
        self.failing = sum(1 for f in self.findings if SEVERITY_RANK[f.severity] >= threshold)
        self.origins: dict[int, RulesetOrigin] = {id(rs): o for rs in self.rulesets
                                                  if (o := ruleset_origin(rs)) is not None}
        self.config_off: list[str] = self._config_off()

    # ------------------------------------------------------------------ status
    @property
    def exit_code(self) -> int:
        """0 nothing at or above --fail-on, 1 findings, 2 something could not be checked, or the run judged no
        coup (an empty input, a transcript whose import rejected every row: no verdict to give)."""
        if self.errors or not self.coups:
            return 2
        return 1 if self.failing else 0

    def fails(self, f: Finding) -> bool:
        return SEVERITY_RANK[f.severity] >= SEVERITY_RANK[self.fail_on]

    @property
    def generated_iso(self) -> str:
        return self.generated.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    # ------------------------------------------------------------------ counts
    def summary_line(self) -> str:
        parts = ", ".join(f"{self.by_severity[s]:,} {s}" for s in SEVERITIES if self.by_severity[s])
        text = (f"checked {plural(len(self.results), 'transcript')}, {plural(self.coups, 'coup')}, "
                f"{plural(len(self.findings), 'finding')}")
        if parts:
            text += f": {parts}"
        extra = []
        if self.waived:
            extra.append(f"{len(self.waived):,} waived")
        if self.baseline is not None:
            extra.append(f"{self.baselined:,} in the baseline")
        if self.unused_waivers:
            extra.append(plural(len(self.unused_waivers), "unused waiver"))
        if self.rejected_waivers:
            extra.append(f"{plural(len(self.rejected_waivers), 'waiver')} not applied")
        if self.stale:
            extra.append(plural(len(self.stale), "stale baseline entry", "stale baseline entries"))
        rejected = sum(getattr(r, "rejected_rows", 0) for r in self.results)
        if rejected:
            extra.append(f"{plural(rejected, 'row')} of the recorders' logs not imported (record.rejected-row)")
        if self.not_judged:
            extra.append(f"{plural(self.rules_not_judged, 'rule')} not judged for want of evidence")
        if self.errors:
            extra.append(f"{plural(len(self.errors), 'file')} could not be checked")
        if extra:
            text += "; " + ", ".join(extra)
        if self.money is not None:  # what the wrong settlements cost, net
            text += f"; {self.money.net_words()}"
        return text

    @property
    def rules_not_judged(self) -> int:
        """How many rules (by id, over the run) were not judged in some coup for want of evidence."""
        return len({nj.rule.id for nj in self.not_judged})

    def hold_line(self) -> str | None:
        """The run's hold against theory in one line (None where no hold was judged)."""
        h = self.hold
        if h is None:
            return None
        if not h.groups:
            why = "; ".join(f"table {t}: {w}" for t, w in h.not_judged[:3]) or "no wager settled"
            return f"hold against theory: not judged ({why})"
        outside = h.outside
        house = sum(1 for g in outside if g.direction == "toward the house")
        ways = f" ({house:,} toward the house, {len(outside) - house:,} toward the patrons)" if outside else ""
        flagged = sum(1 for g in h.groups if g.flagged)
        level = f"{Decimal(str(h.confidence)) * 100:f}".rstrip("0").rstrip(".")
        line = (f"hold against theory: {plural(len(h.groups), 'group')}, {len(outside):,} outside the {level}% "
                f"band{ways}, {plural(flagged, 'finding')}")
        tables = [g for g in h.groups if g.kind == "table"]
        if len(tables) == 1:
            g = tables[0]
            line += f"; table {g.table} held {hold_percent(g.hold)} against {hold_percent(g.theoretical_hold)}"
        return line

    def partial_evidence(self) -> str | None:
        """What every format says when the verdict rests on partial evidence (None: every rule was judged)."""
        if not self.not_judged:
            return None
        n = self.rules_not_judged
        return (f"the verdict rests on partial evidence: {plural(n, 'rule')} {'was' if n == 1 else 'were'} not "
                "judged in some or all coups, for want of the evidence they need")

    @staticmethod
    def transcript_partial(view: TranscriptView) -> str:
        """The same of one transcript (its rules not judged, by id, with why)."""
        n = len({nj.rule.id for nj in view.not_judged})
        why = "; ".join(f"{nj.rule.id} {nj.extent}: {nj.reason}" for nj in view.not_judged[:5])
        more = f"; and {len(view.not_judged) - 5:,} more" if len(view.not_judged) > 5 else ""
        return (f"{view.result.transcript}: the verdict rests on partial evidence: {plural(n, 'rule')} not judged "
                f"({why}{more})")

    def warnings(self) -> list[str]:
        """What may make the run mean less than it seems: a transcript without a coup checked nothing; a
        configuration file turned off every rule of a ruleset."""
        out = [f"{r.transcript}: holds no coup: nothing was checked" for r in self.results
               if r.coups == 0 and self.coups]
        out += _shared_tables(self.results)
        return out + self.loud_warnings()

    def judged_nothing(self) -> str | None:
        """Why the run judged no coup (it exits 2), or None when it judged some."""
        if self.coups:
            return None
        if not self.results:
            return None if self.errors else "nothing was checked: no transcript among the paths given"
        names = [r.transcript for r in self.results]
        if len(names) == 1:
            return f"{names[0]}: holds no coup: nothing was checked"
        more = f" and {len(names) - 5:,} more" if len(names) > 5 else ""
        return f"nothing was checked: none of the {len(names):,} transcripts holds a coup ({', '.join(names[:5])}{more})"

    def loud_warnings(self) -> list[str]:
        """The warnings ``--quiet`` prints too: the run judged no coup; a configuration file turned off every
        rule of a ruleset."""
        nothing = self.judged_nothing()
        out = [nothing] if nothing else []
        if self.config is not None and self.config_off:
            off = set(self.config_off)
            for rs in self.rulesets:
                judged = [r.id for r in rs.rules if r.category != ALWAYS]
                if judged and off.issuperset(judged):
                    out.append(f"the configuration {self.config.path} turns off every rule of the ruleset {rs.id}: "
                               "its transcripts were judged by none")
        return out

    # ------------------------------------------------------------------ what the run was told
    def _config_off(self) -> list[str]:
        """The rules of the run's rulesets that the configuration file's own ``select``/``ignore`` turn off."""
        if self.config is None or not (self.config.select or self.config.ignore):
            return []
        theirs = Selection(self.config.select, self.config.ignore)
        return sorted({r.id for rs in self.rulesets for r in rs.rules if not theirs.applies(r.id, r.category)})

    def configuration(self) -> str | None:
        """One line naming the configuration file the run used, its hash and the rules it turned off (None when
        none was found)."""
        if self.isolated:
            return "configuration: none read (--isolated)"
        if self.config is None:
            return None
        line = f"configuration {self.config.path}, sha256 {self.config.sha256}"
        if self.config_off:
            line += f"; it turns off {plural(len(self.config_off), 'rule')}: {listed(self.config_off)}"
        return line

    def configured(self) -> list[str]:
        """:meth:`configuration` as a list of lines (empty when there is nothing to say)."""
        line = self.configuration()
        return [line] if line else []

    def configuration_dict(self) -> dict:
        """``{"configuration": {...}}`` for the machine-readable reports (empty when no file was used)."""
        if self.isolated:
            return {"configuration": {"isolated": True}}
        if self.config is None:
            return {}
        return {"configuration": {"path": self.config.path, "sha256": self.config.sha256,
                                  "turns_off": self.config_off}}

    def origin_dict(self, rs: Ruleset) -> dict:
        """``{"origin": {...}}`` of a ruleset loaded from a file, for the machine-readable reports."""
        o = self.origins.get(id(rs))
        return {} if o is None else {"origin": o.as_dict()}

    def origin_words(self, rs: Ruleset) -> str | None:
        """How a ruleset loaded from a file differs from the bundled one (None for a bundled ruleset)."""
        o = self.origins.get(id(rs))
        return None if o is None else o.words()

    def notices(self) -> list[str]:
        """Things about the run itself an auditor must see: a transcript judged under another jurisdiction
        than its header names, waivers not applied or unused, stale baseline."""
        out = []
        for r in self.results:
            if r.ruleset_chosen and r.jurisdiction and r.jurisdiction not in r.ruleset.lineage:
                out.append(f"{r.transcript}: judged under the ruleset {r.ruleset.id} chosen for the run, although "
                           f"its header names the jurisdiction {r.jurisdiction}")
        out += self.dating_notices()
        for r in self.rejected_waivers:
            out.append(f"{self.waivers.path}:{r.line}: waiver {r.key} not applied: {r.reason}")
        for e in self.unused_waivers:
            out.append(f"{self.waivers.path}:{e.line}: waiver {e.key} matched no finding")
        for e in self.stale:
            coup = "?" if e.coup is None else e.coup
            out.append(f"{self.baseline.path}: stale baseline entry {e.fingerprint[:12]}: {e.rule} in {e.transcript} "
                       f"coup {coup} is no longer found")
        return out

    # ------------------------------------------------------------------ rules
    @property
    def rulesets(self) -> list[Ruleset]:
        """The rulesets of the run, once each (by id, version and content hash), in the order first used."""
        seen: dict[tuple[str, str, str], Ruleset] = {}
        for r in self.results:
            seen.setdefault((r.ruleset.id, r.ruleset.version, r.ruleset.sha256), r.ruleset)
        return list(seen.values())

    def judged_by(self) -> list[str]:
        """One line a ruleset of the run: ``ruleset us-nj 2024.1, sha256 <hash of its files>``; a ruleset loaded
        from a file says so, with what it changes of the bundled ruleset (:class:`RulesetOrigin`)."""
        out = []
        for rs in self.rulesets:
            origin = self.origin_words(rs)
            out.append(f"ruleset {rs.id} {rs.version}, sha256 {rs.sha256}" + (f", {origin}" if origin else ""))
        return out + self.versions_applied()

    def versions_applied(self) -> list[str]:
        """One line a version of a ruleset's history that judged a transcript's coups: the days it is in force,
        the amendments and selections that make it (with their register citations) and the coups it judged."""
        out = []
        for r in self.results:
            for use in r.versions:
                coups = f"{use.coups:,} coup{'s' if use.coups != 1 else ''}"
                if use.first is not None:
                    coups += f" ({use.first}" + (f"–{use.last}" if use.last != use.first else "") + ")"
                out.append(f"{r.transcript}: {coups} judged by {use.ruleset.id} {use.ruleset.version} as in force "
                           f"{use.ruleset.period.words()} (dated by {r.dated_by})")
        return out

    def dating_notices(self) -> list[str]:
        """What an auditor must know of the days a run's coups were judged by: coups that gave no date (judged by
        the current rules), coups dated before the earliest version a ruleset records."""
        out = []
        for r in self.results:
            undated = sum(u.undated for u in r.versions)
            if undated:
                out.append(f"{r.transcript}: {undated:,} of {r.coups:,} coups give no date (no timestamp, no header "
                           f"date): judged by the current version of {r.ruleset.id}; --as-of DATE judges them by "
                           "the rules of another day")
            for u in r.versions:
                p = u.ruleset.period
                if p.start is None and p.known_from and u.earliest and u.earliest < p.known_from:
                    out.append(f"{r.transcript}: coups dated from {u.earliest} are judged by the earliest version "
                               f"{r.ruleset.id} records, in force from {p.known_from}: the rules before it are not "
                               "part of its history")
        return out

    def rules(self) -> list[tuple[str, list[tuple[Ruleset, BoundRule]]]]:
        """Every enabled rule of the run's rulesets, once per id (sorted), with each ruleset's version of it."""
        by_id: dict[str, list[tuple[Ruleset, BoundRule]]] = {}
        for rs in self.rulesets:
            for rule in rs.rules:
                if self.selection.applies(rule.id, rule.category):
                    by_id.setdefault(rule.id, []).append((rs, rule))
        for f in self.all_findings:  # a finding's rule is always listed
            by_id.setdefault(f.rule, [])
        return sorted(by_id.items())

    # ------------------------------------------------------------------ groups
    def breakdown(self) -> list[Bars]:
        """The reported findings counted by category, table, dealer and time (the run summary's charts): the
        categories in the spec's order, the rest as :func:`group_findings` counts them (dealer and time where the
        transcripts record them; without, the dealer and time charts are left out); time by the unit of the
        time view (:attr:`time`), tables and dealers the :data:`BARS_DRAWN` with the most findings where there
        are more."""
        out = [Bars("category", list(category_counts(self.by_category).items()))]
        if self.groups is None:
            out.append(bars("table", [(t.table, sum(t.by_severity.values())) for t in self.tables()
                                      if sum(t.by_severity.values())]))
            return out
        for name in ("table", "dealer"):
            out.append(bars(name, [(key, sum(counts.values())) for key, counts in getattr(self.groups, name).items()]))
        time = self.time
        out.append(Bars(time.unit, [(p.key, sum(p.counts.values())) for p in time.periods]))
        return out

    @functools.cached_property
    def time(self) -> TimeFold | None:
        """The hours of the findings as a page shows them (:class:`TimeFold`); None where no time or dealer is
        recorded (no :attr:`groups`)."""
        if self.groups is None:
            return None
        return time_fold(self.groups.hour, [hour_of(f.at) or NOT_RECORDED for f, _ in self.waived])

    # ------------------------------------------------------------------ coups
    def coups_of(self, view: TranscriptView, every_coup: bool = True) -> list[CoupView]:
        """The transcript's coups in order, each with its findings.

        With ``every_coup`` the coups without findings are listed too (when the
        run kept the coup numbers); unreadable coups without a number come
        last, one per line.
        """
        by_coup: dict[int | None, CoupView] = {}
        order: list[CoupView] = []
        numbers = view.result.coup_numbers if every_coup else None
        if numbers is not None:
            for n in numbers:
                if n not in by_coup:
                    by_coup[n] = CoupView(n, [], [])
                    order.append(by_coup[n])
        nameless: dict[int | None, CoupView] = {}
        for f, entry in [(f, None) for f in view.findings] + view.waived:
            if f.coup is None:
                cv = nameless.get(f.line)
                if cv is None:
                    cv = nameless[f.line] = CoupView(None, [], [], line=f.line)
            else:
                cv = by_coup.get(f.coup)
                if cv is None:
                    cv = by_coup[f.coup] = CoupView(f.coup, [], [])
                    order.append(cv)
            (cv.findings.append(f) if entry is None else cv.waived.append((f, entry)))
        if numbers is None:
            order.sort(key=lambda c: c.number)
        if view.result.states is not None:
            kept = {c.number: c for c in view.result.states}
            for cv in order:
                cv.cards = kept.get(cv.number)
        for cv in order:
            cv.findings.sort(key=Finding.sort_key)
            cv.waived.sort(key=lambda fe: fe[0].sort_key())
        return order + [nameless[k] for k in sorted(nameless, key=lambda x: -1 if x is None else x)]

    def rules_of(self, view: TranscriptView) -> list[RuleGroup]:
        """Every rule the transcript was judged by (its ruleset's, as selected), in id order, each with its
        reported and waived findings; a rule with findings is listed even when the ruleset does not name it."""
        groups: dict[str, RuleGroup] = {}
        for rule in view.result.ruleset.rules:
            if self.selection.applies(rule.id, rule.category):
                groups[rule.id] = RuleGroup(rule.id, rule, [], [])
        for f in view.findings:
            groups.setdefault(f.rule, RuleGroup(f.rule, None, [], [])).findings.append(f)
        for f, entry in view.waived:
            groups.setdefault(f.rule, RuleGroup(f.rule, None, [], [])).waived.append((f, entry))
        return [groups[k] for k in sorted(groups)]

    def statistics(self) -> list[RuleCount]:
        """The reported findings counted by rule, the most frequent first (``--statistics``)."""
        titles = {rule_id: versions[0][1].title for rule_id, versions in self.rules() if versions}
        by_rule: dict[str, list[Finding]] = {}
        for f in self.findings:
            by_rule.setdefault(f.rule, []).append(f)
        counts = [RuleCount(rule, found[0].category, max((f.severity for f in found), key=SEVERITY_RANK.__getitem__),
                            len(found), len({(f.transcript, f.coup) for f in found}), titles.get(rule, ""))
                  for rule, found in by_rule.items()]
        return sorted(counts, key=lambda c: (-c.count, c.rule))

    def tables(self) -> list[TableCount]:
        """The run by table (a table's transcripts together), in table order."""
        by_table: dict[str, list[TranscriptView]] = {}
        for t in self.transcripts:
            by_table.setdefault(t.result.table, []).append(t)
        return [TableCount(table, len(views), sum(v.result.coups for v in views),
                           sum((v.by_severity for v in views), Counter()), sum(len(v.waived) for v in views))
                for table, views in sorted(by_table.items())]


def _shared_tables(results: list) -> list[str]:
    """One warning for each table id that several transcripts share: how they were joined."""
    by_table: dict[str, list] = {}
    for r in results:
        if r.coups and "#L" not in r.transcript:  # a table's record: not an example in a Markdown document
            by_table.setdefault(r.table, []).append(r)
    out = []
    for table, mine in by_table.items():
        if len(mine) < 2:
            continue
        files = ", ".join(r.transcript for r in mine)
        head = f"table {table} is named by {len(mine)} transcripts ({files})"
        how = {getattr(r, "shared_table", None) for r in mine}
        if how == {"joined"}:
            out.append(f"{head}: their shoes follow each other, so the tests of whole shoes and runs judge them as "
                       "one table's record, in the order given")
        elif "apart" in how:
            out.append(f"{head}, whose shoes do not follow each other (a shoe in two of them, or times that "
                       "overlap): they would be one table's record only if they did, so the tests of whole shoes "
                       "and runs judge each as a table of its own (named 'table [transcript]')")
        else:
            out.append(f"{head}: the report counts them as one table (one table's record only when their shoes "
                       "follow each other); no test of whole shoes or runs joined them")
    return out
