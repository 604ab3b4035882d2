"""Settlement (settlement.wrong-amount, settlement.missing; NSW r 1.1 and 12, N.J.A.C. 13:69F-3 payouts).

Player pays 1 to 1; Banker 1 to 1 less the commission, paid net or collected
by a ``commission`` event; Tie at the house's odds; Player and Banker wagers
push on a tie; every wager pushes in a void coup; Even Money Baccarat (NSW)
pays a Banker win on 6 at half.  Every wager is settled once.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from builders import check, coup, pairs, payout, transcript
from hypothesis import given, settings
from hypothesis import strategies as st

PLAYER_WINS = (["4H", "TD", "3S"], ["KS", "6C"])  # Player 7, Banker 6
BANKER_WINS = (["KD", "6D"], ["KS", "7C"])  # Player 6, Banker 7
TIE = (["KD", "7D"], ["KS", "7C"])  # 7 - 7
BANKER_WINS_ON_SIX = (["KD", "5D", "KH"], ["KS", "6C"])  # Player 5 draws a ten: 5; Banker 6 stands: 6


def settle(seat, spot, outcome, amount):
    return {"type": "settle", "seat": seat, "spot": spot, "outcome": outcome, "amount": Decimal(str(amount))}


def one_coup(hands, wagers, settles, *, jurisdiction="us-nj", extra=(), **head):
    c = coup(1, *hands, wagers, settle=False)
    c["events"] += list(settles) + list(extra)
    return check(transcript([c], jurisdiction, **head))


def messages(found, rule):
    return [f.message for f in found if f.rule == rule]


# ------------------------------------------------------------------ odds


def test_player_is_paid_one_to_one():
    assert one_coup(PLAYER_WINS, [(1, "player", 100)], [settle(1, "player", "win", 100)]) == []
    found = one_coup(PLAYER_WINS, [(1, "player", 100)], [settle(1, "player", "win", 95)])
    assert pairs(found) == {(1, "BAC-SETTLE-AMOUNT")}
    assert messages(found, "BAC-SETTLE-AMOUNT") == [
        "seat 1 player wager of 100 should be win 100 (Player pays 1 to 1); it was settled win 95"]


def test_losing_wagers_are_collected_in_full():
    assert one_coup(PLAYER_WINS, [(2, "banker", 200)], [settle(2, "banker", "lose", 200)]) == []
    found = one_coup(PLAYER_WINS, [(2, "banker", 200)], [settle(2, "banker", "lose", 100)])
    assert pairs(found) == {(1, "BAC-SETTLE-AMOUNT")}


def test_banker_is_paid_net_of_five_percent_commission():
    assert one_coup(BANKER_WINS, [(2, "banker", 200)], [settle(2, "banker", "win", 190)]) == []
    found = one_coup(BANKER_WINS, [(2, "banker", 200)], [settle(2, "banker", "win", 200)])
    assert messages(found, "BAC-SETTLE-AMOUNT") == [
        "seat 2 banker wager of 200 should be win 190 (Banker pays 1 to 1 less 5% commission); it was settled win 200"]


def test_banker_paid_in_full_with_the_commission_collected_apart():
    paid = [settle(2, "banker", "win", 200), {"type": "commission", "seat": 2, "amount": 10}]
    assert one_coup(BANKER_WINS, [(2, "banker", 200)], paid) == []
    short = [settle(2, "banker", "win", 200), {"type": "commission", "seat": 2, "amount": 5}]
    found = one_coup(BANKER_WINS, [(2, "banker", 200)], short)
    assert messages(found, "BAC-SETTLE-AMOUNT") == [
        "commission collected from seat 2 is 5; 10 is due on winnings of 200"]


def test_commission_from_someone_who_owes_none():
    found = one_coup(BANKER_WINS, [(1, "player", 100)],
                     [settle(1, "player", "lose", 100), {"type": "commission", "seat": 1, "amount": 5}])
    assert messages(found, "BAC-SETTLE-AMOUNT") == [
        "commission of 5 collected from seat 1, who has no winning Banker wager that owes commission"]


def test_commission_taken_and_the_wager_also_paid_net():
    """Commission collected twice: paid 190 net and a commission event of 10 on top."""
    found = one_coup(BANKER_WINS, [(2, "banker", 200)],
                     [settle(2, "banker", "win", 190), {"type": "commission", "seat": 2, "amount": 10}])
    assert pairs(found) == {(1, "BAC-SETTLE-AMOUNT")}


def test_table_commission_overrides_the_house_default():
    head = {"commission": 0.04}
    assert one_coup(BANKER_WINS, [(2, "banker", 200)], [settle(2, "banker", "win", 192)], **head) == []
    found = one_coup(BANKER_WINS, [(2, "banker", 200)], [settle(2, "banker", "win", 190)], **head)
    assert messages(found, "BAC-SETTLE-AMOUNT") == [
        "seat 2 banker wager of 200 should be win 192 (Banker pays 1 to 1 less 4% commission); it was settled win 190"]


def test_commission_is_exact_decimal_money():
    """25.50 less 5% is 24.225 exactly; no binary float rounding anywhere."""
    assert one_coup(BANKER_WINS, [(2, "banker", "25.50")], [settle(2, "banker", "win", 24.225)]) == []
    assert pairs(one_coup(BANKER_WINS, [(2, "banker", "25.50")], [settle(2, "banker", "win", 24.22)])) == {
        (1, "BAC-SETTLE-AMOUNT")}


def test_a_house_that_rounds_its_commission_is_judged_by_its_own_rounding(tmp_path):
    """A house parameter: the commission rounded up to the quarter (25.50 -> 1.275 -> 1.50, paid 24)."""
    house = tmp_path / "quarters.yaml"
    house.write_text("""id: quarters
title: A house that takes commission in quarters
version: "1"
extends: us-nj
game:
  spots:
    banker:
      commission_unit: {house: 0.25, note: "commission rounded up to the quarter"}
      commission_rounding: {house: up}
""", encoding="utf-8")
    doc = transcript([coup(1, *BANKER_WINS, [(2, "banker", "25.50")], settle=False)])
    doc["coups"][0]["events"].append(settle(2, "banker", "win", 24))
    assert check(doc, ruleset=str(house)) == []
    doc["coups"][0]["events"][-1] = settle(2, "banker", "win", "24.225")
    [finding] = check(doc, ruleset=str(house))
    assert finding.message == ("seat 2 banker wager of 25.5 should be win 24 (Banker pays 1 to 1 less 5% commission, "
                               "rounded up to 0.25); it was settled win 24.225")
    doc["coups"][0]["events"][-1] = settle(2, "banker", "win", 25.5)
    doc["coups"][0]["events"].append({"type": "commission", "seat": 2, "amount": 1.5})
    assert check(doc, ruleset=str(house)) == []


# ------------------------------------------------------------------ ties and void coups


def test_tie_pays_eight_to_one_and_pushes_player_and_banker():
    wagers = [(1, "player", 100), (2, "banker", 200), (3, "tie", 25)]
    right = [settle(1, "player", "push", 0), settle(2, "banker", "push", 0), settle(3, "tie", "win", 200)]
    assert one_coup(TIE, wagers, right) == []


def test_tie_paid_at_the_wrong_odds():
    found = one_coup(TIE, [(3, "tie", 25)], [settle(3, "tie", "win", 225)])
    assert messages(found, "BAC-SETTLE-AMOUNT") == [
        "seat 3 tie wager of 25 should be win 200 (Tie pays 8 to 1); it was settled win 225"]


def test_player_wager_collected_on_a_tie():
    found = one_coup(TIE, [(1, "player", 100)], [settle(1, "player", "lose", 100)])
    assert messages(found, "BAC-SETTLE-AMOUNT") == [
        "seat 1 player wager of 100 should be push 0 (a tie returns Player and Banker wagers); it was settled lose 100"]


def test_tie_wager_loses_when_a_hand_wins():
    assert one_coup(PLAYER_WINS, [(3, "tie", 25)], [settle(3, "tie", "lose", 25)]) == []


def test_every_wager_pushes_in_a_void_coup():
    wagers = [(1, "player", 100), (3, "tie", 25)]
    void = {"type": "void", "reason": "supervisor"}
    c = coup(1, *PLAYER_WINS, wagers, settle=False)
    c["events"] = [e for e in c["events"] if e["type"] != "result"]
    c["events"] += [void, settle(1, "player", "push", 0), settle(3, "tie", "push", 0)]
    assert check(transcript([c])) == []
    c["events"][-2] = settle(1, "player", "win", 100)
    found = check(transcript([c]))
    assert messages(found, "BAC-SETTLE-AMOUNT") == [
        "seat 1 player wager of 100 should be push 0 (the coup is void: every wager is returned); it was settled win 100"]


# ------------------------------------------------------------------ Even Money Baccarat (NSW)


def test_even_money_baccarat_pays_a_banker_win_on_six_at_half():
    head = {"game": "even_money"}
    assert one_coup(BANKER_WINS_ON_SIX, [(2, "banker", 200)], [settle(2, "banker", "win", 100)],
                    jurisdiction="au-nsw", **head) == []
    found = one_coup(BANKER_WINS_ON_SIX, [(2, "banker", 200)], [settle(2, "banker", "win", 190)],
                     jurisdiction="au-nsw", **head)
    assert messages(found, "BAC-SETTLE-AMOUNT") == [
        "seat 2 banker wager of 200 should be win 100 (Banker winning with 6 pays 0.5 to 1); it was settled win 190"]


def test_even_money_baccarat_pays_other_banker_wins_without_commission():
    head = {"game": "even_money"}
    assert one_coup(BANKER_WINS, [(2, "banker", 200)], [settle(2, "banker", "win", 200)],
                    jurisdiction="au-nsw", **head) == []
    assert pairs(one_coup(BANKER_WINS, [(2, "banker", 200)], [settle(2, "banker", "win", 190)],
                          jurisdiction="au-nsw", **head)) == {(1, "BAC-SETTLE-AMOUNT")}


def test_six_pays_in_full_less_commission_in_the_standard_game():
    assert one_coup(BANKER_WINS_ON_SIX, [(2, "banker", 200)], [settle(2, "banker", "win", 190)],
                    jurisdiction="au-nsw") == []


# ------------------------------------------------------------------ settled once, and only what stands


def test_a_wager_never_settled():
    found = one_coup(PLAYER_WINS, [(1, "player", 100), (2, "banker", 200)], [settle(1, "player", "win", 100)])
    assert pairs(found) == {(1, "BAC-SETTLE-MISSING")}
    assert messages(found, "BAC-SETTLE-MISSING") == ["seat 2 banker wager of 200 was never settled"]


def test_a_wager_settled_twice():
    found = one_coup(PLAYER_WINS, [(1, "player", 100)], [settle(1, "player", "win", 100)] * 2)
    assert pairs(found) == {(1, "BAC-SETTLE-MISSING")}
    assert messages(found, "BAC-SETTLE-MISSING") == ["seat 1 player wager is settled 2 times"]


def test_settling_a_wager_that_does_not_exist():
    found = one_coup(PLAYER_WINS, [(1, "player", 100)], [settle(1, "player", "win", 100), settle(4, "banker", "lose", 50)])
    assert messages(found, "BAC-SETTLE-AMOUNT") == ["seat 4 banker wager is settled (lose 50) but no such wager stands"]
    assert messages(found, "BAC-SETTLE-MISSING") == []


def test_wagers_add_up_and_a_standing_patron_is_settled_by_patron():
    c = coup(1, *PLAYER_WINS, [(1, "player", 100), (1, "player", 50)], settle=False)
    c["events"].insert(0, {"type": "wager", "patron": "P-77", "spot": "player", "amount": 40})
    c["events"] += [settle(1, "player", "win", 150),
                    {"type": "settle", "patron": "P-77", "spot": "player", "outcome": "win", "amount": 40}]
    assert check(transcript([c]), "us-nj") == []


# ------------------------------------------------------------------ property: the independent payout agrees


@settings(max_examples=60, deadline=None)
@given(hands=st.sampled_from([PLAYER_WINS, BANKER_WINS, TIE, BANKER_WINS_ON_SIX]),
       spot=st.sampled_from(["player", "banker", "tie"]),
       stake=st.decimals(min_value=20, max_value=4000, places=2),  # within the table limits
       commission=st.sampled_from(["0.05", "0.04", "0.025"]))
def test_any_stake_paid_by_the_book_is_clean_and_one_cent_off_is_not(hands, spot, stake, commission):
    outcome, amount = payout(spot, stake, *hands, commission=Decimal(commission))
    head = {"commission": float(commission)}
    assert one_coup(hands, [(1, spot, str(stake))], [settle(1, spot, outcome, str(amount))], **head) == []
    if outcome != "push":
        off = one_coup(hands, [(1, spot, str(stake))], [settle(1, spot, outcome, str(amount + Decimal("0.01")))], **head)
        assert pairs(off) == {(1, "BAC-SETTLE-AMOUNT")}


@pytest.mark.parametrize("jurisdiction", ["us-nj", "us-in", "nz"])
def test_even_money_is_not_a_game_of_other_jurisdictions(jurisdiction):
    from compliance.errors import UserError

    with pytest.raises(UserError, match="is not a game of ruleset"):
        one_coup(BANKER_WINS, [(2, "banker", 200)], [settle(2, "banker", "win", 200)],
                 jurisdiction=jurisdiction, game="even_money")


@st.composite
def one_settlement_wrong(draw):
    """Coups dealt by the rules, then one settlement of one coup altered: (coups, coup number, rule expected)."""
    from builders import dealt_by_the_rules

    from compliance.cards import DECK

    cards = draw(st.permutations(list(DECK)))
    coups = dealt_by_the_rules(cards, wagers=((1, "player", 100), (2, "banker", 300), (4, "tie", 25)))
    victim = draw(st.sampled_from(coups))
    events = victim["events"]
    i = draw(st.sampled_from([k for k, e in enumerate(events) if e["type"] == "settle"]))
    how = draw(st.sampled_from(["amount", "outcome", "drop", "twice"]))
    if how == "amount":
        events[i]["amount"] += draw(st.sampled_from([Decimal("0.01"), Decimal(1), Decimal(-1), Decimal(50)]))
        if events[i]["amount"] < 0:
            events[i]["amount"] = Decimal(1)
        return coups, victim["coup"], "BAC-SETTLE-AMOUNT"
    if how == "outcome":
        events[i]["outcome"] = draw(st.sampled_from(sorted({"win", "lose", "push"} - {events[i]["outcome"]})))
        return coups, victim["coup"], "BAC-SETTLE-AMOUNT"
    if how == "drop":
        del events[i]
        return coups, victim["coup"], "BAC-SETTLE-MISSING"
    events.insert(i + 1, dict(events[i]))
    return coups, victim["coup"], "BAC-SETTLE-MISSING"


@settings(max_examples=80, deadline=None)
@given(case=one_settlement_wrong())
def test_one_settlement_altered_is_one_finding_in_that_coup(case):
    coups, number, rule = case
    assert pairs(check(transcript(coups, decks=1))) == {(number, rule)}



def test_odds_of_twenty_one_digits_settle_exactly(tmp_path):
    """Odds are read from the YAML text as decimals, never through a binary float (which keeps 17 digits)."""
    from pathlib import Path

    house = tmp_path / "house.yaml"
    house.write_text("id: house\ntitle: t\nversion: '1'\nextends: "
                     f"{Path(__file__).resolve().parent.parent / 'rulesets' / 'us-nj.yaml'}\ncasino: A Casino\n"
                     "game:\n  spots:\n    tie: {odds: 8.12345678901234567890}\n", encoding="utf-8")
    def paid(amount: str):
        c = coup(1, *TIE, [(1, "tie", 25)], settle=False)
        c["events"].append(settle(1, "tie", "win", amount))
        return check(transcript([c], "us-nj"), ruleset=str(house))

    assert paid("203.0864197253086419725") == []
    [wrong] = messages(paid("203.08641972530865"), "BAC-SETTLE-AMOUNT")
    assert wrong.startswith("seat 1 tie wager of 25 should be win 203.0864197253086419725 (Tie pays "
                            "8.1234567890123456789 to 1)")


# ------------------------------------------------------------------ settled before any third card (House Money)


def _house_money(name: str) -> dict:
    import json
    from pathlib import Path

    return json.loads((Path(__file__).resolve().parent.parent / "fixtures" / "rules" / "us-pa" / name).read_text())


def test_house_money_settled_in_the_tables_own_seat_order_is_in_order():
    """The order is the table's: counter-clockwise from the dealer's right as `seat_order` lists the seats."""
    doc = _house_money("house-money-settled-out-of-seat-order.json")  # seat 3 settled, then seat 1
    assert [f.coup for f in check(doc) if f.rule == "PA-HOUSE-MONEY-ORDER"] == [1]
    doc["table"]["seat_order"] = [3, 1, 2, 4, 5, 6, 7]
    assert not [f for f in check(doc) if f.rule == "PA-HOUSE-MONEY-ORDER"]


def test_only_the_spots_settled_on_the_initial_cards_are_held_to_it():
    """A Player or Banker wager settled after the third card is the usual settlement, never a breach of it."""
    doc = _house_money("clean-house-money-settled-before-the-third-card.json")
    for c in doc["coups"]:
        c["events"] = [e for e in c["events"] if e.get("spot") != "house_money"]
    assert not [f for f in check(doc) if f.category == "settlement.order"]
