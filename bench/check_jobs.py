"""The speed-up of ``check -j N`` over ``-j 1`` on one large ``.jsonl`` (goal: at least 1.7 with -j 2 on 2 cores).

Runs the installed command (as an auditor would) alternately with ``-j 1``
and ``-j N``, best of ``--repeat`` each, and checks the two reports are the
same bytes.

    .venv/bin/python bench/check_jobs.py --coups 400000 --jobs 2
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_speed import transcript  # noqa: E402

COMMAND = [str(Path(sys.executable).with_name("baccarat-audit")), "check", "--format", "json", "--no-progress",
           "--timestamp", "2026-11-29T00:00:00Z"]


def run(path: Path, jobs: int) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(COMMAND + ["-j", str(jobs), str(path)], capture_output=True).stdout
    return time.perf_counter() - start, hashlib.sha256(out).hexdigest()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--coups", type=int, default=400_000)
    ap.add_argument("--jurisdiction", default="au-nsw")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args(argv)
    path = transcript(a.coups, a.jurisdiction, "C", 1000)
    one, many, digests = [], [], set()
    for _ in range(a.repeat):
        t, d = run(path, 1)
        one.append(t)
        digests.add(d)
        t, d = run(path, a.jobs)
        many.append(t)
        digests.add(d)
    print(f"transcript  {path.name}: {a.coups:,} coups")
    print(f"-j 1        {min(one):7.2f} s   {a.coups / min(one):>9,.0f} coups/s")
    print(f"-j {a.jobs:<8} {min(many):7.2f} s   {a.coups / min(many):>9,.0f} coups/s")
    print(f"speed-up    {min(one) / min(many):.2f}x   reports identical: {'yes' if len(digests) == 1 else 'NO'}")
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
