"""Hold against theory (integrity.hold) on simulated months: how many groups an honest month lists outside the
band, whether any survives false-discovery control, and whether short payouts at one table in one shift are found
there and nowhere else (docs/integrity.md, section 6).

Each month is ``--tables`` tables dealt ``--days`` days from 1 November (about 1,300 coups a table a day: the
simulator's clock), us-nj punto banco, three dealers a table taking turns, shifts 06:00, 14:00 and 22:00 in
America/New_York; every table's transcript checked in one run, as ``check`` does.

    .venv/bin/python bench/hold.py honest --months 2 --tables 4 --days 30
    .venv/bin/python bench/hold.py short --tables 4 --days 30       # T1's 14:00-22:00 shift paid short
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
from pathlib import Path

COUPS_A_DAY = 1_300
SHIFTS = ("06:00", "14:00", "22:00")
ZONE = "America/New_York"


def month(folder: Path, seed: int, tables: int, days: int, short: bool) -> list[str]:
    from compliance.games.baccarat.simulate import Simulator, write_transcript
    from compliance.ruleset.loader import load_ruleset

    rules = load_ruleset("us-nj")
    start = dt.datetime(2026, 11, 1, 6, 0, tzinfo=dt.timezone(dt.timedelta(hours=-5)))
    paths = []
    for t in range(1, tables + 1):
        inject = {"inject": {"integrity.settlement-drift:house": 1.0}, "during": (14 * 60, 22 * 60)} \
            if short and t == 1 else {}
        sim = Simulator(rules, coups=COUPS_A_DAY * days, seed=seed * 1000 + t, table_id=f"T{t}", dealers=3,
                        start=start, **inject)
        path = folder / f"m{seed}-T{t}.json"
        with open(path, "wb") as f:
            write_transcript(sim, f)
        paths.append(str(path))
    return paths


def judged(paths: list[str]):
    from compliance.context import RunContext
    from compliance.engine import Checker, judge_run

    checker = Checker(RunContext(shifts=SHIFTS, time_zone=ZONE), judge=False)
    results = [checker.check_file(p) for p in paths]
    judge_run(results, checker.context)
    view = results[0].integrity.hold_view
    findings = [f for r in results for f in r.findings if f.category == "integrity.hold"]
    return view, findings


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("honest", "short"))
    ap.add_argument("--months", type=int, default=1)
    ap.add_argument("--tables", type=int, default=4)
    ap.add_argument("--days", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    groups = outside = found = coups = 0
    by_kind: dict[str, list[int]] = {}
    scores: dict[str, list[float]] = {}  # each judged group's z-score, by kind: the spread's calibration
    with tempfile.TemporaryDirectory(prefix="hold-bench-") as tmp:
        for m in range(a.months):
            began = time.process_time()
            paths = month(Path(tmp), a.seed + m, a.tables, a.days, a.what == "short")
            view, findings = judged(paths)
            for p in paths:
                Path(p).unlink()
            n = sum(g.coups for g in view.groups if g.kind == "table")
            coups += n
            groups += len(view.groups)
            outside += len(view.outside)
            found += len(findings)
            for g in view.groups:
                seen = by_kind.setdefault(g.kind, [0, 0])
                seen[0] += 1
                seen[1] += g.outside
                if g.judged:
                    scores.setdefault(g.kind, []).append(float(g.z))
            print(f"month {m + 1}: {n:,} coups, {len(view.groups)} groups, {len(view.outside)} outside the 95% band, "
                  f"{len(findings)} findings ({time.process_time() - began:.0f} s CPU)", flush=True)
            for g in view.groups:
                if g.flagged or (a.what == "short" and g.outside):
                    print(f"  {'finding' if g.flagged else 'outside'}: {g.name}: hold {float(g.hold):.2%} against "
                          f"{float(g.theoretical_hold):.2%}, z {g.z:.2f}, p {g.p_value:.2g}, {g.direction}")
            for f in findings:
                print(f"  {f.message}")
    print(f"all: {coups:,} coups, {groups} groups, {outside} outside the 95% band ({outside / max(groups, 1):.1%}), "
          f"{found} integrity.hold findings")
    for kind, (n, out) in by_kind.items():
        z = scores.get(kind, [])
        spread = f"; z mean {statistics.mean(z):.3f}, variance {statistics.pvariance(z):.3f}" if len(z) > 1 else ""
        print(f"  {kind}: {n} groups, {out} outside ({out / n:.1%}){spread}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
