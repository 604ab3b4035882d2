"""One run context, handed down: a run's choices never outlive it, and the library leaves the collector alone.

The command builds one :class:`compliance.context.RunContext` (cache use, limits, the configuration's
source, the rule selection, ``--isolated``) and passes it to the engine, the runners and the integrity
stage.  What one checker is told is never what the next one finds switched.
"""

from __future__ import annotations

import ast
import dataclasses
import gc
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from compliance import limits
from compliance.context import RunContext
from compliance.engine import Checker
from compliance.errors import UserError
from compliance.selection import Selection

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "fixtures" / "samples" / "night-shift.json"
PACKAGE = ROOT / "compliance"


def _entries(d: Path) -> list[Path]:
    return sorted(p for p in d.rglob("*.json")) if d.exists() else []


def test_a_checker_without_the_cache_leaves_the_next_one_its_cache(cache_dir):
    """``Checker(cache=False)`` turned the cache off for the rest of the process: no longer."""
    off = Checker(cache=False).check_file(SAMPLE)
    assert _entries(cache_dir) == []
    on = Checker().check_file(SAMPLE)
    assert _entries(cache_dir / "rulesets")  # the ruleset was kept
    assert [f.rule for f in off.findings] == [f.rule for f in on.findings]


def test_limits_belong_to_the_run_that_was_given_them(tmp_path):
    """A checker with small limits refuses a transcript; another in the same process, with the defaults, reads it."""
    small = dataclasses.replace(limits.DEFAULTS, transcript=1000)
    with pytest.raises(UserError, match="larger than the limit of 1,000 bytes"):
        Checker(limits=small).check_file(SAMPLE)
    assert len(Checker().check_file(SAMPLE).findings) == 6
    assert limits.limit("transcript") == 256 * limits.MB


def test_the_context_is_one_hashable_picklable_value():
    """Every worker process (and Dask worker) gets it with its work and keeps one checker per context."""
    context = RunContext(ruleset="us-nj", jurisdictions=(("NJ", "us-nj"),), selection=Selection(("BAC-DRAW",), ()),
                         limits=limits.Limits.raised({"waivers": 64}), cache=False, keep_states=True)
    assert pickle.loads(pickle.dumps(context)) == context
    assert hash(pickle.loads(pickle.dumps(context))) == hash(context)
    assert context.limits.waivers == 64 * limits.MB
    checker = Checker(context)
    assert checker.context is context and checker.keep_states


def test_keywords_make_a_context_of_their_own():
    assert Checker(ruleset="au-nsw", keep_coups=True).context == RunContext(ruleset="au-nsw", keep_coups=True)
    base = RunContext(ruleset="nz")
    assert Checker(base, cache=False).context == RunContext(ruleset="nz", cache=False)


@pytest.mark.parametrize("enabled", [True, False])
def test_checking_never_changes_the_callers_collector(enabled):
    """The engine used to freeze the heap and turn the collector on: a library user's settings are theirs."""
    was_enabled, threshold = gc.isenabled(), gc.get_threshold()
    frozen = gc.get_freeze_count()
    try:
        (gc.enable if enabled else gc.disable)()
        gc.set_threshold(1234, 5, 6)
        Checker().check_file(SAMPLE)
        assert gc.isenabled() is enabled
        assert gc.get_threshold() == (1234, 5, 6)
        assert gc.get_freeze_count() == frozen
    finally:
        (gc.enable if was_enabled else gc.disable)()
        gc.set_threshold(*threshold)


def test_the_command_tunes_the_collector_once_at_its_entry_point():
    """``python -m compliance`` raises the youngest generation's threshold for its whole run (as mypy does), and
    leaves the collector on for import, lint and simulate as for check."""
    probe = ("import gc, sys; sys.argv = ['baccarat-audit', 'rules', 'list', '--ruleset', 'us-nj'];"
             "import compliance.__main__ as m\n"
             "try:\n    m.main()\nexcept SystemExit:\n    pass\n"
             "print(gc.isenabled(), gc.get_threshold()[0], file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=120)
    enabled, first = r.stderr.split()[-2:]
    assert enabled == "True" and int(first) > 700


def test_no_module_keeps_a_switch_for_the_process():
    """Only the entry point touches the collector, and no module of the engine rebinds a module-level name from a
    function (``global``) but the worker processes' progress counters, set once as each worker starts."""
    touched, rebinding = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        name = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "gc"
                    and name != "compliance/__main__.py"):
                touched.append(f"{name}: gc.{node.attr}")
            if isinstance(node, ast.Global) and node.names != ["_COUNTS"]:
                rebinding.append(f"{name}: global {', '.join(node.names)}")
    assert touched == [] and rebinding == []
