"""What a transcript's header and its ruleset fix for every coup of a table."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from compliance.errors import UserError
from compliance.games.common import money
from compliance.ruleset.models import Payouts, Ruleset, Tableau


@dataclass(slots=True)
class TableContext:
    """The table as the checks see it: seat geometry, limits, the game's rules."""

    game: str
    ruleset: Ruleset
    tableau: Tableau
    payouts: Payouts  # for this table's game, with the table's commission applied
    seat_order: tuple[int, ...]  # counter-clockwise, from the seat nearest the dealer's right
    seat_rank: dict[int, int]
    decks: dict[str, int]  # shoe id -> decks
    dealing_method: str | None
    min_wager: Decimal | None
    max_wager: Decimal | None
    table_differential: Decimal | None

    @classmethod
    def build(cls, header, ruleset: Ruleset, where: str) -> TableContext:
        t = header.table
        if t.game not in ruleset.game.variants:
            allowed = ", ".join(ruleset.game.variants)
            raise UserError(f"table.game {t.game!r} is not a game of ruleset {ruleset.id!r} (it allows: {allowed})", where)
        payouts = ruleset.payouts_for(t.game, t.commission)
        order = tuple(t.seat_order) if t.seat_order else tuple(range(1, t.seats + 1))
        if len(set(order)) != len(order):
            raise UserError("table.seat_order lists a seat twice", where)
        limits = t.limits
        return cls(
            game=t.game, ruleset=ruleset, tableau=ruleset.game.tableau, payouts=payouts,
            seat_order=order, seat_rank={s: i for i, s in enumerate(order)},
            decks={s.id: s.decks for s in header.shoes}, dealing_method=t.dealing_method,
            min_wager=limits.min_wager if limits else None, max_wager=limits.max_wager if limits else None,
            table_differential=limits.table_differential if limits else None,
        )

    def rank(self, seat: int) -> int:
        """Position counter-clockwise from the dealer's right (unknown seats last, by number)."""
        return self.seat_rank.get(seat, len(self.seat_order) + seat)

    money = staticmethod(money)  # amounts print the same way for every game
