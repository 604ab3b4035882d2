"""One driver: whichever runner runs a run's units, the run is planned, merged and judged the same way, and each
thing is done once a run: every ruleset loaded once (not once a worker), the outputs checked against the files
read once, before any work.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from reporting import run
from typer.testing import CliRunner

from compliance import outputs
from compliance._internal import driver, runners
from compliance._internal.inputs import Input
from compliance.cli import app
from compliance.context import RunContext
from compliance.ruleset import cache as ruleset_cache
from compliance.ruleset import loader

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import generate  # noqa: E402

STAMP = ("--timestamp", "2026-11-29T00:00:00Z")


@pytest.fixture(scope="module")
def nights(tmp_path_factory) -> list[Path]:
    d = tmp_path_factory.mktemp("nights")
    return [generate(d / "nsw-1.jsonl", 300, "au-nsw", seed=1, breach_every=41),
            generate(d / "nsw-2.jsonl", 200, "au-nsw", seed=2, breach_every=37),
            generate(d / "nj.jsonl", 200, "us-nj", seed=3, method=None, breach_every=29)]


def _counted(monkeypatch, log: Path) -> None:
    """Every ruleset load of the run written to ``log`` (appended to by worker processes too)."""
    real_load, real_direct = ruleset_cache.load, loader.load_ruleset

    def load(ref, **kw):
        with open(log, "a") as f:
            f.write(f"{ref}\n")
        return real_load(ref, **kw)

    def direct(ref, **kw):  # a load that goes around the run's rulesets
        with open(log, "a") as f:
            f.write(f"direct {ref}\n")
        return real_direct(ref, **kw)

    monkeypatch.setattr(ruleset_cache, "load", load)
    monkeypatch.setattr(loader, "load_ruleset", direct)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_ruleset_loads_once_per_run_in_every_worker_and_for_the_rules_a_selection_names(
        nights, tmp_path, monkeypatch, jobs):
    monkeypatch.setattr(runners, "POOL_BYTES", 0)  # -j 2: worker processes even for these small files
    log = tmp_path / "loads"
    _counted(monkeypatch, log)
    r = run("check", "-j", jobs, "--select", "settlement", "-f", "json", *STAMP, *map(str, nights))
    assert r.exit_code == 1, r.stderr
    loads = log.read_text().splitlines()
    assert "au-nsw" in loads and "us-nj" in loads
    assert sorted(loads) == sorted(set(loads)), f"a ruleset loaded twice in one run: {sorted(loads)}"
    assert not [x for x in loads if x.startswith("direct ")]


def test_the_operators_ruleset_loads_once_per_run(nights, tmp_path, monkeypatch):
    monkeypatch.setattr(runners, "POOL_BYTES", 0)
    (tmp_path / "house.yaml").write_text("id: house\ntitle: house\nversion: '1'\nextends: au-nsw\n")
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "loads"
    _counted(monkeypatch, log)
    r = run("check", "-j", "2", "--ruleset", "house.yaml", "--ignore", "wager", "-f", "json", *STAMP,
            *map(str, nights[:2]))
    assert r.exit_code == 1, r.stderr
    loads = log.read_text().splitlines()
    assert loads.count("house.yaml") == 1 and sorted(loads) == sorted(set(loads))


def test_the_outputs_are_checked_against_the_files_read_once_before_any_work(nights, tmp_path, monkeypatch):
    calls = []
    real = outputs.refuse_overwriting
    monkeypatch.setattr(outputs, "refuse_overwriting", lambda writes, reads: calls.append(dict(reads))
                        or real(writes, reads))
    monkeypatch.setattr(driver, "run", lambda *a, **kw: pytest.fail("the run started"))
    r = CliRunner().invoke(app, ["check", "-o", f"json={nights[0]}", *STAMP, *map(str, nights)])
    assert r.exit_code == 2 and "an output never overwrites what is checked" in r.stderr, r.stderr
    assert len(calls) == 1


def test_the_ruleset_files_of_the_run_are_known_before_it_starts(nights, tmp_path, monkeypatch):
    """A transcript's ruleset (here through the configuration's map, extending a bundled one) is loaded before any
    unit runs: its files are among those no report may be written over."""
    (tmp_path / "base.yaml").write_text("id: base\ntitle: base\nversion: '1'\nextends: au-nsw\n")
    (tmp_path / "house.yaml").write_text("id: house\ntitle: house\nversion: '1'\nextends: base.yaml\n")
    (tmp_path / ".baccarat-audit.yaml").write_text("jurisdictions:\n  au-nsw: house.yaml\n")
    monkeypatch.chdir(tmp_path)
    calls = []
    monkeypatch.setattr(outputs, "refuse_overwriting", lambda writes, reads: calls.append(dict(reads)))
    r = run("check", "-f", "json", "-o", "report.json", *STAMP, str(nights[0]))
    assert r.exit_code == 1, r.stderr
    assert len(calls) == 1 and str(tmp_path / "base.yaml") in calls[0]


def test_a_pool_of_processes_gives_the_results_of_one_pass_in_this_process(nights, monkeypatch):
    monkeypatch.setattr(runners, "POOL_BYTES", 0)
    inputs = [Input(str(p), p.name, size=p.stat().st_size) for p in nights]
    assert driver.units(driver.plan(inputs, 2, 20_000)) > len(inputs), "the larger files are cut into chunks"
    one = driver.run(inputs, RunContext(keep_coups=True))
    pooled = driver.run(inputs, RunContext(keep_coups=True), runners.ProcessPoolRunner(2), chunk_bytes=20_000)
    assert [[f.as_dict() for f in r.findings] for r in pooled] == [[f.as_dict() for f in r.findings] for r in one]
    assert [(r.transcript, r.coups, r.sha256, r.coup_numbers, r.not_judged) for r in pooled] == \
        [(r.transcript, r.coups, r.sha256, r.coup_numbers, r.not_judged) for r in one]
