"""Peak resident memory of ``baccarat-audit check`` on a 1,000,000-coup ``.jsonl`` (goal: under 150 MB).

Runs the installed command in a child process, once per size, and reads the
child's peak RSS from the kernel (``getrusage``).  Memory must not grow with
the file: the figures for a tenth and for the whole file are printed side by
side.

    .venv/bin/python bench/check_memory.py --coups 1000000
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_speed import transcript  # noqa: E402

COMMAND = [str(Path(sys.executable).with_name("baccarat-audit")), "check", "--format", "json", "--no-progress"]


def peak_rss(path: Path, jobs: int) -> tuple[float, float, int]:
    """(peak RSS in MB of the largest process, seconds, exit status) of one check run in a fresh process."""
    start = time.perf_counter()
    proc = subprocess.Popen(COMMAND + ["-j", str(jobs), str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = status  # reaped here
    return usage.ru_maxrss / 1024, time.perf_counter() - start, os.waitstatus_to_exitcode(status)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--coups", type=int, default=1_000_000)
    ap.add_argument("--jurisdiction", default="au-nsw")
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args(argv)
    sizes = sorted({max(a.coups // 10, 1), a.coups})
    for coups in sizes:
        path = transcript(coups, a.jurisdiction, "C", 1000)
        rss, seconds, status = peak_rss(path, a.jobs)
        print(f"{coups:>10,} coups  {path.stat().st_size / 1e6:>6,.0f} MB file  peak RSS {rss:6.1f} MB  "
              f"({seconds:.1f} s, -j {a.jobs}, exit {status})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
