"""Hostile waivers files, baselines and configuration: one clear message with its place and exit 2, or a waiver
rejected with its line; never a traceback, never unbounded time or memory (the attack run of issue 19)."""

from __future__ import annotations

import datetime as dt
import json
import time
import tracemalloc
from pathlib import Path

import pytest
from reporting import STAMP, run, sample_into

from compliance import baseline, waivers
from compliance.errors import UserError
from compliance.findings import Finding

BIG = "1" + "0" * 4999  # 5,000 digits
DEEP_FLOW = "[" * 5000 + "]" * 5000
WAIVER = """\
  - id: W-{n}
    rule: BAC-SETTLE-AMOUNT
    transcript: night-shift.json
    coups: [{n}]
    justification: promotion P-{n} pays even money on Banker
    approved_by: M. Okafor, compliance officer
    expires: {expires}
"""


def _check(tmp_path, monkeypatch, *args: str):
    """`check night-shift.json ARGS` in ``tmp_path``; the run's report as JSON when it ran."""
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path)
    r = run("check", "night-shift.json", "-f", "json", "-j", "1", "--timestamp", STAMP, *args)
    return r, (json.loads(r.stdout) if r.stdout.strip() else None)


def _refused(r, *words: str) -> None:
    assert r.exit_code == 2, (r.exit_code, r.stderr)
    message = r.stderr.strip().splitlines()
    assert len(message) == 1 and message[0].startswith("baccarat-audit: "), r.stderr
    for w in words:
        assert w in message[0], message[0]


# ------------------------------------------------------------------ waivers


def test_a_waivers_file_that_is_not_utf8_names_the_byte_and_its_place(tmp_path, monkeypatch):
    (tmp_path / "w.yaml").write_bytes(b"waivers:\n  - id: W-1\n    justification: caf\xe9\n")
    r, _ = _check(tmp_path, monkeypatch, "--waivers", "w.yaml")
    _refused(r, "w.yaml:3:23: not UTF-8 text: byte 0xe9")


@pytest.mark.parametrize("text", [
    "waivers: " + DEEP_FLOW + "\n",
    "waivers:\n" + "".join(" " * i + "-\n" for i in range(1, 3000)),
    "waivers:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, 3000)),
])
def test_deeply_nested_waivers_are_refused(tmp_path, monkeypatch, text):
    (tmp_path / "w.yaml").write_text(text)
    start = time.process_time()
    r, _ = _check(tmp_path, monkeypatch, "--waivers", "w.yaml")
    _refused(r, "w.yaml:1:1: ", "nested more than 40 levels deep")
    assert time.process_time() - start < 10


@pytest.mark.parametrize("expires, why", [
    ("0000-00-00", "expires: Input should be a valid date"),
    ("2026-02-30", "day value is outside expected range"),
    ("9999-99-99", "expires: Input should be a valid date"),
    ("2026-13-01", "month value is outside expected range"),
])
def test_an_impossible_expiry_date_is_a_malformed_waiver_at_its_line(tmp_path, monkeypatch, expires, why):
    text = "waivers:\n" + WAIVER.format(n=5, expires="2027-06-30") + WAIVER.format(n=6, expires=expires)
    (tmp_path / "w.yaml").write_text(text)
    r, report = _check(tmp_path, monkeypatch, "--waivers", "w.yaml")
    assert r.exit_code == 1
    [bad] = report["waivers"]["not_applied"]
    assert (bad["id"], bad["line"]) == ("W-6", 9) and why in bad["reason"], bad
    assert [f["waiver"]["id"] for f in report["waived"]] == ["W-5"]


def test_a_lone_surrogate_in_a_waivers_file_is_refused_at_its_place(tmp_path):
    path = tmp_path / "w.yaml"
    path.write_text('waivers:\n  - rule: BAC-SETTLE-AMOUNT\n    justification: "pays \\ud800"\n'
                    "    approved_by: me\n    expires: 2099-01-01\n")
    with pytest.raises(UserError, match=r"w.yaml:3:5: text holds a lone surrogate"):
        waivers.load(path, dt.date(2026, 1, 1))


def _many_waivers(tmp_path, n: int):
    path = tmp_path / f"w{n}.yaml"
    path.write_text("waivers:\n" + "".join(WAIVER.format(n=k, expires="2099-12-31") for k in range(n)))
    return path


@pytest.mark.slow
def test_80000_waivers_are_read_and_matched_in_linear_time(tmp_path):
    """80,000 waivers took 71 s and 650 MB: read line by line and matched through an index, a few seconds."""
    path = _many_waivers(tmp_path, 80_000)
    start = time.process_time()
    loaded = waivers.load(path, dt.date(2026, 1, 1))
    assert len(loaded.active) == 80_000 and loaded.active[-1].line == 1 + 7 * 79_999 + 1
    findings = [Finding(rule="BAC-SETTLE-AMOUNT", category="settlement.wrong-amount", severity="error",
                        transcript="night-shift.json", coup=n, event=1, message="m", citation="c")
                for n in range(0, 160_000, 2)]
    waived = [loaded.waiver_for(f) for f in findings]
    elapsed = time.process_time() - start
    assert [e.key if e else None for e in waived[:3]] == ["W-0", "W-2", "W-4"] and waived[-1] is None
    assert elapsed < 20, f"{elapsed:.1f} s"  # about 3 s on the 2-core machine this was built on


@pytest.mark.slow
def test_the_memory_of_waivers_grows_with_the_waivers(tmp_path):
    """About 1.5 KB a waiver in the plain layout, a 10,000-waiver file included (2.4 MB of text)."""
    path = _many_waivers(tmp_path, 10_000)
    tracemalloc.start()
    try:
        loaded = waivers.load(path, dt.date(2026, 1, 1))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(loaded.active) == 10_000
    assert peak < 40 << 20, f"peak {peak >> 20} MB"


def test_a_waivers_file_over_its_limit_is_refused_and_the_configuration_raises_the_limit(tmp_path, monkeypatch):
    text = "waivers:\n" + WAIVER.format(n=5, expires="2027-06-30") + "# " + "x" * (33 << 20) + "\n"
    (tmp_path / "w.yaml").write_text(text)
    r, _ = _check(tmp_path, monkeypatch, "--waivers", "w.yaml")
    _refused(r, "w.yaml: 33 MB: larger than the limit of 32 MB for a waivers file; raise it with "
                "`limits: {waivers: MEGABYTES}` in the configuration")
    (tmp_path / ".baccarat-audit.yaml").write_text("limits: {waivers: 34}\n")
    r, report = _check(tmp_path, monkeypatch, "--waivers", "w.yaml")
    assert r.exit_code == 1 and [f["waiver"]["id"] for f in report["waived"]] == ["W-5"]


# ------------------------------------------------------------------ baselines


def _baseline(**entry) -> str:
    e = {"fingerprint": "f1", "rule": "BAC-SETTLE-AMOUNT", "category": "settlement.wrong-amount",
         "transcript": "night-shift.json", "coup": 5, "event": 10, "message": "m"} | entry
    return json.dumps({"baseline_version": 1, "tool": "baccarat-audit", "tool_version": "0", "findings": [e]})


@pytest.mark.parametrize("text, words", [
    (_baseline().replace('"coup": 5', '"coup": ' + BIG), "not valid JSON here: a number of more than 4,300 digits"),
    (_baseline().replace('"f1"', "NaN"), "not valid JSON here: NaN is not a JSON number"),
    (_baseline(coup=float("inf")), "not valid JSON here: Infinity is not a JSON number"),
    (_baseline(rule=[1]), "entry 0 needs rule, category, transcript and message (strings)"),
    (_baseline(message=None), "entry 0 needs rule, category, transcript and message (strings)"),
    (_baseline(coup="5"), "and coup and event (numbers or null)"),
    ('{"baseline_version": 1, "findings": ' + DEEP_FLOW + "}", "nested too deeply"),
    ('{"baseline_version": 1, "x": ' + DEEP_FLOW + ', "findings": []}', "nested too deeply"),
    ('{"baseline_version": ' + BIG + ', "findings": []}', "a number of more than 4,300 digits"),
    ("[1, 2]", "not a baccarat-audit baseline"),
    ('{"baseline_version": 9, "findings": []}', "not a baccarat-audit baseline"),
    ('{"baseline_version": 1, "findings": {}}', "not a baccarat-audit baseline"),
    (_baseline(message="\ud800"), "entry 0: text holds a lone surrogate"),  # json.dumps writes it as \ud800
])
def test_a_hostile_baseline_is_one_error_with_its_place(tmp_path, monkeypatch, text, words):
    (tmp_path / "b.json").write_text(text)
    r, _ = _check(tmp_path, monkeypatch, "--baseline", "b.json")
    _refused(r, "b.json", words)


def test_a_baseline_that_is_not_utf8_names_the_byte_and_its_place(tmp_path, monkeypatch):
    (tmp_path / "b.json").write_bytes(_baseline().encode().replace(b'"m"', b'"\xff"'))
    r, _ = _check(tmp_path, monkeypatch, "--baseline", "b.json")
    _refused(r, "b.json:1:", "not UTF-8 text: byte 0xff")


def test_a_good_baseline_still_hides_its_findings(tmp_path, monkeypatch):
    r, report = _check(tmp_path, monkeypatch, "--write-baseline", "b.json")
    assert r.exit_code == 0 and len(report["findings"]) == 6  # writing the baseline is a success (issue 18)
    loaded = baseline.load(tmp_path / "b.json")
    assert len(loaded.entries) == 6
    r, report = _check(tmp_path, monkeypatch, "--baseline", "b.json")
    assert r.exit_code == 0 and report["findings"] == []


# ------------------------------------------------------------------ configuration


def test_a_configuration_that_is_not_utf8_names_the_byte(tmp_path, monkeypatch):
    (tmp_path / ".baccarat-audit.yaml").write_bytes(b"format: json\n# caf\xe9\n")
    r, _ = _check(tmp_path, monkeypatch)
    _refused(r, ".baccarat-audit.yaml:2:6: not UTF-8 text: byte 0xe9")


@pytest.mark.parametrize("where", ["here", "parent"])
def test_a_pyproject_that_is_not_utf8_names_the_byte(tmp_path, monkeypatch, where):
    (tmp_path / "pyproject.toml").write_bytes(b"[tool.baccarat-audit]\nformat = '\xff'\n")
    here = tmp_path if where == "here" else tmp_path / "sub"
    here.mkdir(exist_ok=True)
    r, _ = _check(here, monkeypatch)
    _refused(r, "pyproject.toml:2:11: not UTF-8 text: byte 0xff")


@pytest.mark.parametrize("name, text", [
    (".baccarat-audit.yaml", "paths: " + DEEP_FLOW + "\n"),
    (".baccarat-audit.yaml", "paths:\n" + "".join(" " * i + "-\n" for i in range(1, 3000))),
    (".baccarat-audit.yaml", "a: &a [x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}" if i > 1 else "*a"] * 8) + "]\n" for i in range(1, 9))),
    ("pyproject.toml", "[tool.baccarat-audit]\npaths = " + "[" * 3000 + "]" * 3000 + "\n"),
    ("pyproject.toml", "[tool.baccarat-audit]\nformat = " + BIG + "\n"),
    (".baccarat-audit.yaml", 'ruleset: "us-nj\\ud800"\n'),
])
def test_a_hostile_configuration_is_one_error(tmp_path, monkeypatch, name, text):
    (tmp_path / name).write_text(text)
    start = time.process_time()
    r, _ = _check(tmp_path, monkeypatch)
    _refused(r, name)
    assert time.process_time() - start < 10


@pytest.mark.parametrize("text, words", [
    ("limits: {lines: 2}\n", "setting limits: no limit 'lines'; the limits are transcript, line, stream"),
    ("limits: {waivers: 0}\n", "setting limits.waivers: Input should be greater than or equal to 1"),
    ("limits: {waivers: x}\n", "setting limits.waivers: Input should be a valid integer"),
])
def test_the_limits_a_configuration_sets_are_checked(tmp_path, monkeypatch, text, words):
    (tmp_path / ".baccarat-audit.yaml").write_text(text)
    r, _ = _check(tmp_path, monkeypatch)
    _refused(r, words)


# ------------------------------------------------------------------ /dev/zero as any input


@pytest.mark.parametrize("option, words", [
    ("--waivers", "larger than the limit of 32 MB for a waivers file"),
    ("--baseline", "larger than the limit of 1 MB for an input that is not a regular file"),
    ("--config", "larger than the limit of 1 MB for a configuration file"),
])
def test_dev_zero_as_waivers_baseline_or_configuration_is_refused_at_its_limit(tmp_path, monkeypatch, option, words):
    (tmp_path / "zero").symlink_to("/dev/zero")
    if option == "--baseline":
        (tmp_path / ".baccarat-audit.yaml").write_text("limits: {stream: 1}\n")
    r, _ = _check(tmp_path, monkeypatch, option, "zero")
    _refused(r, "zero: ", words)


def test_a_loader_never_reads_past_its_limit(tmp_path, bounds):
    """Bounded by the limit, not by the input: /dev/zero is read once up to it, then refused."""
    (tmp_path / "zero").symlink_to("/dev/zero")
    small = bounds(stream=4 << 20)
    for load in (lambda p: waivers.load(p, dt.date(2026, 1, 1), small), lambda p: baseline.load(p, small)):
        tracemalloc.start()
        try:
            with pytest.raises(UserError, match="larger than the limit of 4 MB"):
                load(tmp_path / "zero")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 16 << 20


# ------------------------------------------------------------------ import: mappings and the header file

LOGS = Path(__file__).resolve().parent.parent / "fixtures" / "import"
SHOE_LOG = next(iter(sorted((LOGS / "shoe-log").glob("*.csv"))))


@pytest.mark.parametrize("name, text, words", [
    ("zero.yaml", None, "larger than the limit of 256 KB for a mapping or an import's header file"),
    ("deep.yaml", "rows: " + DEEP_FLOW + "\n", "mapping is nested more than 40 levels deep"),
    ("bomb.yaml", "a: &a [x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}" if i > 1 else "*a"] * 8) + "]\n" for i in range(1, 9)),
     "too large once its aliases are expanded"),
    ("utf8.yaml", b"name: caf\xe9\n", "utf8.yaml:1:10: not UTF-8 text: byte 0xe9"),
])
def test_a_hostile_mapping_is_one_error(tmp_path, monkeypatch, name, text, words):
    monkeypatch.chdir(tmp_path)
    if text is None:
        (tmp_path / name).symlink_to("/dev/zero")
    else:
        (tmp_path / name).write_bytes(text if isinstance(text, bytes) else text.encode())
    r = run("import", f"{name}={SHOE_LOG}", "--header", str(LOGS / "header.json"), "-o", "out.jsonl")
    _refused(r, words)


@pytest.mark.parametrize("text, words", [
    ('{"table": ' + DEEP_FLOW + "}", "nested too deeply"),
    ('{"table": {"seats": ' + BIG + "}}", "a number of more than 4,300 digits"),
    (None, "larger than the limit of 256 KB"),
])
def test_a_hostile_import_header_is_one_error(tmp_path, monkeypatch, text, words):
    monkeypatch.chdir(tmp_path)
    if text is None:
        (tmp_path / "header.json").symlink_to("/dev/zero")
    else:
        (tmp_path / "header.json").write_text(text)
    r = run("import", f"shoe-log={SHOE_LOG}", "--header", "header.json", "-o", "out.jsonl")
    _refused(r, "header.json", words)
