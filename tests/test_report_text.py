"""The terminal report: plain lines for logs and editors, rich tables on a terminal, one summary line."""

from __future__ import annotations

from collections import Counter

from reporting import STAMP, clean_doc, run, sample_into, write

from compliance.context import RunContext
from compliance.report import text
from compliance.report.model import Report
from compliance.ruleset.loader import load_ruleset


def test_plain_lines_point_at_file_line_and_column(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = run("check", "night-shift.json")
    lines = r.stdout.splitlines()
    assert r.exit_code == 1
    assert lines[0].startswith("night-shift.json:241:5: error BAC-DRAW-BANKER-ILLEGAL [third-card.banker.illegal] "
                               "coup 3 event 9: Banker drew 8D on 7")
    assert lines[0].endswith("(N.J.A.C. 13:69F-3.9)")
    assert lines[-1] == ("checked 1 transcript, 6 coups, 6 findings: 6 error; "
                         "net 50 USD paid to patrons beyond what was due")
    assert "\x1b[" not in r.stdout  # NO_COLOR / not a terminal: no escape codes


def test_a_clean_transcript_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "clean.json", clean_doc(3))
    r = run("check", "clean.json")
    assert r.exit_code == 0
    nj = load_ruleset("us-nj")  # the report names the ruleset it judged by, and its content hash
    hold, *rest = r.stdout.splitlines()  # its hold against theory (BAC-HOLD) in one line, then the ruleset
    assert hold.startswith("hold against theory: 1 group, 0 outside the 95% band, 0 findings; table BAC-07 held ")
    assert rest == [f"ruleset us-nj {nj.version}, sha256 {nj.sha256}", "checked 1 transcript, 3 coups, 0 findings"]


def test_summary_line_counts_with_thousands_separators():
    class Result:  # the summary reads only these
        findings, coups = [], 0

    report = Report([])
    report.results = [Result()] * 3
    report.coups = 1204
    report.findings = [None] * 7
    report.by_severity = Counter(error=5, warning=2)
    assert report.summary_line() == "checked 3 transcripts, 1,204 coups, 7 findings: 5 error, 2 warning"


def test_rich_report_on_a_terminal(tmp_path, monkeypatch):
    from compliance._internal import driver
    from compliance._internal.inputs import collect

    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    inputs = collect(["night-shift.json"], on_error=print)
    results = driver.run(inputs, RunContext(), on_error=print)
    shown = text.render_rich(Report(results), width=160)
    assert "\x1b[" in shown  # styled
    assert "night-shift.json" in shown and "ruleset us-nj" in shown
    assert "BAC-WAGER-LATE" in shown and "N.J.A.C. 13:69F-3.7(b)" in shown
    assert "checked 1 transcript, 6 coups, 6 findings: 6 error" in shown


def test_summary_goes_to_stderr_when_the_report_is_not_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = run("check", "night-shift.json", "-f", "json", "--timestamp", STAMP)
    assert r.stderr.strip().splitlines()[-1] == ("checked 1 transcript, 6 coups, 6 findings: 6 error; "
                                                 "net 50 USD paid to patrons beyond what was due")


def test_waived_findings_are_shown_apart_in_both_renderings(tmp_path, monkeypatch):
    import datetime as dt

    from compliance import waivers
    from compliance._internal import driver
    from compliance._internal.inputs import collect

    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "w.yaml").write_text("- {rule: BAC-WAGER-LATE, justification: pit boss accepted it, "
                                     "approved_by: M. Okafor, expires: 2030-01-01}\n")
    plain = run("check", "night-shift.json", "--waivers", "w.yaml", "--timestamp", STAMP).stdout.splitlines()
    assert plain[-4].startswith("night-shift.json:453:5: waived error BAC-WAGER-LATE")
    assert plain[-4].endswith("[waiver #1]")
    inputs = collect(["night-shift.json"], on_error=print)
    results = driver.run(inputs, RunContext(), on_error=print)
    shown = text.render_rich(Report(results, waivers=waivers.load("w.yaml", dt.date(2026, 11, 29))), width=160)
    assert "waiver #1 (M. Okafor, until 2030-01-01): pit boss accepted it" in shown
    assert "5 findings: 5 error; 1 waived" in shown


def _rich_report(tmp_path, *names: str, ruleset: str | None = None) -> Report:
    from compliance._internal import driver
    from compliance._internal.inputs import collect

    inputs = collect(list(names), on_error=print)
    return Report(driver.run(inputs, RunContext(ruleset=ruleset), on_error=print))


def test_the_tables_take_the_terminals_width(tmp_path, monkeypatch):
    """80 columns (COLUMNS, or the terminal's own width): every line fits, none wraps past it."""
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    report = _rich_report(tmp_path, "night-shift.json")
    for columns in (80, 120, 200):
        monkeypatch.setenv("COLUMNS", str(columns))
        lines = text.render_rich(report).splitlines()
        plain = [__import__("re").sub(r"\x1b\[[0-9;]*m", "", line) for line in lines]
        assert max(len(line) for line in plain) == columns  # the panels span the terminal, no wider
    narrow = __import__("re").sub(r"\x1b\[[0-9;]*m", "", text.render_rich(report, width=80))
    assert "BAC-DRAW-BANKER-ILLEGAL" in narrow and "third-card.banker.illegal" in narrow  # never cut
    assert "N.J.A.C. 13:69F-3.9" in narrow  # the citation under the message, whole


def test_a_transcript_without_a_coup_is_warned_about(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "empty.json", {**clean_doc(), "coups": []})
    r = run("check", "empty.json")
    assert r.exit_code == 2  # nothing breaks a rule, but nothing was checked either: no verdict
    lines = r.stdout.splitlines()
    assert lines[0] == "warning: empty.json: holds no coup: nothing was checked"
    assert lines[-1] == "checked 1 transcript, 0 coups, 0 findings"
    r = run("check", "empty.json", "-f", "json")
    assert "baccarat-audit: warning: empty.json: holds no coup: nothing was checked" in r.stderr


def test_a_transcript_judged_under_another_jurisdiction_is_said_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)  # its header names us-nj
    sample_into(tmp_path, "again.json")
    r = run("check", "night-shift.json", "again.json", "--ruleset", "au-nsw")
    notes = [line for line in r.stdout.splitlines() if "judged under" in line]
    assert notes == [f"note: {name}: judged under the ruleset au-nsw chosen for the run, although its header names "
                     "the jurisdiction us-nj" for name in ("night-shift.json", "again.json")]
    (tmp_path / ".baccarat-audit.yaml").write_text("ruleset: nz\n")
    assert "judged under the ruleset nz" in run("check", "night-shift.json").stdout  # from the configuration too
    (tmp_path / ".baccarat-audit.yaml").write_text("ruleset: us-nj\n")
    assert "judged under" not in run("check", "night-shift.json").stdout  # the same jurisdiction: nothing to say
    (tmp_path / "house-nj.yaml").write_text("id: house-nj\ntitle: House\nversion: '1'\nextends: us-nj\n")
    assert "judged under" not in run("check", "night-shift.json", "-r", "house-nj.yaml").stdout  # a house of us-nj
