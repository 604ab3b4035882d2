"""The curator and the passing of the cards, as each jurisdiction's rules give them.

Seat geometry is the table's: the tables here list their seats counter-clockwise
from the dealer's right in an order that is not ascending, so that "nearest
the dealer's right" and "lowest numbered seat" pick different patrons.
"""

from __future__ import annotations

import pytest
from builders import by_rule, check, header
from hypothesis import given, settings
from hypothesis import strategies as st
from procedure import hand_pass, offer, procedure_coup

# counter-clockwise from the dealer's right: seat 5 first, seat 1 third
SHUFFLED = [5, 3, 1, 7, 2, 6, 4]
P, B = ["4H", "2C"], ["KS", "7D"]  # Player 6 stands, Banker 7 stands: no third cards


def doc(jurisdiction, coups, **table):
    return header(jurisdiction, **table) | {"coups": coups}


def found(d, rule):
    return [(f.coup, f.event, f.severity) for f in by_rule(check(d)).get(rule, [])]


# ------------------------------------------------------------------ who turns the cards


def test_nsw_method_a_equal_wagers_go_to_the_seat_nearest_the_dealers_right():
    wagers = [(1, "player", 300), (5, "player", 300), (2, "banker", 100)]
    right = procedure_coup(1, P, B, wagers, method="A", passes={"player": [(5, True)], "banker": [(2, True)]})
    by_number = procedure_coup(2, P, B, wagers, method="A", passes={"player": [(1, True)], "banker": [(2, True)]})
    d = doc("au-nsw", [right, by_number], dealing_method="A", seat_order=SHUFFLED)
    assert [(c, sev) for c, _, sev in found(d, "NSW-A-RECIPIENT")] == [(2, "error")]


def test_nsw_method_a_refusal_chain_passes_to_the_next_highest_then_the_dealer_keeps_it():
    wagers = [(1, "player", 500), (5, "player", 300), (3, "player", 300), (2, "banker", 100)]
    # 1 refuses, then the equal 300s: seat 5 before seat 3 (seat_order), both refuse: the dealer keeps it
    chain = procedure_coup(1, P, B, wagers, method="A",
                           passes={"player": [(1, False), (5, False), (3, False)], "banker": [(2, True)]})
    skipped = procedure_coup(2, P, B, wagers, method="A",
                             passes={"player": [(1, False), (3, True)], "banker": [(2, True)]})
    unfinished = procedure_coup(3, P, B, wagers, method="A",
                                passes={"player": [(1, False)], "banker": [(2, True)]})
    after_all = procedure_coup(4, P, B, wagers, method="A",
                               passes={"player": [(1, False), (5, False), (3, False), (2, True)],
                                       "banker": [(2, True)]})
    d = doc("au-nsw", [chain, skipped, unfinished, after_all], dealing_method="A", seat_order=SHUFFLED)
    assert [c for c, _, _ in found(d, "NSW-A-RECIPIENT")] == [2, 3, 4]


def test_nsw_method_a_no_wager_on_a_hand_the_dealer_keeps_it():
    wagers = [(1, "banker", 300)]
    kept = procedure_coup(1, P, B, wagers, method="A", passes={"banker": [(1, True)]})
    passed = procedure_coup(2, P, B, wagers, method="A", passes={"player": [(1, True)], "banker": [(1, True)]})
    d = doc("au-nsw", [kept, passed], dealing_method="A")
    assert [c for c, _, _ in found(d, "NSW-A-RECIPIENT")] == [2]


def test_nj_no_wager_on_a_hand_a_bettor_on_the_other_may_turn_it_but_no_one_else():
    wagers = [(1, "banker", 300), (2, "tie", 50)]
    other_side = procedure_coup(1, P, B, wagers, passes={"player": [(1, True)], "banker": [(1, True)]})
    stranger = procedure_coup(2, P, B, wagers, passes={"player": [(2, True)], "banker": [(1, True)]})
    d = doc("us-nj", [other_side, stranger])
    # the casino's choice to let a player turn a hand nobody bet on was made wrongly: a warning
    assert [(c, sev) for c, _, sev in found(d, "NJ-RECIPIENT")] == [(2, "warning")]


def test_nj_equal_wagers_closest_to_the_dealer_counter_clockwise():
    wagers = [(1, "banker", 300), (7, "banker", 300), (2, "player", 100)]
    seven_first = [7, 6, 5, 4, 3, 2, 1]
    right = procedure_coup(1, P, B, wagers, passes={"player": [(2, True)], "banker": [(7, True)]})
    wrong = procedure_coup(2, P, B, wagers, passes={"player": [(2, True)], "banker": [(1, True)]})
    d = doc("us-nj", [right, wrong], seat_order=seven_first)
    assert [c for c, _, _ in found(d, "NJ-RECIPIENT")] == [2]


def test_third_card_goes_to_whoever_turned_the_hand():
    player, banker = ["2H", "3C", "4D"], ["KS", "7D"]  # Player 5 draws; Banker 7 stands
    wagers = [(1, "player", 300), (2, "player", 100), (3, "banker", 100)]
    right = procedure_coup(1, player, banker, wagers, passes={"player": [(1, True)], "banker": [(3, True)]})
    wrong = procedure_coup(2, player, banker, wagers, passes={"player": [(1, True)], "banker": [(3, True)]},
                           third_passes={"player": 2})
    d = doc("us-nj", [right, wrong])
    assert [c for c, _, _ in found(d, "NJ-RECIPIENT")] == [2]


def test_indiana_the_curator_turns_the_bankers_cards():
    wagers = [(1, "player", 300), (2, "banker", 500), (3, "banker", 100)]
    start = [offer(1, False), offer(2, False), offer(3, True)]
    by_curator = procedure_coup(1, P, B, wagers, before_calls=start,
                                passes={"player": [(1, True)], "banker": [(3, True)]})
    by_highest = procedure_coup(2, P, B, wagers, passes={"player": [(1, True)], "banker": [(2, True)]})
    d = doc("us-in", [by_curator, by_highest])
    assert [c for c, _, _ in found(d, "IN-RECIPIENT")] == [2]


@settings(max_examples=40, deadline=None)
@given(st.permutations([1, 2, 3, 4, 5, 6, 7]), st.sets(st.sampled_from([1, 2, 3, 4, 5, 6, 7]), min_size=2, max_size=4))
def test_equal_highest_wagers_the_first_in_seat_order_is_entitled(order, tied):
    wagers = [(s, "player", 200) for s in sorted(tied)] + [(s, "banker", 50) for s in range(1, 8) if s not in tied]
    first = next(s for s in order if s in tied)
    banker_seat = next(s for s in order if s not in tied)
    coups = [procedure_coup(1, P, B, wagers, method="A", passes={"player": [(first, True)],
                                                                  "banker": [(banker_seat, True)]})]
    others = [s for s in tied if s != first]
    coups.append(procedure_coup(2, P, B, wagers, method="A", passes={"player": [(others[0], True)],
                                                                      "banker": [(banker_seat, True)]}))
    d = doc("au-nsw", coups, dealing_method="A", seat_order=list(order))
    assert [c for c, _, _ in found(d, "NSW-A-RECIPIENT")] == [2]


# ------------------------------------------------------------------ offers


def test_indiana_shoe_offered_from_seat_1_then_counter_clockwise_over_seated_players():
    wagers = [(1, "player", 100), (3, "banker", 100), (5, "banker", 100)]
    ok = procedure_coup(1, P, B, wagers, before_calls=[offer(1, False), offer(3, True)],
                        passes={"player": [(1, True)], "banker": [(3, True)]})
    d = doc("us-in", [ok])
    assert found(d, "IN-CURATOR-OFFER") == []
    skipped = procedure_coup(1, P, B, wagers, before_calls=[offer(1, False), offer(5, True)],
                             passes={"player": [(1, True)], "banker": [(5, True)]})
    assert [c for c, _, _ in found(doc("us-in", [skipped]), "IN-CURATOR-OFFER")] == [1]
    # seat 1 empty: counter-clockwise from where seat 1 is, on a table whose order starts elsewhere
    no_one = procedure_coup(1, P, B, [(3, "player", 100), (7, "banker", 100)],
                            before_calls=[offer(7, False), offer(3, True)],
                            passes={"player": [(3, True)], "banker": [(3, True)]})
    assert found(doc("us-in", [no_one], seat_order=SHUFFLED), "IN-CURATOR-OFFER") == []


def test_indiana_curator_and_bettors_must_be_seated():
    stand = procedure_coup(1, P, B, [(1, "player", 100), (2, "banker", 100)], seated=[1, 2],
                           before_calls=[offer(1, False), offer(2, False), offer(4, True)])
    stand["events"].insert(0, {"type": "wager", "patron": "P-STAND", "spot": "tie", "amount": 20})
    stand["events"].append({"type": "settle", "patron": "P-STAND", "spot": "tie", "outcome": "lose", "amount": 20})
    d = doc("us-in", [stand])
    assert found(d, "IN-CURATOR-SEATED") and found(d, "IN-WAGER-SEATED")


def test_nsw_method_e_highest_wager_first_equal_wagers_lowest_numbered_seat():
    wagers = [(5, "banker", 400), (1, "player", 400), (3, "banker", 900), (2, "tie", 1000)]
    right = procedure_coup(1, P, B, wagers, method="E", before_calls=[offer(3, False), offer(1, True)],
                           passes={"player": [(1, True)], "banker": [(1, True)]})
    by_seat_order = procedure_coup(2, P, B, wagers, method="E", before_calls=[offer(3, False), offer(5, True)],
                                   passes={"player": [(5, True)], "banker": [(5, True)]})
    not_offered = procedure_coup(3, P, B, wagers, method="E")
    d = doc("au-nsw", [right, {**by_seat_order, "events": [{"type": "shoe_return"}] + by_seat_order["events"]},
                       {**not_offered, "events": [{"type": "shoe_return"}] + not_offered["events"]}],
            dealing_method="E", seat_order=SHUFFLED)
    assert [c for c, _, _ in found(d, "NSW-E-SHOE-OFFER")] == [2, 3]


def test_nsw_method_d_offered_from_lowest_numbered_seat_with_a_wager_and_lost_when_the_wager_loses():
    wagers = [(6, "banker", 100), (2, "banker", 100), (4, "player", 100)]
    lose = (["9H", "KC"], ["2S", "3D"])  # Player 9 beats Banker 5: the banker bettors lose
    first = procedure_coup(1, *lose, wagers, method="D",
                           before_calls=[offer(2, True)], passes={"banker": [(2, True)]})
    keeps = procedure_coup(2, P, B, wagers, method="D", passes={"banker": [(2, True)]})
    d = doc("au-nsw", [first, keeps], dealing_method="D", seat_order=SHUFFLED)
    assert found(d, "NSW-D-SHOE-OFFER") == []
    assert [c for c, _, _ in found(d, "NSW-D-SHOE-HOLDER")] == [2]
    wrong_start = procedure_coup(1, *lose, wagers, method="D", before_calls=[offer(4, True)])
    assert [c for c, _, _ in found(doc("au-nsw", [wrong_start], dealing_method="D"), "NSW-D-SHOE-OFFER")] == [1]


def test_nsw_method_b_marker_moves_on_after_a_banker_loss():
    wagers = [(2, "banker", 100), (3, "banker", 100), (1, "player", 50)]
    lose = (["9H", "KC"], ["2S", "3D"])
    first = procedure_coup(1, *lose, wagers, method="B", before_calls=[offer(1, False, "banker_marker"),
                                                                       offer(2, True, "banker_marker")],
                           passes={"banker": [(2, True)]})
    stays = procedure_coup(2, P, B, wagers, method="B", passes={"banker": [(2, True)]})
    d = doc("au-nsw", [first, stays], dealing_method="B")
    assert [c for c, _, _ in found(d, "NSW-B-MARKER-OFFER")] == [2]
    moved = procedure_coup(2, P, B, wagers, method="B", before_calls=[offer(3, True, "banker_marker")],
                           passes={"banker": [(3, True)]})
    d = doc("au-nsw", [first, moved], dealing_method="B")
    assert found(d, "NSW-B-MARKER-OFFER") == [] and found(d, "NSW-B-RECIPIENT") == []


def test_nsw_method_b_player_cards_stay_with_the_dealer_and_holder_wagers_on_banker():
    wagers = [(2, "player", 100), (1, "player", 50)]
    c1 = procedure_coup(1, P, B, wagers, method="B", before_calls=[offer(1, False, "banker_marker"),
                                                                   offer(2, True, "banker_marker")],
                        passes={"player": [(2, True)]})
    d = doc("au-nsw", [c1], dealing_method="B")
    assert found(d, "NSW-B-RECIPIENT") and found(d, "NSW-B-MARKER-HOLDER")


# ------------------------------------------------------------------ handling


def test_nsw_one_hand_out_at_a_time():
    wagers = [(1, "player", 100), (2, "banker", 100)]
    c = procedure_coup(1, P, B, wagers, method="A", passes={"player": [(1, True)], "banker": [(2, True)]})
    ev = c["events"]
    ret = next(i for i, e in enumerate(ev) if e["type"] == "hand_return")
    ev.insert(ret + 1 + 1, ev.pop(ret))  # the Player's cards come back only after the Banker's went out
    d = doc("au-nsw", [c], dealing_method="A")
    assert [x for x, _, _ in found(d, "NSW-ONE-HAND-OUT")] == [1]


def test_nsw_method_c_no_player_handles_the_cards_and_the_dealer_keeps_the_shoe():
    c = procedure_coup(1, P, B, [(1, "player", 100)], method="C", before_calls=[offer(1, False)],
                       passes={"player": [(1, True)]})
    d = doc("au-nsw", [c])
    assert found(d, "NSW-C-DEALER-ONLY") and found(d, "NSW-SHOE-KEPT-BY-DEALER")


def test_curator_deals_only_on_the_dealers_instruction():
    wagers = [(1, "player", 100), (2, "banker", 100)]
    c = procedure_coup(1, P, B, wagers, method="E", calls=("no_more_bets",), before_calls=[offer(1, True)],
                       passes={"player": [(1, True)], "banker": [(1, True)]})
    d = doc("au-nsw", [c], dealing_method="E")
    assert found(d, "NSW-DE-INSTRUCTION")
    c = procedure_coup(1, P, B, wagers, calls=("no_more_bets",), before_calls=[offer(1, True)])
    assert found(doc("us-in", [c]), "IN-CURATOR-INSTRUCTION")


def test_hand_pass_helper_records_a_refusal_without_return():
    assert [e["type"] for e in hand_pass("player", 1, False)] == ["hand_pass"]


@settings(max_examples=40, deadline=None)
@given(st.permutations([1, 2, 3, 4, 5, 6, 7]), st.sets(st.sampled_from([1, 2, 3, 4, 5, 6, 7]), min_size=2),
       st.data())
def test_indiana_offers_follow_the_seats_counter_clockwise_from_seat_1(order, seated, data):
    ring = order[order.index(1):] + order[:order.index(1)]
    chain = [s for s in ring if s in seated]
    accept = data.draw(st.integers(min_value=0, max_value=len(chain) - 1))
    offers = [offer(s, k == accept) for k, s in enumerate(chain[:accept + 1])]
    wagers = [(s, "player", 100) for s in sorted(seated)]
    ok = procedure_coup(1, P, B, wagers, before_calls=offers)
    assert found(doc("us-in", [ok], seat_order=list(order)), "IN-CURATOR-OFFER") == []
    if accept > 0:  # leave out one of the declining seats: the next offer is out of order
        skip = data.draw(st.integers(min_value=0, max_value=accept - 1))
        skipped = procedure_coup(1, P, B, wagers, before_calls=offers[:skip] + offers[skip + 1:])
        assert len(found(doc("us-in", [skipped], seat_order=list(order)), "IN-CURATOR-OFFER")) == 1


def test_nsw_method_a_third_card_is_passed_to_whoever_turned_the_hand():
    player, banker = ["2H", "3C", "4D"], ["KS", "7D"]  # Player 5 draws; Banker 7 stands
    wagers = [(1, "player", 300), (3, "banker", 100)]
    passed = procedure_coup(1, player, banker, wagers, method="A", passes={"player": [(1, True)], "banker": [(3, True)]})
    kept = procedure_coup(2, player, banker, wagers, method="A", passes={"player": [(1, True)], "banker": [(3, True)]})
    kept["events"] = [e for e in kept["events"] if not (e.get("cards") == "third")]
    ev = kept["events"]
    third = next(i for i, e in enumerate(ev) if e.get("card") == "4D")
    if ev[third + 1]["type"] == "hand_return":
        del ev[third + 1]
    d = doc("au-nsw", [passed, kept], dealing_method="A")
    assert [c for c, _, _ in found(d, "NSW-A-RECIPIENT")] == [2]


# ------------------------------------------------------------------ cards dealt face down for the patrons to turn


def test_indiana_initial_cards_dealt_face_up_where_the_players_cards_are_passed():
    """68 IAC 10-10-12(g)(1)-(4): the four initial cards are dealt face down, for (g)(5)-(6)."""
    wagers = [(1, "player", 100), (5, "banker", 100)]
    passed = {"player": [(1, True)], "banker": [(5, True)]}
    down = procedure_coup(1, P, B, wagers, before_calls=[offer(1, False), offer(5, True)], passes=passed)
    up = procedure_coup(2, P, B, wagers, passes=passed, face="up")
    d = doc("us-in", [down, up], seat_order=SHUFFLED)
    assert [(c, e) for c, e, _ in found(d, "IN-FACE-DOWN")] == [(2, up["events"].index(
        next(ev for ev in up["events"] if ev["type"] == "card")))]


def test_a_coup_with_no_hand_passed_and_a_face_not_recorded_are_not_judged_for_face():
    """No passing recorded: the procedure of (g) is not what the record shows (New Jersey's (c): the dealer
    turns every card face up). A card with no recorded face cannot be judged."""
    wagers = [(1, "player", 100), (5, "banker", 100)]
    turned_by_dealer = procedure_coup(1, P, B, wagers, face="up")
    unrecorded = procedure_coup(2, P, B, wagers, passes={"player": [(1, True)], "banker": [(5, True)]})
    for ev in unrecorded["events"]:
        ev.pop("face", None)
    for jurisdiction, rule in (("us-in", "IN-FACE-DOWN"), ("us-nj", "NJ-FACE-DOWN")):
        assert found(doc(jurisdiction, [turned_by_dealer, unrecorded]), rule) == []


def test_new_jersey_alternative_procedure_deals_third_cards_face_down_too():
    """N.J.A.C. 13:69F-3.7(d)(3): a third card for a hand that was handed out is placed face down and handed on."""
    player, banker = ["4H", "KD"], ["KS", "7D"]  # Player 4 draws; Banker 7 stands
    third = procedure_coup(1, player + ["5C"], banker, [(1, "player", 100), (5, "banker", 100)],
                           passes={"player": [(1, True)], "banker": [(5, True)]})
    at = next(i for i, ev in enumerate(third["events"]) if ev.get("card") == "5C")
    third["events"][at]["face"] = "up"
    assert [(c, e) for c, e, _ in found(doc("us-nj", [third]), "NJ-FACE-DOWN")] == [(1, at)]
    assert found(doc("us-in", [third]), "IN-FACE-DOWN") == []  # (g) speaks of the four initial cards only


@settings(max_examples=60, deadline=None)
@given(up=st.sets(st.integers(0, 5)), jurisdiction=st.sampled_from(["us-in", "us-nj"]))
def test_every_card_dealt_face_up_is_named_once_in_one_finding(up, jurisdiction):
    """Whichever cards are turned up at the deal, one finding a coup names exactly the judged ones:
    Indiana judges the four initial cards, New Jersey's alternative procedure every card."""
    player, banker = ["4H", "KD", "5C"], ["3S", "2D", "9C"]  # Player 4 draws 5; Banker 5 draws against 5
    c = procedure_coup(1, player, banker, [(1, "player", 100), (5, "banker", 100)],
                       passes={"player": [(1, True)], "banker": [(5, True)]})
    dealt = [i for i, ev in enumerate(c["events"]) if ev["type"] == "card"]
    for k in up:
        c["events"][dealt[k]]["face"] = "up"
    judged = sorted(k for k in up if jurisdiction == "us-nj" or k < 4)
    rule = {"us-in": "IN-FACE-DOWN", "us-nj": "NJ-FACE-DOWN"}[jurisdiction]
    findings = by_rule(check(doc(jurisdiction, [c]))).get(rule, [])
    if not judged:
        assert findings == []
        return
    (f,) = findings
    assert f.event == dealt[judged[0]]
    named = [c["events"][dealt[k]]["card"] for k in judged]
    assert all(code in f.message for code in named)
    assert f.message.split(";")[0].count(" to the ") == len(named)


# ------------------------------------------------------------------ eligibility in every coup the holder acts


def left_after_first_coup(jurisdiction, method, item="shoe", keep_seated=False):
    """Seat 1 takes the shoe (or the Banker marker) in coup 1 and plays the Banker's Hand in coups 1 and 2;
    before coup 2 its patron leaves the seat (unless ``keep_seated``)."""
    first = procedure_coup(1, P, B, [(1, "banker", 100), (2, "player", 100)], seated=[1, 2, 3], method=method,
                           before_calls=[offer(1, True, item)], passes={"banker": [(1, True)]} | (
                               {"player": [(2, True)]} if jurisdiction == "us-in" else {}))
    second = procedure_coup(2, P, B, [(2, "player", 100), (3, "banker", 100)] + (
        [(1, "banker", 100)] if keep_seated else []), seated=[1, 2, 3] if keep_seated else [2, 3], method=method,
        passes={"banker": [(1, True)]} | ({"player": [(2, True)]} if jurisdiction == "us-in" else {}))
    return doc(jurisdiction, [first, second], **({"dealing_method": method} if method else {}))


@pytest.mark.parametrize("jurisdiction,method,item,rule", [
    ("us-in", None, "shoe", "IN-CURATOR-SEATED"),          # 68 IAC 10-10-12(d)
    ("au-nsw", "D", "shoe", "NSW-D-SHOE-HOLDER"),          # NSW 8.20
    ("au-nsw", "B", "banker_marker", "NSW-B-MARKER-HOLDER"),  # NSW 8.10
])
def test_a_holder_who_left_the_seat_is_not_eligible_in_each_coup_it_acts(jurisdiction, method, item, rule):
    left = left_after_first_coup(jurisdiction, method, item)
    assert [(c, sev) for c, _, sev in found(left, rule)] == [(2, "error")]
    (f,) = by_rule(check(left))[rule]
    assert "no patron is seated there" in f.message
    assert found(left_after_first_coup(jurisdiction, method, item, keep_seated=True), rule) == []


def test_a_curator_who_gave_the_shoe_back_before_leaving_is_not_reported():
    d = left_after_first_coup("us-in", None)
    d["coups"][1]["events"][2:2] = [{"type": "shoe_return"}, offer(2, True)]
    for ev in d["coups"][1]["events"]:
        if ev["type"] == "hand_pass" and ev["hand"] == "banker":
            ev["seat"] = 2
    assert found(d, "IN-CURATOR-SEATED") == [] and found(d, "IN-CURATOR-OFFER") == []


def test_method_e_shoe_to_an_empty_seat_is_one_finding_at_the_offer():
    c = procedure_coup(1, P, B, [(1, "banker", 100)], seated=[1], method="E", before_calls=[offer(4, True)])
    d = doc("au-nsw", [c], dealing_method="E")
    assert [e for _, e, _ in found(d, "NSW-E-SHOE-HOLDER")] == [1]


def test_the_dealer_keeps_the_shoe_under_methods_a_b_c_even_when_a_patron_held_it_before():
    """NSW 8.2: a player who took the shoe under Method D and still holds it when a coup is dealt by
    Method C breaks the rule in that coup, though nothing was offered in it."""
    wagers = [(1, "banker", 100), (2, "player", 100)]
    d_coup = procedure_coup(1, P, B, wagers, method="D", before_calls=[offer(1, True)], passes={"banker": [(1, True)]})
    kept = procedure_coup(2, P, B, wagers, method="C", face="up")
    given_back = procedure_coup(2, P, B, wagers, method="C", face="up", before_calls=[{"type": "shoe_return"}])
    assert [c for c, _, _ in found(doc("au-nsw", [d_coup, kept], dealing_method="D"), "NSW-SHOE-KEPT-BY-DEALER")] == [2]
    assert found(doc("au-nsw", [d_coup, given_back], dealing_method="D"), "NSW-SHOE-KEPT-BY-DEALER") == []


# ------------------------------------------------------------------ Methods D and E: the curator plays one hand


@pytest.mark.parametrize("method", ["D", "E"])
def test_the_player_with_the_shoe_plays_one_hand_and_the_dealer_the_other(method):
    """NSW 8.22 and 8.29: the holder plays the Banker's Hand (or, with an approval no transcript records,
    the Player's); the dealer plays the other. Turning both is a wrong recipient for the second."""
    wagers = [(1, "banker", 300), (2, "player", 100)]

    def dealt(passes):
        c = procedure_coup(1, ["4H", "AC", "5S"], B, wagers, method=method, before_calls=[offer(1, True)],
                           passes=passes)
        return doc("au-nsw", [c], dealing_method=method), c

    for passes in ({"banker": [(1, True)]}, {"player": [(1, True)]}):
        assert found(dealt(passes)[0], "NSW-DE-RECIPIENT") == []
    d, c = dealt({"player": [(1, True)], "banker": [(1, True)]})
    second = [i for i, e in enumerate(c["events"]) if e["type"] == "hand_pass" and e["hand"] == "banker"]
    assert found(d, "NSW-DE-RECIPIENT") == [(1, second[0], "error")]
    # the Player's third card stays with the dealer when the holder plays the Banker's Hand
    d, c = dealt({"banker": [(1, True)]})
    at = next(i for i, e in enumerate(c["events"]) if e.get("card") == "5S") + 1
    c["events"][at:at] = hand_pass("player", 1, True, "third")
    assert [e for _, e, _ in found(d, "NSW-DE-RECIPIENT")] == [at]


# ------------------------------------------------------------------ NSW: the face of each card, by dealing method

# NSW 7.3 (the four initial cards face down), 10.6.1.1 (Methods A, D, E: third cards passed face down),
# 10.6.2 and 10.6.3.1 (Method B: the Player's third card face up, the Banker's passed face down),
# 10.6.4 (Method C: third cards face up). Method C's initial cards are not judged (the dealer turns them).
NSW_FACES = {"A": ("down", "down", "down"), "B": ("down", "up", "down"), "C": (None, "up", "up"),
             "D": ("down", "down", "down"), "E": ("down", "down", "down")}
NSW_FACE_RULE = {"A": "NSW-FACE-ADE", "B": "NSW-FACE-B", "C": "NSW-FACE-C", "D": "NSW-FACE-ADE", "E": "NSW-FACE-ADE"}


@settings(max_examples=60, deadline=None)
@given(method=st.sampled_from("ABCDE"), faces=st.lists(st.sampled_from(["up", "down"]), min_size=6, max_size=6))
def test_nsw_each_card_is_dealt_with_the_face_its_dealing_method_gives_it(method, faces):
    player, banker = ["4H", "KD", "5C"], ["3S", "2D", "9C"]  # Player 4 draws 5; Banker 5 draws against 5
    c = procedure_coup(1, player, banker, [(1, "player", 100), (5, "banker", 100)], method=method)
    dealt = [i for i, ev in enumerate(c["events"]) if ev["type"] == "card"]
    for k, face in zip(range(6), faces):
        c["events"][dealt[k]]["face"] = face
    initial, player_third, banker_third = NSW_FACES[method]
    want = [initial] * 4 + [player_third, banker_third]  # the Player's third card is dealt before the Banker's
    wrong = [dealt[k] for k in range(6) if want[k] is not None and faces[k] != want[k]]
    got = found(doc("au-nsw", [c], dealing_method=method), NSW_FACE_RULE[method])
    assert got == ([(1, wrong[0], "error")] if wrong else [])
    others = set(NSW_FACE_RULE.values()) - {NSW_FACE_RULE[method]}
    assert all(found(doc("au-nsw", [c], dealing_method=method), rule) == [] for rule in others)


@pytest.mark.parametrize(("faces", "fires"), [
    (["down", "up", "down", "down"], True),  # dealt face down, the Banker's first card face up: rule 7.3 broken
    (["down"] * 4, False),  # the deal of rule 7.3
    (["up"] * 4, False),  # the cards as the dealer lays them out under Method C: no deal face down shown
])
def test_nsw_an_initial_card_dealt_face_up_under_method_c(faces, fires):
    c = procedure_coup(1, ["4H", "KD", "5C"], ["3S", "2D", "9C"], [(1, "player", 100)], method="C")
    dealt = [i for i, ev in enumerate(c["events"]) if ev["type"] == "card"]
    for k, face in enumerate(faces + ["up", "up"]):
        c["events"][dealt[k]]["face"] = face
    got = found(doc("au-nsw", [c], dealing_method="C"), "NSW-FACE-INITIAL")
    assert got == ([(1, dealt[1], "error")] if fires else [])


def test_nsw_a_card_found_face_up_in_the_shoe_is_not_dealt_face_up():
    c = procedure_coup(1, ["4H", "KD", "5C"], ["3S", "2D", "9C"], [(1, "player", 100)], method="C")
    dealt = [i for i, ev in enumerate(c["events"]) if ev["type"] == "card"]
    for k in range(4):
        c["events"][dealt[k]]["face"] = "down"
    c["events"][dealt[1]].update(face="up", found_face_up=True)
    assert found(doc("au-nsw", [c], dealing_method="C"), "NSW-FACE-INITIAL") == []
