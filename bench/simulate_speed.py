"""Coups per second of ``simulate`` (transcript written), and the time of an exact ``analyze``.

For each jurisdiction (or the one named), plays ``--coups`` coups with a fixed
seed and writes the ``.jsonl`` transcript to a temporary file, best of
``--repeat`` runs (wall clock, and per CPU-second, which a busy machine
disturbs less); then enumerates the 8-deck shoe once for ``analyze``.

    .venv/bin/python bench/simulate_speed.py --coups 50000
    .venv/bin/python bench/simulate_speed.py --jurisdiction au-nsw --method E --inject all
"""

from __future__ import annotations

import argparse
import tempfile
import time

from compliance.games.baccarat.analyze import _enumerate, analyze
from compliance.games.baccarat.simulate import Simulator, injectable, write_transcript
from compliance.games.baccarat.simulate.procedure import Procedure
from compliance.ruleset.loader import bundled_ids, load_ruleset


def simulate_once(ruleset, coups: int, method: str | None, inject: bool) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, breaches injected) of one run."""
    kinds = {}
    if inject:
        m = method or next(iter(ruleset.dealing_methods or {None: None}))
        kinds = {k: 0.01 for k in injectable(Procedure.of(ruleset), m)}
    sim = Simulator(ruleset, coups=coups, seed=1, dealing_method=method, inject=kinds)
    with tempfile.TemporaryFile() as out:
        start, cpu = time.perf_counter(), time.process_time()
        write_transcript(sim, out, "jsonl")
        return time.perf_counter() - start, time.process_time() - cpu, len(sim.injected)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--coups", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jurisdiction", default=None, help="default: every bundled jurisdiction")
    ap.add_argument("--method", default=None, help="dealing method (default: the ruleset's first)")
    ap.add_argument("--inject", choices=["none", "all"], default="none",
                    help="all: every injectable category at 1%% of the coups")
    args = ap.parse_args()
    ids = [args.jurisdiction] if args.jurisdiction else [
        i for i in bundled_ids() if not (r := load_ruleset(i, allow_abstract=True)).abstract and r.game is not None]
    for rid in ids:
        ruleset = load_ruleset(rid)
        best, cpu, injected = min(simulate_once(ruleset, args.coups, args.method, args.inject == "all")
                                  for _ in range(args.repeat))
        print(f"simulate {rid:<7} method {args.method or '-':<2} {args.coups:>8,} coups  {args.coups / best:>9,.0f} coups/s"
              f"  ({args.coups / cpu:,.0f} per CPU-second)"
              + (f"  ({injected} breaches injected)" if args.inject == "all" else ""))
    nj = load_ruleset(ids[0])
    _enumerate.cache_clear()
    start = time.perf_counter()
    a = analyze(nj.game.tableau, nj.game.spots_for("punto_banco"), 8)
    print(f"analyze  8 decks: {time.perf_counter() - start:.2f} s  (total {a.outcomes.total:,} permutations)")


if __name__ == "__main__":
    main()
