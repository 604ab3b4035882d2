"""Bad input (spec: "Vendor extensions", "How a coup is read"; category transcript.unreadable).

Each broken input gives one clear message naming the file and the line or the
JSON path, and the right exit status, never a traceback.  A broken coup
becomes a transcript.unreadable finding and never hides the coups after it.
"""

from __future__ import annotations

import copy
import json

import pytest
from builders import coup, dumps, jsonl, transcript
from command import audit

# Coup 3 always carries a real breach: the Banker drew on 6 against a 3.
BANKER_DREW_ON_SIX = (["KD", "4D", "3S"], ["KS", "6C", "8D"])


def _doc() -> dict:
    return transcript([
        coup(1, ["4H", "TD", "3S"], ["KS", "6C"], [(1, "player", 100), (2, "banker", 200)]),
        coup(2, ["9H", "KH"], ["2C", "3C"], [(1, "player", 100)]),
        coup(3, *BANKER_DREW_ON_SIX, [(1, "player", 100)]),
    ])


def run(tmp_path, text: str, name: str = "night.json", *args: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return audit("check", name, "--format", "json", *args, cwd=tmp_path)


def findings(r) -> list[dict]:
    return json.loads(r.stdout)["findings"]


def altered(change) -> dict:
    doc = copy.deepcopy(_doc())
    change(doc)
    return doc


def _set(path: str, value):
    """A change that sets doc[...path...] = value (path: dotted keys and indexes)."""
    def change(doc):
        keys = [int(k) if k.isdigit() else k for k in path.split(".")]
        target = doc
        for k in keys[:-1]:
            target = target[k]
        target[keys[-1]] = value
    return change


# --------------------------------------------------------------- one coup broken: a finding, the rest still checked

COUP_CASES = {
    "wrong type": (_set("coups.1.events.0.seat", "1"), "got `str` - at `$.coups[1].events[0].seat`"),
    "unknown key": (_set("coups.1.events.0.amout", 5), "unknown field `amout` - at `$.coups[1].events[0]`"),
    "bad card code": (_set("coups.1.events.4.card", "1H"),
                      "bad card code '1H': expected rank (A 2-9 T J Q K) then suit (S H D C) - at `$.coups[1].events[4].card`"),
    "unknown event type": (_set("coups.1.events.3.type", "shuffle"), "Invalid value 'shuffle' - at `$.coups[1].events[3].type`"),
    "missing field": (lambda d: d["coups"][1]["events"][4].pop("to"), "missing required field `to` - at `$.coups[1].events[4]`"),
    "unknown shoe": (_set("coups.1.shoe", "S9"), "shoe 'S9' is not among the header's shoes (S1)"),
    "duplicate coup number": (_set("coups.1.coup", 1), "coup number 1 repeats the coup at line"),
    "decreasing coup number": (_set("coups.1.coup", 0), "coup number 0 comes after coup 1"),
    "negative amount": (_set("coups.1.events.0.amount", -100), "`amount` must be >= 0"),
}


@pytest.mark.parametrize("case", COUP_CASES)
def test_a_broken_coup_is_one_finding_and_the_others_are_still_checked(tmp_path, case):
    change, message = COUP_CASES[case]
    r = run(tmp_path, dumps(altered(change)))
    assert r.returncode == 1, r.stderr
    found = findings(r)
    unreadable = [f for f in found if f["category"] == "transcript.unreadable"]
    assert len(unreadable) == 1
    (f,) = unreadable
    assert message in f["message"]
    assert f["message"].startswith("coup cannot be read (night.json:")
    assert f["transcript"] == "night.json" and f["line"] > 1
    expected_number = 1 if case == "duplicate coup number" else 0 if case == "decreasing coup number" else 2
    assert f["coup"] == expected_number
    # the coup after it is still checked
    assert [(g["coup"], g["rule"]) for g in found if g is not f] == [(3, "BAC-DRAW-BANKER-ILLEGAL")]


def test_vendor_keys_are_ignored_everywhere(tmp_path):
    def vendor(doc):
        doc["x-exported-by"] = "TMS 4.2"
        doc["table"]["x-pit"] = {"boss": "R. Chan"}
        doc["shoes"][0]["x-seal"] = "A-1"
        doc["coups"][0]["x-camera"] = [1, 2]
        doc["coups"][0]["events"][0]["x-chip-colour"] = "purple"
        doc["coups"][0]["events"][0]["amount"] = 100.10  # exact through the vendor path too
        doc["coups"][0]["events"][-2]["amount"] = 100.10
    r = run(tmp_path, dumps(altered(vendor)))
    assert [(f["coup"], f["rule"]) for f in findings(r)] == [(3, "BAC-DRAW-BANKER-ILLEGAL")]
    assert r.returncode == 1


def test_a_broken_line_in_the_middle_of_a_jsonl_file(tmp_path):
    lines = jsonl(_doc()).splitlines(keepends=True)
    lines[2] = lines[2][:40] + "\n"  # coup 2, cut short
    r = run(tmp_path, "".join(lines), "night.jsonl")
    assert r.returncode == 1
    found = findings(r)
    assert [(f["coup"], f["category"], f["line"]) for f in found] == [
        (2, "transcript.unreadable", 3), (3, "third-card.banker.illegal", 4)]
    assert "coup cannot be read (night.jsonl:3): not valid JSON" in found[0]["message"]


def test_jsonl_blank_lines_and_a_bom_are_accepted(tmp_path):
    lines = jsonl(_doc()).splitlines(keepends=True)
    text = "\ufeff" + lines[0] + "\n" + "".join(lines[1:3]) + "   \n" + lines[3]
    r = run(tmp_path, text, "night.jsonl")
    assert [(f["coup"], f["rule"], f["line"]) for f in findings(r)] == [(3, "BAC-DRAW-BANKER-ILLEGAL", 6)]


# --------------------------------------------------------------- the file as a whole: one message, exit 2

FILE_CASES = {
    "truncated JSON": (lambda: dumps(_doc())[:700], "night.json", "night.json: not valid JSON: Input data was truncated at line"),
    "not JSON at all": (lambda: "coup 1: banker wins\n", "night.json", "night.json: not valid JSON: "),
    "a JSON array": (lambda: "[]", "night.json", "night.json: a transcript must be a JSON object"),
    "no coups": (lambda: json.dumps({k: v for k, v in _doc().items() if k != "coups"}), "night.json",
                 "night.json: object missing required field `coups` - at `$`"),
    "wrong type in the header": (lambda: dumps(altered(_set("table.seats", "7"))), "night.json",
                                 "night.json:8:12: header: Expected `int`, got `str` - at `$.table.seats`"),
    "unknown key in the header": (lambda: dumps(altered(_set("table.jurisdicton", "nz"))), "night.json",
                                  "night.json:14:3: header: Object contains unknown field `jurisdicton` - at "
                                  "`$.table`; "
                                  "did you mean `jurisdiction`?"),
    "wrong format": (lambda: dumps(altered(_set("version", 2))), "night.json",
                     "night.json:3:13: header: Invalid enum value 2 - at `$.version`"),
    "bad jsonl header": (lambda: '{"format": "baccarat-transcript", "version": 1,\n', "night.jsonl",
                         "night.jsonl:1: header is not valid JSON: "),
    "empty jsonl": (lambda: "\n\n", "night.jsonl", "night.jsonl: empty transcript: line 1 must be the header"),
    "not a transcript's extension": (lambda: "{}", "night.txt",
                                     "night.txt: not a transcript: give a .json or .jsonl transcript"),
    "unknown ruleset": (lambda: dumps(altered(_set("table.jurisdiction", "mars"))), "night.json", "mars"),
}


@pytest.mark.parametrize("case", FILE_CASES)
def test_a_file_that_cannot_be_checked_gives_one_message_and_exit_2(tmp_path, case):
    text, name, message = FILE_CASES[case]
    r = run(tmp_path, text(), name)
    assert r.returncode == 2, (r.stdout, r.stderr)
    (line,) = [x for x in r.stderr.splitlines() if x.startswith("baccarat-audit: ")]
    assert message in line
    assert json.loads(r.stdout)["errors"] == [line.removeprefix("baccarat-audit: ")]


def test_no_such_file(tmp_path):
    r = audit("check", "absent.json", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip() == "baccarat-audit: absent.json: no such file or directory"
    assert "Traceback" not in r.stderr


def test_a_broken_file_does_not_stop_the_others(tmp_path):
    (tmp_path / "good.json").write_text(dumps(_doc()))
    (tmp_path / "bad.json").write_text("{")
    r = audit("check", "bad.json", "good.json", "--format", "json", cwd=tmp_path)
    assert r.returncode == 2  # the run could not be done in full
    report = json.loads(r.stdout)
    assert [(f["transcript"], f["coup"], f["rule"]) for f in report["findings"]] == [
        ("good.json", 3, "BAC-DRAW-BANKER-ILLEGAL")]
    assert "bad.json: not valid JSON" in r.stderr


def test_a_key_that_looks_like_terminal_markup_is_shown_as_written(tmp_path):
    """Messages quote the transcript: '[/bold]' in a key must not be taken for rich markup (it crashed the table)."""
    from compliance.engine import Checker
    from compliance.report import text
    from compliance.report.model import Report

    path = tmp_path / "night.json"
    path.write_text(dumps(altered(_set("coups.1.events.0.[/bold]", 1))))
    result = Checker().check_file(path, "night.json")
    shown = text.render_rich(Report([result]), width=200)
    assert "unknown field `[/bold]`" in shown


@pytest.mark.parametrize("name", ["night.json", "night.jsonl"])
def test_a_finding_points_at_the_line_and_column_of_its_event(tmp_path, name):
    text = dumps(_doc()) if name.endswith(".json") else jsonl(_doc())
    r = run(tmp_path, text, name)
    (f,) = findings(r)
    lines = text.splitlines()
    line = lines[f["line"] - 1]
    assert line[f["column"] - 1:].startswith('{"type":"card","card":"8D"' if name.endswith("l") else "{"), line
    if name.endswith(".json"):
        assert '"card": "8D"' in "".join(lines[f["line"] - 1:f["line"] + 3])


def test_the_spec_header_example_is_read_as_it_stands(tmp_path):
    """The spec's header example names table.casino: a field of the format, shown in reports only."""
    doc = _doc()
    doc["table"].update({"casino": "Harbour Casino", "seat_order": [1, 2, 3, 4, 5, 6, 7]})
    r = run(tmp_path, dumps(doc))
    assert r.returncode == 1, r.stderr  # coup 3's breach, nothing about the header
    assert [(f["coup"], f["category"]) for f in findings(r)] == [(3, "third-card.banker.illegal")]


# --------------------------------------------------------------- header errors: where, and the nearest name


def test_a_header_error_gives_its_line_and_column_in_a_json_document(tmp_path):
    doc = altered(_set("table.jurisdicton", "nz"))
    text = dumps(doc)  # one space a level
    r = run(tmp_path, text)
    line = 1 + text[:text.index('"jurisdicton"')].count("\n")
    assert f"baccarat-audit: night.json:{line}:3: header: Object contains unknown field `jurisdicton` - at " \
           "`$.table`; did you mean `jurisdiction`?" in r.stderr.splitlines()
    wrong = altered(_set("table.seats", "7"))
    text = dumps(wrong)
    r = run(tmp_path, text)
    line = 1 + text[:text.index('"seats"')].count("\n")
    assert f"night.json:{line}:12: header: Expected `int`, got `str` - at `$.table.seats`" in r.stderr


def test_a_header_error_gives_its_column_on_the_first_line_of_a_jsonl_file(tmp_path):
    lines = jsonl(altered(_set("table.jurisdicton", "nz"))).splitlines(keepends=True)
    r = run(tmp_path, "".join(lines), "night.jsonl")
    column = lines[0].index('"jurisdicton"') + 1
    assert f"night.jsonl:1:{column}: header: Object contains unknown field `jurisdicton`" in r.stderr


def test_an_unknown_top_level_key_points_at_itself(tmp_path):
    doc = _doc()
    doc["formatt"] = "baccarat-transcript"
    text = dumps(doc)
    r = run(tmp_path, text)
    line = 1 + text[:text.index('"formatt"')].count("\n")
    assert f"night.json:{line}:2: header: Object contains unknown field `formatt`; did you mean `format`?" in r.stderr


def test_a_header_error_in_a_procedure_document_points_into_the_document(tmp_path):
    doc = altered(_set("table.jurisdicton", "nz"))
    block = dumps(doc).replace("\n", "\n ").rstrip()  # indented one space more, as in a list item
    (tmp_path / "manual.md").write_text("# Manual\n\n ```baccarat-transcript\n " + block + "\n ```\n")
    r = audit("check", "manual.md", cwd=tmp_path)
    line = 4 + block[:block.index('"jurisdicton"')].count("\n")
    assert f"manual.md:{line}:4: transcript block: header: Object contains unknown field `jurisdicton`" in r.stderr


def test_an_unknown_key_in_an_event_gets_the_nearest_key(tmp_path):
    r = run(tmp_path, dumps(altered(_set("coups.1.events.0.amout", 5))))
    (unreadable,) = [f for f in findings(r) if f["category"] == "transcript.unreadable"]
    assert "unknown field `amout` - at `$.coups[1].events[0]`; did you mean `amount`?" in unreadable["message"]


def test_an_unknown_ruleset_gets_the_nearest_id(tmp_path):
    (tmp_path / "night.json").write_text(dumps(_doc()))
    r = audit("check", "night.json", "--ruleset", "au-nws", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.splitlines() == ["baccarat-audit: no ruleset 'au-nws'; did you mean 'au-nsw'? (bundled rulesets: "
                                     "au-nsw, nz, punto-banco, us-in, us-in-pai-gow, us-nj, us-pa)"]  # said once
    r = run(tmp_path, dumps(altered(_set("table.jurisdiction", "us-jn"))))
    assert "table.jurisdiction: 'us-jn' is not a ruleset id; did you mean 'us-nj'?" in r.stderr


def test_a_jurisdiction_that_names_no_ruleset_is_said_where_the_header_names_it(tmp_path):
    """The file's line and column of table.jurisdiction, in a JSON document, a .jsonl header and a Markdown
    block (the document's line)."""
    doc = altered(_set("table.jurisdiction", "u-nsw"))
    text = dumps(doc)
    line = next(n for n, s in enumerate(text.splitlines(), 1) if '"jurisdiction"' in s)
    column = text.splitlines()[line - 1].index('"u-nsw"') + 1
    r = run(tmp_path, text)
    assert f"night.json:{line}:{column}: table.jurisdiction: 'u-nsw' is not a ruleset id" in r.stderr
    header = dumps({k: v for k, v in doc.items() if k != "coups"}).replace("\n", "")
    r = run(tmp_path, header + "\n", "night.jsonl")
    at = header.index('"u-nsw"') + 1
    assert f"night.jsonl:1:{at}: table.jurisdiction:" in r.stderr
    r = run(tmp_path, f"# Night\n\n```baccarat-transcript\n{text}\n```\n", "night.md")
    assert f"night.md:{line + 3}:{column}: table.jurisdiction:" in r.stderr
