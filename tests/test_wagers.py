"""Wagers: when, by whom and how much; the table differential and how wagers are cut to meet it."""

from __future__ import annotations

from decimal import Decimal

from builders import by_rule, check, coup, header
from hypothesis import given, settings
from hypothesis import strategies as st
from procedure import procedure_coup

P, B = ["4H", "2C"], ["KS", "7D"]  # Player 6, Banker 7: no third cards


def nsw(coups, **table):
    return header("au-nsw", **table) | {"coups": coups}


def dealer_only(n, wagers, **kw):
    return procedure_coup(n, P, B, wagers, method="C", face="up", **kw)


def cut(seat, spot, amount, reason="table_differential"):
    return {"type": "wager_adjust", "seat": seat, "spot": spot, "amount": amount, "reason": reason}


def found(d, rule):
    return [(f.coup, f.severity) for f in by_rule(check(d)).get(rule, [])]


BIG = [(1, "banker", 3000), (2, "banker", 2000), (3, "player", 200)]  # 4,800 apart; the differential is 4,000


def test_differential_over_the_limit_at_the_first_card():
    d = nsw([dealer_only(1, [(1, "banker", 4200), (2, "player", 200)]), dealer_only(2, BIG)])
    assert found(d, "BAC-TABLE-DIFFERENTIAL") == [(2, "error")]


def test_pro_rata_reduction_right():
    right = dealer_only(1, BIG, before_calls=[cut(1, "banker", 2520), cut(2, "banker", 1680)])
    d = nsw([right])
    assert found(d, "NSW-DIFFERENTIAL-REDUCTION") == [] and found(d, "BAC-TABLE-DIFFERENTIAL") == []


def test_pro_rata_reduction_wrong_one_wager_cut_for_all():
    wrong = dealer_only(1, BIG, before_calls=[cut(1, "banker", 2200)])
    d = nsw([wrong])
    assert found(d, "NSW-DIFFERENTIAL-REDUCTION") == [(1, "warning"), (1, "warning")]
    assert found(d, "BAC-TABLE-DIFFERENTIAL") == []  # the cut did bring it within the limit


def test_reduction_on_the_side_that_did_not_exceed():
    d = nsw([dealer_only(1, [(1, "banker", 4500), (2, "player", 400)], before_calls=[cut(2, "player", 0)])])
    assert found(d, "NSW-DIFFERENTIAL-REDUCTION") == [(1, "warning")]
    assert found(d, "BAC-TABLE-DIFFERENTIAL") == [(1, "error")]


def test_reduction_that_was_not_needed():
    d = nsw([dealer_only(1, [(1, "banker", 500), (2, "player", 400)], before_calls=[cut(1, "banker", 400)])])
    assert found(d, "NSW-DIFFERENTIAL-REDUCTION") == [(1, "warning")]


def test_reduction_rounded_to_the_house_unit():
    # 3 wagers of 1,000 on the Banker, 100 on the Player, differential 2,000: each becomes 700
    wagers = [(1, "banker", 1000), (2, "banker", 1000), (4, "banker", 1000), (3, "player", 100)]
    target = [cut(1, "banker", 700), cut(2, "banker", 700), cut(4, "banker", 700)]
    d = nsw([dealer_only(1, wagers, before_calls=target)], limits={"table_differential": 2000})
    assert found(d, "NSW-DIFFERENTIAL-REDUCTION") == []


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(min_value=5, max_value=300), min_size=1, max_size=4), st.integers(min_value=1, max_value=40))
def test_any_exact_pro_rata_cut_down_to_the_unit_is_right(tens, player_tens):
    wagers = [(i + 1, "banker", Decimal(t * 10)) for i, t in enumerate(tens)] + [(7, "player", Decimal(player_tens * 10))]
    banker = sum(a for _, s, a in wagers if s == "banker")
    limit = Decimal(10)
    total_player = Decimal(player_tens * 10)
    if banker - total_player <= limit:
        return
    # each wager's exact share of the Player's total plus the differential, down to the unit (never a share
    # rounded to 28 digits first: 1,360 x 20/1,360 is 20, not 19.999...)
    cuts = [cut(s, "banker", a * (total_player + limit) // banker) for s, sp, a in wagers if sp == "banker"]
    d = nsw([dealer_only(1, wagers, before_calls=cuts)], limits={"table_differential": limit})
    assert found(d, "NSW-DIFFERENTIAL-REDUCTION") == []
    assert found(d, "BAC-TABLE-DIFFERENTIAL") == []


def test_nsw_unrejected_wager_outside_limits_is_a_warning_not_a_breach():
    d = nsw([dealer_only(1, [(1, "player", 10), (2, "banker", 5001)])])
    assert found(d, "BAC-WAGER-LIMITS") == [(1, "warning"), (1, "warning")]
    rejected = dealer_only(1, [(1, "player", 6000), (2, "banker", 5000)], before_calls=[cut(1, "player", 5000, "limit")])
    assert found(nsw([rejected]), "BAC-WAGER-LIMITS") == []


def test_no_wager_in_a_no_bet_coup():
    d = nsw([procedure_coup(1, P, B, [(1, "player", 100)], method="C", face="up", no_bet=True)])
    assert found(d, "NSW-WAGER-NO-BET-COUP") == [(1, "error")]


def test_indiana_standing_patron_may_not_wager_but_nsw_standing_patron_may():
    for rs, expect in (("us-in", 1), ("au-nsw", 0)):
        c = procedure_coup(1, P, B, [(1, "player", 100)], method="C" if rs == "au-nsw" else None, face="up")
        c["events"].insert(0, {"type": "wager", "patron": "P-STAND", "spot": "banker", "amount": 100})
        c["events"].append({"type": "settle", "patron": "P-STAND", "spot": "banker", "outcome": "win", "amount": 95})
        findings = [f for f in check(header(rs) | {"coups": [c]}) if f.category == "wager.not-eligible"]
        assert len(findings) == expect, rs


def test_late_wager_after_no_more_bets():
    c = procedure_coup(1, P, B, [(1, "player", 100)], method="C", face="up")
    c["events"].insert(2, {"type": "wager", "seat": 2, "spot": "tie", "amount": 20})
    c["events"].append({"type": "settle", "seat": 2, "spot": "tie", "outcome": "lose", "amount": 20})
    c["seated"]["2"] = "P-2"
    assert found(nsw([c]), "BAC-WAGER-LATE") == [(1, "error")]


# ------------------------------------------------------------------ taken down after "no more bets" (us-pa)


def _pa_coup(number, *, after_call=(), before_call=(), after_void=None):
    """Player 6 against Banker 7; ``after_call``/``before_call``: events just after/before "no more bets";
    ``after_void``: the coup declared void after the deal, these events after the void (every wager returned)."""
    c = coup(number, P, B, [(1, "player", 100), (2, "banker", 200)])
    events = c["events"]
    at = next(i for i, e in enumerate(events) if e.get("call") == "no_more_bets")
    events[at + 1:at + 1] = list(after_call)
    events[at:at] = list(before_call)
    if after_void is not None:
        events[:] = [e for e in events if e["type"] not in ("result", "settle")]
        events += [{"type": "void", "reason": "supervisor"}, *after_void]
        events += [{"type": "settle", "seat": s, "spot": sp, "outcome": "push", "amount": 0}
                   for s, sp in ((1, "player"), (2, "banker"))]
    return c


def _pa(*coups):
    return header("us-pa", game="mini_baccarat", dealing_method="face_up") | {"coups": list(coups)}


def test_a_wager_withdrawn_after_no_more_bets_breaks_the_pennsylvania_wager_rule():
    taken = _pa(_pa_coup(1, after_call=[cut(2, "banker", 0, "withdrawn")]))
    [breach] = by_rule(check(taken))["PA-WAGER-WITHDRAWN"]
    assert breach.message == 'seat 2 banker wager of 200 withdrawn after "no more bets"'
    assert breach.citation == "58 Pa. Code § 627a.7, 627a.8(b)"


def test_a_panda_8_wager_withdrawn_after_the_first_card_is_an_improper_reduction_not_a_late_wager():
    """A wager taken down is no wager placed or increased (wager.late): Pennsylvania files it as the other
    rulesets file a wager reduced, under wager.improper-reduction."""
    c = coup(1, P, B, [(1, "player", 100), (1, "panda_8", 25)])
    events = c["events"]
    first = next(i for i, e in enumerate(events) if e["type"] == "card")
    events.insert(first + 1, cut(1, "panda_8", 0, "withdrawn"))
    events[:] = [e for e in events if not (e["type"] == "settle" and e["spot"] == "panda_8")]
    findings = check(header("us-pa", game="ez_baccarat", dealing_method="face_up") | {"version": "1.1", "coups": [c]})
    taken = [(f.rule, f.category) for f in findings if "withdrawn" in f.message]
    assert taken == [("PA-WAGER-WITHDRAWN", "wager.improper-reduction")]
    assert not [f for f in findings if f.category == "wager.late"]


def test_a_wager_taken_down_before_the_call_or_cut_for_the_differential_or_after_a_void_is_no_breach():
    before = _pa_coup(1, before_call=[cut(2, "banker", 150, "withdrawn")])
    differential = _pa_coup(2, after_call=[cut(2, "banker", 150)])
    returned = _pa_coup(3, after_void=[cut(2, "banker", 0, "withdrawn")])
    late = _pa_coup(4, after_call=[cut(2, "banker", 150, "other")])
    assert found(_pa(before, differential, returned, late), "PA-WAGER-WITHDRAWN") == [(4, "error")]


def test_the_other_rulesets_judge_no_wager_taken_down():
    """Only where the rules forbid it: New Jersey's ruleset declares no such rule."""
    taken = header("us-nj") | {"coups": [_pa_coup(1, after_call=[cut(2, "banker", 0, "withdrawn")])]}
    assert not [f for f in check(taken) if f.category == "wager.late"]
