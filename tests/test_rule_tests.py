"""`baccarat-audit test-rules`: must fire, must not fire, known gaps, untested rules.

Each test writes a small rule-test directory (a transcript and its
``.expected.yaml``) and checks what the runner makes of it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compliance.cli import app
from compliance.errors import UserError
from compliance.ruleset.loader import bundled_rulesets, load_ruleset
from compliance.ruletests import read_sidecar, run_dir

ROOT = Path(__file__).resolve().parent.parent


def coup(number: int, late: bool = False) -> dict:
    """A New Jersey coup dealt face up by the book; with ``late``, seat 2 bets after "no more bets"."""
    events = [
        {"type": "wager", "seat": 1, "spot": "player", "amount": 100},
        {"type": "announce", "call": "no_more_bets"},
    ]
    if late:
        events.append({"type": "wager", "seat": 2, "spot": "player", "amount": 50})
    events += [
        {"type": "announce", "call": "cards"},
        {"type": "card", "card": "4H", "to": "player", "face": "up"},
        {"type": "card", "card": "KS", "to": "banker", "face": "up"},
        {"type": "card", "card": "TD", "to": "player", "face": "up"},
        {"type": "card", "card": "6C", "to": "banker", "face": "up"},
        {"type": "card", "card": "3S", "to": "player", "face": "up"},
        {"type": "result", "player_points": 7, "banker_points": 6, "winner": "player"},
        {"type": "settle", "seat": 1, "spot": "player", "outcome": "win", "amount": 100},
    ]
    if late:
        events.append({"type": "settle", "seat": 2, "spot": "player", "outcome": "win", "amount": 50})
    return {"coup": number, "shoe": "S1", "seated": {"1": "P-1", "2": "P-2"}, "events": events}


LATE_EVENT = 2  # index of the late wager in coup(…, late=True)


def transcript(*coups: dict) -> dict:
    return {"format": "baccarat-transcript", "version": 1,
            "table": {"id": "T1", "jurisdiction": "us-nj", "game": "punto_banco", "seats": 7},
            "shoes": [{"id": "S1", "decks": 8}], "coups": list(coups)}


def case(root: Path, name: str, sidecar: str, doc: dict | None = None, ruleset_dir: str = "us-nj") -> Path:
    d = root / ruleset_dir
    d.mkdir(parents=True, exist_ok=True)
    (d / f"{name}.json").write_text(json.dumps(doc or transcript(coup(1), coup(2, late=True))), encoding="utf-8")
    (d / f"{name}.expected.yaml").write_text(sidecar, encoding="utf-8")
    return d / f"{name}.json"


def only(suite):
    (c,) = suite.cases
    return c


def test_expected_finding_reported_passes(tmp_path):
    case(tmp_path, "late-wager", "description: a wager after no more bets\n"
                                 "fires:\n  - {rule: BAC-WAGER-LATE, coup: 2, event: 2}\n")
    c = only(run_dir(tmp_path))
    assert (c.status, c.failures) == ("pass", [])
    assert c.fired == {"BAC-WAGER-LATE"} and c.firing_coups == {"BAC-WAGER-LATE": 2}


def test_expected_finding_not_reported_fails_and_says_where_the_rule_did_fire(tmp_path):
    case(tmp_path, "late-wager", "fires:\n  - {rule: BAC-WAGER-LATE, coup: 1}\n  - {rule: BAC-RESULT}\n")
    c = only(run_dir(tmp_path))
    assert c.status == "fail"
    assert c.failures == [f"expected BAC-WAGER-LATE coup 1: not reported; reported at coup 2 event {LATE_EVENT}",
                          "expected BAC-RESULT: not reported"]


def test_rule_that_must_be_silent_but_fires_fails(tmp_path):
    case(tmp_path, "late-wager", "silent: [BAC-WAGER-LATE, BAC-RESULT]\n")
    c = only(run_dir(tmp_path))
    assert c.status == "fail"
    (msg,) = c.failures
    assert msg.startswith(f"BAC-WAGER-LATE must be silent, but reported coup 2 event {LATE_EVENT}: ")
    assert c.silenced == {"BAC-WAGER-LATE", "BAC-RESULT"}


def test_silent_all_proves_every_other_rule_of_the_ruleset_silent(tmp_path):
    case(tmp_path, "late-wager", "fires: [{rule: BAC-WAGER-LATE, coup: 2}]\nsilent: all\n")
    c = only(run_dir(tmp_path))
    assert c.status == "pass", c.failures
    nj = load_ruleset("us-nj")
    assert c.silenced == {r.id for r in nj.rules} - {"BAC-WAGER-LATE"}


def test_silent_all_fails_on_any_unexpected_finding(tmp_path):
    case(tmp_path, "late-wager", "silent: all\n")
    c = only(run_dir(tmp_path))
    assert c.status == "fail" and any(m.startswith("BAC-WAGER-LATE must be silent") for m in c.failures)


def test_known_gap_is_listed_never_failed_and_flagged_once_reported(tmp_path):
    case(tmp_path, "gaps", "fires: [{rule: BAC-WAGER-LATE, coup: 2}]\nknown_gaps:\n"
                           "  - {rule: BAC-RESULT, coup: 1, reason: not reported yet}\n"
                           "  - {rule: BAC-WAGER-LATE, coup: 2, reason: reported since}\n")
    suite = run_dir(tmp_path)
    c = only(suite)
    assert c.status == "pass"
    assert [(g.rule, g.reason, now) for g, now in c.gaps] == [
        ("BAC-RESULT", "not reported yet", False), ("BAC-WAGER-LATE", "reported since", True)]
    assert suite.summary()["known_gaps"] == 2
    assert "BAC-RESULT" not in c.fired and "BAC-RESULT" not in c.silenced


def test_rules_without_a_firing_or_non_firing_test_are_reported(tmp_path):
    case(tmp_path, "late-wager", "fires: [{rule: BAC-WAGER-LATE, coup: 2}]\nsilent: [BAC-RESULT]\n")
    suite = run_dir(tmp_path, [load_ruleset("us-nj")])
    lacks = {u.rule: u.lacks for u in suite.untested}
    assert lacks["BAC-WAGER-LATE"] == ["non-firing"]
    assert lacks["BAC-RESULT"] == ["firing"]
    assert lacks["BAC-DEAL-ORDER"] == ["firing", "non-firing"]
    assert {u.ruleset for u in suite.untested} == {"us-nj"}


def test_untested_rules_of_the_rulesets_the_tests_use_by_default(tmp_path):
    """A directory of New Jersey tests says what New Jersey lacks, not every other jurisdiction's rules; the
    bundled tests (test-rules without a directory) answer for every bundled jurisdiction."""
    case(tmp_path, "late-wager", "fires: [{rule: BAC-WAGER-LATE, coup: 2}]\n")
    assert {u.ruleset for u in run_dir(tmp_path).untested} == {"us-nj"}
    listed = CliRunner().invoke(app, ["test-rules", str(tmp_path), "--list-untested"])
    assert {line.split()[0] for line in listed.stdout.splitlines()} == {"us-nj"}, listed.output
    assert {u.ruleset for u in run_dir(tmp_path, bundled_rulesets()).untested} >= {"us-nj", "us-in", "au-nsw", "nz"}


def test_a_transcript_is_judged_by_the_ruleset_the_configuration_maps_its_jurisdiction_to(tmp_path, monkeypatch):
    """`table.jurisdiction: harbour-casino` is no bundled id: the configuration's `jurisdictions` maps it to the
    house ruleset, as for `check`; without the configuration the case is an error that says so."""
    (tmp_path / "house.yaml").write_text("id: harbour-casino\ntitle: Harbour casino house rules\nversion: '1'\n"
                                         "extends: us-nj\n")
    (tmp_path / ".baccarat-audit.yaml").write_text("jurisdictions: {harbour-casino: house.yaml}\n")
    doc = transcript(coup(1), coup(2, late=True))
    doc["table"]["jurisdiction"] = "harbour-casino"
    case(tmp_path / "tests", "late-wager", "fires: [{rule: BAC-WAGER-LATE, coup: 2}]\n", doc, "harbour")
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(app, ["test-rules", "tests", "--list-untested"])
    assert r.exit_code == 0, r.output
    assert {line.split()[0] for line in r.stdout.splitlines()} == {"harbour-casino"}
    assert "harbour-casino BAC-WAGER-LATE non-firing" in r.stdout.splitlines()
    (tmp_path / ".baccarat-audit.yaml").unlink()
    r = CliRunner().invoke(app, ["test-rules", "tests", "-f", "json"])
    assert r.exit_code == 1
    (error,) = json.loads(r.stdout)["cases"][0]["failures"]
    assert "'harbour-casino' is not a ruleset id" in error and "(`jurisdictions`)" in error


@pytest.mark.parametrize("sidecar,words,where", [
    ("fires: [{rule: BAC-WAGER-LATE, coop: 2}]\n", "unknown key(s) coop", ":1:9"),
    ("fire: [{rule: BAC-WAGER-LATE}]\n", "unknown key 'fire'", ":1:1"),
    ("silent: none\n", "list of rule ids or the word all", ":1:1"),
    ("known_gaps: [{rule: BAC-RESULT}]\n", "a known gap says why", ":1:14"),
    ("description: nothing expected\n", "the sidecar expects nothing", ":1:1"),
])
def test_sidecar_mistakes_name_their_place(tmp_path, sidecar, words, where):
    path = case(tmp_path, "x", sidecar).with_name("x.expected.yaml")
    with pytest.raises(UserError) as e:
        read_sidecar(path)
    assert words in e.value.message and e.value.where.endswith(where), str(e.value)
    c = only(run_dir(tmp_path))
    assert c.status == "error" and words in c.failures[0]


def test_a_rule_id_not_in_the_ruleset_is_an_error_not_a_silent_pass(tmp_path):
    case(tmp_path, "typo", "silent: [BAC-WAGER-LAET]\n")
    c = only(run_dir(tmp_path))
    assert (c.status, c.failures) == ("error", ["BAC-WAGER-LAET is not a rule of us-nj"])


def test_transcript_without_sidecar_and_sidecar_without_transcript(tmp_path):
    d = tmp_path / "us-nj"
    d.mkdir()
    (d / "lonely.json").write_text(json.dumps(transcript(coup(1))), encoding="utf-8")
    (d / "orphan.expected.yaml").write_text("silent: all\n", encoding="utf-8")
    suite = run_dir(tmp_path)
    assert only(suite).status == "error" and "no sidecar lonely.expected.yaml" in only(suite).failures[0]
    assert suite.orphans == [str(d / "orphan.expected.yaml")] and not suite.ok


def test_sidecar_may_name_a_house_ruleset_by_path(tmp_path):
    house = ROOT / "fixtures" / "rulesets" / "harbour-casino.yaml"
    doc = transcript(coup(1))
    doc["table"]["jurisdiction"] = "au-nsw"
    case(tmp_path, "house", f"ruleset: {house}\nfires: []\nsilent: [BAC-SETTLE-AMOUNT]\n", doc, "harbour-casino")
    c = only(run_dir(tmp_path))
    assert c.status == "pass" and c.ruleset == "harbour-casino"


def test_cli_exit_status(tmp_path):
    runner = CliRunner()
    case(tmp_path, "late-wager", "fires: [{rule: BAC-WAGER-LATE, coup: 2}]\n")
    ok = runner.invoke(app, ["test-rules", str(tmp_path), "--ruleset", "us-nj"])
    assert ok.exit_code == 0, ok.output
    assert "1 rule tests: 1 passed, 0 failed, 0 errors" in ok.output
    assert "us-nj        BAC-RESULT" in ok.output
    strict = runner.invoke(app, ["test-rules", str(tmp_path), "--ruleset", "us-nj", "--strict"])
    assert strict.exit_code == 1
    case(tmp_path, "late-wager", "silent: [BAC-WAGER-LATE]\n")
    bad = runner.invoke(app, ["test-rules", str(tmp_path), "--format", "json"])
    assert bad.exit_code == 1
    assert json.loads(bad.output)["cases"][0]["status"] == "fail"


def test_a_jsonl_transcript_is_a_rule_test_too(tmp_path):
    doc = transcript(coup(1), coup(2, late=True))
    coups = doc.pop("coups")
    d = tmp_path / "us-nj" / "deeper"
    d.mkdir(parents=True)
    (d / "late-wager.jsonl").write_text("\n".join(json.dumps(x) for x in [doc, *coups]) + "\n", encoding="utf-8")
    (d / "late-wager.expected.yaml").write_text("fires: [{rule: BAC-WAGER-LATE, coup: 2}]\nsilent: all\n",
                                                encoding="utf-8")
    c = only(run_dir(tmp_path))
    assert (c.transcript, c.status) == ("us-nj/deeper/late-wager.jsonl", "pass"), c.failures
