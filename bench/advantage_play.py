"""Patron-level integrity measured: the count's error, detection power, false alarms and cost (docs/integrity.md).

Four parts, each short enough for a shared two-core machine (a few minutes in all at the defaults):

* ``count``: the effect-of-removal count of the Dragon 7 and Panda 8 edges against the exact enumeration, on
  the shoes left before the coups of ``--shoes`` shuffled 8-deck shoes dealt by the tableau to the cut card
  (every ``--every``-th coup): the largest error, by decks left, and how often the two disagree on the sign;
* ``power``: simulated EZ Baccarat nights (us-pa, four dealers) under ``integrity.collusion@RATE`` and
  ``integrity.advantage-play@RATE`` for a range of rates: the coup (and shoe) at which each is found;
* ``fair``: fair nights (honest slips in 1% of coups): findings of BAC-COLLUSION and PA-ADVANTAGE-PLAY per
  patron-shift (a patron's presence at the table in one night), with the 95% upper bound; and the share of
  each advantage-play test at or below 0.05 and 0.01 (a calibrated test: at most that);
* ``cost``: the CPU time of ``check`` on an EZ Baccarat table with side wagers beside 30% of the main wagers
  (``bench/generate.py``'s, patrons named), with PA-ADVANTAGE-PLAY on and off, alternated, each in a fresh
  process, the median of ``--repeat`` rounds; or (``--instructions``, where valgrind is installed) the
  instructions of each check counted by cachegrind, which a loaded machine does not change.

    .venv/bin/python bench/advantage_play.py            # all four
    .venv/bin/python bench/advantage_play.py count --shoes 40
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_speed import transcript  # noqa: E402
from innocents import patrons_at  # noqa: E402

from compliance._internal import driver  # noqa: E402
from compliance._internal.inputs import Input  # noqa: E402
from compliance.cards import DECK, POINTS  # noqa: E402
from compliance.context import RunContext  # noqa: E402
from compliance.games.baccarat import edges  # noqa: E402
from compliance.games.baccarat.integrity import advantage  # noqa: E402
from compliance.games.baccarat.simulate import Simulator, write_transcript  # noqa: E402
from compliance.games.baccarat.spots import table_spots  # noqa: E402
from compliance.ruleset.loader import load_ruleset  # noqa: E402

RULES = {"integrity.collusion": "BAC-COLLUSION", "integrity.advantage-play": "PA-ADVANTAGE-PLAY"}
CUT = 14  # cards behind the cut card, as the simulator's shoes


def _coup_cards(values: list[int], at: int, tableau) -> int:
    """How many cards the tableau deals in the coup starting at ``values[at]``."""
    p, b = (values[at] + values[at + 2]) % 10, (values[at + 1] + values[at + 3]) % 10
    if p in tableau.naturals or b in tableau.naturals:
        return 4
    if p in tableau.player_draws:
        row = tableau.banker_draws_on_player_third_card.get(b)
        return 6 if row is not None and row[values[at + 4]] == "D" else 5
    return 5 if b in tableau.banker_draws_when_player_stood else 4


def count(shoes: int, every: int, seed: int) -> None:
    pa = load_ruleset("us-pa")
    spots = table_spots(pa.game.spots_for("ez_baccarat"))
    tableau = pa.game.tableau
    naturals = frozenset(tableau.naturals)
    rng = random.Random(seed)
    print(f"the count against the exact edge: {shoes} shuffled 8-deck shoes, every {every}th coup to the cut card")
    for name in ("dragon_7", "panda_8"):
        back = edges.returns(spots[name], naturals)
        counted = edges.removal_count(tableau, back, 8)
        bands: dict[int, list] = {}  # decks left -> [compositions, largest error, sign disagreements, exact > 0]
        start = time.process_time()
        exact_calls = 0
        for _ in range(shoes):
            values = [POINTS[c] for c in DECK * 8]
            rng.shuffle(values)
            left = list(edges.full_shoe(8))
            at, coup = 0, 0
            while len(values) - at > CUT:
                if coup % every == 0:
                    exact = float(edges.exact_edge(tableau, back, left))
                    exact_calls += 1
                    estimate = counted.estimate(left)
                    band = bands.setdefault(sum(left) // 52, [0, 0.0, 0, 0])
                    band[0] += 1
                    band[1] = max(band[1], abs(exact - estimate))
                    band[2] += (exact > 0) != (estimate > 0)
                    band[3] += exact > 0
                n = _coup_cards(values, at, tableau)
                for v in values[at:at + n]:
                    left[v] -= 1
                at += n
                coup += 1
        took = time.process_time() - start
        print(f"  {name}: {exact_calls} shoes left, exact {1000 * took / exact_calls:.1f} ms each (CPU)")
        print("    decks left | compositions | largest error (points of edge) | sign differs | exact edge > 0")
        worst = 0.0
        for band in sorted(bands, reverse=True):
            n, err, differ, positive = bands[band]
            worst = max(worst, err)
            print(f"    {band}-{band + 1} | {n} | {100 * err:.3f} | {differ} | {positive}")
        total = [sum(b[i] for b in bands.values()) for i in (0, 2, 3)]
        print(f"    all | {total[0]} | {100 * worst:.3f} | {total[1]} ({total[1] / total[0]:.2%}) | {total[2]}")


def night(path: Path, coups: int, seed: int, inject: dict) -> Simulator:
    sim = Simulator(load_ruleset("us-pa"), coups=coups, seed=seed, game="ez_baccarat", dealers=4, inject=inject)
    with open(path, "wb") as f:
        write_transcript(sim, f, "jsonl")
    return sim


def power(coups: int, seeds: int) -> None:
    print(f"detection power: EZ Baccarat nights of {coups:,} coups (us-pa, four dealers, honest slips in 1% of "
          f"coups), {seeds} seeds a rate; the coup at which the finding is decisive (the shoe it is in; the "
          f"injected events up to it, of those in the night), '-' not found")
    tmp = Path(tempfile.gettempdir()) / "baccarat-bench-advantage-power.jsonl"
    cases = [("integrity.collusion", r) for r in (0.2, 0.1, 0.05, 0.02)] + \
            [("integrity.advantage-play", r) for r in (1.0, 0.25, 0.1, 0.05, 0.02)]
    for category, rate in cases:
        found = []
        for seed in range(1, seeds + 1):
            sim = night(tmp, coups, seed, {category: rate, "settlement.wrong-amount": 0.01})
            (made,) = [i for i in sim.integrity if i.category == category] or [None]
            (result,) = driver.run([Input(str(tmp), tmp.name)], RunContext())
            hits = [f for f in result.findings if f.rule == RULES[category]
                    and (made is None or f.money is None or f.money.patron == made.patron)]
            if hits:
                coup = min(f.coup for f in hits)
                shoe = sum(1 for s in _shoe_starts(tmp) if s <= coup)
                done = made.overpaid or tuple(n for n, _, _ in made.wagered)
                before = sum(1 for n in done if n <= coup)
                found.append(f"{coup:,} ({shoe}; {before} of {len(done)})")
            else:
                found.append("-")
        print(f"  {category}@{rate}: " + "; ".join(found))


def _shoe_starts(path: Path) -> list[int]:
    starts, last = [], None
    with open(path) as f:
        next(f)
        for line in f:
            c = json.loads(line)
            if c["shoe"] != last:
                starts.append(c["coup"])
                last = c["shoe"]
    return starts


def fair(nights: int, coups: int) -> None:
    tmp = Path(tempfile.gettempdir()) / "baccarat-bench-advantage-fair.jsonl"
    shifts = tested = false = 0
    pvalues: list[float] = []
    original = advantage.tests_of

    def spy(line):
        out = original(line)
        pvalues.extend(float(t.p_value) for t in out)
        return out

    advantage.tests_of = spy
    try:
        for seed in range(1000, 1000 + nights):
            night(tmp, coups, seed, {"settlement.wrong-amount": 0.01})
            (result,) = driver.run([Input(str(tmp), tmp.name)], RunContext())
            false += sum(1 for f in result.findings if f.rule in RULES.values())
            shifts += len(patrons_at(tmp))  # those seated, and those standing who wagered
            tested = len(pvalues)
    finally:
        advantage.tests_of = original
    bound = -math.log(0.05) / shifts if not false else None
    print(f"false alarms: {nights} fair EZ Baccarat nights of {coups:,} coups (four dealers, honest slips in 1% of "
          f"coups): {shifts:,} patron-shifts, {false} findings of BAC-COLLUSION or PA-ADVANTAGE-PLAY"
          + (f"; 95% upper bound {bound * 1000:.2f} per 1,000 patron-shifts" if bound is not None else ""))
    for level in (0.05, 0.01):
        share = sum(p <= level for p in pvalues) / tested
        print(f"  advantage-play tests at p <= {level}: {share:.2%} of {tested:,} (a calibrated test: at most "
              f"{level:.0%})")


#: one check in a fresh process, its own CPU time printed (the import and the ruleset's loading left out)
CHILD = ("import sys, time\nfrom compliance.engine import Checker\nchecker = Checker(ruleset=sys.argv[2] or None)\n"
         "start = time.process_time()\nchecker.check_file(sys.argv[1])\nprint(time.process_time() - start)")


def cost(coups: int, repeat: int, instructions: bool = False) -> None:
    path = transcript(coups, "us-pa", "face_up", 1000, "ez_baccarat", 0.3)
    off = Path(tempfile.gettempdir()) / "baccarat-bench-us-pa-no-advantage.yaml"
    off.write_text("id: us-pa-no-advantage\ntitle: us-pa without advantage play\nversion: bench\nextends: us-pa\n"
                   "overrides:\n  PA-ADVANTAGE-PLAY: {enabled: false}\n", encoding="utf-8")
    # instructions: each child under cachegrind (no cache simulation), its instructions counted whatever the load
    # (the process's, its start included: the same for both); a first check of each warms the run's caches
    wrap = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"] \
        if instructions else []
    if instructions:
        repeat = 1
        for ruleset in (str(off), ""):
            subprocess.run([sys.executable, "-c", CHILD, str(path), ruleset], capture_output=True, check=True)
    times: dict[str, list[float]] = {"off": [], "on": []}
    loads = []
    for i in range(repeat):  # alternated, each first in every other round; each check in a process of its own
        order = [("off", str(off)), ("on", "")]
        for name, ruleset in order if i % 2 == 0 else order[::-1]:
            out = subprocess.run([*wrap, sys.executable, "-c", CHILD, str(path), ruleset], capture_output=True,
                                 text=True, check=True)
            if instructions:
                refs = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
                times[name].append(int(refs.group(1).replace(",", "")))
            else:
                times[name].append(float(out.stdout.split()[-1]))
            loads.append(os.getloadavg()[0])
    mid = {k: statistics.median(v) for k, v in times.items()}
    if instructions:
        print(f"cost: check of {coups:,} EZ Baccarat coups, side wagers beside 30% of the main wagers, in "
              f"instructions (cachegrind, the whole process, caches warm): without PA-ADVANTAGE-PLAY "
              f"{mid['off']:,.0f}, with it {mid['on']:,.0f}: +{(mid['on'] - mid['off']) / mid['off']:.1%}")
        return
    paired = sorted(b / a - 1 for a, b in zip(times["off"], times["on"], strict=True))
    print(f"cost: check of {coups:,} EZ Baccarat coups, side wagers beside 30% of the main wagers, one core (CPU "
          f"time of the check in a fresh process, {repeat} rounds alternated, median): without PA-ADVANTAGE-PLAY "
          f"{mid['off']:.2f} s, with it {mid['on']:.2f} s: +{(mid['on'] - mid['off']) / mid['off']:.1%} "
          f"({1e6 * (mid['on'] - mid['off']) / coups:.1f} µs a coup); round by round "
          + ", ".join(f"{r:+.1%}" for r in paired) + f" (load average {min(loads):.1f} to {max(loads):.1f})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("parts", nargs="*", default=["count", "power", "fair", "cost"])
    ap.add_argument("--shoes", type=int, default=30, help="count: shoes sampled")
    ap.add_argument("--every", type=int, default=3, help="count: every Nth coup of a shoe")
    ap.add_argument("--coups", type=int, default=6000, help="power, fair: coups a night")
    ap.add_argument("--seeds", type=int, default=3, help="power: nights a rate")
    ap.add_argument("--nights", type=int, default=8, help="fair: nights")
    ap.add_argument("--cost-coups", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5, help="cost: rounds")
    ap.add_argument("--instructions", action="store_true",
                    help="cost: count instructions under valgrind (cachegrind) instead of CPU time: load-independent")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    for part in a.parts:
        if part == "count":
            count(a.shoes, a.every, a.seed)
        elif part == "power":
            power(a.coups, a.seeds)
        elif part == "fair":
            fair(a.nights, a.coups)
        elif part == "cost":
            cost(a.cost_coups, a.repeat, a.instructions)
        else:
            ap.error(f"no part {part!r} (count, power, fair, cost)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
