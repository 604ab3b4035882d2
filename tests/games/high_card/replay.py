"""Replay of a high card coup: the stakes, the two cards and the settlements, in one pass."""

from __future__ import annotations

from decimal import Decimal

from compliance.games.common import ZERO, CoupPicture, HandView, ReplayError, WagerLine, check_coup_number
from high_card.models import RANKS


class HighCardState:
    __slots__ = ("number", "method", "stakes", "player", "dealer", "settlements")

    def __init__(self, number: int):
        self.number = number
        self.method = None  # no dealing methods
        self.stakes: dict[int, Decimal] = {}
        self.player: int | None = None  # the rank of each card, 0 for a 2
        self.dealer: int | None = None
        self.settlements: list[tuple[int, int, str, Decimal]] = []  # (event, seat, outcome, amount)

    @property
    def outcome(self) -> str | None:
        if self.player is None or self.dealer is None:
            return None
        return "win" if self.player > self.dealer else "lose" if self.player < self.dealer else "push"


    def picture(self) -> CoupPicture:
        """The coup as a report draws it: the two cards, the winner, each seat's wager."""
        hands = tuple(HandView(label, (RANKS[rank],) if rank is not None else (), 1,
                               "not dealt" if rank is None else f"rank {RANKS[rank]}", label.lower())
                      for label, rank in (("Player", self.player), ("Dealer", self.dealer)))
        settled = {seat: (at, outcome, amount) for at, seat, outcome, amount in self.settlements}
        wagers = tuple(WagerLine(f"seat {seat}", "high card", stake, (), *(
            (settled[seat][1], settled[seat][2], settled[seat][0]) if seat in settled else ()))
            for seat, stake in sorted(self.stakes.items()))
        return CoupPicture(self.number, "", hands, f"the higher card: {self.outcome or 'not dealt'}", (), wagers)


class HighCardReplayer:
    def __init__(self, table):
        self.table = table
        self.last: int | None = None
        self.last_line = 0

    def replay(self, coup, line: int = 0) -> HighCardState:
        check_coup_number(coup.coup, self.last, self.last_line)
        self.last, self.last_line = coup.coup, line
        s = HighCardState(coup.coup)
        for i, ev in enumerate(coup.events):
            if ev.type == "wager":
                s.stakes[ev.seat] = s.stakes.get(ev.seat, ZERO) + ev.amount
            elif ev.type == "deal":
                if s.player is not None:
                    raise ReplayError("a second deal: a coup deals one card each", i)
                s.player, s.dealer = RANKS.index(ev.player), RANKS.index(ev.dealer)
            else:
                s.settlements.append((i, ev.seat, ev.outcome, ev.amount))
        return s
