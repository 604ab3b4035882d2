"""The engine's plan of a coup's rules: a rule whose kind declares ``when`` is called only on the coups where
one of the fields it names is set, and a rule whose kind is of ``scope="run"`` on no coup (its game's integrity
stage judges it over shoes and runs), so neither must ever lose a finding.

Every coup of every rule test and sample is replayed, and each rule of its ruleset that the engine would not call
on it is called anyway: it must find nothing there.  The ``scope`` declarations are proved against the integrity
stages too: each kind of scope run is judged by its game's stage, and a stage judges no other kind.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import compliance.games.baccarat.checks  # noqa: F401 (registers the kinds)
from compliance import games, registry
from compliance.checks import REGISTRY
from compliance.engine import Checker, _gate
from compliance.errors import UserError
from compliance.games.common import ReplayError
from compliance.reading.reader import open_transcript

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPTS = sorted((ROOT / "fixtures" / "rules").rglob("*.json")) + sorted((ROOT / "fixtures" / "samples").glob("*.json*"))
GATED = {name for name, kind in REGISTRY.items() if kind.when}
RUN_KINDS = {name for name, kind in REGISTRY.items() if kind.scope == "run"}


def _replayed(path: Path):
    """(ruleset, table, state) of each coup of the transcript that replays."""
    checker = Checker()
    try:
        source = open_transcript(path)
        ruleset = checker.rulesets.for_header(source.header, str(path))
        table = games.table_context(source.game, source.header, ruleset, str(path))
    except UserError:
        return
    replayer = checker.replayer(source.game, table)
    for record in source.records():
        if record.coup is None:
            continue
        try:
            state = replayer.replay(record.coup, record.line)
        except (ReplayError, ArithmeticError):
            continue
        yield ruleset, table, state


def _skipped_coups(path: Path):
    """(rule, state, table) for each rule of the transcript's ruleset that the engine does not call on a coup: the
    plan skips it there (``when``), or it is judged over the run (``scope="run"``, below)."""
    for ruleset, table, state in _replayed(path):
        for r in ruleset.rules:
            kind = REGISTRY[r.check]
            if kind.scope == "run" or (kind.when and not _gate(kind.when)(state)):
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
    skipped: set[str] = set()
    for path in TRANSCRIPTS:  # until every kind is seen skipped
        skipped |= {rule.check for rule, _, _ in _skipped_coups(path)}
        if GATED | RUN_KINDS <= skipped:
            break
    assert GATED <= skipped
    assert RUN_KINDS <= skipped  # each kind of scope run is called on coups too (and finds nothing there)


# ------------------------------------------------------------------ scope=: judged coup by coup, or over the run
# A kind of scope="run" is never called coup by coup: the integrity stage of its game judges its rules after the
# replay.  Declared so wrongly, a kind would be judged twice, or never: each direction is proved here, and its
# function finds nothing on a coup (test_a_rule_the_plan_skips_on_a_coup_finds_nothing_there, above).


def _stages() -> dict[str, frozenset]:
    """Each game's integrity stage -> the kinds it judges."""
    out = {}
    for kind in registry.PACKAGES:
        registry.load_checks(kind)
        stage = registry.get(kind).integrity
        if stage is not None:
            out[kind] = frozenset(stage.KINDS)
    return out


def test_every_kind_of_scope_run_is_judged_by_the_integrity_stage_of_its_game():
    stages = _stages()
    registry.load_checks()
    run_kinds = {name for name, kind in REGISTRY.items() if kind.scope == "run"}
    assert run_kinds, "no kind of scope run: this test proves nothing"
    unjudged = [name for name in sorted(run_kinds) if name not in stages.get(REGISTRY[name].game, ())]
    assert unjudged == [], "of scope run, yet no integrity stage of their game judges them"


def test_every_kind_an_integrity_stage_judges_is_of_scope_run():
    for game, kinds in _stages().items():
        for name in sorted(kinds):
            kind = REGISTRY.get(name)
            assert kind is not None, f"{game}'s integrity stage judges {name}, which is no check kind"
            assert kind.scope == "run", f"{name} is judged coup by coup and again by {game}'s integrity stage"
            assert kind.game == game, f"{game}'s integrity stage judges {name}, a kind of {kind.game}"
