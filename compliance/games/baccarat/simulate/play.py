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
from decimal import Decimal

from compliance.cards import POINTS, hand_total
from compliance.games.baccarat.replay import BANKER, PLAYER, ZERO, describe_bettor
from compliance.games.baccarat.section import Spot, Tableau
from compliance.games.baccarat.simulate.curator import CuratorSteps, Holders
from compliance.games.baccarat.simulate.habits import HabitSteps
from compliance.games.baccarat.simulate.irregular import Carry, Injection, IrregularSteps
from compliance.games.baccarat.simulate.procedure import Procedure
from compliance.games.baccarat.simulate.shoe import Shoe
from compliance.games.baccarat.simulate.table import TableSetup
from compliance.games.baccarat.simulate.wagers import WagerSteps, plain, who
from compliance.games.baccarat.spots import hand_facts, table_spots

TIE = "tie"  # a coup's outcome when neither hand wins


class Game:
    """What fixes every coup of the run: table, rules, the spots the table offers, tableau.

    The spots are played as declared: a main wager on a spot that needs no
    other (most on the spots that count on a side of the table differential),
    now and then a side wager beside it on a spot that requires one.
    """

    def __init__(self, table: TableSetup, procedure: Procedure, spots: dict[str, Spot], tableau: Tableau):
        self.table = table
        self.procedure = procedure
        self.spots = table_spots(spots)
        self.order = {name: i for i, name in enumerate(self.spots)}
        self.tableau = tableau
        self.naturals = frozenset(tableau.naturals)
        self.main_spots = [n for n, s in self.spots.items() if s.requires is None]
        self.main_weights = [45 if self.spots[n].differential else 10 for n in self.main_spots]
        self.side_spots = [n for n, s in self.spots.items() if s.requires is not None]
        # the spot a wager on each side of the differential goes to, and the spot of the minor breaches
        self.side_spot = {side: next(n for n in self.main_spots if self.spots[n].differential == side)
                          for side in (PLAYER, BANKER)}
        self.minor_spot = next((n for n in self.main_spots if self.spots[n].differential is None), self.main_spots[0])
        self.slips = 0  # honest wrong settlements so far in the patrons' favour, less those in the house's

    def limited(self, spot: str, method: str | None) -> bool:
        """The table's posted minimum and maximum apply to a wager on ``spot`` (the limits rule says so)."""
        p = self.procedure.params("wager.limits", method)
        if p is None:
            return False
        return spot in p.spots if p.spots is not None else self.spots[spot].table_limits


class CoupPlay(WagerSteps, CuratorSteps, IrregularSteps, HabitSteps):
    """Plays one coup into its transcript events."""

    def __init__(self, game: Game, rng: random.Random, number: int, shoe: Shoe, seated: dict[int, str],
                 standing: list[str], pending: list[str], opening_burn: bool, holders: Holders,
                 irregular: str | None = None, carry_in: Carry | None = None):
        self.g = game
        self.rng = rng
        self.number = number
        self.shoe = shoe
        self.seated = seated
        self.standing = standing
        self.pending = pending
        self.opening_burn = opening_burn
        self.holders = holders
        self.irregular = irregular  # an irregularity to make and handle as required, if the coup allows it
        self.carry_in = carry_in  # the card the previous coup set aside as this coup's first card
        self.no_bet = carry_in is not None and carry_in.no_bet
        self.method = carry_in.method if self.no_bet and carry_in.method else game.table.dealing_method
        self.handled: Injection | None = None
        self.carry_out: Carry | None = None
        self.events: list[dict] = []
        self.stakes: dict[tuple, Decimal] = {}  # (bettor, spot) -> amount; bettor: seat or "patron:<id>"
        self.totals: dict[str, Decimal] = {PLAYER: ZERO, BANKER: ZERO}  # staked on each side of the differential
        self.stakes_at_first_card: dict[tuple, Decimal] = {}
        self.player: list[str] = []
        self.banker: list[str] = []
        self.turned_by: dict[str, int] = {}  # hand -> seat that accepted its initial cards
        self.barred: int | None = None  # a seat that just lost the shoe
        self.held: set[str] = set()  # items no offer may move in this coup
        self.applied: Injection | None = None
        self.garbling = False  # the coup is to be made unreadable (settled as it starts: see play)
        self.before_third = None  # where the wagers settled on the initial cards go: before any third card
        self.unreadable = False
        # collusion: (the favoured patron's seat, the share of their winning wagers overpaid, the random source),
        # set where the dealer of this coup favours them; what was overpaid, once it was
        self.favoured: tuple | None = None
        self.colluded: str | None = None
        # advantage play: (the counter's seat, the share of favourable coups played, the random source, each side
        # wager's count), set at every coup of a night with a counter; the side wagers the counter placed
        self.counting: tuple | None = None
        self.drift_way = "patrons"  # which way a drifting table's wrong settlements go (patrons, house)
        self.counted: list[str] = []
        self.habits: dict = {}  # seat -> habits.Habit: the patrons with a habit seated all night
        # a back-bettor (innocent:back-bettor): (the patron, the share of coups they wager behind a seat, the
        # random source), set at every coup of a night with one
        self.behind: tuple | None = None

    # ------------------------------------------------------------ breaches
    def can(self, category: str) -> bool:
        """A breach of ``category`` is pending, none is made yet, and a rule of the ruleset would see it (in a coup
        to be made unreadable, no other)."""
        return (self.applied is None and category in self.pending
                and (not self.garbling or category == "transcript.unreadable")
                and self.g.procedure.reports(category, self.method))

    def take(self, category: str, what: str) -> None:
        self.applied = Injection(self.number, category, what)

    # ------------------------------------------------------------ the coup
    def play(self) -> dict:
        before = self.holders.snapshot()
        # whether the coup is made unreadable is settled before it is played, so that which coups the checker
        # cannot read does not depend on their cards (after play, the other breaches would have taken the coups
        # they can be made in, and left the unreadable ones to the rest: naturals, say)
        self.garbling = self.carry_in is None and self.can("transcript.unreadable")
        self.breach_method()
        if self.opening_burn:
            for i, code in enumerate(self.shoe.burn()):
                self.events.append({"type": "card", "card": code, "to": "burn", "face": "up" if i == 0 else "down"})
        if self.no_bet:
            self.breach_no_bet_coup()  # first: the only coups where this breach can be made
        self.offers_before_wagers()
        if not self.no_bet:
            self.place_wagers()
        self.offers_after_wagers()
        self.make_calls()
        self.deal_initial()
        self.pass_initial_cards()
        self.before_third = len(self.events)
        self.draw_third_cards()
        p, b = hand_total(self.player), hand_total(self.banker)
        winner = winner_of(p, b)  # by the cards: what settlement and the offers follow
        self.announce_result(p, b)
        self.settle(winner, p, b)
        self.end_offers(winner)
        if self.garbling and self.can("transcript.unreadable") and self.carry_out is None \
                and not any(e["type"] in ("offer", "shoe_return") for e in self.events):
            self.garble()
            self.holders.restore(before)
        coup: dict = {"coup": self.number, "shoe": self.shoe.id}
        if self.method != self.g.table.dealing_method:
            coup["dealing_method"] = self.method
        if self.no_bet:
            coup["no_bet"] = True
        if self.seated:
            coup["seated"] = {str(s): p for s, p in self.seated.items()}
        coup["events"] = self.events
        return coup

    def breach_method(self) -> None:
        """A coup dealt by a method the rules do not allow (it then follows no method's own rules)."""
        allowed = self.g.procedure.handling(self.method).allowed_methods
        if allowed is None or self.no_bet or not self.can("curator.handling"):
            return
        method = next(m for m in ("Z", "ZZ", "ZZZ") if m not in allowed)
        self.take("curator.handling", f"dealt by method {method}, which the rules do not allow")
        self.method = method

    # ------------------------------------------------------------ calls
    def make_calls(self) -> None:
        calls = list(self.g.procedure.calls(self.method))
        required = self.g.procedure.required_calls(self.method, self.no_bet)
        if required and self.can("procedure.call-missing"):
            self.take("procedure.call-missing", f"the call {required[0]!r} was not made")
            calls.remove(required[0])
        instruction = self.g.procedure.handling(self.method).instruction_call
        if instruction and instruction not in required and self.holders.shoe is not None \
                and self.can("curator.handling"):
            self.take("curator.handling", f"seat {self.holders.shoe} dealt without the dealer's call {instruction!r}")
            calls.remove(instruction)
        for call in calls:
            self.events.append({"type": "announce", "call": call})
            if call == "no_more_bets":
                self.breach_late()
                if self.habits:
                    self.habit_late()

    # ------------------------------------------------------------ cards
    def face(self, hand: str) -> str:
        """The face the next card to ``hand`` is dealt with, by the face rules: an initial card's (the
        first four cards to the hands) or that hand's additional card's."""
        dealt = sum(1 for e in self.events if e["type"] == "card" and e["to"] in (PLAYER, BANKER))
        faces = self.g.procedure.faces(self.method)
        return faces["initial"] if dealt < 4 else faces[f"{hand}_third"]

    def deal(self, hand: str, face: str | None = None) -> str:
        face = face or self.face(hand)
        if not self.player and not self.banker:
            self.stakes_at_first_card = dict(self.stakes)
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
        if self.carry_in is not None:
            code = self.carry_in.code
            self.stakes_at_first_card = dict(self.stakes)
            self.player.append(code)
            self.events.append({"type": "card", "card": code, "to": PLAYER, "face": "down", "carried_over": True})
            for hand in (BANKER, PLAYER, BANKER):
                self.deal(hand)
            return
        if self.irregular_deal():
            return
        order = [PLAYER, BANKER, PLAYER, BANKER]
        if self.can("deal.initial-order"):
            self.take("deal.initial-order", "the third and fourth cards went Banker, Player")
            order = [PLAYER, BANKER, BANKER, PLAYER]
        for hand in order:
            self.deal(hand)

    def draw_third_cards(self) -> None:
        """The tableau: no draw on a natural; Player by its total; Banker by its total and the
        Player's third card (or by its total alone when the Player stood).  Each third card goes to
        whoever turned that hand's initial cards."""
        tab = self.g.tableau
        player, banker = hand_total(self.player), hand_total(self.banker)
        natural = player in tab.naturals or banker in tab.naturals
        must = not natural and player in tab.player_draws
        draws = must
        if must and self.can("third-card.player.missing"):
            self.take("third-card.player.missing", f"Player stood on {player}")
            draws = False
        elif not must and self.can("third-card.player.illegal"):
            self.take("third-card.player.illegal", f"Player drew on {player}" + (" with a natural on the table" if natural else ""))
            draws = True
        elif not must and not natural and tab.banker_draws(banker, None) \
                and self.can("irregularity.mishandled"):
            self.erroneous_card_discarded()
        elif not must and not natural and self.erroneous_third_card(banker):
            return  # the Banker's Hand has its third card, or stands
        third = None
        if draws:
            third = POINTS[self.deal(PLAYER)]
            self.pass_third_card(PLAYER)
            self.breach_extra(PLAYER)
        must = not natural and tab.banker_draws(banker, third)
        if not must and self.excess_banker_card():
            return
        draws = must
        if must and self.can("third-card.banker.missing"):
            self.take("third-card.banker.missing", f"Banker stood on {banker}")
            draws = False
        elif not must and self.can("third-card.banker.illegal"):
            self.take("third-card.banker.illegal", f"Banker drew on {banker}")
            draws = True
        if draws:
            self.deal(BANKER)
            self.pass_third_card(BANKER)
            self.breach_extra(BANKER)

    def erroneous_card_discarded(self) -> None:
        """An unauthorised Player third card, while the Banker's Hand must draw: the rules make it the
        Banker's third card; here it is put in the discard holder instead (and the Banker draws anew)."""
        self.take("irregularity.mishandled", "a Player third card dealt in error was discarded "
                                             "instead of becoming the Banker's third card")
        code = self.deal(PLAYER)
        self.player.pop()
        self.events.append({"type": "card_move", "card": code, "to": "discard"})

    def breach_extra(self, hand: str) -> None:
        if self.can("deal.extra-card"):
            self.take("deal.extra-card", f"a second additional card to the {hand.capitalize()}'s Hand")
            self.deal(hand)

    # ------------------------------------------------------------ result and settlement
    def announce_result(self, p: int, b: int) -> None:
        """The result event for final point counts ``p`` and ``b``; with a ``result.wrong`` breach, the
        Player's points (and the winner they give) announced wrong, while the coup is settled by the cards."""
        if self.can("result.wrong"):
            self.take("result.wrong", f"announced Player {(p + 1) % 10} for Player {p}")
            p = (p + 1) % 10
        self.events.append({"type": "result", "player_points": p, "banker_points": b, "winner": winner_of(p, b)})

    def settle(self, winner: str, p: int, b: int) -> None:
        """Each wager once, as its spot says: winners paid at its odds (less the commission of a spot that
        takes one, deducted or collected apart), losers collected, pushes returned."""
        t = self.g.table
        order = {b: i for i, b in enumerate(self.bettors())}
        entries = []
        spot_order = self.g.order
        facts = hand_facts(self.player, self.banker, self.g.naturals)
        def placed(kv):  # by seat as seated, then by the ruleset's order of spots
            return order.get(kv[0][0], len(order)), str(kv[0][0]), spot_order[kv[0][1]]

        for (bettor, spot), stake in sorted(self.stakes.items(), key=placed):
            outcome, gross, commission = self.due(spot, stake, facts)
            apart = outcome == "win" and commission and self.rng.random() < 0.5
            if outcome == "win":
                amount = gross if apart else gross - commission
            else:
                amount = stake if outcome == "lose" else ZERO
            entries.append([bettor, spot, outcome, amount, commission if apart else None, stake])
        plain_entries = [e for e in entries if e[4] is None]
        amounts = [e[3] for e in plain_entries] if self.habits else None
        if self.favoured is not None:
            paying = "push" if len(self.favoured) > 3 and self.favoured[3] == "push-paid" else "win"
            self.favour([e for e in plain_entries if e[0] == self.favoured[0] and e[2] == paying], t.unit, facts)
        if plain_entries and self.can("settlement.missing"):
            e = plain_entries[-1]
            self.take("settlement.missing", f"{describe_bettor(e[0])} {e[1]} wager never settled")
            entries.remove(e)
        elif plain_entries and self.can("integrity.settlement-drift"):
            self.drift(plain_entries, t.unit, facts)
        elif plain_entries and self.can("settlement.wrong-amount"):
            side = [e for e in plain_entries if e[1] in self.g.side_spots]  # side wagers are paid wrong first
            if side:
                e = next((x for x in side if x[2] == "win"), side[0])
            else:
                e = next((x for x in plain_entries if x[2] != "push"), plain_entries[0])
            was = e[3]
            odds = self.wrong_odds(e[1], facts) if e[2] == "win" and side else None
            if odds is not None:
                e[3] = e[5] * odds
                how = f" (paid at {plain(odds)} to 1)"
                if e[3] != was:
                    self.g.slips += 1 if e[3] > was else -1
            else:
                # an honest slip falls either way: the way the table's slips so far have gone less
                patrons = self.g.slips <= 0
                wrong = _slip(e[2], was, t.unit, patrons)
                if wrong is None:
                    patrons = not patrons
                    wrong = _slip(e[2], was, t.unit, patrons)
                self.g.slips += 1 if patrons else -1  # (a push paid a unit: a unit to the patron's good)
                e[3] = wrong
                how = ""
            self.take("settlement.wrong-amount", f"{describe_bettor(e[0])} {e[1]} wager settled {e[2]} {plain(e[3])}, "
                                                 f"not {plain(was)}{how}")
        if amounts is not None:  # (an entry left unsettled by a breach is not paid wrong besides)
            kept = {id(e) for e in entries}
            pairs = [(e, w) for e, w in zip(plain_entries, amounts, strict=True) if id(e) in kept]
            self.habit_slips([e for e, _ in pairs], [w for _, w in pairs], _slip)
        early = []  # the settlements of spots settled on the initial cards, before any third card
        for bettor, spot, outcome, amount, commission, _ in entries:
            ev: dict = {"type": "settle"}
            ev.update(who(bettor))
            ev.update({"spot": spot, "outcome": outcome, "amount": plain(amount)})
            if self.g.spots[spot].spot.settled == "before_third_card":
                settled: list = []
                early.append((self.g.table.seat_order.index(bettor) if bettor in self.g.table.seat_order
                              else len(early) + 1000, settled))
            else:
                settled = self.events
            settled.append(ev)
            if commission is not None:
                cm: dict = {"type": "commission"}
                cm.update(who(bettor))
                cm["amount"] = plain(commission)
                settled.append(cm)
        if early:  # seat by seat, counter-clockwise from the dealer's right (the table's seat_order)
            at = self.before_third if self.before_third is not None else len(self.events)
            self.events[at:at] = [ev for _, settled in sorted(early, key=lambda x: x[0]) for ev in settled]

    def wrong_odds(self, spot: str, facts) -> Decimal | None:
        """Odds a dealer could mistake for those of a winning side wager: another side spot's or paytable
        row's (Panda 8 paid as a Dragon 7)."""
        right = self.g.spots[spot].paid_by(facts).odds
        others = sorted({r.odds for name in self.g.side_spots for r in self.g.spots[name].rules
                         if r.odds is not None and r.odds != right})
        return others[-1] if others else None

    def drift(self, entries: list, unit: Decimal, facts) -> None:
        """A wrong settlement in the patrons' favour, as a table drifting one way makes them: a winning wager on a
        spot that takes commission paid without it deducted, else a wager paid (or collected) a unit to the
        patron's good.  Drifting to the house: a winning wager paid half its winnings (to the unit below)."""
        if self.drift_way == "house":
            e = next((e for e in entries if e[2] == "win" and e[3] >= unit), None)
            if e is None:
                return  # no winning wager to pay short in this coup: the next one
            was = e[3]
            short = (was / 2 / unit).to_integral_value(rounding="ROUND_FLOOR") * unit
            e[3] = short if short < was else was - unit
            self.take("integrity.settlement-drift", f"{describe_bettor(e[0])} {e[1]} wager settled {e[2]} "
                                                    f"{plain(e[3])}, not {plain(was)}: paid short, to the house's good")
            return
        for e in entries:  # a winning wager whose commission was deducted: paid its gross instead
            if e[2] == "win":
                _, gross, commission = self.due(e[1], e[5], facts)
                if commission:
                    break
        else:
            gross = None
        if gross is not None:
            was = e[3]
            e[3] = gross
            what = "commission not deducted"
        else:
            e = next((e for e in entries if e[2] != "push" and _slip(e[2], e[3], unit, True) is not None), None)
            if e is None:
                return  # only pushes (a tie): nothing to pay wrong to a patron's good in this coup
            was = e[3]
            e[3] = _slip(e[2], was, unit, True)
            what = "a unit to the patron's good"
        self.take("integrity.settlement-drift", f"{describe_bettor(e[0])} {e[1]} wager settled {e[2]} {plain(e[3])}, "
                                                f"not {plain(was)}: {what}")

    def favour(self, wins: list, unit: Decimal, facts) -> None:
        """Collusion: the dealer overpays the favoured patron's winning wager, at the injection's share of them
        (commission not deducted, or a unit over); or (push-paid) pays the stake on a wager that pushed (EZ
        Baccarat's Banker on a three-card 7, a Tie's Player and Banker wagers), recorded as a push."""
        seat, rate, schedule = self.favoured[:3]
        if not wins or schedule.random() >= rate:
            return
        e = wins[0]
        was = e[3]
        _, gross, commission = self.due(e[1], e[5], facts)
        if e[2] == "push":  # a push paid its stake, and recorded as a push (push-paid)
            e[3], what = e[5], "a push paid as if it had won even money"
        else:
            e[3], what = (gross, "commission not deducted") if commission and was != gross else (was + unit,
                                                                                                  "a unit over")
        self.colluded = (f"{describe_bettor(e[0])} {e[1]} wager settled {e[2]} {plain(e[3])}, not {plain(was)}: "
                         f"{what} (the dealer favours patron {self.seated.get(seat)})")

    def due(self, spot: str, stake: Decimal, facts) -> tuple[str, Decimal, Decimal]:
        """(outcome, winnings before commission, the commission as the house rounds it) of a wager, by the
        facts of the coup and the spot's declaration."""
        s = self.g.spots[spot]
        outcome, odds, rate = s.outcome(facts)
        if outcome != "win":
            return outcome, ZERO, ZERO
        gross = stake * odds
        return "win", gross, s.spot.commission_on(gross, rate) if rate else ZERO

    def garble(self) -> None:
        """Make the coup unreadable: a misspelt key in its result."""
        for ev in self.events:
            if ev["type"] == "result":
                ev["winer"] = ev.pop("winner")
                break
        self.take("transcript.unreadable", "the result's key 'winner' is misspelt 'winer'")
        self.unreadable = True


def _slip(outcome: str, was: Decimal, unit: Decimal, patrons: bool) -> Decimal | None:
    """A settlement a unit wrong, to the patron's good or the house's (None: that way is not possible)."""
    if outcome == "lose":  # a stake collected: less is the patron's good
        return (was - unit if was > unit else None) if patrons else was + unit
    return was + unit if patrons else (was - unit if was >= unit else None)


def winner_of(player_points: int, banker_points: int) -> str:
    """The hand with the higher point count, or a tie."""
    return PLAYER if player_points > banker_points else BANKER if banker_points > player_points else TIE
