"""Shoe integrity (shoe.integrity; NSW r 2.3, NZ r 11, N.J.A.C. 13:69F-3.7(c)).

The cards must fit the shoe: no more copies of a card than its decks hold, no
more cards than it holds, no card in two places (carried over from nowhere,
moved out of a hand that does not hold it).
"""

from __future__ import annotations

import sys
from pathlib import Path

from builders import check, coup, header, replay, transcript
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compliance.cards import DECK
from compliance.engine import Checker

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
    assert found[0] == (1, 55, "more than 52 cards drawn from shoe 'S1' (1 deck): 4H is card 53 of a shoe of 52; "
                               "the cards drawn after it in this shoe are past its end too, not reported one by one")


def test_a_shoe_that_runs_out_of_cards_is_one_finding_not_one_a_card():
    """A runaway shoe: a one-deck shoe dealt on for four decks' worth of cards. The shoe ran out once; every card
    after it is past its end, not a copy to report card by card (the 200,000-coup shoe that gave a million
    findings)."""
    coups = [coup(n, *HANDS, [(1, "player", 100)]) for n in range(1, 45)]  # 5 cards a coup: 220 cards
    found = integrity(check(transcript(coups, decks=1)))
    copies = [f for f in found if "appears" in f[2]]
    (ran_out,) = [f for f in found if "more than" in f[2]]
    assert ran_out[0] == 11 and "card 53 of a shoe of 52" in ran_out[2]
    assert {f[0] for f in copies} <= set(range(2, 12)) and len(copies) == 9 * 5 + 2  # the copies before it ran out


def test_a_shoe_of_twenty_thousand_coups_runs_out_once(tmp_path):
    """A recorder that never marks a new shoe: 20,000 coups in one 8-deck shoe are one finding (its time and
    memory at a million coups: bench/runaway_shoe.py, docs/integrity.md)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from runaway_shoe import transcript as runaway

    result = Checker().check_file(runaway(20_000, directory=tmp_path))
    (finding,) = result.findings
    assert finding.rule == RULE and "more than 416 cards drawn from shoe 'S1' (8 decks)" in finding.message
    assert result.coups == 20_000 and 80 <= finding.coup <= 90


def recorded_as(c: dict, *codes: str) -> dict:
    """The coup with its cards, in the order dealt, recorded as ``codes`` (a card read in part: 7?, 0?, ??)."""
    cards = [e for e in c["events"] if e["type"] == "card"]
    for e, code in zip(cards, codes):
        e["card"] = code
    return c


def test_a_card_recorded_by_rank_only_counts_against_every_card_of_its_rank():
    """One deck: 7S 7H 7D 7C, then 7? is a fifth seven whatever its suit."""
    first = coup(1, ["7S", "7H"], ["7D", "7C"], [(1, "player", 100)])
    second = recorded_as(coup(2, ["7S", "2S"], ["3S", "4S"], [(1, "player", 100)]), "7?")
    assert integrity(check(transcript([first, second], decks=1))) == [
        (2, 3, "7? is card 5 of rank 7 (7s) in shoe 'S1', which holds 4 (1 deck), counted against every card it "
               "may be")]
    assert integrity(check(transcript([first, second], decks=2))) == []
    # read in part first, in full after: the fifth seven is the one read in full
    first = recorded_as(coup(1, ["7S", "7H"], ["7D", "7C"], [(1, "player", 100)]), "7?", "7?", "7?", "7?")
    second = coup(2, ["7S", "2S"], ["3S", "4S"], [(1, "player", 100)])
    assert integrity(check(transcript([first, second], decks=1))) == [
        (2, 3, "7S is card 5 of rank 7 (7s) in shoe 'S1', which holds 4 (1 deck)")]


def test_a_card_over_its_copies_is_one_finding_not_also_one_of_its_rank():
    """One deck: 7S twice is one finding; the 7H 7D 7C after it are not a fifth seven (the extra 7S was
    reported, and is not counted again against the sevens)."""
    first = coup(1, ["7S", "2S"], ["7S", "3S"], [(1, "player", 100)])
    second = coup(2, ["7H", "4S"], ["7D", "5S"], [(1, "player", 100)])
    third = coup(3, ["7C", "6S"], ["8S", "9S"], [(1, "player", 100)])
    assert integrity(check(transcript([first, second, third], decks=1))) == [
        (1, 4, "7S appears 2 times in shoe 'S1', which holds 1 deck")]


def test_a_card_recorded_by_value_only_counts_against_every_card_worth_0():
    """One deck holds 16 cards worth 0: sixteen read in full, then 0? is a seventeenth; K? after four kings is
    a fifth king, and after twelve other cards worth 0 and four 0? it is a seventeenth card worth 0."""
    zeros = [r + s for r in "TJQK" for s in "SHDC"]
    coups = [coup(n + 1, zeros[4 * n:4 * n + 2], zeros[4 * n + 2:4 * n + 4], [(1, "player", 100)])
             for n in range(4)]
    coups.append(recorded_as(coup(5, ["TS", "2S"], ["3S", "4S"], [(1, "player", 100)]), "0?"))
    assert integrity(check(transcript(coups, decks=1))) == [
        (5, 3, "0? is card 17 worth 0 (a ten or a court card) in shoe 'S1', which holds 16 (1 deck), counted "
               "against every card it may be")]
    coups[-1] = recorded_as(coup(5, ["KS", "2S"], ["3S", "4S"], [(1, "player", 100)]), "K?")
    assert integrity(check(transcript(coups, decks=1))) == [
        (5, 3, "K? is card 5 of rank K (kings) in shoe 'S1', which holds 4 (1 deck), counted against every card "
               "it may be")]
    others = [c for c in zeros if c[0] != "K"]
    coups = [coup(n + 1, others[4 * n:4 * n + 2], others[4 * n + 2:4 * n + 4], [(1, "player", 100)])
             for n in range(3)]
    coups += [recorded_as(coup(4, ["TS", "JS"], ["QS", "KS"], [(1, "player", 100)]), "0?", "0?", "0?", "0?"),
              recorded_as(coup(5, ["KS", "2S"], ["3S", "4S"], [(1, "player", 100)]), "K?")]
    assert integrity(check(transcript(coups, decks=1))) == [
        (5, 3, "K? is card 17 worth 0 (a ten or a court card) in shoe 'S1', which holds 16 (1 deck), counted "
               "against every card it may be")]


def test_a_card_not_read_counts_only_against_the_shoe_s_size():
    coups = [recorded_as(coup(n, ["7S", "7H"], ["7D", "7C"], [(1, "player", 100)]), "??", "??", "??", "??")
             for n in range(1, 14)]
    assert integrity(check(transcript(coups, decks=1))) == []
    coups.append(recorded_as(coup(14, ["7S", "7H"], ["7D", "7C"], [(1, "player", 100)]), "??", "??", "??", "??"))
    assert [f[:2] for f in integrity(check(transcript(coups, decks=1)))] == [(14, 3)]


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


# ------------------------------------------------------------------ cards recorded in dealing order only
# A smart shoe's log of the order only (format 1.1 `cards_in_order`: the cards in the order dealt, not the hand
# each went to) still gives the cards taken from the shoe: they must fit it like any card dealt to a hand.


def in_order_only(*orders: list[str], decks: int = 1) -> dict:
    return transcript([{"coup": n, "shoe": "S1", "events": [], "cards_in_order": list(order)}
                       for n, order in enumerate(orders, 1)], decks=decks) | {
        "version": "1.1", "recorded": ["cards", "coups"]}


def test_a_fifth_seven_recorded_in_dealing_order_only_does_not_fit_a_one_deck_shoe():
    """One deck: 7S 7H 7D 7C, then 7? is a fifth seven whatever its suit, and 7S again a second 7S; the finding
    names no event (the cards are in none), only the coup."""
    sevens = ["7S", "7H", "7D", "7C"]
    assert integrity(check(in_order_only(sevens, ["2S", "7?", "3S", "4S"]))) == [
        (2, None, "7? is card 5 of rank 7 (7s) in shoe 'S1', which holds 4 (1 deck), counted against every card it "
                  "may be")]
    assert integrity(check(in_order_only(sevens, ["2S", "7S", "3S", "4S"]))) == [
        (2, None, "7S appears 2 times in shoe 'S1', which holds 1 deck")]
    assert integrity(check(in_order_only(sevens, ["2S", "7?", "3S", "4S"], decks=2))) == []


def test_a_seventeenth_card_worth_0_recorded_in_dealing_order_only_does_not_fit_a_one_deck_shoe():
    zeros = [r + s for r in "TJQK" for s in "SHDC"]
    orders = [zeros[4 * n:4 * n + 4] for n in range(4)]
    assert integrity(check(in_order_only(*orders, ["2S", "3S", "4S", "5S"]))) == []
    assert integrity(check(in_order_only(*orders, ["2S", "0?", "4S", "5S"]))) == [
        (5, None, "0? is card 17 worth 0 (a ten or a court card) in shoe 'S1', which holds 16 (1 deck), counted "
                  "against every card it may be")]


def test_a_shoe_recorded_in_dealing_order_only_that_runs_out_of_cards_is_one_finding():
    """A runaway one-deck shoe logged in order only: four decks' worth of cards, six a coup. The 53rd card (coup
    9) is past its end, once; the cards after it are not reported one by one, nor counted again as copies."""
    cards = list(DECK) * 4
    orders = [cards[i:i + 6] for i in range(0, len(cards) - 5, 6)]
    assert integrity(check(in_order_only(*orders))) == [
        (9, None, f"more than 52 cards drawn from shoe 'S1' (1 deck): {cards[52]} is card 53 of a shoe of 52; the "
                  "cards drawn after it in this shoe are past its end too, not reported one by one")]
    assert integrity(check(in_order_only(*orders[:8]))) == []


CODES = st.sampled_from(list(DECK) + ["7?", "K?", "0?", "??"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coups=st.lists(st.lists(CODES, min_size=4, max_size=6), min_size=1, max_size=30),
       decks=st.integers(1, 2))
def test_cards_recorded_in_dealing_order_only_fit_the_shoe_as_the_same_cards_dealt_to_their_hands(coups, decks):
    """Whatever the cards (copies over the decks, cards read in part, more than the shoe holds), a shoe recorded
    in dealing order only gives the shoe.integrity findings of the same cards recorded with their hands, coup by
    coup, message by message (at the coup, not at an event: so in another order within the coup)."""
    to = ("player", "banker") * 3
    with_hands = transcript([{"coup": n, "shoe": "S1", "events": [
        {"type": "card", "card": code, "to": hand} for code, hand in zip(order, to)]}
        for n, order in enumerate(coups, 1)], decks=decks)
    assert sorted((n, message) for n, _, message in integrity(check(in_order_only(*coups, decks=decks)))) == \
        sorted((n, message) for n, _, message in integrity(check(with_hands)))
