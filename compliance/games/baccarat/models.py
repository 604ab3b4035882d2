"""The transcript format as pydantic models: the one source of truth.

The models of version 1 and its revision 1.1 give the published JSON Schema (``baccarat-audit schema
transcript``) and validate slow-path input; :mod:`compliance.transcript.codec` derives the hot path's
msgspec structs from them, so the two cannot drift.  Keys starting with ``x-`` are vendor extensions;
any other unknown key is an error naming it and its JSON path.  A version 1 transcript is read by the
``...V1`` models, which keep its spots, games and limits to the v1 text's.

The format, field by field, and what 1.1 adds: docs/transcript.md.
"""

from __future__ import annotations

import typing
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, field_validator

from compliance.cards import CANONICAL, PARTIAL
from compliance.transcript.fields import (  # noqa: F401
    RECORDED_DESCRIPTION,
    SEATED_SCHEMA,
    Evidence,
    Money,
    Rate,
    RecordFault,
    RejectedRow,
    SeatKey,
    SpecModel,
    Staff,
    StaffStretch,
    strip_vendor_keys,
)

# a card: rank then suit; or, format 1.1, recorded in part (7?, 0?, ?? for a card not read)
CardCode = Literal[tuple(sorted(CANONICAL)) + tuple(sorted(PARTIAL))]  # type: ignore[valid-type]
Hand = Literal["player", "banker"]
BaccaratGame = Literal["punto_banco", "mini_baccarat", "even_money"]  # table.game of a baccarat table in format v1
SpotV1 = Literal["player", "banker", "tie"]  # the spots of format 1
# format 1.1: any spot the table's ruleset declares (checked against it when the coup is replayed)
Spot = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}$", description="a spot the table's ruleset declares "
                            "(format 1: player, banker or tie)")]
GameName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}$", description="a game the ruleset declares "
                                "(format 1: punto_banco, mini_baccarat or even_money)")]
Seat = Annotated[int, Field(ge=0)]
Points = Annotated[int, Field(ge=0, le=9)]


# ---------------------------------------------------------------- header


class LimitsV1(SpecModel):
    min_wager: Money | None = None
    max_wager: Money | None = None
    table_differential: Money | None = None


class SpotLimits(SpecModel):
    min_wager: Money | None = None
    max_wager: Money | None = None


class Limits(LimitsV1):
    spots: dict[Spot, SpotLimits] | None = Field(
        default=None, description="format 1.1: the minimum and maximum posted for a spot of its own (a side wager)")


class Table(SpecModel):
    id: str
    game: GameName
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
    commission: Rate | None = None


class Shoe(SpecModel):
    id: str
    decks: Annotated[int, Field(ge=1, le=16)]


class TableV1(Table):
    game: BaccaratGame
    limits: LimitsV1 | None = None


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
    date: Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")] | None = Field(
        default=None, description="format 1.1: the day the recording was dealt (YYYY-MM-DD), where its events carry "
        "no timestamp: the ruleset's history judges its coups by the rules in force that day")
    rejected_rows: list[RejectedRow] | None = Field(
        default=None, description="rows of the recorders' logs the import could not use (format 1.1): each is "
        "reported as a finding (record.rejected-row)")

    @field_validator("version", mode="before")
    @classmethod
    def _the_integer_one(cls, v):
        if isinstance(v, (bool, float)):  # true == 1.0 == 1 in Python; the format says the integer 1
            raise ValueError('version must be the integer 1 (or the string "1.1")')
        return v


class HeaderV1(Header):
    """The header of a version 1 transcript: its games and limits are exactly the frozen v1 text's."""

    table: TableV1


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
    Offer | ShoeReturn | Wager | WagerAdjust | Announce | CardDealt | CardMove
    | Reconstruct | HandPass | HandReturn | Result | Settle | Commission | Void,
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
    record_faults: list[RecordFault] | None = Field(
        default=None, description="faults of the recorder the import found in this coup's rows (format 1.1): each "
        "is reported as a finding (record.<fault>)")
    cards_in_order: Annotated[list[CardCode], Field(min_length=4)] | None = Field(
        default=None, description="the cards the shoe gave this coup, in the order they were dealt (four at "
        "least: a deal is four cards), "
        "where the record does not say which hand each went to (format 1.1: a log of the order only whose "
        "additional cards no single reading of the tableau places); judged by whether any reading complies")
    hands_unsplit: Annotated[list[CardCode], Field(min_length=5, max_length=5)] | None = Field(
        default=None, description="both hands' five cards, the Player's first, where the record does not say how "
        "many are the Player's (format 1.1: a cell of both hands that splits either way, the Player two cards or "
        "three); nothing that needs the hands is judged, only whether either split complies with the tableau")


# ---------------------------------------------------------------- version 1, as frozen


class WagerV1(Wager):
    spot: SpotV1


class WagerAdjustV1(WagerAdjust):
    spot: SpotV1


class SettleV1(Settle):
    spot: SpotV1


EventV1 = Annotated[
    Offer | ShoeReturn | WagerV1 | WagerAdjustV1 | Announce | CardDealt | CardMove
    | Reconstruct | HandPass | HandReturn | Result | SettleV1 | Commission | Void,
    Field(discriminator="type"),
]


class CoupV1(Coup):
    """A coup of a version 1 transcript: its spots are player, banker and tie."""

    events: list[EventV1]


def _version_one_is_frozen(schema: dict) -> None:
    """The JSON Schema says what the readers do: a document of version 1 keeps to the spots and games of v1."""
    schema["patternProperties"] = {"^x-": {}}
    spot = {"properties": {"spot": {"enum": list(typing.get_args(SpotV1))}}}
    schema["allOf"] = [{
        "if": {"properties": {"version": {"const": 1}}, "required": ["version"]},
        "then": {"properties": {
            "table": {"properties": {"game": {"enum": list(typing.get_args(BaccaratGame))},
                                     "limits": {"properties": {"spots": False}}}},
            "coups": {"items": {"properties": {"events": {"items": {
                "if": {"properties": {"type": {"enum": ["wager", "wager_adjust", "settle"]}}},
                "then": spot}}}}},
        }},
    }]


class Transcript(Header):
    """A whole ``.json`` transcript: the header plus its coups."""

    model_config = ConfigDict(json_schema_extra=_version_one_is_frozen)

    coups: list[Coup]
