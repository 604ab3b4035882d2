"""A procedure document carries its house's submission: its worked examples and its house tables are judged by it."""

from __future__ import annotations

import json
from pathlib import Path

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
