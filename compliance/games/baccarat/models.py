"""The transcript format v1 as pydantic models: the one source of truth.

These models are the contract of ``../shared/spec/transcript-v1.md``.  They
produce the published JSON Schema (``baccarat-audit schema transcript``) and
validate slow-path input; :mod:`compliance.transcript.codec` derives the
msgspec structs used on the hot path from them, so the two cannot drift.

Keys starting with ``x-`` are vendor extensions: accepted anywhere, ignored.
Any other unknown key is an error that names the key and its JSON path.

Format 1.1 adds, all optional (``docs/transcript.md``): ``"version": "1.1"``;
``recorded`` in the header and in a coup (what the recording holds);
``staff`` (who ran the table) in the header, by stretches of coups, and in a
coup; card codes recorded in part (``7?``, ``0?``, ``??``).  A version 1
transcript means exactly what it meant.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal, Union

from pydantic import Field, field_validator

from compliance.cards import CANONICAL, PARTIAL
from compliance.ruleset.models import BaccaratGame
from compliance.transcript.fields import (  # noqa: F401
    RECORDED_DESCRIPTION,
    SEATED_SCHEMA,
    Evidence,
    Money,
    SeatKey,
    SpecModel,
    Staff,
    StaffStretch,
    strip_vendor_keys,
)

# a card: rank then suit; or, format 1.1, recorded in part (7?, 0?, ?? for a card not read)
CardCode = Literal[tuple(sorted(CANONICAL)) + tuple(sorted(PARTIAL))]  # type: ignore[valid-type]
Hand = Literal["player", "banker"]
Spot = Literal["player", "banker", "tie"]
Seat = Annotated[int, Field(ge=0)]
Points = Annotated[int, Field(ge=0, le=9)]


# ---------------------------------------------------------------- header


class Limits(SpecModel):
    min_wager: Money | None = None
    max_wager: Money | None = None
    table_differential: Money | None = None


class Table(SpecModel):
    id: str
    game: BaccaratGame
    seats: Annotated[int, Field(ge=1)]
    jurisdiction: str | None = None
    casino: str | None = Field(default=None, description="the casino's name, for reports only (the spec's header example carries it)")
    seat_order: list[Seat] | None = Field(
        default=None,
        description="every seat number in counter-clockwise order, starting nearest the dealer's right",
    )
    dealing_method: str | None = None
    currency: str | None = None
    limits: Limits | None = None
    commission: Annotated[Decimal, Field(ge=0, lt=1, allow_inf_nan=False, strict=False)] | None = None


class Shoe(SpecModel):
    id: str
    decks: Annotated[int, Field(ge=1, le=16)]


class Header(SpecModel):
    """Everything of a transcript but its coups (line 1 of a ``.jsonl`` file)."""

    format: Literal["baccarat-transcript"]
    version: Literal[1, "1.1"] = Field(description='the integer 1, or "1.1" for a transcript that uses the '
                                                  "additions of format 1.1")
    table: Table
    shoes: Annotated[list[Shoe], Field(min_length=1)]
    recorded: list[Evidence] | None = Field(default=None, description=RECORDED_DESCRIPTION)
    staff: list[StaffStretch] | None = Field(
        default=None,
        description="who ran the table, by stretches of coups (format 1.1); a coup's `staff` overrides it")

    @field_validator("version", mode="before")
    @classmethod
    def _the_integer_one(cls, v):
        if isinstance(v, (bool, float)):  # true == 1.0 == 1 in Python; the format says the integer 1
            raise ValueError('version must be the integer 1 (or the string "1.1")')
        return v


# ---------------------------------------------------------------- events


class _Event(SpecModel):
    at: str | None = Field(default=None, description="ISO 8601 timestamp")


class Offer(_Event):
    type: Literal["offer"]
    item: Literal["shoe", "banker_marker"]
    seat: Seat
    accepted: bool


class ShoeReturn(_Event):
    type: Literal["shoe_return"]


class Wager(_Event):
    type: Literal["wager"]
    spot: Spot
    amount: Money
    seat: Seat | None = None
    patron: str | None = None


class WagerAdjust(_Event):
    type: Literal["wager_adjust"]
    spot: Spot
    amount: Money
    reason: Literal["table_differential", "withdrawn", "limit", "other"]
    seat: Seat | None = None
    patron: str | None = None


class Announce(_Event):
    type: Literal["announce"]
    call: Literal["no_more_bets", "cards"]


class CardDealt(_Event):
    type: Literal["card"]
    card: CardCode
    to: Literal["player", "banker", "burn", "discard"]
    face: Literal["up", "down"] | None = None
    found_face_up: bool | None = None
    carried_over: bool | None = None


class CardMove(_Event):
    type: Literal["card_move"]
    card: CardCode
    to: Literal["player", "banker", "next_coup", "discard"]


class Reconstruct(_Event):
    type: Literal["reconstruct"]
    player: list[CardCode]
    banker: list[CardCode]


class HandPass(_Event):
    type: Literal["hand_pass"]
    hand: Hand
    seat: Seat
    accepted: bool
    cards: Literal["initial", "third"] = "initial"


class HandReturn(_Event):
    type: Literal["hand_return"]
    hand: Hand


class Result(_Event):
    type: Literal["result"]
    player_points: Points
    banker_points: Points
    winner: Literal["player", "banker", "tie"]


class Settle(_Event):
    type: Literal["settle"]
    spot: Spot
    outcome: Literal["win", "lose", "push"]
    amount: Money
    seat: Seat | None = None
    patron: str | None = None


class Commission(_Event):
    type: Literal["commission"]
    amount: Money
    seat: Seat | None = None
    patron: str | None = None


class Void(_Event):
    type: Literal["void"]
    reason: Literal["insufficient_cards", "misdeal", "supervisor", "other"]
    note: str | None = None


Event = Annotated[
    Union[
        Offer, ShoeReturn, Wager, WagerAdjust, Announce, CardDealt, CardMove, Reconstruct,
        HandPass, HandReturn, Result, Settle, Commission, Void,
    ],
    Field(discriminator="type"),
]


class Coup(SpecModel):
    coup: Annotated[int, Field(ge=0)]
    shoe: str
    events: list[Event]
    dealing_method: str | None = None
    no_bet: bool = False
    seated: dict[SeatKey, str] | None = Field(default=None, json_schema_extra=SEATED_SCHEMA)
    recorded: list[Evidence] | None = Field(
        default=None, description="what the recording holds of this coup, in place of the header's `recorded` "
        "(format 1.1): e.g. a coup whose cards were not captured")
    staff: Staff | None = Field(default=None, description="who ran the table in this coup (format 1.1)")


class Transcript(Header):
    """A whole ``.json`` transcript: the header plus its coups."""

    coups: list[Coup]
