"""A waiver waives what it says, and a waivers file that says two things is refused.

* ``transcript: "dir/table[7].json"`` is the file of that name, and, as a
  glob, also ``dir/table7.json`` (documented); ``[[]`` matches ``[`` alone;
* ``coup: 3`` with ``coups: [5]`` silently dropped coup 3: it is now a
  malformed waiver (reported, waives nothing);
* two waivers with one id hid an unused one: the file is now refused, exit 2.
"""

from __future__ import annotations

import json
import shutil

from reporting import SAMPLE, run

WAIVE = "    rule: BAC-WAGER-LATE\n    justification: accepted by the pit boss\n    approved_by: M. Okafor\n" \
        "    expires: 2099-01-01\n"


def _check(tmp_path, monkeypatch, waivers: str, *names: str) -> dict:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dir").mkdir(exist_ok=True)
    for name in names:
        shutil.copyfile(SAMPLE, tmp_path / name)
    (tmp_path / "w.yaml").write_text(waivers)
    r = run("check", *names, "--waivers", "w.yaml", "-f", "json")
    return json.loads(r.stdout) if r.exit_code != 2 else {"exit": 2, "stderr": r.stderr}


def test_a_transcript_name_with_brackets_waives_that_file(tmp_path, monkeypatch):
    out = _check(tmp_path, monkeypatch, 'waivers:\n  - transcript: "dir/table[7].json"\n' + WAIVE,
                 "dir/table[7].json", "dir/table8.json")
    assert [f["transcript"] for f in out["waived"]] == ["dir/table[7].json"]
    assert "dir/table8.json" in {f["transcript"] for f in out["findings"]}


def test_brackets_are_a_glob_too_as_documented_and_can_be_escaped(tmp_path, monkeypatch):
    out = _check(tmp_path, monkeypatch, 'waivers:\n  - transcript: "dir/table[7].json"\n' + WAIVE,
                 "dir/table7.json")
    assert [f["transcript"] for f in out["waived"]] == ["dir/table7.json"]
    escaped = _check(tmp_path, monkeypatch, 'waivers:\n  - transcript: "dir/table[[]7].json"\n' + WAIVE,
                     "dir/table7.json", "dir/table[7].json")
    assert [f["transcript"] for f in escaped["waived"]] == ["dir/table[7].json"]


def test_coup_and_coups_together_are_a_malformed_waiver(tmp_path, monkeypatch):
    out = _check(tmp_path, monkeypatch, "waivers:\n  - id: W-1\n    coup: 6\n    coups: [5]\n" + WAIVE,
                 "night.json")
    assert out["waived"] == [] and "BAC-WAGER-LATE" in {f["rule"] for f in out["findings"]}
    (rejected,) = out["waivers"]["not_applied"]
    assert rejected["id"] == "W-1" and "give `coup` or `coups`, not both" in rejected["reason"]


def test_two_waivers_with_one_id_stop_the_run(tmp_path, monkeypatch):
    out = _check(tmp_path, monkeypatch, "waivers:\n  - id: W-1\n" + WAIVE + "  - id: W-1\n    coup: 99\n" + WAIVE,
                 "night.json")
    assert out["exit"] == 2
    assert "w.yaml:7:1: two waivers have the id 'W-1' (lines 2 and 7)" in out["stderr"]
