"""Each game's reports speak its own words: a pai gow poker night's HTML, Markdown and SARIF reports show its
boxes and its five-card and two-card hands, and nothing of baccarat's Player, Banker or tie.

The report draws a coup from what its game hands it (``Game.coup_view``: its hands, each with a label, cards
and points or rank, and its outcome); the tags of a SARIF rule are the games of the rulesets that define it.
"""

from __future__ import annotations

import json
import re

import pytest
from reporting import run

from compliance.games.pai_gow.simulate import simulate, write
from compliance.ruleset.loader import load_ruleset

#: baccarat's hands and boards as its reports write them (pai gow poker has players too, never a Player's Hand)
BACCARAT_WORDS = re.compile(r"\b(Player|Banker|banker|Tie|natural|bead plate|big road|punto)s?\b")
STAMP = "2026-11-29T12:00:00Z"


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """Twenty rounds of pai gow poker, round 4's first settlement paid 5 more than its due."""
    doc = simulate(load_ruleset("us-in-pai-gow"), rounds=20, seed=3)
    settle = next(e for e in doc["coups"][3]["events"] if e["type"] == "settle")
    settle["amount"] = str(int(settle["amount"]) + 5) if str(settle["amount"]).isdigit() else settle["amount"]
    path = tmp_path_factory.mktemp("pai-gow") / "night.json"
    write(doc, path)
    return path


def _report(night, fmt: str) -> str:
    r = run("check", night, "-f", fmt, "-j", "1", "--timestamp", STAMP)
    assert r.exit_code == 1, r.stderr
    return r.stdout


def test_the_html_page_draws_the_boxes_and_dealers_hands_as_set(night):
    page = _report(night, "html")
    data = json.loads(re.search(r'id="report-data">(.*?)</script>', page, re.S).group(1))
    coup = next(c for c in data["coups"] if c["n"] == 4)
    where, hands, outcome = coup["c"]
    labels = [data["words"][h[0]] for h in hands]
    assert "the dealer, five-card hand" in labels and "the dealer, two-card hand" in labels
    assert any(re.fullmatch(r"box \d, five-card hand", label) for label in labels)
    sizes = {"five-card": 5, "two-card": 2}
    assert all(len(h[1]) == sizes[label.split(", ")[1].split()[0]] for h, label in zip(hands, labels) if ", " in label)
    assert all(len(h[1]) == 7 and data["words"][h[3]] == "not set" for h, label in zip(hands, labels)
               if ", " not in label)  # a box dealt to and never set: its seven cards
    assert outcome.startswith("settled: box ")
    assert not BACCARAT_WORDS.search(page), BACCARAT_WORDS.search(page)


@pytest.mark.parametrize("fmt", ["markdown", "sarif", "text", "json", "junit"])
def test_the_other_reports_name_its_boxes_and_nothing_of_baccarat(night, fmt):
    report = _report(night, fmt)
    assert "box " in report and "PG-SETTLE" in report or "pai-gow" in report.lower()
    assert not BACCARAT_WORDS.search(report), BACCARAT_WORDS.search(report)


def test_a_sarif_rule_is_tagged_with_its_games(night):
    rules = json.loads(_report(night, "sarif"))["runs"][0]["tool"]["driver"]["rules"]
    assert rules and all(r["properties"]["tags"][0] == "pai_gow_poker" for r in rules)
    assert not any("baccarat" in r["properties"]["tags"] for r in rules)
