"""Waivers: approved deviations are counted apart and do not fail the run; expired or malformed ones
waive nothing; unused ones are reported."""

from __future__ import annotations

import json

from reporting import STAMP, run, sample_into

WAIVERS = """\
waivers:
  - id: W-LATE
    rule: BAC-WAGER-LATE
    transcript: night-shift.json
    coups: [6]
    justification: the pit boss accepted the wager before the call was heard
    approved_by: M. Okafor, compliance officer
    expires: 2027-06-30
  - id: W-DRAW
    category: third-card.banker.illegal
    justification: dealer training shoe
    approved_by: M. Okafor
    expires: 2026-01-31
  - id: W-NOWHERE
    rule: BAC-SETTLE-AMOUNT
    coup: 99
    justification: promotion P-17 pays even money on Banker
    approved_by: M. Okafor
    expires: 2027-06-30
  - id: W-NOBODY
    rule: BAC-SETTLE-AMOUNT
    justification: no one approved this
    expires: 2027-06-30
"""


def check(tmp_path, monkeypatch, waivers: str, *more):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "waivers.yaml").write_text(waivers)
    r = run("check", "night-shift.json", "--waivers", "waivers.yaml", "-f", "json", "--timestamp", STAMP, *more)
    return r, json.loads(r.stdout)


def test_a_valid_waiver_waives_its_finding(tmp_path, monkeypatch):
    _, doc = check(tmp_path, monkeypatch, WAIVERS)
    assert [f["rule"] for f in doc["waived"]] == ["BAC-WAGER-LATE"]
    waiver = doc["waived"][0]["waiver"]
    assert waiver["id"] == "W-LATE" and waiver["approved_by"] == "M. Okafor, compliance officer"
    assert "BAC-WAGER-LATE" not in [f["rule"] for f in doc["findings"]]
    assert doc["counts"]["waived"] == 1 and doc["counts"]["findings"] == 5


def test_an_expired_waiver_waives_nothing(tmp_path, monkeypatch):
    _, doc = check(tmp_path, monkeypatch, WAIVERS)
    assert [f["coup"] for f in doc["findings"] if f["category"] == "third-card.banker.illegal"] == [3, 5]
    assert {"id": "W-DRAW", "line": 9, "reason": "expired on 2026-01-31"} in doc["waivers"]["not_applied"]


def test_a_waiver_is_judged_on_the_run_date(tmp_path, monkeypatch):
    _, doc = check(tmp_path, monkeypatch, WAIVERS.replace("expires: 2026-01-31", "expires: 2026-11-29"))
    assert sorted(f["coup"] for f in doc["waived"]) == [3, 5, 6]  # the last day still counts


def test_a_malformed_waiver_waives_nothing_and_says_why(tmp_path, monkeypatch):
    _, doc = check(tmp_path, monkeypatch, WAIVERS)
    nobody = next(w for w in doc["waivers"]["not_applied"] if w["id"] == "W-NOBODY")
    assert nobody["line"] == 20 and "approved_by" in nobody["reason"]
    assert any(f["rule"] == "BAC-SETTLE-AMOUNT" for f in doc["findings"])


def test_unused_waivers_are_reported(tmp_path, monkeypatch):
    r, doc = check(tmp_path, monkeypatch, WAIVERS)
    assert doc["waivers"]["unused"] == [{"id": "W-NOWHERE", "line": 14, "reason": "matched no finding"}]
    assert "waivers.yaml:14: waiver W-NOWHERE matched no finding" in r.stderr


def test_waived_findings_do_not_fail_the_run(tmp_path, monkeypatch):
    every = "waivers:\n" + "".join(
        f"  - {{category: {c}, justification: training table, approved_by: M. Okafor, expires: 2030-01-01}}\n"
        for c in ("third-card.banker.illegal", "third-card.banker.missing", "third-card.player.missing",
                  "settlement.wrong-amount", "wager.late"))
    r, doc = check(tmp_path, monkeypatch, every)
    assert doc["findings"] == [] and doc["counts"]["waived"] == 6
    assert r.exit_code == 0 and doc["exit_code"] == 0
    text = run("check", "night-shift.json", "--waivers", "waivers.yaml", "--timestamp", STAMP)
    assert text.exit_code == 0
    assert text.stdout.splitlines()[-1] == "checked 1 transcript, 6 coups, 0 findings; 6 waived"


def test_a_category_waives_every_category_under_it_as_select_names_them(tmp_path, monkeypatch):
    """`category: third-card` is third-card and everything under it, as `--select third-card` is; a prefix that
    stops inside a word (`third`) names no category and waives nothing."""
    waivers = ("- {id: W-COUP-4, category: third-card, coup: 4, justification: j, approved_by: a, "
               "expires: 2030-01-01}\n"
               "- {id: W-BANKER, category: third-card.banker, justification: j, approved_by: a, expires: 2030-01-01}\n"
               "- {id: W-WORD, category: third, justification: j, approved_by: a, expires: 2030-01-01}\n")
    _, doc = check(tmp_path, monkeypatch, waivers)
    assert sorted((f["category"], f["coup"], f["waiver"]["id"]) for f in doc["waived"]) == [
        ("third-card.banker.illegal", 3, "W-BANKER"), ("third-card.banker.illegal", 5, "W-BANKER"),
        ("third-card.banker.missing", 4, "W-COUP-4"), ("third-card.player.missing", 4, "W-COUP-4")]
    assert {w["id"]: w["reason"] for w in doc["waivers"]["not_applied"]} == {
        "W-WORD": "malformed: unknown category 'third'"}
    assert sorted(f["category"] for f in doc["findings"]) == ["settlement.wrong-amount", "wager.late"]


def test_waiver_scope_by_transcript_glob_and_coup(tmp_path, monkeypatch):
    scoped = ("- {rule: BAC-DRAW-BANKER-ILLEGAL, transcript: 'other/*.json', justification: j, approved_by: a, "
              "expires: 2030-01-01}\n"
              "- {rule: BAC-DRAW-BANKER-ILLEGAL, transcript: '*.json', coups: [5], justification: j, approved_by: a, "
              "expires: 2030-01-01}\n")
    _, doc = check(tmp_path, monkeypatch, scoped)
    assert [(f["rule"], f["coup"]) for f in doc["waived"]] == [("BAC-DRAW-BANKER-ILLEGAL", 5)]
    assert [w["id"] for w in doc["waivers"]["unused"]] == ["#1"]


def test_a_waivers_file_that_is_not_yaml_stops_the_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "w.yaml").write_text("waivers: [unclosed\n")
    r = run("check", "night-shift.json", "--waivers", "w.yaml")
    assert r.exit_code == 2 and "w.yaml" in r.stderr
    assert run("check", "night-shift.json", "--waivers", "absent.yaml").exit_code == 2


def test_a_waiver_naming_a_rule_no_ruleset_has_is_an_error_not_an_unused_waiver(tmp_path, monkeypatch):
    """A typo in a rule id must not pass for a waiver that merely found nothing to waive."""
    typo = WAIVERS.replace("rule: BAC-WAGER-LATE", "rule: BAC-WAGER-LAET")
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "waivers.yaml").write_text(typo)
    r = run("check", "night-shift.json", "--waivers", "waivers.yaml", "--timestamp", STAMP)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.splitlines() == ["baccarat-audit: waivers.yaml:3:5: waiver W-LATE names the rule BAC-WAGER-LAET, "
                                     "which no ruleset has; did you mean BAC-WAGER-LATE?"]


def test_a_waiver_for_another_jurisdictions_rule_or_a_house_rule_is_no_error(tmp_path, monkeypatch):
    house = "id: house\ntitle: House\nversion: '1'\nextends: us-nj\nrules:\n" \
            "  - {id: HOUSE-LATE, title: Late wagers, check: wager.late, citation: {source: njac, at: ['3.7(b)']}}\n"
    (tmp_path / "house-late.yaml").write_text(house)  # a name of its own: -j keeps a checker a ruleset
    other = WAIVERS.replace("rule: BAC-SETTLE-AMOUNT\n    coup: 99", "rule: NSW-A-RECIPIENT\n    coup: 99")
    other = other.replace("rule: BAC-WAGER-LATE", "rule: HOUSE-LATE")
    r, doc = check(tmp_path, monkeypatch, other, "--ruleset", "house-late.yaml")
    assert r.exit_code == 1
    assert {w["id"] for w in doc["waivers"]["unused"]} == {"W-NOWHERE"}  # an au-nsw rule, used by no transcript here
    assert [f["rule"] for f in doc["waived"]] == ["HOUSE-LATE"]
