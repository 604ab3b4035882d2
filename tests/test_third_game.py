"""A third game touches only its package and one line of the registry of games.

``tests/games/high_card`` is a toy game (one card to the player and one to the dealer, the higher card wins
even money): a package of the shape every game package has.  Registered here, at test time, by one line in
``compliance.registry.PACKAGES``, it is read, replayed, checked, linted and reported by the shared engine as
baccarat and pai gow poker are: its ruleset names it in ``game_kind``, its transcripts in ``table.game``,
its check kind registers like any other, and every report format shows its findings.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from reporting import run

from compliance import checks, games, registry
from compliance.config import FORMATS
from compliance.engine import Checker
from compliance.reading.reader import open_transcript
from compliance.ruleset.lint import lint_file
from compliance.ruleset.loader import load_ruleset, ruleset_json_schema

TOY = Path(__file__).resolve().parent / "games"

RULESET = """\
id: toy-high-card
title: A toy jurisdiction of high card
version: "1"
game_kind: high_card
sources:
  toy:
    title: The toy rules of high card
    cite_as: "Toy rule "
rules:
  - id: HC-SETTLE
    title: Wagers settled as the cards say
    check: high-card.settlement
    citation: {source: toy, at: ["3"]}
    params: {odds: {house: 1, note: what a win pays is the house's}}
"""


@pytest.fixture
def high_card(monkeypatch, tmp_path):
    """The toy game, registered by its one line; everything it registered is gone after the test."""
    monkeypatch.syspath_prepend(str(TOY))
    monkeypatch.setitem(registry.PACKAGES, "high_card", "high_card")  # the one line a game adds
    registry.get.cache_clear()
    registry.load_checks.cache_clear()
    ruleset = tmp_path / "toy-high-card.yaml"
    ruleset.write_text(RULESET)
    yield ruleset
    for name, kind in list(checks.REGISTRY.items()):  # the toy's kinds only: others loaded meanwhile stay
        if kind.fn.__module__.split(".")[0] == "high_card":
            del checks.REGISTRY[name]
    for name in [m for m in sys.modules if m == "high_card" or m.startswith("high_card.")]:
        del sys.modules[name]
    registry.get.cache_clear()
    registry.load_checks.cache_clear()


def _transcript(tmp_path: Path, coups: int = 6, wrong: int | None = None) -> Path:
    from high_card.simulate import transcript

    doc = transcript(coups)
    if wrong is not None:  # the coup `wrong` settled as a win of 5 whatever the cards say
        settle = doc["coups"][wrong - 1]["events"][-1]
        settle["outcome"], settle["amount"] = "win", 5
    path = tmp_path / "night.json"
    path.write_text(json.dumps(doc))
    return path


def test_the_game_is_a_package_of_the_shape_of_every_game_and_keeps_the_interface(high_card):
    names = {p.stem for p in (TOY / "high_card").iterdir() if p.suffix == ".py"}
    assert {"__init__", "models", "table", "replay", "checks", "simulate"} <= names
    game = registry.get("high_card")
    assert isinstance(game, games.Game)
    assert registry.for_table_game("high_card") is game
    assert registry.for_table_game("punto_banco") is registry.get("baccarat")  # the games before it are still theirs


def test_its_ruleset_names_it_and_lints_clean(high_card):
    ruleset = load_ruleset(str(high_card))
    assert ruleset.game_kind == "high_card" and ruleset.game is None
    assert [r.id for r in ruleset.rules] == ["HC-SETTLE"]
    assert [d for d in lint_file(high_card) if d.severity != "info"] == []
    schema = ruleset_json_schema()["properties"]["game_kind"]["anyOf"][0]
    assert schema["enum"] == list(registry.PACKAGES)


def test_a_clean_night_checks_clean(high_card, tmp_path):
    result = Checker(ruleset=str(high_card)).check_source(open_transcript(_transcript(tmp_path)))
    assert result.coups == 6 and result.findings == []


def test_a_wrong_settlement_is_found_and_cites_its_rule(high_card, tmp_path):
    result = Checker(ruleset=str(high_card)).check_source(open_transcript(_transcript(tmp_path, wrong=2)))
    assert [(f.rule, f.coup, f.category) for f in result.findings] == [("HC-SETTLE", 2, "settlement.wrong-amount")]
    assert result.findings[0].citation == "Toy rule 3"


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_report_format_shows_its_findings(high_card, tmp_path, fmt):
    r = run("check", _transcript(tmp_path, wrong=2), "--ruleset", high_card, "-j", "1", "-f", fmt)
    assert r.exit_code == 1, r.stdout + r.stderr
    assert "HC-SETTLE" in r.stdout
    assert not re.search(r"\b(Banker|banker|bead plate|big road)\b", r.stdout)  # nothing of another game's
    if fmt == "html":  # the coup drawn as its game hands it: its two cards, by its own labels
        data = json.loads(re.search(r'id="report-data">(.*?)</script>', r.stdout, re.S).group(1))
        _, hands, outcome = next(c for c in data["coups"] if c["n"] == 2)["c"]
        assert [data["words"][h[0]] for h in hands] == ["Player", "Dealer"]
        assert all(data["words"][h[3]].startswith("rank ") for h in hands) and outcome.startswith("the higher card")
    if fmt == "sarif":
        assert json.loads(r.stdout)["runs"][0]["tool"]["driver"]["rules"][0]["properties"]["tags"][0] == "high_card"


def test_schema_prints_its_transcript_format_by_the_name_it_gives(high_card):
    r = run("schema", "high-card-transcript")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["title"] == "high card transcript (.json)"
    r = run("schema", "dice-transcript")
    assert r.exit_code == 2 and "transcript, pai-gow-transcript, high-card-transcript, ruleset, report" in r.stderr


def test_a_ruleset_for_it_refuses_another_games_transcript(high_card, tmp_path):
    path = tmp_path / "baccarat.json"
    path.write_text((Path(__file__).resolve().parent.parent / "fixtures" / "samples" / "night-shift.json").read_text())
    r = run("check", path, "--ruleset", high_card, "-j", "1")
    assert r.exit_code == 2 and "choose a baccarat ruleset" in r.stderr


def test_an_unregistered_game_kind_is_refused_with_the_registry_s_games(tmp_path):
    path = tmp_path / "dice.yaml"
    path.write_text(RULESET.replace("high_card", "dice"))
    with pytest.raises(games.UserError, match=r"unknown game 'dice' \(known: baccarat, pai_gow_poker\)"):
        load_ruleset(str(path))
