"""What `check` is given: files, directories of transcripts and procedure documents, standard input;
--exclude and `exclude`; the tool's own reports and injection lists passed over with a note; a path that
does not exist said to be missing; the pre-commit hook's default files."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from reporting import ROOT, SAMPLE, STAMP, clean_doc, run, sample_doc, sample_into, write
from ruamel.yaml import YAML

from compliance._internal.inputs import Exclude

MANUAL = """# Dealing procedure

A compliant coup, as the dealer deals it:

```baccarat-transcript
{doc}
```
"""


def manual(path: Path, doc: dict) -> Path:
    path.write_text(MANUAL.format(doc=json.dumps(doc)))
    return path


def findings(r) -> list[tuple[str, int]]:
    return [(f["transcript"], f["coup"]) for f in json.loads(r.stdout)["findings"]]


# ------------------------------------------------------------------ what a directory stands for


def test_a_folder_of_procedure_documents_is_checked_like_each_document(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "procedures").mkdir()
    manual(tmp_path / "procedures" / "dealing.md", sample_doc())
    manual(tmp_path / "procedures" / "clean.md", clean_doc())
    (tmp_path / "procedures" / "README.md").write_text("# Procedures\n\nNo worked example here.\n")
    r = run("check", "procedures/", "-f", "json")
    assert r.exit_code == 1, r.stderr
    doc = json.loads(r.stdout)
    assert [t["transcript"] for t in doc["transcripts"]] == ["procedures/clean.md#L6", "procedures/dealing.md#L6"]
    assert len(doc["findings"]) == 6 and doc["errors"] == []


def test_a_folder_without_any_transcript_says_what_it_looked_for(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "README.md").write_text("nothing to check\n")
    r = run("check", "notes")
    assert r.exit_code == 2
    assert "notes: directory holds no transcript: no .json or .jsonl file and no Markdown document" in r.stderr


def test_a_path_that_does_not_exist_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    for missing in ("recordings/march.json", "recordings", "night-shift.jsonl", "procedures/dealing.md"):
        r = run("check", "night-shift.json", missing)
        assert r.exit_code == 2
        assert f"baccarat-audit: {missing}: no such file or directory" in r.stderr
        assert "must be a .json" not in r.stderr


def test_a_file_of_another_kind_is_not_a_transcript(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("shift notes\n")
    r = run("check", "notes.txt")
    assert r.exit_code == 2 and "notes.txt: not a transcript" in r.stderr


# ------------------------------------------------------------------ what is passed over


def test_the_tools_own_outputs_beside_the_transcripts_are_skipped_with_a_note(tmp_path, monkeypatch):
    """simulate's injection list, the JSON report, a baseline, a SARIF and a Code Quality report left in the
    recordings directory: none of them stops the check of the transcripts (they gave exit 2 before)."""
    monkeypatch.chdir(tmp_path)
    rec = tmp_path / "recordings"
    rec.mkdir()
    sample_into(rec)
    assert run("simulate", "-r", "us-nj", "-n", "3", "--seed", "1", "-o", "recordings/sim.json",
               "--inject", "wager.late@1").exit_code == 0
    assert (rec / "sim.json.injected.json").exists()
    assert run("check", "recordings/night-shift.json", "-o", "json=recordings/report.json",
               "-o", "sarif=recordings/report.sarif.json", "-o", "gitlab=recordings/gl-code-quality.json",
               "--write-baseline", "recordings/baseline.json").exit_code == 0
    r = run("check", "recordings", "-f", "json")
    assert r.exit_code == 1, r.stderr
    assert [t["transcript"] for t in json.loads(r.stdout)["transcripts"]] == ["recordings/night-shift.json",
                                                                             "recordings/sim.json"]
    notes = sorted(line for line in r.stderr.splitlines() if line.startswith("baccarat-audit: note: skipped"))
    assert notes == [
        "baccarat-audit: note: skipped recordings/baseline.json: a baccarat-audit baseline, not a transcript",
        "baccarat-audit: note: skipped recordings/gl-code-quality.json: a Code Quality report, not a transcript",
        "baccarat-audit: note: skipped recordings/report.json: a baccarat-audit JSON report, not a transcript",
        "baccarat-audit: note: skipped recordings/report.sarif.json: a SARIF report, not a transcript",
        "baccarat-audit: note: skipped recordings/sim.json.injected.json: a list of injected breaches "
        "(simulate --inject), not a transcript",
    ]
    named = run("check", "recordings/night-shift.json", "recordings/report.json")  # named one by one (pre-commit)
    assert named.exit_code == 1 and "skipped recordings/report.json" in named.stderr
    assert "skipped" not in run("check", "recordings", "-q").stderr  # --quiet: the findings only


def test_exclude_skips_files_and_directories_by_name_or_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for d in ("recordings/2026", "recordings/archive", "recordings/2019"):
        (tmp_path / d).mkdir(parents=True)
    sample_into(tmp_path / "recordings" / "2026", "night.json")
    write(tmp_path / "recordings" / "2026" / "package.json", {"name": "dashboard", "version": "1.0.0"})
    write(tmp_path / "recordings" / "archive" / "old.json", {"not": "a transcript"})
    write(tmp_path / "recordings" / "2019" / "broken.json", {"not": "a transcript"})
    r = run("check", "recordings", "-f", "json")
    assert r.exit_code == 2  # package.json, old.json and broken.json are no transcripts
    r = run("check", "recordings", "-f", "json", "--exclude", "package.json", "--exclude", "archive",
            "--exclude", "recordings/2019/*")
    assert r.exit_code == 1, r.stderr
    assert [t["transcript"] for t in json.loads(r.stdout)["transcripts"]] == ["recordings/2026/night.json"]
    nothing = run("check", "recordings/2026/night.json", "--exclude", "night.json")
    assert nothing.exit_code == 2  # a run that judged no coup gives no verdict
    assert nothing.stdout.splitlines()[0] == "warning: nothing was checked: no transcript among the paths given"


def test_exclude_in_the_configuration_is_relative_to_its_file(tmp_path, monkeypatch):
    (tmp_path / "recordings" / "2019").mkdir(parents=True)
    sample_into(tmp_path / "recordings", "night.json")
    write(tmp_path / "recordings" / "2019" / "broken.json", {"not": "a transcript"})
    write(tmp_path / "recordings" / "tsconfig.json", {"compilerOptions": {}})
    (tmp_path / ".baccarat-audit.yaml").write_text("exclude: [recordings/2019, tsconfig.json]\n")
    monkeypatch.chdir(tmp_path / "recordings")  # the configuration is found upward, its paths stay its own
    r = run("check", ".", "-f", "json")
    assert r.exit_code == 1, r.stderr
    assert [t["transcript"] for t in json.loads(r.stdout)["transcripts"]] == ["night.json"]


@pytest.mark.parametrize("pattern, path, excluded", [
    ("*.injected.json", "recordings/sim.json.injected.json", True),
    ("archive", "recordings/archive/a.json", True),
    ("archive", "recordings/archived/a.json", False),
    ("recordings/2019/*", "recordings/2019/a.json", True),
    ("recordings/2019", "recordings/2019/deep/a.json", True),
    ("recordings/2019/*", "recordings/2020/a.json", False),
    ("package.json", "web/package.json", True),
])
def test_an_exclude_glob_matches_a_name_on_the_path_or_the_path(tmp_path, monkeypatch, pattern, path, excluded):
    monkeypatch.chdir(tmp_path)
    assert Exclude([pattern])(Path(path)) is excluded


# ------------------------------------------------------------------ standard input


@pytest.mark.parametrize("kind", ["json", "jsonl", "markdown"])
def test_dash_reads_the_transcript_from_standard_input(tmp_path, monkeypatch, kind):
    monkeypatch.chdir(tmp_path)
    doc = sample_doc()
    if kind == "json":
        text = json.dumps(doc, indent=2)
    elif kind == "jsonl":
        header = {k: v for k, v in doc.items() if k != "coups"}
        text = "\n".join(json.dumps(x) for x in [header, *doc["coups"]]) + "\n"
    else:
        text = MANUAL.format(doc=json.dumps(doc))
    r = _run_with_stdin(["check", "-", "-f", "json", "--timestamp", STAMP], text)
    assert r.exit_code == 1, r.stderr
    report = json.loads(r.stdout)
    name = "<stdin>#L6" if kind == "markdown" else "<stdin>"
    assert [t["transcript"] for t in report["transcripts"]] == [name]
    assert len(report["findings"]) == 6


def test_stdin_filename_names_standard_input_and_says_what_it_holds(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = _run_with_stdin(["check", "-", "--stdin-filename", "recordings/night.json", "-f", "json"],
                        SAMPLE.read_text())
    assert r.exit_code == 1
    assert {f["transcript"] for f in json.loads(r.stdout)["findings"]} == {"recordings/night.json"}


def _run_with_stdin(args: list[str], text: str):
    from typer.testing import CliRunner

    from compliance.cli import app

    result = CliRunner().invoke(app, args, input=text, env={"NO_COLOR": "1"})
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


# ------------------------------------------------------------------ the pre-commit hook


def test_the_pre_commit_hook_takes_transcripts_and_procedures_not_every_json_file():
    """pre-commit hands a hook the staged files its `files` pattern finds (re.search), less `exclude`."""
    hooks = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "baccarat-audit-check")

    def taken(path: str) -> bool:
        return bool(re.search(hook["files"], path)) and not re.search(hook.get("exclude", "^$"), path)

    assert [p for p in ("recordings/night.json", "recordings/2026/03/year.jsonl", "audit/transcripts/t.json",
                        "procedures/dealing.md", "docs/procedures/mini.markdown") if not taken(p)] == []
    assert [p for p in ("package.json", "web/tsconfig.json", ".vscode/settings.json", "README.md",
                        "docs/reports.md", "recordings/sim.json.injected.json", "recordings/notes.txt")
            if taken(p)] == []
    assert hook["entry"].split()[:2] == ["baccarat-audit", "check"]


def test_the_hook_run_over_staged_files_checks_the_transcripts(tmp_path, monkeypatch):
    """What the hook runs, with what pre-commit would pass it from a repository holding a report too."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "recordings").mkdir()
    shutil.copyfile(SAMPLE, tmp_path / "recordings" / "night.json")
    run("check", "recordings/night.json", "-o", "recordings/report.json")
    r = run("check", "--no-progress", "recordings/night.json", "recordings/report.json")
    assert r.exit_code == 1 and "6 findings" in r.stdout and "skipped recordings/report.json" in r.stderr
