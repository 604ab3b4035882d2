"""The money of a finding and of a run: what a wrong settlement was due and paid, and in whose favour.

Every settlement finding carries its money as data (``findings.Money``),
worked out by the check from the replayed coup, never read back from the
message: what was due and what was paid, each as its value to the patron
(winnings plus, a stake or commission collected minus), the difference, and
whom it favours.  The report adds them up: net (paid to patrons beyond what
was due, less what the house kept beyond it), each way, and by table,
dealer, hour and patron, in every format.
"""

from __future__ import annotations

import json
from decimal import Decimal

import jsonschema
import pytest
from builders import check, coup, transcript
from hypothesis import given, settings
from hypothesis import strategies as st
from reporting import STAMP, run, sample_into

from compliance.findings import Finding, Money, amount_text
from compliance.report.json import schema
from compliance.report.money import money_summary

PLAYER_WINS = (["4H", "TD", "3S"], ["KS", "6C"])  # Player 7, Banker 6
BANKER_WINS = (["KD", "6D"], ["KS", "7C"])  # Player 6, Banker 7


def settle(seat, spot, outcome, amount):
    return {"type": "settle", "seat": seat, "spot": spot, "outcome": outcome, "amount": Decimal(str(amount))}


def one_coup(hands, wagers, settles, **head):
    c = coup(1, *hands, wagers, settle=False)
    c["events"] += list(settles)
    return check(transcript([c], "us-nj", **head))


def money_of(found) -> list[dict]:
    return [f.money.as_dict() for f in found if f.category.startswith("settlement.")]


def test_a_banker_win_paid_without_its_commission_favours_the_patron_by_the_commission():
    found = one_coup(BANKER_WINS, [(2, "banker", 1000)], [settle(2, "banker", "win", 1000)], currency="USD")
    assert money_of(found) == [{"expected": "950", "paid": "1000", "difference": "50", "favours": "patron",
                                "currency": "USD", "patron": "P-2"}]


def test_a_losing_wager_collected_short_favours_the_patron_and_an_underpaid_win_the_house():
    short = one_coup(PLAYER_WINS, [(2, "banker", 200)], [settle(2, "banker", "lose", 150)])
    assert money_of(short) == [{"expected": "-200", "paid": "-150", "difference": "50", "favours": "patron",
                                "currency": None, "patron": "P-2"}]
    under = one_coup(PLAYER_WINS, [(1, "player", 100)], [settle(1, "player", "win", 95)])
    assert money_of(under)[0] | {"patron": None} == {"expected": "100", "paid": "95", "difference": "5",
                                                     "favours": "house", "currency": None, "patron": None}


def test_a_losing_wager_paid_as_a_win_costs_the_house_the_stake_and_the_payout():
    found = one_coup(PLAYER_WINS, [(2, "banker", 200)], [settle(2, "banker", "win", 190)])
    (m,) = money_of(found)
    assert (m["expected"], m["paid"], m["difference"], m["favours"]) == ("-200", "190", "390", "patron")


def test_commission_collected_from_someone_who_owes_none_favours_the_house():
    found = one_coup(BANKER_WINS, [(1, "player", 100)],
                     [settle(1, "player", "lose", 100), {"type": "commission", "seat": 1, "amount": 5}])
    (m,) = money_of(found)
    assert (m["expected"], m["paid"], m["difference"], m["favours"]) == ("0", "-5", "5", "house")


def test_commission_collected_short_favours_the_patron():
    found = one_coup(BANKER_WINS, [(2, "banker", 200)],
                     [settle(2, "banker", "win", 200), {"type": "commission", "seat": 2, "amount": 5}])
    (m,) = money_of(found)
    assert (m["expected"], m["paid"], m["difference"], m["favours"]) == ("-10", "-5", "5", "patron")


def test_a_winning_wager_never_settled_favours_the_house_by_what_it_was_owed():
    found = one_coup(PLAYER_WINS, [(1, "player", 100), (2, "player", 50)], [settle(1, "player", "win", 100)])
    (m,) = money_of(found)
    assert (m["expected"], m["paid"], m["favours"], m["patron"]) == ("50", "0", "house", "P-2")


def test_a_wager_paid_twice_favours_the_patron_by_the_second_payment_alone():
    found = one_coup(PLAYER_WINS, [(1, "player", 100)],
                     [settle(1, "player", "win", 100), settle(1, "player", "win", 100)])
    (m,) = money_of(found)
    assert (m["expected"], m["paid"], m["difference"], m["favours"]) == ("0", "100", "100", "patron")


def test_a_seated_patron_is_named_by_the_id_the_record_gives():
    c = coup(1, *BANKER_WINS, [(2, "banker", 1000)], settle=False)
    c["seated"] = {"2": "P-77"}
    c["events"].append(settle(2, "banker", "win", 1000))
    doc = transcript([c], "us-nj") | {"version": "1.1"}
    (m,) = money_of(check(doc))
    assert m["patron"] == "P-77"


@settings(max_examples=40, deadline=None)
@given(stake=st.integers(20, 4000), paid=st.integers(0, 8000))
def test_the_difference_is_what_was_paid_less_what_was_due_for_any_stake_and_payment(stake, paid):
    found = one_coup(PLAYER_WINS, [(1, "player", stake)], [settle(1, "player", "win", paid)])
    if paid == stake:
        assert money_of(found) == []
        return
    (m,) = money_of(found)
    assert Decimal(m["paid"]) - Decimal(m["expected"]) == paid - stake
    assert m["difference"] == str(abs(paid - stake))
    assert m["favours"] == ("patron" if paid > stake else "house")


def test_amounts_are_plain_exact_decimal_strings():
    assert [amount_text(Decimal(x)) for x in ("950.00", "1E+3", "-0", "0.050", "-12.5")] == [
        "950", "1000", "0", "0.05", "-12.5"]


# ------------------------------------------------------------------ the run's money


def _finding(coup, gain, *, dealer="D-1", at="2026-11-01T20:15:00Z", table="T-9", patron="seat 1", sums=None):
    return Finding(rule="R", category="settlement.wrong-amount", severity="error", transcript="t.json", coup=coup,
                   event=1, message=f"m{coup}", citation="", table=table, staff=(("dealer", dealer),), at=at,
                   money=Money(Decimal(100), Decimal(100) + gain, "USD", patron, sums))


def test_the_net_is_what_went_to_patrons_less_what_the_house_kept_by_table_dealer_hour_and_patron():
    findings = [_finding(1, Decimal(50)), _finding(2, Decimal(-20), dealer="D-2"),
                _finding(3, Decimal("7.5"), at="2026-11-01T21:02:00Z", patron="P-9"),
                _finding(4, Decimal(999), sums=3)]  # a drift finding sums others: not counted again
    s = money_summary(findings)
    assert (s.total.net, s.total.to_patrons, s.total.to_house, s.total.findings) == (
        Decimal("37.5"), Decimal("57.5"), Decimal(20), 3)
    doc = s.as_dict()
    assert {k: v["net"] for k, v in doc["dealer"].items()} == {"D-1": "57.5", "D-2": "-20"}
    assert {k: v["net"] for k, v in doc["hour"].items()} == {"2026-11-01T20:00Z": "30", "2026-11-01T21:00Z": "7.5"}
    assert {k: v["net"] for k, v in doc["patron"].items()} == {"P-9": "7.5", "T-9 seat 1": "30"}
    assert doc["currency"] == "USD" and doc["net"] == "37.5"


def test_amounts_in_different_currencies_are_never_added():
    usd = _finding(1, Decimal(50))
    aud = Finding(**{**{k: getattr(usd, k) for k in usd.__slots__}, "coup": 2,
                     "money": Money(Decimal(0), Decimal(-10), "AUD", "seat 1")})
    s = money_summary([usd, aud]).as_dict()
    assert set(s) == {"currencies"}
    assert {code: one["net"] for code, one in s["currencies"].items()} == {"AUD": "-10", "USD": "50"}


def test_every_format_gives_the_money(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = run("check", "night-shift.json", "-o", "json=r.json", "-o", "sarif=r.sarif", "-o", "markdown=r.md",
            "-o", "html=r.html", "--timestamp", STAMP)
    assert r.stderr.splitlines()[-1].endswith("; net 50 USD paid to patrons beyond what was due")
    doc = json.loads((tmp_path / "r.json").read_text())
    jsonschema.Draft202012Validator(schema()).validate(doc)
    (wrong,) = [f for f in doc["findings"] if f["category"] == "settlement.wrong-amount"]
    assert wrong["money"] == {"expected": "950", "paid": "1000", "difference": "50", "favours": "patron",
                              "currency": "USD", "patron": "P-1001"}
    assert doc["money"]["net"] == "50" and doc["money"]["table"]["BAC-07"]["to_patrons"] == "50"
    sarif = json.loads((tmp_path / "r.sarif").read_text())
    (result,) = [x for x in sarif["runs"][0]["results"] if x["properties"]["category"] == "settlement.wrong-amount"]
    assert result["properties"]["money"] == wrong["money"]
    assert sarif["runs"][0]["properties"]["money"]["net"] == "50"
    assert "due 950, paid 1,000 USD: 50 USD in the patron's favour" in (tmp_path / "r.md").read_text()
    html = (tmp_path / "r.html").read_text()
    assert "due 950, paid 1,000 USD: 50 USD in the patron" in html and 'id="money"' in html
    stats = run("check", "night-shift.json", "--statistics")
    assert "money: net 50 USD paid to patrons beyond what was due" in stats.stdout


# ------------------------------------------------------------------ exact at every size a transcript may hold

@settings(max_examples=40, deadline=None)
@given(stake=st.decimals(min_value=1, max_value=Decimal("9.99E+38"), places=2, allow_nan=False, allow_infinity=False),
       off=st.sampled_from([Decimal("0"), Decimal("0.01"), Decimal("-0.01")]))
def test_a_banker_win_is_judged_to_the_cent_whatever_its_size(stake, off):
    """A Banker win owes 0.95 of the stake, exactly, however many digits the stake has: paid that, no finding;
    one cent more or less, a finding whose difference is that cent, and a net of that cent."""
    from compliance.findings import MONEY

    due = MONEY.multiply(stake, Decimal("0.95"))
    found = one_coup(BANKER_WINS, [(2, "banker", stake)], [settle(2, "banker", "win", MONEY.add(due, off))],
                     currency="USD")
    money = money_of(found)
    if not off:
        assert money == []
        return
    assert [(m["expected"], m["difference"], m["favours"]) for m in money] == [
        (amount_text(due), "0.01", "patron" if off > 0 else "house")]
    summary = money_summary([f for f in found if f.money is not None])
    assert summary.total.net == off


def test_a_wager_of_ten_to_the_thirty_plus_one_is_worded_to_its_last_digit():
    stake = Decimal(10**30 + 1)
    found = one_coup(BANKER_WINS, [(2, "banker", stake)],
                     [settle(2, "banker", "win", Decimal("950000000000000000000000000000.96"))], currency="USD")
    (wrong,) = [f for f in found if f.category == "settlement.wrong-amount"]
    assert ("should be win 950,000,000,000,000,000,000,000,000,000.95" in wrong.message
            and "settled win 950,000,000,000,000,000,000,000,000,000.96" in wrong.message)
    assert wrong.money.as_dict()["difference"] == "0.01"


@pytest.mark.parametrize("amount, why", [("1E+40", "kept exactly below 1E+40"),
                                         ("0.00000000000000000000000000001", "to 28 decimal places")])
def test_an_amount_past_the_bounds_of_exact_money_is_refused_at_its_line(amount, why):
    found = one_coup(BANKER_WINS, [(2, "banker", Decimal(amount))], [settle(2, "banker", "lose", Decimal(amount))])
    (refused,) = found
    assert refused.category == "transcript.unreadable" and why in refused.message and refused.line
