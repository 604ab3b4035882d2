"""Playing cards as the transcript spells them, and baccarat point values.

A card code is rank then suit, upper case: ranks ``A 2 3 4 5 6 7 8 9 T J Q K``
(``10`` is accepted for ``T``), suits ``S H D C``.  The canonical code always
uses ``T``.  Point values: ace 1, two to nine their face value, ten and court
cards 0; a hand's point count is its total modulo 10.
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RANK_POINTS = {"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0} | {str(n): n for n in range(2, 10)}

#: every accepted spelling -> canonical code
CANONICAL: dict[str, str] = {}
#: canonical code -> point value
POINTS: dict[str, int] = {}
for _rank in RANKS:
    for _suit in SUITS:
        _code = _rank + _suit
        CANONICAL[_code] = _code
        POINTS[_code] = RANK_POINTS[_rank]
for _suit in SUITS:
    CANONICAL["10" + _suit] = "T" + _suit

#: the 52 distinct cards of one deck, in a fixed order
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)


def hand_total(codes) -> int:
    """Point count of a hand: the sum of its cards' values modulo 10."""
    return sum(POINTS[c] for c in codes) % 10
