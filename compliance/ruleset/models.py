"""The ruleset format: pydantic models that double as its JSON Schema.

A ruleset is data.  It defines the game (the drawing tableau and the wager
spots with what wins, pays and pushes each) and a list of rules; each rule names a *check kind* (code, in
:mod:`compliance.checks`) and gives that kind's parameters, a severity and
the regulation paragraph it rests on.  Jurisdictions differ in these files,
never in code.

A parameter the regulation leaves to the house is written
``{house: <default>, note: "..."}``; the loader unwraps it to the plain value
and remembers its provenance, so reports can tell "the regulation says" from
"the house rules say".
"""

from __future__ import annotations

import copy
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Decimal
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
from compliance.limits import commission_figure, fine_figure

Severity = Literal[SEVERITIES]
Total = Annotated[int, Field(ge=0, le=9)]


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


class Tableau(Strict):
    """The drawing rules as data (NSW rule 10 Tables 1 and 2 in the standard game)."""

    naturals: list[Total] = Field(description="point counts of two cards that are a natural: no hand draws")
    player_draws: list[Total] = Field(description="Player totals on which the Player's Hand draws")
    banker_draws_when_player_stood: list[Total] = Field(
        description="Banker totals on which the Banker's Hand draws when the Player's Hand stood"
    )
    banker_draws_on_player_third_card: dict[Total, Annotated[str, Field(pattern=r"^[DS]{10}$")]] = Field(
        description="row per Banker total that is not a natural: ten letters, D (draw) or S (stand), "
        "for the Player's third card of value 0 to 9"
    )

    @model_validator(mode="after")
    def _complete(self):
        missing = [t for t in range(10) if t not in self.naturals and t not in self.banker_draws_on_player_third_card]
        if missing:
            raise ValueError(
                f"banker_draws_on_player_third_card has no row for Banker total(s) {missing}: "
                "every total that is not a natural needs a decision for every Player third card"
            )
        return self

    def banker_draws(self, banker_total: int, player_third: int | None) -> bool:
        if player_third is None:
            return banker_total in self.banker_draws_when_player_stood
        return self.banker_draws_on_player_third_card[banker_total][player_third] == "D"


SpotName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
VariantName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}$")]


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


#: the largest odds a spot may pay (to 1): beyond it, the number is not a payout (1e100)
MAX_ODDS = Decimal(10) ** 9


def _payable(odds: Decimal) -> Decimal:
    if odds > MAX_ODDS:
        raise ValueError(f"odds of {odds:E} to 1 are more than any table pays (at most 1,000,000,000 to 1)")
    return fine_figure(odds, "odds", f"odds of {odds:E} to 1")


Odds = Annotated[Decimal, Field(ge=0, allow_inf_nan=False), AfterValidator(_payable)]


class PayRow(Strict):
    """A row of a spot's paytable: the condition, and the odds it pays."""

    when: Condition
    odds: Odds = Field(description="odds paid to 1 when the condition holds")


class Requires(Strict):
    """What a wager on the spot needs beside it."""

    wager_on: Annotated[list[SpotName], Field(min_length=1)] = Field(
        description="the bettor must also wager on one of these spots (a side wager only beside a main wager)")
    at_most: bool = Field(default=False, description="no larger than the bettor's wager on those spots (the largest)")


class Spot(Strict):
    """A wager spot of the table: what wins it, what it pays, what pushes it, what it needs.

    A wager on the spot is settled by the first that holds of: a ``pushes``
    condition (the stake returned), a ``pays`` row (paid at its odds), the
    ``wins`` condition (paid at ``odds``); otherwise it loses.
    """

    title: str | None = Field(default=None, description="the spot's name in findings (default: from its key)")
    offered: bool = Field(default=True, description="the table offers it (a house may offer fewer spots)")
    wins: Condition | None = Field(default=None, description="the condition the spot wins on, paid at `odds`")
    odds: Odds | None = Field(default=None, description="winnings per unit staked (8 means 8 to 1)")
    pays: dict[str, PayRow] = Field(default={}, description="paytable rows, before `wins`: the first that holds pays its odds")
    pushes: dict[str, Condition] = Field(default={}, description="conditions that return the stake; judged first")
    commission: Annotated[Decimal, AfterValidator(commission_figure)] | None = Field(
        default=None, ge=0, lt=1, allow_inf_nan=False,
        description="share of the winnings kept by the house; the table header's `commission` replaces it on every "
                    "spot that takes one (above 0): a spot of 0 takes none, whatever the header says")
    commission_unit: Annotated[Decimal, AfterValidator(commission_figure)] | None = Field(
        default=None, gt=0, allow_inf_nan=False,
        description="the commission is rounded to a multiple of this amount (e.g. 0.25); none: exact to the cent and below",
    )
    commission_rounding: Literal["up", "half_up", "down"] = Field(
        default="up", description="how the commission is rounded to commission_unit"
    )
    differential: Literal["player", "banker"] | None = Field(
        default=None, description="the side of the table differential its wagers count on (none: they do not count)")
    table_limits: bool = Field(default=True, description="the table's posted minimum and maximum apply to its wagers")
    requires: Requires | None = None
    settled: Literal["with_the_coup", "before_third_card"] = Field(
        default="with_the_coup",
        description="when its wagers are settled: with the others once the coup is decided, or on the initial "
                    "cards, before any third card is dealt (what it pays must then read the first two cards "
                    "alone); `settlement.order` judges the moment")

    @model_validator(mode="after")
    def _settled_somehow(self):
        if (self.wins is None) != (self.odds is None):
            raise ValueError("`wins` and `odds` go together: the condition the spot wins on and what it pays")
        if self.wins is None and not self.pays:
            raise ValueError("a spot needs `wins` and `odds`, or `pays` rows: what it wins on")
        return self

    def commission_on(self, winnings: Decimal, rate: Decimal | None = None) -> Decimal:
        """The commission due on ``winnings``, rounded as the house rounds it."""
        raw = winnings * (self.commission if rate is None else rate)
        if self.commission_unit is None or not raw:
            return raw
        mode = {"up": ROUND_UP, "half_up": ROUND_HALF_UP, "down": ROUND_DOWN}[self.commission_rounding]
        return (raw / self.commission_unit).to_integral_value(rounding=mode) * self.commission_unit


def title_of(name: str, spot: Spot) -> str:
    """A spot's name in findings: its title, else its key in words (``dragon_7`` -> ``Dragon 7``)."""
    return spot.title or name.replace("_", " ").capitalize()


class Game(Strict):
    tableau: Tableau
    spots: dict[SpotName, Spot] = Field(description="the wager spots of the table, in the order findings list them")
    variants: dict[VariantName, dict[str, Any]] = Field(
        default_factory=lambda: {"punto_banco": {}, "mini_baccarat": {}},
        description="games this ruleset allows (table.game), each with its changes to `spots` "
                    "(a spot or row written null is removed)",
    )

    @model_validator(mode="before")
    @classmethod
    def _payouts_are_spots_now(cls, data):
        if isinstance(data, dict) and "payouts" in data:
            raise ValueError("`game.payouts` is now `game.spots`: each spot gives what wins it (`wins`), what it "
                             "pays (`odds`, `pays`), what pushes it (`pushes`) and its `commission` "
                             "(see docs/rule-authoring.md)")
        return data

    @model_validator(mode="after")
    def _variants_are_games(self):
        for name in self.variants:
            self.spots_of(name)
        return self

    def spots_of(self, variant: str) -> dict[str, Spot]:
        """The spots of ``variant`` (every spot, offered or not): the ruleset's spots with its changes."""
        base = {k: s.model_dump(exclude_defaults=True) for k, s in self.spots.items()}
        merged = merge_spots(base, self.variants[variant])
        out = {}
        for key, data in merged.items():
            try:
                out[key] = Spot.model_validate(data)
            except ValidationError as e:
                err = e.errors(include_url=False)[0]
                where = ".".join(str(x) for x in err["loc"])
                raise ValueError(f"variant {variant!r}, spot {key!r}{': ' + where if where else ''}: {err['msg']}") from None
        return out


def merge_spots(base: dict, over: dict) -> dict:
    """``over`` merged into ``base``, mapping into mapping; a value written ``None`` removes its key."""
    out = copy.deepcopy(base)
    for k, v in over.items():
        if v is None:
            out.pop(k, None)
        elif isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merge_spots(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


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
        "only a baccarat ruleset has a `game` section")  # one of the registry of games (compliance.games.PACKAGES)
    game: dict[str, Any] | None = Field(default=None, description="the game: tableau and spots (merged over the parent's)")
    rules: list[Rule] = []
    overrides: dict[str, RuleOverride] = {}
    redirects: dict[RuleId, RuleId] = Field(
        default={}, description="rule ids renamed: the old id -> the id the rule has now (a rule of this ruleset or of "
        "one it extends). Waivers, baselines, --select/--ignore and configuration that name the old id keep working, "
        "with a note")

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
    game_kind: str  # a key of the registry of games (compliance.games.PACKAGES)
    game: Game | None  # the baccarat tableau and spots; None for another game_kind
    game_house: list[HouseNote] = []
    rules: list[BoundRule]
    disabled: list[str] = []
    redirects: dict[str, str] = {}  # renamed rule ids: old -> the id of one of its rules (or disabled ones) now
    sha256: str = ""  # the content hash of its files (loader.chain_sha256): what reports name it by
    files: list[str] = []  # the absolute path of each file of its extends chain, the base first

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

    def spots_for(self, game: str, commission: Decimal | None = None) -> dict[str, Spot]:
        """The spots ``game`` offers (table.game, a variant of the ruleset), in order; ``commission``, if
        given, the table's rate in place of the ruleset's on every spot that takes a commission: one whose
        rate is above nought.  A spot that takes none (no ``commission``, or ``commission: 0``, as EZ
        Baccarat's Banker, 58 Pa. Code § 627a.1, and commission-free Midibaccarat's, § 629b.2) keeps taking
        none whatever the table header says."""
        spots = {k: s for k, s in self.game.spots_of(game).items() if s.offered}
        if commission is not None:
            spots = {k: s.model_copy(update={"commission": commission}) if s.commission else s
                     for k, s in spots.items()}
        return spots


HOUSE_VALUE_SCHEMA = {
    "type": "object",
    "description": "a value the regulation leaves to the house: the default, and why it is the house's",
    "properties": {"house": {"description": "the default value"}, "note": {"type": "string"}},
    "required": ["house"],
    "additionalProperties": False,
}
