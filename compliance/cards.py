"""Playing cards as the transcript spells them, and baccarat point values.

A card code is rank then suit, upper case: ranks ``A 2 3 4 5 6 7 8 9 T J Q K``
(``10`` is accepted for ``T``), suits ``S H D C``.  The canonical code always
uses ``T``.  Point values: ace 1, two to nine their face value, ten and court
cards 0; a hand's point count is its total modulo 10.

A recording may hold less than a whole card (transcript format 1.1): the
rank without the suit (``7?``; ``T?`` for a ten), ``0?`` for a card the
record gives only as worth 0 (a ten or a court card), ``??`` for a card that
was dealt but not read.  These are :data:`PARTIAL`; their point values are in
:data:`PARTIAL_POINTS` (``None`` for ``??``).
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

#: a card recorded in part: every accepted spelling -> canonical partial code
PARTIAL: dict[str, str] = {rank + "?": rank + "?" for rank in RANKS} | {"10?": "T?", "0?": "0?", "??": "??"}
#: canonical partial code -> point value (None: the card was not read)
PARTIAL_POINTS: dict[str, int | None] = {rank + "?": RANK_POINTS[rank] for rank in RANKS} | {"0?": 0, "??": None}
UNREAD = "??"

#: the 52 distinct cards of one deck, in a fixed order
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)


def hand_total(codes) -> int:
    """Point count of a hand: the sum of its cards' values modulo 10."""
    return sum(POINTS[c] for c in codes) % 10


_SUIT_SIGNS = str.maketrans({"♠": "S", "♤": "S", "♥": "H", "♡": "H",
                             "♦": "D", "♢": "D", "♣": "C", "♧": "C"})


def read_logged(text: str) -> str | None:
    """A card as a recorder's log may spell it, as a transcript code; None if it is not one.

    Rank then suit (``7H``, ``10h``, ``7♥``), suit then rank (``H7``), a rank only
    (``7``, ``10``, ``K``: the suit not recorded, ``7?``), or a value only (``0``:
    a ten or court card, ``0?``; ``1``: an ace).
    """
    t = text.strip().upper().translate(_SUIT_SIGNS).replace(" ", "")
    if t in CANONICAL:
        return CANONICAL[t]
    if t in PARTIAL:  # written as a transcript writes it: 7?, 0?, ??
        return PARTIAL[t]
    if len(t) >= 2 and t[0] in SUITS and t[1:] + t[0] in CANONICAL:
        return CANONICAL[t[1:] + t[0]]
    if t + "?" in PARTIAL:
        return PARTIAL[t + "?"]
    if t == "0":
        return "0?"
    if t == "1":
        return "A?"
    return None
