"""Procedure documents: every ```baccarat-transcript block of a Markdown manual is checked, and findings point
at the manual's own line. Directories stand for every transcript inside them."""

from __future__ import annotations

import json

from reporting import SAMPLE, STAMP, clean_doc, run, sample_doc, write

from compliance.reading.markdown import blocks
from compliance.ruleset.loader import load_ruleset


def manual(tmp_path, *parts: str):
    path = tmp_path / "dealing-procedures.md"
    path.write_text("\n".join(parts) + "\n")
    return path


def fenced(text: str, info: str = "baccarat-transcript") -> str:
    return f"```{info}\n{text.rstrip()}\n```"


def test_every_tagged_block_is_a_transcript_and_findings_point_at_the_manual(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample = SAMPLE.read_text()
    manual(tmp_path,
           "# Dealing procedures", "", "A coup dealt by the book:", "",
           fenced(json.dumps(clean_doc(2), indent=1)), "",
           "An example with the tableau's values, not a transcript:", "", fenced('{"not": "checked"}', "json"), "",
           "The night shift, as recorded:", "",
           fenced(sample))
    text = (tmp_path / "dealing-procedures.md").read_text().splitlines()
    start = text.index("The night shift, as recorded:") + 4  # 1-based line of the block's first line
    r = run("check", "dealing-procedures.md", "-f", "json", "--timestamp", STAMP)
    doc = json.loads(r.stdout)
    assert r.exit_code == 1
    assert [t["transcript"] for t in doc["transcripts"]] == ["dealing-procedures.md#L6",
                                                             f"dealing-procedures.md#L{start}"]
    late = next(f for f in doc["findings"] if f["rule"] == "BAC-WAGER-LATE")
    assert late["transcript"] == "dealing-procedures.md"
    assert late["line"] == start + 453 - 1 and late["column"] == 5
    assert text[late["line"] - 1].strip() == "{"  # the late wager event's opening brace
    assert '"type": "wager"' in text[late["line"]]


def test_jsonl_blocks_and_indented_fences(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = sample_doc()
    header = {k: v for k, v in doc.items() if k != "coups"}
    lines = [json.dumps(header)] + [json.dumps(c) for c in doc["coups"]]
    indented = "\n".join("   " + line for line in ["```baccarat-transcript jsonl", *lines, "```"])
    manual(tmp_path, "1. Record every coup:", "", indented)
    r = run("check", "dealing-procedures.md", "-f", "json")
    out = json.loads(r.stdout)
    late = next(f for f in out["findings"] if f["rule"] == "BAC-WAGER-LATE")
    assert late["line"] == 4 + 6  # fence on line 3, header on 4, coup 6 on line 10
    assert late["column"] > 3  # past the fence's indentation


def test_a_manual_with_compliant_examples_passes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    manual(tmp_path, "# Examples", fenced(json.dumps(clean_doc(3))), "text", fenced(json.dumps(clean_doc(1))))
    r = run("check", "dealing-procedures.md")
    nj = load_ruleset("us-nj")
    assert r.exit_code == 0 and r.stdout == (f"ruleset us-nj {nj.version}, sha256 {nj.sha256}\n"
                                             "checked 2 transcripts, 4 coups, 0 findings\n")


def test_a_broken_block_names_the_manual_and_its_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    manual(tmp_path, "# Example", "", fenced('{"format": "baccarat-transcript", "version": 1}'))
    r = run("check", "dealing-procedures.md")
    assert r.exit_code == 2
    assert "dealing-procedures.md:4" in r.stderr


def test_blocks_follow_commonmark_fences():
    doc = "~~~~baccarat-transcript\n{}\n~~~\nstill inside\n~~~~\n````\n```baccarat-transcript\n````\n"
    found = blocks(doc)
    assert [(b.line, b.text) for b in found] == [(2, b"{}\n~~~\nstill inside\n")]


def test_a_directory_stands_for_every_transcript_inside(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "recordings" / "march").mkdir(parents=True)
    (tmp_path / "recordings" / ".cache").mkdir()
    write(tmp_path / "recordings" / "march" / "b.json", sample_doc())
    write(tmp_path / "recordings" / "a.json", clean_doc())
    write(tmp_path / "recordings" / ".cache" / "skip.json", {"not": "a transcript"})
    (tmp_path / "recordings" / "notes.txt").write_text("not a transcript")
    r = run("check", "recordings", "-f", "json")
    doc = json.loads(r.stdout)
    assert [t["transcript"] for t in doc["transcripts"]] == ["recordings/a.json", "recordings/march/b.json"]
    assert r.exit_code == 1
    (tmp_path / "empty").mkdir()
    assert run("check", "empty").exit_code == 2


def test_sarif_and_junit_point_at_the_manual(tmp_path, monkeypatch):
    from lxml import etree
    from reporting import junit_schema, sarif_validator

    monkeypatch.chdir(tmp_path)
    manual(tmp_path, "# Example", "", fenced(SAMPLE.read_text()))
    sarif = json.loads(run("check", "dealing-procedures.md", "-f", "sarif").stdout)
    assert not list(sarif_validator().iter_errors(sarif))
    where = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert where["artifactLocation"]["uri"] == "dealing-procedures.md"
    assert where["region"]["startLine"] == 4 + 241 - 1
    root = etree.fromstring(run("check", "dealing-procedures.md", "-f", "junit", "--timestamp", STAMP).stdout.encode())
    assert junit_schema().validate(root)
    assert root.find("testsuite").get("name") == "dealing-procedures.md#L4"
