"""The rule tests under fixtures/rules/ (`baccarat-audit test-rules`), run by `make test`.

Every case must pass, and every rule of every bundled ruleset has at least one
test where it must fire and one where it must stay silent.  They ship with the
package (``compliance.rule_tests``): `test-rules` without a directory runs
them, and `rules show` takes its example coups from them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from compliance.cli import app
from compliance.ruletests import bundled_dir, run_dir

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


def test_the_bundled_rule_tests_are_these_fixtures():
    assert bundled_dir().resolve() == FIXTURES.resolve()


def test_test_rules_without_a_directory_runs_the_bundled_rule_tests(suite, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # nowhere near fixtures/rules
    result = CliRunner().invoke(app, ["test-rules"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].startswith(f"{len(suite.cases)} rule tests: {len(suite.cases)} passed, ")


def test_rules_show_takes_its_examples_from_the_bundled_rule_tests(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["rules", "show", "NSW-A-RECIPIENT"])
    assert result.exit_code == 0, result.output
    compliant = result.output.split("Compliant example (au-nsw): coup ", 1)[1].splitlines()[0]
    breaching = result.output.split("Breaching example (au-nsw): coup ", 1)[1].splitlines()[0]
    assert str(FIXTURES / "au-nsw") in compliant and str(FIXTURES / "au-nsw") in breaching
    assert "reported at event " in result.output
