"""The public API: ``compliance.api.check`` gives a program everything ``baccarat-audit check`` gives.

The command line parses its options into a ``CheckRequest``, calls ``check`` and prints what it returns: so
the same request writes the same reports, byte for byte, prints the same standard output and error, and
exits with the same status, whatever the inputs (standard input, waivers, a baseline, evidence required, a
configuration file).  docs/api.md lists exactly the public names and its example runs here.
"""

from __future__ import annotations

import ast
import io
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from reporting import SAMPLE, STAMP
from typer.testing import CliRunner

from compliance import api
from compliance.cli import app

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "api.md"
EVERY_FORMAT = [f"{fmt}=reports/night.{fmt}" for fmt in api.FORMATS]

WAIVERS = """\
waivers:
  - id: W-LATE
    rule: BAC-WAGER-LATE
    coup: 6
    justification: the late wager was refused at the table
    approved_by: M. Okafor
    expires: 2027-06-30
"""


def _tree(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def _both(tmp_path: Path, monkeypatch, args: list[str], request: api.CheckRequest, stdin: bytes | None = None,
          files: dict[str, str] | None = None):
    """The command line and the library, each in a directory of its own holding the same inputs: what each
    wrote (every file of its directory), printed and exited with."""
    monkeypatch.setenv("NO_COLOR", "1")
    seen = []
    for who in ("cli", "api"):
        here = tmp_path / who
        here.mkdir()
        shutil.copyfile(SAMPLE, here / "night-shift.json")
        for name, text in (files or {}).items():
            (here / name).write_text(text, encoding="utf-8")
        monkeypatch.chdir(here)
        if who == "cli":
            r = CliRunner().invoke(app, ["check", *args, "--timestamp", STAMP], input=stdin)
            assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
            seen.append((_tree(here), r.stdout, r.stderr, r.exit_code))
        else:
            outcome = api.check(replace(request, timestamp=STAMP, stdin=io.BytesIO(stdin) if stdin is not None else None))
            stderr = "".join(m.line() + "\n" for m in outcome.messages + outcome.closing)
            seen.append((_tree(here), outcome.stdout, stderr, outcome.exit_code))
    return seen


CASES = {
    "the sample, every format to files": (
        ["night-shift.json", *sum((["-o", o] for o in EVERY_FORMAT), [])],
        api.CheckRequest(paths=["night-shift.json"], outputs=EVERY_FORMAT), None, None),
    "the text report on standard output": (
        ["night-shift.json"], api.CheckRequest(paths=["night-shift.json"]), None, None),
    "standard input, with a name": (
        ["-", "--stdin-filename", "night.json", "-f", "json", "-o", "html=night.html", "-o", "json=-"],
        api.CheckRequest(paths=["-"], stdin_filename="night.json", format="json", outputs=["html=night.html", "json=-"]),
        SAMPLE.read_bytes(), None),
    "waivers, quiet": (
        ["night-shift.json", "--waivers", "waivers.yaml", "-q", "-o", "sarif=night.sarif", "-o", "text=-"],
        api.CheckRequest(paths=["night-shift.json"], waivers="waivers.yaml", quiet=True,
                         outputs=["sarif=night.sarif", "text=-"]), None, {"waivers.yaml": WAIVERS}),
    "a baseline written": (
        ["night-shift.json", "--write-baseline", "baseline.json", "-f", "markdown"],
        api.CheckRequest(paths=["night-shift.json"], write_baseline="baseline.json", format="markdown"), None, None),
    "evidence required, statistics": (
        ["night-shift.json", "--require-evidence", "cards,calls", "--statistics", "-f", "json"],
        api.CheckRequest(paths=["night-shift.json"], require_evidence=["cards", "calls"], statistics=True,
                         format="json"), None, None),
    "a configuration file": (
        ["--config", "audit.yaml"], api.CheckRequest(config="audit.yaml"), None,
        {"audit.yaml": "paths: [night-shift.json]\nfail-on: warning\nignore: [BAC-WAGER-LATE]\n"
                       "output: [junit=night.xml, github=-]\n"}),
    "fixtures of three jurisdictions and a game, as JUnit per coup": (
        [str(ROOT / "fixtures" / "rules" / "us-pa"), str(ROOT / "fixtures" / "rules" / "us-in-pai-gow"),
         "-j", "1", "--junit-cases", "coup", "-o", "junit=rules.xml", "-o", "gitlab=rules.gitlab"],
        api.CheckRequest(paths=[ROOT / "fixtures" / "rules" / "us-pa", ROOT / "fixtures" / "rules" / "us-in-pai-gow"],
                         jobs=1, junit_cases="coup", outputs=["junit=rules.xml", "gitlab=rules.gitlab"]), None, None),
}


@pytest.mark.parametrize("case", CASES)
def test_the_library_gives_what_the_command_line_gives(case, tmp_path, monkeypatch):
    args, request, stdin, files = CASES[case]
    cli, lib = _both(tmp_path, monkeypatch, args, request, stdin, files)
    assert cli[3] in (0, 1), cli[2]
    assert lib[1:] == cli[1:]  # standard output, standard error, the exit status
    assert lib[0] == cli[0]  # every file written, byte for byte
    assert len(lib[0]) > 1 + len(files or {}) or lib[1], "the case wrote no report"


def test_a_users_error_is_raised_before_any_report_is_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copyfile(SAMPLE, tmp_path / "night-shift.json")
    with pytest.raises(api.UserError, match="is a transcript this run reads"):
        api.check(api.CheckRequest(paths=["night-shift.json"], outputs=["json=night-shift.json"]))
    assert (tmp_path / "night-shift.json").read_bytes() == SAMPLE.read_bytes()
    with pytest.raises(api.UserError, match="--as-of: 'yesterday' is not a date"):
        api.check(api.CheckRequest(paths=["night-shift.json"], as_of="yesterday"))
    messages = []
    outcome = api.check(api.CheckRequest(paths=["night-shift.json", "missing.json"], outputs=["json=r.json"]),
                        on_message=messages.append)
    assert outcome.exit_code == 2 and messages == outcome.messages
    assert [m.kind for m in messages] == ["error"] and "missing.json" in messages[0].line()


# ------------------------------------------------------------------ the public surface


def test_every_public_name_resolves_and_the_doc_lists_exactly_them():
    assert sorted(api.__all__) == sorted(set(api.__all__))
    for name in api.__all__:
        assert getattr(api, name) is not None, name
    listed = re.findall(r"^\| `([A-Za-z_]+)` \|", DOC.read_text(encoding="utf-8"), flags=re.M)
    assert sorted(listed) == sorted(api.__all__)


def test_the_worked_example_of_the_doc_runs(tmp_path, monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert blocks, "docs/api.md has no example"
    monkeypatch.chdir(tmp_path)
    shutil.copyfile(SAMPLE, tmp_path / "night-shift.json")
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {"__name__": "example"})  # its own asserts say what it shows
    assert (tmp_path / "reports" / "night.sarif").is_file()


def _imports_of(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return found


def test_only_the_public_api_reaches_behind_the_internal_boundary():
    """``compliance/_internal`` is what ``compliance.api`` is built from: the command line, the engine and the
    games import none of it (a test may)."""
    package = ROOT / "compliance"
    reaching = [str(p.relative_to(ROOT)) for p in sorted(package.rglob("*.py"))
                if "_internal" not in p.parts and p.name != "api.py"
                and any(m.startswith("compliance._internal") for m in _imports_of(p))]
    assert reaching == []


def test_help_imports_neither_the_run_nor_the_engine():
    """``--help`` and ``check --help`` stay cheap: the command module imports the API's request, not the run."""
    code = ("import sys\nsys.argv = ['baccarat-audit', 'check', '--help']\nfrom compliance.__main__ import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(' '.join(m for m in sys.modules if m.startswith('compliance')))\n")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                                check=True).stdout.splitlines()[-1].split())
    assert "compliance.api" in loaded
    heavy = {"compliance._internal", "compliance._internal.run", "compliance._internal.driver", "compliance.engine",
             "compliance.report.model", "compliance._internal.inputs", "compliance.context", "compliance.games"}
    assert loaded & heavy == set()
