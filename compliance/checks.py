"""Check kinds: small pure functions over a replayed coup.

A check kind is code; a rule (data, in a ruleset) names a kind and gives its parameters.
:func:`check` registers a kind (its finding category, its parameters' model, its
documentation, the evidence it ``needs``, ``when`` it can find anything, its ``scope``)
in :data:`REGISTRY`; a kind is called as ``fn(coup, params, table)`` on the state its
game's replayer built and returns an iterable of :class:`Breach`.  The engine's own
kinds (:func:`unreadable`, :func:`declaration`, :func:`evidence_missing`) are here too.

Where a new kind goes and what each registration argument means: docs/architecture.md,
"Where each kind of change goes"; evidence and "not judged": docs/transcript.md.
"""

from __future__ import annotations

import functools
import inspect
import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, field_validator

from compliance.categories import CATEGORIES
from compliance.evidence import EVIDENCE, required
from compliance.findings import Money


class Breach(NamedTuple):
    """What one check found: where, what, (rarely) a severity of its own, and what a wrong settlement was worth."""

    event: int | None
    message: str
    severity: str | None = None  # None: the rule's severity; "info" for a correctly handled irregularity
    money: Money | None = None  # a settlement's finding: what was due and what was paid (findings.Money)
    coup: int | None = None  # a finding of the header (scope="transcript") about one coup: its number
    citation: str | None = None  # what the finding cites beside its rule's citation (a register notice, a submission)


class NoParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Params(BaseModel):
    """Base of check parameter models: unknown parameters are errors.

    The docstring under a parameter is its description (`rules kinds`, the ruleset JSON Schema), read
    from the source by :func:`documented` when a schema is wanted.
    """

    # defer_build: a kind's validator is built when a ruleset naming it is validated, not when checks are
    # imported.  Not use_attribute_docstrings: pydantic would read and parse each class's source at import.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


def documented(params: type[BaseModel]) -> type[BaseModel]:
    """``params`` with the docstring under each of its fields as that field's description (once; its
    JSON Schema is built again to show them).  Only the schemas and ``rules kinds`` show them, so they
    are read from the source here, not at every start-up."""
    if params in _DOCUMENTED:
        return params
    for name, info in params.model_fields.items():
        owner = next((c for c in params.__mro__ if name in inspect.get_annotations(c)), None)
        if info.description is None and owner is not None:
            info.description = _attribute_docstrings(owner).get(name)
    params.model_rebuild(force=True)
    _DOCUMENTED.add(params)
    return params


_DOCUMENTED: set[type] = set()


@functools.cache
def _attribute_docstrings(cls: type) -> dict[str, str]:
    """The string literal under each annotated attribute of a class body (the attribute docstring)."""
    import ast
    import textwrap

    try:
        lines, _ = inspect.getsourcelines(cls)
    except (OSError, TypeError):
        return {}
    body = ast.parse(textwrap.dedent("".join(lines))).body[0].body
    docs = {}
    for field, doc in itertools.pairwise(body):
        if (isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name) and isinstance(doc, ast.Expr)
                and isinstance(doc.value, ast.Constant) and isinstance(doc.value.value, str)):
            docs[field.target.id] = inspect.cleandoc(doc.value.value)
    return docs


@dataclass(frozen=True)
class CheckKind:
    name: str
    category: str
    params: type[BaseModel]
    fn: Callable[..., Iterable[Breach]]
    game: str | None  # the ruleset game_kind whose coup state it reads; None: every game
    needs: tuple[str, ...] = ()  # the evidence its judgement rests on (compliance.evidence)
    scope: str = "coup"  # "coup": called on every coup; "run": judged after the replay, over shoes and runs;
    # "transcript": called once a transcript on its header
    when: tuple[str, ...] = ()  # coup-state fields of which one must be set for it to find anything (): always
    # what it judges with less than ``needs``: (the evidence, in words what it judges from it); where a coup holds
    # one of them, the engine calls it on the coup's evidence view and it judges what that evidence proves
    partly: tuple[tuple[tuple[str, ...], str], ...] = ()

    @property
    def doc(self) -> str:
        return (self.fn.__doc__ or "").strip()


REGISTRY: dict[str, CheckKind] = {}


def check(name: str, category: str, params: type[BaseModel] = NoParams, *, game: str | None,
          needs: tuple[str, ...] = (), scope: str = "coup", when: tuple[str, ...] = (),
          partly: dict[tuple[str, ...], str] | None = None):
    """Register a check kind (for the coups of ``game``, a ruleset game_kind; ``None`` for every game) and the
    evidence it needs (a game's package may bind ``game`` once: baccarat's ``checks.register.check``);
    ``scope="run"``: judged over shoes and runs of shoes by the game's integrity stage, not coup by coup;
    ``when``: the coup-state fields of which at least one is set (not empty, not None) in any coup where it
    can find something (the engine calls it only there); ``partly``: what it still judges from less than
    ``needs`` (evidence -> in words, what): on a coup holding that evidence, it reads the coup through an
    evidence view, where a fact from evidence the coup lacks raises :class:`compliance.evidence.Unknown`; it
    reports the breaches the recorded evidence proves, and the coup is not judged by it only where its verdict
    needed a fact that came back unknown (a kind of ``scope="run"`` judges such a coup in its game's integrity
    stage, which counts the coup not judged where it could not judge it)."""
    if game is None and category not in CATEGORIES:  # a game's kinds: checked once its categories are known
        raise ValueError(f"{name}: unknown category {category!r}")
    unknown = [n for n in needs if n not in EVIDENCE]
    if unknown:
        raise ValueError(f"{name}: unknown evidence {unknown!r} (known: {', '.join(EVIDENCE)})")
    if scope not in ("coup", "run", "transcript"):
        raise ValueError(f"{name}: unknown scope {scope!r}")
    for have in partly or {}:
        if [n for n in have if n not in EVIDENCE] or set(needs) <= set(have):
            raise ValueError(f"{name}: partly={have!r} is not less than what it needs, in evidence names")

    def register(fn):
        if name in REGISTRY:
            raise ValueError(f"check kind {name!r} registered twice")
        REGISTRY[name] = CheckKind(name, category, params, fn, game, tuple(needs), scope, tuple(when),
                                   tuple((tuple(have), words) for have, words in (partly or {}).items()))
        return fn

    return register


@check("transcript.unreadable", "transcript.unreadable", game=None)
def unreadable(coup, params, table):
    """A coup that cannot be decoded or replayed is reported with the reason and its place;
    the coups after it are still checked.  The engine reports these findings itself, before
    any coup state exists, so this function never has anything to add."""
    return ()


@check("record.declaration", "record.declaration", game=None)
def declaration(coup, params, table):
    """A recording's ``recorded`` (the header's, or a coup's own) explains what the record lacks; it never
    exempts what the record holds.  Evidence a coup holds though its declaration leaves it out is judged all
    the same, and the declaration the content contradicts is reported once a transcript, at the first coup
    that contradicts it: what was declared, and what is there.  The engine reports it (what a coup holds is
    the engine's to work out), so this function never has anything to add."""
    return ()


class RequireParams(Params):
    require: list[str] = []
    """the evidence every coup's record must hold (names of the format's `recorded`, or `all`): the minimum
    recording the jurisdiction or the house expects; the run may require more (`check --require-evidence`)"""

    @field_validator("require")
    @classmethod
    def _known(cls, v):
        required(v)  # a ValueError names an unknown one
        return v


@check("record.evidence-missing", "record.evidence-missing", RequireParams, game=None)
def evidence_missing(coup, params, table):
    """Evidence the ruleset or the run requires (``require``, ``check --require-evidence``) that coups of a
    transcript do not hold is reported once a transcript and kind of evidence, at the first coup lacking it,
    with how many coups lack it.  The engine reports it, once every coup is read, so this function never has
    anything to add."""
    return ()
