"""The games baccarat-audit checks, and what each brings to the shared engine.

Reading a transcript (``.json``/``.jsonl``, vendor keys, unreadable coups),
the replay driver, findings, reports, waivers, baselines and the JSON report
contract are the same for every game.  A game brings only what is its own:

* its transcript format: pydantic models, from which
  :class:`compliance.transcript.codec.Codec` derives the msgspec structs;
* its table context (what the header and the ruleset fix for every coup);
* its replayer (one pass over a coup's events builds the state its checks read);
* its check kinds, registered in :data:`compliance.checks.REGISTRY` like any other.

The transcript names its game in ``table.game``; a ruleset names the game
its rules are for in ``game_kind`` (default ``baccarat``).
"""

from __future__ import annotations

import functools
import typing
import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass

import msgspec

from compliance.errors import UserError

BACCARAT = "baccarat"


@dataclass(frozen=True)
class Game:
    """One game as the engine sees it."""

    kind: str  # the ruleset's game_kind
    title: str
    table_games: tuple[str, ...]  # the table.game values of its transcripts
    codec: object  # compliance.transcript.codec.Codec
    build_table: Callable  # (header, ruleset, where) -> table context
    replayer: Callable  # (table context) -> object with .replay(coup, line) -> coup state

    def table_context(self, header, ruleset, where: str):
        """The table context of a transcript, once its ruleset is known to be for this game."""
        kind = getattr(ruleset, "game_kind", BACCARAT) or BACCARAT
        if kind != self.kind:
            raise UserError(f"ruleset {ruleset.id!r} has rules for {_title(kind)}, but table.game is "
                            f"{header.table.game!r} ({self.title}): choose a {self.title} ruleset", where)
        return self.build_table(header, ruleset, where)


def _baccarat() -> Game:
    from compliance.replay import Replayer
    from compliance.table import TableContext
    from compliance.transcript import codec, models

    return Game(BACCARAT, "baccarat", typing.get_args(models.BaccaratGame), codec.BACCARAT, TableContext.build,
                Replayer)


def _pai_gow() -> Game:
    from compliance.games.pai_gow import GAME

    return GAME


_FACTORIES: dict[str, Callable[[], Game]] = {BACCARAT: _baccarat, "pai_gow_poker": _pai_gow}


@functools.cache
def get(kind: str) -> Game:
    """The game of a ruleset ``game_kind``."""
    return _FACTORIES[kind]()


def _title(kind: str) -> str:
    return get(kind).title if kind in _FACTORIES else kind


def for_table_game(name) -> Game:
    """The game of a ``table.game`` value; baccarat's own validation reports values no game knows."""
    for kind in _FACTORIES:
        if kind != BACCARAT and name in get(kind).table_games:
            return get(kind)
    return get(BACCARAT)


class _Peek(msgspec.Struct):
    table: dict | None = None


def of_document(header: bytes) -> Game:
    """The game a header's ``table.game`` names, read before the header is validated."""
    try:
        table = msgspec.json.decode(header, type=_Peek).table
    except msgspec.DecodeError:  # not JSON, or no object: the baccarat decoder says what is wrong
        return get(BACCARAT)
    return for_table_game(table.get("game") if table else None)


def load_checks() -> None:
    """Import the check kinds of every game package (``compliance.games.<game>.checks``)."""
    for mod in pkgutil.iter_modules(__path__):
        if mod.ispkg:
            importlib.import_module(f"{__name__}.{mod.name}.checks")
