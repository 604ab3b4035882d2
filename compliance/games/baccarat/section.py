"""The `game` section of a baccarat ruleset: the drawing tableau and the wager spots as data.

A ruleset of ``game_kind: baccarat`` gives its tableau (which totals draw) and its spots (what wins each, what
it pays, what pushes it, its commission) in its ``game`` section, merged over its parent's by the loader and
validated into :class:`Section` (the model this game hands the loader as its ``section``).  The conditions a
spot is settled on are the shared condition language of :mod:`compliance.ruleset.models`.
"""

from __future__ import annotations

import copy
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Decimal
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, ValidationError, model_validator

from compliance.figures import fine_figure
from compliance.ruleset.models import Condition, Strict
from compliance.transcript.fields import commission_figure

Total = Annotated[int, Field(ge=0, le=9)]


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


class Section(Strict):
    """The `game` section of a baccarat ruleset: the drawing tableau, the wager spots and the variants (each a
    game a table may play, `table.game`, with its changes to the spots)."""


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

    def spots_for(self, game: str, commission: Decimal | None = None) -> dict[str, Spot]:
        """The spots ``game`` offers (table.game, a variant of the ruleset), in order; ``commission``, if
        given, the table's rate in place of the ruleset's on every spot that takes a commission: one whose
        rate is above nought.  A spot that takes none (no ``commission``, or ``commission: 0``, as EZ
        Baccarat's Banker, 58 Pa. Code § 627a.1, and commission-free Midibaccarat's, § 629b.2) keeps taking
        none whatever the table header says."""
        spots = {k: s for k, s in self.spots_of(game).items() if s.offered}
        if commission is not None:
            spots = {k: s.model_copy(update={"commission": commission}) if s.commission else s
                     for k, s in spots.items()}
        return spots


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


