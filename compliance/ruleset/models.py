"""The ruleset format: pydantic models that double as its JSON Schema.

A ruleset is data: its game's own section (``game``, a model its game gives), its rules
(each naming a check kind of :mod:`compliance.checks` with that kind's parameters, a
severity and the paragraph it rests on), and the conditions wager spots are settled on
(:class:`Condition`, the language of :mod:`compliance.conditions`).  A parameter left
to the house is written ``{house: <default>, note: "..."}``; the loader unwraps it and
keeps where it came from.  Jurisdictions differ in these files, never in code.

The format: docs/rule-authoring.md.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from compliance.categories import CATEGORIES, SEVERITIES
from compliance.conditions import CONDITIONS

Severity = Literal[SEVERITIES]


class Strict(BaseModel):
    # defer_build: validators are built on first use (loading a ruleset the cache does not hold), not at import
    model_config = ConfigDict(extra="forbid", defer_build=True)


class Source(Strict):
    """A regulation text rules cite."""

    title: str
    cite_as: str = Field(description="prefix of a citation, e.g. 'N.J.A.C. 13:69F-'; paragraphs follow it")
    text: str | None = Field(default=None, description="file name of the bundled regulation text, if any")
    url: str | None = None


class Citation(Strict):
    source: str = Field(description="key of the ruleset's `sources`")
    at: Annotated[list[str], Field(min_length=1)] = Field(description="paragraphs, e.g. ['3.7(d)(5)']")


#: what a rule cites at the tables of a game (table.game): one citation, or several (of different sources)
GameCitation = Citation | Annotated[list[Citation], Field(min_length=1)]
CitationByGame = Annotated[dict[str, GameCitation], Field(
    description="what the rule cites where the table plays one of these games (table.game, a variant of the "
                "ruleset), in place of `citation`: a jurisdiction whose games have chapters of their own")]


def citations(c: GameCitation | None) -> tuple[Citation, ...]:
    """A citation, or a game's list of them, as a tuple."""
    if c is None:
        return ()
    return tuple(c) if isinstance(c, list) else (c,)


class Condition(BaseModel):
    """A condition a spot is settled on: a registered condition kind and its parameters,
    written flat: ``{kind: win, hand: banker, total: 7, cards: 3}``."""

    model_config = ConfigDict(extra="allow", frozen=True, defer_build=True)

    kind: str = Field(description="the condition kind (see docs/rule-authoring.md)")
    _params: Any = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _known(self):
        kind = CONDITIONS.get(self.kind)
        if kind is None:
            raise ValueError(f"unknown condition kind {self.kind!r} (kinds: {', '.join(sorted(CONDITIONS)) or 'none loaded'})")
        try:
            self._params = kind.params.model_validate(self.model_extra or {})
        except ValidationError as e:
            problems = "; ".join(f"{'.'.join(str(x) for x in err['loc']) or kind.name}: "
                                 + ("unknown parameter" if err["type"] == "extra_forbidden" else err["msg"])
                                 for err in e.errors(include_url=False))
            raise ValueError(f"condition {self.kind!r}: {problems}") from None
        return self

    @property
    def params(self):
        return self._params

    @property
    def words(self) -> str:
        return CONDITIONS[self.kind].words(self._params)


RuleId = Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9_.-]*$")]


class Rule(Strict):
    id: RuleId
    title: str
    check: str = Field(description="the check kind (see `baccarat-audit rules kinds`)")
    severity: Severity = "error"
    citation: Citation | None = None
    summary: str | None = Field(default=None, description="what the rule requires, in plain words")
    params: dict[str, Any] = {}
    enabled: bool = True
    dealing_methods: list[str] | None = Field(
        default=None, description="apply only to coups dealt by one of these methods (default: all)"
    )
    citation_by_game: CitationByGame = {}


class RuleOverride(Strict):
    """Changes a ruleset makes to a rule it inherits, by id."""

    title: str | None = None
    severity: Severity | None = None
    citation: Citation | None = None
    citation_by_game: CitationByGame | None = None
    summary: str | None = None
    params: dict[str, Any] | None = None
    enabled: bool | None = None
    dealing_methods: list[str] | None = None


def _a_day(v: str) -> str:
    """``v`` if it is a calendar day (2014-02-30 is not)."""
    import datetime
    datetime.date.fromisoformat(v)
    return v


Day = Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="a date, YYYY-MM-DD"),
                AfterValidator(_a_day)]


def _in_order(model, first: str, last: str):
    """``model`` if its day ``last`` (None: open) is not before its day ``first`` (days compare as text)."""
    start, end = getattr(model, first), getattr(model, last)
    if end is not None and end < start:
        raise ValueError(f"{last} {end} is before {first} {start}")
    return model


class Amendment(Strict):
    """A dated change to a ruleset (a register's notice): what it changes, in force from ``effective`` (and to
    ``ends``, the last day, for a temporary rule).  The changes are written as the ruleset's own sections are."""

    id: RuleId = Field(description="the amendment's own id, named by reports and `ruleset history`")
    title: str
    cite: Annotated[str, Field(min_length=1, description="the register notice that made it, e.g. '44 Pa.B. 599'")]
    effective: Day = Field(description="the first day it is in force")
    ends: Day | None = Field(default=None, description="the last day it is in force (a temporary rule)")
    url: str | None = None
    summary: str | None = None
    sources: dict[str, Source] = {}
    game: dict[str, Any] | None = Field(default=None, description="changes to the game section (merged over it; a "
                                        "spot or variant written null is removed)")
    rules: list[Rule] = Field(default=[], description="rules it adds")
    overrides: dict[str, RuleOverride] = Field(default={}, description="changes to rules in force, by id")


    @model_validator(mode="after")
    def _ends_after(self):
        return _in_order(self, "effective", "ends")


class Option(Strict):
    """A rule the jurisdiction lets each house choose in its approved submission: what choosing it changes."""

    title: str
    citation: Citation
    since: Day | None = Field(default=None, description="the first day the jurisdiction permits it")
    until: Day | None = Field(default=None, description="the last day the jurisdiction permits it")
    summary: str | None = None
    game: dict[str, Any] | None = Field(default=None, description="what selecting it changes of the game section")
    overrides: dict[str, RuleOverride] = Field(default={}, description="what selecting it changes of rules, by id")



class Selection(Strict):
    """A house's choice of one of its jurisdiction's options, from the day it took effect."""

    option: str = Field(description="a key of the `options` of the ruleset it extends")
    since: Day = Field(description="the first day the selection applies (its approval's effective date)")
    until: Day | None = Field(default=None, description="the last day it applies, where it was withdrawn")
    submission: str | None = Field(default=None, description="the house's reference for it (its rules submission)")


    @model_validator(mode="after")
    def _until_after(self):
        return _in_order(self, "since", "until")


class RulesetFile(Strict):
    """One ruleset YAML file as written."""

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    title: str
    version: str
    extends: str | None = Field(default=None, description="id or relative path of the ruleset this one builds on")
    abstract: bool = Field(default=False, description="a base to extend, not to check transcripts with")
    casino: str | None = Field(
        default=None,
        description="set in a casino's house ruleset: the casino whose house rules these are. A house ruleset "
        "extends a jurisdiction and may only set parameters the regulation leaves to the house (`ruleset lint`)",
    )
    description: str | None = None
    sources: dict[str, Source] = {}
    dealing_methods: dict[str, str] | None = Field(
        default=None, description="dealing methods this jurisdiction allows, name -> what it is"
    )
    game_kind: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")] | None = Field(
        default=None, description="the game whose transcripts the rules check (default: the parent's, else baccarat); "
        "only a baccarat ruleset has a `game` section")  # one of the registry of games (compliance.registry.PACKAGES)
    game: dict[str, Any] | None = Field(default=None, description="the game: tableau and spots (merged over the parent's)")
    rules: list[Rule] = []
    overrides: dict[str, RuleOverride] = {}
    redirects: dict[RuleId, RuleId] = Field(
        default={}, description="rule ids renamed: the old id -> the id the rule has now (a rule of this ruleset or of "
        "one it extends). Waivers, baselines, --select/--ignore and configuration that name the old id keep working, "
        "with a note")
    effective: Day | None = Field(default=None, description="the first day the rules as written above (before any "
                                  "amendment) are known in force; a coup dealt before it is judged by them, and the "
                                  "report says so")
    cite: str | None = Field(default=None, description="the register notice that made the rules as written above")
    amendments: list[Amendment] = Field(
        default=[], description="the ruleset's history: dated changes, in the order they took effect (the sections "
        "above are the rules before the first)")
    options: dict[RuleId, Option] = Field(default={}, description="rules the jurisdiction lets each house choose")
    selections: list[Selection] = Field(default=[], description="a house's choices among the options of the "
                                        "jurisdiction it extends, each from its date")

    @field_validator("rules")
    @classmethod
    def _unique(cls, rules):
        seen = set()
        for r in rules:
            if r.id in seen:
                raise ValueError(f"duplicate rule id {r.id!r}")
            seen.add(r.id)
        return rules


class HouseNote(BaseModel):
    """Provenance of a parameter the regulation leaves to the house."""

    model_config = ConfigDict(defer_build=True)

    path: str
    default: Any  # the value in force (the house's choice)
    note: str | None = None
    set_by: str | None = None  # the ruleset that changed the value, if not the one that declared it


class BoundRule(BaseModel):
    """A rule ready to run: inherited, overridden, its parameters validated."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True, defer_build=True)

    id: str
    title: str
    check: str
    category: str
    severity: Severity
    citation: Citation | None
    citation_text: str
    # table.game -> what the rule cites at that game's tables, and its text (in place of citation, citation_text)
    citation_by_game: dict[str, tuple[Citation, ...]] = {}
    citation_text_by_game: dict[str, str] = {}
    summary: str | None
    params: Any  # the check kind's params model
    house: list[HouseNote] = []
    dealing_methods: frozenset[str] | None = None
    defined_in: str  # ruleset id that defined the rule
    location: str  # file:line of its definition

    @field_validator("category")
    @classmethod
    def _known(cls, v):
        if v not in CATEGORIES:
            raise ValueError(f"unknown category {v!r}")
        return v

    def cite_for(self, game: str | None) -> str:
        """What a finding at a table of ``game`` cites: the game's own citation, else the rule's."""
        return self.citation_text_by_game.get(game, self.citation_text) if self.citation_text_by_game else self.citation_text

    def all_citations(self) -> tuple[Citation, ...]:
        """Every citation of the rule: its own, then each game's."""
        own = (self.citation,) if self.citation is not None else ()
        return own + tuple(c for cs in self.citation_by_game.values() for c in cs)


class AmendmentNote(BaseModel):
    """An amendment, or a house's selection of an option, as the history of a ruleset lists it."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    id: str  # the amendment's id, or "option:<key>" for a selection
    kind: Literal["amendment", "selection"]
    defined_in: str  # the ruleset whose file gives it
    title: str
    cite: str  # the register citation, or the option's citation and the house's submission
    effective: str
    ends: str | None = None
    changes: list[str] = []  # what it changes, one item a spot, rule or source

    def words(self) -> str:
        days = f"from {self.effective}" + (f" to {self.ends}" if self.ends else "")
        return f"{self.id} ({self.cite}, {days})"


class OptionNote(BaseModel):
    """An option a jurisdiction permits, as `rules list` and lint see it."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    key: str
    title: str
    citation: str
    since: str | None = None
    until: str | None = None


class Period(BaseModel):
    """The days a version of a ruleset is in force, and the amendments and selections that make it."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    start: str | None  # the first day (None: from the beginning of its history)
    end: str | None  # the last day (None: still in force)
    in_force: list[AmendmentNote] = []
    known_from: str | None = None  # the first version: the first day it is known in force (RulesetFile.effective)
    cite: str | None = None  # the first version: the register notice that made it

    def words(self) -> str:
        first = "as first made" + (f" ({self.cite}" + (f", in force from {self.known_from}" if self.known_from
                                                           else "") + ")" if self.cite else "")
        days = (f"from {self.start}" if self.start else first) + (f" to {self.end}" if self.end else "")
        made = "; ".join(a.words() for a in self.in_force)
        return days + (f", with {made}" if made else "")

    def holds(self, day: str) -> bool:
        return (self.start is None or self.start <= day) and (self.end is None or day <= self.end)


class Ruleset(BaseModel):
    """A resolved, concrete ruleset: what the checker runs."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True, defer_build=True)

    id: str
    title: str
    version: str
    description: str | None
    lineage: list[str]  # this id, its parent's, ...
    path: str
    abstract: bool
    casino: str | None = None
    sources: dict[str, Source]
    dealing_methods: dict[str, str] | None
    game_kind: str  # a key of the registry of games (compliance.registry.PACKAGES)
    game: Any  # the model of its game's `game` section (baccarat's tableau and spots); None: the game has none
    game_house: list[HouseNote] = []
    rules: list[BoundRule]
    disabled: list[str] = []
    redirects: dict[str, str] = {}  # renamed rule ids: old -> the id of one of its rules (or disabled ones) now
    sha256: str = ""  # the content hash of its files (loader.chain_sha256): what reports name it by
    files: list[str] = []  # the absolute path of each file of its extends chain, the base first
    # its history (loader._versions): every amendment and selection of its chain, and each version in force (the
    # ruleset itself is the last, the current one); a version's own ruleset has its `period`, and no versions
    history: list[AmendmentNote] = []
    versions: list[Ruleset] = []
    period: Period | None = None
    options: list[OptionNote] = []  # the options the jurisdiction permits
    spot_notes: dict[str, str] = {}  # spot -> why this version does not have it, where its history has it
    # spot -> what a wager on it there cites beside the rule: the amendment's register notice, or the option's
    # paragraph and the house's submission
    spot_cites: dict[str, str] = {}

    def version_on(self, day: str | None) -> Ruleset:
        """The version in force on ``day`` (YYYY-MM-DD); the current one for None or a ruleset without history."""
        if day is None or not self.versions:
            return self
        for v in reversed(self.versions):
            if v.period.start is None or v.period.start <= day:
                return v
        return self.versions[0]

    def cite(self, c: GameCitation | None) -> str:
        """A citation (or a game's list of them) in words: each source's prefix, then its paragraphs (sources
        cited alike, such as two chapters of one code, share the prefix: "58 Pa. Code § 629a.12, 629b.1")."""
        parts: list[tuple[str, list[str]]] = []
        for x in citations(c):
            src = self.sources.get(x.source)
            prefix = src.cite_as if src else f"{x.source} "
            if parts and parts[-1][0] == prefix:
                parts[-1][1].extend(x.at)
            else:
                parts.append((prefix, list(x.at)))
        return "; ".join(prefix + ", ".join(at) for prefix, at in parts)


HOUSE_VALUE_SCHEMA = {
    "type": "object",
    "description": "a value the regulation leaves to the house: the default, and why it is the house's",
    "properties": {"house": {"description": "the default value"}, "note": {"type": "string"}},
    "required": ["house"],
    "additionalProperties": False,
}
