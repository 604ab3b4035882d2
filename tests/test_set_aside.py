"""Coups set aside never make a fair shoe look rigged (BAC-OUTCOMES; docs/integrity.md, "Coups set aside").

A live studio's hand archive gives both hands' cards in one cell; imported without the totals, a five-card
coup's cell splits either way (Player two cards or three), so the import sets it aside, and a five-card coup is
never a natural.  The coups left over-represent naturals (in the case that raised this: "naturals 223 of 418,
p = 2.4e-15" on a fair recording).  Rebuilt here from a simulated fair night written as such an archive.

A five-card row whose split cannot be read but that breaks the tableau whichever way it is split is a finding
(BAC-DRAW-NO-READING, the drawing paragraphs cited), not set aside.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from reporting import run

from compliance.cards import DECK, POINTS
from compliance.engine import Checker
from compliance.games.baccarat.checks.drawing import _no_legal_split
from compliance.games.baccarat.importing import legal_readings
from compliance.games.baccarat.integrity import outcomes
from compliance.games.baccarat.replay import BANKER, PLAYER
from compliance.games.baccarat.simulate import Simulator, write_transcript
from compliance.ruleset.loader import load_ruleset

MAPPING = """format: baccarat-audit-mapping
version: 1
name: studio-no-totals
title: "Studio hand archive without the totals: both hands in one cell"
rows: coups
csv: {delimiter: ";"}
coup_numbers: shoe
fields:
  table: Table
  shoe: Shoe
  coup: Round
  hands: Cards
  winner: {column: Result, values: {P: player, B: banker, T: tie}}
"""


def archive(tmp_path: Path, coups: int, seed: int) -> tuple[Path, Path]:
    """A fair simulated night as the studio's archive: one row a coup, the Player's cards then the Banker's in
    one cell, the result, no totals."""
    sim = Simulator(load_ruleset("au-nsw"), coups=coups, seed=seed)
    night = tmp_path / "night.jsonl"
    with open(night, "wb") as f:
        write_transcript(sim, f, "jsonl")
    rows = ["Table;Shoe;Round;Cards;Result"]
    round_in_shoe: dict[str, int] = {}
    for line in night.read_text().splitlines()[1:]:
        c = json.loads(line)
        cards = [e for e in c["events"] if e["type"] == "card"]
        player = [e["card"] for e in cards if e["to"] == "player"]
        banker = [e["card"] for e in cards if e["to"] == "banker"]
        result = next(e for e in c["events"] if e["type"] == "result")["winner"]
        round_in_shoe[c["shoe"]] = round_in_shoe.get(c["shoe"], 0) + 1
        rows.append(f"SIM-01;{c['shoe']};{round_in_shoe[c['shoe']]};{' '.join(player + banker)};{result[0].upper()}")
    log, mapping = tmp_path / "hands.csv", tmp_path / "mapping.yaml"
    log.write_text("\n".join(rows) + "\n")
    mapping.write_text(MAPPING)
    return mapping, log


def test_a_hand_log_that_sets_aside_every_five_card_coup_does_not_make_a_fair_night_look_rigged(tmp_path):
    mapping, log = archive(tmp_path, 800, seed=35)
    out = tmp_path / "imported.jsonl"
    made = run("import", f"{mapping}={log}", "--jurisdiction", "au-nsw", "-o", out)
    assert made.exit_code == 0, made.stderr
    coups = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    aside = [c for c in coups if len(c.get("hands_unsplit", ())) == 5]
    assert len(aside) > 200  # every five-card coup: its cell splits either way without the totals
    assert all("cards" not in c["recorded"] and "x-cards" not in c for c in aside)
    result = Checker().check_file(out, out.name)
    # a fair shoe's five-card coups each comply with the tableau in one split at least: no drawing finding
    assert not [f for f in result.findings if f.category.startswith("third-card")]
    # the case: among the coups read, naturals far above a fair shoe's share
    read = sum(len(v.outcomes) - v.outcomes.count("-") for v in result.integrity.view)
    naturals = sum(sum(ch.islower() for ch in v.outcomes) for v in result.integrity.view)
    assert naturals / read > 0.45  # a fair shoe deals about 34% naturals
    assert not [f for f in result.findings if f.rule == "BAC-OUTCOMES"]


def test_a_count_with_coups_set_aside_is_judged_at_their_worst():
    """k of n read and u set aside: the p-value is the largest over every count the u could add, so at least that
    of the truth; with none set aside, the plain two-sided test."""
    k, p = outcomes.worst(223, 418, 0, 0.343)
    assert k == 223 and p < 1e-14  # the case, had the set-aside coups been left out
    k, p = outcomes.worst(223, 418, 300, 0.343)
    assert 223 <= k <= 523 and p > 0.5
    for truth in range(0, 301, 25):  # whatever the coups set aside were, the bound is at least the truth's
        assert p >= outcomes.binomial_two_sided(223 + truth, 718, 0.343)
    # a preset shoe stays flagged: 80 Banker wins in 81 coups read, 3 set aside
    assert outcomes.worst(80, 81, 3, 0.4586)[1] < 1e-20


def _rows(tmp_path: Path, *cells: tuple[str, str]) -> Path:
    """An archive of one shoe, a row a coup: (both hands' cards, the Player's first; the result), no totals."""
    rows = ["Table;Shoe;Round;Cards;Result"] + [f"SIM-01;S1;{n};{cards};{result}"
                                                 for n, (cards, result) in enumerate(cells, 1)]
    log, mapping = tmp_path / "hands.csv", tmp_path / "mapping.yaml"
    log.write_text("\n".join(rows) + "\n")
    mapping.write_text(MAPPING)
    out = tmp_path / "imported.jsonl"
    made = run("import", f"{mapping}={log}", "--jurisdiction", "au-nsw", "-o", out)
    assert made.exit_code == 0, made.stderr
    return out


def test_a_five_card_row_that_breaks_the_tableau_whichever_way_it_is_split_is_a_finding(tmp_path):
    out = _rows(tmp_path,
                ("5H 3S 2C 4D 9S", "B"),  # Player 8, a natural: whichever hand holds the fifth card, it drew
                ("4H 3S 3C 4D 9S", "P"),  # Player drew on 7 (three cards), or Banker drew on 7 after the Player stood
                ("4H 3S KD 2C 5D", "T"),  # Player 7 stands, Banker 2 draws: lawful split two-three
                ("4H 3S ?? 4D 9S", "B"))  # a card not read: which split complies depends on it
    coups = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    assert [c.get("hands_unsplit") is not None for c in coups] == [True, True, True, True]
    result = Checker().check_file(out, out.name)
    found = [(f.coup, f.rule) for f in result.findings if f.category.startswith("third-card")]
    assert found == [(1001, "BAC-DRAW-NO-READING"), (1002, "BAC-DRAW-NO-READING")]
    first, second = (f for f in result.findings if f.rule == "BAC-DRAW-NO-READING")
    assert "the split between them was not read" in first.message
    assert "Player 5H 3S 2C, Banker 4D 9S: the Player drew although the Player's Hand has a natural 8" in first.message
    assert "Player 5H 3S, Banker 2C 4D 9S: the Banker drew although the Player's Hand has a natural 8" in first.message
    assert "the Player drew on 7" in second.message and "the Banker drew on 7 after the Player stood" in second.message
    assert first.citation == "NSW Rules of Baccarat r 10.2, 10.3, 10.4, 10.5"  # the drawing rules' paragraphs
    # the lawful row is judged and complies; the row with a card not read is not judged; no other rule judges either
    assert result.not_judged[("BAC-DRAW-NO-READING", ("values",))] == 1
    assert result.not_judged[("BAC-DRAW-PLAYER-ILLEGAL", ("hands", "values"))] == 4


class _Table:
    tableau = load_ruleset("au-nsw").game.tableau


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=5, max_size=5))
def test_five_unsplit_cards_are_a_finding_exactly_where_neither_split_is_a_legal_reading(cards):
    """Either split of the Player's two or three cards, as the dealing order it implies: a legal reading of it by
    the importer's own tableau walk (legal_readings) where it complies."""
    player_drew = [cards[i] for i in (0, 3, 1, 4, 2)]  # Player 0 1 2, Banker 3 4
    banker_drew = [cards[i] for i in (0, 2, 1, 3, 4)]  # Player 0 1, Banker 2 3 4
    lawful = ((PLAYER, BANKER, PLAYER, BANKER, PLAYER) in legal_readings(player_drew, _Table.tableau)
              or (PLAYER, BANKER, PLAYER, BANKER, BANKER) in legal_readings(banker_drew, _Table.tableau))
    found = _no_legal_split(tuple((c, POINTS[c]) for c in cards), _Table)
    assert bool(found) == (not lawful)
