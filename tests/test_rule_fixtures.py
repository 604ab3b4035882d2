"""The rule tests under fixtures/rules/ (`baccarat-audit test-rules fixtures/rules`), run by `make test`.

Every case must pass, and every rule of every bundled ruleset has at least one
test where it must fire and one where it must stay silent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compliance.ruletests import run_dir

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "rules"


@pytest.fixture(scope="module")
def suite():
    assert FIXTURES.is_dir(), "fixtures/rules/ holds the rule tests"
    return run_dir(FIXTURES)


def test_every_rule_test_passes(suite):
    failed = [f"{c.status.upper()} {c.transcript}: " + "; ".join(c.failures) for c in suite.failed]
    assert not failed, "\n".join(failed)
    assert not suite.orphans, f"sidecars without a transcript: {suite.orphans}"
    assert suite.cases, "no rule tests found"


def test_every_rule_of_every_bundled_ruleset_has_a_firing_and_a_non_firing_test(suite):
    untested = [f"{u.ruleset} {u.rule}: no {' and no '.join(u.lacks)} test" for u in suite.untested]
    assert not untested, "write rule tests under fixtures/rules/ for:\n" + "\n".join(untested)
