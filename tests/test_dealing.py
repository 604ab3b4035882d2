"""The initial deal (deal.initial-order, deal.extra-card; NSW r 7.3, N.J.A.C. 13:69F-3.7(c), 68 IAC 10-10-12(g)).

Four initial cards, Player, Banker, Player, Banker; then at most one more card
a hand.  A reconstructed deal is judged by its reconstruction.
"""

from __future__ import annotations

import pytest
from builders import JURISDICTIONS, check, coup, pairs, transcript

WAGER = [(1, "player", 100)]


def cards(c: dict) -> list[dict]:
    return [e for e in c["events"] if e["type"] == "card"]


def dealt(order: list[tuple[str, str]], result=None) -> dict:
    """A coup whose cards go where ``order`` says, announced as ``result`` (default: a Player win 7-6)."""
    c = coup(1, ["4H", "TD", "3S"], ["KS", "6C"], WAGER)
    first = next(i for i, e in enumerate(c["events"]) if e["type"] == "card")
    c["events"] = [e for e in c["events"] if e["type"] != "card"]
    c["events"][first:first] = [{"type": "card", "card": code, "to": to} for to, code in order]
    if result:
        (r,) = [e for e in c["events"] if e["type"] == "result"]
        r.update(result)
    return c


@pytest.mark.parametrize("jurisdiction", JURISDICTIONS)
def test_player_banker_player_banker_is_clean(jurisdiction):
    assert check(transcript([coup(1, ["4H", "TD", "3S"], ["KS", "6C"], WAGER)], jurisdiction)) == []


def test_banker_dealt_first():
    c = dealt([("banker", "KS"), ("player", "4H"), ("banker", "6C"), ("player", "TD"), ("player", "3S")])
    found = check(transcript([c]))
    assert pairs(found) == {(1, "BAC-DEAL-ORDER")}
    (f,) = found
    assert f.event == 3 and f.category == "deal.initial-order"
    assert f.message == ("initial deal went Banker KS, Player 4H, Banker 6C, Player TD; card 1 should have gone to "
                         "the Player's Hand (order: Player, Banker, Player, Banker)")


def test_two_player_cards_in_a_row():
    c = dealt([("player", "4H"), ("player", "TD"), ("banker", "KS"), ("banker", "6C"), ("player", "3S")])
    assert pairs(check(transcript([c]))) == {(1, "BAC-DEAL-ORDER")}


def test_a_reconstructed_deal_is_judged_by_its_reconstruction():
    c = dealt([("banker", "KS"), ("player", "4H"), ("banker", "6C"), ("player", "TD"),
               ("player", "3S")])
    recon = {"type": "reconstruct", "player": ["4H", "TD"], "banker": ["KS", "6C"]}
    third = next(i for i, e in enumerate(c["events"]) if e.get("card") == "3S")
    c["events"].insert(third, recon)
    assert {r for _, r in pairs(check(transcript([c])))} & {"BAC-DEAL-ORDER", "BAC-DEAL-EXTRA"} == set()


def test_initial_deal_stopped_after_three_cards():
    c = dealt([("player", "4H"), ("banker", "KS"), ("player", "TD")],
              result={"player_points": 4, "banker_points": 0, "winner": "player"})
    found = check(transcript([c]))
    assert pairs(found) == {(1, "BAC-DEAL-ORDER")}
    (f,) = found
    assert f.message == ("the initial deal is incomplete after 3 initial cards: the Player's Hand holds 2 and the "
                         "Banker's Hand 1 initial card(s); each hand gets two")


def test_a_result_recorded_without_any_card_says_the_cards_are_missing_from_the_record():
    c = dealt([])
    found = check(transcript([c]))
    assert pairs(found) == {(1, "BAC-DEAL-ORDER")}
    (f,) = found
    assert f.event == [e["type"] for e in c["events"]].index("result")
    assert f.message == ("the result is recorded (Player 7, Banker 6) but no card is: the record lacks the four "
                         "initial cards, two to each hand, and any third card the result rests on")
    assert "incomplete" not in f.message


def test_a_void_coup_may_stop_mid_deal():
    c = dealt([("player", "4H"), ("banker", "KS"), ("player", "TD")])
    c["events"] = [e for e in c["events"] if e["type"] not in ("result", "settle")]
    c["events"] += [{"type": "void", "reason": "insufficient_cards"},
                    {"type": "settle", "seat": 1, "spot": "player", "outcome": "push", "amount": 0}]
    assert {r for _, r in pairs(check(transcript([c])))} & {"BAC-DEAL-ORDER", "BAC-DEAL-EXTRA"} == set()


def test_a_fourth_card_to_one_hand():
    c = dealt([("player", "4H"), ("banker", "KS"), ("player", "TD"), ("banker", "6C"), ("player", "3S"), ("player", "2D")],
              result={"player_points": 9, "banker_points": 6, "winner": "player"})
    found = check(transcript([c]))
    assert (1, "BAC-DEAL-EXTRA") in pairs(found)
    (f,) = [f for f in found if f.rule == "BAC-DEAL-EXTRA"]
    assert f.category == "deal.extra-card"
    assert f.message == ("the Player's Hand received 2 additional cards (3S, 2D); "
                         "at most one additional card is dealt to a hand")
    assert f.event == 8


def test_two_additional_cards_to_the_banker():
    c = dealt([("player", "4H"), ("banker", "KS"), ("player", "TD"), ("banker", "AC"), ("player", "3S"),
               ("banker", "2D"), ("banker", "2H")],
              result={"player_points": 7, "banker_points": 5, "winner": "player"})
    assert [f.message for f in check(transcript([c])) if f.rule == "BAC-DEAL-EXTRA"] == [
        "the Banker's Hand received 2 additional cards (2D, 2H); at most one additional card is dealt to a hand"]


def test_burns_and_discards_are_not_part_of_the_deal():
    c = dealt([("burn", "9C"), ("player", "4H"), ("banker", "KS"), ("discard", "QH"), ("player", "TD"),
               ("banker", "6C"), ("player", "3S")])
    assert check(transcript([c])) == []


def test_a_card_dealt_to_the_wrong_hand_is_one_finding():
    """Player, Banker, Player, Player: the Player's Hand took the Banker's second card. One mistake, one finding."""
    c = dealt([("player", "4H"), ("banker", "KS"), ("player", "TD"), ("player", "3S"), ("banker", "6C"), ("banker", "2C")])
    found = [f for f in check(transcript([c])) if f.rule in ("BAC-DEAL-ORDER", "BAC-DEAL-EXTRA")]
    assert [(f.rule, f.event, f.message) for f in found] == [
        ("BAC-DEAL-EXTRA", 6, "the Player's Hand received 3 initial cards; it gets two")]


def test_a_hand_short_of_an_initial_card_is_charged_only_past_three_cards():
    c = dealt([("player", "4H"), ("banker", "KS"), ("player", "TD"), ("player", "3S"), ("banker", "6C"), ("banker", "2C"),
               ("banker", "2D")])
    found = [f.message for f in check(transcript([c])) if f.rule == "BAC-DEAL-EXTRA"]
    assert found == ["the Player's Hand received 3 initial cards; it gets two",
                     "the Banker's Hand holds 4 cards (KS, 6C, 2C, 2D); a hand holds at most three"]


@pytest.mark.parametrize("jurisdiction", JURISDICTIONS)
@pytest.mark.parametrize("order", [
    [("player", "4H"), ("banker", "KS"), ("player", "TD"), ("player", "3S")],  # three initial cards to the Player
    [("banker", "KS"), ("player", "4H"), ("banker", "6C"), ("player", "TD")],  # out of sequence
    [("player", "4H"), ("banker", "KS"), ("player", "TD"), ("banker", "6C"), ("player", "3S"), ("player", "2D")],
])
def test_a_coup_voided_for_the_misdeal_is_not_judged_by_the_dealing_rules(jurisdiction, order):
    """Put right by voiding the coup, a misdeal is the misdeal rule's to judge (an info finding where the
    ruleset has one), not a second finding of the dealing rules: one mistake, one finding."""
    c = dealt(order)
    c["events"] = [e for e in c["events"] if e["type"] not in ("result", "settle")]
    c["events"] += [{"type": "void", "reason": "misdeal"},
                    {"type": "settle", "seat": 1, "spot": "player", "outcome": "push", "amount": 0}]
    found = check(transcript([c], jurisdiction))
    assert {f.rule for f in found} & {"BAC-DEAL-ORDER", "BAC-DEAL-EXTRA"} == set()
    assert all(f.category == "irregularity.mishandled" for f in found)  # the misdeal rule's, if any
    c["events"][-2]["reason"] = "supervisor"  # voided, but not as a misdeal: the deal is judged
    assert {f.rule for f in check(transcript([c], jurisdiction))} & {"BAC-DEAL-ORDER", "BAC-DEAL-EXTRA"}
