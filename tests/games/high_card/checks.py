"""The check kinds of high card: registered in the one registry of check kinds with ``game="high_card"``."""

from __future__ import annotations

from decimal import Decimal

from compliance.checks import Breach, Params, check

GAME = "high_card"


class SettlementParams(Params):
    odds: Decimal = Decimal(1)  # what a winning wager is paid, to 1


@check("high-card.settlement", "settlement.wrong-amount", SettlementParams, game=GAME, needs=("wagers", "cards"))
def settlement(coup, params: SettlementParams, table):
    """A wager is settled as the cards say: paid at the odds when the player's card is higher, collected when it
    is lower, returned on a tie."""
    out = []
    for at, seat, outcome, amount in coup.settlements:
        stake = coup.stakes.get(seat)
        if stake is None:
            continue
        due = {"win": stake * params.odds, "lose": stake, "push": Decimal(0)}[coup.outcome]
        if outcome != coup.outcome or amount != due:
            out.append(Breach(at, f"seat {seat}: settled as a {outcome} of {table.money(amount)}; the cards make it a "
                                  f"{coup.outcome} of {table.money(due)}"))
    return out
