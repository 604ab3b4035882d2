"""Who the patron-level integrity rules name: the simulator's innocents, and the guilty beside them (docs/integrity.md).

Crowded EZ Baccarat nights (us-pa, nine dealers relieving each other every 40 coups, ``--stay 15``: about 250
patrons a night with those standing, honest slips in 1% of coups), each class of patron on nights of its own:

* **innocents** (``--inject innocent:WAY``, each at its default rate, and ``record.staff:contradictory``): the nights
  of a class checked as one run; the patrons and the dealers BAC-COLLUSION, PA-ADVANTAGE-PLAY or BAC-SETTLE-DRIFT
  name, per 1,000 patron-nights (a patron present at a night: seated, or wagering);
* **guilty** (``integrity.collusion@0.2``, ``@0.05``, ``integrity.collusion:push-paid@1``,
  ``integrity.advantage-play:wonging@0.2``, ``integrity.settlement-drift:house@0.01``): the first 1, 3, 10 and 20
  nights checked as one run, for each of ``--seeds`` seeds: how many runs find the guilty (the colluding patron or
  the counter named; for short payouts, the table's drift reported).

Every night is made from a stated seed (innocents: 1000 + night; guilty: 1000 * (100 + seed) + night), so the
figures are the same on every machine.

``--base DIR`` checks the same nights with the code of another tree (a checkout of main before a change, run
from that tree, its ``compliance`` package first on the path; in a tree that is not installed, link
``compliance/rulesets`` to its ``rulesets`` and ``compliance/rule_tests`` to its ``fixtures/rules``), for the
figures before and after.

    .venv/bin/python bench/innocents.py --nights 20 --coups 1000
    .venv/bin/python bench/innocents.py --nights 5 --base /tmp/main-copy     # the figures before
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from compliance.games.baccarat.simulate import Simulator, write_transcript
from compliance.games.baccarat.simulate.habits import HABITS
from compliance.ruleset.loader import load_ruleset

RULES = ("BAC-COLLUSION", "PA-ADVANTAGE-PLAY", "BAC-SETTLE-DRIFT")
INNOCENTS = {f"innocent:{way}": rate for way, rate in HABITS.items()} | {
    "innocent:back-bettor": 0.3, "innocent:redundant-staff": 1.0, "record.staff:contradictory": 1.0}
GUILTY = {"collusion@0.2": {"integrity.collusion:patron": 0.2}, "collusion@0.05": {"integrity.collusion:patron": 0.05},
          "push-paid@1": {"integrity.collusion:push-paid": 1.0},
          "wonging@0.2": {"integrity.advantage-play:wonging": 0.2},
          "short-pays@0.01": {"integrity.settlement-drift:house": 0.01}}
RUNS = (1, 3, 10, 20)


def play(where: Path, name: str, nights: int, coups: int, inject: dict, seed: int) -> tuple[list[Path], list]:
    """The class's nights, made once and kept (the same nights for the code before and after)."""
    paths, made = [], []
    for night in range(nights):
        path = where / f"{name}-{seed}-{night + 1}.jsonl"
        sim = Simulator(load_ruleset("us-pa"), coups=coups, seed=seed * 1000 + night, game="ez_baccarat", dealers=9,
                        stay=15, table_id=f"T-{night + 1}", inject={"settlement.wrong-amount": 0.01} | inject)
        if not path.exists():
            with open(path, "wb") as f:
                write_transcript(sim, f, "jsonl")
            _same_pair(path, sim.integrity)
        else:
            for _ in sim.coups():
                pass
        paths.append(path)
        made.append(sim.integrity)
    return paths, made


def _same_pair(path: Path, made: list) -> None:
    """A colluding pair under the same names every night (P-ACCOMPLICE, dealer D-01), as a run of nights of one
    accomplice and one dealer is (the simulator draws them anew each night)."""
    pair = next((i for i in made if i.category == "integrity.collusion"), None)
    if pair is None:
        return
    text = path.read_text()
    text = text.replace(f'"{pair.patron}"', '"P-ACCOMPLICE"')
    if pair.dealer != "D-01":
        text = text.replace('"D-01"', '"D-SWAP"').replace(f'"{pair.dealer}"', '"D-01"').replace('"D-SWAP"',
                                                                                                 f'"{pair.dealer}"')
    path.write_text(text)


def patrons_at(path: Path) -> set:
    """The patrons present at one night's transcript (.jsonl): seated, or wagering from behind a seat."""
    patrons = set()
    with open(path) as f:
        next(f)
        for line in f:
            c = json.loads(line)
            patrons.update(c.get("seated", {}).values())
            patrons.update(e["patron"] for e in c["events"] if e["type"] == "wager" and "patron" in e)
    return patrons


def present(paths: list[Path]) -> int:
    """Patron-nights: the patrons present at each night, summed over the nights."""
    return sum(len(patrons_at(path)) for path in paths)


def named(paths: list[Path], base: str | None) -> tuple[set, set, int]:
    """(the patrons, the dealers) the run's BAC-COLLUSION, PA-ADVANTAGE-PLAY and BAC-SETTLE-DRIFT findings name,
    and how many drift findings it has (a table's names no one)."""
    env = dict(os.environ, BACCARAT_AUDIT_NO_CACHE="1")
    if base:
        env["PYTHONPATH"] = base
    # run from the tree checked with: ``-m`` puts the working directory first on the path, before PYTHONPATH
    out = subprocess.run([sys.executable, "-m", "compliance", "check", *(str(p.resolve()) for p in paths), "-f",
                          "json", "-j", "1"], capture_output=True, text=True, env=env, cwd=base)
    if out.returncode not in (0, 1):
        raise SystemExit(out.stderr)
    patrons, dealers, drift = set(), set(), 0
    for f in json.loads(out.stdout)["findings"]:
        if f["rule"] not in RULES:
            continue
        drift += f["rule"] == "BAC-SETTLE-DRIFT"
        if f.get("money", {}).get("patron"):
            patrons.add(f["money"]["patron"])
        if f.get("staff", {}).get("dealer"):
            dealers.add(f["staff"]["dealer"])
    return patrons, dealers, drift


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nights", type=int, default=20, help="nights a class (the longest guilty run: at most this)")
    ap.add_argument("--coups", type=int, default=1000, help="coups a night")
    ap.add_argument("--seeds", type=int, default=1, help="guilty: runs of each length")
    ap.add_argument("--first-seed", type=int, default=1, help="guilty: the first of the seeds (more runs, in parts)")
    ap.add_argument("--base", help="check with the compliance package of this tree (the figures before)")
    ap.add_argument("--only", choices=("innocents", "guilty"))
    ap.add_argument("--keep", default=str(Path(tempfile.gettempdir()) / "baccarat-bench-innocents"),
                    help="where the nights are kept between runs")
    a = ap.parse_args(argv)
    where = Path(a.keep)
    where.mkdir(parents=True, exist_ok=True)
    print(f"{'before: ' + a.base if a.base else 'this tree'}; EZ Baccarat nights of {a.coups:,} coups, nine "
          f"dealers, --stay 15, honest slips in 1% of coups")
    if a.only != "guilty":
        print("innocents: patrons and dealers named (BAC-COLLUSION, PA-ADVANTAGE-PLAY, BAC-SETTLE-DRIFT), the nights of a "
              "class as one run")
        for kind, rate in INNOCENTS.items():
            paths, _ = play(where, kind.partition(":")[2], a.nights, a.coups, {kind: rate}, 1)
            patrons, dealers, _ = named(paths, a.base)
            shifts = present(paths)
            print(f"  {kind}@{rate}: {a.nights} nights, {shifts:,} patron-nights: {len(patrons)} patrons "
                  f"({1000 * len(patrons) / shifts:.2f} per 1,000), {len(dealers)} dealers named"
                  + (f" ({', '.join(sorted(patrons | dealers))})" if patrons or dealers else ""), flush=True)
    if a.only != "innocents":
        print("guilty: runs that find the guilty (of --seeds), by the nights in the run")
        for name, inject in GUILTY.items():
            cells = []
            for nights in (n for n in RUNS if n <= a.nights):
                found = 0
                for seed in range(a.first_seed, a.first_seed + a.seeds):
                    paths, made = play(where, name, nights, a.coups, inject, 100 + seed)
                    guilty = {"P-ACCOMPLICE" if i.category == "integrity.collusion" else i.patron for m in made
                              for i in m if i.category in ("integrity.collusion", "integrity.advantage-play")}
                    patrons, _, drift = named(paths, a.base)
                    found += bool(patrons & guilty) if guilty else drift > 0
                cells.append(f"{nights} night{'s' if nights > 1 else ''}: {found} of {a.seeds}")
            print(f"  {name}: " + "; ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
