"""The replay: one pass over a coup's events builds the state the checks read (spec, "How a coup is read")."""

from __future__ import annotations

from builders import coup, replay, transcript

from compliance.games.baccarat.replay import DealtCard, Settlement, WagerChange


def test_every_record_the_replay_builds_carries_all_its_fields():
    """Cards, wager changes and settlements are built from full tuples (fast): none may miss a field."""
    (state,) = replay(transcript([coup(1, ["5H", "KD", "2C"], ["KS", "3C", "8D"], [(1, "player", 100), (2, "banker", 50)])]))
    assert state.player and state.changes and state.settlements
    for records, kind in ((state.player + state.banker, DealtCard), (state.changes, WagerChange),
                          (state.settlements, Settlement)):
        for record in records:
            assert type(record) is kind and len(record) == len(kind._fields)


def test_the_hands_as_dealt_stay_as_dealt_when_a_card_is_moved():
    """A card moved out of a hand leaves the hand as held, not the hand as dealt (irregularity rules read both)."""
    doc = transcript([coup(1, ["5H", "KD", "2C"], ["KS", "3C", "8D"], [(1, "player", 100)])], "nz")
    events = doc["coups"][0]["events"]
    third = next(i for i, e in enumerate(events) if e.get("card") == "2C")
    events.insert(third + 1, {"type": "card_move", "card": "2C", "to": "banker"})
    (state,) = replay(doc)
    assert [c.code for c in state.dealt_player] == ["5H", "KD", "2C"]
    assert [c.code for c in state.player] == ["5H", "KD"]
    assert "2C" in [c.code for c in state.banker] and "2C" not in [c.code for c in state.dealt_banker]
    assert state.hands_complete


def test_without_a_move_or_reconstruct_the_hands_as_dealt_are_the_hands_held():
    (state,) = replay(transcript([coup(1, ["5H", "KD"], ["KS", "9C"], [(1, "player", 100)])]))
    assert state.dealt_player == state.player and state.dealt_banker == state.banker
    assert state.winner() == "banker" and state.hands_complete
