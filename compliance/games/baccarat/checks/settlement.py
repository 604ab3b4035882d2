"""Settlement: every wager standing at settlement is settled once, by the spots the ruleset declares.

Each spot of the table's game says what wins it, what it pays, what pushes it and its commission
(:mod:`compliance.games.baccarat.spots`); the table's ``commission`` replaces the ruleset's on every spot
that takes one.  A winning wager that takes commission may be paid net, or in full with a ``commission``
event.  The outcome is judged by the cards, not the announced result; where the cards do not say it, by
the announced result, and a spot whose settlement reads the cards is then not judged.

Money: docs/reports.md, "Money"; spots: docs/rule-authoring.md, "Wager spots".
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import NamedTuple

from compliance.checks import Breach, Params
from compliance.evidence import Unknown
from compliance.findings import Money
from compliance.games.baccarat.checks.register import check
from compliance.games.baccarat.conditions import Facts
from compliance.games.baccarat.replay import BANKER, PLAYER, ZERO, CoupState, describe_bettor
from compliance.games.baccarat.spots import _NotRecorded, announced_facts, coup_facts, result_key
from compliance.games.common import Due, exact, settlement_basis, value_to_patron
from compliance.printable import bounded_name


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
    outcome, odds, rate, _, spot = terms
    if outcome != "win":
        return (stake if outcome == "lose" else ZERO), ZERO
    with exact(stake, odds, rate):  # the product of a stake and odds of many digits, never rounded
        gross = stake * odds
        return gross, spot.commission_on(gross, rate) if rate else ZERO


_VOID = ("push", None, ZERO, "the coup is void: every wager is returned", None)


def terms(coup: CoupState, spot: str, table, key: tuple | None = None) -> tuple:
    """(outcome, odds, commission rate, why, spot model) of any wager on ``spot`` in this coup: the same for
    every bettor (and, for a spot settled on the result alone, in every coup with the same result).  ``key``:
    the coup's :func:`result_key`, when already worked out; :data:`ANNOUNCED` where the cards do not say the
    outcome (not recorded, or a card not read): the announced result does, and a condition reading the cards
    raises Unknown."""
    if coup.void is not None:
        return _VOID
    s = table.spots[spot]
    if key is ANNOUNCED:
        found = s.terms(announced_facts(coup.result))
        if found is None:  # a condition the announced result cannot settle
            raise Unknown("cards")
        return found
    known = s.by_result
    if known is None:  # it reads the first cards too
        return s.terms(coup_facts(coup, table.naturals))
    if key is None:
        key = result_key(coup, table.naturals)
    found = known.get(key)
    if found is None:
        found = known[key] = s.terms(coup_facts(coup, table.naturals))
    return found


_UNKNOWN = object()
ANNOUNCED = ("announced",)  # the outcome by the announced result, not the cards (see terms)


def _settling(coup: CoupState, spot: str, table, result: tuple | None) -> tuple:
    """(terms, what a stake is owed in units) of the wagers on ``spot`` in this coup.  The owed amounts are kept
    for the table by what settles them (never by object identity: a spot that reads the first cards has new
    terms each coup); for a spot settled on the result alone, both are kept by (spot, result) too."""
    keep = result is not None and result is not ANNOUNCED and table.spots[spot].by_result is not None
    if keep:
        found = table.settling.get((spot, result))
        if found is not None:
            return found
    spot_terms = terms(coup, spot, table, result)
    found = (spot_terms, None if spot_terms is None else table.owed_units.setdefault((spot, *spot_terms[:3]), {}))
    if keep:
        table.settling[(spot, result)] = found
    return found


def _against_every_suit(coup: CoupState, s, stake: Decimal, table) -> Wrong | None:
    """A settlement of a wager whose spot reads suits the record leaves out (``7? 7?``): right if it is what
    some suit the cards could have gives, else wrong (a pair of sevens settled as a loss, whatever the suits)."""
    try:
        every = table.spots[s.spot].possible_terms(coup_facts(coup, table.naturals))
    except Unknown:  # a card's rank not read either
        return None
    if not every:
        return None  # not even that is shown: the wager is not judged
    due = [(terms, *_amounts(terms, stake)) for terms in every]
    for terms, gross, commission in due:  # paid net, or in full with the commission collected apart
        if s.outcome == terms[0] and (s.amount == gross - commission or (commission and s.amount == gross)):
            return None
    ways = " or ".join(f"{terms[0]} {table.money(gross - commission)} ({_owed(terms, stake).why})"
                       for terms, gross, commission in due)
    least = min(value_to_patron(terms[0], gross - commission) for terms, gross, commission in due)
    return Wrong(s.at, f"{describe_bettor(s.bettor)} {s.spot} wager of {table.money(stake)} should be {ways}, whichever "
                       f"suits the cards recorded without one have; it was settled {s.outcome} {table.money(s.amount)}",
                 least, value_to_patron(s.outcome, s.amount), "payout", s.bettor)


def _judgeable(coup: CoupState) -> bool:
    return coup.void is not None or coup.hands_complete


def _outcome(coup: CoupState, table) -> tuple | None:
    """What settles the coup's wagers: None for a void coup, the coup's :func:`result_key` where its cards say
    the outcome, :data:`ANNOUNCED` where they do not (not recorded, or a card not read) and a result was
    announced; Unknown where neither is recorded.  Raises Unknown too for a coup not yet complete (nothing to
    settle) when its cards are not known."""
    if coup.void is not None:
        return None
    try:
        return result_key(coup, table.naturals)
    except Unknown:
        if coup.result is None:
            raise
        return ANNOUNCED


def _right(s, stake: Decimal, spot_terms: tuple, apart: bool) -> bool:
    """Whether settlement ``s`` of ``stake`` is what ``spot_terms`` give: net of commission, or in full where
    commission was collected apart (``apart``)."""
    if s.outcome != spot_terms[0]:
        return False
    gross, commission = _amounts(spot_terms, stake)
    return s.amount == gross - commission or bool(commission and apart and s.amount == gross)


def _every_way(spot) -> list[tuple]:
    """Every (outcome, odds, rate, why, spot model) a wager on ``spot`` can be settled with, whatever the coup:
    each push, each paytable row and the win, and the loss."""
    ways = [("push", None, ZERO, r.why, None) if r.odds is None else
            ("win", r.odds, spot.rate or ZERO, r.why, spot.spot) for r in spot.rules]
    return [*ways, ("lose", None, ZERO, "a loss", None)]


_RESULTS: dict[frozenset, tuple] = {}


def _every_result(naturals) -> tuple:
    """Every (result key, facts) a coup could end in, as a spot settled on the result alone reads it: each
    hand's points, its number of cards and whether it is a natural (a natural stands, and so does the other
    hand).  A few are not reachable under a tableau; they only make a settlement easier to find right."""
    key = frozenset(naturals)
    found = _RESULTS.get(key)
    if found is None:
        out = []
        unread = _NotRecorded()
        for p, b, np, nb in itertools.product(range(10), range(10), (2, 3), (2, 3)):
            natp, natb = np == 2 and p in key, nb == 2 and b in key
            if (natp or natb) and 3 in (np, nb):
                continue
            facts = Facts("player" if p > b else "banker" if b > p else "tie", {"player": p, "banker": b},
                          {"player": np, "banker": nb}, {"player": natp, "banker": natb}, unread)
            out.append(((p, b, np, nb, natp, natb), facts))
        found = _RESULTS[key] = tuple(out)
    return found


def whatever_the_outcome(coup: CoupState, table) -> list[Wrong]:
    """The settlements of a coup whose outcome the record does not show (neither its cards nor its result) that
    are wrong under every outcome it could have had: a settlement no way of settling its spot gives (a Banker
    win paid without its commission, a Tie paid even money), and wagers settled so that no one outcome settles
    them all (both hands paid as winners).  The first kind names its bettor; the second names one only where
    every wager in it is one bettor's (``bettor`` None otherwise: the record does not say who was overpaid)."""
    basis = settlement_basis(coup)
    apart = {cm.bettor for cm in coup.commissions}
    out, possible, seen = [], [], set()
    for s in coup.settlements:
        key = (s.bettor, s.spot)
        stake = basis.get(key)
        if key in seen or stake is None or s.spot not in table.spots:
            continue  # settled twice or with no wager standing: judged as when the outcome is known
        seen.add(key)
        spot = table.spots[s.spot]
        ways = _every_way(spot)
        if any(_right(s, stake, way, s.bettor in apart) for way in ways):
            if spot.by_result is not None:
                possible.append((s, stake, spot))
            continue
        paid = value_to_patron(s.outcome, s.amount)
        due = [(way, value_to_patron(way[0], (lambda g, c: g - c)(*_amounts(way, stake)))) for way in ways]
        nearest, expected = min(due, key=lambda d: (abs(paid - d[1]), d[0][0] != s.outcome))
        words = ", ".join(dict.fromkeys(f"{way[0]} {table.money(abs(value))}" if way[0] != "push" else "push"
                                        for way, value in due))
        out.append(Wrong(s.at, f"{describe_bettor(s.bettor)} {s.spot} wager of {table.money(stake)} was settled "
                               f"{s.outcome} {table.money(s.amount)}, which no outcome gives: whatever the outcome, "
                               f"it is one of: {words} (the record does not show the outcome)",
                         expected, paid, "commission" if nearest[2] and s.outcome == "win" else
                         "collection" if nearest[0] == "lose" else "payout", s.bettor))
    if len(possible) < 2:
        return out
    totals = []  # under each outcome: (what was paid beyond what was due, what was due)
    for result, facts in _every_result(table.naturals):
        total, due = ZERO, ZERO
        for s, stake, spot in possible:
            spot_terms = spot.by_result.get(result)
            if spot_terms is None:
                spot_terms = spot.by_result[result] = spot.terms(facts)
            if spot_terms is None:  # a condition reading what a result does not say: any settlement may be right
                return out
            gross, commission = _amounts(spot_terms, stake)
            owed = value_to_patron(spot_terms[0], gross - commission)
            if not _right(s, stake, spot_terms, s.bettor in apart):
                total += value_to_patron(s.outcome, s.amount) - owed
            due += owed
        if not total and all(_right(s, stake, spot.by_result[result], s.bettor in apart)
                             for s, stake, spot in possible):
            return out  # one outcome settles them all so
        totals.append((total, due))
    nearest, _ = min(totals, key=lambda t: abs(t[0]))
    bettors = {s.bettor for s, _, _ in possible}
    paid = sum((value_to_patron(s.outcome, s.amount) for s, _, _ in possible), ZERO)
    settled = ", ".join(f"{describe_bettor(s.bettor)} {s.spot} {s.outcome} {table.money(s.amount)}"
                        for s, _, _ in possible)
    gains = [total for total, _ in totals]
    whom = "patron" if len(bettors) == 1 else "patrons"
    money = (f"at least {table.money(min(gains))} went to the {whom} beyond what was due" if min(gains) > 0 else
             f"the house kept at least {table.money(-max(gains))} beyond what was due" if max(gains) < 0 else
             "who gained depends on the outcome")
    out.append(Wrong(possible[0][0].at, f"no one outcome settles these wagers so: {settled} (the record does not "
                                        f"result were not recorded; whatever the outcome, {money})",
                     paid - nearest, paid, "payout", next(iter(bettors)) if len(bettors) == 1 else None))
    return out


class Wrong(NamedTuple):
    """One wrong settlement: where, the finding's words, what was due and what was paid (each its value to the
    patron: :func:`~compliance.games.common.value_to_patron`), and whose wager it was."""

    at: int
    message: str
    expected: Decimal
    paid: Decimal
    kind: str  # "commission" (not deducted, or collected wrong), "payout" (a win or push), "collection" (a loss),
    # or "no wager" (a settlement of a wager that did not stand)
    bettor: int | str

    @property
    def gain(self) -> Decimal:
        """What the patron got beyond what was due (negative: the house kept more than due)."""
        return self.paid - self.expected



def patron(coup: CoupState, bettor: int | str) -> str:
    """Who a wager was: the patron's id where the record names one (a standing patron, or the patron seated
    there), else the seat ("seat 3")."""
    if isinstance(bettor, int):
        named = coup.seated.get(bettor) if coup.seated else None
        if named is None and coup.named:  # the record does not say who is seated: the patron its events name
            named = coup.named.get(bettor)
        return bounded_name(named) if named is not None else f"seat {bettor}"
    return bounded_name(bettor.removeprefix("patron:"))


def _money(coup: CoupState, table, bettor, expected: Decimal, paid: Decimal) -> Money:
    return Money(expected, paid, table.currency, None if bettor is None else patron(coup, bettor))


@check("settlement.amount", "settlement.wrong-amount", needs=("hands", "values", "stakes", "settlements"),
       partly={("stakes", "settlements", "results"): "each settlement against the announced result, where the "
               "cards were not recorded or a card was not read: the spots settled on the winner and the points "
               "(a Banker win paid without commission, a Tie paid even money, both sides paid)",
               ("stakes", "settlements"): "each settlement against every outcome the coup could have had, where "
               "neither its cards nor its result were recorded: a payout no outcome gives (a Banker win paid "
               "without commission, a Tie paid even money), and wagers no one outcome settles so (both hands "
               "paid as winners)"})
def wrong_amount(coup: CoupState, params, table):
    """Each settled wager gets exactly what its spot gives for the true outcome: what pushes it, the paytable
    row or the odds it wins at, less the commission the spot takes."""
    wrong = _wrong(coup, table)
    return [Breach(w.at, w.message, money=_money(coup, table, w.bettor, w.expected, w.paid)) for w in wrong] if wrong else ()


def wrong_settlements(coup: CoupState, table) -> list[Wrong]:
    """Every settlement and collected commission of the coup that is not what its spot gives, with its cost,
    and with the patron it went to: the per-coup errors whose pattern the integrity stage judges (a dealer's
    errors that run one way)."""
    wrong = _wrong(coup, table)
    return [w for w in wrong if w.bettor is not None] if wrong else wrong


def _wrong(coup: CoupState, table) -> list[Wrong]:
    """The finding of :func:`wrong_amount`: :func:`wrong_settlements`, and wagers settled so that no one
    outcome settles them all, between patrons the record cannot tell apart (``bettor`` None)."""
    if not coup.settlements:
        return []
    try:
        if not _judgeable(coup):
            return []
    except Unknown:  # the cards not recorded: judged by the announced result, or whatever the outcome
        pass
    try:
        result = _outcome(coup, table)
    except Unknown as unread:  # neither the cards nor an announced result say the outcome
        wrong = whatever_the_outcome(coup, table)
        if not wrong:
            raise unread from None
        return wrong
    basis = settlement_basis(coup)
    commission_by: dict = {}
    for cm in coup.commissions:
        commission_by.setdefault(cm.bettor, []).append(cm)
    out = []
    seen = set()
    by_spot = {}  # spot -> its terms, worked out once a coup
    unknown = None  # a wager whose spot's settlement reads what the record does not hold
    units = table.units
    converted = units.converted  # amount -> units, as far as the table has met them
    for s in coup.settlements:
        key = (s.bettor, s.spot)
        if key in seen:
            continue  # settled twice: settlement.missing's finding
        seen.add(key)
        stake = basis.get(key)
        if stake is None:
            who = f"{describe_bettor(s.bettor)} {s.spot} wager"
            out.append(Wrong(s.at, f"{who} is settled ({s.outcome} {table.money(s.amount)}) but no such wager stands",
                             ZERO, value_to_patron(s.outcome, s.amount), "no wager", s.bettor))
            continue
        spot = by_spot.get(s.spot)
        if spot is None:
            try:
                spot = by_spot[s.spot] = _settling(coup, s.spot, table, result)
            except Unknown as e:
                spot = by_spot[s.spot] = (None, None)
                unknown = e
        spot_terms, by_stake = spot
        if spot_terms is None:  # the record does not show all the spot is settled on (a card recorded in part)
            wrong = _against_every_suit(coup, s, stake, table) if result is not ANNOUNCED else None
            if wrong is not None:
                out.append(wrong)
            continue
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
            kind = ("commission" if commission and s.outcome == "win" and s.amount == gross
                    else "collection" if outcome == "lose" else "payout")
            out.append(Wrong(s.at, f"{who} of {table.money(stake)} should be {outcome} {table.money(expect_amount)} ({why}); "
                                   f"it was settled {s.outcome} {table.money(s.amount)}",
                             value_to_patron(outcome, expect_amount), value_to_patron(s.outcome, s.amount), kind,
                             s.bettor))
    if unknown is not None and not out:
        raise unknown
    if not commission_by:
        return out
    takers = [name for name, spot in table.spots.items() if spot.rate]  # the spots that take commission (a rate above 0)
    for bettor, paid in commission_by.items():
        taken = next((name for name in takers if (bettor, name) in basis), takers[0] if takers else None)
        stake = basis.get((bettor, taken))
        if stake is not None and taken not in by_spot:
            try:
                by_spot[taken] = (terms(coup, taken, table, result), None)
            except Unknown:
                by_spot[taken] = (None, None)
        d = _owed(by_spot[taken][0], stake) if stake is not None and by_spot[taken][0] is not None else None
        owed = d.commission if d is not None and d.outcome == "win" else None
        gross_paid = any(s.bettor == bettor and s.spot == taken and s.outcome == "win" and d is not None and s.amount == d.gross
                         for s in coup.settlements)
        for cm in paid:
            if owed is None or not owed:
                which = " or ".join(table.spots[name].title for name in takers)
                out.append(Wrong(cm.at, f"commission of {table.money(cm.amount)} collected from {describe_bettor(bettor)}, "
                                        f"who has no winning {which + ' ' if which else ''}wager that owes commission",
                                 ZERO, -cm.amount, "commission", bettor))
            elif cm.amount != owed or not gross_paid:
                out.append(Wrong(cm.at, f"commission collected from {describe_bettor(bettor)} is {table.money(cm.amount)}; "
                                        f"{table.money(owed)} is due on winnings of {table.money(d.gross)}"
                                        + ("" if gross_paid else " paid in full"),
                                 -owed if gross_paid else ZERO, -cm.amount, "commission", bettor))
    return out


@check("settlement.missing", "settlement.missing", needs=("hands", "stakes", "settlements"),
       partly={("stakes", "settlements"): "every standing wager settled once, in a coup shown to be over without "
                                          "its cards (its result announced, or other wagers settled)"})
def missing(coup: CoupState, params, table):
    """Every wager standing when the coup is settled is settled exactly once."""
    try:
        if not _judgeable(coup):
            return ()
    except Unknown:  # the cards not recorded: the coup is over where its result was announced or it was settled
        if not coup.settlements:
            try:
                over = coup.result is not None
            except Unknown:
                over = False
            if not over:
                raise
    basis = settlement_basis(coup)
    settled = {(s.bettor, s.spot) for s in coup.settlements}
    if len(settled) == len(coup.settlements) == len(basis) and basis.keys() == settled:
        return ()  # the usual coup: each standing wager settled once
    counts: dict[tuple, list] = {}
    for s in coup.settlements:
        counts.setdefault((s.bettor, s.spot), []).append(s)
    out = []
    end = coup.last_event
    try:
        result = _outcome(coup, table)
    except Unknown:  # neither the cards nor the result say the outcome: what a wager was owed is not known
        result = _UNKNOWN
    for key, stake in basis.items():
        settled = counts.get(key, ())
        if not settled:
            try:
                spot_terms = terms(coup, key[1], table, result) if key[1] in table.spots and result is not _UNKNOWN else None
            except Unknown:  # its spot's settlement reads the cards, not recorded
                spot_terms = None
            money = None
            if spot_terms is not None:  # what it was owed (none where the record shows too little to say)
                gross, commission = _amounts(spot_terms, stake)
                money = _money(coup, table, key[0], value_to_patron(spot_terms[0], gross - commission), ZERO)
            out.append(Breach(end, f"{describe_bettor(key[0])} {key[1]} wager of {table.money(stake)} was never settled",
                              money=money))
    for key, settled in counts.items():
        if len(settled) > 1:  # the first settlement is judged by settlement.amount; the others were not due at all
            paid = sum((value_to_patron(s.outcome, s.amount) for s in settled[1:]), ZERO)
            twice = f"{describe_bettor(key[0])} {key[1]} wager is settled {len(settled)} times"
            out.append(Breach(settled[1].at, twice,
                              money=_money(coup, table, key[0], ZERO, paid)))
    return out


class OrderParams(Params):
    seat_order: bool = True
    """the wagers settled before the third card go seat by seat counter-clockwise from the dealer's right (the
    table's ``seat_order``); a standing patron's wager is not placed in that order"""


@check("settlement.order", "settlement.order", OrderParams, needs=("hands", "settlements"), when=("settlements",))
def settled_in_order(coup: CoupState, params: OrderParams, table):
    """A wager on a spot settled on the initial cards (``settled: before_third_card``) is settled before any
    third card is dealt, and, where the rules say so, those wagers are settled seat by seat counter-clockwise
    from the dealer's right.  A coup with no third card has no moment to miss: only the order is judged."""
    early = [s for s in coup.settlements if table.spots[s.spot].spot.settled == "before_third_card"]
    if not early:
        return ()
    out = []
    third = min((card for hand in (PLAYER, BANKER) for card in coup.extra_cards(hand)), key=lambda x: x.at, default=None)
    for s in early:
        if third is not None and s.at > third.at:
            hand = "Player's" if third in coup.extra_cards(PLAYER) else "Banker's"
            out.append(Breach(s.at, f"{describe_bettor(s.bettor)} {table.spots[s.spot].title} wager settled after the "
                                    f"{hand} third card ({third.code}); it is settled before any third card is dealt"))
    if params.seat_order:
        seated = [s for s in early if isinstance(s.bettor, int)]
        for before, after in zip(seated, seated[1:], strict=False):
            if table.rank(after.bettor) < table.rank(before.bettor):
                out.append(Breach(after.at, f"{describe_bettor(after.bettor)} {table.spots[after.spot].title} wager settled "
                                            f"after {describe_bettor(before.bettor)}'s; these wagers are settled "
                                            "counter-clockwise from the dealer's right"))
                break
    return out
