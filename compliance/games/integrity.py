"""What a game's shoe and table integrity stage hands the reports: plain, picklable views.

A game's integrity stage (baccarat's: :mod:`compliance.games.baccarat.integrity`)
computes every number; the report model and the renderers read these views and
format them, nothing more.  A transcript's :class:`Timeline` says who ran the
table in each coup, where the recording says (format 1.1 ``staff``), kept
only where it changes: the stage judges each dealer's coups by it, and gives
its findings the staff of the coup they became decisive in.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from decimal import Decimal

Staff = tuple[tuple[str, str], ...]  # (role, name) pairs, as a Finding carries them


class Slotted:
    """A class whose ``__slots__`` are its whole state, pickled as one tuple of them in order (what the integrity
    stage's gatherings send from a worker to the parent, chunk by chunk)."""

    __slots__ = ()

    def __getstate__(self):
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setstate__(self, state):
        for name, value in zip(self.__slots__, state):
            setattr(self, name, value)


def _dealer_of(staff: Staff) -> str | None:
    return next((name for role, name in staff if role == "dealer"), None)


class Timeline(Slotted):
    """Who ran the table, coup by coup, kept only where it changes: ``(coup number, staff)``."""

    __slots__ = ("numbers", "marks")

    def __init__(self):
        self.numbers: list[int] = []
        self.marks: list[Staff] = []

    def add(self, number: int, staff: Staff) -> None:
        if not self.marks or self.marks[-1] != staff:
            self.numbers.append(number)
            self.marks.append(staff)

    def extend(self, other: Timeline) -> None:
        for n, staff in zip(other.numbers, other.marks):
            self.add(n, staff)

    def at(self, number: int | None) -> Staff:
        """The staff of the coup ``number`` (empty: not recorded)."""
        if number is None:
            return ()
        i = bisect.bisect_right(self.numbers, number) - 1
        return self.marks[i] if i >= 0 else ()

    def dealer(self, number: int | None) -> str | None:
        return _dealer_of(self.at(number))

    def dealers_of(self, numbers) -> list[str | None]:
        """The dealer of each coup of ``numbers``, as :meth:`dealer` gives it (each stretch's name found once)."""
        found: dict[int, str | None] = {}
        out = []
        for n in numbers:
            i = -1 if n is None else bisect.bisect_right(self.numbers, n) - 1
            name = found.get(i, found)
            if name is found:
                name = found[i] = _dealer_of(self.marks[i]) if i >= 0 else None
            out.append(name)
        return out

    @property
    def dealers(self) -> list[str]:
        return sorted({name for staff in self.marks for role, name in staff if role == "dealer"})

    def __eq__(self, other) -> bool:
        return isinstance(other, Timeline) and (self.numbers, self.marks) == (other.numbers, other.marks)



@dataclass(frozen=True, slots=True)
class CountBand:
    """One count of a shoe against fair play: what was seen, what a fair shoe gives on average, and the band
    a fair shoe lands in 95 times in 100."""

    name: str  # "Banker", "Player", "Tie", "naturals"
    observed: int
    expected: float
    low: int
    high: int
    p_value: float

    @property
    def outside(self) -> bool:
        return not self.low <= self.observed <= self.high


@dataclass(frozen=True, slots=True)
class Stretch:
    """Cards ``start`` to ``end - 1`` of a shoe that are evidence of an unshuffled shoe: a repeat of cards
    ``source`` onward (of this shoe, or of ``source_shoe``), or a run of a suit in rank order (source None)."""

    start: int
    end: int
    source: int | None = None
    source_shoe: str | None = None

    @property
    def length(self) -> int:
        return self.end - self.start


@dataclass(slots=True)
class ShoeView:
    """One shoe as the report shows it: its game's scoreboards (a subclass of the game's draws them), its counts
    against fair play, its flagged cards."""

    shoe: str
    table: str
    decks: int
    first_coup: int
    last_coup: int
    counts: list[CountBand] = field(default_factory=list)
    flagged: list[str] = field(default_factory=list)  # the integrity findings on this shoe, in words
    cards: tuple[str, ...] | None = None  # the cards in the order drawn: only for a shoe flagged unshuffled
    stretches: list[Stretch] = field(default_factory=list)
    decisive_card: int | None = None  # the card whose coming out made the evidence decisive

    def boards(self) -> list[tuple[str, str]]:
        """The game's scoreboards of the shoe, each (caption, inline SVG); a game without any draws none."""
        return []

    def legend(self) -> str:
        """What its scoreboards and counts show, in words."""
        return ""


@dataclass(frozen=True, slots=True)
class HoldGroup:
    """One group's hold beside theory (table over the run, a table's shift or day, a dealer, a day): exact money
    as Decimal (the theoretical win, hold and spread rounded half-even, as their fields say), the z-score and its
    two-sided p-value; ``low`` and ``high`` the band of hold at the run's confidence."""

    kind: str  # "table", "table-shift", "table-day", "dealer", "day"
    table: str | None
    shift: str | None  # "14:00-22:00"
    day: str | None  # the gaming day, ISO 8601
    dealer: str | None
    currency: str | None
    coups: int
    handle_by_spot: tuple[tuple[str, Decimal], ...]
    handle: Decimal
    win: Decimal  # the house's net from settlements and commission
    theoretical_win: Decimal  # to 4 places
    hold: Decimal  # win / handle, to 6 places
    theoretical_hold: Decimal
    variance: Decimal  # of the win, to 4 places
    spread: Decimal  # its standard deviation, to 4 places
    z: float
    p_value: float
    low: Decimal  # the band of hold at the confidence, to 6 places
    high: Decimal
    outside: bool  # the hold is outside the band
    direction: str | None  # "toward the house", "toward the patrons" (None: on theory exactly)
    flagged: bool  # it survived false-discovery control: a finding
    judged: bool = True  # it has the rule's least number of coups (else neither listed outside nor tested)
    unjudged_handle: Decimal = Decimal(0)  # staked on spots whose outcome the theory does not count

    @property
    def name(self) -> str:
        """The group in words: ``table T2, shift 14:00-22:00``, ``table T2, 2026-11-03``, ``dealer D-01``."""
        parts = []
        if self.table is not None:
            parts.append(f"table {self.table}")
        if self.shift is not None:
            parts.append(f"shift {self.shift}")
        if self.day is not None:
            parts.append(self.day if self.table is not None else f"day {self.day}")
        if self.dealer is not None:
            parts.append(f"dealer {self.dealer}")
        return ", ".join(parts)


@dataclass(slots=True)
class HoldView:
    """The run's hold against theory, for the reports: every group, and what was not judged with why."""

    confidence: float
    false_discovery_rate: float
    shifts: tuple[str, ...]  # "06:00-14:00" ...; empty: the day is one shift
    time_zone: str | None  # None: each time at the offset it was recorded with
    groups: list[HoldGroup] = field(default_factory=list)
    not_judged: list[tuple[str, str]] = field(default_factory=list)  # (table, why)
    rule: str = ""  # the id of the rule that judged it (a run that does not select it reports no hold)
    category: str = ""

    @property
    def outside(self) -> list[HoldGroup]:
        return [g for g in self.groups if g.outside]
