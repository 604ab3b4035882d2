"""The exact chance of each outcome of a coup dealt from a full shoe: what the integrity stage compares with.

A small part of the exact analysis (:mod:`.analyze`), apart so that a check
imports only this: the enumeration of a full shoe by point value under a
tableau (:func:`enumerate_counts`, counting the permutations of six cards),
its counts kept in the user's cache between runs (:func:`shoe_counts`), and
the Banker, Player, Tie and natural probabilities they give
(:func:`coup_odds`).  Nothing is sampled and nothing is a float.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache

from compliance import cachedir
from compliance.cards import DECK, POINTS
from compliance.games.baccarat.section import Tableau

#: how many cards of each point value 0..9 one deck holds (16 worth 0, 4 of each other value)
POINTS_PER_DECK: tuple[int, ...] = tuple(sum(1 for c in DECK if POINTS[c] == v) for v in range(10))


def tableau_key(t: Tableau) -> tuple:
    """What of a tableau the enumeration reads, hashable (naturals, the draws, the Banker's rows by the Player's third card)."""
    rows = tuple((total, tuple(row[v] == "D" for v in range(10)))
                 for total, row in sorted(t.banker_draws_on_player_third_card.items()))
    return frozenset(t.naturals), frozenset(t.player_draws), frozenset(t.banker_draws_when_player_stood), rows


#: every way a coup can end, as the result conditions read it: (Player points, Banker points, Player cards,
#: Banker cards)
ENDS: tuple[tuple[int, int, int, int], ...] = tuple(
    (p, b, pc, bc) for p in range(10) for b in range(10) for pc in (2, 3) for bc in (2, 3))
#: every end counted
ALL: tuple[int, ...] = (1,) * len(ENDS)


def end_index(p: int, b: int, pc: int, bc: int) -> int:
    """The place of an end in :data:`ENDS`."""
    return ((p * 10 + b) * 2 + pc - 2) * 2 + bc - 2


def third_cards(back: tuple) -> dict:
    """(Player's points, Banker's points before a third card, Player's cards) -> the Banker's third-card values that
    end the coup where ``back`` is not nought, each with the end's place."""
    return {(p, b, pc): [(v, end_index(p, (b + v) % 10, pc, 3)) for v in range(10)
                         if back[end_index(p, (b + v) % 10, pc, 3)]]
            for p in range(10) for b in range(10) for pc in (2, 3)}


_ALL_THIRD = third_cards(ALL)


def deal_counts(key: tuple, start: tuple[int, ...], back: tuple = ALL, third: dict | None = None) -> dict[int, int]:
    """The six-card deals from a shoe holding ``start[v]`` cards of point value ``v`` that end each way (index into
    :data:`ENDS` -> count), by the tableau ``key``; only the ends where ``back`` is not nought (by default every
    end).  ``third``: :func:`third_cards` of ``back``, where the caller keeps it."""
    return walk(key, start, back, third)


def walk(key: tuple, start: tuple[int, ...], back: tuple = ALL, third: dict | None = None,
         by_card: bool = False) -> dict:
    """The one enumeration of the deals (:func:`deal_counts`; the exact edges of :mod:`.edges` walk it too): each
    end's count of deals, or with ``by_card`` each end's ``[C, K_0 .. K_9]``, its count ``C`` and, for each point
    value ``v``, the same deals counted once for each card of value ``v`` they hold (``K_v``)."""
    naturals, player_draws, banker_stood_draws, rows = key
    banker_row = dict(rows)
    left = list(start)
    size = sum(left)
    tail5 = size - 5
    tail4 = (size - 4) * tail5

    at = end_index
    if third is None:
        third = third_cards(back)
    counts: dict = {}

    def add(i: int, w: int, *cards: int) -> None:
        row = counts.get(i)
        if row is None:
            row = counts[i] = [0] * 11
        row[0] += w
        for v in cards:
            row[v + 1] += w

    values = range(10)
    # each hand's two initial cards taken as a pair of values, lower first (twice the ways where they differ): the
    # ways of a deal are the product of each value's falling factorial, whatever the order the cards come in
    for p1 in values:
        w1 = left[p1]
        if not w1:
            continue
        left[p1] -= 1
        for p2 in range(p1, 10):
            w2 = w1 * left[p2] * (1 if p2 == p1 else 2)
            if not w2:
                continue
            left[p2] -= 1
            player = (p1 + p2) % 10
            for b1 in values:
                w3 = w2 * left[b1]
                if not w3:
                    continue
                left[b1] -= 1
                for b2 in range(b1, 10):
                    w4 = w3 * left[b2] * (1 if b2 == b1 else 2)
                    if not w4:
                        continue
                    banker = (b1 + b2) % 10
                    if player in naturals or banker in naturals or (
                            player not in player_draws and banker not in banker_stood_draws):
                        i = at(player, banker, 2, 2)
                        if back[i]:
                            if by_card:
                                add(i, w4 * tail4, p1, p2, b1, b2)
                            else:
                                counts[i] = counts.get(i, 0) + w4 * tail4
                        continue
                    left[b2] -= 1
                    if player in player_draws:
                        draws = banker_row.get(banker)
                        for p3 in values:
                            w5 = w4 * left[p3]
                            if not w5:
                                continue
                            final = (player + p3) % 10
                            if draws is not None and draws[p3]:
                                ways = third[(final, banker, 3)]
                                if ways:
                                    left[p3] -= 1
                                    for v, i in ways:
                                        if left[v]:
                                            if by_card:
                                                add(i, w5 * left[v], p1, p2, b1, b2, p3, v)
                                            else:
                                                counts[i] = counts.get(i, 0) + w5 * left[v]
                                    left[p3] += 1
                            else:
                                i = at(final, banker, 3, 2)
                                if back[i]:
                                    if by_card:
                                        add(i, w5 * tail5, p1, p2, b1, b2, p3)
                                    else:
                                        counts[i] = counts.get(i, 0) + w5 * tail5
                    else:  # the Player stands, the Banker draws
                        for v, i in third[(player, banker, 2)]:
                            if left[v]:
                                if by_card:
                                    add(i, w4 * left[v] * tail5, p1, p2, b1, b2, v)
                                else:
                                    counts[i] = counts.get(i, 0) + w4 * left[v] * tail5
                    left[b2] += 1
                left[b1] += 1
            left[p2] += 1
        left[p1] += 1
    return counts


@lru_cache(maxsize=16)
def enumerate_counts(key: tuple, decks: int) -> tuple[tuple[tuple[int, int, int, int], int], ...]:
    """Every six-card deal of a full shoe of ``decks`` decks, counted by how the coup ends."""
    counts = deal_counts(key, tuple(n * decks for n in POINTS_PER_DECK), ALL, _ALL_THIRD)
    return tuple(sorted((ENDS[i], n) for i, n in counts.items()))


@dataclass(frozen=True)
class CoupOdds:
    """The chance of each outcome of one coup dealt from a full shoe, exact: what integrity compares counts with."""

    decks: int
    banker: Fraction
    player: Fraction
    tie: Fraction
    natural: Fraction  # either hand holds a natural after the initial four cards

    @cached_property
    def chances(self) -> dict[str, float]:
        """The same as the floats the statistical tests take (one dict for every shoe alike): never money."""
        return {"banker": float(self.banker), "player": float(self.player), "tie": float(self.tie),
                "naturals": float(self.natural)}


@lru_cache(maxsize=16)
def _coup_odds(key: tuple, decks: int, cache: bool) -> CoupOdds:
    naturals = key[0]
    counts = dict(shoe_counts(key, decks, cache))
    total = sum(counts.values())
    banker = sum(n for (p, b, _, _), n in counts.items() if b > p)
    player = sum(n for (p, b, _, _), n in counts.items() if p > b)
    natural = sum(n for (p, b, pc, bc), n in counts.items() if pc == bc == 2 and (p in naturals or b in naturals))
    return CoupOdds(decks, Fraction(banker, total), Fraction(player, total),
                    Fraction(total - banker - player, total), Fraction(natural, total))


def shoe_counts(key: tuple, decks: int, cache: bool = True) -> tuple[tuple[tuple[int, int, int, int], int], ...]:
    """:func:`enumerate_counts`'s counts, kept in the user's cache (``odds/``, :mod:`compliance.cachedir`) between
    runs: enumerating a shoe takes a fifth of a second, many times what checking a night's recording does.
    An entry is used only when it was made by this code for this tableau and these decks, and its counts are
    whole (every ordered deal of six cards of the shoe counted once); otherwise it is worked out and written
    again.  ``cache``: the run context's (False: neither read nor written)."""
    top = cachedir.root(cache)
    if top is None:
        return enumerate_counts(key, decks)
    naturals, player_draws, banker_stood_draws, rows = key
    what = json.dumps([decks, sorted(naturals), sorted(player_draws), sorted(banker_stood_draws),
                       [[total, list(row)] for total, row in rows]])
    name = "odds/" + hashlib.sha256(f"{cachedir.code_fingerprint()}\0{what}".encode()).hexdigest()[:32] + ".json"
    found = _read_counts(top, name, decks)
    if found is not None:
        return found
    counts = enumerate_counts(key, decks)
    cachedir.write(top, name, json.dumps([[*k, n] for k, n in counts]).encode())  # skipped if it cannot be
    return counts


def _read_counts(top, name: str, decks: int):
    """The counts in the entry ``name`` if it is the user's own (:func:`compliance.cachedir.read`: owned,
    authenticated) and holds a whole enumeration of a shoe of ``decks`` decks, else None."""
    data = cachedir.read(top, name)
    if data is None:
        return None
    try:
        rows = json.loads(data)
        out = []
        for row in rows:
            p, b, pc, bc, n = row  # ValueError/TypeError: not a row of five
            if not (all(type(x) is int for x in row) and 0 <= p <= 9 and 0 <= b <= 9 and pc in (2, 3)
                    and bc in (2, 3) and n > 0):
                return None
            out.append(((p, b, pc, bc), n))
    except (OSError, ValueError, TypeError, RecursionError):
        return None
    size = 52 * decks
    if [k for k, _ in out] != sorted({k for k, _ in out}) or \
            sum(n for _, n in out) != math.perm(size, 6):  # every ordered deal of six cards, each once
        return None
    return tuple(out)


def coup_odds(tableau: Tableau, decks: int, cache: bool = True) -> CoupOdds:
    """Banker, Player, Tie and natural probabilities of a coup from a full shoe of ``decks`` decks under
    ``tableau``, from the exact enumeration (the shoe and table integrity tests read them here); ``cache``:
    whether the user's cache may keep the enumeration (the run context's)."""
    return _coup_odds(tableau_key(tableau), decks, cache)
