"""Money in exact integer minor units (issue 17): the hot path's settlement judgement is the Decimal reference's.

The settlement check works out what a wager is owed in a table's integer units
(:class:`compliance.games.common.Units`: the table's smallest unit times the
denominators of its odds and commission), and falls back to ``Decimal`` where
an amount is not a whole number of units.  On generated stakes, odds,
commission rates, commission units and roundings, the integers are the
reference's amounts to the unit, and on generated coups settled right and
wrong the findings are the reference's, word for word.  Never a float.
"""

from __future__ import annotations

from decimal import Decimal
from unittest import mock

import msgspec
import pytest
from builders import coup, header
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from compliance.games.baccarat import GAME
from compliance.games.baccarat.checks import settlement
from compliance.games.baccarat.replay import Replayer
from compliance.games.baccarat.spots import table_spots
from compliance.games.baccarat.table import TableContext
from compliance.games.common import Units
from compliance.ruleset.loader import load_ruleset

BANKER = load_ruleset("us-nj").game.spots_for("punto_banco")["banker"]  # a spot that takes commission, as declared
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def decimals(most: int, places: int, least: int = 0):
    """Exact decimals n * 10**-k: n up to ``most``, k up to ``places`` (no float anywhere)."""
    return st.builds(lambda n, k: Decimal(n).scaleb(-k), st.integers(least, most), st.integers(0, places))


STAKES = decimals(10**9, 4)
ODDS = st.sampled_from([Decimal(x) for x in ("1", "2", "8", "9", "11", "25", "40", "0.5", "0.95", "1.5")]) | decimals(
    500, 2, least=1)
RATES = st.just(Decimal(0)) | decimals(999, 4, least=1).filter(lambda r: r < 1)
COMMISSION_UNITS = st.none() | decimals(100, 3, least=1)
ROUNDINGS = st.sampled_from(["up", "half_up", "down"])


@SETTINGS
@given(stake=STAKES, odds=ODDS, rate=RATES, unit=COMMISSION_UNITS, rounding=ROUNDINGS)
def test_winnings_and_commission_in_units_are_the_decimal_amounts(stake, odds, rate, unit, rounding):
    payout = BANKER.model_validate({**BANKER.model_dump(), "odds": odds, "commission": rate, "commission_unit": unit,
                                    "commission_rounding": rounding})
    units = TableContext.units_for(table_spots({"banker": payout}))
    gross = stake * odds
    commission = payout.commission_on(gross, rate)  # the reference
    stake_units = units.of(stake)
    owed = units.win(stake_units, odds, rate, unit, rounding) if stake_units is not None else None
    if owed is not None:
        assert owed == (gross * units.scale, commission * units.scale)
        assert all(type(x) is int for x in owed)
    if stake.as_tuple().exponent >= -2 and (unit is None or unit.as_tuple().exponent >= -2):
        assert owed is not None, "a stake in cents, a commission unit in cents: always whole units"


@SETTINGS
@given(amount=decimals(10**12, 6), places=st.integers(0, 4), rate=RATES)
def test_an_amount_is_whole_units_exactly_when_it_is(amount, places, rate):
    units = Units(places, rate.as_integer_ratio()[1])
    got = units.of(amount)
    exact = amount * units.scale
    assert got == (int(exact) if exact == exact.to_integral_value() else None)
    assert units.of(amount) == got  # and the same from the table's cache


# ------------------------------------------------------------------ whole coups: the same findings

HANDS = {
    "player": (["4H", "TD", "3S"], ["KS", "6C"]),  # Player 7, Banker 6
    "banker": (["KD", "6D"], ["KS", "7C"]),  # Player 6, Banker 7
    "tie": (["KD", "7D"], ["KS", "7C"]),
    "banker on six": (["KD", "5D", "KH"], ["KS", "6C"]),  # Even Money Baccarat: a Banker win on 6 pays half
}
TABLES = {}


def table(jurisdiction: str, game: str, rate: Decimal, unit: Decimal | None, rounding: str) -> tuple:
    """A table of the ruleset with the commission rate, unit and rounding given (its integer units made for them)."""
    key = (jurisdiction, game)
    if key not in TABLES:
        TABLES[key] = (load_ruleset(jurisdiction),
                       GAME.codec.header_decoder.decode(msgspec.json.encode(header(jurisdiction, game=game))))
    ruleset, head = TABLES[key]
    t = TableContext.build(head, ruleset, "test")
    spots = {name: s.spot for name, s in t.spots.items()}
    spots["banker"] = spots["banker"].model_copy(update={"commission": rate, "commission_unit": unit,
                                                         "commission_rounding": rounding})
    t.spots = table_spots(spots)
    t.units = TableContext.units_for(t.spots)
    return t


WAGERS = st.lists(st.tuples(st.integers(1, 7), st.sampled_from(["player", "banker", "tie"]), decimals(10**6, 2, 1)),
                  min_size=1, max_size=4, unique_by=lambda w: (w[0], w[1]))
SETTLED = st.tuples(st.sampled_from(["right", "right", "off by a cent", "off by a unit", "wrong outcome", "gross",
                                     "other amount"]), decimals(10**4, 3))


@pytest.mark.slow
@SETTINGS
@given(where=st.sampled_from([("us-nj", "punto_banco"), ("au-nsw", "even_money"), ("au-nsw", "punto_banco")]),
       hands=st.sampled_from(sorted(HANDS)), rate=RATES, unit=COMMISSION_UNITS, rounding=ROUNDINGS, wagers=WAGERS,
       how=st.lists(SETTLED, min_size=4, max_size=4), void=st.booleans(), collected=st.booleans())
def test_findings_in_units_are_the_findings_of_the_decimal_reference(where, hands, rate, unit, rounding, wagers, how,
                                                                      void, collected):
    jurisdiction, game = where
    assume(hands != "banker on six" or game == "even_money")
    judged = []
    for reference in (False, True):
        t = table(jurisdiction, game, rate, unit, rounding)  # a fresh table: no cached terms or units
        c = coup(1, *HANDS[hands], [(seat, spot, str(stake)) for seat, spot, stake in wagers], settle=False)
        replayer = Replayer(t)
        probe = replayer.replay(GAME.codec.coup_decoder.decode(msgspec.json.encode(c)))
        settles, extra = [], []
        for (seat, spot, stake), (kind, amount) in zip(wagers, how):
            owed = settlement._owed(settlement.terms(probe, spot, t), stake)
            outcome, paid = owed.outcome, owed.net
            if kind == "off by a cent":
                paid += Decimal("0.01")
            elif kind == "off by a unit" and unit is not None:
                paid += unit
            elif kind == "wrong outcome":
                outcome = {"win": "lose", "lose": "push", "push": "win"}[outcome]
            elif kind == "gross" and owed.commission:
                paid = owed.gross
                if collected:
                    extra.append({"type": "commission", "seat": seat, "amount": str(owed.commission)})
            elif kind == "other amount":
                paid = amount
            assume(paid >= 0)  # a commission rounded up past small winnings would be owed as a negative payment
            settles.append({"type": "settle", "seat": seat, "spot": spot, "outcome": outcome, "amount": str(paid)})
        c["events"] += settles + extra + ([{"type": "void", "reason": "other"}] if void else [])
        state = Replayer(t).replay(GAME.codec.coup_decoder.decode(msgspec.json.encode(c)))
        if reference:  # Decimal alone: the integer path never answers
            with mock.patch.object(settlement, "_owed_units", lambda *a: None):
                judged.append(list(settlement.wrong_amount(state, None, t)))
        else:
            judged.append(list(settlement.wrong_amount(state, None, t)))
    assert judged[0] == judged[1]


@pytest.mark.parametrize("amount", ["1e-999999999", "1e999999999", "1e-81"])
def test_an_amount_beyond_the_units_is_left_to_the_decimal_reference_at_once(amount):
    """Its integer ratio would have as many digits as its exponent: no units, and the caller judges it in Decimal."""
    units = Units.for_table([Decimal(amount)], [Decimal(amount) if "-" in amount else None])
    assert units.scale <= 10**12  # a rate beyond the units adds no denominator (amounts count 12 places at most)
    assert units.of(Decimal(amount)) is None
    assert units.win(100, Decimal(amount), Decimal(0), None, "up") is None
