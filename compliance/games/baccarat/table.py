"""What a transcript's header and its ruleset fix for every coup of a table."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from compliance.errors import UserError
from compliance.games.baccarat.section import Tableau
from compliance.games.baccarat.spots import TableSpot, table_spots
from compliance.games.common import ZERO, Units, money
from compliance.ruleset.models import Ruleset

OUT_OF_FORCE = "wager.spot-not-in-force"  # the check kind of a wager on a spot not in force on the coup's day


@dataclass(slots=True)
class TableContext:
    """The table as the checks see it: seat geometry, limits, the game's rules, the spots it offers."""

    game: str
    ruleset: Ruleset
    tableau: Tableau
    spots: dict[str, TableSpot]  # the spots of this table's game, with the table's commission applied
    # counter-clockwise, from the seat nearest the dealer's right: the header's table.seat_order, else
    # range(1, seats + 1), never a list of every seat (table.seats is a number in the file, and may be 10**18)
    seat_order: tuple[int, ...] | range
    seat_rank: dict[int, int]  # the position of each seat of a given seat_order ({} for the range)
    decks: dict[str, int]  # shoe id -> decks
    dealing_method: str | None
    min_wager: Decimal | None
    max_wager: Decimal | None
    table_differential: Decimal | None
    spot_limits: dict[str, tuple[Decimal | None, Decimal | None]] = field(default_factory=dict)  # a spot's own limits
    unoffered_limits: tuple[str, ...] = ()  # table.limits.spots naming a spot the table does not offer
    naturals: frozenset[int] = frozenset()
    sides: dict[str, str] = field(default_factory=dict)  # spot -> the side of the table differential it counts on
    requiring: frozenset[str] = frozenset()  # the spots that require another wager beside them
    memo: dict = field(default_factory=dict)  # what a check works out once for this table and its parameters
    units: Units = field(default_factory=Units)  # the table's money as exact integers (games.common.Units)
    # (spot, outcome, odds, commission rate) -> stake -> what is owed in units (settlement)
    owed_units: dict = field(default_factory=dict)
    # (spot, result key) -> (terms, its owed_units entry), for a spot settled on the result alone (settlement)
    settling: dict = field(default_factory=dict)
    currency: str | None = None  # the header's table.currency (ISO 4217), for the money of a finding
    # a wager on a spot the ruleset's history has but not on the coup's day is a finding of the rule of this kind
    # (the coup judged all the same), where the ruleset has one; without it the coup is unreadable
    out_of_force: bool = False

    @classmethod
    def build(cls, header, ruleset: Ruleset, where: str) -> TableContext:
        t = header.table
        if t.game not in ruleset.game.variants:
            allowed = ", ".join(ruleset.game.variants)
            raise UserError(f"table.game {t.game!r} is not a game of ruleset {ruleset.id!r} (it allows: {allowed})", where)
        spots = table_spots(ruleset.game.spots_for(t.game, t.commission))
        order = tuple(t.seat_order) if t.seat_order else range(1, t.seats + 1)
        if isinstance(order, tuple) and len(set(order)) != len(order):
            raise UserError("table.seat_order lists a seat twice", where)
        limits = t.limits
        posted = getattr(limits, "spots", None) or {}  # format 1.1: limits posted for a spot of its own
        # limits posted for a spot the table does not offer judge no wager (a wager on it is an unreadable coup):
        # reported once a transcript (wager.limits-unoffered), never a reason to refuse the other coups
        own = {name: x for name, x in posted.items() if name in spots}
        return cls(units=cls.units_for(spots, limits),
            game=t.game, ruleset=ruleset, tableau=ruleset.game.tableau, spots=spots,
            seat_order=order, seat_rank={s: i for i, s in enumerate(order)} if isinstance(order, tuple) else {},
            decks={s.id: s.decks for s in header.shoes}, dealing_method=t.dealing_method,
            min_wager=limits.min_wager if limits else None, max_wager=limits.max_wager if limits else None,
            table_differential=limits.table_differential if limits else None,
            spot_limits={name: (x.min_wager, x.max_wager) for name, x in own.items()},
            unoffered_limits=tuple(name for name in posted if name not in spots),
            naturals=frozenset(ruleset.game.tableau.naturals),
            sides={name: s.differential for name, s in spots.items() if s.differential is not None},
            requiring=frozenset(name for name, s in spots.items() if s.requires is not None),
            currency=t.currency,
            out_of_force=bool(ruleset.spot_notes) and any(r.check == OUT_OF_FORCE for r in ruleset.rules),
        )

    def has_seat(self, seat: int) -> bool:
        return seat in self.seat_rank if self.seat_rank else seat in self.seat_order

    @staticmethod
    def units_for(spots: dict[str, TableSpot], limits=None) -> Units:
        """The table's integer money: its smallest unit from the limits (the table's and each spot's own) and the
        spots' commission units, the denominators from every odds a spot pays, its commission rate and their
        products (so a commission on winnings is whole)."""
        amounts = [limits.min_wager, limits.max_wager, limits.table_differential] if limits else []
        for own in (getattr(limits, "spots", None) or {}).values():
            amounts += [own.min_wager, own.max_wager]
        rates = []
        for spot in spots.values():
            rate = spot.rate or ZERO
            amounts.append(spot.spot.commission_unit)
            for r in spot.rules:
                if r.odds is not None:
                    rates += [r.odds, r.odds * rate]
            rates.append(rate)
        return Units.for_table(amounts, rates)

    def rank(self, seat: int) -> int:
        """Position counter-clockwise from the dealer's right (unknown seats last, by number)."""
        if self.seat_rank:
            return self.seat_rank.get(seat, len(self.seat_order) + seat)
        return seat - 1 if seat in self.seat_order else len(self.seat_order) + seat

    def counter_clockwise(self, seats: Iterable[int] | None = None, start: int | None = None,
                          include: bool = True) -> Sequence[int]:
        """The table's seats among ``seats`` (None: every seat of the table), counter-clockwise from ``start``
        (including it, or from the one after it; a seat the table does not have: from the first seat after it
        in the order, else from the dealer's right), or from the dealer's right.

        Time and memory grow with ``seats``, never with the table's number of seats: every seat is a lazy
        :class:`Ring` over the order.
        """
        if seats is not None:
            known = sorted({s for s in seats if self.has_seat(s)}, key=self.rank)
            if start is None:
                return known
            r = self.rank(start)
            inside = self.has_seat(start) and include
            i = next((k for k, s in enumerate(known) if (self.rank(s) >= r if inside else self.rank(s) > r)), 0)
            return known[i:] + known[:i]
        n = len(self.seat_order)
        if start is None or n == 0:
            return Ring(self.seat_order, 0)
        r = self.rank(start)
        i = r if self.has_seat(start) and include else r + 1  # the first seat ranked after `start`
        return Ring(self.seat_order, i if 0 <= i < n else 0)

    money = staticmethod(money)  # amounts print the same way for every game


class Ring(Sequence):
    """The seats of an order, starting at position ``start`` and going round once: a view, never a copy."""

    def __init__(self, order: Sequence[int], start: int):
        self.order, self.start = order, start

    def __len__(self) -> int:
        return len(self.order)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        n = len(self.order)
        if not -n <= k < n:
            raise IndexError(k)
        return self.order[(self.start + k) % n]

    def __iter__(self):
        order, n, start = self.order, len(self.order), self.start
        for k in range(n):
            yield order[(start + k) % n]


def describe_spots(spots, ruleset_id: str, game: str) -> str:
    """'ruleset 'us-pa', game 'ez_baccarat', offers: player, banker, tie, dragon_7, panda_8'."""
    return f"ruleset {ruleset_id!r}, game {game!r}, offers: {', '.join(spots)}"
