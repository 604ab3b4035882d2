"""Instructions a coup of ``check`` on one core, counted by valgrind's cachegrind: a measure the machine's load
does not change (wall-clock time on a shared machine does).

Each stage runs in a process of its own under ``valgrind --tool=cachegrind``, on the bench's transcript of
``--small`` coups and of ``--large`` coups (au-nsw, every rule, dealing method C, as ``check_speed.py``); the
difference of the two counts over the difference of coups is what a coup costs, start-up and the one-time work
(imports, the ruleset, the tableau's odds) left out.  Stages, each including the ones before it:

* ``orjson``: parsing every line with orjson (the floor, as in ``check_speed.py``);
* ``decode``: reading and decoding the coups as check does (the validating msgspec decode, the duplicate-key
  test, the line read and its SHA-256);
* ``replay``: and replaying them (no rule runs);
* ``nojudge``: the whole check but the integrity stage after the replay (its collector still runs);
* ``check``: the whole check.

The runs keep nothing between them (``BACCARAT_AUDIT_NO_CACHE``): a ruleset or a shoe's odds kept in the cache
by the small run would spare the large one work the difference must not count.

Under valgrind the CPU's SHA instructions are not used: the SHA-256 of a coup's 860 bytes counts about 25,000
instructions in software, where the CPU's own instructions take some 1,500.

    .venv/bin/python bench/check_instructions.py                 # every stage (about 10 minutes)
    .venv/bin/python bench/check_instructions.py --stages check orjson
    .venv/bin/python bench/check_instructions.py --table ez --stages check   # the EZ Baccarat night (us-pa)

``--table ez``: the bench's EZ Baccarat night instead (us-pa, side wagers beside 30% of the main wagers,
patrons named: what the patron-level integrity rules judge).  ``--dated``: the night with each coup's first event
timestamped (from 20:00 UTC on 1 June 2025, a minute a coup), so each coup is judged by the version of its
ruleset's history in force on its day (docs/performance.md, the cost of a ruleset's history); ``--flat``: the
same night judged by that version alone, as a ruleset without a history (the same rules: the baseline).

``--without KIND ...``: the check with the integrity tests of these check kinds off (neither collected during the
replay nor judged after it), to measure what each adds:

    .venv/bin/python bench/check_instructions.py --table ez --stages check --without integrity.collusion
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
STAGES = ("orjson", "decode", "replay", "nojudge", "check")
#: the bench's tables: ``transcript``'s arguments after the coups
TABLES = {"bench": ("au-nsw", "C", 1000), "ez": ("us-pa", "face_up", 1000, "ez_baccarat", 0.3)}


def dated(path: Path) -> Path:
    """A copy of the transcript ``path`` whose coups' first events carry a time (made once, then reused)."""
    import datetime as dt
    import json

    out = path.with_name(path.stem + "-dated.jsonl")
    if not out.exists():
        start = dt.datetime(2025, 6, 1, 20, 0, tzinfo=dt.UTC)
        tmp = out.with_suffix(".part")
        with path.open(encoding="utf-8") as f, tmp.open("w", encoding="utf-8") as w:
            w.write(f.readline())
            for n, line in enumerate(f):
                coup = json.loads(line)
                at = start + dt.timedelta(minutes=n)
                coup["events"][0]["at"] = at.strftime("%Y-%m-%dT%H:%M:%SZ")
                w.write(json.dumps(coup, separators=(",", ":")) + "\n")
        tmp.replace(out)
    return out


def run_stage(stage: str, coups: int, table: str = "bench", without: tuple[str, ...] = ()) -> None:
    """The stage itself, in this process (what valgrind runs); ``without``: integrity check kinds turned off."""
    sys.path.insert(0, str(HERE))
    if without:
        from compliance.games.baccarat import integrity

        made = integrity.Collector
        integrity.Collector = lambda header, table, rules: made(header, table,
                                                                [r for r in rules if r.check not in without])
    from check_speed import decode_and_replay, decode_only, parse_only, transcript

    table, *how = table.split("+")
    path = transcript(coups, *TABLES[table])
    if "dated" in how:
        path = dated(path)
    if "flat" in how:  # the version in force that day, as a ruleset of its own: no history to look up
        from compliance import engine
        from compliance.ruleset.loader import load_ruleset

        version = load_ruleset(TABLES[table][0]).version_on("2025-06-01").model_copy(update={"versions": []})
        engine.RulesetCache.for_source = lambda self, source: version
    if stage == "orjson":
        parse_only(path)
    elif stage == "decode":
        decode_only(path)
    elif stage == "replay":
        decode_and_replay(path)
    else:
        from compliance.engine import Checker

        Checker(judge=stage == "check").check_file(path)


def count(stage: str, coups: int, table: str = "bench", without: tuple[str, ...] = ()) -> int:
    """Instructions of one run of the stage under cachegrind."""
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, __file__, "--run", stage, str(coups), table, *without],
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "BACCARAT_AUDIT_NO_CACHE": "1"}).stderr
    return int(re.search(r"I\s+refs:\s+([\d,]+)", out).group(1).replace(",", ""))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stages", nargs="+", choices=STAGES, default=list(STAGES))
    ap.add_argument("--small", type=int, default=2_000)
    ap.add_argument("--large", type=int, default=10_000)
    ap.add_argument("--table", choices=TABLES, default="bench")
    ap.add_argument("--dated", action="store_true", help="each coup's first event timestamped (a dated night)")
    ap.add_argument("--flat", action="store_true", help="judged by the version of the night's day alone")
    ap.add_argument("--without", nargs="+", default=[], metavar="KIND",
                    help="integrity check kinds turned off (integrity.collusion, integrity.hold, ...)")
    ap.add_argument("--run", nargs="+", metavar="STAGE COUPS TABLE [KIND ...]", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.run:
        run_stage(a.run[0], int(a.run[1]), a.run[2], tuple(a.run[3:]))
        return 0
    a.table += "+dated" * a.dated + "+flat" * a.flat
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    for coups in (a.small, a.large):  # generate the transcripts outside valgrind
        run_stage("orjson", coups, a.table)
    per_coup = {}
    for stage in a.stages:
        without = tuple(a.without)
        per_coup[stage] = (count(stage, a.large, a.table, without)
                           - count(stage, a.small, a.table, without)) / (a.large - a.small)
        ratio = f"  ({per_coup[stage] / per_coup['orjson']:.2f}x orjson's parse)" if "orjson" in per_coup else ""
        print(f"{stage:8} {per_coup[stage]:>10,.0f} instructions a coup{ratio}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
