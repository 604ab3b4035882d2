"""Shoe integrity (shoe.integrity; NSW r 2.3, NZ r 11, N.J.A.C. 13:69F-3.7(c)).

The cards must fit the shoe: no more copies of a card than its decks hold, no
more cards than it holds, no card in two places (carried over from nowhere,
moved out of a hand that does not hold it).
"""

from __future__ import annotations

from builders import check, coup, header, replay, transcript

from compliance.cards import DECK

RULE = "BAC-SHOE-INTEGRITY"
HANDS = (["4H", "TD", "3S"], ["KS", "6C"])


def integrity(found):
    return [(f.coup, f.event, f.message) for f in found if f.rule == RULE]


def test_more_copies_of_a_card_than_the_decks_hold():
    doc = transcript([coup(1, *HANDS, [(1, "player", 100)]), coup(2, *HANDS, [(1, "player", 100)])], decks=1)
    assert integrity(check(doc)) == [
        (2, 3, "4H appears 2 times in shoe 'S1', which holds 1 deck"),
        (2, 4, "KS appears 2 times in shoe 'S1', which holds 1 deck"),
        (2, 5, "TD appears 2 times in shoe 'S1', which holds 1 deck"),
        (2, 6, "6C appears 2 times in shoe 'S1', which holds 1 deck"),
        (2, 7, "3S appears 2 times in shoe 'S1', which holds 1 deck"),
    ]


def test_as_many_copies_as_the_decks_hold_is_fine():
    doc = transcript([coup(1, *HANDS, [(1, "player", 100)]), coup(2, *HANDS, [(1, "player", 100)])], decks=2)
    assert check(doc) == []


def test_each_shoe_is_counted_on_its_own():
    doc = transcript([coup(1, *HANDS, [(1, "player", 100)]), coup(2, *HANDS, [(1, "player", 100)], shoe="S2")], decks=1)
    doc["shoes"].append({"id": "S2", "decks": 1})
    assert check(doc) == []


def test_burnt_cards_count_too():
    c = coup(2, *HANDS, [(1, "player", 100)])
    c["events"].insert(0, {"type": "card", "card": "4H", "to": "burn"})
    doc = transcript([coup(1, ["9S", "KD"], ["2C", "QC"], [(1, "player", 100)]), c], decks=1)
    assert integrity(check(doc)) == [(2, 4, "4H appears 2 times in shoe 'S1', which holds 1 deck")]


def test_more_cards_than_the_shoe_holds():
    """One deck burnt in full, then a coup: the 53rd card is one too many."""
    c = coup(1, *HANDS, [(1, "player", 100)])
    c["events"][:0] = [{"type": "card", "card": code, "to": "burn"} for code in DECK]
    found = integrity(check(transcript([c], decks=1)))
    assert (1, 55, "more than 52 cards drawn from shoe 'S1' (1 deck)") in found  # 52 burns, a wager, 2 calls


def test_card_carried_over_from_nowhere():
    c = coup(2, *HANDS, [(1, "player", 100)])
    c["events"][3]["carried_over"] = True
    found = check(transcript([coup(1, ["9S", "KD"], ["2C", "QC"], [(1, "player", 100)]), c]))
    assert integrity(found) == [(2, 3, "4H is marked carried over, but the previous coup set no 4H aside")]


def test_card_carried_over_as_the_previous_coup_set_it_aside():
    first = coup(1, ["9S", "KD"], ["2C", "QC"], [(1, "player", 100)])
    first["events"].insert(-2, {"type": "card", "card": "4H", "to": "player"})  # an erroneous card ...
    first["events"].insert(-2, {"type": "card_move", "card": "4H", "to": "next_coup"})  # ... kept for the next coup
    second = coup(2, *HANDS, [(1, "player", 100)])
    second["events"][3]["carried_over"] = True
    assert integrity(check(transcript([first, second], decks=1))) == []


def test_card_moved_from_a_hand_that_does_not_hold_it():
    c = coup(1, *HANDS, [(1, "player", 100)])
    c["events"].insert(8, {"type": "card_move", "card": "9D", "to": "banker"})
    assert integrity(check(transcript([c]))) == [(1, 8, "9D is moved, but no hand of this coup holds it")]


def test_a_new_shoe_starts_with_every_card():
    coups = []
    for n, shoe in enumerate(["S1", "S2", "S1"], 1):
        coups.append(coup(n, *HANDS, [(1, "player", 100)], shoe=shoe))
    doc = header(decks=1) | {"coups": coups}
    doc["shoes"].append({"id": "S2", "decks": 1})
    # S1 comes back for coup 3: it is the same shoe, its cards are still counted
    assert [x[0] for x in integrity(check(doc))] == [3] * 5


def test_a_card_set_aside_is_the_last_dealt_copy_when_both_hands_hold_its_code():
    """With several decks the Player's and the Banker's Hand may both hold 5H: the card set aside
    for the next coup is the one dealt last (the excess card), not the Player's initial 5H."""
    doc = transcript([coup(1, ["5H", "KD", "2C"], ["KS", "3C", "8D"], [(1, "player", 100)])], "nz")
    events = doc["coups"][0]["events"]
    last_card = max(i for i, e in enumerate(events) if e["type"] == "card")
    events.insert(last_card + 1, {"type": "card", "card": "5H", "to": "banker"})  # drawn in excess ...
    events.insert(last_card + 2, {"type": "card_move", "card": "5H", "to": "next_coup"})  # ... and set aside
    (state,) = replay(doc)
    assert [c.code for c in state.player] == ["5H", "KD", "2C"]
    assert [c.code for c in state.banker] == ["KS", "3C", "8D"]
    assert [aside.code for aside in state.carry_out] == ["5H"]
