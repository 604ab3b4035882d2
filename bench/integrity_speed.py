"""What shoe and table integrity adds to ``check``: time per core, and peak memory, on 1,000,000 coups.

Generates (once, cached next to the system's temporary files, as the other
bench scripts do) a clean ``.jsonl`` transcript of 8-deck shoes with one wrong
settlement every 1,000 coups, then checks it on one core, alternating so that
a noisy machine slows both alike:

* with the jurisdiction's rules as bundled (the integrity rules BAC-SHUFFLE,
  BAC-OUTCOMES and BAC-SETTLE-DRIFT on, as by default);
* with the same rules but those three turned off (a ruleset extending the
  jurisdiction that disables them).

Prints both times, the time integrity adds (in all and per coup, and as a
share of the check's own), split into the collection during the replay and
the judging of the run at the end; with ``--memory``, the peak RSS of both
runs in a fresh ``baccarat-audit check`` process.

    .venv/bin/python bench/integrity_speed.py --coups 1000000
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_speed import transcript  # noqa: E402

from compliance import engine  # noqa: E402
from compliance.engine import Checker  # noqa: E402

COMMAND = [str(Path(sys.executable).with_name("baccarat-audit")), "check", "--format", "json", "--no-progress", "-j", "1"]


def without_integrity(jurisdiction: str) -> Path:
    """A ruleset: the jurisdiction's, with the three integrity rules turned off."""
    path = Path(tempfile.gettempdir()) / f"baccarat-bench-{jurisdiction}-no-integrity.yaml"
    path.write_text(f"id: {jurisdiction}-no-integrity\ntitle: {jurisdiction} without integrity\nversion: bench\n"
                    f"extends: {jurisdiction}\noverrides:\n  BAC-SHUFFLE: {{enabled: false}}\n"
                    "  BAC-OUTCOMES: {enabled: false}\n  BAC-SETTLE-DRIFT: {enabled: false}\n"
                    "  BAC-COLLUSION: {enabled: false}\n", encoding="utf-8")
    return path


def check_once(path: Path, ruleset: str | None) -> tuple[float, float, int, int]:
    """(CPU seconds in all, CPU seconds judging the run, coups, findings) of one check on one core.

    CPU time, not wall time: the machine these figures come from is shared, and a neighbour's load slows the
    wall clock of both runs unevenly."""
    judged = [0.0]
    original = engine.judge_run

    def timed(results):
        start = time.process_time()
        original(results)
        judged[0] += time.process_time() - start

    engine.judge_run = timed
    try:
        checker = Checker(ruleset=ruleset)
        start = time.process_time()
        result = checker.check_file(path)
        return time.process_time() - start, judged[0], result.coups, len(result.findings)
    finally:
        engine.judge_run = original


def peak_rss(path: Path, ruleset: str | None) -> float:
    command = COMMAND + (["--ruleset", ruleset] if ruleset else []) + [str(path)]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = status
    return usage.ru_maxrss / 1024


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--coups", type=int, default=1_000_000)
    ap.add_argument("--jurisdiction", default="au-nsw")
    ap.add_argument("--repeat", type=int, default=1, help="timed runs of each (0: the memory only)")
    ap.add_argument("--memory", action="store_true", help="also the peak RSS of both, in fresh processes")
    a = ap.parse_args(argv)
    path = transcript(a.coups, a.jurisdiction, "C", 1000)
    off = str(without_integrity(a.jurisdiction))
    if a.memory:  # first, while this process is small: a child's peak counts what it inherited at the fork
        print(f"peak RSS of a fresh `check -j 1`, without / with integrity: {peak_rss(path, off):.0f} MB / "
              f"{peak_rss(path, None):.0f} MB")
    if a.repeat < 1:
        return 0
    with_times, without_times, judge_times = [], [], []
    coups = found_on = found_off = 0
    for _ in range(a.repeat):
        seconds, judging, coups, found_on = check_once(path, None)
        with_times.append(seconds)
        judge_times.append(judging)
        seconds, _, coups, found_off = check_once(path, off)
        without_times.append(seconds)
    on, plain, judging = min(with_times), min(without_times), min(judge_times)
    added = on - plain
    print(f"transcript {path.name}: {coups:,} coups, {path.stat().st_size / 1e6:,.0f} MB; one core, CPU time, "
          f"best of {a.repeat}")
    print(f"check without integrity   {plain:7.2f} s  {coups / plain:>9,.0f} coups/s  {found_off:,} findings")
    print(f"check with integrity      {on:7.2f} s  {coups / on:>9,.0f} coups/s  {found_on:,} findings")
    print(f"integrity adds            {added:7.2f} s  {added / coups * 1e6:6.2f} us a coup  "
          f"({added / plain:.1%} of the check's own time)")
    print(f"  of which judging the run {judging:6.2f} s  (collecting during the replay: {added - judging:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
