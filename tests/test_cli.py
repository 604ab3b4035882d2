"""The command line (spec: "The JSON report", exit status 0/1/2, --fail-on; issue 2: several files, same bytes).

The commands run in this process (``command.audit``); the entry point, a crash and the installed wheel run
the real program in a subprocess, as an auditor or a CI job would.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from builders import coup, dumps, transcript
from command import audit

from compliance.ruleset.loader import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from startup import regular_install  # noqa: E402

SAMPLE = ROOT / "fixtures" / "samples" / "night-shift.json"
CLEAN = transcript([coup(1, ["4H", "TD", "3S"], ["KS", "6C"], [(1, "player", 100), (2, "banker", 200)])])
BREACH = transcript([coup(1, ["KD", "4D", "3S"], ["KS", "6C", "8D"], [(1, "player", 100)])])


def entry_point(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """``python -m compliance ARGS``: the real program, in a process of its own."""
    r = subprocess.run([sys.executable, "-m", "compliance", *args], cwd=cwd, capture_output=True, text=True,
                       timeout=120, env=env)
    assert "Traceback" not in r.stderr, r.stderr
    return r


@pytest.fixture
def files(tmp_path):
    (tmp_path / "clean.json").write_text(dumps(CLEAN))
    (tmp_path / "breach.json").write_text(dumps(BREACH))
    return tmp_path


def report(r) -> dict:
    return json.loads(r.stdout)


# ------------------------------------------------------------------ exit status


def test_exit_0_when_clean(files):
    r = audit("check", "clean.json", cwd=files)
    assert r.returncode == 0, r.stdout + r.stderr


def test_exit_1_when_a_rule_is_broken(files):
    r = audit("check", "breach.json", "--format", "json", cwd=files)
    assert r.returncode == 1
    (f,) = report(r)["findings"]
    assert {k: f[k] for k in ("rule", "category", "severity", "transcript", "coup", "event", "citation")} == {
        "rule": "BAC-DRAW-BANKER-ILLEGAL", "category": "third-card.banker.illegal", "severity": "error",
        "transcript": "breach.json", "coup": 1, "event": 8, "citation": "N.J.A.C. 13:69F-3.9"}
    assert f["message"] == ("Banker drew 8D on 6 although the Player's third card was 3 (3S); "
                            "the Banker stands on 6 against a 3")
    assert len(f["fingerprint"]) >= 16


@pytest.mark.parametrize("args", [
    ["check", "missing.json"],
    ["check", "clean.json", "--ruleset", "atlantis"],
    ["check", "clean.json", "--format", "pdf"],
    ["check"],
])
def test_exit_2_when_the_run_cannot_be_done(files, args):
    r = audit(*args, cwd=files)
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.strip()


def test_a_crash_is_exit_2_never_the_exit_1_of_findings(files):
    """A bug (here: the engine raising) must not pass for a report with findings: a CI job would file it."""
    crash = ("import sys, compliance.__main__ as entry, compliance.engine as engine\n"
             "def broken(*args, **kwargs):\n    raise RuntimeError('a bug')\n"
             "engine.Checker.check_source = broken\n"
             f"sys.argv = ['baccarat-audit', 'check', {str(files / 'breach.json')!r}]\n"
             "entry.main()\n")
    r = subprocess.run([sys.executable, "-c", crash], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert "RuntimeError: a bug" in r.stderr and "internal error" in r.stderr


def test_an_input_that_cannot_be_read_is_said_once_on_stderr(files):
    (files / "cut.json").write_text('{"format": 1')
    r = audit("check", "clean.json", "missing.json", "cut.json", cwd=files)
    assert r.returncode == 2
    assert r.stderr.splitlines() == ["baccarat-audit: missing.json: no such file or directory",
                                     "baccarat-audit: cut.json: not valid JSON: Input data was truncated at line 1, "
                                     "column 13"]
    assert "missing.json" not in r.stdout and "cut.json" not in r.stdout
    assert r.stdout.splitlines()[-1] == "checked 1 transcript, 1 coup, 0 findings; 2 files could not be checked"


def test_a_text_report_written_to_a_file_names_what_could_not_be_checked(files):
    r = audit("check", "clean.json", "missing.json", "-o", "text=audit.txt", cwd=files)
    assert r.returncode == 2
    assert r.stderr.splitlines()[0] == "baccarat-audit: missing.json: no such file or directory"
    nj = load_ruleset("us-nj")
    error, hold, *rest = (files / "audit.txt").read_text().splitlines()
    assert error == "error: missing.json: no such file or directory" and hold.startswith("hold against theory: ")
    assert rest == [f"ruleset us-nj {nj.version}, sha256 {nj.sha256}",
                    "checked 1 transcript, 1 coup, 0 findings; 1 file could not be checked"]


def test_fail_on_sets_the_failing_severity(files):
    """A warning fails the run only with --fail-on warning or info."""
    doc = transcript([coup(1, ["4H", "TD", "3S"], ["KS", "6C"], [(1, "player", 100)])])
    (tmp := files / "warn.json").write_text(dumps(doc))
    ruleset = files / "strict.yaml"
    ruleset.write_text("id: house-nj\ntitle: House rules\nversion: '1'\nextends: us-nj\n"
                       "overrides:\n  BAC-DRAW-BANKER-ILLEGAL: {severity: warning}\n")
    breach = audit("check", "breach.json", "--ruleset", str(ruleset), "--format", "json", cwd=files)
    assert [f["severity"] for f in report(breach)["findings"]] == ["warning"]
    assert breach.returncode == 0
    assert audit("check", "breach.json", "--ruleset", str(ruleset), "--fail-on", "warning", cwd=files).returncode == 1
    assert audit("check", "breach.json", "--ruleset", str(ruleset), "--fail-on", "info", cwd=files).returncode == 1
    assert audit("check", "breach.json", "--fail-on", "error", cwd=files).returncode == 1
    assert audit("check", tmp.name, "--fail-on", "info", cwd=files).returncode == 0


# ------------------------------------------------------------------ several files, deterministic output


def test_several_transcripts_in_one_call(files):
    r = audit("check", "clean.json", "breach.json", "--format", "json", cwd=files)
    assert r.returncode == 1
    doc = report(r)
    assert [t["transcript"] for t in doc["transcripts"]] == ["clean.json", "breach.json"]
    assert [(f["transcript"], f["rule"]) for f in doc["findings"]] == [("breach.json", "BAC-DRAW-BANKER-ILLEGAL")]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_same_input_same_bytes(files, fmt):
    shutil.copy(SAMPLE, files / "night-shift.json")
    env = os.environ | {"SOURCE_DATE_EPOCH": "1764432000"}
    runs = [audit("check", "night-shift.json", "breach.json", "--format", fmt, cwd=files, env=env) for _ in range(2)]
    assert runs[0].stdout == runs[1].stdout
    assert runs[0].stdout.strip()


def test_the_bundled_sample_has_breaches(tmp_path):
    r = audit("check", str(SAMPLE), "--format", "json", cwd=tmp_path)
    assert r.returncode == 1
    assert len(report(r)["findings"]) >= 5


def test_the_text_report_names_rule_coup_and_citation(files):
    r = audit("check", "breach.json", "--format", "text", cwd=files, env=os.environ | {"NO_COLOR": "1"})
    assert "BAC-DRAW-BANKER-ILLEGAL" in r.stdout
    assert "N.J.A.C. 13:69F-3.9" in r.stdout
    assert "Banker drew 8D on 6" in r.stdout


# ------------------------------------------------------------------ entry points


def test_python_dash_m_compliance_and_version(tmp_path):
    r = entry_point("--version", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("baccarat-audit ")
    r = entry_point("check", str(SAMPLE), "--format", "json", cwd=tmp_path)
    assert r.returncode == 1 and len(report(r)["findings"]) >= 5


def test_schema_transcript_is_the_models_json_schema(tmp_path):
    r = audit("schema", "transcript", cwd=tmp_path)
    assert r.returncode == 0
    schema = json.loads(r.stdout)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    assert not list(validator.iter_errors(json.loads(SAMPLE.read_text())))
    broken = json.loads(SAMPLE.read_text())
    broken["coups"][0]["events"][0]["amout"] = 5
    assert list(validator.iter_errors(broken))


# ------------------------------------------------------------------ installed from a wheel, away from the source


class Installed:
    """The package installed from its wheel into a fresh venv, and a directory far from the source tree."""

    def __init__(self, venv: Path, wheel: Path, elsewhere: Path):
        self.venv, self.wheel, self.elsewhere = venv, wheel, elsewhere

    def run(self, *args: str) -> subprocess.CompletedProcess:
        env = {k: v for k, v in os.environ.items() if k != "BACCARAT_AUDIT_REGULATIONS"}  # no regulation text
        r = subprocess.run([self.venv / "bin" / "baccarat-audit", *args], cwd=self.elsewhere, capture_output=True,
                           text=True, timeout=300, env=env)
        assert "Traceback" not in r.stderr, r.stderr
        return r


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    """A wheel built from a copy of what the project ships, installed into a fresh venv; the copy removed.

    Offline: the new venv sees this environment's packages (the dependencies and
    the build backend) through a .pth file, so pip resolves every dependency
    without the index; rulesets, the paragraph index and the rule tests must
    come from the installed package data.
    """
    tmp_path = tmp_path_factory.mktemp("installed")
    python, wheel = regular_install(tmp_path)
    venv = Path(python).parent.parent
    elsewhere = tmp_path / "audit-room"
    elsewhere.mkdir()
    shutil.copy(SAMPLE, elsewhere / "night-shift.json")
    return Installed(venv, wheel, elsewhere)


@pytest.mark.install
def test_the_wheel_ships_the_packages_rulesets_paragraph_index_and_rule_tests_but_no_regulation_text(installed):
    import zipfile

    names = set(zipfile.ZipFile(installed.wheel).namelist())
    packages = {str(p.parent.relative_to(ROOT)) for p in (ROOT / "compliance").rglob("__init__.py")}
    assert {p for p in packages if f"{p}/__init__.py" not in names} == set(), "packages not shipped"
    assert {f"compliance/rulesets/{p.name}" for p in (ROOT / "rulesets").glob("*.yaml")} <= names
    assert "compliance/rulesets/coverage.yaml" in names  # the paragraph index
    tests = {f"compliance/rule_tests/{p.relative_to(ROOT / 'fixtures' / 'rules')}"
             for p in (ROOT / "fixtures" / "rules").rglob("*") if p.suffix in (".json", ".jsonl", ".yaml")}
    assert tests and tests <= names
    from compliance.paragraphs import bundled_map

    assert {n.rsplit("/", 1)[-1] for n in names} & set(bundled_map().texts) == set(), "a regulation text shipped"


@pytest.mark.install
def test_installed_check_from_anywhere(installed):
    where = subprocess.run([installed.venv / "bin" / "python", "-c", "import compliance.paragraphs as c; "
                            "print(c.__file__); print(c.regulations_dir())"], cwd=installed.elsewhere,
                           capture_output=True, text=True, check=True,
                           env={k: v for k, v in os.environ.items() if k != "BACCARAT_AUDIT_REGULATIONS"}).stdout
    module, texts = where.splitlines()
    assert module.startswith(str(installed.venv)), module
    assert texts == "None", "the regulation texts are within reach: this test would not show they are not needed"
    r = installed.run("check", "night-shift.json", "--format", "json")
    assert r.returncode == 1, r.stderr
    assert {f["transcript"] for f in json.loads(r.stdout)["findings"]} == {"night-shift.json"}
    for ruleset in ("us-nj", "us-in", "au-nsw", "nz"):
        r = installed.run("check", "night-shift.json", "--ruleset", ruleset, "--format", "json")
        assert r.returncode in (0, 1), r.stderr


@pytest.mark.install
def test_installed_coverage_without_the_regulation_texts(installed):
    r = installed.run("coverage", "--format", "markdown")
    assert r.returncode == 0, r.stderr
    assert r.stdout == (ROOT / "docs" / "coverage.md").read_text(encoding="utf-8")
    r = installed.run("coverage", "--ruleset", "au-nsw")
    assert r.returncode == 0, r.stderr
    assert "14.4.1" in r.stdout and "checkable paragraphs covered (" in r.stdout.splitlines()[-1]
    assert "not a bundled text" not in r.stdout


@pytest.mark.install
def test_installed_rules_show_gives_a_compliant_and_a_breaching_coup(installed):
    r = installed.run("rules", "show", "NSW-A-RECIPIENT")
    assert r.returncode == 0, r.stderr
    rule_tests = f"{installed.venv}/lib/"
    for label in ("Compliant example (au-nsw): coup ", "Breaching example (au-nsw): coup "):
        line = r.stdout.split(label, 1)[1].splitlines()[0]
        assert rule_tests in line and "/compliance/rule_tests/au-nsw/" in line, line
    assert "reported at event " in r.stdout


@pytest.mark.install
def test_installed_lint_checks_citations_against_the_paragraph_index(installed):
    shutil.copy(ROOT / "fixtures" / "rulesets" / "broken" / "citation-not-in-text.yaml", installed.elsewhere)
    r = installed.run("ruleset", "lint", "--strict", "citation-not-in-text.yaml")
    assert r.returncode == 1, r.stdout + r.stderr
    assert ("citation-not-in-text.yaml:7:35: warning [citation-not-in-text] rule 'BAC-CALLS' cites '3.7(e)', which "
            "is not a paragraph of new-jersey-njac-13-69f-3-7.txt (did you mean '3.7(d)'?)") in r.stdout.splitlines()


@pytest.mark.install
def test_installed_test_rules_runs_the_bundled_rule_tests(installed):
    r = installed.run("test-rules")
    assert r.returncode == 0, r.stdout + r.stderr
    cases = len(list((ROOT / "fixtures" / "rules").rglob("*.expected.yaml")))
    assert r.stdout.splitlines()[-1].startswith(f"{cases} rule tests: {cases} passed, 0 failed, 0 errors;")


# ------------------------------------------------------------------ files written atomically


def test_an_interrupted_simulate_leaves_neither_transcript_nor_temporary_file(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from compliance.cli import app

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    r = CliRunner().invoke(app, ["simulate", "-r", "us-nj", "-n", "3", "-o", str(tmp_path / "night.json")])
    assert r.exit_code != 0
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command, message", [
    (["simulate", "-r", "us-nj", "-n", "3", "-o"], "cannot write: Permission denied"),
    (["check", "clean.json", "-o"], "cannot write report: Permission denied"),
])
def test_a_file_that_cannot_be_written_gives_each_commands_message_and_exit_2(files, monkeypatch, command, message):
    import errno

    from typer.testing import CliRunner

    from compliance.cli import app

    def refused(src, dst):
        raise OSError(errno.EACCES, "Permission denied")

    monkeypatch.chdir(files)
    monkeypatch.setattr(os, "replace", refused)
    r = CliRunner().invoke(app, [*command, "out.json"])
    assert r.exit_code == 2
    assert f"baccarat-audit: out.json: {message}\n" in r.stderr, r.stderr
    assert sorted(p.name for p in files.iterdir()) == ["breach.json", "clean.json"]


@pytest.mark.parametrize("args, message", [
    (["check", "clean.json", "--timestamp", "nope"], "--timestamp: bad timestamp 'nope'"),
    (["config", "show", "--config", "missing.yaml"], "missing.yaml: no such configuration file"),
    (["rules", "list", "-r", "nowhere"], "no ruleset 'nowhere'"),
    (["simulate", "-r", "us-nj", "-n", "3", "--commission", "abc"], "--commission 'abc' is not a number"),
    (["analyze", "-r", "nowhere"], "no ruleset 'nowhere'"),
])
def test_a_user_error_in_any_command_is_one_message_and_exit_2_in_process_too(files, monkeypatch, args, message):
    from typer.testing import CliRunner

    from compliance.cli import app

    monkeypatch.chdir(files)
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2 and isinstance(r.exception, SystemExit), r.exception
    assert r.stderr.startswith(f"baccarat-audit: {message}"), r.stderr


# ------------------------------------------------------------------ help, version, completion, --format


COMMANDS = [["check"], ["import"], ["config", "show"], ["rules", "list"], ["rules", "show"], ["rules", "kinds"],
            ["rulesets", "list"], ["ruleset", "lint"], ["test-rules"], ["coverage"], ["simulate"], ["analyze"],
            ["schema"]]


def test_dash_capital_v_prints_the_version(tmp_path):
    r = audit("-V", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == audit("--version", cwd=tmp_path).stdout


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_names_values_in_words_and_each_default_once(tmp_path, command):
    """No Python type as a metavar (`<list[Path]>`, `<int range>`, `<str>`), no default said twice."""
    r = audit(*command, "--help", cwd=tmp_path, env=os.environ | {"COLUMNS": "200"})
    assert r.returncode == 0
    assert not re.search(r"<(list|int|str|path|float|bool|text)\b[^>]*>", r.stdout, re.IGNORECASE), r.stdout
    starts = [i for i in (r.stdout.find("\nArguments:"), r.stdout.find("\nOptions:")) if i >= 0]
    listed = r.stdout[min(starts):]  # the arguments and options, not the command's own description
    for entry in re.split(r"\n  (?=\S)", listed):  # one argument or option with its help, however it wraps
        assert " ".join(entry.split()).count("default:") <= 1, entry


@pytest.mark.parametrize("command", [c for c in COMMANDS if c not in (["config", "show"], ["rules", "kinds"],
                                                                     ["rulesets", "list"], ["ruleset", "lint"],
                                                                     ["schema"])], ids=" ".join)
def test_every_ruleset_option_lists_the_bundled_rulesets(tmp_path, command):
    """Each --ruleset help names every bundled jurisdiction, as the rulesets bundled are (none written out)."""
    from compliance.ruleset.loader import bundled_rulesets

    ids = [r.id for r in bundled_rulesets()]
    assert "us-pa" in ids and "punto-banco" not in ids  # the abstract base judges nothing
    r = audit(*command, "--help", cwd=tmp_path)
    (entry,) = [e for e in re.split(r"\n  (?=\S)", r.stdout) if e.startswith("-r, --ruleset")]
    assert f"({','.join(ids)})" in "".join(entry.split()), entry  # as wrapped at any width


def test_check_help_shows_its_options_plainly(tmp_path):
    r = audit("check", "--help", cwd=tmp_path, env=os.environ | {"COLUMNS": "200"})
    assert "Usage: baccarat-audit check [OPTIONS] [PATH]..." in r.stdout
    for shown in ("-r, --ruleset ID|FILE", "-o, --output [FORMAT=]FILE", "-j, --jobs N", "--exclude GLOB",
                  "--select RULE|CATEGORY", "--fail-on SEVERITY", "-q, --quiet", "--statistics"):
        assert shown in r.stdout
    assert "[default: 0, every core]" in r.stdout and "[default: 0;" not in r.stdout


@pytest.mark.parametrize("command, fmt", [
    (["check", "night.json"], "json"), (["config", "show"], "json"), (["rules", "list"], "json"),
    (["rules", "show", "BAC-WAGER-LATE"], "json"), (["rules", "kinds"], "json"), (["rulesets", "list"], "json"),
    (["analyze", "-r", "us-nj", "--decks", "1"], "json"),
    (["ruleset", "lint", str(ROOT / "rulesets" / "nz.yaml")], "json"),
])
def test_every_command_takes_format_json_in_any_case(tmp_path, command, fmt):
    shutil.copy(SAMPLE, tmp_path / "night.json")
    for spelling in (fmt, fmt.upper()):
        r = audit(*command, "--format", spelling, cwd=tmp_path)
        assert r.returncode in (0, 1), r.stderr
        json.loads(r.stdout)
    assert json.loads(audit(*command, "-f", fmt, cwd=tmp_path).stdout) is not None


def test_config_show_keeps_json_as_another_spelling(tmp_path):
    assert audit("config", "show", "--json", cwd=tmp_path).stdout == audit("config", "show", "-f", "json",
                                                                          cwd=tmp_path).stdout


@pytest.mark.slow  # real processes or large inputs: make test-slow
def test_shell_completion_can_be_installed_and_completes_commands_options_and_rulesets(tmp_path):
    """typer's completion answers from its entry point (the environment of a new process): run for real."""
    assert "--install-completion" in audit("--help", cwd=tmp_path).stdout
    no_detection = os.environ | {"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    for shell, marker in (("bash", "complete -o default -F _baccarat_audit_completion baccarat-audit"),
                          ("zsh", "#compdef baccarat-audit"), ("fish", "complete --command baccarat-audit")):
        shown = entry_point("--show-completion", shell, cwd=tmp_path, env=no_detection)
        assert shown.returncode == 0 and marker in shown.stdout, shown.stdout + shown.stderr

    def complete(words: str) -> list[str]:  # what bash asks the program when TAB is pressed
        env = os.environ | {"_BACCARAT_AUDIT_COMPLETE": "complete_bash", "COMP_WORDS": words,
                            "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
        return entry_point(cwd=tmp_path, env=env).stdout.split()

    assert "check" in complete("baccarat-audit ch")
    assert complete("baccarat-audit check --ruleset au") == ["au-nsw"]
    assert {"github", "gitlab", "sarif"} <= set(complete("baccarat-audit check --format "))
    assert "--statistics" in complete("baccarat-audit check --stat")
    # zsh shows each option's help beside it: the bundled rulesets listed, as --help lists them
    zsh = entry_point(cwd=tmp_path, env=os.environ | {"_BACCARAT_AUDIT_COMPLETE": "complete_zsh",
                                                      "_TYPER_COMPLETE_ARGS": "baccarat-audit check --rul"}).stdout
    assert "--ruleset" in zsh and "us-pa" in zsh and "bundled rulesets" not in zsh
