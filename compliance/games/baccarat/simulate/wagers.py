"""Wagers at the simulated table: within the limits, within the table differential, by those allowed.

A wager that would take the difference between the Player and Banker totals
past the table differential is either not made, or, where the ruleset has a
reduction rule, made and then cut back: every wager on the side that exceeds,
by the same proportion, rounded down to the rule's currency unit, never below
the table minimum.
"""

from __future__ import annotations

from decimal import ROUND_FLOOR, Decimal

from compliance.cards import POINTS
from compliance.games.baccarat.odds import POINTS_PER_DECK
from compliance.games.baccarat.replay import BANKER, PLAYER, ZERO, describe_bettor, side_totals
from compliance.games.common import plain  # noqa: F401  (the simulator writes amounts as dealers do)

#: wager sizes, in table minimums: small numbers repeat, so equal highest wagers are common
STAKE_MULTIPLES = (1, 1, 2, 2, 4, 4, 10, 20, 40, 200)
SIDE_WAGER_RATE = 0.25  # a bettor with a main wager also makes a side wager this often, where the table offers one
SIDE_MULTIPLES = (1, 1, 1, 2, 2, 4)


def pro_rata(stakes: dict, limit: Decimal, unit: Decimal, spots: dict) -> dict[tuple, Decimal]:
    """The reduced wagers of the side over the differential: each by the same proportion, just enough
    to bring the difference within ``limit``, rounded down to ``unit``.  Only the changed wagers."""
    t = side_totals(stakes, spots)
    side = PLAYER if t[PLAYER] > t[BANKER] else BANKER
    other = BANKER if side == PLAYER else PLAYER
    ratio = (t[other] + limit) / t[side]
    out = {}
    for key, amount in stakes.items():
        if spots[key[1]].differential == side:
            cut = (amount * ratio / unit).to_integral_value(rounding=ROUND_FLOOR) * unit
            if cut != amount:
                out[key] = cut
    return out


class WagerSteps:
    """The wagering part of a coup (mixed into :class:`~compliance.games.baccarat.simulate.play.CoupPlay`)."""

    def bettors(self) -> list[int | str]:
        return list(self.seated) + ["patron:" + p for p in self.standing]

    def add_wager(self, bettor: int | str, spot: str, amount: Decimal) -> None:
        key = (bettor, spot)
        self.stakes[key] = self.stakes.get(key, ZERO) + amount
        side = self.g.spots[spot].differential
        if side is not None:
            self.totals[side] += amount
        ev: dict = {"type": "wager"}
        ev.update(who(bettor))
        ev.update({"spot": spot, "amount": plain(amount)})
        self.events.append(ev)

    def adjust_wager(self, bettor: int | str, spot: str, amount: Decimal, reason: str) -> None:
        side = self.g.spots[spot].differential
        if side is not None:
            self.totals[side] += amount - self.stakes.get((bettor, spot), ZERO)
        if amount:
            self.stakes[(bettor, spot)] = amount
        else:
            self.stakes.pop((bettor, spot), None)
        ev: dict = {"type": "wager_adjust"}
        ev.update(who(bettor))
        ev.update({"spot": spot, "amount": plain(amount), "reason": reason})
        self.events.append(ev)

    def place_wagers(self) -> None:
        """Patrons wager within the table's limits; the Banker marker's holder wagers on the hand the
        rules require of it first."""
        t, rng = self.g.table, self.rng
        holder_spot = self.marker_wager_spot()
        barred = None  # (bettor, spot) that must stay without a wager
        if holder_spot is not None:
            if self.can("curator.not-eligible"):
                self.take("curator.not-eligible", f"seat {self.holders.marker} held the Banker marker "
                                                  f"without a wager on the {holder_spot}")
                barred = (self.holders.marker, holder_spot)
            else:
                self.add_wager(self.holders.marker, holder_spot, t.min_wager * rng.choice((1, 2, 4)))
        reduced = False
        counter = self.counting[0] if self.counting is not None else None
        habits = self.habits
        for bettor in self.bettors():
            if habits and bettor in habits:
                self.habit_wager(bettor, habits[bettor])
                continue
            if rng.random() > 0.75 and bettor != counter:
                continue
            spot = rng.choices(self.g.main_spots, self.g.main_weights)[0]
            if (bettor, spot) == barred:
                continue
            amount = min(t.min_wager * rng.choice(STAKE_MULTIPLES), t.max_wager - self.stakes.get((bettor, spot), ZERO))
            if amount < t.min_wager:
                continue
            side = self.g.spots[spot].differential
            if side is not None:
                player = self.totals[PLAYER] + (amount if side == PLAYER else ZERO)
                banker = self.totals[BANKER] + (amount if side == BANKER else ZERO)
                if abs(player - banker) > t.table_differential:
                    unit = self.reduction_unit()
                    if reduced or unit is None or rng.random() < 0.5:
                        continue
                    trial = dict(self.stakes)
                    trial[(bettor, spot)] = trial.get((bettor, spot), ZERO) + amount
                    cuts = pro_rata(trial, t.table_differential, unit, self.g.spots)
                    if any(a < t.min_wager for a in cuts.values()):
                        continue
                    self.add_wager(bettor, spot, amount)
                    for (b, s), a in cuts.items():
                        self.adjust_wager(b, s, a, "table_differential")
                    reduced = True
                    continue
            if amount >= 2 * t.min_wager and rng.random() < 0.1:  # two chips pushed out one after the other
                self.add_wager(bettor, spot, t.min_wager)
                self.add_wager(bettor, spot, amount - t.min_wager)
            else:
                self.add_wager(bettor, spot, amount)
            if bettor == counter:
                self.play_the_count(bettor, spot)
            elif self.g.side_spots:
                self.side_wager(bettor, spot)
        if self.behind is not None:
            self.bet_behind()
        if not reduced:
            self.breach_wagers()

    def bet_behind(self) -> None:
        """A back-bettor (``innocent:back-bettor``): a standing patron who, at the injection's share of the coups,
        wagers behind a seated patron's seat on the spot that patron backed (the events name the seat and the
        back-bettor); settled as any wager."""
        patron, rate, rng = self.behind
        backed = [(b, spot) for (b, spot) in self.stakes if isinstance(b, int) and spot in self.g.main_spots]
        if not backed or rng.random() >= rate:
            return
        seat, spot = backed[0]
        amount = self.g.table.min_wager
        if self.fits(spot, amount):  # within the table's limits and differential, as any wager
            self.add_wager(f"{BEHIND}{seat}:{patron}", spot, amount)

    def side_wager(self, bettor: int | str, main: str) -> None:
        """Now and then a side wager beside the main wager just made: on a spot that allows it there, within
        the table's limits and no larger than the main wager where the spot says so."""
        rng, t = self.rng, self.g.table
        if rng.random() >= SIDE_WAGER_RATE:
            return
        allowed = [s for s in self.g.side_spots if main in self.g.spots[s].requires.wager_on
                   and (bettor, s) not in self.stakes]
        if not allowed:
            return
        spot = rng.choice(allowed)
        amount = t.min_wager * rng.choice(SIDE_MULTIPLES)
        if self.g.spots[spot].requires.at_most:
            amount = min(amount, self.stakes[(bettor, main)])
        self.add_wager(bettor, spot, amount)

    def play_the_count(self, bettor: int, main: str) -> None:
        """Advantage play: a side wager beside the main wager only where the count of the cards out of the shoe
        (everything dealt from it so far) says it favours the patron, at the injection's share of such coups; as
        large as the main wager allows, up to four table minimums."""
        _, rate, schedule, counts = self.counting
        left = [n * self.shoe.decks for n in POINTS_PER_DECK]
        for code in self.shoe.cards[:self.shoe.next]:
            left[POINTS[code]] -= 1
        t = self.g.table
        for spot, count in counts.items():
            if main not in self.g.spots[spot].requires.wager_on or (bettor, spot) in self.stakes:
                continue
            edge = count.estimate(left)
            if edge is None or edge <= 0 or schedule.random() >= rate:
                continue
            amount = t.min_wager * 4
            if self.g.spots[spot].requires.at_most:
                amount = min(amount, self.stakes[(bettor, main)])
            self.add_wager(bettor, spot, amount)
            self.counted.append(spot)

    def reduction_unit(self) -> Decimal | None:
        p = self.g.procedure.params("wager.improper-reduction", self.method)
        return p.unit if p is not None else None

    def marker_wager_spot(self) -> str | None:
        """The hand the Banker marker's holder must wager on, if it holds the marker and a rule says so."""
        if self.holders.marker is None:
            return None
        for p in self.g.procedure.all_params("curator.not-eligible", self.method):
            if p.marker_holder_wagers_on:
                return p.marker_holder_wagers_on
        return None

    # ------------------------------------------------------------ breaches of the wagering rules
    def free_seat_for(self, spot: str) -> int | None:
        """A seated patron with no wager on ``spot`` yet."""
        return next((s for s in self.seated if (s, spot) not in self.stakes), None)

    def breach_wagers(self) -> None:
        t = self.g.table
        minor = self.g.minor_spot
        if self.can("wager.limits"):
            seat = self.free_seat_for(minor)
            if seat is not None and self.g.limited(minor, self.method):
                amount = t.min_wager - t.unit
                self.take("wager.limits", f"seat {seat} wagered {amount} on {minor}, below the minimum {t.min_wager}")
                self.add_wager(seat, minor, amount)
                return
        if self.can("wager.not-eligible") and not self.g.procedure.standing_may_wager():
            patron = f"P-S{self.number}"
            self.take("wager.not-eligible", f"patron {patron}, not seated, wagered {t.min_wager} on {minor}")
            self.add_wager("patron:" + patron, minor, t.min_wager)
            return
        if self.can("wager.table-differential") and self.seated:
            totals = self.totals
            heavy = PLAYER if totals[PLAYER] >= totals[BANKER] else BANKER
            gap = abs(totals[PLAYER] - totals[BANKER])
            for seat in self.seated:
                room = t.max_wager - self.stakes.get((seat, self.g.side_spot[heavy]), ZERO)
                fresh = (seat, self.g.side_spot[heavy]) not in self.stakes
                if gap + room > t.table_differential and (not fresh or room >= t.min_wager):
                    self.take("wager.table-differential",
                              f"seat {seat} added {room} on {heavy}: difference {gap + room} over {t.table_differential}")
                    self.add_wager(seat, self.g.side_spot[heavy], room)
                    return
        if self.can("wager.improper-reduction"):
            totals = self.totals
            heavy = PLAYER if totals[PLAYER] >= totals[BANKER] else BANKER
            within = [(k, a) for k, a in self.stakes.items()
                      if self.g.spots[k[1]].differential == heavy and a >= t.min_wager + t.unit]
            if within:
                (bettor, spot), amount = within[0]
                self.take("wager.improper-reduction", f"{describe_bettor(bettor)} {spot} wager cut for the table "
                                                      f"differential although the difference was within it")
                self.adjust_wager(bettor, spot, amount - t.unit, "table_differential")

    def breach_no_bet_coup(self) -> None:
        """A wager in a no bet coup, where a rule forbids it."""
        if not self.seated or not self.can("wager.not-eligible") or all(
                p.no_bet_coup for p in self.g.procedure.all_params("wager.not-eligible", self.method)):
            return
        seat = next(iter(self.seated))
        minor = self.g.minor_spot
        self.take("wager.not-eligible", f"seat {seat} wagered {self.g.table.min_wager} on {minor} in a no bet coup")
        self.add_wager(seat, minor, self.g.table.min_wager)

    def breach_late(self) -> None:
        if self.no_bet or not self.can("wager.late"):
            return
        t = self.g.table
        minor = self.g.minor_spot
        seat = self.free_seat_for(minor)
        if seat is None:
            return
        self.take("wager.late", f"seat {seat} wagered {t.min_wager} on {minor} after \"no more bets\"")
        self.add_wager(seat, minor, t.min_wager)


#: a back-bettor's wager in the simulator's stakes: "behind:<seat>:<patron>" (the events name both)
BEHIND = "behind:"


def who(bettor: int | str) -> dict:
    if isinstance(bettor, int):
        return {"seat": bettor}
    if bettor.startswith(BEHIND):
        seat, patron = bettor[len(BEHIND):].split(":", 1)
        return {"seat": int(seat), "patron": patron}
    return {"patron": bettor.removeprefix("patron:")}
