"""One mistyped coup number is one finding; it never hides the breaches of the coups after it.

Coup numbers must increase.  Each coup is compared with the coup before it
only: the coup out of order is a transcript.unreadable finding, and the
coups after it are judged on their own.  (Before, every coup after a coup 2
written 30 was "coup number N comes after coup 30": the real breaches were
gone, replaced by unreadable-coup findings.)
"""

from __future__ import annotations

import random

from builders import check, dealt_by_the_rules, jsonl, transcript
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.cards import DECK

UNREADABLE = "transcript.unreadable"


def _recording() -> dict:
    """Some 80 coups dealt by the rules from one shuffled shoe; coup N has a tie wager of 100 + N made after
    no more bets (a late wager, whose amount tells the coup its finding is about)."""
    cards = [c for c in DECK for _ in range(8)]
    random.Random(2026).shuffle(cards)
    coups = dealt_by_the_rules(cards)
    for c in coups:
        at = next(i for i, e in enumerate(c["events"]) if e.get("call") == "no_more_bets")
        c["events"].insert(at + 1, {"type": "wager", "seat": 1, "spot": "tie", "amount": 100 + c["coup"]})
    return transcript(coups)


RECORDING = _recording()
COUPS = len(RECORDING["coups"])
BREACHES = {(f.coup, f.rule) for f in check(RECORDING)}


def _late(found) -> set[int]:
    """The coups (by their original number) whose late wager was found."""
    return {int(f.message.split("tie wager placed ", 1)[1].split()[0].replace(",", "")) - 100
            for f in found if f.rule == "BAC-WAGER-LATE"}


def _renumbered(index: int, number: int) -> dict:
    doc = {**RECORDING, "coups": [dict(c) for c in RECORDING["coups"]]}
    doc["coups"][index]["coup"] = number
    return doc


def test_every_coup_of_the_recording_has_a_breach():
    found = check(RECORDING)
    assert _late(found) == set(range(1, COUPS + 1)) and COUPS > 60
    assert not [f for f in found if f.category == UNREADABLE]


def test_coup_2_written_30_is_one_finding_and_every_later_breach_is_still_found():
    found = check(_renumbered(1, 30))
    unreadable = [f for f in found if f.category == UNREADABLE]
    assert [f.coup for f in unreadable] == [3]
    assert "coup number 3 comes after coup 30 (line " in unreadable[0].message
    judged = {(f.coup, f.rule) for f in found if f.category != UNREADABLE}
    assert judged == {(30 if c == 2 else c, r) for c, r in BREACHES if c != 3}


def test_a_coup_numbered_ten_to_the_fifteenth_in_a_jsonl_file_is_one_finding():
    middle = len(RECORDING["coups"]) // 2
    found = check(jsonl(_renumbered(middle, 10**15)), suffix=".jsonl")
    unreadable = [f for f in found if f.category == UNREADABLE]
    assert len(unreadable) == 1 and unreadable[0].coup == middle + 2
    assert f"comes after coup {10**15}" in unreadable[0].message
    assert _late(found) == set(range(1, COUPS + 1)) - {middle + 2}


def test_a_repeated_coup_number_is_one_finding():
    found = check(_renumbered(5, 5))  # coup 6 written 5: it repeats the coup before it
    unreadable = [f for f in found if f.category == UNREADABLE]
    assert len(unreadable) == 1 and "coup number 5 repeats the coup at line" in unreadable[0].message
    assert _late(found) == set(range(1, COUPS + 1)) - {6}


@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, COUPS - 1), number=st.integers(0, 10**15))
def test_any_one_mistyped_number_hides_at_most_the_breaches_of_one_coup(index, number):
    found = check(_renumbered(index, number))
    unreadable = [f for f in found if f.category == UNREADABLE]
    assert len(unreadable) <= 1
    assert len(_late(found)) >= COUPS - len(unreadable)
