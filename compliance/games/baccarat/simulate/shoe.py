"""The physical shoe: shuffled decks, the burn, the cut card."""

from __future__ import annotations

import random

from compliance.cards import DECK, POINTS


class Shoe:
    """Cards of ``decks`` shuffled decks, dealt from the front, with a cut card near the back.

    When the cut card has come out, the coup in play is finished and the next
    coup starts a new shoe (:attr:`cut_card_out`).  A shoe opens with a burn:
    the first card is turned face up and burned, then as many more cards as its
    point value (ten for a card worth nothing).
    """

    def __init__(self, shoe_id: str, decks: int, rng: random.Random, cut_from_end: int):
        self.id = shoe_id
        self.decks = decks
        self.cards = [c for _ in range(decks) for c in DECK]
        rng.shuffle(self.cards)
        self.next = 0
        self.cut_at = len(self.cards) - cut_from_end
        self.dealt: dict[str, int] = {}  # card code -> copies that came out of this shoe

    @property
    def cut_card_out(self) -> bool:
        return self.next >= self.cut_at

    @property
    def left(self) -> int:
        return len(self.cards) - self.next

    def peek(self) -> str:
        """The next card, not yet drawn."""
        return self.cards[self.next]

    def draw(self) -> str:
        code = self.cards[self.next]
        self.next += 1
        self.dealt[code] = self.dealt.get(code, 0) + 1
        return code

    def burn(self) -> list[str]:
        """The opening burn: the first card, then as many as its point value (ten for a zero)."""
        first = self.draw()
        more = POINTS[first] or 10
        return [first] + [self.draw() for _ in range(more)]

    def exhausted(self, points: int) -> list[str]:
        """Codes worth ``points`` of which every copy the shoe holds has already come out."""
        return sorted(c for c, n in self.dealt.items() if n >= self.decks and POINTS[c] == points)
