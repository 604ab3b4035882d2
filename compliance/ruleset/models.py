"""The ruleset format: pydantic models that double as its JSON Schema.

A ruleset is data.  It defines the game (the drawing tableau and the
payouts) and a list of rules; each rule names a *check kind* (code, in
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

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from compliance.categories import CATEGORIES, SEVERITIES

BaccaratGame = Literal["punto_banco", "mini_baccarat", "even_money"]  # table.game of a baccarat table

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


class PayoutException(Strict):
    """A winning hand paid otherwise than the spot's odds (e.g. Banker winning on 6)."""

    points: Total = Field(description="the winning hand's final point count")
    cards: int | None = Field(default=None, description="only when the winning hand holds this many cards")
    odds: Decimal = Field(ge=0, description="odds paid to 1 instead; 0 with push=true returns the stake")
    push: bool = False


class Payout(Strict):
    odds: Decimal = Field(ge=0, description="winnings per unit staked (8 means 8 to 1)")
    commission: Decimal = Field(default=Decimal(0), ge=0, lt=1, description="share of the winnings kept by the house")
    commission_unit: Decimal | None = Field(
        default=None, gt=0,
        description="the commission is rounded to a multiple of this amount (e.g. 0.25); none: exact to the cent and below",
    )
    commission_rounding: Literal["up", "half_up", "down"] = Field(
        default="up", description="how the commission is rounded to commission_unit"
    )
    exceptions: list[PayoutException] = []

    def exception_for(self, points: int, cards: int) -> PayoutException | None:
        """The exception (the first listed) that pays a win with ``points`` on a hand of ``cards`` cards, if any."""
        for ex in self.exceptions:
            if ex.points == points and (ex.cards is None or ex.cards == cards):
                return ex
        return None

    def commission_on(self, winnings: Decimal, rate: Decimal | None = None) -> Decimal:
        """The commission due on ``winnings``, rounded as the house rounds it."""
        raw = winnings * (self.commission if rate is None else rate)
        if self.commission_unit is None or not raw:
            return raw
        mode = {"up": ROUND_UP, "half_up": ROUND_HALF_UP, "down": ROUND_DOWN}[self.commission_rounding]
        return (raw / self.commission_unit).to_integral_value(rounding=mode) * self.commission_unit


class Payouts(Strict):
    player: Payout
    banker: Payout
    tie: Payout
    on_tie: Literal["push", "lose"] = Field(
        default="push", description="what happens to Player and Banker wagers when the coup is a tie"
    )


class Game(Strict):
    tableau: Tableau
    payouts: Payouts
    variants: dict[BaccaratGame, dict[str, Any]] = Field(
        default_factory=lambda: {"punto_banco": {}, "mini_baccarat": {}},
        description="games this ruleset allows (table.game), each with its changes to `payouts`",
    )


class Rule(Strict):
    id: Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9_.-]*$")]
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


class RuleOverride(Strict):
    """Changes a ruleset makes to a rule it inherits, by id."""

    title: str | None = None
    severity: Severity | None = None
    citation: Citation | None = None
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
    game_kind: Literal["baccarat", "pai_gow_poker"] | None = Field(
        default=None, description="the game whose transcripts the rules check (default: the parent's, else baccarat); "
        "only a baccarat ruleset has a `game` section")
    game: dict[str, Any] | None = Field(default=None, description="the game: tableau and payouts (merged over the parent's)")
    rules: list[Rule] = []
    overrides: dict[str, RuleOverride] = {}

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
    game_kind: str = "baccarat"
    game: Game | None  # the baccarat tableau and payouts; None for another game_kind
    game_house: list[HouseNote] = []
    rules: list[BoundRule]
    disabled: list[str] = []
    sha256: str = ""  # the content hash of its files (loader.chain_sha256): what reports name it by
    files: list[str] = []  # the absolute path of each file of its extends chain, the base first

    def cite(self, c: Citation | None) -> str:
        if c is None:
            return ""
        src = self.sources.get(c.source)
        prefix = src.cite_as if src else f"{c.source} "
        return prefix + ", ".join(c.at)

    def payouts_for(self, game: str, commission: Decimal | None = None) -> Payouts:
        """The payouts of ``game``; ``commission``, if given, the table's rate on a winning Banker wager
        in place of the ruleset's."""
        changes = self.game.variants[game]  # most games change nothing: their payouts need no validation
        payouts = Payouts.model_validate(deep_merge(self.game.payouts.model_dump(), changes)) if changes \
            else self.game.payouts
        if commission is not None:
            payouts = payouts.model_copy(update={"banker": payouts.banker.model_copy(update={"commission": commission})})
        return payouts


def deep_merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out



HOUSE_VALUE_SCHEMA = {
    "type": "object",
    "description": "a value the regulation leaves to the house: the default, and why it is the house's",
    "properties": {"house": {"description": "the default value"}, "note": {"type": "string"}},
    "required": ["house"],
    "additionalProperties": False,
}
