"""The report of a run: what every renderer formats (renderers compute nothing).

A run's findings fall in three groups:

* **reported** (``Report.findings``): what the run reports and what can fail it;
* **waived**: covered by a waiver in force (counted apart, never failing);
* **in the baseline**: known before (``--baseline``), not reported again.

Waivers are applied first, so a waiver covering a baselined finding still
counts as used.  Everything a renderer shows (counts, groups by coup, the
rules cited, the rules not judged for want of evidence, findings by dealer,
table and hour) is computed here once.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING

from compliance import __version__
from compliance import evidence as evidence_words
from compliance.categories import CATEGORIES, SEVERITIES, SEVERITY_RANK
from compliance.context import ConfigSource
from compliance.findings import MONEY, Finding, amount_text
from compliance.games.common import money
from compliance.selection import ALWAYS, Selection

if TYPE_CHECKING:  # types only: a run without waivers or a baseline never imports their readers
    from compliance.baseline import Baseline, BaselineEntry
    from compliance.engine import TranscriptResult
    from compliance.ruleset.models import BoundRule, Ruleset
    from compliance.waivers import Entry, Rejected, Waivers

SCHEMA_VERSION = "1.3"


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n:,} {word if n == 1 else plural or word + 's'}"


def category_counts(by_category: Counter) -> dict[str, int]:
    """Findings by category, in the spec's order of the categories, those with none left out."""
    return {c: by_category[c] for c in CATEGORIES if by_category[c]}


@dataclass
class NotJudged:
    """A rule of a transcript's ruleset that was not judged in some (or all) of its coups: the evidence it needs
    was not recorded there."""

    transcript: str
    rule: BoundRule
    coups: int  # coups the rule was not judged in
    of: int  # coups of the transcript that could be read
    missing: dict[str, int]  # evidence -> coups that lacked it, in the order of compliance.evidence.EVIDENCE

    @property
    def reason(self) -> str:
        """"calls not recorded"; where coups lack different evidence, each with its coups."""
        by_count: dict[int, list[str]] = {}
        for name, n in self.missing.items():
            by_count.setdefault(n, []).append(name)
        if len(by_count) == 1:
            return evidence_words.reason(tuple(self.missing))
        parts = []
        for n, names in sorted(by_count.items(), key=lambda kv: -kv[0]):
            count = "every coup" if n == self.of else _plural(n, "coup")
            parts.append(f"{evidence_words.reason(tuple(names))} ({count})")
        return "; ".join(parts)

    @property
    def extent(self) -> str:
        """"in every coup (120)", "in 3 of 120 coups"."""
        if self.coups == self.of:
            return f"in every coup ({self.of:,})" if self.of != 1 else "in its one coup"
        return f"in {self.coups:,} of {_plural(self.of, 'coup')}"


def not_judged(result: TranscriptResult) -> list[NotJudged]:
    """The rules of a transcript not judged for want of evidence, in the order of its ruleset."""
    by_rule: dict[str, dict[tuple, int]] = {}
    for (rule_id, lacking), n in result.not_judged.items():
        by_rule.setdefault(rule_id, {})[lacking] = n
    out = []
    order = list(evidence_words.EVIDENCE)
    for rule in result.ruleset.rules:
        found = by_rule.get(rule.id)
        if not found:
            continue
        missing: dict[str, int] = {}
        for lacking, n in found.items():
            for name in lacking:
                missing[name] = missing.get(name, 0) + n
        missing = {name: missing[name] for name in sorted(missing, key=order.index)}
        out.append(NotJudged(result.transcript, rule, sum(found.values()), result.coups - result.unreadable, missing))
    return out


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
        self.groups = _groups(self.findings, self.results)
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
        text = (f"checked {_plural(len(self.results), 'transcript')}, {_plural(self.coups, 'coup')}, "
                f"{_plural(len(self.findings), 'finding')}")
        if parts:
            text += f": {parts}"
        extra = []
        if self.waived:
            extra.append(f"{len(self.waived):,} waived")
        if self.baseline is not None:
            extra.append(f"{self.baselined:,} in the baseline")
        if self.unused_waivers:
            extra.append(_plural(len(self.unused_waivers), "unused waiver"))
        if self.rejected_waivers:
            extra.append(f"{_plural(len(self.rejected_waivers), 'waiver')} not applied")
        if self.stale:
            extra.append(_plural(len(self.stale), "stale baseline entry", "stale baseline entries"))
        rejected = sum(getattr(r, "rejected_rows", 0) for r in self.results)
        if rejected:
            extra.append(f"{_plural(rejected, 'row')} of the recorders' logs not imported (record.rejected-row)")
        if self.not_judged:
            extra.append(f"{_plural(self.rules_not_judged, 'rule')} not judged for want of evidence")
        if self.errors:
            extra.append(f"{_plural(len(self.errors), 'file')} could not be checked")
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
        line = (f"hold against theory: {_plural(len(h.groups), 'group')}, {len(outside):,} outside the {level}% "
                f"band{ways}, {_plural(flagged, 'finding')}")
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
        return (f"the verdict rests on partial evidence: {_plural(n, 'rule')} {'was' if n == 1 else 'were'} not "
                "judged in some or all coups, for want of the evidence they need")

    @staticmethod
    def transcript_partial(view: TranscriptView) -> str:
        """The same of one transcript (its rules not judged, by id, with why)."""
        n = len({nj.rule.id for nj in view.not_judged})
        why = "; ".join(f"{nj.rule.id} {nj.extent}: {nj.reason}" for nj in view.not_judged[:5])
        more = f"; and {len(view.not_judged) - 5:,} more" if len(view.not_judged) > 5 else ""
        return (f"{view.result.transcript}: the verdict rests on partial evidence: {_plural(n, 'rule')} not judged "
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
            line += f"; it turns off {_plural(len(self.config_off), 'rule')}: {_listed(self.config_off)}"
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
        categories in the spec's order, the rest as :func:`_groups` counts them (dealer and time where the
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


# ------------------------------------------------------------------ who and when


NOT_RECORDED = "(not recorded)"


@dataclass(frozen=True)
class DealerRest:
    """Dealers a page does not list one by one, added up (:meth:`Groups.together`)."""

    counts: Counter
    coups: int
    rate: Decimal | None
    whole: int


@dataclass
class Groups:
    """The reported findings counted by dealer, by table and by hour (where the transcripts record them); each
    dealer who dealt is listed (with or without findings), with the coups they dealt (``dealer_coups``) and how
    many of their findings judged whole shoes or runs (``dealer_whole``: an integrity finding counts against the
    dealer of its decisive coup, and is shown apart)."""

    dealer: dict[str, Counter]
    table: dict[str, Counter]
    hour: dict[str, Counter]
    dealer_coups: dict[str, int] = field(default_factory=dict)
    dealer_whole: dict[str, int] = field(default_factory=dict)

    def rate(self, dealer: str) -> Decimal | None:
        """The dealer's findings per 100 coups dealt, to two places (None: no coup of theirs is known)."""
        coups = self.dealer_coups.get(dealer, 0)
        if not coups:
            return None
        return (Decimal(sum(self.dealer[dealer].values()) * 100) / coups).quantize(Decimal("0.01"), ROUND_HALF_UP)

    def together(self, dealers: list[str]) -> DealerRest:
        """Several dealers in one line: their findings, the coups they dealt, the rate over those coups, the
        findings on whole shoes."""
        counts = sum((self.dealer[d] for d in dealers), Counter())
        coups = sum(self.dealer_coups.get(d, 0) for d in dealers)
        rate = (Decimal(sum(counts.values()) * 100) / coups).quantize(Decimal("0.01"), ROUND_HALF_UP) if coups else None
        return DealerRest(counts, coups, rate, sum(self.dealer_whole.get(d, 0) for d in dealers))

    def dealers_by_rate(self) -> list[str]:
        """The dealers, the highest rate of findings first (then by name; unknown rates last)."""
        return sorted(self.dealer, key=lambda d: (self.rate(d) is None, -(self.rate(d) or 0), d == NOT_RECORDED, d))


def hour_of(at: str | None) -> str | None:
    """The hour of an ISO 8601 timestamp as recorded, its offset kept: ``2026-11-29T20:00+10:00``; None if it is
    not one."""
    if at is None or len(at) < 10 or not at[:4].isdigit():
        return None
    try:
        when = dt.datetime.fromisoformat(at)
    except ValueError:
        return None
    offset = when.strftime("%z")
    zone = "" if not offset else ("Z" if offset == "+0000" else f"{offset[:3]}:{offset[3:5]}")
    return when.strftime("%Y-%m-%dT%H:00") + zone


def _groups(findings: list[Finding], results: list | None = None) -> Groups | None:
    """Counts by dealer, table and hour, and the coups each dealer dealt; None when no transcript names a dealer
    and no finding records a dealer or a time (nothing to group by beyond the tables every report lists
    already)."""
    coups: Counter = Counter()
    for r in results or ():
        dealt = getattr(r, "dealt", None) or {}
        coups.update(dealt)
        if sum(dealt.values()) < r.coups:
            coups[NOT_RECORDED] += r.coups - sum(dealt.values())
    named = any(k != NOT_RECORDED for k in coups)
    if not named and not any(f.staff or f.at for f in findings):
        return None
    dealer: dict[str, Counter] = {name: Counter() for name in coups} if named else {}
    whole: Counter = Counter()
    table: dict[str, Counter] = {}
    hour: dict[str, Counter] = {}
    for f in findings:
        who = f.dealer or NOT_RECORDED
        dealer.setdefault(who, Counter())[f.severity] += 1
        if f.statistics is not None:  # judged over whole shoes or runs: against the dealer of its decisive coup
            whole[who] += 1
        table.setdefault(f.table or NOT_RECORDED, Counter())[f.severity] += 1
        hour.setdefault(hour_of(f.at) or NOT_RECORDED, Counter())[f.severity] += 1
    ordered = [dict(sorted(g.items(), key=lambda kv: (kv[0] == NOT_RECORDED, kv[0]))) for g in (dealer, table, hour)]
    return Groups(*ordered, dealer_coups={d: coups[d] for d in ordered[0] if named},
                  dealer_whole={d: whole[d] for d in ordered[0]})


# ------------------------------------------------------------------ money


_ZERO = Decimal(0)


@dataclass
class MoneyTotal:
    """Wrong settlements added up, exact: what the patrons got beyond what was due, what the house kept beyond
    it, and the net (the first less the second)."""

    to_patrons: Decimal = _ZERO
    to_house: Decimal = _ZERO
    findings: int = 0

    @property
    def net(self) -> Decimal:
        return MONEY.subtract(self.to_patrons, self.to_house)

    def as_dict(self) -> dict:
        return {"net": amount_text(self.net), "to_patrons": amount_text(self.to_patrons),
                "to_house": amount_text(self.to_house), "findings": self.findings}

    def add(self, gain: Decimal) -> None:
        self.findings += 1
        if gain > 0:
            self.to_patrons = MONEY.add(self.to_patrons, gain)
        elif gain < 0:
            self.to_house = MONEY.subtract(self.to_house, gain)

    @classmethod
    def together(cls, totals) -> MoneyTotal:
        """Several totals added up (of one currency)."""
        out = cls()
        for t in totals:
            out.to_patrons = MONEY.add(out.to_patrons, t.to_patrons)
            out.to_house = MONEY.add(out.to_house, t.to_house)
            out.findings += t.findings
        return out


@dataclass
class MoneySummary:
    """The reported findings' money (findings.Money) in one currency (None: the transcripts name none), in
    total and by table, dealer, hour and patron; a finding that sums others (settlement drift) is not counted
    again.  Amounts of different currencies are never added: a run that has several gives one summary each
    (``currencies``) and no total."""

    currency: str | None
    total: MoneyTotal | None
    table: dict[str, MoneyTotal] = field(default_factory=dict)
    dealer: dict[str, MoneyTotal] = field(default_factory=dict)
    hour: dict[str, MoneyTotal] = field(default_factory=dict)
    patron: dict[str, MoneyTotal] = field(default_factory=dict)
    currencies: dict[str, MoneySummary] | None = None  # several currencies: one summary each

    def as_dict(self) -> dict:
        """The summary as the JSON report (and SARIF's run properties) write it: exact decimal strings."""
        if self.currencies is not None:
            return {"currencies": {code: one.as_dict() for code, one in self.currencies.items()}}
        return {"currency": self.currency} | self.total.as_dict() | {
            name: {key: t.as_dict() for key, t in getattr(self, name).items()}
            for name in ("table", "dealer", "hour", "patron")}

    def net_words(self) -> str:
        """"net 50 USD paid to patrons beyond what was due" (several currencies: each)."""
        if self.currencies is not None:
            return "; ".join(s.net_words() for s in self.currencies.values())
        net = self.total.net
        amount = money(abs(net)) + (f" {self.currency}" if self.currency else "")
        if net > 0:
            return f"net {amount} paid to patrons beyond what was due"
        if net < 0:
            return f"net {amount} kept by the house beyond what was due"
        return "net nothing either way in wrong settlements"


def money_words(m) -> str:
    """A finding's money for a reader: "due 950, paid 1,000 USD: 50 in the patron's favour"."""
    unit = f" {m.currency}" if m.currency else ""
    gain = m.gain
    said = (f"{money(abs(gain))}{unit} in the patron's favour" if gain > 0 else
            f"{money(-gain)}{unit} in the house's favour" if gain < 0 else "no difference in money")
    head = f"{m.sums:,} settlements together: " if m.sums is not None else ""
    return f"{head}due {money(m.expected)}, paid {money(m.paid)}{unit}: {said}"


MONEY_GROUPS = (("table", "table"), ("dealer", "dealer"), ("hour", "hour"), ("patron", "patron"))


def patron_key(f: Finding) -> str:
    """Whose money a finding is, across the run: the patron's id where recorded, else the table's seat or box."""
    who = f.money.patron or NOT_RECORDED
    if who.startswith(("seat ", "box ")):
        return f"{f.table or NOT_RECORDED} {who}"
    return who


def money_summary(findings: list[Finding]) -> MoneySummary | None:
    """The money of the reported findings; None when no finding has any."""
    counted = [f for f in findings if f.money is not None and f.money.sums is None]
    if not counted:
        return None
    by_currency: dict[str | None, list[Finding]] = {}
    for f in counted:
        by_currency.setdefault(f.money.currency, []).append(f)
    if len(by_currency) > 1:
        return MoneySummary(None, None, currencies={
            str(c): _summary(c, fs) for c, fs in sorted(by_currency.items(), key=lambda kv: str(kv[0]))})
    (currency, fs), = by_currency.items()
    return _summary(currency, fs)


def _summary(currency: str | None, findings: list[Finding]) -> MoneySummary:
    s = MoneySummary(currency, MoneyTotal())
    for f in findings:
        gain = f.money.gain
        s.total.add(gain)
        for group, key in ((s.table, f.table or NOT_RECORDED), (s.dealer, f.dealer or NOT_RECORDED),
                           (s.hour, hour_of(f.at) or NOT_RECORDED), (s.patron, patron_key(f))):
            total = group.get(key)
            if total is None:
                total = group[key] = MoneyTotal()
            total.add(gain)
    for name in ("table", "dealer", "hour", "patron"):
        setattr(s, name, dict(sorted(getattr(s, name).items(), key=lambda kv: (kv[0] == NOT_RECORDED, kv[0]))))
    return s


# ------------------------------------------------------------------ hold against theory


def hold_percent(x: Decimal) -> str:
    """A hold (a fraction) as a percentage to two places: ``2.86%``."""
    return f"{(x * 100).quantize(Decimal('0.01'))}%"


def hold_view(results: list):
    """The run's hold against theory (:class:`compliance.games.integrity.HoldView`), where a game's integrity stage
    judged it (one view for the whole run, on each of its transcripts); None otherwise."""
    for r in results:
        view = getattr(getattr(r, "integrity", None), "hold_view", None)
        if view is not None:
            return view
    return None


# ------------------------------------------------------------------ patrons

#: the category whose findings carry a patron's edge: the expected gain of side wagers that follow the cards left
#: in the shoe (its money: ``expected`` their value at a full shoe's odds, ``paid`` given the cards left)
EDGE_CATEGORY = "integrity.advantage-play"


@dataclass
class PatronCounts:
    """One patron's share of the reported findings that name a patron (those with money: wrong settlements,
    collusion, advantage play): by severity; the patron's wrong settlements among them (``settlements``; a
    finding over many, collusion or advantage play, sums others and is not one); the wagers the patron had
    settled in the run (every coup, where the game's integrity stage counted them in every transcript; None
    otherwise); the net of the wrong settlements (as :class:`MoneyTotal` adds them up, None where there are none
    or the findings are in several currencies); and the edge taken, the expected gain of the advantage-play
    findings (None where there is none, or in several currencies)."""

    by_severity: Counter = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    settlements: int = 0
    wagers: int | None = None
    money: MoneyTotal | None = None
    edge: Decimal | None = None
    currency: str | None = None

    @property
    def count(self) -> int:
        return len(self.findings)

    @property
    def by_rule(self) -> list[tuple[str, int]]:
        """The patron's findings by rule, the most frequent first."""
        return sorted(Counter(f.rule for f in self.findings).items(), key=lambda kv: (-kv[1], kv[0]))


def finding_patron(f: Finding) -> str | None:
    """The patron a finding names, across the run (:func:`patron_key`): a finding with money (a wrong settlement,
    collusion, advantage play); None for one without, or over many patrons' settlements (a table's drift)."""
    m = f.money
    if m is None or (m.patron is None and m.sums is not None):
        return None
    return patron_key(f)


def patron_wagers(results: list) -> Counter | None:
    """The wagers each patron had settled (:func:`patron_key`'s names), over the run: None unless every
    transcript with a coup was counted (a game's integrity stage counts them: ``integrity.wagered``)."""
    out: Counter = Counter()
    for r in results:
        wagered = getattr(getattr(r, "integrity", None), "wagered", None)
        if wagered is None:
            if r.coups:
                return None
            continue
        for who, n in wagered.items():
            out[f"{r.table} {who}" if who.startswith(("seat ", "box ")) else who] += n
    return out


def patron_counts(findings: list[Finding], results: list = ()) -> dict[str, PatronCounts]:
    """The reported findings that name a patron, by patron (:func:`finding_patron`), with the wagers each had
    settled in the run (``results``' counts): the most findings first, then by name, ``(not recorded)`` last."""
    out: dict[str, PatronCounts] = {}
    currencies: dict[str, set] = {}
    for f in findings:
        key = finding_patron(f)
        if key is None:
            continue
        m = f.money
        p = out.get(key)
        if p is None:
            p = out[key] = PatronCounts()
            currencies[key] = set()
        p.by_severity[f.severity] += 1
        p.findings.append(f)
        p.settlements += m.sums is None
        currencies[key].add(m.currency)
    wagered = patron_wagers(list(results)) if out else None
    for key, p in out.items():
        if wagered is not None and key != NOT_RECORDED:
            p.wagers = wagered[key]
        if len(currencies[key]) != 1:
            continue  # amounts of different currencies are never added
        (p.currency,) = currencies[key]
        settled = [f for f in p.findings if f.money.sums is None]
        if settled:
            p.money = MoneyTotal()
            for f in settled:
                p.money.add(f.money.gain)
        edges = [f.money.gain for f in p.findings if f.category == EDGE_CATEGORY]
        if edges:
            p.edge = sum(edges, _ZERO)
    return dict(sorted(out.items(), key=lambda kv: (kv[0] == NOT_RECORDED, -kv[1].count, kv[0])))


# ------------------------------------------------------------------ a long run, as a page draws it

#: a time view has at most this many rows (and bars): the finest of hour, day, month and year in which the hours
#: of the findings fall in no more periods than this (a night by the hour; a week by the day; a long recording by
#: the month)
TIME_PERIODS = 48
#: the units of a time view, the finest first, each with the length of an hour's key (``2026-11-29T21:00``) that
#: names its period
TIME_UNITS = (("hour", 16), ("day", 10), ("month", 7), ("year", 4))
#: rows a page draws of a list that grows with the run (patrons, dealers, tables, their money): the rest are
#: summed in one line, and the JSON report lists every one
ROWS_DRAWN = 100


def period_of(hour: str, unit: str) -> str:
    """The period of ``unit`` an hour (:func:`hour_of`'s key) falls in, as recorded, its UTC offset kept:
    ``2026-11-29 (UTC)``, ``2026-11 (+10:00)``, ``2026``; the hour itself for ``hour``; ``(not recorded)`` stays
    so."""
    if unit == "hour" or hour == NOT_RECORDED:
        return hour
    zone = hour[16:]
    return hour[:dict(TIME_UNITS)[unit]] + (" (UTC)" if zone == "Z" else f" ({zone})" if zone else "")


@dataclass
class Period:
    """One period of a time view: its reported findings by severity, the hours with one, and the busiest hour."""

    key: str
    up: int | None  # its place among the periods of the next coarser level (None at the coarsest)
    counts: Counter = field(default_factory=Counter)
    hours: int = 0  # hours with a reported finding
    busiest: str | None = None  # the hour with the most reported findings (the first such)
    most: int = 0  # how many it has


@dataclass
class TimeFold:
    """The hours of a run's findings as a page shows them: by ``unit``, the finest of :data:`TIME_UNITS` in which
    they fall in at most :data:`TIME_PERIODS` periods (every hour for a night; by the day, or the month, for a
    recording that spans weeks or years). ``levels`` go from that unit down to the hour (``units`` names them), so
    any hour is reached period by period; each period knows its place in the level above. The hour level lists
    every hour of a coup shown (reported findings first counted, then the hours of waived findings only)."""

    units: list[str]
    levels: list[list[Period]]

    @property
    def unit(self) -> str:
        return self.units[0]

    @property
    def periods(self) -> list[Period]:
        """The view's rows: the periods of its unit that hold a reported finding."""
        return [p for p in self.levels[0] if p.counts]

    @property
    def hours(self) -> int:
        """The hours (recorded) that hold a reported finding."""
        return sum(1 for p in self.levels[-1] if p.counts and p.key != NOT_RECORDED)

    @property
    def folded(self) -> bool:
        return self.unit != "hour"

    def money(self, by_hour: dict[str, MoneyTotal]) -> dict[str, MoneyTotal]:
        """Money by hour (``MoneySummary.hour``) added up by the view's unit, in the same order."""
        out: dict[str, list[MoneyTotal]] = {}
        for hour, total in by_hour.items():
            out.setdefault(period_of(hour, self.unit), []).append(total)
        return {key: MoneyTotal.together(totals) for key, totals in out.items()}


def time_fold(counts: dict[str, Counter], more_hours=()) -> TimeFold:
    """The time view of the findings counted by hour (``Groups.hour``), with ``more_hours`` (the hours of waived
    findings) listed for the filters."""
    hours = sorted(set(counts) | set(more_hours), key=lambda h: (h == NOT_RECORDED, h))
    counted = [h for h in counts if h != NOT_RECORDED]
    depth = next((i for i, (unit, _) in enumerate(TIME_UNITS)
                  if len({period_of(h, unit) for h in counted}) <= TIME_PERIODS), len(TIME_UNITS) - 1)
    units = [TIME_UNITS[i][0] for i in range(depth, -1, -1)]
    levels: list[list[Period]] = [[] for _ in units]
    places: list[dict[str, int]] = [{} for _ in units]
    for hour in hours:
        found = counts.get(hour, Counter())
        n = sum(found.values())
        up = None
        for level, unit in enumerate(units):
            key = period_of(hour, unit)
            at = places[level].get(key)
            if at is None:
                at = places[level][key] = len(levels[level])
                levels[level].append(Period(key, up))
            p = levels[level][at]
            if n:
                p.counts.update(found)
                p.hours += 1
                if n > p.most:
                    p.busiest, p.most = hour, n
            up = at
    return TimeFold(units, levels)


@dataclass
class Digest:
    """The first rows of a long list, as a page draws them (``shown``: key and value), and the rest added up in
    one (``rest``, of ``left_out`` rows; None when nothing is left out)."""

    shown: list[tuple[str, object]]
    left_out: int = 0
    rest: object | None = None


def digest(rows: list[tuple[str, object]], add, limit: int = ROWS_DRAWN) -> Digest:
    """The first ``limit`` rows, and the others added up by ``add`` (a list of values -> one value)."""
    if len(rows) <= limit:
        return Digest(rows)
    return Digest(rows[:limit], len(rows) - limit, add([v for _, v in rows[limit:]]))


def patrons_together(patrons: list[PatronCounts]) -> PatronCounts:
    """Several patrons' counts in one line: findings, wrong settlements, wagers (where every one was counted),
    the net and the edge (where they are in one currency)."""
    out = PatronCounts()
    for p in patrons:
        out.by_severity.update(p.by_severity)
        out.findings.extend(p.findings)
        out.settlements += p.settlements
    wagers = [p.wagers for p in patrons]
    out.wagers = None if None in wagers else sum(wagers)
    currencies = {p.currency for p in patrons if p.money is not None or p.edge is not None}
    mixed = any((p.settlements and p.money is None) or (p.edge is None and any(f.category == EDGE_CATEGORY
                                                                             for f in p.findings)) for p in patrons)
    if len(currencies) <= 1 and not mixed:  # amounts of different currencies are never added
        out.currency = next(iter(currencies), None)
        nets = [p.money for p in patrons if p.money is not None]
        out.money = MoneyTotal.together(nets) if nets else None
        edges = [p.edge for p in patrons if p.edge is not None]
        out.edge = sum(edges, _ZERO) if edges else None
    return out


def patron_digest(patrons: dict[str, PatronCounts], limit: int = ROWS_DRAWN) -> Digest:
    """The patrons a page lists: the most findings first, then the largest net either way (then by name); the rest
    in one line."""
    def weight(kv):
        key, p = kv
        return (key == NOT_RECORDED, -p.count, -abs(p.money.net) if p.money is not None else 0, key)

    return digest(sorted(patrons.items(), key=weight), patrons_together, limit)


def money_digest(group: dict[str, MoneyTotal], limit: int = ROWS_DRAWN, largest: bool = False) -> Digest:
    """A money table's rows: as given, or (``largest``) the largest net either way first; the rest in one line."""
    rows = list(group.items())
    if largest:
        rows.sort(key=lambda kv: (kv[0] == NOT_RECORDED, -abs(kv[1].net), kv[0]))
    return digest(rows, MoneyTotal.together, limit)


def counts_digest(group: dict[str, Counter], limit: int = ROWS_DRAWN) -> Digest:
    """Findings by severity by table (or any key), as given; the rest in one line."""
    return digest(list(group.items()), lambda counts: sum(counts, Counter()), limit)


@dataclass(frozen=True)
class Bars:
    """A chart's bars: at most :data:`BARS_DRAWN` (the most findings first when there are more; ``left_out`` of
    them, with ``left_out_findings``, are not drawn)."""

    name: str
    items: list[tuple[str, int]]
    left_out: int = 0
    left_out_findings: int = 0


#: bars a chart of tables or dealers draws (a time chart is folded instead: :data:`TIME_PERIODS`)
BARS_DRAWN = 30


def bars(name: str, items: list[tuple[str, int]], limit: int = BARS_DRAWN) -> Bars:
    if len(items) <= limit:
        return Bars(name, items)
    ranked = sorted(items, key=lambda kv: (-kv[1], kv[0]))
    return Bars(name, ranked[:limit], len(items) - limit, sum(n for _, n in ranked[limit:]))


# ------------------------------------------------------------------ a ruleset loaded from a file

_LISTED = 12  # ids listed in a line; the rest are counted


def _listed(ids: list[str]) -> str:
    shown = ", ".join(ids[:_LISTED])
    return shown + (f" and {len(ids) - _LISTED:,} more" if len(ids) > _LISTED else "")


@dataclass(frozen=True)
class RulesetOrigin:
    """A ruleset loaded from a file (``-r path``, the configuration), against the bundled ruleset whose id it
    takes or, failing that, the nearest bundled one it extends: the rules it turns off, changes and adds."""

    path: str  # the file asked for (the top of its extends chain)
    base: str | None  # the bundled ruleset it is compared with
    takes_bundled_id: bool  # its id is a bundled ruleset's (a look-alike, or a house copy)
    disabled: list[str]
    changed: list[str]
    added: list[str]
    parameters: list[str] = field(default_factory=list)  # the game's parameters it changes: "PATH from A to B"

    def words(self) -> str:
        out = f"loaded from the file {self.path}"
        if self.base is None:
            return out
        how = "the bundled ruleset of the same id" if self.takes_bundled_id else f"the bundled ruleset {self.base}"
        parts = [f"{_plural(len(self.disabled), 'rule')} turned off" + (f" ({_listed(self.disabled)})"
                                                                         if self.disabled else ""),
                 f"{len(self.changed):,} changed" + (f" ({_listed(self.changed)})" if self.changed else "")]
        if self.added:
            parts.append(f"{len(self.added):,} added ({_listed(self.added)})")
        if self.parameters:
            parts.append(f"{_plural(len(self.parameters), 'parameter')} of the game changed "
                         f"({_listed(self.parameters)})")
        return f"{out}; against {how}: " + ", ".join(parts)

    def as_dict(self) -> dict:
        return {"file": self.path, "base": self.base, "takes_bundled_id": self.takes_bundled_id,
                "disabled": self.disabled, "changed": self.changed, "added": self.added,
                "parameters": self.parameters}


def _shown(path: str) -> str:
    """A ruleset file's path as reports give it: relative to the working directory when it is under it (--dask
    sends the workers absolute paths; the report is the same as -j 1's)."""
    import os

    if os.path.isabs(path):
        try:
            rel = os.path.relpath(path)
        except ValueError:  # another drive (Windows)
            return path
        if not rel.startswith(os.pardir):
            return rel
    return path


def ruleset_origin(rs: Ruleset) -> RulesetOrigin | None:
    """None for a bundled ruleset; else where it was loaded from and what it changes (bundled rulesets are
    loaded here to compare, only for a run judged by a ruleset file)."""
    from pathlib import Path

    from compliance.ruleset.loader import bundled_dir, bundled_ids, load_ruleset

    if not rs.files or Path(rs.files[-1]).resolve().parent == bundled_dir().resolve():
        return None
    path = _shown(rs.path)
    known = bundled_ids()
    base = rs.id if rs.id in known else next((i for i in rs.lineage[1:] if i in known), None)
    if base is None:
        return RulesetOrigin(path, None, False, [], [], [])
    bundled = load_ruleset(base)
    theirs = {r.id: r for r in bundled.rules}
    mine = {r.id: r for r in rs.rules}
    return RulesetOrigin(path, base, rs.id in known,
                         disabled=sorted(set(theirs) - set(mine)),
                         changed=sorted(i for i in theirs if i in mine and mine[i] != theirs[i]),
                         added=sorted(set(mine) - set(theirs)),
                         parameters=_changed_parameters(bundled, rs))


def _changed_parameters(bundled: Ruleset, rs: Ruleset) -> list[str]:
    """The game's parameters (odds, commission, tableau, spots, dealing methods) ``rs`` sets otherwise than
    ``bundled``: ``PATH from OLD to NEW``, by path."""
    def flat(value, path: str):
        if isinstance(value, dict):
            for k, v in value.items():
                yield from flat(v, f"{path}.{k}" if path else str(k))
        elif isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
            for i, v in enumerate(value):
                yield from flat(v, f"{path}[{i}]")
        else:
            yield path, value

    def parameters(r: Ruleset) -> dict:
        doc = {"game": r.game.model_dump(mode="json") if r.game is not None else None,
               "dealing_methods": list(r.dealing_methods) if r.dealing_methods is not None else None}
        return dict(flat(doc, ""))

    before, after = parameters(bundled), parameters(rs)

    def shown(v) -> str:
        return "(none)" if v is None else str(v)

    return [f"{k} from {shown(before.get(k))} to {shown(after.get(k))}" for k in sorted(set(before) | set(after))
            if before.get(k) != after.get(k)]
