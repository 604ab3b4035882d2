"""A long run as a page draws it: the time view folded by day or month, long lists cut to their first
rows (the rest summed in one), and the summary's bars.

:func:`time_fold`, :func:`patron_digest`, :func:`money_digest`, :func:`counts_digest`, :func:`bars`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from compliance.report.groups import NOT_RECORDED
from compliance.report.money import ZERO, MoneyTotal
from compliance.report.patrons import EDGE_CATEGORY, PatronCounts

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
        out.edge = sum(edges, ZERO) if edges else None
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
