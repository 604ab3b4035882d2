"""The rule tests under fixtures/rules/ (`baccarat-audit test-rules fixtures/rules`), run by `make test`.

Every case must pass.  Every rule of every bundled ruleset needs a firing and a
non-firing test; the rules that have not got them yet are listed, one a line,
in tests/untested_rules.txt.  That list only shrinks: a rule missing a test
and not listed fails, and a listed rule that has its tests now fails until it
is taken off the list.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compliance.ruletests import run_dir

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "rules"
UNTESTED = Path(__file__).resolve().parent / "untested_rules.txt"


@pytest.fixture(scope="module")
def suite():
    assert FIXTURES.is_dir(), "fixtures/rules/ holds the rule tests"
    return run_dir(FIXTURES)


def test_every_rule_test_passes(suite):
    failed = [f"{c.status.upper()} {c.transcript}: " + "; ".join(c.failures) for c in suite.failed]
    assert not failed, "\n".join(failed)
    assert not suite.orphans, f"sidecars without a transcript: {suite.orphans}"
    assert suite.cases, "no rule tests found"


def _listed() -> set[tuple[str, str, str]]:
    out = set()
    for line in UNTESTED.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            ruleset, rule, lacks = line.split()
            out.add((ruleset, rule, lacks))
    return out


def test_every_rule_has_a_firing_and_a_non_firing_test_or_is_listed_as_untested(suite):
    actual = {(u.ruleset, u.rule, lack) for u in suite.untested for lack in u.lacks}
    listed = _listed()
    new = sorted(actual - listed)
    assert not new, ("rules without a firing or non-firing test (write one under fixtures/rules/):\n"
                     + "\n".join(" ".join(x) for x in new))
    done = sorted(listed - actual)
    assert not done, ("these rules have their tests now: take them off tests/untested_rules.txt:\n"
                      + "\n".join(" ".join(x) for x in done))
