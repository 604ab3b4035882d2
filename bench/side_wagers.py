"""What side wagers cost the check: the same table with and without them, timed in turn (issue 15).

Generates (once, cached like ``check_speed.py``) two clean transcripts of an
EZ Baccarat table of ``us-pa``: one whose patrons wager on the main spots
only, one where a share of the main wagers (``--side-wagers``) have a Dragon 7
or Panda 8 wager beside them.  Checks each ``--repeat`` times, alternating so
that a noisy machine slows both alike, and prints the best coups/s of each
and their ratio.  The goal: with side wagers on, the check keeps at least 90%
of its coups/s without them.

    .venv/bin/python bench/side_wagers.py --coups 100000 --side-wagers 0.3
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_speed import check_once, transcript  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--coups", type=int, default=100_000)
    ap.add_argument("--jurisdiction", default="us-pa")
    ap.add_argument("--game", default="ez_baccarat")
    ap.add_argument("--method", default="face_up", help="dealing method of the generated coups ('' for none)")
    ap.add_argument("--side-wagers", type=float, default=0.3, help="share of the main wagers with a side wager")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args(argv)
    plain = transcript(a.coups, a.jurisdiction, a.method or None, 1000, a.game, 0.0)
    side = transcript(a.coups, a.jurisdiction, a.method or None, 1000, a.game, a.side_wagers)
    times: dict[str, list[float]] = {"without": [], "with": []}
    counts = {}
    for _ in range(a.repeat):
        for name, path in (("without", plain), ("with", side)):
            elapsed, coups, findings = check_once(path)
            times[name].append(elapsed)
            counts[name] = (coups, findings, path.stat().st_size)
    best = {name: min(t) for name, t in times.items()}
    for name in ("without", "with"):
        coups, findings, size = counts[name]
        print(f"{name:7} side wagers: {coups:,} coups, {size / 1e6:,.0f} MB, {findings:,} findings, "
              f"{coups / best[name]:>9,.0f} coups/s (best of {a.repeat})")
    keep = (counts["with"][0] / best["with"]) / (counts["without"][0] / best["without"])
    print(f"with side wagers the check keeps {keep:.1%} of its coups/s (goal: at least 90%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
