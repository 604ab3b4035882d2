"""--select and --ignore: the rules a run applies, named by rule id or by category, globs and prefixes
allowed, as Ruff picks its rules; a selector that names no rule is an error with the nearest name."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reporting import clean_doc, run, sample_into, with_unreadable_coup, write

from compliance.categories import CATEGORIES
from compliance.selection import Selection

SAMPLE_RULES = {"BAC-DRAW-BANKER-ILLEGAL", "BAC-DRAW-BANKER-MISSING", "BAC-DRAW-PLAYER-MISSING",
                "BAC-SETTLE-AMOUNT", "BAC-WAGER-LATE"}


def rules_found(*args: str) -> set[str]:
    r = run("check", "night-shift.json", "-f", "json", *args)
    assert r.exit_code in (0, 1), r.stderr
    return {f["rule"] for f in json.loads(r.stdout)["findings"]}


@pytest.mark.parametrize("args, expected", [
    ((), SAMPLE_RULES),
    (("--select", "BAC-WAGER-LATE"), {"BAC-WAGER-LATE"}),
    (("--select", "bac-wager-late"), {"BAC-WAGER-LATE"}),  # ids in any case
    (("--select", "BAC-DRAW"), {"BAC-DRAW-BANKER-ILLEGAL", "BAC-DRAW-BANKER-MISSING", "BAC-DRAW-PLAYER-MISSING"}),
    (("--select", "*-MISSING"), {"BAC-DRAW-BANKER-MISSING", "BAC-DRAW-PLAYER-MISSING"}),
    (("--select", "third-card.banker"), {"BAC-DRAW-BANKER-ILLEGAL", "BAC-DRAW-BANKER-MISSING"}),
    (("--select", "settlement.wrong-amount,wager.late"), {"BAC-SETTLE-AMOUNT", "BAC-WAGER-LATE"}),
    (("--select", "third-card", "--ignore", "third-card.player.*"),
     {"BAC-DRAW-BANKER-ILLEGAL", "BAC-DRAW-BANKER-MISSING"}),
    (("--ignore", "BAC-DRAW", "--ignore", "wager.*"), {"BAC-SETTLE-AMOUNT"}),
])
def test_select_and_ignore_name_rules_by_id_or_category(tmp_path, monkeypatch, args, expected):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    assert rules_found(*args) == expected


def test_a_run_limited_to_some_rules_reports_and_fails_on_those_only(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = run("check", "night-shift.json", "--select", "curator", "-f", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["findings"] == []
    junit = run("check", "night-shift.json", "--select", "BAC-WAGER-LATE", "-f", "junit").stdout
    cases = re.findall(r'<testcase name="([^"]+)"', junit)
    assert cases == ["BAC-TRANSCRIPT", "BAC-WAGER-LATE"]  # the rules not applied are not reported as passing


def test_unreadable_coups_are_reported_whatever_is_selected(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "broken.json", with_unreadable_coup(clean_doc(3), 2))
    r = run("check", "broken.json", "--select", "BAC-WAGER-LATE", "--ignore", "transcript", "-f", "json")
    assert [f["category"] for f in json.loads(r.stdout)["findings"]] == ["transcript.unreadable"]


@pytest.mark.parametrize("args, message", [
    (("--select", "BAC-WAGER-LAET"), "--select BAC-WAGER-LAET: no rule id or category of the rulesets is named so; "
                                     "did you mean BAC-WAGER-LATE?"),
    (("--ignore", "setlement"), "--ignore setlement: no rule id or category of the rulesets is named so; "
                                "did you mean settlement?"),
])
def test_a_selector_that_names_nothing_is_an_error_with_the_nearest_name(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = run("check", "night-shift.json", *args)
    assert r.exit_code == 2 and r.stderr.strip() == f"baccarat-audit: {message}"


def test_select_and_ignore_in_the_configuration(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / ".baccarat-audit.yaml").write_text("select: [third-card]\nignore: BAC-DRAW-PLAYER-MISSING\n")
    assert rules_found() == {"BAC-DRAW-BANKER-ILLEGAL", "BAC-DRAW-BANKER-MISSING"}
    assert rules_found("--select", "BAC-WAGER-LATE") == {"BAC-WAGER-LATE"}  # the flag wins


def test_the_same_selection_on_several_processes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    sample_into(tmp_path, "again.json")
    one = run("check", ".", "-j", "1", "--select", "BAC-DRAW", "-f", "json", "--timestamp", "0").stdout
    two = run("check", ".", "-j", "2", "--select", "BAC-DRAW", "-f", "json", "--timestamp", "0").stdout
    assert one == two and json.loads(one)["counts"]["findings"] == 8  # 4 draws in each copy of the sample


@given(st.sampled_from(sorted(CATEGORIES)))
def test_a_category_selects_itself_and_what_is_under_it_only(category):
    s = Selection(select=(category,))
    assert s.applies("ANY-RULE", category)
    assert all(s.applies("ANY-RULE", c) == (c == category or c.startswith(category + ".")
                                            or c == "transcript.unreadable") for c in CATEGORIES)


# ------------------------------------------------------------------ choosing rules never changes another's verdict


def _reported(path, selection: Selection = Selection(), ruleset: str | None = None, require=frozenset()) -> list[dict]:
    """The findings a run reports on ``path`` with ``selection``: the engine and the report, as `check` uses them."""
    from compliance.engine import Checker
    from compliance.report.model import Report

    result = Checker(ruleset=ruleset, selection=selection, require_evidence=require).check_file(path, path.name)
    return [f.as_dict() for f in Report([result], selection=selection).findings]


def _alone_finds_what_it_finds_among_all(path, rule: str, full: list[dict], ruleset: str | None = None,
                                         require=frozenset()) -> None:
    alone = _reported(path, Selection(select=(rule,)), ruleset, require)
    assert [f for f in alone if f["rule"] != rule and f["category"] != "transcript.unreadable"] == []
    assert [f for f in alone if f["rule"] == rule] == [f for f in full if f["rule"] == rule], rule


def _each_rule_alone_finds_what_it_finds_among_all(path, rules, ruleset: str | None = None,
                                                   require=frozenset()) -> int:
    full = _reported(path, ruleset=ruleset, require=require)
    for rule in rules:
        _alone_finds_what_it_finds_among_all(path, rule, full, ruleset, require)
    return len(full)


def _ruleset_rules(path, ruleset: str | None = None) -> list[str]:
    from compliance.engine import Checker

    return [r.id for r in Checker(ruleset=ruleset).check_file(path, path.name).ruleset.rules]


def test_every_rule_selected_alone_finds_on_the_sample_what_it_finds_among_all(tmp_path):
    path = sample_into(tmp_path)
    assert _each_rule_alone_finds_what_it_finds_among_all(path, _ruleset_rules(path)) == 6


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """A simulated night with every breach the simulator can make, whole shoes and the run included."""
    from compliance.games.baccarat.simulate import RUN_WAYS, Simulator, injectable, write_transcript
    from compliance.ruleset.loader import load_ruleset

    rules = load_ruleset("au-nsw")  # the ruleset whose rules the simulator can break in the most ways
    probe = Simulator(rules, coups=1, seed=4, irregularities=0.02)
    inject = dict.fromkeys(injectable(probe.procedure, None, True, probe.game), 0.02) | dict.fromkeys(
        (c for c in RUN_WAYS if probe.procedure.reports(c, None)), 0.2)  # the run's spoils its rules report
    sim = Simulator(rules, coups=400, seed=4, inject=inject, irregularities=0.02)
    path = tmp_path_factory.mktemp("night") / "night.jsonl"
    with open(path, "wb") as f:
        write_transcript(sim, f, "jsonl")
    return path


@pytest.fixture(scope="module")
def night_findings(night) -> list[dict]:
    return _reported(night)


def test_the_simulated_night_holds_every_kind_of_breach(night, night_findings):
    rules = {f["rule"] for f in night_findings}
    assert {"BAC-SETTLE-DRIFT", "BAC-SETTLE-AMOUNT", "BAC-CALLS", "BAC-WAGER-LATE"} <= rules
    assert set(_ruleset_rules(night)) == set(_NIGHT_RULES)  # each rule of the night's ruleset is tried below


def _rule_ids(ruleset: str) -> list[str]:
    from compliance.ruleset.loader import load_ruleset

    return [r.id for r in load_ruleset(ruleset).rules]


_NIGHT_RULES = _rule_ids("au-nsw")


@pytest.mark.parametrize("rule", _NIGHT_RULES)  # one case a rule, so that the cases spread over the workers
def test_every_rule_selected_alone_finds_on_a_simulated_night_what_it_finds_among_all(night, night_findings, rule):
    _alone_finds_what_it_finds_among_all(night, rule, night_findings)


def test_the_drift_of_a_table_survives_any_choice_of_rules(night, tmp_path, monkeypatch):
    """The settlement drift rests on the wrong settlements: selecting the integrity rules, or leaving out the
    rule that reports each wrong settlement, on the command line or in the configuration, keeps it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "night.jsonl").write_bytes(night.read_bytes())

    def drift(*args: str) -> list[dict]:
        out = run("check", "night.jsonl", "-f", "json", *args)
        return [f for f in json.loads(out.stdout)["findings"] if f["rule"] == "BAC-SETTLE-DRIFT"]

    every = drift()
    assert every
    assert drift("--select", "integrity") == every
    assert drift("--select", "BAC-SETTLE-DRIFT") == every
    assert drift("--ignore", "BAC-SETTLE-AMOUNT") == every
    (tmp_path / ".baccarat-audit.yaml").write_text("ignore: [BAC-SETTLE-AMOUNT, settlement]\n", encoding="utf-8")
    assert drift() == every


def _rule_tests():
    """(transcript, sidecar) of every rule test that names the rules it is about (fires, known gaps, silent)."""
    from pathlib import Path

    from compliance.ruletests import read_sidecar

    root = Path(__file__).resolve().parent.parent / "fixtures" / "rules"
    for sidecar in sorted(root.rglob("*.expected.yaml")):
        side = read_sidecar(sidecar)
        if not (side.fires or side.known_gaps or isinstance(side.silent, list)):
            continue  # silent: all, and nothing that fires: the sample and the night cover every rule alone
        for suffix in (".json", ".jsonl", ".md"):
            path = sidecar.with_name(sidecar.name.removesuffix(".expected.yaml") + suffix)
            if path.exists():
                yield path, sidecar


@pytest.mark.parametrize("path, sidecar", list(_rule_tests()), ids=lambda p: p.parent.name + "/" + p.name)
def test_every_rule_a_rule_test_is_about_finds_alone_what_it_finds_among_all(path, sidecar):
    from compliance.ruletests import read_sidecar

    side = read_sidecar(sidecar)
    ruleset = None
    if side.ruleset is not None:
        ref = sidecar.parent / side.ruleset
        ruleset = str(ref) if ref.exists() else side.ruleset
    rules = sorted({e.rule for e in side.fires + side.known_gaps}
                   | (set(side.silent) if isinstance(side.silent, list) else set()))
    _each_rule_alone_finds_what_it_finds_among_all(path, rules, ruleset, frozenset(side.require_evidence))
