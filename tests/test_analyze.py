"""Exact analysis of punto banco: the published counts, to the last digit."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from compliance.cli import app
from compliance.games.baccarat.analyze import (
    analyze,
    decimal,
    describe_edge_shift,
    edge_shift,
    enumerate_shoe,
    standard_tableau,
)
from compliance.ruleset.loader import load_ruleset

# Wizard of Odds, "Baccarat", appendix 1: six-card permutations of the shoe won by each hand.
PUBLISHED = {
    8: {"banker": 2_292_252_566_437_888, "player": 2_230_518_282_592_256, "tie": 475_627_426_473_216,
        "total": 4_998_398_275_503_360},
    6: {"banker": 403_095_751_234_560, "player": 392_220_492_728_832, "tie": 83_552_962_932_288,
        "total": 878_869_206_895_680},
}
# The same source's probabilities and house edges (ties as pushes counted as coups), to six places.
PUBLISHED_PROBABILITY = {
    8: {"banker": "0.458597", "player": "0.446247", "tie": "0.095156"},
    6: {"banker": "0.458653", "player": "0.446279", "tie": "0.095069"},
}
PUBLISHED_EDGE_PERCENT = {
    8: {"banker": "1.0579", "player": "1.2351", "tie": "14.3596"},
    6: {"banker": "1.0558", "player": "1.2374", "tie": "14.4382"},
}


@pytest.fixture(scope="module")
def nj():
    return load_ruleset("us-nj")


@pytest.mark.parametrize("decks", [8, 6])
def test_counts_match_the_published_exact_figures(nj, decks):
    outcomes = enumerate_shoe(nj.game.tableau, decks)
    want = PUBLISHED[decks]
    assert {w: outcomes.count(w) for w in ("banker", "player", "tie")} == {k: v for k, v in want.items() if k != "total"}
    assert outcomes.total == want["total"] == math.perm(52 * decks, 6)


@pytest.mark.parametrize("decks", [8, 6])
def test_probabilities_and_house_edges_match_the_published_figures(nj, decks):
    a = analyze(nj.game.tableau, nj.game.spots_for("punto_banco"), decks)
    for w, p in PUBLISHED_PROBABILITY[decks].items():
        assert str(decimal(a.outcomes.probability(w), 6)) == p
    for e in a.edges:
        assert str(decimal(e.per_coup * 100, 4)) == PUBLISHED_EDGE_PERCENT[decks][e.spot]


def test_ties_left_out_raise_the_edge_of_player_and_banker_but_not_of_tie(nj):
    a = analyze(nj.game.tableau, nj.game.spots_for("punto_banco"), 8)
    edges = {e.spot: e for e in a.edges}
    tie = a.outcomes.probability("tie")
    for spot in ("banker", "player"):
        assert edges[spot].push == tie
        assert edges[spot].per_resolved == edges[spot].per_coup / (1 - tie)
    assert edges["tie"].per_resolved == edges["tie"].per_coup
    # Banker pays 19 to 20: edge = P(player wins) - 0.95 P(banker wins)
    assert edges["banker"].per_coup == a.outcomes.probability("player") - Fraction(95, 100) * a.outcomes.probability("banker")


def test_even_money_banker_win_on_six_pays_half(monkeypatch):
    nsw = load_ruleset("au-nsw")
    a = analyze(nsw.game.tableau, nsw.game.spots_for("even_money"), 8)
    banker = next(e for e in a.edges if e.spot == "banker")
    by_hands = a.outcomes.by_hands
    on_six = sum(n for (p, b, _, _), n in by_hands.items() if b == 6 and b > p)
    others = a.outcomes.count("banker") - on_six
    expect = Fraction(a.outcomes.count("player") - others, a.outcomes.total) - Fraction(on_six, 2 * a.outcomes.total)
    assert banker.per_coup == expect


def test_a_tableau_that_differs_moves_the_edge_and_the_standard_one_does_not(nj):
    payouts = nj.game.spots_for("punto_banco")
    assert edge_shift(standard_tableau(), payouts) == {}
    greedy = standard_tableau().model_copy(update={"banker_draws_when_player_stood": [0, 1, 2, 3, 4, 5, 6]})
    shift = edge_shift(greedy, payouts, decks=8)
    assert set(shift) == {"banker", "player", "tie"}
    assert shift["banker"] != 0 and shift["player"] != 0
    words = describe_edge_shift(shift)
    assert "8 decks, ties as pushes" in words and "banker " in words and "%" in words


def test_cli_prints_exact_counts_and_states_how_ties_count():
    result = CliRunner().invoke(app, ["analyze", "--ruleset", "us-nj", "--decks", "8", "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["counts"] == {k: v for k, v in PUBLISHED[8].items()}
    banker = next(w for w in doc["wagers"] if w["spot"] == "banker")
    assert banker["house_edge_ties_as_pushes"].startswith("0.010579")
    text = CliRunner().invoke(app, ["analyze", "--ruleset", "us-nj", "--decks", "6"])
    assert text.exit_code == 0
    assert "403,095,751,234,560" in text.output and "pushes" in text.output
