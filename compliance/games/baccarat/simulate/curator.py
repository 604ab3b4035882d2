"""The shoe, the Banker marker and the cards in the patrons' hands, as the ruleset's parameters say.

Offers go round the table in the order the offer rules give (from a fixed
seat, from the dealer's right, from the lowest-numbered seat with a wager, or
by the size of the wagers; after the last holder where the rules say so), each
patron accepting or declining.  Each hand's cards go to the patron the
recipient rule names (the highest wager on that hand with the rule's tie-break,
the curator, the marker's holder, or no one), one hand at a time, and a
refusal passes them to the next entitled patron.  Seat geometry is read only
from the table's ``seat_order``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from compliance.games.baccarat.replay import BANKER, PLAYER, ZERO


@dataclass
class Holders:
    """What the table carries from coup to coup: who holds the shoe and the Banker marker."""

    shoe: int | None = None
    marker: int | None = None
    last_shoe: int | None = None  # the last seat that held the shoe
    offered: set[str] = field(default_factory=set)  # items offered so far in this shoe
    banker_lost_with_marker: bool = False  # the last coup's Banker's Hand lost while the marker was held
    curator_lost: bool = False  # the curator's own wager lost in the last coup, where that costs the shoe

    def snapshot(self) -> tuple[bool, bool]:
        """What a coup's result leaves for the next coup (restored when the coup turns out unreadable)."""
        return self.banker_lost_with_marker, self.curator_lost

    def restore(self, snapshot: tuple[bool, bool]) -> None:
        self.banker_lost_with_marker, self.curator_lost = snapshot

    def holder(self, item: str) -> int | None:
        return self.shoe if item == "shoe" else self.marker


class CuratorSteps:
    """Offers and passes of the cards (mixed into :class:`~compliance.games.baccarat.simulate.play.CoupPlay`)."""

    # ------------------------------------------------------------ offers
    def offer_rules(self, after_wagers: bool) -> list:
        """The offer rules to play now: those whose candidates or order depend on the wagers come after them."""
        out = []
        for p in self.g.procedure.offers(self.method):
            needs_wagers = p.candidates == "seated_with_wager" or p.order == "highest_wager" or p.first in (
                "lowest_numbered_wager", "highest_wager")
            if needs_wagers == after_wagers:
                out.append(p)
        return out

    def offers_before_wagers(self) -> None:
        h = self.holders
        if h.shoe is not None and not self.g.procedure.handling(self.method).shoe_to_players:
            self.return_shoe()  # a coup dealt by a method where the dealer keeps the shoe (a no bet coup)
        if h.curator_lost and h.shoe is not None:
            if self.can("curator.not-eligible"):
                self.take("curator.not-eligible", f"seat {h.shoe} kept the shoe although its wager lost")
                self.held.add("shoe")  # and nothing in this coup takes it away
            else:
                self.barred = h.shoe  # gives the shoe up, and declines it if offered again this coup
                self.return_shoe()
        if self.can("curator.handling") and not self.g.procedure.handling(self.method).shoe_to_players \
                and not any(p.item == "shoe" for p in self.g.procedure.offers(self.method)) and self.seated:
            seat = next(iter(self.seated))
            self.take("curator.handling", f"the shoe was offered to seat {seat} under a method where the dealer keeps it")
            self.events.append({"type": "offer", "item": "shoe", "seat": seat, "accepted": False})
            h.shoe = None  # on offer, and declined: with no patron
        for p in self.offer_rules(after_wagers=False):
            self.maybe_offer(p)

    def offers_after_wagers(self) -> None:
        for p in self.offer_rules(after_wagers=True):
            self.maybe_offer(p)

    def maybe_offer(self, p) -> None:
        """Offer the item when the rules call for a round: every coup where they say so, at the beginning of
        a shoe, when no one holds it, after the Banker's Hand lost, or now and then when the holder passes it."""
        h = self.holders
        if p.item in self.held:
            return
        holder = h.holder(p.item)
        first_of_shoe = p.item not in h.offered
        needed = (p.every_coup or holder is None or (first_of_shoe and p.first_applies == "first_of_shoe")
                  or (p.move_on_banker_loss and h.banker_lost_with_marker) or self.rng.random() < 0.03)
        if not needed:
            return
        if p.item == "shoe" and holder is not None:
            self.return_shoe()
        self.offer_round(p, first_of_shoe)

    def return_shoe(self) -> None:
        self.events.append({"type": "shoe_return"})
        self.holders.shoe = None

    def ring(self, p, prescribed: bool) -> list[int]:
        """The seats in the order the item is offered to them."""
        order = list(self.g.table.seat_order)
        wagers = self.seat_wagers(p.wager_spots)
        cands = [s for s in order if s in self.seated]
        if p.candidates == "seated_with_wager":
            cands = [s for s in cands if s in wagers]
        if p.order == "highest_wager":
            return sorted((s for s in cands if s in wagers), key=lambda s: (-wagers[s], self.tie_key(p.tie_break, s)))
        holder = self.holders.holder(p.item)
        if p.after_holder and holder is not None:
            start = order.index(holder) + 1
        elif not prescribed:
            last = self.holders.last_shoe if p.item == "shoe" else holder
            start = order.index(last) + 1 if last in order else 0
        elif p.first == "seat_number" and p.first_seat in order:
            start = order.index(p.first_seat)
        elif p.first == "lowest_numbered_wager":
            with_wager = [s for s in cands if s in wagers]
            start = order.index(min(with_wager)) if with_wager else 0
        else:
            start = 0
        allowed = set(cands)
        return [s for s in order[start:] + order[:start] if s in allowed]

    def offer_round(self, p, first_of_shoe: bool) -> None:
        prescribed = p.first_applies == "always" or first_of_shoe
        ring = self.ring(p, prescribed)
        self.holders.offered.add(p.item)
        forced = None
        if len(ring) >= 3 and ring[2] != self.barred and self.can("curator.offer-order"):
            what = "shoe" if p.item == "shoe" else "Banker marker"
            self.take("curator.offer-order", f"after seat {ring[0]} declined the {what}, seat {ring[1]} "
                                             f"was passed over for seat {ring[2]}")
            del ring[1]
            forced = ring[1]
        for seat in ring:
            accepted = seat == forced if forced is not None else seat != self.barred and self.rng.random() < 0.7
            self.events.append({"type": "offer", "item": p.item, "seat": seat, "accepted": accepted})
            # on offer, the item is with no patron until one accepts it
            if p.item == "shoe":
                self.holders.shoe = seat if accepted else None
                if accepted:
                    self.holders.last_shoe = seat
            else:
                self.holders.marker = seat if accepted else None
            if accepted:
                return

    def seat_wagers(self, spots) -> dict[int, Decimal]:
        """Each seated patron's largest wager on one of ``spots``."""
        out: dict[int, Decimal] = {}
        for (bettor, spot), amount in self.stakes.items():
            if isinstance(bettor, int) and bettor in self.seated and spot in spots and amount > out.get(bettor, ZERO):
                out[bettor] = amount
        return out

    def tie_key(self, tie_break: str, seat: int):
        return self.g.table.seat_order.index(seat) if tie_break == "seat_order" else seat

    def end_offers(self, winner: str) -> None:
        """What the coup's result does to the holders: a Banker loss moves the marker on, a lost wager
        can cost the curator the shoe, a shoe offered every coup goes back to the dealer."""
        h, proc = self.holders, self.g.procedure
        h.banker_lost_with_marker = winner == PLAYER and h.marker is not None
        h.curator_lost = False
        table_method = self.g.table.dealing_method  # the next coup's rules say whether the shoe is lost
        if h.shoe is not None and any(p.shoe_lost_when_wager_loses
                                      for p in proc.all_params("curator.not-eligible", table_method)):
            own = {spot for (b, spot), a in self.stakes_at_first_card.items() if b == h.shoe and spot != "tie" and a}
            h.curator_lost = bool(own) and winner != "tie" and winner not in own
        if h.shoe is not None and any(p.every_coup and p.item == "shoe" for p in proc.offers(self.method)):
            self.return_shoe()

    # ------------------------------------------------------------ passing the cards
    def recipients(self, hand: str) -> tuple[list[int], str]:
        """Who may turn ``hand``'s cards, in order of entitlement, and on what ground:
        ``wager`` (refusals pass it on), ``holder`` (the curator or marker holder), ``other`` (no wager on
        the hand: a patron betting on the other one may turn it), or ``none`` (the dealer keeps it)."""
        p = self.g.procedure.recipient(self.method)
        if p is None or not self.g.procedure.handling(self.method).players_handle_cards:
            return [], "none"
        whom = getattr(p, hand)
        if whom == "dealer":
            return [], "none"
        if whom == "curator" and hand == PLAYER and p.curator_plays == "one" and p.banker == "curator":
            return [], "none"  # the patron with the shoe plays the Banker's Hand, the dealer the Player's
        if whom in ("curator", "marker"):
            holder = self.holders.shoe if whom == "curator" else self.holders.marker
            return ([holder], "holder") if holder is not None else ([], "none")
        wagers = {s: a for (s, spot), a in self.stakes_at_first_card.items()
                  if spot == hand and isinstance(s, int) and s in self.seated}
        if wagers:
            return sorted(wagers, key=lambda s: (-wagers[s], self.tie_key(p.tie_break, s))), "wager"
        if p.no_wager == "other_hand_bettor":
            other = BANKER if hand == PLAYER else PLAYER
            seats = [s for s in self.seated if self.stakes_at_first_card.get((s, other))]
            if seats and self.rng.random() < 0.5:
                return [self.rng.choice(seats)], "other"
        return [], "none"

    def wrong_recipient(self, hand: str, entitled: list[int], ground: str) -> int | None:
        """A seated patron not entitled to the hand, where the recipient rule would notice it."""
        p = self.g.procedure.recipient(self.method)
        if p is None or not self.g.procedure.handling(self.method).players_handle_cards:
            return None
        whom = getattr(p, hand)
        if whom in ("curator", "marker") and ground == "none":
            return None  # no holder: the rule does not judge the pass
        if whom == "highest_wager" and not entitled and p.no_wager == "unjudged":
            return None
        other = BANKER if hand == PLAYER else PLAYER
        no_wager_on_hand = whom == "highest_wager" and ground in ("other", "none")
        for seat in self.seated:
            if ground in ("wager", "holder") and seat == entitled[0]:
                continue
            if no_wager_on_hand and p.no_wager == "other_hand_bettor" and self.stakes_at_first_card.get((seat, other)):
                continue  # a bettor on the other hand may turn it: not a wrong recipient
            return seat
        return None

    def pass_initial_cards(self) -> None:
        """Each hand's two cards to the patron entitled to turn them, one hand at a time."""
        plans = {hand: self.recipients(hand) for hand in (PLAYER, BANKER)}
        handling = self.g.procedure.handling(self.method)
        if self.can("curator.wrong-recipient"):
            for hand in (PLAYER, BANKER):
                seat = self.wrong_recipient(hand, *plans[hand])
                if seat is not None:
                    self.take("curator.wrong-recipient", f"the {hand.capitalize()}'s Hand went to seat {seat}")
                    plans[hand] = ([seat], "forced")
                    break
        if self.can("curator.handling") and not handling.players_handle_cards and self.seated \
                and self.g.procedure.recipient(self.method) is None:
            seat = next(iter(self.seated))
            self.take("curator.handling", f"the Player's Hand was passed to seat {seat} under a dealer-only method")
            plans[PLAYER] = ([seat], "forced")
        both_out = False
        order = (PLAYER, BANKER)
        both_passed = bool(plans[PLAYER][0] and plans[BANKER][0])
        if self.can("curator.handling") and handling.player_hand_first and both_passed:
            self.take("curator.handling", "the Banker's Hand was passed out before the Player's Hand")
            order = (BANKER, PLAYER)
            plans = {hand: (seats, "forced" if seats else ground) for hand, (seats, ground) in plans.items()}
        if self.can("curator.handling") and handling.one_hand_at_a_time and both_passed:
            self.take("curator.handling", "the Banker's Hand was passed out while the Player's Hand was still out")
            both_out = True
        out_with = []
        for hand in order:
            seats, ground = plans[hand]
            for seat in seats:
                accepted = ground in ("holder", "other", "forced") or both_out or self.rng.random() < 0.9
                self.events.append({"type": "hand_pass", "hand": hand, "seat": seat, "accepted": accepted})
                if accepted:
                    self.turned_by[hand] = seat
                    out_with.append(hand)
                    break
            if not both_out:
                self.return_hands(out_with)
        self.return_hands(out_with)

    def return_hands(self, hands: list[str]) -> None:
        for hand in hands:
            self.events.append({"type": "hand_return", "hand": hand})
        hands.clear()

    def pass_third_card(self, hand: str) -> None:
        """A third card goes to whoever turned the hand's initial cards."""
        seat = self.turned_by.get(hand)
        if seat is not None:
            self.events.append({"type": "hand_pass", "hand": hand, "seat": seat, "accepted": True, "cards": "third"})
            self.events.append({"type": "hand_return", "hand": hand})
