"""Every hostile input of issue 19's attack run, measured: exit status, time, peak memory, message.

Builds each input in a temporary directory, runs the installed ``baccarat-audit`` on it under
``/usr/bin/time -v`` (killed after ``--timeout`` seconds), and prints the rows of the table in
``docs/reliability.md``: wall and CPU seconds, peak resident memory, exit status, whether a
traceback was printed, and the first line of the message.

    .venv/bin/python bench/hostile_inputs.py            # every input
    .venv/bin/python bench/hostile_inputs.py seats      # the inputs whose name contains "seats"
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from builders import coup, dumps, jsonl, transcript  # noqa: E402

COMMAND = str(Path(sys.executable).with_name("baccarat-audit"))
STAMP = ["--timestamp", "2026-11-29T00:00:00Z", "-j", "1", "--no-progress"]
BIG = "1" + "0" * 4999
DOC = transcript([coup(1, ["4H", "TD", "3S"], ["KS", "6C"], [(1, "player", 100), (2, "banker", 200)]),
                  coup(2, ["9H", "KH"], ["2C", "3C"], [(1, "player", 100)])])
WAIVER = ("  - id: W-{n}\n    rule: BAC-SETTLE-AMOUNT\n    transcript: 'recordings/{n}/*.json'\n    coups: [{n}]\n"
          "    justification: promotion P-{n} pays even money on Banker wagers at this table\n"
          "    approved_by: J. Rivera, compliance officer\n    expires: {expires}\n")
BASELINE = {"baseline_version": 1, "tool": "baccarat-audit", "tool_version": "0",
            "findings": [{"fingerprint": "f1", "rule": "BAC-SETTLE-AMOUNT", "transcript": "t.json", "coup": 1,
                          "event": 1, "message": "m"}]}


def _write(d: Path, name: str, data: str | bytes) -> str:
    path = d / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
    return name


def _link(d: Path, name: str, target: str) -> str:
    (d / name).symlink_to(target)
    return name


def _seats(n: int) -> str:
    doc = json.loads(dumps(DOC))
    doc["table"]["seats"] = n
    return json.dumps(doc)


def _ruleset_with(d: Path, name: str, edit) -> str:
    text = (ROOT / "rulesets" / "us-nj.yaml").read_text()
    text = text.replace("extends: punto-banco", f"extends: {ROOT / 'rulesets' / 'punto-banco.yaml'}")
    return _write(d, name, edit(text))


def cases(d: Path):
    """(name, what, arguments, working directory) of every input; files are made in ``d``."""
    clean = _write(d, "clean.json", dumps(DOC))
    yield "int-json", "a 5,000-digit integer in a coup (.json)", [
        _write(d, "bigint.json", dumps(DOC).replace('"coup": 2', '"coup": ' + BIG))], d
    yield "int-jsonl", "a 5,000-digit integer in a coup (.jsonl)", [
        _write(d, "bigint.jsonl", re.sub(r'"coup": ?2\b', '"coup": ' + BIG, jsonl(DOC)))], d
    yield "seats-1e18", "`table.seats` of 10^18", [_write(d, "seats18.json", _seats(10**18))], d
    yield "seats-3e7", "`table.seats` of 30,000,000", [_write(d, "seats30m.json", _seats(30_000_000))], d
    yield "loop-file", "a symlink loop given as a transcript", [_link(d, "loop.json", "loop.json")], d
    (d / "loops").mkdir()
    _link(d, "loops/a.json", "b.json")
    _link(d, "loops/b.json", "a.json")
    _write(d, "loops/ok.json", dumps(DOC))
    yield "loop-dir", "a symlink loop inside a checked directory", ["loops"], d
    surrogate = _ruleset_with(d, "surrogate.yaml", lambda t: t.replace("title:", 'title: "NJ \\ud800"\nx-t:', 1))
    yield "surrogate", "a lone surrogate in a ruleset's title (`rules list`)", ["@rules", "list", "-r", surrogate], d
    bad = "waivers:\n" + WAIVER.format(n=1, expires="2027-03-31")
    yield "utf8-waivers", "invalid UTF-8 in a waivers file", [
        clean, "--waivers", _write(d, "w-utf8.yaml", bad.encode().replace(b"Rivera", b"Rivera \xff"))], d
    yield "utf8-baseline", "invalid UTF-8 in a baseline", [
        clean, "--baseline", _write(d, "b-utf8.json", json.dumps(BASELINE).encode().replace(b'"m"', b'"\xff"'))], d
    for where in ("here", "parent"):
        home = d / f"toml-{where}"
        run_in = home if where == "here" else home / "sub"
        run_in.mkdir(parents=True)
        _write(home, "pyproject.toml", b"[tool.baccarat-audit]\nformat = '\xff'\n")  # ours: not passed over
        yield f"utf8-toml-{where}", f"invalid UTF-8 in `pyproject.toml` ({'working directory' if where == 'here' else 'a parent'})", [
            str(d / clean)], run_in
    (d / "yamlcfg").mkdir()
    _write(d / "yamlcfg", ".baccarat-audit.yaml", b"format: json\n# \xff\n")
    yield "utf8-config", "invalid UTF-8 in `.baccarat-audit.yaml`", [str(d / clean)], d / "yamlcfg"
    deep_block = "".join(" " * i + "-\n" for i in range(1, 5000))
    yield "deep-waivers", "waivers nested 5,000 levels (flow)", [
        clean, "--waivers", _write(d, "w-deep.yaml", "waivers: " + "[" * 5000 + "]" * 5000 + "\n")], d
    yield "deep-waivers-block", "waivers nested 5,000 levels (block)", [
        clean, "--waivers", _write(d, "w-deep-block.yaml", "waivers:\n" + deep_block)], d
    (d / "deepcfg").mkdir()
    _write(d / "deepcfg", ".baccarat-audit.yaml", "paths: " + "[" * 5000 + "]" * 5000 + "\n")
    yield "deep-config", "configuration nested 5,000 levels", [str(d / clean)], d / "deepcfg"
    yield "deep-baseline", "a baseline nested 5,000 levels (JSON)", [
        clean, "--baseline", _write(d, "b-deep.json", '{"baseline_version": 1, "findings": ' + "[" * 5000 +
                                    "]" * 5000 + "}")], d
    for date in ("0000-00-00", "2026-02-30"):
        yield f"date-{date}", f"a waiver that expires on {date}", [
            clean, "--waivers", _write(d, f"w-{date}.yaml", "waivers:\n" + WAIVER.format(n=1, expires=date))], d
    yield "nan-fingerprint", "a baseline whose fingerprint is NaN", [
        clean, "--baseline", _write(d, "b-nan.json", json.dumps(BASELINE).replace('"f1"', "NaN"))], d
    yield "int-baseline", "a 5,000-digit integer in a baseline", [
        clean, "--baseline", _write(d, "b-int.json", json.dumps(BASELINE).replace('"coup": 1', '"coup": ' + BIG))], d
    anchor = "a: &a [" + ", ".join(["lolololol"] * 20000) + "]\n"
    yield "alias-bomb", "an alias bomb in a ruleset: a 200 KB anchor referenced 2,000 times", [
        clean, "-r", _write(d, "bomb.yaml", anchor + "b: [" + ", ".join(["*a"] * 2000) + "]\nid: x\n")], d
    keys = ", ".join(f"k{i}: v" for i in range(10000))
    yield "merge-bomb", "merge keys over a large anchor in a ruleset", [
        clean, "-r", _write(d, "merge.yaml", "a: &a {" + keys + "}\nb: [" + ", ".join(["{<<: *a}"] * 3000) +
                            "]\nid: x\n")], d
    yield "nul-markdown", "a Markdown document of NUL bytes (64 MB)", [_write(d, "nul.md", b"\x00" * (64 << 20))], d
    for what, target in (("transcript", "zero.json"), ("transcript-jsonl", "zero.jsonl"), ("markdown", "zero.md")):
        yield f"zero-{what}", f"`/dev/zero` as a {what.replace('-', ' ')}", [_link(d, target, "/dev/zero")], d
    yield "zero-ruleset", "`/dev/zero` as a ruleset (`--ruleset`)", [clean, "-r", "/dev/zero"], d
    jur = json.loads(dumps(DOC))
    jur["table"]["jurisdiction"] = "zero-floor"
    (d / "jurcfg").mkdir()
    _write(d / "jurcfg", ".baccarat-audit.yaml", "jurisdictions: {zero-floor: /dev/zero}\n")
    yield "zero-jurisdiction", "`/dev/zero` as a ruleset (a `table.jurisdiction` the configuration maps to it)", [
        str(d / _write(d, "jur.json", json.dumps(jur)))], d / "jurcfg"
    yield "zero-waivers", "`/dev/zero` as a waivers file", [clean, "--waivers", _link(d, "zw.yaml", "/dev/zero")], d
    yield "zero-baseline", "`/dev/zero` as a baseline", [clean, "--baseline", _link(d, "zb.json", "/dev/zero")], d
    yield "zero-config", "`/dev/zero` as the configuration (`--config`)", [clean, "--config", "/dev/zero"], d
    for n in (80_000, 120_000):
        yield f"waivers-{n // 1000}k", f"a waivers file of {n:,} entries", [
            clean, "--waivers", _write(d, f"w{n}.yaml", "waivers:\n" + "".join(
                WAIVER.format(n=i, expires="2099-12-31") for i in range(n)))], d
    yield "waivers-50mb", "a waivers file of 50 MB", [
        clean, "--waivers", _write(d, "w50.yaml", "waivers:\n" + WAIVER.format(n=1, expires="2099-12-31") +
                                   "# " + "x" * (50 << 20) + "\n")], d
    block = "```baccarat-transcript\n" + dumps(DOC) + "\n```\n\n"
    for n in (1000, 2000):
        yield f"markdown-{n}", f"a Markdown document of {n:,} transcript blocks", [
            _write(d, f"blocks{n}.md", "# Procedures\n\n" + block * n)], d


H, F = "test_hostile_input.py::", "test_hostile_files.py::"
#: the test that holds each input, by the start of its name
TESTS = {
    "int-json": H + "test_a_number_of_5000_digits_in_a_coup_is_an_unreadable_coup",
    "seats": H + "test_the_declared_number_of_seats_sizes_nothing",
    "loop": H + "test_a_symlink_loop_is_one_clear_error",
    "surrogate": H + "test_a_lone_surrogate_in_a_ruleset_is_refused_at_its_line",
    "utf8-waivers": F + "test_a_waivers_file_that_is_not_utf8_names_the_byte_and_its_place",
    "utf8-baseline": F + "test_a_baseline_that_is_not_utf8_names_the_byte_and_its_place",
    "utf8-toml": F + "test_a_pyproject_that_is_not_utf8_names_the_byte",
    "utf8-config": F + "test_a_configuration_that_is_not_utf8_names_the_byte",
    "deep-waivers": F + "test_deeply_nested_waivers_are_refused",
    "deep-config": F + "test_a_hostile_configuration_is_one_error",
    "deep-baseline": F + "test_a_hostile_baseline_is_one_error_with_its_place",
    "date": F + "test_an_impossible_expiry_date_is_a_malformed_waiver_at_its_line",
    "nan": F + "test_a_hostile_baseline_is_one_error_with_its_place",
    "int-baseline": F + "test_a_hostile_baseline_is_one_error_with_its_place",
    "alias": H + "test_a_large_anchor_referenced_many_times_is_refused_quickly",
    "merge": H + "test_merge_keys_over_a_large_anchor_are_refused_quickly",
    "nul": H + "test_a_markdown_document_of_nul_bytes_holds_no_transcript",
    "zero-transcript": H + "test_dev_zero_as_a_transcript_is_read_up_to_the_stream_limit",
    "zero-markdown": H + "test_dev_zero_as_a_markdown_document_is_refused_at_its_limit",
    "zero-ruleset": H + "test_dev_zero_as_a_ruleset_is_refused_at_the_ruleset_limit",
    "zero-jurisdiction": H + "test_dev_zero_as_a_ruleset_is_refused_at_the_ruleset_limit",
    "zero-": F + "test_dev_zero_as_waivers_baseline_or_configuration_is_refused_at_its_limit",
    "waivers-50": F + "test_a_waivers_file_over_its_limit_is_refused_and_the_configuration_raises_the_limit",
    "waivers-": F + "test_80000_waivers_are_read_and_matched_in_linear_time",
    "markdown-": H + "test_a_markdown_document_of_2000_blocks_is_read_once",
}


#: what the attack run of issue 19 reported for each input, before the bounds
BEFORE = {
    "int-": "traceback (ValueError)", "seats-1e18": "traceback (MemoryError)", "seats-3e7": "3.8 GB, 21 s",
    "loop": "traceback (RuntimeError)", "surrogate": "traceback (UnicodeEncodeError)",
    "utf8": "traceback (UnicodeDecodeError)", "deep": "traceback (RecursionError)", "date": "traceback (ValueError)",
    "nan": "traceback (TypeError)", "int-baseline": "traceback (ValueError)", "alias": "4.3 GB, 18 s",
    "merge": "killed at 20 s (measured here)", "nul": "23.7 GB, killed", "zero-": "killed",
    "zero-transcript-jsonl": "exit 2 (header line over 16 MB)", "zero-config": "exit 2, \"no such file\"",
    "waivers-80": "71 s, 650 MB", "waivers-120": "(not run)", "waivers-50": "over 300 s",
    "markdown-1000": "17 s", "markdown-2000": "42 s",
}


def _longest(table: dict, name: str) -> str:
    return next(table[k] for k in sorted(table, key=len, reverse=True) if name.startswith(k))


def before_of(name: str) -> str:
    return _longest(BEFORE, name)


def test_of(name: str) -> str:
    return _longest(TESTS, name)


def measure(args: list[str], cwd: Path, timeout: int) -> dict:
    command = args[0][1:] if args and args[0].startswith("@") else "check"
    argv = [COMMAND, command, *(args[1:] if command != "check" else [*args, *STAMP])]
    with tempfile.NamedTemporaryFile("r") as times:
        proc = subprocess.run(["/usr/bin/time", "-v", "-o", times.name, "timeout", "-s", "KILL", str(timeout), *argv],
                              cwd=cwd, capture_output=True, text=True, errors="replace")
        t = times.read()

    def field(label: str) -> str:
        m = re.search(rf"{re.escape(label)}: (.*)", t)
        return m.group(1).strip() if m else "?"

    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    minutes, _, seconds = wall.rpartition(":")
    return {"exit": proc.returncode, "wall": float(seconds) + 60 * float(minutes.split(":")[-1] or 0),
            "cpu": float(field("User time (seconds)")) + float(field("System time (seconds)")),
            "rss": int(field("Maximum resident set size (kbytes)")) / 1024,
            "traceback": "Traceback" in proc.stderr,
            "message": next((line for line in proc.stderr.splitlines() if line.startswith("baccarat-audit: ")), "")
            or next((line.split(": ", 1)[1] for line in proc.stdout.splitlines() if "] coup " in line), "")
            or next((line for line in proc.stdout.splitlines()[-1:]), "")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("only", nargs="*", help="measure only the inputs whose name contains one of these")
    ap.add_argument("--timeout", type=int, default=60)
    opts = ap.parse_args()
    print("| input | before | exit | wall s | CPU s | peak RSS MB | traceback | what it gives | test (tests/) |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, what, args, cwd in cases(Path(tmp)):
            if opts.only and not any(o in name for o in opts.only):
                continue
            r = measure(args, cwd, opts.timeout)
            message = r["message"].replace(tmp + "/", "").removeprefix("baccarat-audit: ").replace("|", "\\|")
            message = message if len(message) <= 140 else message[:139] + "…"
            print(f"| {what} | {before_of(name)} | {r['exit']} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['rss']:.0f} | "
                  f"{'yes' if r['traceback'] else 'no'} | {message} | `{test_of(name)}` |", flush=True)


if __name__ == "__main__":
    main()
