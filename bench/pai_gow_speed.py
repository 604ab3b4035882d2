"""Rounds per second of checking pai gow poker (simulated clean play, `.jsonl`), best of ``--repeat``.

Wall clock and per CPU-second (a busy machine disturbs the latter less).  A
round is seven hands of seven cards, about 25 events.

    .venv/bin/python bench/pai_gow_speed.py --rounds 20000
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from compliance.engine import Checker
from compliance.games.pai_gow.simulate import simulate, write


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = write(simulate(args.rounds, seed=1), Path(tmp) / "pai-gow.jsonl")
        best_wall = best_cpu = float("inf")
        for _ in range(args.repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            result = Checker().check_file(path)
            best_wall = min(best_wall, time.perf_counter() - wall)
            best_cpu = min(best_cpu, time.process_time() - cpu)
            assert not result.findings, result.findings[:3]
    print(f"{args.rounds:,} pai gow rounds: {args.rounds / best_wall:,.0f} rounds/s wall, "
          f"{args.rounds / best_cpu:,.0f} rounds per CPU-second")


if __name__ == "__main__":
    main()
