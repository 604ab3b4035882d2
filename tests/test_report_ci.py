"""CI-native outputs: GitHub workflow annotations (escaped so that no transcript string can forge a command),
GitLab Code Quality JSON, and the CI examples of docs/ci-example run as written."""

from __future__ import annotations

import json
import re
import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reporting import ROOT, clean_doc, run, sample_into, with_unreadable_coup, write
from ruamel.yaml import YAML

from compliance.findings import Finding
from compliance.printable import printable
from compliance.report import github

# ------------------------------------------------------------------ GitHub annotations

#: a workflow command as the runner reads it: ::name key=value,key=value::message
COMMAND = re.compile(r"^::(error|warning|notice)(?: ((?:\w+=[^,:]*)(?:,\w+=[^,:]*)*))?::(.*)$")


def unescape(text: str) -> str:
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


def parse(line: str) -> tuple[str, dict, str]:
    m = COMMAND.match(line)
    assert m, line
    props = dict(p.split("=", 1) for p in m.group(2).split(",")) if m.group(2) else {}
    return m.group(1), {k: unescape(v) for k, v in props.items()}, unescape(m.group(3))


def test_each_finding_is_an_annotation_on_its_file_and_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = run("check", "night-shift.json", "-f", "github")
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    assert len(lines) == 6
    level, props, message = parse(lines[4])
    assert level == "error"
    assert props == {"file": "night-shift.json", "line": "411", "col": "5",
                     "title": "BAC-SETTLE-AMOUNT [settlement.wrong-amount]"}
    assert message.startswith("coup 5 event 10: seat 1 banker wager of 1,000 should be win 950 (Banker pays 1 to 1 "
                              "less 5% commission)")  # the % written %25, read back as %
    assert "checked 1 transcript" in r.stderr  # the summary stays out of the annotations


def test_warnings_notes_and_inputs_that_cannot_be_checked_are_annotated_too(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "empty.json", {**clean_doc(), "coups": []})
    write(tmp_path / "broken.json", with_unreadable_coup(clean_doc(3), 2))
    r = run("check", "empty.json", "broken.json", "missing.json", "-f", "github", "--fail-on", "warning")
    parsed = [parse(line) for line in r.stdout.splitlines()]
    assert [(level, props.get("file")) for level, props, _ in parsed] == [
        ("error", "broken.json"), ("warning", None), ("error", None)]
    assert parsed[1][2] == "empty.json: holds no coup: nothing was checked"
    assert parsed[2][2] == "could not check missing.json: no such file or directory"


FORGERIES = [
    "x\n::add-mask::secret",
    "x\r\n::stop-commands::token",
    "50%0A::error::forged",
    "a,title=forged:b",
    "::set-output name=x::y",
]


@pytest.mark.parametrize("text", FORGERIES)
def test_a_transcript_string_cannot_forge_a_workflow_command(text):
    f = Finding(rule="BAC-WAGER-LATE", category="wager.late", severity="error", transcript=f"rec/{text}.json",
                coup=1, event=0, message=f"seat 1 wager {text!s}", citation=text, line=3, column=5)
    out = github.annotation(f)
    assert "\n" not in out and "\r" not in out
    level, props, message = parse(out)
    assert (level, props["file"], props["line"], props["title"]) == ("error", printable(f"rec/{text}.json"), "3",
                                                                     "BAC-WAGER-LATE [wager.late]")
    assert message == printable(f"coup 1 event 0: seat 1 wager {text} ({text})")  # newlines shown, never obeyed


@given(st.text())
def test_any_text_reads_back_as_shown_and_stays_on_one_line(text):
    f = Finding(rule="R", category="wager.late", severity="warning", transcript=text or "t", coup=None, event=None,
                message=text, citation="", line=1, column=1)
    out = github.annotation(f)
    assert out.count("\n") == 0 and "\r" not in out
    level, props, message = parse(out)
    assert level == "warning" and props["file"] == printable(text or "t") and message == printable(f"coup ?: {text}")


# ------------------------------------------------------------------ GitLab Code Quality


def test_code_quality_issues_point_at_the_file_and_line_with_unique_fingerprints(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    (tmp_path / "manual.md").write_text("# M\n\n```baccarat-transcript\n" + (tmp_path / "night-shift.json").read_text()
                                        + "```\n")
    r = run("check", "night-shift.json", "manual.md", "-f", "gitlab")
    issues = json.loads(r.stdout)
    assert len(issues) == 12
    for issue in issues:
        assert set(issue) == {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["severity"] == "critical" and issue["location"]["lines"]["begin"] >= 1
    assert {i["location"]["path"] for i in issues} == {"night-shift.json", "manual.md"}  # the document, not #L
    assert len({i["fingerprint"] for i in issues}) == 12
    first = issues[0]
    assert first["check_name"] == "BAC-DRAW-BANKER-ILLEGAL" and first["location"]["lines"]["begin"] == 241
    assert first["description"].startswith("BAC-DRAW-BANKER-ILLEGAL [third-card.banker.illegal] coup 3 event 9: ")


def test_two_findings_of_one_rule_at_one_event_keep_apart():
    from types import SimpleNamespace

    from compliance.report import gitlab

    twins = [Finding("BAC-SETTLE-AMOUNT", "settlement.wrong-amount", "error", "t.json", 5, 10, "seat 1 ...", "c", 3, 1)
             for _ in range(2)]  # one breach recorded twice (two identical settle events)
    assert twins[0].fingerprint == twins[1].fingerprint
    issues = gitlab.document(SimpleNamespace(findings=twins, transcripts=[]))  # the findings, no rule not judged
    assert len({i["fingerprint"] for i in issues}) == 2


# ------------------------------------------------------------------ the CI examples, run as written


def _check_command(script: str) -> list[str]:
    words = shlex.split(script)
    assert words[:2] == ["baccarat-audit", "check"], script
    return words[2:]


def _workspace(tmp_path):
    (tmp_path / "recordings").mkdir()
    (tmp_path / "procedures").mkdir()
    sample_into(tmp_path / "recordings")
    (tmp_path / "procedures" / "dealing.md").write_text(
        "# Dealing\n\n```baccarat-transcript\n" + json.dumps(clean_doc()) + "\n```\n")


def test_the_github_workflow_installs_from_the_repository_and_publishes_junit_as_test_results(tmp_path, monkeypatch):
    flow = YAML(typ="safe").load((ROOT / "docs" / "ci-example" / "baccarat-audit.yml").read_text())
    steps = flow["jobs"]["audit"]["steps"]
    install = next(s for s in steps if s.get("name") == "Install baccarat-audit")
    assert not re.search(r"pip install\s+baccarat-audit\b", install["run"])  # not on a package index
    assert "git+https://" in flow["env"]["BACCARAT_AUDIT"] and "$BACCARAT_AUDIT" in install["run"]
    check = next(s for s in steps if s.get("id") == "check")
    args = _check_command(check["run"])
    outputs = dict(a.split("=", 1) for a in args[args.index("--output") + 1::2] if "=" in a)
    junit = next(s for s in steps if "junit" in s.get("uses", ""))
    assert junit["with"]["report_paths"] == outputs["junit"] and flow["permissions"]["checks"] == "write"
    sarif = next(s for s in steps if "upload-sarif" in s.get("uses", ""))
    assert sarif["with"]["sarif_file"] == outputs["sarif"]
    assert outputs["github"] == "-"

    monkeypatch.chdir(tmp_path)  # and the command itself, run in a workspace like the example's
    _workspace(tmp_path)
    r = run("check", *args)
    assert r.exit_code == 1, r.stderr
    assert [parse(line)[0] for line in r.stdout.splitlines()] == ["error"] * 6
    for fmt in ("sarif", "junit", "markdown", "html"):
        assert (tmp_path / outputs[fmt]).stat().st_size > 0


def test_the_gitlab_job_gives_code_quality_and_junit_reports(tmp_path, monkeypatch):
    job = YAML(typ="safe").load((ROOT / "docs" / "ci-example" / "gitlab-ci.yml").read_text())["baccarat-audit"]
    assert not any(re.search(r"pip install\s+baccarat-audit\b", line) for line in job["before_script"])
    args = _check_command(job["script"][0])
    reports = job["artifacts"]["reports"]
    monkeypatch.chdir(tmp_path)
    _workspace(tmp_path)
    r = run("check", *args)
    assert r.exit_code == 1, r.stderr
    assert len(json.loads((tmp_path / reports["codequality"]).read_text())) == 6
    assert (tmp_path / reports["junit"]).read_text().startswith("<?xml")


# ------------------------------------------------------------------ the version the CI examples install


def test_the_ci_examples_install_a_commit_that_exists_and_name_its_version():
    """Both examples pin one commit of this repository (no tag that was never made), and the version their
    comments name is the package's version at that commit."""
    import shutil
    import subprocess

    examples = [ROOT / "docs" / "ci-example" / name for name in ("baccarat-audit.yml", "gitlab-ci.yml")]
    pins = {m for e in examples for m in re.findall(r"baccarat-audit(?:\.git)?@([^\"\s]+)\"", e.read_text())}
    (commit,) = pins
    assert re.fullmatch(r"[0-9a-f]{40}", commit), commit
    git = shutil.which("git")
    if git is None or subprocess.run([git, "-C", str(ROOT), "rev-parse"], capture_output=True).returncode:
        pytest.skip("not a git checkout: the pinned commit cannot be looked up")
    found = subprocess.run([git, "-C", str(ROOT), "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True)
    shallow = subprocess.run([git, "-C", str(ROOT), "rev-parse", "--is-shallow-repository"], capture_output=True,
                             text=True).stdout.strip() == "true"
    if found.returncode and shallow:
        pytest.skip("a shallow clone: the pinned commit may be older than its history")
    assert found.returncode == 0, f"{commit} is no commit of this repository"
    then = subprocess.run([git, "-C", str(ROOT), "show", f"{commit}:compliance/__init__.py"], capture_output=True,
                          text=True, check=True).stdout
    (version,) = re.findall(r'^__version__ = "([^"]+)"', then, re.M)
    for e in examples:
        assert f"baccarat-audit {version}" in e.read_text(), e
