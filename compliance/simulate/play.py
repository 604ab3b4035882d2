"""One coup, played as the ruleset prescribes, or with exactly one breach.

The coup is played in the order a table plays it: wagers, the calls, the
initial deal (Player, Banker, Player, Banker), the cards turned, the third
cards by the tableau, the result, the settlement.  At each step where a breach
of some category can happen, :meth:`CoupPlay.take` asks whether one is
pending; if so the step goes wrong in that one way and the rest of the coup is
played correctly *from what actually happened* (the Banker draws by the
Player's actual third card, the result and settlement follow the actual
cards), so that one breach is one finding.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal

from compliance.cards import POINTS
from compliance.replay import describe_bettor
from compliance.ruleset.models import Payouts, Tableau
from compliance.simulate.procedure import Procedure
from compliance.simulate.shoe import Shoe
from compliance.simulate.table import TableSetup

ZERO = Decimal(0)
PLAYER, BANKER, TIE = "player", "banker", "tie"
SPOTS = (PLAYER, BANKER, TIE)
#: wager sizes, in table minimums: small numbers repeat, so equal highest wagers are common
STAKE_MULTIPLES = (1, 1, 2, 2, 4, 4, 10, 20, 40, 200)


@dataclass(frozen=True)
class Injection:
    """One breach the simulator made on purpose."""

    coup: int
    category: str
    what: str

    def as_dict(self) -> dict:
        return {"coup": self.coup, "category": self.category, "what": self.what}


def plain(amount: Decimal) -> Decimal:
    """An amount without trailing zeros or exponent (25, 23.75), so transcripts read as a dealer writes."""
    if amount == amount.to_integral_value():
        return amount.quantize(Decimal(1))
    return amount.normalize()


class Game:
    """What fixes every coup of the run: table, rules, payouts, tableau."""

    def __init__(self, table: TableSetup, procedure: Procedure, payouts: Payouts, tableau: Tableau):
        self.table = table
        self.procedure = procedure
        self.payouts = payouts
        self.tableau = tableau


class CoupPlay:
    """Plays one coup into its transcript events."""

    def __init__(self, game: Game, rng: random.Random, number: int, shoe: Shoe, seated: dict[int, str],
                 standing: list[str], pending: list[str], opening_burn: bool):
        self.g = game
        self.rng = rng
        self.number = number
        self.shoe = shoe
        self.seated = seated
        self.standing = standing
        self.pending = pending
        self.opening_burn = opening_burn
        self.method = game.table.dealing_method
        self.events: list[dict] = []
        self.stakes: dict[tuple, Decimal] = {}  # (bettor, spot) -> amount; bettor: seat or "patron:<id>"
        self.player: list[str] = []
        self.banker: list[str] = []
        self.applied: Injection | None = None
        self.unreadable = False

    # ------------------------------------------------------------ breaches
    def can(self, category: str) -> bool:
        """A breach of ``category`` is pending, none is made yet, and a rule of the ruleset would see it."""
        return (self.applied is None and category in self.pending
                and self.g.procedure.reports(category, self.method))

    def take(self, category: str, what: str) -> None:
        self.applied = Injection(self.number, category, what)

    # ------------------------------------------------------------ the coup
    def play(self) -> dict:
        if self.opening_burn:
            for code in self.shoe.burn():
                self.events.append({"type": "card", "card": code, "to": "burn", "face": "up"})
        self.place_wagers()
        self.make_calls()
        self.deal_initial()
        self.draw_third_cards()
        self.announce_result()
        self.settle()
        if self.can("transcript.unreadable"):
            self.garble()
        coup: dict = {"coup": self.number, "shoe": self.shoe.id}
        if self.seated:
            coup["seated"] = {str(s): p for s, p in self.seated.items()}
        coup["events"] = self.events
        return coup

    # ------------------------------------------------------------ wagers
    def bettors(self) -> list[int | str]:
        return list(self.seated) + ["patron:" + p for p in self.standing]

    def wager_event(self, bettor: int | str, spot: str, amount: Decimal) -> dict:
        ev: dict = {"type": "wager"}
        ev.update(who(bettor))
        ev["spot"] = spot
        ev["amount"] = plain(amount)
        return ev

    def add_wager(self, bettor: int | str, spot: str, amount: Decimal) -> None:
        key = (bettor, spot)
        self.stakes[key] = self.stakes.get(key, ZERO) + amount
        self.events.append(self.wager_event(bettor, spot, amount))

    def differential(self, stakes: dict | None = None) -> Decimal:
        stakes = self.stakes if stakes is None else stakes
        p = sum((a for (_, s), a in stakes.items() if s == PLAYER), ZERO)
        b = sum((a for (_, s), a in stakes.items() if s == BANKER), ZERO)
        return abs(p - b)

    def place_wagers(self) -> None:
        """Patrons wager within the table's limits; a wager that would take the Player/Banker
        difference past the table differential is not made."""
        t, rng = self.g.table, self.rng
        for bettor in self.bettors():
            if rng.random() > 0.75:
                continue
            spot = rng.choices(SPOTS, (45, 45, 10))[0]
            amount = min(t.min_wager * rng.choice(STAKE_MULTIPLES), t.max_wager)
            if spot != TIE:
                trial = dict(self.stakes)
                trial[(bettor, spot)] = trial.get((bettor, spot), ZERO) + amount
                if self.differential(trial) > t.table_differential:
                    continue
            if amount >= 2 * t.min_wager and rng.random() < 0.1:  # two chips pushed out one after the other
                first = t.min_wager
                self.add_wager(bettor, spot, first)
                self.add_wager(bettor, spot, amount - first)
            else:
                self.add_wager(bettor, spot, amount)
        self.breach_wagers()

    def breach_wagers(self) -> None:
        t = self.g.table
        seated = list(self.seated)
        if self.can("wager.limits") and seated:
            seat = next((s for s in seated if (s, TIE) not in self.stakes), None)
            if seat is not None:
                amount = t.min_wager - t.unit
                self.take("wager.limits", f"seat {seat} wagered {amount} on tie, below the minimum {t.min_wager}")
                self.add_wager(seat, TIE, amount)
                return
        if self.can("wager.table-differential") and seated:
            p = sum((a for (_, s), a in self.stakes.items() if s == PLAYER), ZERO)
            b = sum((a for (_, s), a in self.stakes.items() if s == BANKER), ZERO)
            heavy = PLAYER if p >= b else BANKER
            gap = abs(p - b)
            for seat in seated:
                room = t.max_wager - self.stakes.get((seat, heavy), ZERO)
                fresh = (seat, heavy) not in self.stakes
                if gap + room > t.table_differential and (not fresh or room >= t.min_wager):
                    self.take("wager.table-differential",
                              f"seat {seat} added {room} on {heavy}: difference {gap + room} over {t.table_differential}")
                    self.add_wager(seat, heavy, room)
                    return

    # ------------------------------------------------------------ calls
    def make_calls(self) -> None:
        calls = list(self.g.procedure.calls(self.method))
        required = self.g.procedure.required_calls(self.method)
        if required and self.can("procedure.call-missing"):
            self.take("procedure.call-missing", f"the call {required[0]!r} was not made")
            calls.remove(required[0])
        for call in calls:
            self.events.append({"type": "announce", "call": call})
            if call == "no_more_bets":
                self.breach_late()

    def breach_late(self) -> None:
        if not self.can("wager.late"):
            return
        t = self.g.table
        seat = next((s for s in self.seated if (s, TIE) not in self.stakes), None)
        if seat is None:
            return
        self.take("wager.late", f"seat {seat} wagered {t.min_wager} on tie after \"no more bets\"")
        self.add_wager(seat, TIE, t.min_wager)

    # ------------------------------------------------------------ cards
    def deal(self, hand: str, face: str = "down") -> str:
        code = self.shoe.draw()
        if self.can("shoe.integrity"):
            seen_all = [c for c in self.shoe.exhausted(POINTS[code]) if c != code]
            if seen_all:
                wrong = seen_all[0]
                self.take("shoe.integrity", f"{wrong} recorded for a card of the same value ({code}): "
                                            f"one copy more than {self.shoe.decks} deck(s) hold")
                self.shoe.dealt[code] -= 1
                self.shoe.dealt[wrong] += 1
                code = wrong
        (self.player if hand == PLAYER else self.banker).append(code)
        self.events.append({"type": "card", "card": code, "to": hand, "face": face})
        return code

    def deal_initial(self) -> None:
        order = [PLAYER, BANKER, PLAYER, BANKER]
        if self.can("deal.initial-order"):
            self.take("deal.initial-order", "the third and fourth cards went Banker, Player")
            order = [PLAYER, BANKER, BANKER, PLAYER]
        for hand in order:
            self.deal(hand)

    def draw_third_cards(self) -> None:
        """The tableau: no draw on a natural; Player by its total; Banker by its total and the
        Player's third card (or by its total alone when the Player stood)."""
        tab = self.g.tableau
        player, banker = total(self.player), total(self.banker)
        natural = player in tab.naturals or banker in tab.naturals
        must = not natural and player in tab.player_draws
        draws = must
        if must and self.can("third-card.player.missing"):
            self.take("third-card.player.missing", f"Player stood on {player}")
            draws = False
        elif not must and self.can("third-card.player.illegal"):
            self.take("third-card.player.illegal", f"Player drew on {player}" + (" with a natural on the table" if natural else ""))
            draws = True
        third = None
        if draws:
            third = POINTS[self.deal(PLAYER)]
            self.breach_extra(PLAYER)
        if natural:
            must = False
        elif third is None:
            must = banker in tab.banker_draws_when_player_stood
        else:
            must = tab.banker_draws_on_player_third_card[banker][third] == "D"
        draws = must
        if must and self.can("third-card.banker.missing"):
            self.take("third-card.banker.missing", f"Banker stood on {banker}")
            draws = False
        elif not must and self.can("third-card.banker.illegal"):
            self.take("third-card.banker.illegal", f"Banker drew on {banker}")
            draws = True
        if draws:
            self.deal(BANKER)
            self.breach_extra(BANKER)

    def breach_extra(self, hand: str) -> None:
        if self.can("deal.extra-card"):
            self.take("deal.extra-card", f"a second additional card to the {hand.capitalize()}'s Hand")
            self.deal(hand)

    # ------------------------------------------------------------ result and settlement
    def announce_result(self) -> None:
        p, b = total(self.player), total(self.banker)
        if self.can("result.wrong"):
            self.take("result.wrong", f"announced Player {(p + 1) % 10} for Player {p}")
            p = (p + 1) % 10
        winner = PLAYER if p > b else BANKER if b > p else TIE
        self.events.append({"type": "result", "player_points": p, "banker_points": b, "winner": winner})

    def settle(self) -> None:
        """Each wager once: winners paid at the ruleset's odds (a Banker win less commission,
        deducted or collected apart), losers collected, Player and Banker returned on a tie."""
        t = self.g.table
        order = {b: i for i, b in enumerate(self.bettors())}
        entries = []
        for (bettor, spot), stake in sorted(self.stakes.items(), key=lambda kv: (order[kv[0][0]], SPOTS.index(kv[0][1]))):
            outcome, gross, rate = self.due(spot, stake)
            apart = outcome == "win" and rate and self.rng.random() < 0.5
            if outcome == "win":
                amount = gross if apart else gross - gross * rate
            else:
                amount = stake if outcome == "lose" else ZERO
            entries.append([bettor, spot, outcome, amount, gross * rate if apart else None, stake])
        plain_entries = [e for e in entries if e[4] is None]
        if plain_entries and self.can("settlement.missing"):
            e = plain_entries[-1]
            self.take("settlement.missing", f"{describe_bettor(e[0])} {e[1]} wager never settled")
            entries.remove(e)
        elif plain_entries and self.can("settlement.wrong-amount"):
            e = plain_entries[0]
            was = e[3]
            e[3] = was + t.unit if e[2] != "lose" or e[5] <= t.unit else was - t.unit
            self.take("settlement.wrong-amount", f"{describe_bettor(e[0])} {e[1]} wager settled {e[2]} {plain(e[3])}, not {plain(was)}")
        for bettor, spot, outcome, amount, commission, _ in entries:
            ev: dict = {"type": "settle"}
            ev.update(who(bettor))
            ev.update({"spot": spot, "outcome": outcome, "amount": plain(amount)})
            self.events.append(ev)
            if commission is not None:
                cm: dict = {"type": "commission"}
                cm.update(who(bettor))
                cm["amount"] = plain(commission)
                self.events.append(cm)

    def due(self, spot: str, stake: Decimal) -> tuple[str, Decimal, Decimal]:
        """(outcome, winnings before commission, commission rate) of a wager, by the cards."""
        pay = self.g.payouts
        p, b = total(self.player), total(self.banker)
        winner = PLAYER if p > b else BANKER if b > p else TIE
        if winner == TIE and spot != TIE:
            return ("push", ZERO, ZERO) if pay.on_tie == "push" else ("lose", ZERO, ZERO)
        if spot != winner:
            return "lose", ZERO, ZERO
        payout = getattr(pay, spot)
        odds = payout.odds
        if spot != TIE:
            points, cards = (p, len(self.player)) if spot == PLAYER else (b, len(self.banker))
            for ex in payout.exceptions:
                if ex.points == points and (ex.cards is None or ex.cards == cards):
                    if ex.push:
                        return "push", ZERO, ZERO
                    odds = ex.odds
                    break
        return "win", stake * odds, payout.commission

    def garble(self) -> None:
        """Make the coup unreadable: a misspelt key in its result."""
        for ev in self.events:
            if ev["type"] == "result":
                ev["winer"] = ev.pop("winner")
                break
        self.take("transcript.unreadable", "the result's key 'winner' is misspelt 'winer'")
        self.unreadable = True


def total(cards: list[str]) -> int:
    return sum(POINTS[c] for c in cards) % 10


def who(bettor: int | str) -> dict:
    return {"seat": bettor} if isinstance(bettor, int) else {"patron": bettor.removeprefix("patron:")}
