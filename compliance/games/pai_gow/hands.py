"""Pai gow poker hands: the five-card high hand, the two-card low hand, the joker.

:func:`high_hand` and :func:`low_hand` value a setting's hands (the joker as the *bug*;
the wheel ranked as the house says), :func:`fouled` says whether the two-card hand
outranks the five-card one, :func:`compare` and :func:`outcome` settle a box against the
dealer (a copy goes to the dealer), and :func:`describe` names a hand for a message.

The ranking, the joker and the wheel: docs/pai-gow-transcript.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal, NamedTuple

from compliance.cards import CANONICAL, RANKS, SUITS

JOKER = "JK"

#: every accepted spelling of a pai gow card -> its canonical code (the 52 cards and the joker)
CARDS: dict[str, str] = {**CANONICAL, JOKER: JOKER}
#: the 53 cards of a pai gow poker deck, in a fixed order
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + (JOKER,)

ACE = 14
#: rank letter -> poker value (ace high)
VALUE = {r: (ACE if r == "A" else 10 if r == "T" else 11 if r == "J" else 12 if r == "Q" else 13 if r == "K" else int(r))
         for r in RANKS}
NAME = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten",
        11: "jack", 12: "queen", 13: "king", ACE: "ace"}
PLURAL = {v: ("sixes" if v == 6 else n + "s") for v, n in NAME.items()}

# categories, lowest first
HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH, \
    FIVE_ACES = range(10)

Wheel = Literal["second_highest", "lowest"]

# the order key of a straight's top card: the ace-high straight is above every other,
# the wheel (A-2-3-4-5) sits where the house puts it
_ACE_HIGH_STRAIGHT = 15
_WHEEL = {"second_highest": 14, "lowest": 5}


class HandValue(NamedTuple):
    """A hand's rank: category, then the ranks that order hands of that category.

    Values compare as tuples: a greater value is a higher hand, equal values
    are a copy.  The two-card hand uses the same categories (high card, pair)
    with its own, shorter key.
    """

    category: int
    key: tuple[int, ...]


class BadHand(ValueError):
    """Cards that are not a hand: wrong count, unknown code, two jokers."""


def _rank(code: str) -> int:
    return VALUE[code[0]]


def _canonical(cards: Sequence[str], size: int, what: str) -> list[str]:
    if len(cards) != size:
        raise BadHand(f"a {what} holds {size} cards, not {len(cards)}")
    out = []
    for c in cards:
        if c not in CARDS:
            raise BadHand(f"bad card code {c!r}")
        out.append(CARDS[c])
    if out.count(JOKER) > 1:
        raise BadHand("a deck has one joker")
    return out


def _value(ranks: list[int], flush: bool, wheel: Wheel) -> HandValue:
    """Rank five cards given by their ranks and whether they are all of one suit."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [n for _, n in groups]
    by_group = tuple(r for r, _ in groups)
    if shape == [5]:
        return HandValue(FIVE_ACES, by_group)  # only the joker makes a fifth card of a rank, and only an ace
    top = None
    if len(counts) == 5:
        high, low = max(ranks), min(ranks)
        if high - low == 4:
            top = _ACE_HIGH_STRAIGHT if high == ACE else high
        elif set(ranks) == {ACE, 2, 3, 4, 5}:
            top = _WHEEL[wheel]
    if top is not None and flush:
        return HandValue(STRAIGHT_FLUSH, (top,))
    if shape == [4, 1]:
        return HandValue(FOUR_OF_A_KIND, by_group)
    if shape == [3, 2]:
        return HandValue(FULL_HOUSE, by_group)
    if flush:
        return HandValue(FLUSH, tuple(sorted(ranks, reverse=True)))
    if top is not None:
        return HandValue(STRAIGHT, (top,))
    if shape == [3, 1, 1]:
        return HandValue(THREE_OF_A_KIND, by_group)
    if shape == [2, 2, 1]:
        return HandValue(TWO_PAIR, by_group)
    if shape == [2, 1, 1, 1]:
        return HandValue(ONE_PAIR, by_group)
    return HandValue(HIGH_CARD, by_group)


def high_hand(cards: Sequence[str], wheel: Wheel = "second_highest") -> HandValue:
    """The rank of a five-card hand, the joker taking its best allowed value."""
    cards = _canonical(cards, 5, "five-card hand")
    if JOKER not in cards:
        return _value([_rank(c) for c in cards], len({c[1] for c in cards}) == 1, wheel)
    others = [c for c in cards if c != JOKER]
    ranks = [_rank(c) for c in others]
    suits = {c[1] for c in others}
    suit = next(iter(suits)) if len(suits) == 1 else None
    best = _value(ranks + [ACE], False, wheel)  # the joker as an ace
    for letter, r in VALUE.items():  # the joker completing a straight, a flush or a straight flush
        flush = suit is not None and letter + suit not in others
        v = _value(ranks + [r], flush, wheel)
        if v.category in (STRAIGHT, FLUSH, STRAIGHT_FLUSH) and v > best:
            best = v
    return best


def low_hand(cards: Sequence[str]) -> HandValue:
    """The rank of a two-card hand: a pair, or two high cards; the joker is an ace."""
    cards = _canonical(cards, 2, "two-card hand")
    a, b = sorted((ACE if c == JOKER else _rank(c) for c in cards), reverse=True)
    return HandValue(ONE_PAIR, (a,)) if a == b else HandValue(HIGH_CARD, (a, b))


def fouled(high: HandValue, low: HandValue) -> bool:
    """The two-card hand outranks the five-card hand: the hands are set wrongly (a foul).

    The two-card hand is compared with the five-card hand's category and its
    first ranks: a pair of kings in the two-card hand fouls a five-card hand
    holding a pair of queens; an ace-king two-card hand does not foul an
    ace-king-nine-six-three five-card hand (the five-card hand is higher).
    """
    return (low.category, low.key) > (high.category, high.key[:len(low.key)])


def compare(player: HandValue, dealer: HandValue) -> int:
    """1 if the player's hand is higher, -1 if the dealer's is, 0 for a copy."""
    return (player > dealer) - (player < dealer)


Outcome = Literal["win", "push", "lose"]


def outcome(player_high: HandValue, player_low: HandValue, dealer_high: HandValue, dealer_low: HandValue) -> Outcome:
    """68 IAC 10-9-4(b): both hands higher wins, one each is a push, otherwise the wager loses.

    A copy hand goes to the dealer, so a player's hand wins only when it is
    strictly higher than the dealer's hand of the same size.
    """
    won = (compare(player_high, dealer_high) > 0) + (compare(player_low, dealer_low) > 0)
    return "win" if won == 2 else "push" if won == 1 else "lose"


def describe(value: HandValue) -> str:
    """The hand in words, e.g. "full house, queens over fives", "straight to the nine"."""
    c, k = value
    if c == FIVE_ACES:
        return "five aces"
    if c in (STRAIGHT, STRAIGHT_FLUSH):
        top = k[0]
        if top == _ACE_HIGH_STRAIGHT:
            return "royal flush" if c == STRAIGHT_FLUSH else "straight to the ace"
        name = "straight flush" if c == STRAIGHT_FLUSH else "straight"
        if top in _WHEEL.values():  # 14 and 5 are only ever the wheel (the ace-high straight is 15)
            return f"{name} ace to five"
        return f"{name} to the {NAME[top]}"
    if c == FOUR_OF_A_KIND:
        return f"four {PLURAL[k[0]]}"
    if c == FULL_HOUSE:
        return f"full house, {PLURAL[k[0]]} over {PLURAL[k[1]]}"
    if c == FLUSH:
        return f"flush, {NAME[k[0]]} high"
    if c == THREE_OF_A_KIND:
        return f"three {PLURAL[k[0]]}"
    if c == TWO_PAIR:
        return f"two pair, {PLURAL[k[0]]} and {PLURAL[k[1]]}"
    if c == ONE_PAIR:
        return f"pair of {PLURAL[k[0]]}"
    return f"{NAME[k[0]]} high" if len(k) > 2 else f"{NAME[k[0]]}-{NAME[k[1]]}"
