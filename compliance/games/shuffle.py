"""Was the shoe shuffled?  Three tests of the order the cards came out in, for any game dealt from a shoe.

A game's integrity stage hands them a shoe's cards as bytes, one a card (baccarat's: ``integrity/judge.py``).
A fairly shuffled shoe deals every order of its cards alike, so the cards at any places are a draw
without replacement: that bounds, for the whole shoe at once, the chance of a repeat within the shoe
(:func:`repeats_within`), of a run in the maker's order (:func:`runs_in_order`) and of a repeat of an
earlier shoe (:class:`EarlierShoes`).  :func:`detect` reports a stretch once it reaches the least length
whose bound (:func:`bound`) is at most the rule's ``false_alarm``; :func:`apart` bounds a repeat that runs
on over its own twin.

The bounds, worked: docs/integrity.md, "1. The unshuffled or preset shoe".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from compliance.games.integrity import Stretch


@dataclass(frozen=True)
class Detected:
    """A test's evidence in one shoe: the stretch found first, the longest, and the bound on their chance."""

    test: str  # "within", "order" or "earlier"
    first: Stretch  # the first stretch of the threshold length to complete (its last card decides the coup)
    decisive_card: int  # index of the card that completed it
    longest: Stretch
    threshold: int  # the length that decides
    bound_first: Fraction  # chance of a stretch of the threshold length anywhere in a shuffled shoe, at most
    bound_longest: Fraction  # ... of one as long as the longest
    stretches: list[Stretch]  # every stretch found, for the report


# ------------------------------------------------------------------ what the record tells of each card

#: how much of each card the tests compare: the whole card, its rank only, its point value only
LEVELS = ("card", "rank", "value")
#: a level's symbols: the most copies of one in a shoe, per deck (the bounds take the most), and the longest run of
#: them "in order" a new deck gives (a suit in rank order: 13 cards; by value: 1 to 9 then a ten, 10)
COPIES = {"card": 1, "rank": 4, "value": 16}
LONGEST_RUN = {"card": 13, "rank": 13, "value": 10}
_DROP = 255
#: a card's byte (collect.CARD_BYTE: 0..51 whole, 52..64 rank only, 65 value 0 only) -> its symbol at each level
#: (255: not known at that level, left out)
_RANK = [b % 13 for b in range(52)] + list(range(13)) + [_DROP]
_PROJECT = {
    "card": bytes(list(range(52)) + [_DROP] * 204),
    "rank": bytes(_RANK + [_DROP] * 190),
    "value": bytes([0 if r == _DROP or r >= 9 else r + 1 for r in _RANK] + [_DROP] * 190),
}


def level_of(cards: bytes) -> str:
    """The level a shoe's cards are compared at: the finest at which at least 90% of them are known (a card known
    only more coarsely is left out, as a card not recorded: the rest are still a draw from a shuffled shoe)."""
    n = len(cards)
    partial = [cards.count(b) for b in range(52, 66)]
    whole = n - sum(partial)
    if whole * 10 >= n * 9:
        return "card"
    if (whole + sum(partial[:13])) * 10 >= n * 9:
        return "rank"
    return "value"


def project(cards: bytes, level: str):
    """(the symbols of ``cards`` at ``level``, the places in ``cards`` of those kept: None when all are)."""
    symbols = cards.translate(_PROJECT[level])
    if _DROP not in symbols:
        return symbols, None
    return symbols.replace(bytes([_DROP]), b""), [i for i, b in enumerate(symbols) if b != _DROP]


# ------------------------------------------------------------------ bounds


def within_bound(decks: int, length: int, level: str = "card") -> Fraction:
    """Chance that a shuffled shoe of ``decks`` decks repeats ``length`` cards of itself (at ``level``), at most."""
    n = 52 * decks
    copies = COPIES[level] * decks
    if copies < 2:
        return Fraction(0)  # one deck holds each card once: it cannot repeat a card, let alone a stretch
    one = Fraction(1)
    for m in range(length):
        one *= Fraction(copies - 1, max(n - length - m, 1))
    return min(Fraction(1), math.comb(n, 2) * one)


def order_bound(decks: int, steps: int, level: str = "card") -> Fraction:
    """Chance that a shuffled shoe holds ``steps + 1`` cards in a row in one suit's rank order (at ``level``: ranks
    in order, values in order), at most.  Each step is to one symbol: at most its copies of the cards left; by
    value one step may be to a card worth 0 (16 a deck)."""
    if steps + 1 > LONGEST_RUN[level]:
        return Fraction(0)  # no run in order is this long
    n = 52 * decks
    one = Fraction(2)
    for m in range(1, steps + 1):
        copies = COPIES[level] if level != "value" else 16 if m == steps else 4  # the step to a 0 last: the most
        one *= Fraction(copies * decks, max(n - m, 1))
    return min(Fraction(1), n * one)


def earlier_bound(decks: int, length: int, earlier_cards: int, level: str = "card") -> Fraction:
    """Chance that a shuffled shoe repeats ``length`` cards of the ``earlier_cards`` cards of earlier shoes."""
    n = 52 * decks
    one = Fraction(1)
    for m in range(length):
        one *= Fraction(COPIES[level] * decks, max(n - m, 1))
    return min(Fraction(1), n * earlier_cards * one)


@lru_cache(maxsize=1024)
def threshold(test: str, decks: int, false_alarm: float, min_cards: int, earlier_cards: int = 0,
              level: str = "card") -> int | None:
    """The least stretch length (in cards) the test reports; None: no length is unlikely enough."""
    alpha = Fraction(false_alarm)
    for length in range(max(min_cards, 2), (LONGEST_RUN[level] if test == "order" else 52 * decks) + 1):
        if bound(test, decks, length, earlier_cards, level) <= alpha:
            return length
    return None


def bound(test: str, decks: int, length: int, earlier_cards: int = 0, level: str = "card") -> Fraction:
    if test == "within":
        return within_bound(decks, length, level)
    if test == "order":
        return order_bound(decks, length - 1, level)
    return earlier_bound(decks, length, earlier_cards, level)


# ------------------------------------------------------------------ finding the stretches


def windows(cards: bytes, k: int) -> list[bytes]:
    """Every ``k``-card window of ``cards``, in order."""
    return [cards[i:i + k] for i in range(len(cards) - k + 1)]


def repeats_within(cards: bytes, k: int) -> list[Stretch]:
    """Every maximal stretch of at least ``k`` cards that repeats an earlier stretch of ``cards`` it does not
    overlap, in the order they complete."""
    keys = windows(cards, k)
    if len(set(keys)) == len(keys):
        return []  # no window twice: a shuffled shoe, almost always (the check is a set, in C)
    first: dict[bytes, int] = {}
    covered: dict[int, int] = {}  # distance -> end of the last stretch found at that distance
    found: list[Stretch] = []
    n = len(cards)
    for i, key in enumerate(keys):
        j = first.get(key)
        if j is None:
            first[key] = i
            continue
        lag = i - j
        if lag < k or covered.get(lag, -1) > i:
            continue
        end = i + k
        while end < n and cards[end] == cards[end - lag]:
            end += 1
        found.append(Stretch(i, end, j))
        covered[lag] = end
    return found


#: each symbol -> the next one in a new deck's order up (down), 255 past the end or for a non-symbol; at the card
#: level the next card of its suit (past the king or the ace: none); by rank the next rank; by value 1 to 9, then 0
_NEXT = {
    "card": (bytes(b + 1 if b < 52 and b % 13 < 12 else 255 for b in range(256)),
             bytes(b - 1 if b < 52 and b % 13 > 0 else 255 for b in range(256))),
    "rank": (bytes(b + 1 if b < 12 else 255 for b in range(256)), bytes(b - 1 if 0 < b < 13 else 255 for b in range(256))),
    "value": (bytes(b + 1 if 1 <= b <= 8 else 0 if b == 9 else 255 for b in range(256)),
              bytes(9 if b == 0 else b - 1 if 2 <= b <= 9 else 255 for b in range(256))),
}


def runs_in_order(cards: bytes, k: int, level: str = "card") -> list[Stretch]:
    """Every maximal run of at least ``k`` cards each the next of its suit in rank order, up or down (at
    ``level``: each the next rank, or the next value)."""
    n = len(cards)
    if n < k or k < 2:
        return []
    found: list[Stretch] = []
    following = int.from_bytes(cards[1:], "big")
    for table in _NEXT[level]:
        # a zero byte at i: card i + 1 is the next of card i's suit this way (compared in one integer xor)
        steps = (int.from_bytes(cards.translate(table)[:-1], "big") ^ following).to_bytes(n - 1, "big")
        at = steps.find(bytes(k - 1))
        while at >= 0:
            end = at + k - 1
            while end < n - 1 and steps[end] == 0:
                end += 1
            found.append(Stretch(at, end + 1))
            at = steps.find(bytes(k - 1), end)
    return sorted(found, key=lambda s: s.start)


#: earlier shoes are forgotten this many at a time
BLOCK = 10


class EarlierShoes:
    """The ``k``-card windows of a table's last shoes, to look a new shoe up in.

    The shoes kept are held in blocks of ``block`` shoes, the oldest first; each block has one dictionary of
    the windows of its shoes (window -> the latest shoe of the block that holds it), so that looking a shoe up
    is one pass over its windows a block (most often a set operation, in C, that finds none), and forgetting
    the oldest block is dropping its dictionary.  A window is looked up in the newest block first: it points at
    the latest shoe kept that holds it.  Between ``keep`` and ``keep + block`` earlier shoes are compared."""

    def __init__(self, keep: int, k: int, block: int = BLOCK):
        self.keep, self.k, self.block = keep, k, block
        self.blocks: list[dict[bytes, int]] = []  # the oldest first
        self.sizes: list[int] = []  # shoes in each block
        self.cards: dict[int, bytes] = {}  # the cards of the shoes kept, by their number in the run
        self.labels: list[list[int]] = []  # the shoes of each block

    def repeats(self, cards: bytes, label: int | None = None) -> list[Stretch]:
        """Every maximal stretch of at least ``k`` cards of ``cards`` that repeats a stretch of a kept shoe;
        then, with a ``label``, keep this shoe too."""
        k = self.k
        keys = windows(cards, k)
        try:
            return self._repeats(cards, keys)
        finally:
            if label is not None:
                self._push(label, bytes(cards), keys)

    def _latest(self, key: bytes) -> int | None:
        """The latest shoe kept that holds the window ``key``."""
        for index in reversed(self.blocks):
            label = index.get(key)
            if label is not None:
                return label
        return None

    def _repeats(self, cards: bytes, keys: list[bytes]) -> list[Stretch]:
        k = self.k
        if all(index.keys().isdisjoint(keys) for index in self.blocks):
            return []
        found: list[Stretch] = []
        covered: dict[tuple[int, int], int] = {}
        n = len(cards)
        for i, key in enumerate(keys):
            label = self._latest(key)
            if label is None:
                continue
            other = self.cards[label]
            j = other.find(key)
            offset = (label, i - j)
            if covered.get(offset, -1) > i:
                continue
            end = i + k
            while end < n and end - i + j < len(other) and cards[end] == other[end - i + j]:
                end += 1
            found.append(Stretch(i, end, j, str(label)))
            covered[offset] = end
        return found

    def _push(self, label: int, cards: bytes, keys: list[bytes]) -> None:
        """Keep this shoe; forget the oldest block once the others hold ``keep`` shoes."""
        if self.keep <= 0:
            return
        if not self.sizes or self.sizes[-1] >= self.block:
            self.blocks.append({})
            self.sizes.append(0)
            self.labels.append([])
        self.blocks[-1].update(dict.fromkeys(keys, label))  # a window of an earlier shoe now points at this one
        self.sizes[-1] += 1
        self.labels[-1].append(label)
        self.cards[label] = cards
        while sum(self.sizes) - self.sizes[0] >= self.keep:
            for old in self.labels.pop(0):
                del self.cards[old]
            del self.blocks[0], self.sizes[0]


def apart(s: Stretch) -> int:
    """The longest repeat of cards that do not overlap their twins a repeat within a shoe holds: the bound is
    for such.  A stretch of ``L`` cards repeating the cards ``g`` before them (``g < L``: it overlaps them) makes
    the ``L + g`` cards periodic, so it holds a repeat of ``min(k g, L + g - k g)`` cards ``k g`` apart."""
    if s.source is None or s.source_shoe is not None:
        return s.length
    lag = s.start - s.source
    if lag >= s.length:
        return s.length
    span = s.length + lag
    k = max(1, span // (2 * lag))
    return max(min(j * lag, span - j * lag) for j in (k, k + 1))


def detect(test: str, stretches: list[Stretch], k: int, decks: int, earlier_cards: int = 0,
           level: str = "card") -> Detected | None:
    """The test's evidence from the stretches it found (None: none)."""
    if not stretches:
        return None
    first = min(stretches, key=lambda s: s.start + k)  # the one whose first k cards complete first
    longest = max(stretches, key=lambda s: (s.length, -s.start))
    return Detected(test, first, first.start + k - 1, longest, k, bound(test, decks, k, earlier_cards, level),
                    bound(test, decks, apart(longest), earlier_cards, level), stretches)
