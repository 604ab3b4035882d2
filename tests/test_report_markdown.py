"""The Markdown report, for a pull request comment: status, counts, a findings table, waived findings folded."""

from __future__ import annotations

from reporting import STAMP, clean_doc, run, sample_into, write
from test_report_html import _long_night

from compliance.report import markdown


def test_the_comment_shows_status_counts_and_findings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "w.yaml").write_text("- {rule: BAC-WAGER-LATE, justification: 'pit boss | accepted', "
                                     "approved_by: M. Okafor, expires: 2030-01-01}\n")
    r = run("check", "night-shift.json", "-f", "markdown", "--waivers", "w.yaml", "--timestamp", STAMP)
    lines = r.stdout.splitlines()
    assert lines[0] == "### baccarat-audit: ❌ fails"
    assert "| `night-shift.json` | BAC-07 | us-nj" in r.stdout
    rows = [line for line in lines if line.startswith("| 🔴 error |")]
    assert len(rows) == 5
    assert rows[0].startswith("| 🔴 error | `night-shift.json:241` | 3 | `BAC-DRAW-BANKER-ILLEGAL`")
    assert rows[0].endswith("| N.J.A.C. 13:69F-3.9 |")
    assert "<details><summary>1 waived</summary>" in r.stdout
    assert "| waived (#1) | `night-shift.json:453` | 6 |" in r.stdout


def test_a_clean_run_is_one_short_comment(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "clean.json", clean_doc())
    r = run("check", "clean.json", "-f", "markdown", "--timestamp", STAMP)
    assert r.stdout.startswith("### baccarat-audit: ✅ compliant\n\nchecked 1 transcript, 2 coups, 0 findings.")
    assert "#### Findings" not in r.stdout


def test_long_tables_are_cut_to_fit_a_comment(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(markdown, "MAX_ROWS", 2)
    sample_into(tmp_path)
    r = run("check", "night-shift.json", "-f", "markdown")
    assert len([line for line in r.stdout.splitlines() if line.startswith("| 🔴 error |")]) == 2
    assert "… and 4 more (see the full report)." in r.stdout


def test_table_cells_escape_pipes():
    assert markdown._cell("a | b\nc") == "a \\| b\\\\nc"  # the line break shown as \n, never made


def test_the_money_of_a_long_recording_is_shown_by_the_day_month_or_year_as_the_report_folds_its_hours(
        tmp_path, monkeypatch):
    """Coups half an hour apart over thirty days: hundreds of hours with money, shown as 31 days."""
    monkeypatch.chdir(tmp_path)
    _long_night(tmp_path, 1_440)
    r = run("check", ".", "-j", "1", "-f", "markdown", "--timestamp", STAMP, "--ignore", "integrity.*")
    rows = [line.split(" | ") for line in r.stdout.splitlines() if line.startswith("| day | ")]
    assert [row[1] for row in rows[:2]] == ["2026-11-29 (UTC)", "2026-11-30 (UTC)"] and len(rows) == 31
    assert not [line for line in r.stdout.splitlines() if line.startswith("| hour | ")]
    assert sum(int(row[2].replace(",", "")) for row in rows) == sum(
        int(line.split(" | ")[2].replace(",", "")) for line in r.stdout.splitlines() if line.startswith("| table | "))
