"""Baccarat's condition kinds: what a wager spot wins, pays or pushes on.

:class:`Facts` is what a condition reads of a finished coup.  The kinds, registered with
:func:`compliance.conditions.condition`: ``win`` (a hand wins, optionally with a
total, a number of cards, a natural, a margin: the main wagers, Dragon 7, Panda 8, Dragon Bonus rows,
Lucky 6), ``tie`` (the hands tie, optionally on a total or with two naturals) and ``pair`` (the first two
cards of a hand are a pair: any, suited, coloured or mixed).  Each words itself for findings (``words``)
and says what the coup was when it does not hold (``fact``).

Spots and their conditions: docs/rule-authoring.md, "Wager spots".
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field

from compliance.checks import Params
from compliance.conditions import Unknown, condition


class Facts:
    """What a condition may read of a finished coup.

    ``winner`` is ``"player"``, ``"banker"`` or ``"tie"``; ``points``, ``cards`` and
    ``natural`` map each hand to its final point count, its number of cards and
    whether its two initial cards are a natural; ``first_two`` maps each hand to
    its first two cards as (rank, colour, suit) triples (``None`` where they are
    not known: the exact analysis of a result condition).
    """

    __slots__ = ("cards", "first_two", "natural", "points", "winner")

    def __init__(self, winner: str, points: dict, cards: dict, natural: dict, first_two: dict | None = None):
        self.winner, self.points, self.cards, self.natural, self.first_two = winner, points, cards, natural, first_two


HANDS = {"player": "Player", "banker": "Banker"}
OTHER = {"player": "banker", "banker": "player"}
Total = Annotated[int, Field(ge=0, le=9)]


def _listed(value):
    """A total or margin may be written as one number or a list of them."""
    return [value] if isinstance(value, int) and not isinstance(value, bool) else value


Totals = Annotated[list[Total], BeforeValidator(_listed), Field(min_length=1)]
Margins = Annotated[list[Annotated[int, Field(ge=1, le=9)]], BeforeValidator(_listed), Field(min_length=1)]
CARDS = {2: "two", 3: "three"}


def _either(values: list[int]) -> str:
    return " or ".join(str(v) for v in values)


# ------------------------------------------------------------------ win


class WinParams(Params):
    hand: Literal["player", "banker"]
    """the hand that wins"""
    total: Totals | None = None
    """only with one of these final point counts"""
    cards: Literal[2, 3] | None = None
    """only when the winning hand holds this many cards"""
    natural: bool | None = None
    """only when the winning hand is (true) or is not (false) a natural"""
    margin: Margins | None = None
    """only when it wins by one of these numbers of points"""


def _win_words(p: WinParams) -> str:
    text = f"{HANDS[p.hand]} winning"
    if p.natural is True:
        text += " with a natural"
    if p.total is not None:
        text += f" with {_either(p.total)}"
    if p.cards is not None:
        text += f" on {CARDS[p.cards]} cards"
    if p.margin is not None:
        text += f" by {_either(p.margin)}"
    if p.natural is False:
        text += " without a natural"
    return text


def _won(f: Facts, qualified: bool) -> str:
    if f.winner == "tie":
        return "a tie"
    hand = f.winner
    text = f"{HANDS[hand]} won"
    if qualified:
        text += (f" {f.points[hand]} to {f.points[OTHER[hand]]} on {CARDS.get(f.cards[hand], f.cards[hand])} cards"
                 + (", a natural" if f.natural[hand] else ""))
    return text


def _win_fact(f: Facts, p: WinParams) -> str:
    return _won(f, p.total is not None or p.cards is not None or p.natural is not None or p.margin is not None)


@condition("win", WinParams, "result", _win_words, _win_fact)
def win(f: Facts, p: WinParams) -> bool:
    """The hand wins (a higher final point count), with the total, number of cards, natural and margin given."""
    hand = p.hand
    if f.winner != hand:
        return False
    points = f.points[hand]
    return ((p.total is None or points in p.total)
            and (p.cards is None or f.cards[hand] == p.cards)
            and (p.natural is None or f.natural[hand] == p.natural)
            and (p.margin is None or points - f.points[OTHER[hand]] in p.margin))


# ------------------------------------------------------------------ tie


class TieParams(Params):
    total: Totals | None = None
    """only a tie on one of these point counts"""
    natural: bool | None = None
    """only a tie of two naturals (true), or of hands that are not both naturals (false)"""


def _tie_words(p: TieParams) -> str:
    text = "a tie"
    if p.natural is True:
        text += " of naturals"
    if p.total is not None:
        text += f" on {_either(p.total)}"
    if p.natural is False:
        text += " without two naturals"
    return text


def _tie_fact(f: Facts, p: TieParams) -> str:
    if f.winner != "tie" or (p.total is None and p.natural is None):
        return _won(f, False) if f.winner != "tie" else "a tie"
    both = f.natural["player"] and f.natural["banker"]
    return f"a tie on {f.points['player']}" + (", both naturals" if both else "")


@condition("tie", TieParams, "result", _tie_words, _tie_fact)
def tie(f: Facts, p: TieParams) -> bool:
    """The hands tie (equal final point counts), on the total given, with or without two naturals."""
    if f.winner != "tie":
        return False
    return ((p.total is None or f.points["player"] in p.total)
            and (p.natural is None or (f.natural["player"] and f.natural["banker"]) == p.natural))


# ------------------------------------------------------------------ pair


class PairParams(Params):
    hand: Literal["player", "banker", "either", "both"]
    """whose first two cards: the Player's, the Banker's, either hand's, or both hands'"""
    match: Literal["any", "suited", "coloured", "mixed"] = "any"
    """any pair of a rank; suited: same rank and suit; coloured: same rank and colour, different suits;
    mixed: same rank, different colours"""


_MATCH = {"any": "a pair", "suited": "a suited pair", "coloured": "a coloured pair", "mixed": "a mixed pair"}
_WHOSE = {"player": "the Player's first two cards", "banker": "the Banker's first two cards",
          "either": "the first two cards of either hand", "both": "the first two cards of each hand"}


def _pair_words(p: PairParams) -> str:
    return f"{_MATCH[p.match]} in {_WHOSE[p.hand]}"


def _is_pair(two, match: str) -> bool:
    (r1, c1, s1), (r2, c2, s2) = two
    if r1 is None or r2 is None:
        raise Unknown("a card of the pair is recorded without its rank")
    if r1 != r2:
        return False
    if match == "any":
        return True
    if s1 is None or s2 is None:
        raise Unknown("a card of the pair is recorded without its suit")
    if match == "suited":
        return s1 == s2
    if match == "coloured":
        return c1 == c2 and s1 != s2
    return c1 != c2


def _pair_fact(f: Facts, p: PairParams) -> str:
    hands = ("player", "banker") if p.hand in ("either", "both") else (p.hand,)
    shown = "; ".join(f"{HANDS[h]} {' '.join(r + s for r, _, s in f.first_two[h])}" for h in hands)
    return f"first two cards: {shown}"


@condition("pair", PairParams, "cards", _pair_words, _pair_fact)
def pair(f: Facts, p: PairParams) -> bool:
    """The first two cards of the hand (or of either, or of both hands) are a pair of the kind given."""
    first = f.first_two
    if p.hand == "either":
        return _is_pair(first["player"], p.match) or _is_pair(first["banker"], p.match)
    if p.hand == "both":
        return _is_pair(first["player"], p.match) and _is_pair(first["banker"], p.match)
    return _is_pair(first[p.hand], p.match)
