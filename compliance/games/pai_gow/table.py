"""What a pai gow poker transcript's header fixes for every round of its table."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from compliance.games.common import money
from compliance.ruleset.models import Ruleset


@dataclass(slots=True)
class PaiGowTable:
    """The table as the pai gow checks see it: its boxes, limits and the licensee's choices."""

    table_id: str
    game: str
    ruleset: Ruleset
    boxes: int  # betting boxes 1..boxes
    min_wager: Decimal | None
    max_wager: Decimal | None
    commission: Decimal | None  # the table's commission rate, when its header sets one
    boxes_per_patron: int | None  # the table's limit on multiple play, when its header sets one
    currency: str | None

    money = staticmethod(money)  # amounts print the same way for every game

    @classmethod
    def build(cls, header, ruleset: Ruleset, where: str) -> PaiGowTable:
        t = header.table
        limits = t.limits
        return cls(
            table_id=t.id, game=t.game, ruleset=ruleset, boxes=t.seats,
            min_wager=limits.min_wager if limits else None, max_wager=limits.max_wager if limits else None,
            commission=t.commission, boxes_per_patron=t.boxes_per_patron, currency=t.currency,
        )

    def is_box(self, box: int) -> bool:
        return 1 <= box <= self.boxes
