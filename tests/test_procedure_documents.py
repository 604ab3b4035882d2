"""A procedure document carries its house's submission: its worked examples and its house tables are judged by it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from compliance.cli import app

DOCUMENT = Path(__file__).resolve().parent.parent / "fixtures" / "procedures" / "keystone-midibaccarat.md"
WRONG_ROW = "| banker | 1 | 5% |"


def check(path: Path) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["check", str(path), "-f", "json", "-j", "1", "--no-cache", "--isolated"])
    return result.exit_code, (json.loads(result.stdout) if result.stdout.strip().startswith("{") else result.output)


def test_a_payout_table_disagreeing_with_the_submission_is_one_finding_at_its_line():
    code, report = check(DOCUMENT)
    assert code == 1, report
    [finding] = report["findings"]
    line = DOCUMENT.read_text(encoding="utf-8").splitlines().index(WRONG_ROW) + 1
    assert (finding["rule"], finding["line"]) == ("DOC-HOUSE-TABLE", line)
    assert "banker commission 5%" in finding["message"] and "on 2021-01-15 gives 0" in finding["message"]
    assert "the submission of keystone-procedures" in finding["citation"]
    assert len(report["transcripts"]) == 2  # the two worked examples, judged by the submission


def test_the_document_with_its_table_corrected_is_clean(tmp_path):
    fixed = tmp_path / DOCUMENT.name
    fixed.write_text(DOCUMENT.read_text(encoding="utf-8").replace(WRONG_ROW, "| banker | 1 | none |"),
                     encoding="utf-8")
    code, report = check(fixed)
    assert code == 0, report
    assert report["findings"] == []


def test_the_worked_examples_are_judged_by_the_submission_not_the_jurisdiction(tmp_path):
    """Without the submission block the examples are judged by us-pa, which takes commission on Banker wins at
    Midibaccarat tables: the commission-free settlements of the examples are then findings."""
    text = DOCUMENT.read_text(encoding="utf-8")
    start = text.index("```baccarat-ruleset")
    plain = tmp_path / "plain.md"
    plain.write_text(text[:start] + text[text.index("```\n", start) + 4:], encoding="utf-8")
    code, report = check(plain)
    assert code == 1
    assert {f["rule"] for f in report["findings"]} == {"BAC-SETTLE-AMOUNT"}


def test_a_submission_selecting_an_option_the_jurisdiction_does_not_list_is_refused_at_its_line(tmp_path):
    text = DOCUMENT.read_text(encoding="utf-8").replace("option: commission_free_banker", "option: free_banker")
    bad = tmp_path / "bad.md"
    bad.write_text(text, encoding="utf-8")
    line = text.splitlines().index("  - option: free_banker") + 1
    code, report = check(bad)
    assert code == 2
    [error] = {e for e in report["errors"]}
    assert f"bad.md:{line}" in error and "'free_banker', which the ruleset it extends does not permit" in error


# ------------------------------------------------------------------ drawing tables

BANKER_ROWS = {  # the Banker's rows of the fixture's drawing table, as 58 Pa. Code § 629a.10 has them
    "0-2": "DDDDDDDDDD" + "D", "3": "DDDDDDDDSD" + "D", "4": "SSDDDDDDSS" + "D", "5": "SSSSDDDDSS" + "D",
    "6": "SSSSSSDDSS" + "S", "7": "SSSSSSSSSS" + "S",
}


def _row(total: str, letters: str) -> str:
    return f"| {total} | " + " | ".join(letters) + " |"


@pytest.fixture(scope="module")
def submission():
    from compliance.procedures import load_submission

    ruleset, _, day = load_submission(DOCUMENT, DOCUMENT.name)
    return ruleset, day


def _findings(text: str, submission):
    from compliance.procedures import table_findings

    ruleset, day = submission
    return table_findings(ruleset, day, text, "doc.md")


def test_the_fixture_states_its_drawing_tables_as_the_submission_has_them(submission):
    text = DOCUMENT.read_text(encoding="utf-8")
    assert all(_row(total, letters) in text for total, letters in BANKER_ROWS.items())
    assert [f.line for f in _findings(text, submission)] == [text.splitlines().index(WRONG_ROW) + 1]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(row=st.sampled_from(sorted(BANKER_ROWS)), column=st.integers(0, 10))
def test_one_wrong_cell_of_the_banker_drawing_table_is_one_finding_at_its_row(submission, row, column):
    """Any one decision of the Banker's table turned over (draw for stand, or stand for draw) is one
    DOC-HOUSE-TABLE finding, at its row's line, naming the case and what the submission has there."""
    text = DOCUMENT.read_text(encoding="utf-8").replace(WRONG_ROW, "| banker | 1 | none |")
    letters = BANKER_ROWS[row]
    flipped = letters[:column] + ("S" if letters[column] == "D" else "D") + letters[column + 1:]
    wrong = text.replace(_row(row, letters), _row(row, flipped))
    [finding] = _findings(wrong, submission)
    assert finding.rule == "DOC-HOUSE-TABLE" and finding.category == "procedure.house-table"
    assert finding.line == wrong.splitlines().index(_row(row, flipped)) + 1
    case = "when the Player's Hand stood" if column == 10 else f"against a Player third card of {column}"
    assert case in finding.message and "Banker's Hand" in finding.message
    assert finding.citation == "58 Pa. Code § 629a.10; the submission of keystone-procedures"


def test_a_wrong_player_drawing_rule_is_a_finding_at_its_line(submission):
    text = DOCUMENT.read_text(encoding="utf-8").replace(WRONG_ROW, "| banker | 1 | none |")
    wrong = text.replace("| 6-7 | stand |", "| 6-7 | draw |")
    [finding] = _findings(wrong, submission)
    assert finding.line == wrong.splitlines().index("| 6-7 | draw |") + 1
    assert "Player's Hand draws on 6 (the submission: stands); draws on 7" in finding.message


def test_a_marking_of_no_table_or_of_a_kind_no_game_compares_is_a_finding(submission):
    text = DOCUMENT.read_text(encoding="utf-8").replace(WRONG_ROW, "| banker | 1 | none |")
    marked = "<!-- baccarat-audit: house drawing-table game=midi_baccarat -->"
    lone = text.replace("## Worked example 1", marked + "\n\nNo table here.\n\n## Worked example 1", 1)
    [finding] = _findings(lone, submission)
    assert "no Markdown table with rows follows the marking" in finding.message
    odd = text.replace(marked, "<!-- baccarat-audit: house drawing-rules game=midi_baccarat -->", 1)
    [finding] = _findings(odd, submission)
    assert "'drawing-rules', which is no table a baccarat submission is compared with" in finding.message


def test_a_document_with_a_submission_but_no_worked_example_fails_the_run(tmp_path):
    """Its tables are judged with its worked examples: without one, nothing would judge them, so the run
    fails, named or found in a directory."""
    text = DOCUMENT.read_text(encoding="utf-8")
    (tmp_path / "rules-only.md").write_text(text[:text.index("## Worked example 1")], encoding="utf-8")
    for target in (tmp_path / "rules-only.md", tmp_path):
        code, report = check(target)
        assert code == 2
        assert any("rules-only.md: a procedure document with a submission and house tables but no" in e
                   for e in report["errors"])
