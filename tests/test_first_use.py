"""The stumbles of a first use: a report format named by its extension, `rules show` as lenient as `--select`
and its examples from a ruleset chosen by a stated rule, `simulate --currency`, and a house ruleset's changed
odds and commission said in the report."""

from __future__ import annotations

import json

import pytest
from reporting import ROOT, run, sample_into

HOUSE = ROOT / "fixtures" / "rulesets" / "harbour-casino.yaml"


# ------------------------------------------------------------------ -o md=x.md


@pytest.mark.parametrize("spec, fmt", [("md=x.md", "markdown"), ("MD=x.md", "markdown"), ("htm=x.htm", "html"),
                                       ("txt=x.txt", "text"), ("x.md", "markdown")])
def test_a_format_named_by_its_extension_is_accepted(tmp_path, monkeypatch, spec, fmt):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = run("check", "night-shift.json", "-o", spec)
    assert r.exit_code == 1, r.stderr
    written = (tmp_path / spec.partition("=")[2 if "=" in spec else 0]).read_text()
    assert {"markdown": written.startswith("#"), "html": written.startswith("<!DOCTYPE html>"),
            "text": "checked 1 transcript" in written}[fmt]


# ------------------------------------------------------------------ rules show


@pytest.mark.parametrize("asked", ["BAC-SETTLE-AMOUNT", "bac-settle-amount", " Bac-Settle-Amount "])
def test_rules_show_takes_a_rule_id_in_any_case(asked):
    r = run("rules", "show", asked)
    assert r.exit_code == 0 and r.stdout.startswith("BAC-SETTLE-AMOUNT — ") and r.stderr == ""


def test_rules_show_of_a_selector_that_names_one_rule_shows_it_with_a_note():
    r = run("rules", "show", "bac-shuffle")
    assert r.exit_code == 0 and r.stdout.startswith("BAC-SHUFFLE — ")
    r = run("rules", "show", "nsw-a")  # a prefix of one rule id
    assert r.exit_code == 0 and r.stdout.startswith("NSW-A-RECIPIENT — ")
    assert "rules show nsw-a: NSW-A-RECIPIENT, the one rule it names" in r.stderr


def test_rules_show_of_a_prefix_of_several_rules_lists_them():
    r = run("rules", "show", "BAC-DRAW-BANKER")
    assert r.exit_code == 2
    assert "'BAC-DRAW-BANKER' names 2 rules: BAC-DRAW-BANKER-ILLEGAL, BAC-DRAW-BANKER-MISSING; name one" in r.stderr
    r = run("rules", "show", "bac-setle-amount")  # a typo: the nearest ids, whatever the case
    assert r.exit_code == 2 and "did you mean BAC-SETTLE-AMOUNT" in r.stderr


def _example_ruleset(rule: str) -> str:
    doc = json.loads(run("rules", "show", rule, "-f", "json").stdout)
    return doc["breaching_example"]["ruleset"]


def test_rules_show_takes_its_examples_from_the_ruleset_that_defines_the_rule():
    assert _example_ruleset("NSW-A-RECIPIENT") == "au-nsw"


def test_rules_show_takes_no_one_jurisdictions_examples_for_a_rule_of_the_base():
    """BAC-WAGER-LATE is the punto-banco base's: each jurisdiction deals and cites it its own way, so without -r
    no one of them stands for it; the rulesets with examples are named instead."""
    doc = json.loads(run("rules", "show", "BAC-WAGER-LATE", "-f", "json").stdout)
    assert doc["compliant_example"] is None and doc["breaching_example"] is None
    assert doc["examples_in"] == ["au-nsw", "nz", "us-in", "us-nj", "us-pa"]
    with_one = json.loads(run("rules", "show", "BAC-WAGER-LATE", "-r", "us-in", "-f", "json").stdout)
    assert with_one["breaching_example"]["ruleset"] == "us-in" and with_one["examples_in"] == []


# ------------------------------------------------------------------ simulate --currency


def test_simulate_writes_the_currency_the_report_counts_money_in(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("simulate", "-r", "au-nsw", "-n", "30", "--seed", "1", "--currency", "aud", "--inject",
            "settlement.wrong-amount@0.3", "-o", "night.json")
    assert r.exit_code == 0, r.stderr
    assert json.loads((tmp_path / "night.json").read_text())["table"]["currency"] == "AUD"
    checked = run("check", "night.json")
    assert checked.exit_code == 1 and " AUD paid to patrons beyond what was due" in checked.stdout.splitlines()[-1]
    bad = run("simulate", "-r", "au-nsw", "-n", "3", "--currency", "dollars")
    assert bad.exit_code == 2 and "ISO 4217 code of three letters" in bad.stderr


# ------------------------------------------------------------------ a house ruleset's parameters


def test_a_house_ruleset_that_changes_odds_and_commission_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("simulate", "-r", "au-nsw", "-n", "20", "-o", "night.json")
    said = ("2 parameters of the game changed (game.spots.banker.commission from 0.05 to 0.04, "
            "game.spots.tie.odds from 8 to 9)")
    text = run("check", "night.json", "-r", HOUSE)
    assert said in text.stdout and "0 rules turned off, 1 changed (NSW-DIFFERENTIAL-REDUCTION)" in text.stdout
    doc = json.loads(run("check", "night.json", "-r", HOUSE, "-f", "json").stdout)
    assert doc["rulesets"][0]["origin"]["parameters"] == [
        "game.spots.banker.commission from 0.05 to 0.04", "game.spots.tie.odds from 8 to 9"]
    for fmt in ("markdown", "html"):
        assert "game.spots.tie.odds from 8 to 9" in run("check", "night.json", "-r", HOUSE, "-f", fmt).stdout


# ------------------------------------------------------------------ a push that was paid


def test_a_wager_settled_as_a_push_with_an_amount_carries_what_was_paid(tmp_path, monkeypatch):
    """Seat 2's Banker wager of 200 lost (the Player won 7 to 6) and was settled `push 5`: the house owed it
    nothing back but took 200; it took nothing and paid 5 (a push is due nothing beside the stake handed back)."""
    monkeypatch.chdir(tmp_path)
    doc = json.loads((ROOT / "fixtures" / "samples" / "night-shift.json").read_text())
    doc["coups"] = doc["coups"][:2]
    settle = doc["coups"][0]["events"][-1]
    assert (settle["seat"], settle["outcome"], settle["amount"]) == (2, "lose", 200)
    settle.update(outcome="push", amount=5)
    (tmp_path / "push.json").write_text(json.dumps(doc))
    report = json.loads(run("check", "push.json", "-f", "json").stdout)
    (finding,) = report["findings"]
    assert finding["message"].endswith("it was settled push 5")
    assert {k: finding["money"][k] for k in ("expected", "paid", "difference", "favours")} == {
        "expected": "-200", "paid": "5", "difference": "205", "favours": "patron"}
    assert report["money"]["net"] == "205"
