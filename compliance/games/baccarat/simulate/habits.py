"""Patrons with a habit, seated all night: the integrity tests' innocents and the wonging counter.

``--inject innocent:WAY[@RATE]`` seats one innocent patron of each way asked for: none has an advantage
or a dealer's favour, so the integrity rules must name none.  ``--inject
integrity.advantage-play:wonging[@RATE]`` seats the guilty one, who wagers only when the count says a
side wager favours the patron.

Each way and its default rate: docs/integrity.md, "Innocents and the guilty, simulated".
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from compliance.cards import POINTS
from compliance.games.baccarat.odds import POINTS_PER_DECK
from compliance.games.baccarat.replay import BANKER, PLAYER
from compliance.games.common import plain

#: the innocents, each with its default RATE
HABITS = {"dragon-due": 1.0, "late-shoe": 0.5, "raising-late": 0.15, "error-prone": 0.12, "latecomer": 0.1}
WORDS = {
    "dragon-due": "an innocent patron who places the first side wager once it has not won for 30 coups ('the "
                  "Dragon is due')",
    "late-shoe": "an innocent patron who places the first side wager only in the last two to three decks of a shoe",
    "raising-late": "an innocent patron who places the first side wager now and then, four times larger in the last "
                    "three decks of a shoe",
    "error-prone": "an innocent patron with odd stakes whom every dealer pays wrong now and then, either way",
    "latecomer": "an innocent patron who wagers late with every dealer",
    "wonging": "one patron, seated all night, wagers nothing unless the count of the cards out of the shoe says a "
               "side wager (Dragon 7, Panda 8) favours the patron; then a main wager and that side wager",
}
#: what each way makes that a per-coup rule reports
REPORTED = {"error-prone": ("settlement.wrong-amount",), "latecomer": ("wager.late",)}
DUE_AFTER = 30  # coups without the side wager winning, after which the Dragon is "due"


@dataclass
class Habit:
    way: str
    seat: int
    patron: str
    rate: float
    rng: random.Random
    counts: dict | None = None  # wonging: each side wager's count
    since: int = 0  # dragon-due: coups since the side wager last won
    shoe: str | None = None  # late-shoe: the shoe in play, and the cards left from which the habit plays in it
    late_from: int = 0
    made: list = field(default_factory=list)


def cards_left(shoe) -> int:
    return len(shoe.cards) - shoe.next


def points_left(shoe) -> list[int]:
    left = [n * shoe.decks for n in POINTS_PER_DECK]
    for code in shoe.cards[:shoe.next]:
        left[POINTS[code]] -= 1
    return left


class HabitSteps:
    """The habits' wagers, settlements and late wagers, mixed into CoupPlay."""

    habits: dict  # seat -> Habit

    def fits(self, spot: str, amount) -> bool:
        """A main wager of ``amount`` on ``spot`` keeps the table within its differential and limits."""
        t = self.g.table
        if amount > t.max_wager:
            return False
        side = self.g.spots[spot].differential
        if side is None:
            return True
        player = self.totals[PLAYER] + (amount if side == PLAYER else 0)
        banker = self.totals[BANKER] + (amount if side == BANKER else 0)
        return abs(player - banker) <= t.table_differential

    def habit_wager(self, seat: int, habit: Habit) -> None:
        t, rng = self.g.table, habit.rng
        side = next((s for s in self.g.side_spots if self.g.spots[s].requires is not None), None)
        if habit.way == "wonging":
            left = points_left(self.shoe)
            good = [spot for spot, count in habit.counts.items()
                    if (edge := count.estimate(left)) is not None and edge > 0]
            if not good or rng.random() >= habit.rate:
                return  # sits out: no wager at all
            main = rng.choice(self.g.spots[good[0]].requires.wager_on)
            if not self.fits(main, t.min_wager * 4):
                return
            self.add_wager(seat, main, t.min_wager * 4)
            for spot in good:
                if main in self.g.spots[spot].requires.wager_on:
                    self.add_wager(seat, spot, t.min_wager * 4)
                    self.counted.append(spot)
            return
        if habit.way == "error-prone":  # odd stakes: a unit over a few minimums
            amount = t.min_wager * rng.choice((1, 2, 3, 5)) + t.unit * rng.randrange(1, 10)
            main = self.g.side_spot[rng.choice((PLAYER, BANKER))]
            if self.fits(main, amount):
                self.add_wager(seat, main, amount)
            return
        wager_on = self.g.spots[side].requires.wager_on if side is not None else self.g.main_spots[:2]
        main = rng.choice(list(wager_on))
        late = cards_left(self.shoe) <= 3 * 52
        amount = t.min_wager * (4 if habit.way == "raising-late" else rng.choice((1, 2, 4)))
        if not self.fits(main, amount):
            return
        self.add_wager(seat, main, amount)
        if side is None or habit.way == "latecomer":
            return
        if habit.way == "dragon-due":
            wants = habit.since >= DUE_AFTER and rng.random() < habit.rate
        elif habit.way == "late-shoe":
            if habit.shoe != self.shoe.id:
                habit.shoe, habit.late_from = self.shoe.id, rng.randrange(2 * 52, 3 * 52 + 1)
            wants = cards_left(self.shoe) <= habit.late_from and rng.random() < habit.rate
        else:  # raising-late
            wants = rng.random() < habit.rate
        if wants:
            amount = t.min_wager * (4 if habit.way == "raising-late" and late else rng.choice((1, 2)))
            if self.g.spots[side].requires.at_most:
                amount = min(amount, self.stakes[(seat, main)])
            self.add_wager(seat, side, amount)

    def habit_late(self) -> None:
        """The latecomers' wagers after "no more bets"."""
        if self.no_bet or not self.g.procedure.reports("wager.late", self.method):
            return
        minor = self.g.minor_spot
        for seat, habit in self.habits.items():
            if habit.way != "latecomer" or seat not in self.seated or (seat, minor) in self.stakes \
                    or habit.rng.random() >= habit.rate:
                continue
            self.add_wager(seat, minor, self.g.table.min_wager)
            habit.made.append((self.number, "wager.late",
                               f"seat {seat} wagered {plain(self.g.table.min_wager)} on {minor} after \"no more bets\" "
                               f"(a latecomer with every dealer)"))

    def habit_slips(self, entries: list, was: list, slip) -> None:
        """The error-prone patrons' settlements paid wrong, either way (``was``: each entry's amount before any
        other slip of the coup: an entry already wrong is left as it is)."""
        if not self.g.procedure.reports("settlement.wrong-amount", self.method):
            return
        unit = self.g.table.unit
        for e, before in zip(entries, was, strict=True):
            habit = self.habits.get(e[0])
            if habit is None or habit.way != "error-prone" or e[2] == "push" or e[3] != before \
                    or habit.rng.random() >= habit.rate:
                continue
            patrons = habit.rng.random() < 0.5
            wrong = slip(e[2], before, unit, patrons)
            if wrong is None:
                wrong = slip(e[2], before, unit, not patrons)
            e[3] = wrong
            habit.made.append((self.number, "settlement.wrong-amount",
                               f"seat {e[0]} {e[1]} wager settled {e[2]} {plain(wrong)}, not {plain(before)} (an error-prone "
                               f"patron, paid wrong by every dealer)"))
