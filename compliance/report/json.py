"""The JSON report: the spec's contract (``findings``) plus run metadata.

:func:`render` writes it from plain dicts (:func:`document`); the pydantic models below
describe it and are its published JSON Schema (:func:`schema`: ``baccarat-audit schema
report``, ``docs/report-schema.json``), which the tests validate the output against.

The fields, and what format 1.1 adds only where there is something to say:
docs/transcript.md, "The JSON report"; docs/reports.md, "Formats".
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from compliance.baseline import BaselineEntry
from compliance.categories import SEVERITIES
from compliance.findings import Finding, amount_text
from compliance.printable import json_safe
from compliance.report.model import SCHEMA_VERSION, Report, category_counts
from compliance.waivers import Entry

Severity = Literal[SEVERITIES]  # type: ignore[valid-type]
Category = str  # one of the categories of every registered game: the schema lists them (schema())


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class StatisticOut(_Closed):
    """One test an integrity finding rests on (categories integrity.*)."""

    group: str = Field(description="what was judged: a shoe, a table, a dealer, or the run")
    test: str = Field(description="the test, in words")
    statistic: str = Field(description="what is measured")
    value: str = Field(description="its value")
    p_value: str = Field(description="chance of a value as extreme under fair play ('<= x': a bound on it)")
    threshold: str = Field(description="the test is decisive at or below this")
    decisive_coup: int = Field(description="the first coup at which the test was decisive")


class MoneyOut(_Closed):
    """What a wrong settlement was worth, exact: each amount a plain decimal string ("950", "-100")."""

    expected: str = Field(description="what was due, as its value to the patron: winnings plus, a stake or "
                                      "commission collected minus, a push 0")
    paid: str = Field(description="what was paid or collected, the same way")
    difference: str = Field(description="how far apart the two are (never negative)")
    favours: Literal["patron", "house", "neither"] = Field(
        description="who got the difference: patron (paid beyond what was due), house (kept beyond it), neither "
                    "(a wrong settlement worth the same, a push recorded as a loss of nothing)")
    currency: str | None = Field(description="the table's currency (table.currency), null where not recorded")
    patron: str | None = Field(default=None, description="whose wager: the patron's id where the transcript names "
                               "one, else the seat (\"seat 3\") or box; absent on a finding over many settlements")
    sums: int | None = Field(default=None, description="a finding over many settlements (integrity.settlement-"
                             "drift): how many it adds up; expected and paid are their totals. The report's money "
                             "does not count it again")


class FindingOut(_Closed):
    """One breach of one rule (spec contract: rule .. citation)."""

    rule: str = Field(description="the ruleset's rule id")
    category: Category = Field(description="the spec's finding category")
    severity: Severity
    transcript: str = Field(description="the transcript's path as checked (a Markdown document for embedded ones)")
    coup: int | None = Field(description="the coup number; null when it could not be read")
    event: int | None = Field(description="0-based index of the event in the coup's events; null for the whole coup")
    message: str = Field(description="what happened and what the rule requires")
    citation: str = Field(description="the regulation paragraph(s) the rule rests on")
    line: int | None = Field(description="1-based line of the event (or coup) in the file")
    column: int | None = Field(description="1-based column of the event (or coup) in the file")
    fingerprint: str = Field(description="what the finding is: its rule, category, transcript, coup and event and "
                             "the facts its message states (amounts, cards); not the line, so it survives edits "
                             "elsewhere in the file (an unreadable coup without a number is known by its line). "
                             "Baselines match findings by it")
    staff: dict[Literal["dealer", "inspector", "supervisor"], str] | None = Field(
        default=None, description="who ran the table in the coup, where the transcript records it (format 1.1); "
                                  "absent otherwise")
    at: str | None = Field(default=None, description="the timestamp of the event (else of the coup's first event), "
                                                     "where recorded; absent otherwise")
    statistics: list[StatisticOut] | None = Field(
        default=None, description="integrity findings only (shoes and runs judged as a whole): the tests they rest "
        "on, each with its statistic, p-value or bound, and the first coup at which it was decisive; absent "
        "otherwise")
    money: MoneyOut | None = Field(
        default=None, description="settlement findings (and integrity findings with an amount): what was due, "
        "what was paid and in whose favour; absent on other findings")


class WaiverOut(_Closed):
    id: str = Field(description="the waiver's id, or #<position> in the waivers file")
    line: int = Field(description="line of the waiver in the waivers file")
    justification: str
    approved_by: str
    expires: str = Field(description="last day the waiver applies (ISO 8601 date)")


class WaivedFindingOut(FindingOut):
    waiver: WaiverOut


class RulesetOut(_Closed):
    id: str
    version: str
    sha256: str = Field(description="the ruleset's content hash: SHA-256 of the SHA-256 of each file of its extends "
                        "chain, base first, one hexadecimal digest a line (schema 1.2)")


class RulesetOrigin(_Closed):
    file: str = Field(description="the ruleset file the run was given (-r, or the configuration)")
    base: str | None = Field(description="the bundled ruleset it is compared with: the one whose id it takes, else "
                                         "the nearest it extends; null when none")
    takes_bundled_id: bool = Field(description="its id is a bundled ruleset's (a look-alike, or a house copy)")
    disabled: list[str] = Field(description="rules of the bundled ruleset it does not apply")
    changed: list[str] = Field(description="rules of the bundled ruleset it applies with other parameters, "
                                           "severity or citation")
    added: list[str] = Field(description="rules the bundled ruleset does not have")
    parameters: list[str] = Field(default=[], description="the game's parameters it sets otherwise (odds, commission, "
                                  "tableau, spots, dealing methods), each `PATH from OLD to NEW`")


class RulesetInfo(RulesetOut):
    title: str
    origin: RulesetOrigin | None = Field(default=None, description="present for a ruleset loaded from a file: "
                                         "what it changes of the bundled ruleset")


class ConfigurationOut(_Closed):
    path: str | None = Field(default=None, description="the configuration file the run's settings came from")
    sha256: str | None = Field(default=None, description="SHA-256 of its bytes")
    turns_off: list[str] | None = Field(default=None, description="the rules of the run's rulesets its own select "
                                                                  "and ignore turn off")
    isolated: bool | None = Field(default=None, description="--isolated: no configuration file was read")


class SeverityCounts(_Closed):
    error: int
    warning: int
    info: int


class TranscriptOut(_Closed):
    transcript: str = Field(description="the transcript's name: its path, or document.md#L<line> for a Markdown block")
    table: str
    jurisdiction: str | None
    game: str
    ruleset: RulesetOut
    sha256: str = Field(description="SHA-256 of the transcript's bytes (of the block, for a Markdown block)")
    coups: int
    unreadable_coups: int
    findings: SeverityCounts = Field(description="reported findings by severity")
    categories: dict[str, int] = Field(description="reported findings by category")
    waived: int
    baselined: int
    versions: list[VersionOut] | None = Field(default=None, description="for a ruleset with a history: each version "
                                              "that judged its coups (the rules in force on the coups' days)")
    dated_by: str | None = Field(default=None, description="how its coups were dated: --as-of DATE, or coup times "
                                                           "(else the header's date)")
    recorded: list[str] | None = Field(default=None, description="what the transcript says the recording holds "
                                       "(format 1.1 `recorded`); absent for a version 1 transcript, which holds "
                                       "everything a transcript can record but the claim to every coup")


class AmendmentOut(_Closed):
    id: str = Field(description="the amendment's id, or option:<key> for a house's selection of an option")
    cite: str = Field(description="its register citation (for a selection: the option's citation and the house's "
                                  "submission)")
    effective: str
    ends: str | None = None


class VersionOut(_Closed):
    """A version of the ruleset's history that judged coups of the transcript."""

    start: str | None = Field(description="the first day it is in force; null: the rules as first made")
    end: str | None = Field(description="the last day it is in force; null: still in force")
    amendments: list[AmendmentOut] = Field(description="the amendments and selections in force")
    coups: int
    first_coup: int | None
    last_coup: int | None
    undated: int = Field(description="of its coups, those that gave no date (judged by the current version)")


class NotJudgedOut(_Closed):
    """A rule not judged in some or all coups of a transcript: the evidence it needs was not recorded there."""

    transcript: str
    rule: str
    category: Category
    citation: str
    coups: int = Field(description="coups the rule was not judged in")
    of: int = Field(description="coups of the transcript that could be read")
    missing: dict[str, int] = Field(description="each piece of evidence not recorded (compliance.evidence) -> "
                                                "the coups that lacked it")
    reason: str = Field(description='why, in words: "calls not recorded"')


class DealerCounts(SeverityCounts):
    """A dealer's reported findings by severity (those judging whole shoes or runs included), and their coups."""

    coups: int | None = Field(default=None, description="the coups they dealt (read or not); absent where no "
                              "transcript of the run names who dealt")
    per_100_coups: str | None = Field(default=None, description="their findings per 100 coups dealt, to two "
                                      "places (\"1.25\"); absent where coups is absent or 0")
    whole_shoe: int = Field(default=0, description="of their findings, those judging whole shoes or runs "
                            "(integrity.*): counted against the dealer of the decisive coup, shown apart")


class PatronCounts(SeverityCounts):
    """A patron's reported findings by severity (those that name the patron: wrong settlements, collusion,
    advantage play), what they rest on and what they were worth."""

    settlements: int = Field(description="the patron's wrong settlements among these findings (a finding over "
                                         "many, collusion or advantage play, sums others and is not one)")
    wagers: int | None = Field(default=None, description="the wagers the patron had settled in the run, every "
                               "coup counted (absent where a transcript's game does not count them: pai gow)")
    currency: str | None = Field(default=None, description="the currency of net and edge; absent where the "
                                 "patron's findings are in several (then neither is given)")
    net: str | None = Field(default=None, description="the patron's wrong settlements, net: paid to the patron "
                            "beyond what was due, less what the house kept beyond it (as money.patron); absent "
                            "where none")
    edge: str | None = Field(default=None, description="the edge the patron took: the expected gain of the side "
                             "wagers an integrity.advantage-play finding names, given the cards left in the shoe, "
                             "over their value at a full shoe's odds; absent where no such finding names the patron")


class GroupsOut(_Closed):
    """Reported findings by severity, grouped; a key "(not recorded)" gathers the findings without one."""

    dealer: dict[str, DealerCounts] | None = Field(
        default=None, description="by the coup's dealer (format 1.1 `staff`): every dealer who dealt, with or "
                                  "without findings; absent (with table and hour) where no transcript names a "
                                  "dealer and no finding records a dealer or a time")
    table: dict[str, SeverityCounts] | None = Field(default=None, description="by table id")
    hour: dict[str, SeverityCounts] | None = Field(default=None, description="by the hour of the finding's "
                                                   "timestamp, its offset kept (2026-11-29T20:00+10:00)")
    patron: dict[str, PatronCounts] | None = Field(
        default=None, description="by patron, the findings that name one (those with money): the patron's id, "
                                  "else \"<table> seat N\" (or box); the most findings first. Absent where no "
                                  "finding names a patron")


class MoneyTotalOut(_Closed):
    net: str = Field(description="paid to patrons beyond what was due, less what the house kept beyond it")
    to_patrons: str = Field(description="the differences in the patrons' favour, added up")
    to_house: str = Field(description="the differences in the house's favour, added up")
    findings: int = Field(description="the findings counted")


class MoneySummaryOut(_Closed):
    """The reported findings' money in one currency; a key "(not recorded)" gathers the findings without one."""

    currency: str | None = Field(description="the currency of every amount here; null where the transcripts "
                                             "name none")
    net: str = Field(description="paid to patrons beyond what was due, less what the house kept beyond it "
                                 "(the sum of the findings' differences, each signed by whom it favours)")
    to_patrons: str
    to_house: str
    findings: int = Field(description="the findings counted (a finding over many settlements is not: it sums "
                                      "these)")
    table: dict[str, MoneyTotalOut]
    dealer: dict[str, MoneyTotalOut] = Field(description="by the coup's dealer (format 1.1 `staff`)")
    hour: dict[str, MoneyTotalOut] = Field(description="by the hour of the finding's timestamp, its offset kept")
    patron: dict[str, MoneyTotalOut] = Field(description="by patron: the id the transcript names, else "
                                                         "\"<table> seat N\"")


class MoneyByCurrencyOut(_Closed):
    """The money of a run whose findings are in several currencies: a summary each, never one total."""

    currencies: dict[str, MoneySummaryOut]


class Counts(_Closed):
    transcripts: int
    coups: int
    findings: int = Field(description="reported findings (not waived, not in the baseline)")
    severities: SeverityCounts
    categories: dict[str, int]
    waived: int
    baselined: int


class WaiverNotice(_Closed):
    id: str
    line: int
    reason: str


class WaiversOut(_Closed):
    file: str
    unused: list[WaiverNotice] = Field(description="waivers in force that matched no finding")
    not_applied: list[WaiverNotice] = Field(description="expired or malformed waivers: they waive nothing")


class BaselineOut(_Closed):
    file: str
    baselined: int = Field(description="findings not reported because the baseline holds them")
    stale: list[BaselineEntry] = Field(description="baseline entries no finding matches any more")


class HoldBandOut(_Closed):
    low: str = Field(description="the lowest hold honest play gives the group at the confidence (6 places)")
    high: str = Field(description="the highest (6 places)")


class HoldGroupOut(_Closed):
    """One group's win against theory; money as exact decimal strings (rounded where a field says so)."""

    kind: Literal["table", "table-shift", "table-day", "dealer", "day"] = Field(
        description="a table over the run, a table's shift (over the run's days), a table's gaming day, a dealer "
                    "over the run, a gaming day of every table")
    table: str | None
    shift: str | None = Field(description="the shift, its start and end (14:00-22:00)")
    day: str | None = Field(description="the gaming day (ISO 8601 date: the day its first shift began)")
    dealer: str | None
    currency: str | None = Field(description="the table's currency (table.currency), null where not recorded")
    coups: int = Field(description="coups whose wagers were settled")
    handle: str = Field(description="the total staked on the spots judged")
    handle_by_spot: dict[str, str] = Field(description="the handle by spot")
    win: str = Field(description="the house's net from settlements and commission on those spots")
    theoretical_win: str = Field(description="each stake times the exact house edge of its spot, summed "
                                             "(4 places)")
    hold: str = Field(description="win over handle (6 places)")
    theoretical_hold: str = Field(description="theoretical win over handle (6 places)")
    variance: str = Field(description="the exact variance of the win (4 places)")
    spread: str = Field(description="its standard deviation (4 places)")
    z: str = Field(description="(win - theoretical win) / spread")
    p_value: str = Field(description="two-sided, normal")
    band: HoldBandOut
    outside: bool = Field(description="the hold is outside the band: listed, to look into")
    direction: Literal["toward the house", "toward the patrons"] | None
    finding: bool = Field(description="it survived false-discovery control across the run's groups: an "
                                      "integrity.hold finding")
    judged: bool = Field(description="it has the rule's least number of coups (min_coups); else it is neither "
                                     "listed outside the band nor tested")
    unjudged_handle: str | None = Field(default=None, description="staked on spots whose outcome the theory does "
                                        "not count, left out of every figure; absent where none")


class HoldNotJudgedOut(_Closed):
    table: str
    reason: str


class HoldOut(_Closed):
    """The run's hold against theory (rule kind integrity.hold): every group, and what was not judged."""

    confidence: str
    false_discovery_rate: str
    shifts: list[str] = Field(description="the shifts (configuration `shifts`); empty: the day from midnight")
    time_zone: str | None = Field(description="the zone days and shifts are told in (configuration `time-zone`); "
                                              "null: each time at the offset it was recorded with")
    groups: list[HoldGroupOut]
    outside: int = Field(description="groups outside the band")
    not_judged: list[HoldNotJudgedOut]


class JsonReport(_Closed):
    """The report of one ``baccarat-audit check`` run."""

    model_config = ConfigDict(extra="forbid", title="baccarat-audit JSON report", defer_build=True)

    schema_version: str = Field(description=f"version of this report format ({SCHEMA_VERSION})")
    tool: Literal["baccarat-audit"]
    tool_version: str
    generated: str = Field(description="the run's date and time, UTC (--timestamp / SOURCE_DATE_EPOCH fix it)")
    rulesets: list[RulesetInfo]
    findings: list[FindingOut] = Field(description="the findings the run reports (spec contract)")
    waived: list[WaivedFindingOut] = Field(description="findings covered by a waiver in force; they never fail a run")
    transcripts: list[TranscriptOut]
    counts: Counts
    waivers: WaiversOut | None
    baseline: BaselineOut | None
    errors: list[str] = Field(description="inputs that could not be checked (exit status 2)")
    fail_on: Severity
    exit_code: Literal[0, 1, 2]
    not_judged: list[NotJudgedOut] | None = Field(
        default=None, description="rules not judged for want of evidence (a recording that holds less than a "
                                  "whole transcript, format 1.1); they give no finding there. Absent when every "
                                  "rule was judged")
    groups: GroupsOut | None = Field(
        default=None, description="the reported findings by dealer, table and hour (present when a finding "
                                  "records a dealer or a timestamp) and by patron (present when a finding names "
                                  "one)")
    configuration: ConfigurationOut | None = Field(
        default=None, description="the configuration file the run used (absent when none was found)")
    money: MoneySummaryOut | MoneyByCurrencyOut | None = Field(
        default=None, description="the money of the reported findings that carry it (wrong settlements): in "
                                  "total and by table, dealer, hour and patron; present when a finding has money. "
                                  "Amounts in several currencies are never added: then one summary each")
    hold: HoldOut | None = Field(
        default=None, description="each table's, shift's, dealer's and day's win against its theoretical win; "
                                  "present where a rule of kind integrity.hold judged the run")


def schema() -> dict:
    from compliance import registry

    doc = JsonReport.model_json_schema()
    for model in ("FindingOut", "NotJudgedOut", "WaivedFindingOut"):
        category = doc["$defs"].get(model, {}).get("properties", {}).get("category")
        if category is not None:
            category["enum"] = list(registry.categories())
    doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    doc["$id"] = "https://baccarat-audit.invalid/report-schema.json"
    return doc


def _waiver(e: Entry) -> dict:
    w = e.waiver
    return {"id": e.key, "line": e.line, "justification": w.justification, "approved_by": w.approved_by,
            "expires": w.expires.isoformat()}


def _severities(counter) -> dict:
    return {s: counter[s] for s in SEVERITIES}


def _not_judged(report: Report) -> list[dict]:
    return [{"transcript": nj.transcript, "rule": nj.rule.id, "category": nj.rule.category,
             "citation": nj.rule.citation_text, "coups": nj.coups, "of": nj.of, "missing": nj.missing,
             "reason": nj.reason} for nj in report.not_judged]


def _recorded(result) -> dict:
    out = {} if result.recorded is None else {"recorded": list(result.recorded)}
    if result.versions:
        out["versions"] = [{"start": u.ruleset.period.start, "end": u.ruleset.period.end,
                            "amendments": [{"id": a.id, "cite": a.cite, "effective": a.effective, "ends": a.ends}
                                           for a in u.ruleset.period.in_force],
                            "coups": u.coups, "first_coup": u.first, "last_coup": u.last, "undated": u.undated}
                           for u in result.versions]
        out["dated_by"] = result.dated_by
    return out


def _patron(p) -> dict:
    out = _severities(p.by_severity) | {"settlements": p.settlements}
    if p.wagers is not None:
        out["wagers"] = p.wagers
    if p.money is None and p.edge is None:
        return out
    out["currency"] = p.currency
    if p.money is not None:
        out["net"] = amount_text(p.money.net)
    if p.edge is not None:
        out["edge"] = amount_text(p.edge)
    return out


def document(report: Report) -> dict:
    """The report as the dict the JSON Schema describes."""
    doc = {
        "schema_version": SCHEMA_VERSION,
        "tool": "baccarat-audit",
        "tool_version": report.tool_version,
        "generated": report.generated_iso,
        "rulesets": [{"id": rs.id, "version": rs.version, "sha256": rs.sha256, "title": rs.title}
                     | report.origin_dict(rs) for rs in report.rulesets],
        "findings": [f.as_dict() for f in report.findings],
        "waived": [Finding.as_dict(f) | {"waiver": _waiver(e)} for f, e in report.waived],
        "transcripts": [
            {
                "transcript": t.result.transcript,
                "table": t.result.table,
                "jurisdiction": t.result.jurisdiction,
                "game": t.result.game,
                "ruleset": {"id": t.result.ruleset.id, "version": t.result.ruleset.version,
                            "sha256": t.result.ruleset.sha256},
                "sha256": t.result.sha256,
                "coups": t.result.coups,
                "unreadable_coups": t.result.unreadable,
                "findings": _severities(t.by_severity),
                "categories": category_counts(t.by_category),
                "waived": len(t.waived),
                "baselined": t.baselined,
            } | _recorded(t.result)
            for t in report.transcripts
        ],
        "counts": {
            "transcripts": len(report.results),
            "coups": report.coups,
            "findings": len(report.findings),
            "severities": _severities(report.by_severity),
            "categories": category_counts(report.by_category),
            "waived": len(report.waived),
            "baselined": report.baselined,
        },
        "waivers": None if report.waivers is None else {
            "file": report.waivers.path,
            "unused": [{"id": e.key, "line": e.line, "reason": "matched no finding"} for e in report.unused_waivers],
            "not_applied": [{"id": r.key, "line": r.line, "reason": r.reason} for r in report.rejected_waivers],
        },
        "baseline": None if report.baseline is None else {
            "file": report.baseline.path,
            "baselined": report.baselined,
            "stale": [asdict(e) for e in report.stale],
        },
        "errors": report.errors,
        "fail_on": report.fail_on,
        "exit_code": report.exit_code,
    }
    if report.not_judged:
        doc["not_judged"] = _not_judged(report)
    if report.groups is not None:
        g = report.groups
        doc["groups"] = {name: {key: _severities(counts) for key, counts in getattr(g, name).items()}
                         for name in ("dealer", "table", "hour")}
        for name, counts in doc["groups"]["dealer"].items():
            if name in g.dealer_coups:
                counts["coups"] = g.dealer_coups[name]
                rate = g.rate(name)
                if rate is not None:
                    counts["per_100_coups"] = str(rate)
            counts["whole_shoe"] = g.dealer_whole.get(name, 0)
    if report.patrons:
        doc.setdefault("groups", {})["patron"] = {key: _patron(p) for key, p in report.patrons.items()}
    doc |= report.configuration_dict()
    if report.money is not None:
        doc["money"] = report.money.as_dict()
    if report.hold is not None:
        doc["hold"] = hold_dict(report.hold)
    return doc


def hold_dict(view) -> dict:
    """The run's :class:`~compliance.games.integrity.HoldView` as the schema's ``hold``."""
    groups = []
    for g in view.groups:
        out = {"kind": g.kind, "table": g.table, "shift": g.shift, "day": g.day, "dealer": g.dealer,
               "currency": g.currency, "coups": g.coups, "handle": amount_text(g.handle),
               "handle_by_spot": {spot: amount_text(v) for spot, v in g.handle_by_spot},
               "win": amount_text(g.win), "theoretical_win": amount_text(g.theoretical_win),
               "hold": amount_text(g.hold), "theoretical_hold": amount_text(g.theoretical_hold),
               "variance": amount_text(g.variance), "spread": amount_text(g.spread), "z": f"{g.z:.4f}",
               "p_value": f"{g.p_value:.4g}", "band": {"low": amount_text(g.low), "high": amount_text(g.high)},
               "outside": g.outside, "direction": g.direction, "finding": g.flagged, "judged": g.judged}
        if g.unjudged_handle:
            out["unjudged_handle"] = amount_text(g.unjudged_handle)
        groups.append(out)
    return {"confidence": str(view.confidence), "false_discovery_rate": str(view.false_discovery_rate),
            "shifts": list(view.shifts), "time_zone": view.time_zone, "groups": groups,
            "outside": len(view.outside),
            "not_judged": [{"table": t, "reason": why} for t, why in view.not_judged]}


def render(report: Report) -> str:
    """The report as JSON; control and format characters in its strings are written as ``\\u`` escapes."""
    return json_safe(json.dumps(document(report), indent=2, ensure_ascii=False)) + "\n"
