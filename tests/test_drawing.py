"""Third cards (spec: third-card.*; NSW r 10 Tables 1 and 2, N.J.A.C. 13:69F-3.9, 68 IAC 10-10-14).

Property: a shoe dealt by the rules gives no finding; one card added, removed
or moved between the hands of one coup gives at least one finding in that coup.
Table tests: every cell of Table 2, and one mistake gives one finding.
"""

from __future__ import annotations

import pytest
from builders import (
    JURISDICTIONS,
    banker_draws,
    card_events,
    check,
    coup,
    dealt_by_the_rules,
    dumps,
    pairs,
    play,
    result_event,
    total,
    transcript,
)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from compliance.cards import DECK, POINTS
from compliance.engine import Checker
from compliance.report.notjudged import not_judged

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

two_decks = st.permutations(list(DECK) * 2)


# ------------------------------------------------------------------ properties


@SETTINGS
@given(cards=two_decks, jurisdiction=st.sampled_from(JURISDICTIONS))
def test_a_shoe_dealt_by_the_rules_gives_no_finding(cards, jurisdiction):
    coups = dealt_by_the_rules(cards, wagers=((1, "player", 100), (2, "banker", 300), (4, "tie", 25)))
    assert check(transcript(coups, jurisdiction, decks=2)) == []


def _card_indexes(events: list[dict]) -> list[int]:
    return [i for i, e in enumerate(events) if e["type"] == "card"]


@st.composite
def one_card_wrong(draw):
    """A shoe dealt by the rules, then one coup altered by one card: (coups, the altered coup's number)."""
    cards = draw(two_decks)
    coups = dealt_by_the_rules(cards[:-8])  # keep eight cards back, to add one from
    victim = draw(st.sampled_from(coups))
    events = victim["events"]
    dealt = _card_indexes(events)
    how = draw(st.sampled_from(["add", "remove", "move", "card_move"]))
    if how == "add":
        at = draw(st.integers(dealt[0], dealt[-1] + 1))
        spare = draw(st.sampled_from(cards[-8:]))
        events.insert(at, {"type": "card", "card": spare, "to": draw(st.sampled_from(["player", "banker"])), "face": "up"})
    elif how == "remove":
        del events[draw(st.sampled_from(dealt))]
    elif how == "move":  # the card was dealt to the other hand
        card = events[draw(st.sampled_from(dealt))]
        card["to"] = "banker" if card["to"] == "player" else "player"
    else:  # dealt right, then moved to the other hand before the result
        card = events[draw(st.sampled_from(dealt))]
        events.insert(dealt[-1] + 1, {"type": "card_move", "card": card["card"],
                                      "to": "banker" if card["to"] == "player" else "player"})
    # A ten slipped into the Banker's Hand can turn one legal coup into another with the same result
    # (Banker 6 standing becomes Banker 0 drawing a 6): nothing is wrong with that record, so it is
    # no counter-example.
    assume(not _another_legal_coup(events))
    return coups, victim["coup"]


def _another_legal_coup(events: list[dict]) -> bool:
    """The altered events are themselves a coup dealt by the rules, announced as the cards give it."""
    if any(e["type"] == "card_move" for e in events):
        return False
    cards = [(e["to"], e["card"]) for e in events if e["type"] == "card"]
    try:
        player, banker = play(iter(c for _, c in cards))
    except StopIteration:
        return False
    if len(player) + len(banker) != len(cards) or card_events(player, banker) != [e for e in events if e["type"] == "card"]:
        return False
    (result,) = [e for e in events if e["type"] == "result"]
    return result == result_event(player, banker)


@SETTINGS
@given(case=one_card_wrong(), jurisdiction=st.sampled_from(JURISDICTIONS))
def test_one_card_added_removed_or_moved_gives_a_finding_in_that_coup(case, jurisdiction):
    coups, altered = case
    found = check(transcript(coups, jurisdiction, decks=2))
    assert {f.coup for f in found} == {altered}, [(f.coup, f.rule, f.message) for f in found]


# ------------------------------------------------------------------ the tableau, cell by cell

# cards that make each total with two cards; a third card of each value
TWO_CARDS = {t: (["TS", "KH"] if t == 0 else ["KS", f"{'A' if t == 1 else t}H"]) for t in range(10)}
OF_VALUE = {v: ("KC" if v == 0 else "AC" if v == 1 else f"{v}C") for v in range(10)}


def _deal(player: list[str], banker: list[str], jurisdiction: str = "us-nj") -> set:
    return pairs(check(transcript([coup(1, player, banker, [(1, "player", 100)])], jurisdiction)))


@pytest.mark.parametrize("banker_total", range(8))
@pytest.mark.parametrize("third", range(10))
def test_banker_by_the_players_third_card(banker_total, third):
    """Each cell of Table 2: the Banker draws or stands by its total and the Player's third card."""
    player = ["KD", "5D", OF_VALUE[third]]  # 5: the Player draws
    banker = list(TWO_CARDS[banker_total])
    must_draw = banker_draws(banker_total, OF_VALUE[third])
    right = banker + ["2S"] if must_draw else banker
    wrong = banker if must_draw else banker + ["2S"]
    assert _deal(player, right) == set()
    rule = "BAC-DRAW-BANKER-MISSING" if must_draw else "BAC-DRAW-BANKER-ILLEGAL"
    assert _deal(player, wrong) == {(1, rule)}


@pytest.mark.parametrize("player_total", range(8))
def test_player_draws_on_0_to_5_and_stands_on_6_and_7(player_total):
    banker = TWO_CARDS[7]  # the Banker stands on 7 whatever the Player does
    player = list(TWO_CARDS[player_total])
    if player_total <= 5:
        assert _deal(player + ["2S"], banker) == set()
        assert _deal(player, banker) == {(1, "BAC-DRAW-PLAYER-MISSING")}
    else:
        assert _deal(player, banker) == set()
        assert _deal(player + ["2S"], banker) == {(1, "BAC-DRAW-PLAYER-ILLEGAL")}


@pytest.mark.parametrize("banker_total", range(8))
def test_banker_when_the_player_stood_draws_on_0_to_5(banker_total):
    player = TWO_CARDS[6]
    banker = list(TWO_CARDS[banker_total])
    if banker_total <= 5:
        assert _deal(player, banker + ["2S"]) == set()
        assert _deal(player, banker) == {(1, "BAC-DRAW-BANKER-MISSING")}
    else:
        assert _deal(player, banker) == set()
        assert _deal(player, banker + ["2S"]) == {(1, "BAC-DRAW-BANKER-ILLEGAL")}


@pytest.mark.parametrize("natural_hand", ["player", "banker"])
@pytest.mark.parametrize("points", [8, 9])
def test_no_hand_draws_on_a_natural(natural_hand, points):
    hands = {"player": list(TWO_CARDS[0]), "banker": list(TWO_CARDS[0])}
    hands[natural_hand] = list(TWO_CARDS[points])
    assert _deal(hands["player"], hands["banker"]) == set()
    assert _deal(hands["player"] + ["2S"], hands["banker"]) == {(1, "BAC-DRAW-PLAYER-ILLEGAL")}
    assert _deal(hands["player"], hands["banker"] + ["2S"]) == {(1, "BAC-DRAW-BANKER-ILLEGAL")}


@pytest.mark.parametrize("jurisdiction", JURISDICTIONS)
def test_every_jurisdiction_carries_the_same_tableau(jurisdiction):
    player, banker = ["KD", "4D", "3S"], ["KS", "6C", "8D"]  # Banker 6 against a 3 stands
    assert _deal(player, banker, jurisdiction) == {(1, "BAC-DRAW-BANKER-ILLEGAL")}


# ------------------------------------------------------------------ one mistake, one finding


def test_banker_is_judged_by_what_the_player_actually_did():
    """The Player wrongly stood on 5; the Banker on 6 then stands by the rule for a Player who stood."""
    found = check(transcript([coup(1, ["KD", "5D"], ["KS", "6C"], [(1, "player", 100)])]))
    assert pairs(found) == {(1, "BAC-DRAW-PLAYER-MISSING")}


def test_banker_judged_against_the_wrongly_drawn_third_card():
    """The Player wrongly drew a 6 on 7; the Banker on 6 against a 6 then draws: one finding only."""
    found = check(transcript([coup(1, ["KD", "7D", "6S"], ["KS", "6C", "AC"], [(1, "player", 100)])]))
    assert pairs(found) == {(1, "BAC-DRAW-PLAYER-ILLEGAL")}


def test_message_says_what_happened_and_what_the_table_says():
    (f,) = check(transcript([coup(1, ["KD", "4D", "3S"], ["KS", "6C", "8D"], [(1, "player", 100)])]))
    assert f.rule == "BAC-DRAW-BANKER-ILLEGAL" and f.category == "third-card.banker.illegal"
    assert "Banker drew 8D on 6" in f.message
    assert "the Player's third card was 3 (3S)" in f.message
    assert "stands on 6 against a 3" in f.message
    assert f.event == 8  # wager 0, calls 1-2, initial cards 3-6, the Player's third 7, the Banker's third 8
    assert f.citation == "N.J.A.C. 13:69F-3.9"


def test_an_is_used_before_eight():
    """'against an 8', not 'against a 8'."""
    (f,) = check(transcript([coup(1, ["KD", "5D", "8S"], ["KS", "3C", "2D"], [(1, "player", 100)])]))
    assert f.rule == "BAC-DRAW-BANKER-ILLEGAL"
    assert "stands on 3 against an 8" in f.message


def test_missing_banker_card_points_at_the_players_third_card():
    found = check(transcript([coup(1, ["KD", "4D", "2S"], ["KS", "4C"], [(1, "player", 100)])]))
    (f,) = found
    assert f.rule == "BAC-DRAW-BANKER-MISSING"
    assert f.event == 7  # the Player's third card: the Banker's card was due after it


def test_a_coup_dealt_by_play_is_compliant():
    """The helper itself deals by the rules (guards the property tests above)."""
    shoe = iter(["4H", "KS", "TD", "6C", "3S", "9D"])
    player, banker = play(shoe)
    assert (player, banker) == (["4H", "TD", "3S"], ["KS", "6C"])
    assert total(player) == 7 and POINTS["3S"] == 3
    assert result_event(player, banker)["winner"] == "player"
    assert len(card_events(player, banker)) == 5


# ------------------------------------------------------------------ cards recorded in dealing order only
# A shoe log of the order only gives the cards without the hand each went to (format 1.1 `cards_in_order`,
# where the import could not place the additional cards).  The hands are not known, but where every reading of
# where the additional cards went breaks the tableau, a drawing rule was broken whichever it was.


def in_order_only(*orders: list[str]) -> dict:
    return transcript([{"coup": n, "shoe": "S1", "recorded": ["cards", "coups"], "events": [],
                        "cards_in_order": order} for n, order in enumerate(orders, 1)]) | {
        "version": "1.1", "recorded": ["cards", "coups"]}


@SETTINGS
@given(cards=two_decks, jurisdiction=st.sampled_from(JURISDICTIONS))
def test_cards_of_a_coup_dealt_by_the_rules_read_in_order_only_comply_in_some_reading(cards, jurisdiction):
    orders = [[e["card"] for e in c["events"] if e["type"] == "card"] for c in dealt_by_the_rules(cards)[:20]]
    doc = in_order_only(*orders)
    doc["table"]["jurisdiction"] = jurisdiction
    assert not [f for f in check(doc) if f.category.startswith("third-card")]


@pytest.mark.parametrize("order, readings", [
    # Player 2 2 = 4 draws; Banker 4 K = 4: as the Player's third card a 5 makes the Banker draw (it stood), as the
    # Banker's the Player stood on 4
    (["2H", "4S", "2D", "KC", "5D"], "5D to the Player: the Banker stood on 4 against a 5; 5D to the Banker: the "
                                     "Player stood on 4"),
    # a natural 8 for the Player: no hand draws, whichever drew
    (["5S", "3C", "3S", "9D", "QH"], "QH to the Player: the Player drew although the Player's Hand has a natural 8; "
                                     "QH to the Banker: the Banker drew although the Player's Hand has a natural 8"),
    # Player 6 stands, Banker 7 stands: nobody draws
    (["KS", "7S", "6H", "KH", "9C"], "9C to the Player: the Player drew on 6; 9C to the Banker: the Banker drew on 7 "
                                     "after the Player stood"),
])
def test_cards_in_order_that_break_the_tableau_in_every_reading_are_a_finding(readings, order):
    found = check(in_order_only(order))
    assert [(f.coup, f.rule, f.category) for f in found] == [(1, "BAC-DRAW-NO-READING", "third-card.no-legal-reading")]
    assert found[0].message == (f"the cards dealt, in this order ({' '.join(order)}), break the tableau whichever "
                                f"hand each additional card went to: {readings}")
    assert found[0].citation.endswith("3.9")


def test_seven_cards_in_order_are_a_hand_drawing_twice_whatever_the_reading():
    found = check(in_order_only(["2H", "4S", "2D", "KC", "5D", "6D", "7D"]))
    assert [f.rule for f in found] == ["BAC-DRAW-NO-READING"]
    assert "hold 3 additional cards: whichever hand each went to, a hand drew more than one" in found[0].message


def test_cards_in_order_with_a_card_not_read_are_not_judged_where_its_value_decides(tmp_path):
    doc = in_order_only(["2H", "4S", "2D", "??", "5D"], ["2H", "4S", "2D", "KC", "TD"])
    assert check(doc) == []  # coup 2 reads one legal way (the Player drew a 0, the Banker stood on 4)
    path = tmp_path / "order.json"
    path.write_text(dumps(doc))
    why = {nj.rule.id: nj for nj in not_judged(Checker(judge=False).check_file(path, path.name))}
    assert why["BAC-DRAW-NO-READING"].missing == {"values": 1}
    assert why["BAC-DRAW-PLAYER-MISSING"].reason == "the hand each card went to not recorded"


@pytest.mark.parametrize("short", [["2H", "4S", "2D"], ["2H"]])
def test_cards_in_order_fewer_than_a_deal_make_the_coup_unreadable_the_others_judged(short):
    """A deal is four cards: a coup recorded with fewer in dealing order is not a coup that could be judged, and
    says so at its line; the coup after it is still judged."""
    found = check(in_order_only(short, ["2C", "4D", "2S", "KH", "5D"]))
    assert [(f.coup, f.category) for f in found] == [(1, "transcript.unreadable"), (2, "third-card.no-legal-reading")]
    assert "cards_in_order" in found[0].message and "4" in found[0].message
