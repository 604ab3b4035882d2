"""The registry of games: a ruleset's ``game_kind`` -> the package that is that game.

Below both the rulesets (``compliance/ruleset``, which check ``game_kind`` against it and validate a
``game`` section into the model the game hands them) and the games (``compliance/games``): a game's
package is imported by name, the first time it is asked for.  What a game must give is the
:class:`compliance.games.Game` protocol.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

import msgspec

BACCARAT = "baccarat"

#: ruleset ``game_kind`` -> the package of that game (one line a game)
PACKAGES: dict[str, str] = {
    BACCARAT: "compliance.games.baccarat",
    "pai_gow_poker": "compliance.games.pai_gow",
}


@functools.cache
def get(kind: str) -> Any:
    """The game (a :class:`compliance.games.Game`) of a ruleset ``game_kind``; its categories join the known ones."""
    from compliance import categories

    game = importlib.import_module(PACKAGES[kind]).GAME
    categories.add(game.categories)
    return game


def every() -> list:
    """Every registered game, in the registry's order (each imported)."""
    return [get(kind) for kind in PACKAGES]


def categories() -> dict[str, str]:
    """Every finding category of every registered game, the shared ones with them (a waiver's, the JSON Schema's)."""
    from compliance.categories import CATEGORIES

    every()
    return CATEGORIES


def title(kind: str) -> str:
    """The name of the game ``kind`` in messages (``kind`` itself when no game has it)."""
    return get(kind).title if kind in PACKAGES else kind


def for_table_game(name) -> Any:
    """The game of a ``table.game`` value, asked in the registry's order (a baccarat table imports no other
    game); baccarat's own validation reports values no game knows."""
    for kind in PACKAGES:
        if name in get(kind).table_games:
            return get(kind)
    return get(BACCARAT)


class _Peek(msgspec.Struct):
    table: dict | None = None


def of_document(header: bytes) -> Any:
    """The game a header's ``table.game`` names, read before the header is validated."""
    try:
        table = msgspec.json.decode(header, type=_Peek).table
    except msgspec.DecodeError:  # not JSON, or no object: the baccarat decoder says what is wrong
        return get(BACCARAT)
    return for_table_game(table.get("game") if table else None)


@functools.cache
def load_checks(kind: str | None = None) -> dict:
    """Import the check kinds of every game (``<package>.checks``), or of the game ``kind`` alone (a cached
    ruleset's: checking a baccarat table need not import pai gow's), and return the filled registry."""
    from compliance.categories import CATEGORIES
    from compliance.checks import REGISTRY

    for game_kind, package in PACKAGES.items():
        if kind is None or game_kind == kind:
            get(game_kind)  # its categories, before its kinds are checked against them
            importlib.import_module(f"{package}.checks")
            wrong = [f"{k.name}: {k.category!r}" for k in REGISTRY.values()
                     if k.game == game_kind and k.category not in CATEGORIES]
            if wrong:
                raise ValueError(f"check kinds of unknown categories: {'; '.join(wrong)}")
    return REGISTRY
