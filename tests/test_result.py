"""The announced result (result.wrong; NSW r 10.8.2, N.J.A.C. 13:69F-3.8(a), 68 IAC 10-10-12(h)).

The dealer announces both final point counts and the winner as the cards give them.
"""

from __future__ import annotations

import pytest
from builders import check, coup, transcript

HANDS = (["4H", "TD", "3S"], ["KS", "6C"])  # Player 7, Banker 6: Player wins


def announced(**result) -> list:
    c = coup(1, *HANDS, [(1, "player", 100)])
    (r,) = [e for e in c["events"] if e["type"] == "result"]
    r.update(result)
    return check(transcript([c]))


def test_the_right_result_is_clean():
    assert announced() == []


@pytest.mark.parametrize("wrong", [
    {"player_points": 8},
    {"banker_points": 7},
    {"winner": "banker"},
    {"winner": "tie"},
])
def test_a_wrong_count_or_winner(wrong):
    found = announced(**wrong)
    assert [(f.rule, f.category, f.event) for f in found] == [("BAC-RESULT", "result.wrong", 8)]
    assert found[0].message.endswith("; the cards give Player 7, Banker 6: Player wins")


def test_the_message_says_what_was_announced():
    (f,) = announced(winner="banker", banker_points=8)
    assert f.message == "announced Player 7, Banker 8, winner banker; the cards give Player 7, Banker 6: Player wins"


def test_no_result_announced():
    c = coup(1, *HANDS, [(1, "player", 100)])
    c["events"] = [e for e in c["events"] if e["type"] != "result"]
    (f,) = check(transcript([c]))
    assert f.rule == "BAC-RESULT"
    assert f.message == "no result was announced; the cards give Player 7, Banker 6: Player wins"


def test_settlement_follows_the_cards_not_a_wrong_announcement():
    """One mistake, one finding: a wrong announcement with correct payments is only result.wrong."""
    found = announced(winner="banker")
    assert {f.rule for f in found} == {"BAC-RESULT"}


def test_a_tie_is_announced_as_a_tie():
    c = coup(1, ["KD", "7D"], ["KS", "7C"], [(1, "player", 100)])
    assert check(transcript([c])) == []


def test_a_void_coup_needs_no_result():
    c = coup(1, *HANDS, [(1, "player", 100)], settle=False)
    c["events"] = [e for e in c["events"] if e["type"] != "result"]
    c["events"] += [{"type": "void", "reason": "supervisor"},
                    {"type": "settle", "seat": 1, "spot": "player", "outcome": "push", "amount": 0}]
    assert check(transcript([c])) == []
