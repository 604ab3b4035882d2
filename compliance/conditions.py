"""Condition kinds: what wins, pays or pushes a wager spot, as code a ruleset names.

A ruleset declares the spots a table offers (``game.spots``), and for each
the conditions it is settled on: ``{kind: win, hand: banker, total: 7, cards: 3}``.
A condition kind is code, registered here with :func:`condition` the way a
check kind is registered in :mod:`compliance.checks`: its name, the pydantic
model of its parameters, what it looks at (its ``scope``) and how it words
itself.  A game registers its own kinds (baccarat's are in
:mod:`compliance.games.baccarat.conditions`); a spot is data, never code.

A condition is a pure function ``holds(facts, params) -> bool`` of the facts of
a finished coup (its game's facts, such as baccarat's :class:`compliance.games.baccarat.conditions.Facts`):

* ``scope="result"`` kinds read only the result: the winner, each hand's final
  points, its number of cards and whether it is a natural.  Exact analysis
  counts them over every coup a full shoe can deal.
* ``scope="cards"`` kinds read only the first two cards of each hand, each as
  a (rank, colour, suit) triple that they may only compare for equality (the
  exact analysis hands them canonical labels, not real ranks).  A part the
  record does not hold is ``None`` (a card recorded as ``7?``); a kind that
  needs it raises :class:`Unknown`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from compliance.evidence import Unknown as _Unknown

Scope = Literal["result", "cards"]


class Unknown(_Unknown):
    """The record does not show what the condition reads (a card recorded in part: ``7?``, ``0?``; a coup whose
    cards were not recorded): the wagers on a spot settled by it are not judged in that coup."""

    def __init__(self, why: str, *names: str):
        super().__init__(*names)
        self.args = (why,)


@dataclass(frozen=True)
class ConditionKind:
    name: str
    params: type[BaseModel]
    holds: Callable[[Any, BaseModel], bool]
    scope: Scope
    words: Callable[[BaseModel], str]  # the condition as a noun phrase: "Banker winning with 7 on three cards"
    fact: Callable[[Any, BaseModel], str]  # what the coup was, in the condition's terms: why it did not hold

    @property
    def doc(self) -> str:
        return (self.holds.__doc__ or "").strip()


CONDITIONS: dict[str, ConditionKind] = {}


def condition(name: str, params: type[BaseModel], scope: Scope, words: Callable, fact: Callable):
    """Register a condition kind: ``holds(facts, params)`` decorated."""

    def register(fn):
        if name in CONDITIONS:
            raise ValueError(f"condition kind {name!r} registered twice")
        CONDITIONS[name] = ConditionKind(name, params, fn, scope, words, fact)
        return fn

    return register
