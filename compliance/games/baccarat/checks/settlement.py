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

from compliance.checks import Breach, check
from compliance.games.baccarat.replay import BANKER, PLAYER, ZERO, CoupState, describe_bettor
from compliance.games.common import Due, settlement_basis


def _owed(terms: tuple, stake: Decimal) -> Due:
    return Due(terms[0], *_amounts(terms, stake), terms[3])


def _owed_units(terms: tuple, stake: Decimal, units) -> tuple[int, int] | None:
    """(gross, commission) owed on ``stake`` under ``terms``, in the table's integer units (games.common.Units),
    as :func:`_amounts` gives them in Decimal; None where an amount is not a whole number of units."""
    stake_units = units.of(stake)
    if stake_units is None:
        return None
    outcome, odds, rate, _, payout = terms
    if outcome != "win":
        return (stake_units if outcome == "lose" else 0), 0
    if not rate:
        return units.win(stake_units, odds, ZERO, None, "up")
    return units.win(stake_units, odds, rate, payout.commission_unit, payout.commission_rounding)


def _amounts(terms: tuple, stake: Decimal) -> tuple[Decimal, Decimal]:
    """(gross, commission) owed on ``stake`` under ``terms``: the winnings and the house's commission on them,
    the stake collected for a loss, nothing for a push."""
    outcome, odds, rate, _, payout = terms
    if outcome != "win":
        return (stake if outcome == "lose" else ZERO), ZERO
    gross = stake * odds
    return gross, payout.commission_on(gross, rate) if rate else ZERO


def terms(c: CoupState, spot: str, t) -> tuple:
    """(outcome, odds, commission rate, why, payout) of any wager on ``spot`` in this coup: the same for every bettor,
    and for every coup that ended alike (the winner, and where the payouts have exceptions, its points and cards);
    worked out once a table for each such ending (``t.owed``)."""
    if c.void is not None:
        key = None
    else:
        key = (c.won, spot)
        if spot == c.won and spot != "tie" and getattr(t.payouts, spot).exceptions:
            key += (c.final_total(spot), len(c.player if spot == PLAYER else c.banker))
    found = t.owed.get(key)
    if found is None:
        found = t.owed[key] = _terms(c, spot, t)
    return found


def _terms(c: CoupState, spot: str, t) -> tuple:
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
_UNKNOWN = object()


def _judgeable(c: CoupState) -> bool:
    return c.void is not None or c.hands_complete


@check("settlement.amount", "settlement.wrong-amount", needs=("hands", "values", "stakes", "settlements"))
def wrong_amount(c: CoupState, p, t):
    """Each settled wager gets exactly what the payouts give for the true outcome."""
    if not _judgeable(c) or not c.settlements:
        return ()
    basis = settlement_basis(c)
    commission_by: dict = {}
    for cm in c.commissions:
        commission_by.setdefault(cm.bettor, []).append(cm)
    out = []
    seen = set()
    by_spot = {}  # spot -> its terms, worked out once a coup
    units = t.units
    converted = units.converted  # amount -> units, as far as the table has met them
    for s in c.settlements:
        key = (s.bettor, s.spot)
        if key in seen:
            continue  # settled twice: settlement.missing's finding
        seen.add(key)
        stake = basis.get(key)
        if stake is None:
            who = f"{describe_bettor(s.bettor)} {s.spot} wager"
            out.append(Breach(s.at, f"{who} is settled ({s.outcome} {t.money(s.amount)}) but no such wager stands"))
            continue
        spot = by_spot.get(s.spot)
        if spot is None:
            spot_terms = terms(c, s.spot, t)
            spot = by_spot[s.spot] = (spot_terms, t.owed_units.setdefault(id(spot_terms), {}))
        spot_terms, by_stake = spot
        outcome = spot_terms[0]
        owed = by_stake.get(stake, _UNKNOWN)  # in integer units: (winnings, commission), or None
        if owed is _UNKNOWN:
            owed = _owed_units(spot_terms, stake, units)
            if len(by_stake) < 4096:  # a table's stakes are a few hundred values: each worked out once
                by_stake[stake] = owed
        paid = converted.get(s.amount, _UNKNOWN)
        if paid is _UNKNOWN:
            paid = units.of(s.amount)
        if owed is not None and paid is not None:
            gross, commission = owed
            if commission and s.outcome == "win" and paid == gross and commission_by.get(s.bettor):
                continue  # paid in full, commission collected apart (checked below)
            if s.outcome == outcome and paid == gross - commission:
                continue
        # not a whole number of units, or settled wrong: judged (and worded) in Decimal, the reference
        gross, commission = _amounts(spot_terms, stake)  # no Due built for the many wagers settled right
        if commission and s.outcome == "win" and s.amount == gross and commission_by.get(s.bettor):
            continue  # paid in full, commission collected apart (checked below)
        expect_amount = gross - commission
        if s.outcome != outcome or s.amount != expect_amount:
            who = f"{describe_bettor(s.bettor)} {s.spot} wager"
            why = _owed(spot_terms, stake).why
            out.append(Breach(s.at, f"{who} of {t.money(stake)} should be {outcome} {t.money(expect_amount)} ({why}); "
                                    f"it was settled {s.outcome} {t.money(s.amount)}"))
    for bettor, paid in commission_by.items():
        stake = basis.get((bettor, BANKER))
        d = _owed(terms(c, BANKER, t), stake) if stake is not None else None
        owed = d.commission if d is not None and d.outcome == "win" else None
        gross_paid = any(s.bettor == bettor and s.spot == BANKER and s.outcome == "win" and d is not None and s.amount == d.gross
                         for s in c.settlements)
        for cm in paid:
            if owed is None or not owed:
                out.append(Breach(cm.at, f"commission of {t.money(cm.amount)} collected from {describe_bettor(bettor)}, "
                                         "who has no winning Banker wager that owes commission"))
            elif cm.amount != owed or not gross_paid:
                out.append(Breach(cm.at, f"commission collected from {describe_bettor(bettor)} is {t.money(cm.amount)}; "
                                         f"{t.money(owed)} is due on winnings of {t.money(d.gross)}"
                                         + ("" if gross_paid else " paid in full")))
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
