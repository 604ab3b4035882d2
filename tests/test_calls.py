"""The dealer's calls: "No more bets" before the first card, then "Cards" where the rules require it."""

from __future__ import annotations

import pytest
from builders import by_rule, check, header
from procedure import procedure_coup

P, B = ["4H", "2C"], ["KS", "7D"]
W = [(1, "player", 100), (2, "banker", 100)]


def coups(jurisdiction, calls):
    extra = {"method": "C", "face": "up"} if jurisdiction == "au-nsw" else {}
    return header(jurisdiction) | {"coups": [procedure_coup(1, P, B, W, calls=calls, **extra)]}


@pytest.mark.parametrize("jurisdiction", ["us-in", "us-nj"])
@pytest.mark.parametrize("calls", [("no_more_bets",), ("cards",), (), ("cards", "no_more_bets")])
def test_indiana_and_new_jersey_require_no_more_bets_then_cards(jurisdiction, calls):
    assert [f.category for f in check(coups(jurisdiction, calls))] == ["procedure.call-missing"]


@pytest.mark.parametrize("jurisdiction", ["us-in", "us-nj", "au-nsw"])
def test_both_calls_in_order_are_compliant(jurisdiction):
    assert check(coups(jurisdiction, ("no_more_bets", "cards"))) == []


def test_nsw_requires_only_no_more_bets():
    assert check(coups("au-nsw", ("no_more_bets",))) == []
    assert [f.rule for f in check(coups("au-nsw", ("cards",)))] == ["BAC-CALLS"]


def test_nz_prescribes_no_call():
    assert by_rule(check(coups("nz", ()))).get("BAC-CALLS") is None


def test_a_call_after_the_first_card_is_missing_before_it():
    d = coups("us-nj", ("no_more_bets",))
    ev = d["coups"][0]["events"]
    first = next(i for i, e in enumerate(ev) if e["type"] == "card")
    ev.insert(first + 1, {"type": "announce", "call": "cards"})
    (f,) = check(d)
    assert f.rule == "BAC-CALLS" and f.event == first


def test_a_no_bet_coup_closes_no_betting():
    c = procedure_coup(1, P, B, [], seated=[1, 2], calls=(), method="C", face="up", no_bet=True)
    assert check(header("au-nsw") | {"coups": [c]}) == []
