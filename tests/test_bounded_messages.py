"""Messages quote a bounded prefix of what they quote, and a compact one-line .json is read in one pass.

* An unknown key of two megabytes in each of a hundred coups made each report
  hold the whole key a hundred times (210 MB, 1 GB of memory): a message now
  quotes the first characters of a key (or a shoe, or a header key) and how
  long it is.
* A ``.json`` written on one line had the start of its line searched again
  for every coup: 20,000 coups took 20 s, 80,000 took 345 s.  The positions
  are now found in one pass over the text.
"""

from __future__ import annotations

import copy
import json
import re
import time

import pytest
from reporting import run, sample_doc

from compliance.reading.reader import MAX_QUOTED, open_transcript

HUGE = "k" * (1 << 20)


def _jsonl(doc: dict) -> str:
    head = {k: v for k, v in doc.items() if k != "coups"}
    return "".join(json.dumps(x) + "\n" for x in [head, *doc["coups"]])


@pytest.mark.slow
def test_huge_unknown_keys_are_quoted_by_their_start(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = sample_doc()
    coups = []
    for n in range(1, 31):
        c = copy.deepcopy(doc["coups"][n % 2])
        c["coup"] = n
        c["events"][0][HUGE + str(n)] = 1
        coups.append(c)
    doc["coups"] = coups
    (tmp_path / "night.jsonl").write_text(_jsonl(doc))
    r = run("check", "night.jsonl", "-f", "json")
    out = json.loads(r.stdout)
    assert len(out["findings"]) == 30 and {f["category"] for f in out["findings"]} == {"transcript.unreadable"}
    for f in out["findings"]:
        assert len(f["message"]) < 300 and re.search(r"kkk… \(1,048,57\d characters\)` - at", f["message"])
    assert len(r.stdout) < 100_000  # the report is about the findings, not a copy of the keys


def test_a_huge_shoe_name_and_a_huge_header_key_are_quoted_by_their_start(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = sample_doc()
    doc["coups"][1]["shoe"] = HUGE
    (tmp_path / "a.json").write_text(json.dumps(doc))
    (f,) = [f for f in json.loads(run("check", "a.json", "-f", "json").stdout)["findings"]
            if f["category"] == "transcript.unreadable"]
    assert len(f["message"]) < 300 and "characters)' is not among the header's shoes" in f["message"]
    doc = sample_doc()
    doc["table"][HUGE] = 1
    (tmp_path / "b.json").write_text(json.dumps(doc))
    r = run("check", "b.json")
    assert r.exit_code == 2 and len(r.stderr) < 400 and "unknown field `kkk" in r.stderr


def test_a_quoted_part_is_cut_once_to_at_most_the_bound():
    from compliance.reading.reader import bounded

    once = bounded(f"unknown field `{HUGE}` - at `$`")
    assert bounded(once) == once and len(once.split("`")[1]) <= MAX_QUOTED


class _Scanned(bytes):
    """The document's bytes, counting how many of them the reader's searches go over."""

    def _span(self, start, end) -> int:
        start = 0 if start is None else start
        return (len(self) if end is None else end) - start

    def count(self, sub, start=None, end=None):
        self.scanned += self._span(start, end)
        return super().count(sub, start, end)

    def rfind(self, sub, start=None, end=None):
        self.scanned += self._span(start, end)
        return super().rfind(sub, start, end)

    def find(self, sub, start=None, end=None):
        at = super().find(sub, start, end)
        self.scanned += (at + len(sub) if at >= 0 else len(self)) - (start or 0)
        return at


def _one_line(coups: int) -> str:
    doc = sample_doc()
    one = [json.dumps(c, separators=(",", ":")) for c in doc["coups"][:2]]  # coups 1 and 2, each on one line
    head = json.dumps({k: v for k, v in doc.items() if k != "coups"}, separators=(",", ":"))
    body = [one[n % 2].replace(f'{{"coup":{n % 2 + 1},', f'{{"coup":{n},', 1) for n in range(1, coups + 1)]
    return head[:-1] + ',"coups":[' + ",".join(body) + "]}"


def test_a_compact_one_line_json_is_read_in_one_pass(tmp_path):
    text = _one_line(3_000)
    assert "\n" not in text
    path = tmp_path / "one-line.json"
    path.write_text(text)
    source = open_transcript(path, path.name)
    source._data = data = _Scanned(source._data)
    data.scanned = 0
    records = list(source.records())
    assert len(records) == 3_000 and not [r for r in records if r.error]
    assert data.scanned <= 3 * len(data), "the searches went over the text again and again"  # (was ~1,500 times)
    assert {r.line for r in records} == {1}
    assert all(text[r.column - 1:r.column + 7] == '{"coup":' for r in records[::97])
    assert records[-1].column == text.rindex('{"coup":') + 1


@pytest.mark.slow
def test_a_compact_one_line_json_of_30000_coups_takes_seconds(tmp_path):
    path = tmp_path / "one-line.json"
    path.write_text(_one_line(30_000))
    start = time.perf_counter()
    records = list(open_transcript(path, path.name).records())
    assert len(records) == 30_000 and time.perf_counter() - start < 30  # one pass: 1 to 4 s
