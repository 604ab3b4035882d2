"""`rules list`, `rules show`, `rules kinds`, `rulesets list`: what an auditor reads about the rules."""

from __future__ import annotations

import json

from test_rule_tests import LATE_EVENT, case, coup, transcript
from typer.testing import CliRunner

from compliance import registry
from compliance.checks import REGISTRY
from compliance.cli import app
from compliance.ruleset.loader import load_ruleset


def run(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result.output


def test_rules_list_names_every_rule_of_every_jurisdiction_with_its_citation():
    out = run("rules", "list")
    for rid in ("us-nj", "us-in", "au-nsw", "nz"):
        rs = load_ruleset(rid)
        assert f"{rs.id} — {rs.title}" in out
        for r in rs.rules:
            assert r.id in out and r.citation_text in out


def test_rules_list_json_gives_parameters_with_their_provenance():
    rows = json.loads(run("rules", "list", "--ruleset", "us-nj", "--format", "json"))
    calls = next(r for r in rows if r["id"] == "BAC-CALLS")
    assert calls["category"] == "procedure.call-missing" and calls["citation_text"] == "N.J.A.C. 13:69F-3.7(b)"
    assert calls["parameters"] == [{"name": "calls", "value": ["no_more_bets", "cards"], "provenance": "regulation",
                                    "note": None, "set_by": None},
                                   {"name": "in_no_bet_coup", "value": False, "provenance": "regulation",
                                    "note": None, "set_by": None}]
    assert {r["ruleset"] for r in rows} == {"us-nj"}
    shuffle = next(r for r in rows if r["id"] == "BAC-SHUFFLE")  # a test of whole shoes: its levels are the audit's
    assert {p["name"]: p["provenance"] for p in shuffle["parameters"]}["false_alarm"] == "audit"


def test_rules_show_explains_a_rule_in_every_jurisdiction():
    out = run("rules", "show", "BAC-CALLS", "--examples", "/nonexistent")
    assert out.startswith("BAC-CALLS — ")
    assert "category     procedure.call-missing" in out
    assert "us-nj: severity error; cites N.J.A.C. 13:69F-3.7(b)" in out
    assert "au-nsw: severity error; cites NSW Rules of Baccarat r 7.1" in out
    assert "calls = [no_more_bets]   [regulation]" in out
    assert "disabled in: nz" in out
    assert "Breaching example: none" in out


def test_rules_show_takes_a_compliant_and_a_breaching_coup_from_the_rule_tests(tmp_path):
    case(tmp_path, "late-wager", "fires: [{rule: BAC-WAGER-LATE, coup: 2}]\n")
    case(tmp_path, "clean", "silent: all\n", transcript(coup(1)))
    out = run("rules", "show", "BAC-WAGER-LATE", "--ruleset", "us-nj", "--examples", str(tmp_path))
    compliant = out.split("Compliant example (us-nj): coup 1 of ", 1)[1]
    assert compliant.startswith(str(tmp_path / "us-nj" / "clean.json")) or "clean.json" in compliant.splitlines()[0]
    breaching = out.split("Breaching example (us-nj): coup 2 of ", 1)[1]
    assert "late-wager.json" in breaching.splitlines()[0]
    assert f"    {LATE_EVENT:>3}  wager        seat=2 spot=player amount=50" in breaching
    assert f"reported at event {LATE_EVENT}: " in breaching


def test_rules_show_shows_house_parameters_and_who_set_them(tmp_path):
    (tmp_path / "base.yaml").write_text("""id: jurisdiction
title: j
version: '1'
extends: us-nj
rules:
  - id: J-CALLS
    title: Calls
    check: procedure.calls
    citation: {source: njac, at: ["3.7(b)"]}
    params:
      calls: {house: [no_more_bets, cards], note: the house chooses whether to call cards}
""", encoding="utf-8")
    (tmp_path / "house.yaml").write_text("id: house\ntitle: h\nversion: '1'\nextends: base.yaml\ncasino: C\n"
                                         "overrides:\n  J-CALLS:\n    params: {calls: [no_more_bets]}\n",
                                         encoding="utf-8")
    out = run("rules", "show", "J-CALLS", "--ruleset", str(tmp_path / "house.yaml"), "--examples", str(tmp_path))
    assert "calls = [no_more_bets]   [house — the house chooses whether to call cards (set by house)]" in out


def test_rules_show_unknown_rule_suggests_the_nearest():
    result = CliRunner().invoke(app, ["rules", "show", "BAC-CALL"])
    assert result.exit_code == 2 and "did you mean BAC-CALLS" in result.output


def test_rules_kinds_lists_every_check_kind_with_its_parameters():
    registry.load_checks()
    out = run("rules", "kinds")
    for name, kind in REGISTRY.items():
        assert f"{name}  [{kind.category}]" in out
        for param in kind.params.model_fields:
            assert f"param {param}: " in out


def test_rulesets_list_shows_jurisdictions_sources_and_versions():
    out = run("rulesets", "list")
    assert "us-nj  New Jersey" in out and "version 2026.11; jurisdiction, baccarat, extends punto-banco" in out
    assert "source njac: N.J.A.C. 13:69F-3.7" in out and "(text new-jersey-njac-13-69f-3-7.txt)" in out
    assert "punto-banco  Punto banco" in out and "abstract base" in out
    assert "us-in-pai-gow  Indiana" in out and "jurisdiction, pai gow poker;" in out
    rows = json.loads(run("rulesets", "list", "--format", "json"))
    assert {r["id"] for r in rows} >= {"punto-banco", "us-nj", "us-in", "au-nsw", "nz"}
    assert "coverage" not in {r["id"] for r in rows}


def test_ruleset_path_that_does_not_exist_is_one_message_exit_2(tmp_path):
    result = CliRunner().invoke(app, ["rules", "list", "--ruleset", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 2 and "no such ruleset file" in result.output


def test_citations_outside_the_bundled_texts_read_plainly_and_keep_their_provenance_in_the_details():
    """A citation is what a finding prints on every line: the regulation and its paragraph or subject, no
    "(outside the bundled text)"; where the paragraph comes from is in the rule's details."""
    from compliance.ruleset.loader import bundled_rulesets

    for rs in bundled_rulesets():
        for rule in rs.rules:
            assert "bundled" not in rule.citation_text and "(outside" not in rule.citation_text, (rs.id, rule.id)
    nj = next(rs for rs in bundled_rulesets() if rs.id == "us-nj")
    settle = next(r for r in nj.rules if r.id == "BAC-SETTLE-AMOUNT")
    assert settle.citation_text == "N.J.A.C. 13:69F-3, the rules on payout odds and vigorish"
    shown = run("rules", "show", "BAC-SETTLE-AMOUNT", "-r", "us-nj")
    assert "cites N.J.A.C. 13:69F-3, the rules on payout odds and vigorish" in shown
    assert "source: N.J.A.C. 13:69F-3, its rules cited by subject (their paragraphs are not bundled), not bundled" \
        in shown
    late = json.loads(run("rules", "list", "-r", "us-nj", "-f", "json"))
    by_id = {r["id"]: r for r in late}
    assert by_id["BAC-WAGER-LATE"]["citation_source"] == {
        "source": "njac", "bundled_text": "new-jersey-njac-13-69f-3-7.txt",
        "title": "N.J.A.C. 13:69F-3.7 Hands of player and banker; procedure for dealing initial two cards to each hand"}
    assert by_id["BAC-SETTLE-AMOUNT"]["citation_source"]["bundled_text"] is None


def test_rules_show_without_a_ruleset_takes_no_jurisdictions_examples_for_a_shared_rule():
    out = run("rules", "show", "BAC-SETTLE-AMOUNT")
    assert "Compliant example" not in out and "Breaching example" not in out
    assert out.splitlines()[-1] == ("Examples: each jurisdiction deals this rule's coups its own way; `baccarat-audit "
                                    "rules show BAC-SETTLE-AMOUNT -r ID` shows them, for ID one of: au-nsw, nz, "
                                    "us-in, us-nj, us-pa")
    assert "Compliant example (us-pa): coup " in run("rules", "show", "BAC-SETTLE-AMOUNT", "-r", "us-pa")


def test_rules_show_without_a_ruleset_takes_the_examples_of_the_ruleset_defining_the_rule():
    out = run("rules", "show", "NSW-A-RECIPIENT")
    assert "Compliant example (au-nsw): coup " in out and "Breaching example (au-nsw): coup " in out
