"""No string of the input can forge a line, a heading, a colour or a CI command in any report.

The worst strings (ESC sequences that clear the screen, CR and LF followed
by a forged GitHub ``::error`` command and a forged "0 findings" summary,
the bidirectional override U+202E, other control and format characters,
raw HTML, an HTML comment, Markdown table pipes, backticks, emphasis, links,
mentions and headings) are put in every field a report prints: the file
name, the table id, a patron id, an unknown key the message quotes, a
waiver's id, justification and approver, the ruleset's title and version,
and an input that cannot be read.  Then every format is read back:

* text, rich, Markdown, JUnit and HTML hold no control or format character
  but their own (line feeds between lines; rich's colour codes), so no line,
  heading or table cell is forged;
* JSON and SARIF hold the exact strings, with those characters escaped, so
  the data is unchanged and the file is safe to print.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from reporting import STAMP, run, sample_doc, write

from compliance.context import RunContext
from compliance.printable import UNSAFE, json_safe, printable

WORST = ("\x1b[2J\x1b[H\r\n::error file=x.json,line=1::forged\r\nchecked 1 transcript, 0 coups, 0 findings"
         "\u202egnp.exe\u2066 <!-- |`*_[x](javascript:y) @team # <script>alert(1)</script>\u200b\x85\u2028\x07\x9b")
NAME = WORST.replace("/", "").replace("\\", "")[:120] + ".json"  # a file may be named so (no / in a name)


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("forged")
    doc = sample_doc()
    doc["table"]["id"] = WORST
    doc["coups"][5]["seated"]["2"] = WORST
    doc["coups"][1]["events"][0][WORST] = 1  # an unknown key: the unreadable coup's message quotes it
    write(d / NAME, doc)
    broken = sample_doc()
    broken["table"][WORST] = 1  # a header that cannot be read: the run's errors quote it
    write(d / ("broken" + NAME), broken)
    esc = json.dumps(WORST)  # a YAML double-quoted string takes the same escapes
    (d / "house.yaml").write_text(f"id: house\ntitle: {esc}\nversion: {esc}\nextends: us-nj\n")
    (d / "w.yaml").write_text(
        f"waivers:\n  - {{id: {esc}, rule: BAC-WAGER-LATE, justification: {esc}, approved_by: {esc}, "
        f"expires: 2099-01-01}}\n  - {{id: {json.dumps(WORST + 'unused')}, rule: BAC-CALLS, justification: x, "
        f"approved_by: y, expires: 2099-01-01}}\n")
    formats = ("text", "json", "sarif", "junit", "markdown", "html")
    import os

    old = os.getcwd()
    os.chdir(d)
    try:
        r = run("check", NAME, "broken" + NAME, "--ruleset", "house.yaml", "--waivers", "w.yaml",
                "--timestamp", STAMP, *[a for f in formats for a in ("-o", f"{f}=report.{f}")])
        assert r.exit_code == 2, r.stderr  # the broken file
        out = {f: (d / f"report.{f}").read_text(encoding="utf-8") for f in formats}
        out["stderr"] = r.stderr
        import datetime as dt

        from compliance._internal import driver
        from compliance._internal.inputs import collect
        from compliance.report import text
        from compliance.report.model import Report
        from compliance.waivers import load

        inputs = collect([NAME], print)
        results = driver.run(inputs, RunContext(ruleset="house.yaml", keep_states=True, keep_coups=True),
                             on_error=print)
        out["rich"] = text.render_rich(Report(results, waivers=load("w.yaml", dt.date(2026, 11, 29))), width=200)
    finally:
        os.chdir(old)
    return out


def _foreign(text: str, allowed: str = "\n") -> list[str]:
    """The control and format characters in ``text`` other than ``allowed``."""
    return sorted({c for c in UNSAFE.findall(text) if c not in allowed})


@pytest.mark.parametrize("fmt", ["text", "markdown", "junit", "html", "stderr"])
def test_no_control_or_format_character_of_the_input_reaches_a_readable_report(reports, fmt):
    assert _foreign(reports[fmt]) == [], fmt
    assert "\\x1b[2J" in reports[fmt] or "\\\\x1b[2J" in reports[fmt]  # shown, made visible


def test_rich_output_has_only_its_own_colour_codes(reports):
    own = re.sub(r"\x1b\[[0-9;]*m", "", reports["rich"])
    assert _foreign(own) == []
    assert "\\x1b[2J" in own and "\\u202e" in own


def test_no_text_line_is_forged(reports):
    lines = reports["text"].splitlines()
    assert all(not line.startswith("::") for line in lines)
    assert [line for line in lines if line.startswith("checked ")] == [lines[-1]]
    assert lines[-1].startswith("checked 1 transcript, 6 coups, ")
    for line in lines[:-1]:
        assert line.startswith((printable(NAME), "note: ", "error: ", "ruleset ", "hold against theory: ")), line


def test_stderr_lines_are_not_forged_either(reports):
    for line in reports["stderr"].splitlines():
        assert line.startswith(("baccarat-audit: ", "checked ")), line


def _outside_code_spans(md: str) -> str:
    """The Markdown text less its code spans (where HTML, mentions and markup are shown as they are)."""
    out, i = [], 0
    for m in re.finditer(r"`+", md):
        if m.start() < i:
            continue
        close = re.compile(r"(?<!`)" + m.group() + r"(?!`)").search(md, m.end())
        if close and "\n" not in md[m.end():close.start()]:
            out.append(md[i:m.start()])
            i = close.end()
    return "".join(out) + md[i:]


def test_the_markdown_report_keeps_its_structure(reports):
    md = reports["markdown"]
    assert "<!--" in md  # in a file name shown as code, where it is only text
    headings = [line for line in md.splitlines() if line.startswith("#")]
    assert headings == ["### baccarat-audit: ❌ fails", "#### Money (USD)", "#### Hold against theory", "#### Findings",
                        "#### Notes"]
    prose = _outside_code_spans(md)
    tags = set(re.findall(r"</?[a-z]+[^>]*>", prose))
    assert tags <= {"<details>", "</details>", "<summary>", "</summary>", "<br>", "<sub>", "</sub>"}
    assert "<!--" not in prose and "<script>" not in prose and "&lt;script&gt;" in prose
    assert "@team" not in prose.replace("\\@team", "")
    for table in re.findall(r"((?:^\|.*\n)+)", md, re.MULTILINE):
        rows = table.splitlines()
        widths = {len(re.findall(r"(?<!\\)\|", row)) for row in rows}
        assert len(widths) == 1, rows  # no cell shifted the columns


def test_junit_messages_are_one_safe_line(reports):
    root = ET.fromstring(reports["junit"].encode())
    for el in root.iter():
        for value in el.attrib.values():
            assert _foreign(value, "") == [] and "\n" not in value
        if el.text:
            assert _foreign(el.text) == []


def test_html_escapes_and_shows_every_hidden_character(reports):
    html = reports["html"]
    assert html.count("<script") == 2  # the page's own data and script, no other: the data writes every < escaped
    assert "<!-- |" not in html and "\u202e" not in html
    assert "\\u202e" in html


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_reports_keep_the_exact_strings_escaped(reports, fmt):
    raw = reports[fmt]
    assert _foreign(raw) == []  # U+202E, U+2028, U+0085 ... written as \\u escapes
    assert json_safe(raw) == raw
    doc = json.loads(raw)
    if fmt == "json":
        assert doc["transcripts"][0]["table"] == WORST
        assert doc["waived"][0]["waiver"]["justification"] == WORST
    else:
        assert any(r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"].startswith(WORST)
                   for r in doc["runs"][0]["results"])


def test_the_list_of_characters_covers_the_unicode_categories():
    missing = [f"U+{cp:04X}" for cp in range(sys.maxunicode + 1)
               if unicodedata.category(chr(cp)) in ("Cc", "Cf", "Zl", "Zp", "Cs") and not UNSAFE.match(chr(cp))]
    assert missing == []
    assert printable("tab\there") == "tab\\there" and printable("a\u202eb") == "a\\u202eb"
    assert printable("plain, unchanged: é ♠ 🂡") == "plain, unchanged: é ♠ 🂡"


def test_a_file_name_cannot_start_a_workflow_command(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name = "::error file=a,line=1::forged.json"
    write(tmp_path / name, sample_doc())
    lines = run("check", name).stdout.splitlines()
    assert lines[0].startswith("./::error file=a,line=1::forged.json:")
    assert not [line for line in lines if line.startswith("::")]
    assert Path(name).exists()
