"""The high card transcript format: a header, and coups of wagers, one deal and settlements."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from compliance.transcript.fields import Money, SpecModel

RANKS = "23456789TJQKA"
Rank = Literal[tuple(RANKS)]  # type: ignore[valid-type]


class Table(SpecModel):
    id: str
    game: Literal["high_card"]
    jurisdiction: str | None = None


class Header(SpecModel):
    format: Literal["high-card-transcript"]
    version: Literal[1]
    table: Table


class Wager(SpecModel):
    type: Literal["wager"]
    seat: Annotated[int, Field(ge=1)]
    amount: Money


class Deal(SpecModel):
    type: Literal["deal"]
    player: Rank
    dealer: Rank


class Settle(SpecModel):
    type: Literal["settle"]
    seat: Annotated[int, Field(ge=1)]
    outcome: Literal["win", "lose", "push"]
    amount: Money


Event = Annotated[Wager | Deal | Settle, Field(discriminator="type")]


class Coup(SpecModel):
    coup: Annotated[int, Field(ge=0)]
    events: list[Event]


class Transcript(Header):
    coups: list[Coup]
