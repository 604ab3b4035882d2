"""Irregularities: NSW rule 13 and NZ rule 12 put the same mistakes right in different ways.

Each scenario is one transcript replayed under both rulesets: handled the NSW
way it is an ``info`` finding under au-nsw and a breach under nz, and the
other way round.
"""

from __future__ import annotations

import pytest
from builders import check, header
from procedure import card, procedure_coup

W = [(1, "player", 100), (2, "banker", 100)]


def verdicts(doc, ruleset):
    """(coup, severity) of every irregularity finding under ``ruleset``."""
    return sorted((f.coup, f.severity) for f in check(doc, ruleset) if f.category == "irregularity.mishandled")


def breaches(doc, ruleset):
    return [(f.coup, f.rule) for f in check(doc, ruleset) if f.severity != "info"]


def erroneous_player_card(to, banker=("KS", "7D")):
    """Player 7 stands, yet gets 5S face up; the card is then moved ``to`` (the coup settled on the hands as moved)."""
    final_banker = list(banker) + (["5S"] if to == "banker" else [])
    c = procedure_coup(1, ["4H", "3C"], final_banker, W, method="C", face="up")
    ev = c["events"]
    at = next(i for i, e in enumerate(ev) if e["type"] == "result" or e.get("card") == "5S")
    if ev[at]["type"] == "card":
        del ev[at]
    ev[at:at] = [card("5S", "player", "up"), {"type": "card_move", "card": "5S", "to": to}]
    return c


def no_bet_coup_from(code, number=2):
    c = procedure_coup(number, [code, "2D"], ["9C", "9H"], [], seated=[1, 2], method="C", face="up", no_bet=True)
    first = next(e for e in c["events"] if e["type"] == "card")
    first["carried_over"] = True  # the first card is the card set aside
    return c


def doc(coups):
    return header("au-nsw") | {"coups": coups}


NSW_WAY = doc([erroneous_player_card("next_coup"), no_bet_coup_from("5S"),
               procedure_coup(3, ["6H", "AC"], ["QS", "8D"], W, method="C", face="up")])
NZ_WAY = doc([erroneous_player_card("discard"), procedure_coup(2, ["6H", "AC"], ["QS", "8D"], W, method="C", face="up")])


def test_exposed_erroneous_card_nsw_makes_it_the_first_card_of_a_no_bet_coup():
    assert verdicts(NSW_WAY, "au-nsw") == [(1, "info")]
    assert breaches(NSW_WAY, "au-nsw") == []
    assert verdicts(NSW_WAY, "nz") == [(1, "error")]


def test_exposed_erroneous_card_nz_discards_it():
    assert verdicts(NZ_WAY, "nz") == [(1, "info")]
    assert breaches(NZ_WAY, "nz") == []
    assert verdicts(NZ_WAY, "au-nsw") == [(1, "error")]


@pytest.mark.parametrize("ruleset", ["au-nsw", "nz"])
def test_erroneous_card_becomes_the_bankers_third_card_when_the_banker_must_draw(ruleset):
    right = doc([erroneous_player_card("banker", banker=("KS", "4D"))])  # Banker 4 draws as if the Player stood
    assert verdicts(right, ruleset) == [(1, "info")] and breaches(right, ruleset) == []
    wrong = doc([erroneous_player_card("discard", banker=("KS", "4D"))])
    assert (1, "error") in verdicts(wrong, ruleset)


def test_the_no_bet_coup_must_follow_and_take_no_wagers():
    wagered = no_bet_coup_from("5S")
    wagered.pop("no_bet")
    d = doc([erroneous_player_card("next_coup"), wagered])
    assert verdicts(d, "au-nsw") == [(1, "info"), (2, "error")]
    missing = doc([erroneous_player_card("next_coup"),
                   procedure_coup(2, ["6H", "AC"], ["QS", "8D"], W, method="C", face="up")])
    assert (2, "error") in verdicts(missing, "au-nsw")


def face_up_third_card(handling):
    """The Player's third card comes out of the shoe face up: played, or discarded and replaced."""
    c = procedure_coup(1, ["4H", "AC", "3D"], ["KS", "7D"], W, method="C", face="up")
    ev = c["events"]
    third = next(i for i, e in enumerate(ev) if e["type"] == "card" and e["card"] == "3D")
    if handling == "played":
        ev[third]["found_face_up"] = True
    else:
        ev.insert(third, card("5D", "discard", "up", found_face_up=True))
    return doc([c])


def test_card_found_face_up_after_the_first_card_nsw_plays_it_nz_discards_it():
    played, discarded = face_up_third_card("played"), face_up_third_card("discarded")
    assert verdicts(played, "au-nsw") == [(1, "info")] and verdicts(played, "nz") == [(1, "error")]
    assert verdicts(discarded, "nz") == [(1, "info")] and verdicts(discarded, "au-nsw") == [(1, "error")]


def test_card_found_face_up_as_the_first_card_nsw_no_bet_coup_nz_discard():
    first = procedure_coup(1, ["5S", "2D"], ["9C", "9H"], [], seated=[1, 2], method="C", face="up", no_bet=True)
    first["events"][2]["found_face_up"] = True  # the first card, after both calls
    d = doc([first])
    assert verdicts(d, "au-nsw") == [(1, "info")] and verdicts(d, "nz") == [(1, "error")]


def misdealt(reconstruction, face="up"):
    c = procedure_coup(1, ["4H", "2C"], ["KS", "7D"], W, method="C", face=face)
    ev = c["events"]
    for k in range(4, 8):  # dealt Banker, Player, Banker, Player
        ev[k]["to"] = "banker" if ev[k]["to"] == "player" else "player"
    if reconstruction:
        ev.insert(8, {"type": "reconstruct", "player": reconstruction[0], "banker": reconstruction[1]})
    return c


@pytest.mark.parametrize("ruleset", ["au-nsw", "nz"])
def test_misdeal_reconstructed_into_dealing_order_or_void(ruleset):
    right = doc([misdealt((["4H", "2C"], ["KS", "7D"]))])
    assert verdicts(right, ruleset) == [(1, "info")] and breaches(right, ruleset) == []
    swapped = doc([misdealt((["KS", "7D"], ["4H", "2C"]))])
    assert verdicts(swapped, ruleset) == [(1, "error")]
    void = misdealt(None)
    void["events"] = [e for e in void["events"] if e["type"] not in ("result", "settle")]
    void["events"] += [{"type": "void", "reason": "misdeal"}] + [
        {"type": "settle", "seat": s, "spot": sp, "outcome": "push", "amount": 0} for s, sp, _ in W]
    assert verdicts(doc([void]), ruleset) == [(1, "info")]
    assert breaches(doc([void]), ruleset) == []


def test_nsw_withdrawal_after_reconstruction_whole_only_and_all_withdrawn_voids():
    c = misdealt((["4H", "2C"], ["KS", "7D"]), face="down")
    ev = c["events"]
    ev[9:9] = [{"type": "wager_adjust", "seat": s, "spot": sp, "amount": 0, "reason": "withdrawn"} for s, sp, _ in W]
    c["events"] = [e for e in ev if e["type"] != "settle"]
    assert verdicts(doc([c]), "au-nsw") == [(1, "error"), (1, "info")]
    c["events"].insert(11, {"type": "void", "reason": "other"})
    assert verdicts(doc([c]), "au-nsw") == [(1, "info")]


def withdrawn(change_at, *changes, face="down", passes=None):
    """Misdealt Banker first, reconstructed (event 8), then ``changes`` to the wagers at event ``change_at``
    (an index among the events after the reconstruction); every wager standing at the end is settled."""
    c = procedure_coup(1, ["4H", "2C"], ["KS", "7D"], W, method="A", face=face, passes=passes, settle=False)
    ev = c["events"]
    for k in range(4, 8):  # dealt Banker, Player, Banker, Player
        ev[k]["to"] = "banker" if ev[k]["to"] == "player" else "player"
    ev.insert(8, {"type": "reconstruct", "player": ["4H", "2C"], "banker": ["KS", "7D"]})
    ev[9 + change_at:9 + change_at] = list(changes)
    stakes = {(s, sp): a for s, sp, a in W}
    for ch in changes:
        key = (ch["seat"], ch["spot"])
        stakes[key] = ch["amount"] + (stakes.get(key, 0) if ch["type"] == "wager" else 0)
    for (s, sp), a in stakes.items():
        if a:
            outcome = "win" if sp == "banker" else "lose"
            ev.append({"type": "settle", "seat": s, "spot": sp, "outcome": outcome,
                       "amount": a * 0.95 if outcome == "win" else a})
    return header("au-nsw", dealing_method="A") | {"coups": [c]}


def take_down(seat, spot):
    return {"type": "wager_adjust", "seat": seat, "spot": spot, "amount": 0, "reason": "withdrawn"}


def test_nsw_a_wager_is_withdrawn_only_before_any_card_is_exposed():
    """NSW 13.2: the option to take a wager down after a reconstruction ends once a card is exposed."""
    passes = {"player": [(1, True)], "banker": [(2, True)]}
    assert verdicts(withdrawn(0, take_down(2, "banker"), passes=passes), "au-nsw") == [(1, "info")]
    after_turning = withdrawn(2, take_down(2, "banker"), passes=passes)  # after the Player's Hand came back
    assert verdicts(after_turning, "au-nsw") == [(1, "error"), (1, "info")]
    face_up = withdrawn(0, take_down(2, "banker"), face="up")
    assert verdicts(face_up, "au-nsw") == [(1, "error"), (1, "info")]
    msg = [f.message for f in check(face_up, "au-nsw") if f.severity == "error" and f.rule == "NSW-IRR-MISDEAL"]
    assert msg == ["seat 2 withdrew its banker wager after the reconstruction, but 4H was exposed: a wager may be "
                   "withdrawn only before any card is exposed and before play resumes"]


def test_nsw_a_withdrawn_wager_is_not_replaced_and_no_other_wager_changes():
    """NSW 13.2: once taken down a wager is not put back, and the wagers left are neither raised nor
    lowered. The misdeal rule reports it, once: not the late-wager rule as well."""
    replaced = withdrawn(0, take_down(1, "player"), {"type": "wager", "seat": 1, "spot": "player", "amount": 100})
    raised = withdrawn(0, take_down(1, "player"), {"type": "wager_adjust", "seat": 2, "spot": "banker",
                                                    "amount": 200, "reason": "other"})
    for d in (replaced, raised):
        found = [(f.rule, f.severity) for f in check(d, "au-nsw")]
        assert sorted(found) == [("NSW-IRR-MISDEAL", "error"), ("NSW-IRR-MISDEAL", "info")]
    # NZ gives no option to withdraw: a wager placed again after the first card is late, and only that
    assert breaches(replaced | {"table": replaced["table"] | {"jurisdiction": "nz"}}, "nz") == [
        (1, "BAC-WAGER-LATE")]


@pytest.mark.parametrize("ruleset", ["au-nsw", "nz"])
@pytest.mark.parametrize("order", [("player", "banker", "player", "player"), ("banker", "player", "banker", "player"),
                                   ("player", "player", "banker", "banker")])
def test_a_misdeal_voided_is_one_info_finding_not_also_a_dealing_breach(ruleset, order):
    """NSW 13.3, NZ 12.6: an initial deal out of sequence (or with three cards to a hand) that is not
    reconstructed voids the coup. Handled so, it is the misdeal rule's info finding and nothing else;
    played on, it is the dealing rule's breach and the misdeal rule says nothing."""
    c = procedure_coup(1, ["4H", "2C"], ["KS", "7D"], W, method="C", face="up", settle=False)
    ev = c["events"]
    for k, to in zip(range(4, 8), order):
        ev[k]["to"] = to
    played_on = doc([c]) | {"table": doc([c])["table"] | {"jurisdiction": ruleset}}
    rule = {"au-nsw": "NSW-IRR-MISDEAL", "nz": "NZ-IRR-MISDEAL"}[ruleset]
    dealing = {r for _, r in breaches(played_on, ruleset)} & {"BAC-DEAL-ORDER", "BAC-DEAL-EXTRA"}
    assert dealing == {"BAC-DEAL-EXTRA" if "banker" not in order[2:] else "BAC-DEAL-ORDER"}
    assert verdicts(played_on, ruleset) == []
    c["events"] = ev[:8] + [{"type": "void", "reason": "misdeal"}] + [
        {"type": "settle", "seat": s, "spot": sp, "outcome": "push", "amount": 0} for s, sp, _ in W]
    found = [(f.rule, f.severity) for f in check(played_on, ruleset)]
    assert found == [(rule, "info")]


def test_a_hand_misdealt_its_additional_cards_nsw_may_void_nz_may_not():
    """NSW 13.3 voids a coup whose misdealt hand cannot be reconstructed; NZ 12.6 voids only an initial
    deal out of sequence (later cards are reconstructed, 12.5, or set aside, 12.2)."""
    c = procedure_coup(1, ["4H", "AC", "5S"], ["KS", "3D"], W, method="C", face="up", settle=False)
    ev = c["events"]
    at = next(i for i, e in enumerate(ev) if e.get("card") == "5S") + 1
    c["events"] = ev[:at] + [card("6S", "player", "up"), {"type": "void", "reason": "misdeal"}] + [
        {"type": "settle", "seat": s, "spot": sp, "outcome": "push", "amount": 0} for s, sp, _ in W]
    for ruleset, severity in (("au-nsw", "info"), ("nz", "error")):
        d = doc([c]) | {"table": doc([c])["table"] | {"jurisdiction": ruleset}}
        assert [(f.category, f.severity) for f in check(d, ruleset)] == [("irregularity.mishandled", severity)]


def test_insufficient_cards_void_and_nz_requires_new_cards():
    short = procedure_coup(1, ["4H", "2C"], ["KS", "3D"], W, settle=False, method="C", face="up")
    short["events"] = [e for e in short["events"] if e["type"] != "result"]  # Banker 3 had to draw: no card left
    short["events"] += [{"type": "void", "reason": "insufficient_cards"}] + [
        {"type": "settle", "seat": s, "spot": sp, "outcome": "push", "amount": 0} for s, sp, _ in W]
    same_shoe = doc([short, procedure_coup(2, ["6H", "AC"], ["QS", "8D"], W, method="C", face="up")])
    assert verdicts(same_shoe, "au-nsw") == [(1, "info")]
    assert verdicts(same_shoe, "nz") == [(1, "info"), (2, "error")]
    new_shoe = header("au-nsw") | {"shoes": [{"id": "S1", "decks": 8}, {"id": "S2", "decks": 8}],
                                   "coups": [short, procedure_coup(2, ["6H", "AC"], ["QS", "8D"], W, method="C",
                                                                   face="up", shoe="S2")]}
    assert verdicts(new_shoe, "nz") == [(1, "info")]


def excess_banker_card(to, face):
    """Player 6 and Banker 7 both stand, yet the Banker is dealt 5S; the card is then moved ``to``."""
    c = procedure_coup(1, ["4H", "2C"], ["KS", "7D"], W, face=face)
    ev = c["events"]
    at = next(i for i, e in enumerate(ev) if e["type"] == "result")
    ev[at:at] = [card("5S", "banker", face), {"type": "card_move", "card": "5S", "to": to}]
    return header("nz") | {"coups": [c]}


def test_nz_card_drawn_in_excess_next_round_unless_exposed():
    assert verdicts(excess_banker_card("next_coup", "down"), "nz") == [(1, "info")]
    assert verdicts(excess_banker_card("discard", "up"), "nz") == [(1, "info")]
    assert verdicts(excess_banker_card("discard", "down"), "nz") == [(1, "error")]
    assert verdicts(excess_banker_card("next_coup", "up"), "nz") == [(1, "error")]
