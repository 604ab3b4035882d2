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
