"""The pai gow poker transcript format, version 1, as pydantic models: its one source of truth.

It follows the baccarat transcript's conventions (``docs/pai-gow-transcript.md``):
the same header-then-coups layout, ``.json`` and ``.jsonl`` encodings, ``x-``
vendor keys, unknown keys as errors, exact decimal amounts.  A round of play
is a ``coup`` object so that findings, reports, waivers and baselines point
at rounds exactly as they point at baccarat coups.  The msgspec structs of
the hot path are derived from these models by
:class:`compliance.transcript.codec.Codec`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from compliance.games.pai_gow.hands import CARDS
from compliance.transcript.fields import SEATED_SCHEMA, Money, Rate, SeatKey, SpecModel

FORMAT = "pai-gow-transcript"

Card = Literal[tuple(sorted(CARDS))]  # type: ignore[valid-type]
Box = Annotated[int, Field(ge=1, description="a betting box; boxes are numbered like the seats in front of them, 1 up")]
Position = Box | Literal["dealer"]


# ---------------------------------------------------------------- header


class Limits(SpecModel):
    min_wager: Money | None = None
    max_wager: Money | None = None


class Table(SpecModel):
    id: str
    game: Literal["pai_gow_poker"]
    seats: Annotated[int, Field(ge=1, description="number of betting boxes (and seats), numbered 1 to seats")]
    jurisdiction: str | None = Field(default=None, description="ruleset id, e.g. us-in-pai-gow")
    currency: str | None = None
    limits: Limits | None = None
    commission: Rate | None = Field(
        default=None, description="commission rate on winnings; default from the ruleset")
    boxes_per_patron: Annotated[int, Field(ge=1)] | None = Field(
        default=None, description="the most boxes one patron may play at this table (68 IAC 10-9-4(e)); "
                                  "default from the ruleset")


class Header(SpecModel):
    """Everything of a transcript but its rounds (line 1 of a ``.jsonl`` file)."""

    format: Literal["pai-gow-transcript"]
    version: Literal[1]
    table: Table


# ---------------------------------------------------------------- events


class _Event(SpecModel):
    at: str | None = Field(default=None, description="ISO 8601 timestamp")


class _BoxEvent(_Event):
    box: Box
    patron: str | None = Field(default=None, description="who plays the box; default: the patron seated at it")


class Wager(_BoxEvent):
    type: Literal["wager"]
    amount: Money


class WagerAdjust(_BoxEvent):
    type: Literal["wager_adjust"]
    amount: Money = Field(description="the box's wager is set to this amount (0 removes it)")
    reason: Literal["withdrawn", "limit", "other"]


class Surrender(_BoxEvent):
    type: Literal["surrender"]
    amount: Money = Field(description="the part of the wager the house kept; the rest went back to the player")


class Deal(_Event):
    type: Literal["deal"]
    position: Position
    cards: list[Card]


class SetHands(_Event):
    type: Literal["set"]
    position: Position
    high: Annotated[list[Card], Field(min_length=5, max_length=5)] = Field(description="the five-card hand")
    low: Annotated[list[Card], Field(min_length=2, max_length=2)] = Field(description="the two-card hand")


class Settle(_BoxEvent):
    type: Literal["settle"]
    outcome: Literal["win", "lose", "push"]
    amount: Money


class Commission(_BoxEvent):
    type: Literal["commission"]
    amount: Money


class Void(_Event):
    type: Literal["void"]
    reason: Literal["misdeal", "supervisor", "other"]
    note: str | None = None


Event = Annotated[
    Wager | WagerAdjust | Surrender | Deal | SetHands | Settle | Commission | Void,
    Field(discriminator="type"),
]


class Round(SpecModel):
    """One round of play; named ``coup`` in the file so findings point at rounds as at coups."""

    coup: Annotated[int, Field(ge=0)] = Field(description="the round's number; unique and increasing")
    events: list[Event]
    seated: dict[SeatKey, str] | None = Field(
        default=None, description="occupied seats at the start of the round: seat number -> patron id",
        json_schema_extra=SEATED_SCHEMA)


class Transcript(Header):
    """A whole ``.json`` pai gow poker transcript: the header plus its rounds."""

    coups: list[Round]
