"""A margin paytable written in YAML alone: the Dragon Bonus, on either hand.

The house ruleset ``fixtures/rulesets/dragon-bonus-house.yaml`` declares it
with the ``win`` condition kind's ``natural`` and ``margin`` parameters and the
``tie`` kind's ``natural``; no code names it.  Here its exact analysis is
checked against every ordered deal of small shoes of real cards, dealt and
paid by rules written out by hand; its house edge against the published
figures for 4, 6 and 8 decks; the advantage-play edge engine against the same
enumeration; the simulator and the checker against each other; and the
red-team cases of ``tests/data/dragon_bonus_red_team.yaml``, written from the
paytable before the checker was run on them.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from builders import check, play, total, winner
from hypothesis import given
from hypothesis import strategies as st

from compliance.conditions import CONDITIONS
from compliance.engine import Checker
from compliance.errors import UserError
from compliance.games.baccarat import edges
from compliance.games.baccarat.analyze import Outcomes, analyze, decimal, spot_edge
from compliance.games.baccarat.conditions import Facts
from compliance.games.baccarat.odds import ENDS, deal_counts, tableau_key
from compliance.games.baccarat.simulate import Simulator, write_transcript
from compliance.games.baccarat.spots import table_spots
from compliance.ruleset.loader import load_ruleset
from compliance.yamlread import read_yaml

ROOT = Path(__file__).resolve().parent.parent
HOUSE = str(ROOT / "fixtures" / "rulesets" / "dragon-bonus-house.yaml")
RULESET = load_ruleset(HOUSE)
TABLEAU = RULESET.game.tableau
NATURALS = frozenset(TABLEAU.naturals)
SPOTS = table_spots(RULESET.game.spots_for("punto_banco"))
BONUS = ("dragon_bonus_player", "dragon_bonus_banker")
MARGIN_ODDS = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}  # the posted paytable, by margin of a win that is no natural


def bonus_by_hand(hand: str, player: list[str], banker: list[str]) -> str:
    """How the Dragon Bonus on ``hand`` is settled, from the posted paytable: 'push', 'natural', 'by N' or 'lose'."""
    p, b = total(player), total(banker)
    natural = {"player": len(player) == 2 and p >= 8, "banker": len(banker) == 2 and b >= 8}
    if p == b:
        return "push" if natural["player"] and natural["banker"] else "lose"
    if winner(player, banker) != hand:
        return "lose"
    if natural[hand]:
        return "natural"
    margin = abs(p - b)
    return f"by {margin}" if margin in MARGIN_ODDS else "lose"


def row_names(spot: str) -> list[str]:
    """The analysis' rows of a Dragon Bonus spot in the names of :func:`bonus_by_hand`: its push, its natural
    row, its margin rows from 9 down to 4, and the losing deals."""
    return ["push", "natural"] + [f"by {m}" for m in (9, 8, 7, 6, 5, 4)] + ["lose"]


# ------------------------------------------------------------------ exact counts, by brute force


# nine cards: 60,480 deals a shoe, a second or two; ten: 151,200 (slow)
SHOES = [
    pytest.param(["JS", "TD", "8S", "8D", "6H", "5C", "2D", "AS", "AC"], id="nine-a"),
    pytest.param(["KS", "KH", "9C", "9S", "8H", "7D", "4C", "3S", "2H"], id="nine-b"),
    pytest.param(["KS", "QH", "9D", "8C", "4S", "5H", "3D", "2C", "AH", "6S"], id="ten-a", marks=pytest.mark.slow),
    pytest.param(["KS", "KH", "QD", "9C", "9S", "8H", "7D", "4C", "3S", "2H"], id="ten-b", marks=pytest.mark.slow),
]


def brute_force(shoe: list[str]) -> dict[str, Counter]:
    """Every ordered deal of six distinct cards of ``shoe``, dealt by the tableau as written in tests/builders.py
    and each Dragon Bonus paid by the posted paytable: spot -> how many deals end each way."""
    out = {spot: Counter() for spot in BONUS}
    for six in itertools.permutations(shoe, 6):
        player, banker = play(iter(six))
        for spot in BONUS:
            out[spot][bonus_by_hand(spot.rsplit("_", 1)[1], player, banker)] += 1
    return out


def composition(shoe: list[str]) -> tuple[int, ...]:
    from compliance.cards import POINTS
    return tuple(sum(1 for c in shoe if POINTS[c] == v) for v in range(10))


@pytest.mark.parametrize("shoe", SHOES)
def test_the_exact_counts_are_every_deal_of_a_small_shoe_paid_by_hand(shoe):
    """The enumeration by point value (the same walk `analyze` makes of a full shoe of any number of decks) and
    each spot's rows, counted deal by deal over every permutation of real cards: the same integers."""
    left = composition(shoe)
    outcomes = Outcomes(0, {ENDS[i]: n for i, n in deal_counts(tableau_key(TABLEAU), left).items()})
    plain = brute_force(shoe)
    for spot in BONUS:
        e = spot_edge(outcomes, spot, SPOTS[spot], NATURALS)
        got = dict(zip(row_names(spot), (n for _, _, n in e.rows)))
        assert {k: n for k, n in got.items() if n} == dict(plain[spot]), spot
        assert sum(got.values()) == len(shoe) * (len(shoe) - 1) * (len(shoe) - 2) * (len(shoe) - 3) * \
            (len(shoe) - 4) * (len(shoe) - 5)
        # the advantage-play engine's exact edge for the same shoe left: what a unit staked returns beyond it
        returned = sum(n * (1 + MARGIN_ODDS[int(k[3:])] if k.startswith("by") else 2 if k == "natural" else
                            1 if k == "push" else 0) for k, n in plain[spot].items())
        deals = sum(plain[spot].values())
        patron = Fraction(returned, deals) - 1
        assert edges.exact_edge(TABLEAU, edges.returns(SPOTS[spot], NATURALS), left) == patron
        assert e.per_coup == -patron


# ------------------------------------------------------------------ the published figures


# Wizard of Odds, "Baccarat", appendix 5: the house edge of each side by the number of decks, in per cent
PUBLISHED_EDGES = {4: ("2.70", "9.42"), 6: ("2.67", "9.39"), 8: ("2.65", "9.37")}


@pytest.mark.parametrize("decks", sorted(PUBLISHED_EDGES))
def test_the_house_edge_of_each_side_is_the_published_one_for_four_six_and_eight_decks(decks):
    found = {e.spot: e for e in analyze(TABLEAU, RULESET.game.spots_for("punto_banco"), decks).edges}
    shown = tuple(str(decimal(found[s].per_coup * 100, 2)) for s in BONUS)
    assert shown == PUBLISHED_EDGES[decks]
    for spot in BONUS:
        assert sum(found[spot].counts.values()) == (52 * decks) * (52 * decks - 1) * (52 * decks - 2) * \
            (52 * decks - 3) * (52 * decks - 4) * (52 * decks - 5)


def test_eight_decks_give_the_edges_docs_state_to_four_places():
    found = {e.spot: e for e in analyze(TABLEAU, RULESET.game.spots_for("punto_banco"), 8).edges}
    assert [str(decimal(found[s].per_coup * 100, 4)) for s in BONUS] == ["2.6517", "9.3731"]
    doc = (ROOT / "docs" / "rule-authoring.md").read_text(encoding="utf-8")
    assert "2.6517%" in doc and "9.3731%" in doc


# ------------------------------------------------------------------ the condition kinds, over every end of a coup


@given(p=st.integers(0, 9), b=st.integers(0, 9), pc=st.sampled_from([2, 3]), bc=st.sampled_from([2, 3]),
       hand=st.sampled_from(["player", "banker"]), margins=st.lists(st.integers(1, 9), min_size=1, max_size=3))
def test_a_margin_holds_only_for_a_win_by_one_of_its_points_and_a_natural_only_for_a_two_card_8_or_9(
        p, b, pc, bc, hand, margins):
    natural = {"player": pc == 2 and p in NATURALS, "banker": bc == 2 and b in NATURALS}
    who = "player" if p > b else "banker" if b > p else "tie"
    facts = Facts(who, {"player": p, "banker": b}, {"player": pc, "banker": bc}, natural)
    win = CONDITIONS["win"]
    mine, theirs = (p, b) if hand == "player" else (b, p)
    assert win.holds(facts, win.params(hand=hand, margin=margins)) == (who == hand and mine - theirs in margins)
    assert win.holds(facts, win.params(hand=hand, natural=True)) == (who == hand and natural[hand])
    tie = CONDITIONS["tie"]
    assert tie.holds(facts, tie.params(natural=True)) == (p == b and natural["player"] and natural["banker"])


# ------------------------------------------------------------------ the simulator and the checker


def simulate(tmp_path: Path, **kw) -> tuple[Path, Simulator]:
    sim = Simulator(RULESET, **kw)
    path = tmp_path / f"night-{kw.get('seed', 0)}.jsonl"
    with open(path, "wb") as f:
        write_transcript(sim, f, "jsonl")
    return path, sim


def test_a_simulated_night_places_and_settles_every_row_of_the_paytable_and_checks_clean(tmp_path):
    path, _ = simulate(tmp_path, coups=2_500, seed=31)
    assert Checker(ruleset=HOUSE).check_file(path).findings == []
    rows = Counter()
    for line in path.read_text().splitlines()[1:]:
        coup = json.loads(line)
        cards = {"player": [], "banker": []}
        for ev in coup["events"]:
            if ev["type"] == "card" and ev.get("to") in cards:
                cards[ev["to"]].append(ev["card"])
        for ev in coup["events"]:
            if ev["type"] == "settle" and ev["spot"] in BONUS:
                rows[bonus_by_hand(ev["spot"].rsplit("_", 1)[1], cards["player"], cards["banker"])] += 1
    assert set(rows) >= {"push", "natural", "by 7", "by 6", "by 5", "by 4", "lose"}, rows


def test_a_night_with_wrong_settlements_is_found_exactly_and_the_bonus_is_among_them(tmp_path):
    path, sim = simulate(tmp_path, coups=2_000, seed=32, inject={"settlement.wrong-amount": 0.05,
                                                                  "settlement.missing": 0.02})
    found = Counter((f.coup, f.category) for f in Checker(ruleset=HOUSE).check_file(path).findings)
    assert found == Counter((i.coup, i.category) for i in sim.injected)
    assert any(" dragon_bonus_" in i.what for i in sim.injected)


# ------------------------------------------------------------------ the red team


RED_TEAM = read_yaml(ROOT / "tests" / "data" / "dragon_bonus_red_team.yaml", what="red team").data["cases"]
RED_TEAM_SCORE = "31 of 31"  # as rulesets/coverage.yaml states it (docs/coverage.md)


def red_team_coup(case: dict) -> dict:
    player, banker = case["player"], case["banker"]
    wagers = [(seat, spot, amount) for seat, spot, amount, _, _ in case["settle"]]
    events = [{"type": "wager", "seat": s, "spot": spot, "amount": a} for s, spot, a in wagers]
    events += [{"type": "announce", "call": "no_more_bets"}, {"type": "announce", "call": "cards"}]
    order = [("player", player[0]), ("banker", banker[0]), ("player", player[1]), ("banker", banker[1])]
    order += [("player", c) for c in player[2:]] + [("banker", c) for c in banker[2:]]
    events += [{"type": "card", "card": c, "to": to, "face": "up"} for to, c in order]
    events.append({"type": "result", "player_points": total(player), "banker_points": total(banker),
                   "winner": winner(player, banker)})
    events += [{"type": "settle", "seat": s, "spot": spot, "outcome": o, "amount": a}
               for s, spot, _, o, a in case["settle"]]
    return {"coup": 1, "shoe": "S1", "seated": {str(s): f"P-{s}" for s, _, _ in wagers}, "events": events}


def red_team_verdict(case: dict) -> bool:
    doc = {"format": "baccarat-transcript", "version": "1.1",
           "table": {"id": "BW-1", "jurisdiction": "us-nj", "game": "punto_banco", "seats": 7,
                     "limits": {"min_wager": 5, "max_wager": 5000, "table_differential": 4000}},
           "shoes": [{"id": "S1", "decks": 8}], "coups": [red_team_coup(case)]}
    found = check(doc, HOUSE)
    got = sorted(f"{f.message.split()[1]} {f.message.split()[2]}" for f in found if f.rule == "BAC-SETTLE-AMOUNT")
    return got == sorted(case["finds"]) and all(f.rule == "BAC-SETTLE-AMOUNT" for f in found)


def test_the_red_team_cases_written_from_the_paytable_are_judged_as_written():
    assert len(RED_TEAM) >= 20
    assert sum(bool(c["finds"]) for c in RED_TEAM) >= 10 and sum(not c["finds"] for c in RED_TEAM) >= 10
    for case in RED_TEAM:  # each dealt by the tableau as written by hand: no drawing rule is at issue
        p, b = case["player"], case["banker"]
        assert play(iter([p[0], b[0], p[1], b[1]] + p[2:] + b[2:])) == (p, b), case["name"]
    passed = [c["name"] for c in RED_TEAM if red_team_verdict(c)]
    assert f"{len(passed)} of {len(RED_TEAM)}" == RED_TEAM_SCORE, sorted(set(c["name"] for c in RED_TEAM) - set(passed))
    notes = read_yaml(ROOT / "rulesets" / "coverage.yaml", what="coverage map").data["notes"]
    assert any(f"{RED_TEAM_SCORE} cases" in text for text in notes.values())


# ------------------------------------------------------------------ advantage play


def counted_ruleset(tmp_path: Path, spots: str) -> Path:
    """Pennsylvania's Minibaccarat with the house's Dragon Bonus spots, and its advantage-play rule judging
    ``spots`` (a YAML list)."""
    text = Path(HOUSE).read_text(encoding="utf-8")
    declared = text[text.index("  spots:\n") + len("  spots:\n"):]
    path = tmp_path / "counted.yaml"
    path.write_text(f"""id: counted
title: Minibaccarat with the Dragon Bonus, its advantage play judged
version: "1"
extends: us-pa
game:
  variants:
    mini_baccarat:
{''.join('    ' + line + chr(10) if line.strip() else chr(10) for line in declared.splitlines())}
overrides:
  PA-ADVANTAGE-PLAY:
    params: {{spots: {spots}}}
""", encoding="utf-8")
    return path


def test_a_patron_who_counts_for_the_dragon_bonus_is_found_by_the_advantage_play_test(tmp_path):
    """The edge engine reads the paytable as any spot settled by the result: a simulated patron who places the
    Dragon Bonus only where the cards left favour it is reported, on that spot."""
    ruleset = load_ruleset(str(counted_ruleset(tmp_path, "[dragon_bonus_player, dragon_bonus_banker]")))
    sim = Simulator(ruleset, coups=400, seed=3, seats=3, dealers=2, game="mini_baccarat",
                    inject={"integrity.advantage-play": 1.0})
    path = tmp_path / "counted.jsonl"
    with open(path, "wb") as f:
        write_transcript(sim, f, "jsonl")
    (made,) = [i for i in sim.integrity if i.category == "integrity.advantage-play"]
    assert {spot for _, spot, _ in made.wagered} <= set(BONUS)
    found = [f for f in Checker(ruleset=ruleset.path).check_file(path).findings if f.rule == "PA-ADVANTAGE-PLAY"]
    assert [f.money.patron for f in found] == [made.patron]
    assert "dragon_bonus_player wagers fell at the" in found[0].message


def test_a_spot_the_edge_engine_cannot_judge_is_refused_not_left_out(tmp_path):
    mixed = counted_ruleset(tmp_path, "[dragon_bonus_player, either]")
    text = mixed.read_text(encoding="utf-8").replace("overrides:", """        either:
          requires: {wager_on: [player, banker]}
          pays:
            pair: {when: {kind: pair, hand: either}, odds: 5}
            by_9: {when: {kind: win, hand: player, margin: 9}, odds: 30}
overrides:""")
    mixed.write_text(text, encoding="utf-8")
    with pytest.raises(UserError, match="spot 'either' .* is settled both by the result and by the first cards"):
        load_ruleset(str(mixed))
    typo = counted_ruleset(tmp_path, "[dragon_bonus_palyer]")
    with pytest.raises(UserError, match="no game of the ruleset declares the spot"):
        load_ruleset(str(typo))


def test_analyze_prints_each_row_as_an_integer_count_and_each_edge_as_a_fraction_for_any_deck_count():
    from typer.testing import CliRunner

    from compliance.cli import app

    r = CliRunner().invoke(app, ["analyze", "-r", HOUSE, "--decks", "2", "-f", "json"])
    assert r.exit_code == 0, r.output
    wagers = {w["spot"]: w for w in json.loads(r.output)["wagers"]}
    found = {e.spot: e for e in analyze(TABLEAU, RULESET.game.spots_for("punto_banco"), 2).edges}
    for spot in BONUS:
        assert [row["count"] for row in wagers[spot]["settled"]] == [n for _, _, n in found[spot].rows]
        assert sum(row["count"] for row in wagers[spot]["settled"]) == 104 * 103 * 102 * 101 * 100 * 99
        assert Fraction(wagers[spot]["house_edge_exact"]) == found[spot].per_coup
