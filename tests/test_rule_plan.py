"""The engine's plan of a coup's rules: a rule whose kind declares ``when`` is called only on the coups where
one of the fields it names is set, so skipping it must never lose a finding.

Every coup of every rule test and sample is replayed, and each rule of its ruleset whose kind would be skipped
on it is called anyway: it must find nothing there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import compliance.games.baccarat.checks  # noqa: F401 (registers the kinds)
from compliance.checks import REGISTRY
from compliance.engine import Checker, _gate
from compliance.errors import UserError
from compliance.games.common import ReplayError
from compliance.reading.reader import open_transcript

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPTS = sorted((ROOT / "fixtures" / "rules").rglob("*.json")) + sorted((ROOT / "fixtures" / "samples").glob("*.json*"))
GATED = {name for name, kind in REGISTRY.items() if kind.when}


def _skipped_coups(path: Path):
    """(rule, state, table) for each rule of the transcript's ruleset that the plan skips on a coup."""
    checker = Checker()
    try:
        source = open_transcript(path)
        ruleset = checker.rulesets.for_header(source.header, str(path))
        table = source.game.table_context(source.header, ruleset, str(path))
    except UserError:
        return
    replayer = checker.replayer(source.game, table)
    rules = [r for r in ruleset.rules if r.check in GATED]
    for record in source.records():
        if record.coup is None:
            continue
        try:
            state = replayer.replay(record.coup, record.line)
        except (ReplayError, ArithmeticError):
            continue
        for r in rules:
            if not _gate(REGISTRY[r.check].when)(state):
                yield r, state, table


def test_the_kinds_that_declare_when_are_the_irregular_ones_and_the_third_cards():
    assert {"irregularity.erroneous-card", "irregularity.face-up-card", "irregularity.misdeal",
            "shoe.integrity", "record.timestamp", "curator.wrong-recipient", "third-card.player.illegal",
            "third-card.banker.illegal"} <= GATED


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_rule_the_plan_skips_on_a_coup_finds_nothing_there(path):
    for rule, state, table in _skipped_coups(path):
        found = list(REGISTRY[rule.check].fn(state, rule.params, table))
        assert not found, f"{rule.id} skipped on coup {state.number} of {path.name}, yet it finds {found}"


def test_the_rule_tests_hold_coups_on_which_each_gated_kind_is_skipped():
    skipped = {rule.check for path in TRANSCRIPTS for rule, _, _ in _skipped_coups(path)}
    assert GATED <= skipped
