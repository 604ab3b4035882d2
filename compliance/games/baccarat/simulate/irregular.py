"""Irregularities, handled as the ruleset's irregularity rules say (``--irregularities``).

:func:`irregularities` lists those the simulator can make under a ruleset's rules (a
third card dealt in error, a card found face up in the shoe, a misdeal), and
:class:`IrregularSteps` (mixed into the coup's play) makes each and handles it as the rule
requires: the check reports it as an ``info`` finding (``irregularity.mishandled``), not
a breach.

How each is handled: docs/simulator.md, "Irregularities".
"""

from __future__ import annotations

from dataclasses import dataclass

from compliance.games.baccarat.replay import BANKER, PLAYER, ZERO

KINDS = {
    "erroneous-card": "irregularity.erroneous-card",
    "face-up-card": "irregularity.face-up-card",
    "misdeal": "irregularity.misdeal",
}


@dataclass(frozen=True)
class Injection:
    """One breach the simulator made on purpose."""

    coup: int
    category: str
    what: str

    def as_dict(self) -> dict:
        return {"coup": self.coup, "category": self.category, "what": self.what}


@dataclass(frozen=True)
class Carry:
    """A card a coup sets aside as the next coup's first card."""

    code: str
    no_bet: bool
    method: str | None


def irregularities(procedure, method: str | None) -> list[str]:
    """The irregularities the simulator can make and handle under these rules."""
    return [k for k, kind in KINDS.items() if procedure.params(kind, method) is not None]


class IrregularSteps:
    """Irregularities within a coup (mixed into :class:`~compliance.games.baccarat.simulate.play.CoupPlay`)."""

    def handled_as_required(self, what: str) -> None:
        self.handled = Injection(self.number, "irregularity.mishandled", what)

    def irregular_deal(self) -> bool:
        """The initial deal with a card found face up, or misdealt and reconstructed; False if neither is due."""
        if self.irregular == "face-up-card":
            p = self.g.procedure.params(KINDS["face-up-card"], self.method)
            before = p.before_first_card == "discard" and self.rng.random() < 0.5
            for i, hand in enumerate((PLAYER, BANKER, PLAYER, BANKER)):
                if (i == 0 and before) or (i == 1 and not before):
                    code = self.shoe.draw()
                    when = "before" if before else "after"
                    if before or p.after_first_card == "discard":
                        self.events.append({"type": "card", "card": code, "to": "discard", "face": "up",
                                            "found_face_up": True})
                        self.handled_as_required(f"{code} found face up {when} the first card, discarded")
                    else:
                        self.banker.append(code)
                        self.events.append({"type": "card", "card": code, "to": hand, "face": "up", "found_face_up": True})
                        self.handled_as_required(f"{code} found face up after the first card, played as if face down")
                        continue
                self.deal(hand)
            return True
        if self.irregular == "misdeal":
            dealt = [self.deal(hand) for hand in (PLAYER, BANKER, BANKER, PLAYER)]
            self.player[:] = [dealt[0], dealt[2]]
            self.banker[:] = [dealt[1], dealt[3]]
            self.events.append({"type": "reconstruct", "player": list(self.player), "banker": list(self.banker)})
            self.handled_as_required("misdeal (third and fourth cards swapped) reconstructed into the dealing order")
            p = self.g.procedure.params(KINDS["misdeal"], self.method)
            wagers = [k for k in self.stakes]
            if p.withdrawal_after_reconstruction and len(wagers) >= 2 and self.rng.random() < 0.5:
                bettor, spot = self.rng.choice(wagers)
                self.adjust_wager(bettor, spot, ZERO, "withdrawn")
            return True
        return False

    def erroneous_third_card(self, banker_total: int) -> bool:
        """A Player third card dealt in error while the Player's Hand stands (no natural), put where the rule
        says; True if it was dealt (the Banker's Hand then has its third card, or stands)."""
        if self.irregular != "erroneous-card":
            return False
        p = self.g.procedure.params(KINDS["erroneous-card"], self.method)
        if self.g.tableau.banker_draws(banker_total, None):
            code = self.deal(PLAYER)
            self.player.pop()
            self.banker.append(code)
            self.events.append({"type": "card_move", "card": code, "to": BANKER})
            self.handled_as_required(f"{code}, an unauthorised Player third card, became the Banker's third card")
            self.pass_third_card(BANKER)
            return True
        if self.shoe.cut_card_out:
            return False  # the next coup starts a new shoe: nothing could carry over
        disclosed = self.rng.random() < 0.5
        code = self.deal(PLAYER, face="up" if disclosed else "down")
        self.player.pop()
        if disclosed and p.when_disclosed == "discard":
            self.events.append({"type": "card_move", "card": code, "to": "discard"})
            self.handled_as_required(f"{code}, an unauthorised Player third card, exposed, was discarded")
        else:
            self.events.append({"type": "card_move", "card": code, "to": "next_coup"})
            no_bet = disclosed and p.when_disclosed == "no_bet_coup"
            self.carry_out = Carry(code, no_bet, p.no_bet_method if no_bet else None)
            self.handled_as_required(f"{code}, an unauthorised Player third card, set aside as the first card of "
                                     + ("a no bet coup" if no_bet else "the next coup"))
        return True

    def excess_banker_card(self) -> bool:
        """A Banker third card drawn when the Banker's Hand stands, put where the rule says; True if drawn."""
        if self.irregular != "erroneous-card" or self.handled is not None:
            return False
        p = self.g.procedure.params(KINDS["erroneous-card"], self.method)
        if not p.excess_banker_card or self.shoe.cut_card_out or self.shoe.peek() in self.player:
            return False  # (a card_move names a card by its code: a twin in the Player's Hand would be moved instead)
        disclosed = self.rng.random() < 0.5
        code = self.deal(BANKER, face="up" if disclosed else "down")
        self.banker.pop()
        if disclosed:
            self.events.append({"type": "card_move", "card": code, "to": "discard"})
            self.handled_as_required(f"{code}, a Banker third card drawn in excess, exposed, was discarded")
        else:
            self.events.append({"type": "card_move", "card": code, "to": "next_coup"})
            self.carry_out = Carry(code, False, None)
            self.handled_as_required(f"{code}, a Banker third card drawn in excess, set aside as the next coup's first card")
        return True
