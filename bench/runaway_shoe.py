"""A runaway shoe: one shoe dealt far past its cards, checked in time linear in its coups and bounded memory.

A recorder that never marks a new shoe gives one shoe of hundreds of thousands
of coups.  Such a shoe runs out of cards once, and that is one finding
(``shoe.integrity``: the card past its end, with the counts), not a finding for
every card after it; the integrity stage judges the cards the shoe could hold.

Generates (once, cached next to the system's temporary files) a transcript of
``N`` coups all in shoe ``S1`` of 8 decks: each coup dealt by the tableau from
a pack shuffled again whenever it is used up, recorded as a card-reading shoe
and the results give them (format 1.1: cards, hands, order, results), then
runs ``baccarat-audit check -j 1`` on it in a fresh process for each size and
prints the CPU time, the time per coup, the peak RSS and the findings by rule.

    .venv/bin/python bench/runaway_shoe.py                      # 200,000 and 1,000,000 coups
    .venv/bin/python bench/runaway_shoe.py --coups 100000 300000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from compliance.cards import DECK, POINTS  # noqa: E402
from compliance.games.baccarat.analyze import standard_tableau  # noqa: E402

COMMAND = [str(Path(sys.executable).with_name("baccarat-audit")), "check", "--format", "json", "--no-progress",
           "-j", "1"]


def transcript(coups: int, seed: int = 1, directory: Path | None = None) -> Path:
    """The transcript of ``coups`` coups in one shoe (written once into ``directory``, the temporary files'
    by default)."""
    path = Path(directory or tempfile.gettempdir()) / f"baccarat-bench-runaway-{coups}-{seed}.jsonl"
    if path.exists():
        return path
    rng = random.Random(seed)
    tableau = standard_tableau()
    pack: list[str] = []

    def draw() -> str:
        if not pack:
            pack.extend(DECK * 8)
            rng.shuffle(pack)
        return pack.pop()

    head = {"format": "baccarat-transcript", "version": "1.1", "recorded": ["cards", "hands", "order", "results"],
            "table": {"id": "RUNAWAY", "jurisdiction": "us-nj", "game": "punto_banco", "seats": 7,
                      "limits": {"min_wager": 25, "max_wager": 5000, "table_differential": 5000}},
            "shoes": [{"id": "S1", "decks": 8}]}
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(json.dumps(head) + "\n")
        for n in range(1, coups + 1):
            p, b = [draw()], [draw()]
            p.append(draw())
            b.append(draw())
            order = [("player", p[0]), ("banker", b[0]), ("player", p[1]), ("banker", b[1])]
            pi, bi = sum(POINTS[c] for c in p) % 10, sum(POINTS[c] for c in b) % 10
            if pi not in tableau.naturals and bi not in tableau.naturals:
                third = None
                if pi in tableau.player_draws:
                    p.append(draw())
                    third = POINTS[p[-1]]
                    order.append(("player", p[-1]))
                if tableau.banker_draws(bi, third):
                    b.append(draw())
                    order.append(("banker", b[-1]))
            pt, bt = sum(POINTS[c] for c in p) % 10, sum(POINTS[c] for c in b) % 10
            events = [{"type": "card", "card": c, "to": to} for to, c in order]
            events.append({"type": "result", "winner": "player" if pt > bt else "banker" if bt > pt else "tie",
                           "player_points": pt, "banker_points": bt})
            f.write(json.dumps({"coup": n, "shoe": "S1", "events": events}, separators=(",", ":")) + "\n")
    tmp.replace(path)
    return path


def check(path: Path) -> tuple[float, float, Counter]:
    """(CPU seconds, peak RSS in MB, findings by rule) of one ``check -j 1`` in a fresh process."""
    out = path.with_suffix(".report.json")
    with open(out, "wb") as f:
        proc = subprocess.Popen(COMMAND + [str(path)], stdout=f, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
    report = json.loads(out.read_text())
    out.unlink()
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, Counter(f["rule"] for f in report["findings"])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--coups", type=int, nargs="+", default=[200_000, 1_000_000])
    a = ap.parse_args(argv)
    for n in a.coups:
        path = transcript(n)
        seconds, rss, rules = check(path)
        print(f"{n:>9,} coups in one shoe ({path.stat().st_size / 1e6:,.0f} MB): {seconds:6.1f} s CPU "
              f"({seconds / n * 1e6:.1f} us a coup), peak RSS {rss:,.0f} MB; findings: "
              + (", ".join(f"{rule} {count:,}" for rule, count in sorted(rules.items())) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
