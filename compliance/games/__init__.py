"""The games baccarat-audit checks: the one interface the engine knows them by.

A game is a package of one shape, ``compliance/games/<game>/`` (its transcript models, table, replayer,
check kinds, and where it has them its simulator, analysis, lint, importer and integrity stage), whose
``GAME`` keeps the :class:`Game` protocol; :class:`Replayer`, :class:`Importer`, :class:`Collector`,
:class:`Integrity`, :class:`Simulator`, :class:`Analyser` and :class:`GameLint` are the protocols of its
parts, and :func:`table_context` builds a transcript's table.  The registry of games is :mod:`compliance.registry`; what games share is
:mod:`compliance.games.common`.  No game imports another (``tests/test_architecture.py``).

The package's shape, module by module, and how to add a game: docs/architecture.md, "A game is a package
of one shape".
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from compliance import registry
from compliance.errors import UserError

if TYPE_CHECKING:
    from pydantic import BaseModel

    from compliance.categories import Category
    from compliance.context import RunContext
    from compliance.games.common import CoupPicture
    from compliance.lintcodes import LintCode
    from compliance.ruleset.models import BoundRule, HouseNote, Ruleset
    from compliance.transcript.codec import Codec

# ---------------------------------------------------------------- what a game hands the engine


@runtime_checkable
class CoupState(Protocol):
    """A replayed coup, as the engine reads it (its checks read the rest of the game's own state).

    Optional, read where present: ``lacking`` (evidence the coup's record turned out not to hold, a frozenset of
    :data:`compliance.evidence.EVIDENCE` names).
    """

    number: int  # the coup's number (``coup`` of the record)
    method: str | None  # the dealing method the coup was dealt by (rules limited to methods); None: the game has none


@runtime_checkable
class Replayer(Protocol):
    """Replays a transcript's coups in order (it may keep what one coup tells the next, such as the shoe).

    Optional, read where present: ``passed_over(number)``, told of a coup that could not be read, for a replay
    that follows the record's numbering.
    """

    def replay(self, coup: Any, line: int = 0) -> CoupState:
        """The state of ``coup`` (decoded by the game's codec, at ``line`` of its file); raises
        :class:`compliance.games.common.ReplayError` for a coup that cannot be replayed."""
        ...


@runtime_checkable
class Importer(Protocol):
    """A game's importer of recorders' logs (``baccarat-audit import``; :mod:`compliance.importing`)."""

    ROWS: dict  # rows kind -> the fields its rows may have
    REQUIRED: dict  # rows kind -> the sets of fields of which one must be mapped
    UNIQUE: dict  # rows kind -> the fields that tell one row from another
    ALONE: frozenset  # rows kinds whose rows each stand alone: two that clash set aside only themselves

    def evidence_of(self, rows: str, fields: Iterable[str]) -> Iterable[str]:
        """The evidence (:data:`compliance.evidence.EVIDENCE`) that logs of ``rows`` with ``fields`` hold."""
        ...

    def context(self, ruleset: Ruleset) -> Any:
        """What building the coups of one log needs of its ruleset."""
        ...

    def build(self, parts: Any, context: Any) -> Any:
        """A coup (a transcript's ``coup`` object) built from the rows of one coup."""
        ...


@runtime_checkable
class Collector(Protocol):
    """Gathers, coup by coup, what a game's integrity stage judges of a transcript.  ``unjudged``: the ids of the
    stage's rules the engine counted not judged at this coup (for want of what they need): the stage neither
    uses the coup for them nor counts it again."""

    def add(self, state: CoupState, record: Any, findings: list, have: frozenset, staff: tuple,
            unjudged: frozenset = ...) -> None: ...

    def finish(self) -> Any:
        """What was gathered (picklable: a worker process hands it to the parent)."""
        ...


@runtime_checkable
class Integrity(Protocol):
    """A game's integrity stage: judges whole shoes and runs of shoes after the replay (``scope="run"`` kinds)."""

    KINDS: tuple[str, ...]  # the check kinds of scope="run" it judges

    def Collector(self, header: Any, table: Any, rules: list[BoundRule]) -> Collector: ...  # noqa: N802

    def prepare(self, data: Any, ruleset: Ruleset, context: RunContext | None = None) -> None:
        """Work out what each shoe of ``data`` (what a Collector gathered of one transcript, or of one chunk of it cut
        at shoe boundaries) gives on its own, where it was collected (a worker process under -j), so that
        :meth:`judge`, in one process, works out only what spans shoes."""
        ...

    def judge(self, results: list, context: RunContext | None = None) -> None:
        """Judge the run of ``results`` (every transcript of a run), adding their findings; ``context``: the run's
        settings (its cache use)."""
        ...


@dataclass(frozen=True)
class SimulateRequest:
    """What ``baccarat-audit simulate`` asks of a game's simulator; None: the simulator's own default (an option a
    game's simulator does not play is refused, exit 2)."""

    coups: int
    seed: int
    table_id: str
    decks: int | None = None
    variant: str | None = None  # a game of the ruleset (``--game``: baccarat's punto_banco, ez_baccarat, ...)
    seats: int | None = None
    dealing_method: str | None = None
    commission: Decimal | None = None
    inject: tuple[str, ...] = ()  # CATEGORY[@RATE] specs, as given
    irregularities: float = 0.0
    dealers: int = 0
    rotation: int | None = None
    stay: float | None = None
    start: str | None = None  # ISO time, as given
    currency: str | None = None
    during: str | None = None  # HH:MM-HH:MM, as given

    def given(self) -> list[str]:
        """The options set beyond the command's own (coups, seed, table id), by their names on the command line."""
        options = {"decks": "--decks", "variant": "--game", "seats": "--seats", "dealing_method": "--dealing-method",
                   "commission": "--commission", "inject": "--inject", "irregularities": "--irregularities",
                   "dealers": "--dealers", "rotation": "--rotation", "stay": "--stay", "start": "--start",
                   "currency": "--currency", "during": "--inject-during"}
        return [flag for name, flag in options.items() if getattr(self, name) not in (None, (), 0, 0.0)]


@runtime_checkable
class Simulation(Protocol):
    """One simulated table, ready to be written (``baccarat-audit simulate``)."""

    def write(self, out: Any, encoding: str, on_coup: Any = None) -> None:
        """Write the transcript to the binary stream ``out`` as ``json`` or ``jsonl``; ``on_coup(n)`` as coups are
        played."""
        ...

    def made(self) -> dict:
        """What was made on request (breaches injected, irregularities handled), listed beside the transcript."""
        ...

    def summary(self) -> str:
        """What was made, in one line."""
        ...


@runtime_checkable
class Simulator(Protocol):
    """A game's simulator: plays compliant coups by a ruleset, and breaks chosen ones on request."""

    def simulation(self, ruleset: Ruleset, request: SimulateRequest) -> Simulation: ...


@runtime_checkable
class Analyser(Protocol):
    """A game's exact analysis of its wagers (``baccarat-audit analyze``)."""

    def document(self, ruleset: Ruleset, decks: int | None, variant: str | None) -> dict:
        """The analysis as data (the JSON of ``analyze -f json``)."""
        ...

    def render(self, document: dict) -> str:
        """The analysis as text."""
        ...


@dataclass(frozen=True)
class GameSection:
    """A ruleset file's ``game`` section as ``ruleset lint`` hands it to the game of its ``game_kind``."""

    data: dict  # the whole file as written
    own: dict  # the file's own `game` section ({} if it has none)
    plain: dict  # the section merged over the parent's, its house parameters unwrapped
    house: list[HouseNote]  # the house parameters of the merged section
    parent: Ruleset | None  # the ruleset it extends, if any


class LintReport(Protocol):
    """Where a game's lint reports what it finds: ``at`` is a key path from the file's root."""

    def add(self, at: tuple, severity: str, code: LintCode, message: str) -> None: ...

    def add_validation(self, base: tuple, err: Exception, code: LintCode, skip=...) -> None: ...


@runtime_checkable
class GameLint(Protocol):
    """A game's lint of its rulesets' ``game`` section (``baccarat-audit ruleset lint``)."""

    CODES: tuple[LintCode, ...]  # the codes it reports, each with its explanation (`ruleset lint --explain`)

    def game_section(self, section: GameSection, report: LintReport) -> None:
        """Report what is wrong with the section (called only for a game whose ``section`` is set)."""
        ...


@runtime_checkable
class Game(Protocol):
    """One game as the engine sees it: the contract of a game package's ``GAME``."""

    kind: str  # its ruleset game_kind: its key in compliance.registry.PACKAGES
    title: str  # its name in messages
    categories: tuple[Category, ...]  # its own finding categories (the shared ones are compliance.categories')
    schema_name: str  # its transcript format's name in `baccarat-audit schema`
    table_games: tuple[str, ...]  # the table.game values of its transcripts
    codec: Codec  # decodes its transcripts' headers and coups
    transcript_model: type[BaseModel]  # the pydantic model of a whole transcript (its JSON Schema)
    section: type[BaseModel] | None  # the model of its rulesets' `game` section; None: they have none
    importer: Importer | None  # its importer of recorders' logs; None: its logs cannot be imported yet
    lint: GameLint | None  # the lint of its rulesets' `game` section; None: nothing to lint there
    integrity: Integrity | None  # its shoe and table integrity stage; None: it has no rule of scope="run"
    simulator: Simulator | None  # plays its coups (`simulate`); None: it has none
    analyser: Analyser | None  # its exact analysis (`analyze`); None: it has none

    def build_table(self, header: Any, ruleset: Ruleset, where: str) -> Any:
        """The table context of a transcript: what its header and ruleset fix for every coup (the checks read it)."""
        ...

    def replayer(self, table: Any) -> Replayer:
        """A replayer of one transcript's coups, at ``table``."""
        ...

    def coup_view(self, state: Any) -> CoupPicture | None:
        """What a report draws of the coup ``state`` (one of its replayer's): its hands, each with its label, cards
        and points or rank, its outcome, its events and wagers; None: nothing to draw."""
        ...

    def transcript_schema(self) -> dict:
        """The JSON Schema of its transcripts, with its title and description (`baccarat-audit schema`)."""
        ...

    def replay_key(self, replayer: Any) -> str:
        """A fingerprint of everything ``replayer`` (one of this game's) carries from one coup to the next: two
        replayers of the same key replay the coups that follow alike.  The driver cuts a large file into chunks
        and accepts them only where each started from the key the chunk before it ended with
        (:mod:`compliance._internal.driver`); :func:`compliance.games.common.fingerprint` makes one of plain values."""
        ...



def table_context(game: Game, header, ruleset: Ruleset, where: str):
    """The table context of a transcript of ``game``, once its ruleset is known to be for that game."""
    kind = getattr(ruleset, "game_kind", registry.BACCARAT) or registry.BACCARAT
    if kind != game.kind:
        raise UserError(f"ruleset {ruleset.id!r} has rules for {registry.title(kind)}, but table.game is "
                        f"{header.table.game!r} ({game.title}): choose a {game.title} ruleset", where)
    return game.build_table(header, ruleset, where)


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
