"""The physical shoe: shuffled decks, the burn, the cut card; and the ways a shoe goes wrong on request."""

from __future__ import annotations

import random

from compliance.cards import DECK, POINTS, hand_total

#: a new deck as it leaves the maker (the order of most US packs): spades and diamonds ace to king, then clubs
#: and hearts king to ace
FACTORY_ORDER: tuple[str, ...] = (tuple(r + "S" for r in "A23456789TJQK") + tuple(r + "D" for r in "A23456789TJQK")
                                  + tuple(r + "C" for r in "KQJT98765432A") + tuple(r + "H" for r in "KQJT98765432A"))


class Shoe:
    """Cards of ``decks`` shuffled decks, dealt from the front, with a cut card near the back.

    When the cut card has come out, the coup in play is finished and the next
    coup starts a new shoe (:attr:`cut_card_out`).  A shoe opens with a burn:
    the first card is turned face up and burned, then as many more cards as its
    point value (ten for a card worth nothing).

    ``order``, when given, is the cards as they were put in the shoe, unshuffled (``--inject
    integrity.unshuffled``); :meth:`stack` presets the next coup for one side (``--inject integrity.outcomes``).
    """

    def __init__(self, shoe_id: str, decks: int, rng: random.Random, cut_from_end: int,
                 order: list[str] | None = None):
        self.id = shoe_id
        self.decks = decks
        if order is None:
            self.cards = [c for _ in range(decks) for c in DECK]
            rng.shuffle(self.cards)
        else:
            self.cards = list(order)
        self.next = 0
        self.cut_at = len(self.cards) - cut_from_end
        self.dealt: dict[str, int] = {}  # card code -> copies that came out of this shoe
        self.preset: str | None = None  # the side every coup is stacked for, in a preset shoe

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

    def burn_length(self) -> int:
        """How many cards the opening burn will take."""
        return 1 + (POINTS[self.peek()] or 10)

    def exhausted(self, points: int) -> list[str]:
        """Codes worth ``points`` of which every copy the shoe holds has already come out."""
        return sorted(c for c, n in self.dealt.items() if n >= self.decks and POINTS[c] == points)

    def stack(self, offset: int, tableau, rng: random.Random, tries: int = 200) -> bool:
        """Preset the coup dealt ``offset`` cards from now for :attr:`preset`'s side: six cards still in the
        shoe that deal it a win by the tableau are moved to the front (the shoe keeps every card it had).
        False when no such six were found or too few cards are left."""
        start = self.next + offset
        if len(self.cards) - start < 12:
            return False
        for _ in range(tries):
            places = sorted(rng.sample(range(start, len(self.cards)), 6))
            six = [self.cards[i] for i in places]
            if winner_of_cards(six, tableau) == self.preset:
                for i in reversed(places):
                    del self.cards[i]
                self.cards[start:start] = six
                return True
        return False


def winner_of_cards(six: list[str], tableau) -> str:
    """The winner of a coup dealt from these cards in order by the tableau (at most six are used)."""
    player, banker = [six[0], six[2]], [six[1], six[3]]
    rest = iter(six[4:])
    p, b = hand_total(player), hand_total(banker)
    if p not in tableau.naturals and b not in tableau.naturals:
        third = None
        if p in tableau.player_draws:
            player.append(next(rest))
            third = POINTS[player[-1]]
        if tableau.banker_draws(b, third):
            banker.append(next(rest))
    p, b = hand_total(player), hand_total(banker)
    return "player" if p > b else "banker" if b > p else "tie"
