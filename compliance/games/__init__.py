"""The games baccarat-audit checks: the one interface the engine knows them by.

Reading a transcript (``.json``/``.jsonl``, vendor keys, unreadable coups),
the check driver, findings, reports, waivers, baselines and the JSON report
contract are the same for every game.  A game is a package of one shape,
``compliance/games/<game>/``, and brings only what is its own:

* ``models.py``: its transcript format, as pydantic models, from which a
  :class:`compliance.transcript.codec.Codec` derives the msgspec structs;
* ``table.py``: its table context (what the header and the ruleset fix for every coup);
* ``replay.py``: its replayer (one pass over a coup's events builds the state its checks read);
* ``checks``: its check kinds, registered in :data:`compliance.checks.REGISTRY` like any other;
* ``simulate``: its simulator; ``analyze.py`` its exact analysis, where it has one;
* ``importing.py``: the fields of its recorders' logs and how a coup is built from their rows
  (``baccarat-audit import``), where it has one;
* ``integrity``: where it has one, its stage after the replay that judges whole shoes and runs of shoes;
* ``__init__.py``: ``GAME``, the :class:`Game` below.

Adding a game is a new package of that shape and one line in :data:`PACKAGES`.
The transcript names its game in ``table.game``; a ruleset names the game its
rules are for in ``game_kind`` (default ``baccarat``).  Games share the
building blocks of :mod:`compliance.games.common`; no game imports another.
"""

from __future__ import annotations

import functools
import importlib
import typing
from collections.abc import Callable
from dataclasses import dataclass

import msgspec

from compliance.errors import UserError

BACCARAT = "baccarat"

#: the registry: ruleset ``game_kind`` -> the package of that game (one line a game)
PACKAGES: dict[str, str] = {
    BACCARAT: "compliance.games.baccarat",
    "pai_gow_poker": "compliance.games.pai_gow",
}


@dataclass(frozen=True)
class Game:
    """One game as the engine sees it."""

    kind: str  # the ruleset's game_kind
    title: str
    table_games: tuple[str, ...]  # the table.game values of its transcripts
    codec: object  # compliance.transcript.codec.Codec
    build_table: Callable  # (header, ruleset, where) -> table context
    replayer: Callable  # (table context) -> object with .replay(coup, line) -> coup state
    transcript_model: type  # the pydantic model of a whole transcript (its JSON Schema)
    # the lint of its ruleset's `game` section (module): game_section(GameSection, LintReport); none: it has none
    lint: object | None = None
    # its recorders' logs (module): ROWS, REQUIRED, UNIQUE, evidence_of, context(ruleset), build(parts, context)
    importer: object | None = None
    # shoe and table integrity (module): Collector(header, table, rules) gathers a transcript's data coup by coup
    # (.add(state, record, findings, evidence held, staff), .finish()); judge(results, context) judges a run's
    # shoes (context: the run's compliance.context.RunContext)
    integrity: object | None = None

    def table_context(self, header, ruleset, where: str):
        """The table context of a transcript, once its ruleset is known to be for this game."""
        kind = getattr(ruleset, "game_kind", BACCARAT) or BACCARAT
        if kind != self.kind:
            raise UserError(f"ruleset {ruleset.id!r} has rules for {_title(kind)}, but table.game is "
                            f"{header.table.game!r} ({self.title}): choose a {self.title} ruleset", where)
        return self.build_table(header, ruleset, where)


@dataclass(frozen=True)
class GameSection:
    """A ruleset file's ``game`` section as ``ruleset lint`` hands it to the game of its ``game_kind``."""

    data: dict  # the whole file as written
    own: dict  # the file's own `game` section ({} if it has none)
    plain: dict  # the section merged over the parent's, its house parameters unwrapped
    house: list  # the house parameters of the merged section (HouseNote)
    parent: object | None  # the Ruleset it extends, if any


class LintReport(typing.Protocol):
    """Where a game's lint reports what it finds: ``at`` is a key path from the file's root."""

    def add(self, at: tuple, severity: str, code: str, message: str) -> None: ...

    def add_validation(self, base: tuple, err, code: str, skip=...) -> None: ...


class LazyModule:
    """A module of a game's that not every command needs (its exact analysis, its importer), imported the
    first time one of its names is read: a check never pays for the code of ``analyze`` or ``import``."""

    __slots__ = ("name", "_module")

    def __init__(self, name: str):
        self.name = name
        self._module = None

    def __getattr__(self, attr: str):
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self.name)
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<module {self.name!r}, imported when used>"


@functools.cache
def get(kind: str) -> Game:
    """The game of a ruleset ``game_kind``."""
    return importlib.import_module(PACKAGES[kind]).GAME


def _title(kind: str) -> str:
    return get(kind).title if kind in PACKAGES else kind


def for_table_game(name) -> Game:
    """The game of a ``table.game`` value; baccarat's own validation reports values no game knows."""
    from compliance.ruleset.models import BaccaratGame

    if name in typing.get_args(BaccaratGame):  # a baccarat table: no other game need be imported to tell
        return get(BACCARAT)
    for kind in PACKAGES:
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


@functools.cache
def load_checks(kind: str | None = None) -> dict:
    """Import the check kinds of every game (``<package>.checks``), or of the game ``kind`` alone (a cached
    ruleset's: checking a baccarat table need not import pai gow's), and return the filled registry."""
    from compliance.checks import REGISTRY

    for game_kind, package in PACKAGES.items():
        if kind is None or game_kind == kind:
            importlib.import_module(f"{package}.checks")
    return REGISTRY
