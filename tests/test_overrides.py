"""Rulesets extend each other: per-rule overrides of severity, enabled and parameters, without copying rules.

A casino's house ruleset extends its jurisdiction and sets only the parameters
the regulation leaves to the house; what it sets keeps its provenance.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from compliance.errors import UserError
from compliance.ruleset.lint import lint_file
from compliance.ruleset.loader import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "fixtures" / "rulesets" / "harbour-casino.yaml"


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def header(rid: str, extends: str) -> str:
    return f"id: {rid}\ntitle: {rid}\nversion: '1'\nextends: {extends}\n"


def rule(rs, rid):
    return next(r for r in rs.rules if r.id == rid)


def test_house_ruleset_keeps_every_rule_of_its_jurisdiction_unchanged():
    house = load_ruleset(str(HOUSE))
    nsw = load_ruleset("au-nsw")
    assert house.casino == "Harbour Casino"
    assert house.lineage == ["harbour-casino", "au-nsw", "punto-banco"]
    changed = {"NSW-DIFFERENTIAL-REDUCTION"}  # its house parameter `unit`, and nothing else
    assert [r.model_dump(exclude={"location"}) for r in house.rules if r.id not in changed] == \
           [r.model_dump(exclude={"location"}) for r in nsw.rules if r.id not in changed]
    for rid in changed:
        mine, theirs = rule(house, rid), rule(nsw, rid)
        assert mine.model_dump(exclude={"params", "house"}) == theirs.model_dump(exclude={"params", "house"})


def test_house_ruleset_sets_house_parameters_and_they_stay_house_parameters():
    house = load_ruleset(str(HOUSE))
    assert house.game.spots["tie"].odds == Decimal(9)
    assert house.game.spots["banker"].commission == Decimal("0.04")
    provenance = {h.path: h for h in house.game_house}
    tie = provenance["game.spots.tie.odds"]
    assert tie.default == Decimal(9) and tie.set_by == "harbour-casino" and "posted by the house" in tie.note
    assert provenance["game.spots.banker.commission"].set_by == "harbour-casino"
    reduction = rule(house, "NSW-DIFFERENTIAL-REDUCTION")
    assert reduction.params.unit == Decimal(5)
    (unit,) = reduction.house
    assert (unit.path, unit.set_by) == ("params.unit", "harbour-casino") and "(6.1)" in unit.note


def test_house_ruleset_lints_clean():
    assert not [d for d in lint_file(HOUSE) if d.severity != "info"]


def test_severity_override_changes_only_the_severity(tmp_path):
    p = write(tmp_path, "soft.yaml", header("soft-calls", "us-nj") + "overrides:\n  BAC-CALLS: {severity: warning}\n")
    soft, nj = load_ruleset(str(p)), load_ruleset("us-nj")
    assert rule(soft, "BAC-CALLS").severity == "warning"
    assert rule(soft, "BAC-CALLS").citation == rule(nj, "BAC-CALLS").citation
    assert rule(soft, "BAC-CALLS").params == rule(nj, "BAC-CALLS").params
    assert [r.id for r in soft.rules] == [r.id for r in nj.rules]


def test_disabled_rule_is_not_run_and_a_child_may_enable_it_again(tmp_path):
    off = write(tmp_path, "off.yaml", header("calls-off", "us-nj") + "overrides:\n  BAC-CALLS: {enabled: false}\n")
    on = write(tmp_path, "on.yaml", header("calls-on", "off.yaml") + "overrides:\n  BAC-CALLS: {enabled: true}\n")
    rs_off = load_ruleset(str(off))
    assert "BAC-CALLS" not in [r.id for r in rs_off.rules] and rs_off.disabled == ["BAC-CALLS"]
    rs_on = load_ruleset(str(on))
    assert rule(rs_on, "BAC-CALLS").citation_text == "N.J.A.C. 13:69F-3.7(b)"


def test_parameter_override_merges_over_the_inherited_parameters(tmp_path):
    p = write(tmp_path, "calls.yaml", header("nmb-only", "us-nj")
              + "overrides:\n  BAC-CALLS:\n    params: {calls: [no_more_bets]}\n")
    assert rule(load_ruleset(str(p)), "BAC-CALLS").params.calls == ["no_more_bets"]


def test_a_rule_parameter_left_to_the_house_keeps_its_note_when_a_house_ruleset_sets_it(tmp_path):
    write(tmp_path, "base.yaml", header("jurisdiction", "us-nj") + """rules:
  - id: J-CALLS
    title: Calls
    check: procedure.calls
    citation: {source: njac, at: ["3.7(b)"]}
    params:
      calls: {house: [no_more_bets, cards], note: "the house chooses whether to call cards"}
""")
    write(tmp_path, "house.yaml", header("house", "base.yaml") + "casino: C\n"
          + "overrides:\n  J-CALLS:\n    params: {calls: [no_more_bets]}\n")
    bound = rule(load_ruleset(str(tmp_path / "house.yaml")), "J-CALLS")
    assert bound.params.calls == ["no_more_bets"]
    (note,) = bound.house
    assert (note.path, note.default, note.set_by) == ("params.calls", ["no_more_bets"], "house")
    assert note.note == "the house chooses whether to call cards"
    assert not [d for d in lint_file(tmp_path / "house.yaml") if d.severity == "error"]


def test_override_of_an_undefined_rule_is_refused_with_its_place(tmp_path):
    p = write(tmp_path, "typo.yaml", header("typo", "us-nj") + "overrides:\n  BAC-CALL: {severity: info}\n")
    with pytest.raises(UserError) as e:
        load_ruleset(str(p))
    assert "unreachable override" in e.value.message and e.value.where.endswith(":6:3")


def test_redefining_an_inherited_rule_is_refused(tmp_path):
    p = write(tmp_path, "copy.yaml", header("copy", "us-nj") + """rules:
  - id: BAC-CALLS
    title: copied
    check: procedure.calls
    citation: {source: njac, at: ["3.7(b)"]}
""")
    with pytest.raises(UserError, match="change it under `overrides`"):
        load_ruleset(str(p))


def test_override_that_changes_nothing_is_noted(tmp_path):
    p = write(tmp_path, "same.yaml", header("same", "us-nj") + "overrides:\n  BAC-CALLS: {severity: error}\n")
    assert [d.code for d in lint_file(p) if d.code == "override-no-effect"] == ["override-no-effect"]


def test_a_house_payout_is_a_breach_of_the_jurisdiction_and_compliant_under_the_house_rules(tmp_path):
    """A tie paid 9 to 1 and a Banker win paid less 4%: wrong under au-nsw's defaults, right at Harbour Casino."""
    import json

    from compliance.engine import Checker

    def coup(n, wagers, cards, result, settles):
        events = [{"type": "wager", "seat": s, "spot": spot, "amount": a} for s, spot, a in wagers]
        events.append({"type": "announce", "call": "no_more_bets"})
        events += [{"type": "card", "card": c, "to": to} for c, to in zip(cards, ["player", "banker"] * 2)]
        events.append({"type": "result", **result})
        events += [{"type": "settle", "seat": s, "spot": spot, "outcome": o, "amount": a} for s, spot, o, a in settles]
        return {"coup": n, "shoe": "S1", "seated": {"1": "P-1", "2": "P-2"}, "events": events}

    doc = {"format": "baccarat-transcript", "version": 1,
           "table": {"id": "BAC-H1", "jurisdiction": "au-nsw", "game": "punto_banco", "seats": 7},
           "shoes": [{"id": "S1", "decks": 8}],
           "coups": [coup(1, [(1, "tie", 10), (2, "player", 100)], ["7H", "7D", "KS", "QC"],
                          {"player_points": 7, "banker_points": 7, "winner": "tie"},
                          [(1, "tie", "win", 90), (2, "player", "push", 0)]),
                     coup(2, [(1, "banker", 100)], ["2H", "9C", "KD", "KH"],
                          {"player_points": 2, "banker_points": 9, "winner": "banker"},
                          [(1, "banker", "win", 96)])]}
    path = tmp_path / "harbour.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    under_nsw = Checker().check_file(path).findings
    assert [(f.rule, f.coup) for f in under_nsw] == [("BAC-SETTLE-AMOUNT", 1), ("BAC-SETTLE-AMOUNT", 2)]
    assert Checker(ruleset=str(HOUSE)).check_file(path).findings == []


@pytest.mark.parametrize("extends", ["a" * 5000, "a" * 5000 + ".yaml"])
def test_an_extends_name_the_system_refuses_is_one_clear_error(tmp_path, extends):
    """A name too long for the file system (a mangled file) is no ruleset: an error at its line, never a traceback."""
    house = write(tmp_path, "house.yaml", header("house", extends) + "rules: []\n")
    with pytest.raises(UserError) as e:
        load_ruleset(house)
    assert "aaaa" in str(e.value) and ("no ruleset" in str(e.value) or "cannot be read" in str(e.value))
