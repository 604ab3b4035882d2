"""The simulated table: its seats, limits and patrons, and the transcript header they make."""

from __future__ import annotations

import dataclasses
import random
import typing
from dataclasses import dataclass
from decimal import Decimal

from compliance.games.baccarat.models import BaccaratGame, SpotV1


@dataclass(frozen=True)
class TableSetup:
    """A table as its header describes it.

    Seats are numbered from 1 (13 is skipped, as on many tables, once there are
    thirteen or more), and the counter-clockwise order starts at a seat the
    seed chooses, so that "nearest the dealer's right" and "lowest numbered
    seat" are different seats.
    """

    id: str
    game: str
    jurisdiction: str
    seat_order: tuple[int, ...]
    dealing_method: str | None
    min_wager: Decimal
    max_wager: Decimal
    table_differential: Decimal
    unit: Decimal  # wagers are made in multiples of this
    commission: Decimal | None  # the table's own commission rate; None: the ruleset's
    decks: int
    version: int | str = 1  # the transcript format: "1.1" where the game or its spots need it, or staff is named
    staff: tuple[tuple[int, int, str], ...] = ()  # (first coup, last coup, dealer) of each dealer's stretch
    currency: str | None = None  # the header's table.currency (ISO 4217); None: not said
    # how the staff log is written: "plain"; "redundant" (each stretch's first coup told again as a stretch of its
    # own: true); "contradictory" (besides, every fourth stretch told again ending before it starts, and the
    # next dealer's stretch told from two coups early: two dealers over those coups)
    staff_log: str = "plain"

    @classmethod
    def choose(cls, rng: random.Random, *, jurisdiction: str, game: str, seats: int, decks: int,
               dealing_method: str | None, commission: Decimal | None, table_id: str = "SIM-01") -> TableSetup:
        numbers = [n for n in range(1, seats + 2) if not (seats >= 13 and n == 13)][:seats]
        start = rng.randrange(seats)
        return cls(
            id=table_id, game=game, jurisdiction=jurisdiction, seat_order=tuple(numbers[start:] + numbers[:start]),
            dealing_method=dealing_method, min_wager=Decimal(25), max_wager=Decimal(5000),
            table_differential=Decimal(5000), unit=Decimal(5), commission=commission, decks=decks,
        )

    def with_version(self, game) -> TableSetup:
        """The table, writing format 1.1 where its game or the spots it offers are not those of format 1."""
        v1_games, v1_spots = typing.get_args(BaccaratGame), typing.get_args(SpotV1)
        if self.game in v1_games and all(spot in v1_spots for spot in game.spots) and not self.staff:
            return self
        return dataclasses.replace(self, version="1.1")

    def header(self, shoes: list[str]) -> dict:
        table: dict = {
            "id": self.id, "jurisdiction": self.jurisdiction, "game": self.game, "seats": len(self.seat_order),
            "seat_order": list(self.seat_order),
        }
        if self.dealing_method is not None:
            table["dealing_method"] = self.dealing_method
        if self.currency is not None:
            table["currency"] = self.currency
        table["limits"] = {"min_wager": self.min_wager, "max_wager": self.max_wager,
                           "table_differential": self.table_differential}
        if self.commission is not None:
            table["commission"] = self.commission
        head = {"format": "baccarat-transcript", "version": self.version, "table": table,
                "shoes": [{"id": s, "decks": self.decks} for s in shoes]}
        if self.staff:
            head["staff"] = self.staff_stretches()
        return head

    def staff_stretches(self) -> list[dict]:
        """The header's staff stretches, as the staff log is written (``staff_log``)."""
        out = [{"from_coup": first, "to_coup": last, "dealer": dealer} for first, last, dealer in self.staff]
        if self.staff_log == "plain":
            return out
        out += [{"from_coup": first, "to_coup": first, "dealer": dealer} for first, _, dealer in self.staff]
        if self.staff_log == "contradictory":
            for i, (first, last, dealer) in enumerate(self.staff):
                if i % 4 == 0 and last > first:
                    out.append({"from_coup": last, "to_coup": first, "dealer": dealer})
                if i % 4 == 2 and i + 1 < len(self.staff) and first + 2 <= last:
                    after = self.staff[i + 1]
                    out.append({"from_coup": last - 1, "to_coup": after[1], "dealer": after[2]})
        return out

    def contradicted(self) -> list[tuple[int, int]]:
        """The coups a contradictory staff log leaves in doubt (first, last), in order."""
        if self.staff_log != "contradictory":
            return []
        out = []
        for i, (first, last, _) in enumerate(self.staff):
            if i % 4 == 0 and last > first:
                out.append((first, last))
            if i % 4 == 2 and i + 1 < len(self.staff) and first + 2 <= last:
                out.append((last - 1, last))
        return out


class Patrons:
    """Who sits where, coup after coup: patrons come and go; some stand behind the seats."""

    def __init__(self, rng: random.Random, seat_order: tuple[int, ...], standing_allowed: bool, leave: float = 0.03):
        self.rng = rng
        self.leave = leave  # the chance a seated patron leaves after a coup (1 / the coups a patron stays)
        self.seat_order = seat_order
        self.standing_allowed = standing_allowed
        self.count = 0
        self.seated: dict[int, str] = {}
        self.standing: list[str] = []
        for seat in seat_order:
            if rng.random() < 0.6:
                self.seated[seat] = self._new()

    def _new(self) -> str:
        self.count += 1
        return f"P-{self.count:04d}"

    def next_coup(self, keep: set = frozenset()) -> tuple[dict[int, str], list[str]]:
        """The patrons of the next coup: seated (seat -> patron, in seat order) and standing.
        The patrons in the ``keep`` seats (holding the shoe or the marker) stay."""
        rng = self.rng
        for seat in self.seat_order:
            if seat in self.seated:
                if seat not in keep and rng.random() < self.leave:
                    del self.seated[seat]
            elif rng.random() < 0.05:
                self.seated[seat] = self._new()
        if self.standing_allowed:
            self.standing = [p for p in self.standing if rng.random() > 0.1]
            if len(self.standing) < 3 and rng.random() < 0.05:
                self.standing.append(self._new())
        ordered = {s: self.seated[s] for s in self.seat_order if s in self.seated}
        return ordered, list(self.standing)
