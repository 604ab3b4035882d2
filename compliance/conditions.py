"""Condition kinds: what wins, pays or pushes a wager spot, as code a ruleset names.

A ruleset's spots (``game.spots``) are data: each names the conditions it is settled on
(``{kind: win, hand: banker, total: 7, cards: 3}``).  A condition kind is code,
registered with :func:`condition` (its name, its parameters' model, its ``scope``, its
words) as a :class:`ConditionKind`: a pure ``holds(facts, params) -> bool`` of a finished
coup's facts (its game's: baccarat's :class:`compliance.games.baccarat.conditions.Facts`),
raising :class:`Unknown` where the record lacks what it needs.  A game registers its own
(baccarat's: :mod:`compliance.games.baccarat.conditions`).

What each ``scope`` may read, and why: docs/architecture.md, "Where each kind of change
goes" (a condition kind); spots: docs/rule-authoring.md, "Wager spots".
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
