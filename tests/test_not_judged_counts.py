"""A rule's not-judged count is a count of coups: never more than the coups read, and never a coup the rule used.

The engine counts a rule not judged where a coup lacks what it needs; a game's integrity stage counts the coups
it could not take for its own reasons (no dealer, no patron, cards not read).  Each coup is counted once a rule,
by one of them: a coup the engine leaves unjudged is not handed to the stage's test of that rule, and a coup the
stage used for a rule is not also listed as not judged by it.
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path

from builders import coup, dumps, transcript
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.engine import Checker
from compliance.evidence import DECLARABLE
from compliance.games.baccarat.simulate import Simulator, write_transcript
from compliance.report.notjudged import not_judged
from compliance.ruleset.loader import load_ruleset

HANDS = [(["KD", "4D", "3S"], ["KS", "6C"]), (["9D", "KH"], ["2S", "3C", "4H"]), (["5D", "2H", "TS"], ["3S", "3C", "2D"]),
         (["8D", "KC"], ["7S", "QC"]), (["AD", "AH", "4S"], ["KS", "9C"]), (["2D", "2H", "2S"], ["3S", "4C", "8H"])]
_CHECKER = Checker(ruleset="us-pa", judge=True)


def _ez_night() -> dict:
    """Twelve coups of EZ Baccarat (us-pa) with side wagers, patrons and dealers named."""
    sim = Simulator(load_ruleset("us-pa"), coups=12, seed=3, game="ez_baccarat", dealers=2, rotation=4)
    with tempfile.TemporaryFile() as f:
        write_transcript(sim, f, "json")
        f.seek(0)
        return json.loads(f.read())


EZ = _ez_night()


@st.composite
def _recordings(draw):
    """Six coups of one shoe (or twelve of EZ Baccarat, with side wagers) with a random share of what a recording
    may leave out: each coup's `recorded`, a card not read, who is seated, a wager's patron, who dealt."""
    coups = []
    ez = draw(st.booleans())
    made = copy.deepcopy(EZ["coups"]) if ez else [coup(n, player, banker, [(1, "player", 100), (2, "banker", 200)])
                                                  for n, (player, banker) in enumerate(HANDS, 1)]
    for c in made:
        if draw(st.booleans()):
            c["recorded"] = sorted(draw(st.sets(st.sampled_from(DECLARABLE))))
        if draw(st.integers(0, 4)) == 0:
            ev = next((e for e in c["events"] if e["type"] == "card"), None)
            if ev is not None:
                ev["card"] = "??"
        if draw(st.booleans()):
            c.pop("seated", None)
        if draw(st.integers(0, 3)) == 0:
            c["staff"] = {"dealer": draw(st.sampled_from(["D-1", "D-2"]))}
        if draw(st.integers(0, 3)) == 0:
            wager = next((e for e in c["events"] if e["type"] == "wager"), None)
            if wager is not None:
                wager["patron"] = "B-9"
        coups.append(c)
    doc = {k: v for k, v in EZ.items() if k != "coups"} | {"coups": coups} if ez else transcript(coups, "us-pa")
    doc["version"] = "1.1"
    if draw(st.booleans()):
        doc["recorded"] = sorted(draw(st.sets(st.sampled_from(DECLARABLE))))
    if draw(st.booleans()):
        doc["staff"] = [{"from_coup": 1, "to_coup": draw(st.integers(0, 7)), "dealer": "D-1"},
                        {"from_coup": draw(st.integers(1, 6)), "dealer": draw(st.sampled_from(["D-1", "D-3"]))}]
    return doc


@settings(max_examples=80, deadline=None)
@given(_recordings())
def test_no_rule_is_counted_not_judged_in_more_coups_than_were_read(doc):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.json"
        path.write_text(dumps(copy.deepcopy(doc)), encoding="utf-8")
        result = _CHECKER.check_file(path, path.name)
    for nj in not_judged(result):
        assert nj.coups <= nj.of, f"{nj.rule.id} not judged {nj.extent}: {nj.missing}"
        assert all(n <= nj.of for n in nj.missing.values())
