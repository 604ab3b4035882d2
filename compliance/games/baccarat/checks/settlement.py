"""Settlement: every wager standing at settlement is settled once, by the ruleset's payouts.

Payouts come from the ruleset's ``game.payouts`` for the table's game (odds,
commission on winning Banker wagers, the tie's odds, exceptions such as a
Banker win on 6 in Even Money Baccarat); the table's ``commission`` overrides
the house default.  A winning Banker wager may be paid net of commission, or
paid in full with the commission collected by a ``commission`` event.  The
outcome is judged by the cards, not by the announced result (a wrong
announcement is ``result.wrong``'s finding).
"""

from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

from compliance.checks import Breach, check
from compliance.games.baccarat.replay import BANKER, PLAYER, ZERO, CoupState, describe_bettor
from compliance.games.common import Due, settlement_basis


def _owed(terms: tuple, stake: Decimal) -> Due:
    return Due(terms[0], *_amounts(terms, stake), terms[3])


def _amounts(terms: tuple, stake: Decimal) -> tuple[Decimal, Decimal]:
    """(gross, commission) owed on ``stake`` under ``terms``: the winnings and the house's commission on them,
    the stake collected for a loss, nothing for a push."""
    outcome, odds, rate, _, payout = terms
    if outcome != "win":
        return (stake if outcome == "lose" else ZERO), ZERO
    gross = stake * odds
    return gross, payout.commission_on(gross, rate) if rate else ZERO


def terms(c: CoupState, spot: str, t) -> tuple:
    """(outcome, odds, commission rate, why, payout) of any wager on ``spot`` in this coup: the same for every bettor."""
    if c.void is not None:
        return "push", None, ZERO, "the coup is void: every wager is returned", None
    winner = c.winner()
    pay = t.payouts
    if winner == "tie" and spot != "tie":
        if pay.on_tie == "push":
            return "push", None, ZERO, "a tie returns Player and Banker wagers", None
        return "lose", None, ZERO, "Player and Banker wagers lose on a tie", None
    if spot != winner:
        return "lose", None, ZERO, "a tie" if winner == "tie" else _WON[winner], None
    payout = getattr(pay, spot)
    odds, rate = payout.odds, payout.commission
    excepted = None  # the winning points an exception of the payouts names
    if payout.exceptions and winner != "tie":
        points = c.final_total(winner)
        ex = payout.exception_for(points, len(c.player if winner == PLAYER else c.banker))
        if ex is not None:
            if ex.push:
                return "push", None, ZERO, f"{spot.capitalize()} winning with {points} is a push", None
            odds, excepted = ex.odds, points

    def why() -> str:
        text = (f"{spot.capitalize()} pays {t.money(odds)} to 1" if excepted is None
                else f"{spot.capitalize()} winning with {excepted} pays {t.money(odds)} to 1")
        if not rate:
            return text
        rounded = (f", rounded {payout.commission_rounding.replace('_', ' ')} to {t.money(payout.commission_unit)}"
                   if payout.commission_unit else "")
        return text + f" less {t.money(rate * 100)}% commission{rounded}"

    return "win", odds, rate, why, payout


_WON = {PLAYER: "Player won", BANKER: "Banker won"}


def _judgeable(c: CoupState) -> bool:
    return c.void is not None or c.hands_complete


class Wrong(NamedTuple):
    """One wrong settlement: where, the finding's words, and what it cost or gave the patron."""

    at: int
    message: str
    gain: Decimal  # what the patron got beyond what was due (negative: the house kept more than due)
    kind: str  # "commission" (not deducted, or collected wrong), "payout" (a win or push), "collection" (a loss),
    # or "no wager" (a settlement of a wager that did not stand)


def _value(outcome: str, amount: Decimal) -> Decimal:
    """What a settlement is worth to the patron: winnings paid, a stake collected (negative), a push nothing."""
    return amount if outcome == "win" else -amount if outcome == "lose" else ZERO


@check("settlement.amount", "settlement.wrong-amount", needs=("hands", "values", "stakes", "settlements"))
def wrong_amount(c: CoupState, p, t):
    """Each settled wager gets exactly what the payouts give for the true outcome."""
    return [Breach(w.at, w.message) for w in wrong_settlements(c, t)]


def wrong_settlements(c: CoupState, t) -> list[Wrong]:
    """Every settlement and collected commission of the coup that is not what the payouts give, with its cost.

    The finding of :func:`wrong_amount`, and the per-coup errors whose pattern the integrity stage judges
    (a dealer's errors that run one way)."""
    if not _judgeable(c) or not c.settlements:
        return []
    basis = settlement_basis(c)
    commission_by: dict = {}
    for cm in c.commissions:
        commission_by.setdefault(cm.bettor, []).append(cm)
    out = []
    seen = set()
    by_spot = {}  # spot -> its terms, worked out once a coup
    for s in c.settlements:
        key = (s.bettor, s.spot)
        if key in seen:
            continue  # settled twice: settlement.missing's finding
        seen.add(key)
        stake = basis.get(key)
        if stake is None:
            who = f"{describe_bettor(s.bettor)} {s.spot} wager"
            out.append(Wrong(s.at, f"{who} is settled ({s.outcome} {t.money(s.amount)}) but no such wager stands",
                             _value(s.outcome, s.amount), "no wager"))
            continue
        spot_terms = by_spot.get(s.spot)
        if spot_terms is None:
            spot_terms = by_spot[s.spot] = terms(c, s.spot, t)
        outcome = spot_terms[0]
        gross, commission = _amounts(spot_terms, stake)  # no Due built for the many wagers settled right
        if commission and s.outcome == "win" and s.amount == gross and commission_by.get(s.bettor):
            continue  # paid in full, commission collected apart (checked below)
        expect_amount = gross - commission
        if s.outcome != outcome or s.amount != expect_amount:
            who = f"{describe_bettor(s.bettor)} {s.spot} wager"
            why = _owed(spot_terms, stake).why
            kind = ("commission" if commission and s.outcome == "win" and s.amount == gross
                    else "collection" if outcome == "lose" else "payout")
            out.append(Wrong(s.at, f"{who} of {t.money(stake)} should be {outcome} {t.money(expect_amount)} ({why}); "
                                   f"it was settled {s.outcome} {t.money(s.amount)}",
                             _value(s.outcome, s.amount) - _value(outcome, expect_amount), kind))
    for bettor, paid in commission_by.items():
        stake = basis.get((bettor, BANKER))
        d = _owed(by_spot.get(BANKER) or terms(c, BANKER, t), stake) if stake is not None else None
        owed = d.commission if d is not None and d.outcome == "win" else None
        gross_paid = any(s.bettor == bettor and s.spot == BANKER and s.outcome == "win" and d is not None and s.amount == d.gross
                         for s in c.settlements)
        for cm in paid:
            if owed is None or not owed:
                out.append(Wrong(cm.at, f"commission of {t.money(cm.amount)} collected from {describe_bettor(bettor)}, "
                                        "who has no winning Banker wager that owes commission", -cm.amount, "commission"))
            elif cm.amount != owed or not gross_paid:
                out.append(Wrong(cm.at, f"commission collected from {describe_bettor(bettor)} is {t.money(cm.amount)}; "
                                        f"{t.money(owed)} is due on winnings of {t.money(d.gross)}"
                                        + ("" if gross_paid else " paid in full"),
                                 (owed if gross_paid else ZERO) - cm.amount, "commission"))
    return out


@check("settlement.missing", "settlement.missing", needs=("hands", "stakes", "settlements"))
def missing(c: CoupState, p, t):
    """Every wager standing when the coup is settled is settled exactly once."""
    if not _judgeable(c):
        return ()
    basis = settlement_basis(c)
    settled = [(s.bettor, s.spot) for s in c.settlements]
    if len(settled) == len(basis) and basis.keys() == set(settled):
        return ()  # the usual coup: each standing wager settled once
    counts: dict[tuple, list] = {}
    for s in c.settlements:
        counts.setdefault((s.bettor, s.spot), []).append(s)
    out = []
    end = c.last_event
    for key, stake in basis.items():
        settled = counts.get(key, ())
        if not settled:
            out.append(Breach(end, f"{describe_bettor(key[0])} {key[1]} wager of {t.money(stake)} was never settled"))
    for key, settled in counts.items():
        if len(settled) > 1:
            out.append(Breach(settled[1].at, f"{describe_bettor(key[0])} {key[1]} wager is settled {len(settled)} times"))
    return out
