"""Pai gow poker rules of Indiana (68 IAC 10-9-4), checked on the shared engine.

Each test deals a round the way the regulation describes and breaks one
thing.  The hands are chosen by hand: the dealer holds a pair of kings and
queen-eight; box 1 beats both (pair of aces, king-jack), box 2 loses both
(pair of queens, jack-nine), box 3 wins one each (three sevens, ten-six).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from typer.testing import CliRunner

from compliance.cli import app
from compliance.cli.schema import schema_for
from compliance.engine import Checker
from compliance.errors import UserError
from compliance.games.pai_gow import GAME, models
from compliance.games.pai_gow.simulate import simulate, write
from compliance.reading.reader import _decode
from compliance.ruleset.loader import load_ruleset

PAI_GOW = load_ruleset("us-in-pai-gow")
ROOT = Path(__file__).resolve().parent.parent
HANDS = {
    "dealer": ("KS KH 9D 7C 3S", "QD 8H"),
    1: ("AS AH 9C 6D 4H", "KD JH"),
    2: ("QS QH 8C 5D 2H", "JD 9H"),
    3: ("7S 7H 7D 4C 2D", "TD 6H"),
}
STAKES = {1: 100, 2: 50, 3: 20}
BY_THE_RULES = {1: ("win", 95), 2: ("lose", 50), 3: ("push", 0)}


def header(**table) -> dict:
    t = {"id": "PG-T", "jurisdiction": "us-in-pai-gow", "game": "pai_gow_poker", "seats": 6,
         "limits": {"min_wager": 10, "max_wager": 1000}, **table}
    return {"format": "pai-gow-transcript", "version": 1, "table": t}


def deal_round(number=1, hands=HANDS, stakes=STAKES, settle=BY_THE_RULES, seated=None) -> dict:
    """A round dealt by the book: wagers, then seven cards a position, the hands set, the wagers settled."""
    events = [{"type": "wager", "box": b, "amount": a} for b, a in stakes.items()]
    events += [{"type": "deal", "position": p, "cards": (hi + " " + lo).split()} for p, (hi, lo) in hands.items()]
    events += [{"type": "set", "position": p, "high": hi.split(), "low": lo.split()} for p, (hi, lo) in hands.items()]
    events += [{"type": "settle", "box": b, "outcome": settle[b][0], "amount": settle[b][1]} for b in stakes if b in settle]
    seated = seated if seated is not None else {str(b): f"P-{b}" for b in stakes}
    return {"coup": number, "seated": seated, "events": events}


def index(r: dict, **match) -> int:
    return next(i for i, e in enumerate(r["events"]) if all(e.get(k) == v for k, v in match.items()))


def check(tmp_path, *rounds, ruleset=None, suffix=".json", **table):
    path = tmp_path / f"t{suffix}"
    write({**header(**table), "coups": list(rounds)}, path)
    return Checker(ruleset=ruleset).check_file(path).findings


def fired(findings) -> list[tuple[str, int | None, int | None]]:
    return [(f.rule, f.coup, f.event) for f in findings]


def test_a_round_by_the_rules_has_no_finding(tmp_path):
    assert check(tmp_path, deal_round()) == []


# ------------------------------------------------------------------ 4(a): before the first card, within limits


def test_wager_after_the_first_card_is_late(tmp_path):
    r = deal_round()
    r["events"].insert(4, {"type": "wager", "box": 1, "amount": 50})
    r["events"][index(r, type="settle", box=1)]["amount"] = 142.5
    assert fired(check(tmp_path, r)) == [("PG-WAGER-LATE", 1, 4)]


def test_wager_changed_before_the_first_card_is_fine(tmp_path):
    r = deal_round()
    r["events"].insert(1, {"type": "wager_adjust", "box": 1, "amount": 200, "reason": "other"})
    r["events"].insert(2, {"type": "wager_adjust", "box": 1, "amount": 100, "reason": "other"})
    assert check(tmp_path, r) == []


@pytest.mark.parametrize("amount,words", [(5, "below the table minimum of 10"), (1500, "above the table maximum of 1,000")])
def test_wager_outside_the_table_limits(tmp_path, amount, words):
    settle = {**BY_THE_RULES, 3: ("push", 0)}
    f = check(tmp_path, deal_round(stakes={**STAKES, 3: amount}, settle=settle))
    assert fired(f) == [("PG-WAGER-LIMITS", 1, 2)]
    assert words in f[0].message


def test_wager_in_a_box_the_layout_does_not_have(tmp_path):
    r = deal_round()
    r["events"].insert(0, {"type": "wager", "box": 7, "amount": 20, "patron": "P-7"})
    r["events"].append({"type": "settle", "box": 7, "outcome": "push", "amount": 0})
    assert fired(check(tmp_path, r)) == [("PG-WAGER-BOX", 1, 0)]


# ------------------------------------------------------------------ 4(c): no change after the first card but surrender


def test_wager_reduced_after_the_first_card(tmp_path):
    r = deal_round()
    r["events"].insert(5, {"type": "wager_adjust", "box": 1, "amount": 40, "reason": "withdrawn"})
    r["events"][index(r, type="settle", box=1)]["amount"] = 38
    f = check(tmp_path, r)
    assert fired(f) == [("PG-WAGER-UNCHANGED", 1, 5)]
    assert "reduced from 100 to 40 after the first card" in f[0].message


def _surrendered(keep=25):
    r = deal_round()
    r["events"] = [e for e in r["events"] if not (e["type"] == "settle" and e["box"] == 2)]
    r["events"].insert(index(r, type="set"), {"type": "surrender", "box": 2, "amount": keep})
    return r


def test_surrender_is_the_one_way_out(tmp_path):
    assert check(tmp_path, _surrendered()) == []


def test_surrender_keeps_the_house_share(tmp_path):
    assert fired(check(tmp_path, _surrendered(keep=50))) == [("PG-SETTLE-AMOUNT", 1, 7)]


def test_surrender_where_the_house_offers_none(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(f"id: casino-pg\ntitle: A casino's pai gow house rules\nversion: '1'\ncasino: Harbour\n"
                     f"extends: {ROOT / 'rulesets' / 'us-in-pai-gow.yaml'}\n"
                     "overrides:\n  PG-WAGER-UNCHANGED: {params: {surrender_offered: false}}\n")
    assert fired(check(tmp_path, _surrendered(), ruleset=str(house))) == [("PG-WAGER-UNCHANGED", 1, 7)]


# ------------------------------------------------------------------ 4(e): more than one box


def _two_boxes():
    r = deal_round(seated={"1": "P-1", "2": "P-2"})
    r["events"][index(r, type="wager", box=3)]["patron"] = "P-1"
    return r


def test_one_box_a_patron_unless_the_licensee_permits_more(tmp_path):
    f = check(tmp_path, _two_boxes())
    assert fired(f) == [("PG-MULTIPLE-BOXES", 1, 2)]
    assert "P-1" in f[0].message and "boxes (1, 3)" in f[0].message


def test_a_table_that_permits_two_boxes(tmp_path):
    assert check(tmp_path, _two_boxes(), boxes_per_patron=2) == []


# ------------------------------------------------------------------ 4(b): outcomes


def _settled(box, outcome, amount, hands=HANDS):
    return deal_round(hands=hands, settle={**BY_THE_RULES, box: (outcome, amount)})


@pytest.mark.parametrize("box,outcome,amount", [
    (1, "win", 100),   # (b)(1): even money less 5% is 95
    (1, "push", 0),
    (2, "push", 0),    # (b)(4): both hands lower loses
    (2, "win", 47.5),
    (3, "lose", 20),   # (b)(3): one hand each is a push
    (3, "win", 19),
])
def test_wrong_settlement(tmp_path, box, outcome, amount):
    f = check(tmp_path, _settled(box, outcome, amount))
    assert [x.rule for x in f] == ["PG-SETTLE-AMOUNT"]
    assert f"box {box} (P-{box}) wager" in f[0].message


def test_copy_hand_goes_to_the_dealer(tmp_path):  # (b)(2)
    copy_low = {**HANDS, 1: ("AS AH 9C 6D 4H", "QC 8S")}  # queen-eight against the dealer's queen-eight
    assert check(tmp_path, _settled(1, "push", 0, copy_low)) == []
    f = check(tmp_path, _settled(1, "win", 95, copy_low))
    assert fired(f) == [("PG-SETTLE-AMOUNT", 1, 11)]
    assert "queen-eight against queen-eight" in f[0].message


def test_commission_collected_apart(tmp_path):
    r = _settled(1, "win", 100)
    r["events"].append({"type": "commission", "box": 1, "amount": 5})
    assert check(tmp_path, r) == []
    r["events"][-1]["amount"] = 10
    assert fired(check(tmp_path, r)) == [("PG-SETTLE-AMOUNT", 1, 14)]


def test_commission_from_the_table_header(tmp_path):
    assert fired(check(tmp_path, deal_round(), commission=0.04)) == [("PG-SETTLE-AMOUNT", 1, 11)]
    assert check(tmp_path, _settled(1, "win", 96), commission=0.04) == []


def test_void_round_returns_every_wager(tmp_path):
    r = deal_round(settle={1: ("push", 0), 2: ("push", 0), 3: ("push", 0)})
    r["events"].insert(5, {"type": "void", "reason": "misdeal"})
    assert check(tmp_path, r) == []


def test_wager_never_settled_or_settled_twice(tmp_path):
    r = deal_round(settle={1: BY_THE_RULES[1], 3: BY_THE_RULES[3]})
    assert [(x.rule, x.coup) for x in check(tmp_path, r)] == [("PG-SETTLE-MISSING", 1)]
    r = deal_round()
    r["events"].append({"type": "settle", "box": 1, "outcome": "win", "amount": 95})
    assert fired(check(tmp_path, r)) == [("PG-SETTLE-MISSING", 1, 14)]


def test_a_wager_never_settled_is_worth_what_the_rulesets_payout_terms_owed_it(tmp_path):
    # box 1 wins both hands (95 owed, kept by the house); box 2 loses both (its 50 never collected)
    (won,) = check(tmp_path, deal_round(settle={2: BY_THE_RULES[2], 3: BY_THE_RULES[3]}))
    assert (won.money.expected, won.money.paid, won.money.favours, won.money.patron) == (95, 0, "house", "P-1")
    (lost,) = check(tmp_path, deal_round(settle={1: BY_THE_RULES[1], 3: BY_THE_RULES[3]}))
    assert (lost.money.expected, lost.money.paid, lost.money.favours) == (-50, 0, "patron")
    (cheaper,) = check(tmp_path, deal_round(settle={2: BY_THE_RULES[2], 3: BY_THE_RULES[3]}), commission=0.04)
    assert cheaper.money.expected == 96  # the table's commission, as the settlement rule takes it


def test_a_wager_never_settled_has_no_money_where_the_ruleset_settles_by_no_payout_terms(tmp_path):
    house = tmp_path / "house.yaml"  # a jurisdiction's own file: a casino's house ruleset may not disable a rule
    house.write_text(f"id: casino-pg\ntitle: No settlement amounts judged\nversion: '1'\n"
                     f"extends: {ROOT / 'rulesets' / 'us-in-pai-gow.yaml'}\n"
                     "overrides:\n  PG-SETTLE-AMOUNT: {enabled: false}\n")
    (found,) = check(tmp_path, deal_round(settle={2: BY_THE_RULES[2], 3: BY_THE_RULES[3]}), ruleset=str(house))
    assert found.rule == "PG-SETTLE-MISSING" and found.money is None


# ------------------------------------------------------------------ fouls


FOULED = {**HANDS, 3: ("7S 4C 2D TD 6H", "7H 7D")}  # a pair of sevens behind ten high


def test_a_fouled_hand_loses(tmp_path):
    f = check(tmp_path, _settled(3, "lose", 20, FOULED))
    assert [(x.rule, x.severity) for x in f] == [("PG-HANDS-FOUL", "info")]
    f = check(tmp_path, _settled(3, "push", 0, FOULED))
    assert [(x.rule, x.severity) for x in f] == [("PG-HANDS-FOUL", "info"), ("PG-SETTLE-AMOUNT", "error")]


def test_a_dealer_foul_is_an_error_and_no_settlement_is_judged(tmp_path):
    hands = {**HANDS, "dealer": ("KS 9D 7C 3S 8H", "QD KH")}
    f = check(tmp_path, deal_round(hands=hands))
    assert [(x.rule, x.severity, x.event) for x in f] == [("PG-HANDS-FOUL", "error", 7)]


# ------------------------------------------------------------------ the deck


def test_a_card_dealt_twice(tmp_path):
    hands = {**HANDS, 3: ("7S 7H 7D 4C 2D", "TD 3S")}  # the dealer's three of spades
    f = check(tmp_path, deal_round(hands=hands))
    assert fired(f) == [("PG-DECK-INTEGRITY", 1, 6)]
    assert "3S is dealt again" in f[0].message


def test_hands_set_from_cards_not_dealt_are_not_settled_by_them(tmp_path):
    r = deal_round()
    r["events"][index(r, type="set", position=2)]["low"] = ["JD", "JK"]
    r["events"][index(r, type="settle", box=2)].update(outcome="push", amount=0)
    f = check(tmp_path, r)
    assert fired(f) == [("PG-DECK-INTEGRITY", 1, 9)]
    assert "JK not dealt to it; 9H dealt to it but not in its hands" in f[0].message


def test_seven_cards_a_position(tmp_path):
    r = deal_round()
    r["events"][index(r, type="deal", position=3)]["cards"].append("5C")
    f = check(tmp_path, r)
    assert fired(f) == [("PG-DECK-INTEGRITY", 1, 6), ("PG-DECK-INTEGRITY", 1, 10)]
    assert "box 3 was dealt 8 cards; a pai gow hand has 7" in f[0].message
    assert "5C dealt to it but not in its hands" in f[1].message


# ------------------------------------------------------------------ simulated play


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32 - 1))
def test_simulated_play_checks_clean(tmp_path, seed):
    assert check(tmp_path, *simulate(PAI_GOW, 20, seed)["coups"]) == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32 - 1), st.data())
def test_any_settlement_changed_is_found(tmp_path, seed, data):
    doc = simulate(PAI_GOW, 5, seed)
    settles = [(r, i) for r in doc["coups"] for i, e in enumerate(r["events"]) if e["type"] == "settle"]
    r, i = data.draw(st.sampled_from(settles))
    e = r["events"][i]
    e["outcome"] = data.draw(st.sampled_from([o for o in ("win", "lose", "push") if o != e["outcome"]]))
    found = check(tmp_path, *doc["coups"])
    assert [(f.rule, f.coup, f.event) for f in found] == [("PG-SETTLE-AMOUNT", r["coup"], i)]


def test_a_long_simulated_jsonl_checks_clean_from_the_command_line(tmp_path):
    path = write(simulate(PAI_GOW, 500, 11), tmp_path / "night.jsonl")
    result = CliRunner().invoke(app, ["check", str(path), "--format", "json", "--no-progress"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["findings"] == []
    assert report["transcripts"][0]["game"] == "pai_gow_poker"
    assert report["transcripts"][0]["coups"] == 500


# ------------------------------------------------------------------ one engine, two games


def test_check_picks_the_game_from_the_transcript_and_reports_alike(tmp_path):
    pai_gow = write({**header(), "coups": [_settled(1, "push", 0)]}, tmp_path / "pg.json")
    baccarat = ROOT / "fixtures" / "samples" / "night-shift.json"
    result = CliRunner().invoke(app, ["check", str(pai_gow), str(baccarat), "--format", "json", "--no-progress"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    rules = {f["rule"] for f in report["findings"]}
    assert "PG-SETTLE-AMOUNT" in rules and any(r.startswith("BAC-") or r.startswith("NJ-") for r in rules)
    assert [t["game"] for t in report["transcripts"]] == ["pai_gow_poker", "punto_banco"]
    pg = next(f for f in report["findings"] if f["rule"] == "PG-SETTLE-AMOUNT")
    assert pg["citation"] == "68 IAC 10-9-4(b)(1), 4(b)(2), 4(b)(3), 4(b)(4)"
    assert pg["category"] == "settlement.wrong-amount" and pg["line"] and pg["fingerprint"]


def test_a_baseline_covers_pai_gow_findings(tmp_path):
    pai_gow = write({**header(), "coups": [_settled(1, "push", 0)]}, tmp_path / "pg.json")
    base = tmp_path / "baseline.json"
    runner = CliRunner()
    first = runner.invoke(app, ["check", str(pai_gow), "--write-baseline", str(base), "--no-progress"])
    assert first.exit_code == 0 and "1 finding" in first.output, first.output  # written: the run succeeded
    again = runner.invoke(app, ["check", str(pai_gow), "--baseline", str(base), "--no-progress"])
    assert again.exit_code == 0, again.output


def test_a_waiver_covers_a_pai_gow_finding(tmp_path):
    pai_gow = write({**header(), "coups": [_settled(1, "push", 0)]}, tmp_path / "pg.json")
    waivers = tmp_path / "waivers.yaml"
    waivers.write_text("waivers:\n  - id: W-PROMO\n    rule: PG-SETTLE-AMOUNT\n    coups: [1]\n"
                       "    justification: a promotion returns box 1's winning wager\n"
                       "    approved_by: M. Okafor\n    expires: 2099-12-31\n")
    result = CliRunner().invoke(app, ["check", str(pai_gow), "--waivers", str(waivers), "--format", "json",
                                      "--no-progress"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["findings"] == []


def test_a_baccarat_ruleset_does_not_check_pai_gow(tmp_path):
    path = write({**header(), "coups": [deal_round()]}, tmp_path / "pg.json")
    with pytest.raises(UserError, match="ruleset 'us-in' has rules for baccarat.*choose a pai gow poker ruleset"):
        Checker(ruleset="us-in").check_file(path)


def test_a_pai_gow_ruleset_does_not_check_baccarat():
    with pytest.raises(UserError, match="has rules for pai gow poker"):
        Checker(ruleset="us-in-pai-gow").check_file(ROOT / "fixtures" / "samples" / "night-shift.json")


def test_a_ruleset_cannot_mix_the_games(tmp_path):
    mixed = tmp_path / "mixed.yaml"
    mixed.write_text(f"id: mixed\ntitle: t\nversion: '1'\nextends: {ROOT / 'rulesets' / 'us-in-pai-gow.yaml'}\n"
                     "rules:\n  - {id: X-LATE, title: t, check: wager.late, citation: {source: iac, at: ['4(a)']}}\n")
    with pytest.raises(UserError, match="check kind 'wager.late' judges baccarat coups.*pai_gow_poker"):
        load_ruleset(str(mixed))
    tableau = tmp_path / "tableau.yaml"
    tableau.write_text("id: pg-tableau\ntitle: t\nversion: '1'\ngame_kind: pai_gow_poker\ngame: {payouts: {}}\n")
    with pytest.raises(UserError, match="`game`.*has no place in a pai_gow_poker ruleset"):
        load_ruleset(str(tableau))


def test_unknown_keys_are_errors_and_x_keys_are_ignored(tmp_path):
    r = deal_round()
    r["events"][0]["amout"] = 5
    r2 = deal_round(2)
    r2["events"][0]["x-chip-colour"] = "green"
    r2["x-camera"] = 4
    f = check(tmp_path, r, r2)
    assert [(x.rule, x.coup) for x in f] == [("PG-TRANSCRIPT", 1)]
    assert "amout" in f[0].message


def test_a_bad_card_code_names_the_joker(tmp_path):
    r = deal_round()
    r["events"][index(r, type="deal", position=1)]["cards"][0] = "1S"
    f = check(tmp_path, r)
    assert [(x.rule, x.coup) for x in f] == [("PG-TRANSCRIPT", 1)]
    assert "bad card code '1S': expected rank (A 2-9 T J Q K) then suit (S H D C), or JK for the joker" in f[0].message


# ------------------------------------------------------------------ the format: models, codec, schema


VALID = deal_round()
BROKEN = [
    {**VALID, "events": [{"type": "set", "position": 1, "high": ["AS", "KS", "QS", "JS"], "low": ["2C", "3C"]}]},
    {**VALID, "events": [{"type": "deal", "position": 0, "cards": ["AS"]}]},
    {**VALID, "events": [{"type": "deal", "position": "banker", "cards": ["AS"]}]},
    {**VALID, "events": [{"type": "deal", "position": 1, "cards": ["XX"]}]},
    {**VALID, "events": [{"type": "wager", "box": 1, "amount": -5}]},
    {**VALID, "events": [{"type": "wager", "box": 1}]},
    {**VALID, "events": [{"type": "settle", "box": 1, "outcome": "tie", "amount": 0}]},
    {**VALID, "events": [{"type": "card", "card": "AS", "to": "player"}]},
    {**VALID, "shoe": "S1"},
]


def test_pydantic_and_msgspec_read_rounds_alike():
    codec = GAME.codec
    raw = json.dumps(VALID).encode()
    assert _decode(raw, codec.coup_decoder).coup == models.Round.model_validate_json(raw).coup == 1
    for doc in BROKEN:
        raw = json.dumps(doc).encode()
        with pytest.raises(ValidationError):
            models.Round.model_validate_json(raw)
        with pytest.raises(msgspec.ValidationError):
            _decode(raw, codec.coup_decoder)


JSON_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.sampled_from([0.5, -1.5, 1e300]),
                        st.sampled_from(["", "JK", "AS", "dealer", "win", "7", "x-y", "10H"]),
                        st.lists(st.sampled_from(["AS", "JK", "2C", "XX"]), max_size=8), st.just({}))


def _paths(value, at=()):
    yield at
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, at + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, at + (i,))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_both_decoders_accept_and_refuse_the_same_broken_rounds(data):
    doc = json.loads(json.dumps(deal_round(hands={**HANDS, 1: ("9H 8D 7C 6S JK", "KD JH")})))
    path = data.draw(st.sampled_from([p for p in _paths(doc) if p]))
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    if data.draw(st.booleans()) and isinstance(parent, dict):
        del parent[path[-1]]
    elif isinstance(parent, dict) and data.draw(st.booleans()):
        parent[data.draw(st.sampled_from(["amout", "x-vendor", "type", "box"]))] = data.draw(JSON_VALUES)
    else:
        parent[path[-1]] = data.draw(JSON_VALUES)
    raw = json.dumps(doc).encode()
    try:
        models.Round.model_validate_json(raw)
        pydantic_ok = True
    except ValidationError:
        pydantic_ok = False
    try:
        _decode(raw, GAME.codec.coup_decoder)
        msgspec_ok = True
    except Exception:
        msgspec_ok = False
    assert pydantic_ok == msgspec_ok, raw


def test_the_json_schema_accepts_a_transcript_and_refuses_broken_rounds():
    schema = schema_for("pai-gow-transcript")
    doc = {**header(), "x-recorder": "cam-3", "coups": [{**VALID, "x-note": "fine"}]}
    jsonschema.validate(doc, schema)
    for broken in BROKEN:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**header(), "coups": [broken]}, schema)


def test_the_committed_schema_is_generated_from_the_models():
    committed = json.loads((ROOT / "docs" / "schema" / "pai-gow-transcript.schema.json").read_text())
    assert committed == schema_for("pai-gow-transcript"), "run `baccarat-audit schema pai-gow-transcript`"


def test_the_documented_example_checks_clean(tmp_path):
    text = (ROOT / "docs" / "pai-gow-transcript.md").read_text()
    example = json.loads(re.findall(r"```json\n(.*?)```", text, re.S)[-1])
    path = tmp_path / "example.json"
    path.write_text(json.dumps(example))
    assert Checker().check_file(path).findings == []


def test_amounts_are_exact_decimal_money(tmp_path):
    # 0.1 + 0.2 is not 0.3 in binary floating point; in money it is, and wins 0.285 less nothing
    r = deal_round(stakes={1: 0.1, 2: 50, 3: 20}, settle={**BY_THE_RULES, 1: ("win", 0.285)})
    r["events"].insert(1, {"type": "wager", "box": 1, "amount": 0.2})
    assert check(tmp_path, r, limits={}) == []
    r["events"][index(r, type="settle", box=1)]["amount"] = 0.28500001
    f = check(tmp_path, r, limits={})
    assert fired(f) == [("PG-SETTLE-AMOUNT", 1, 12)]
    assert "should be win 0.285" in f[0].message
