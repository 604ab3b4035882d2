"""CPU time and peak memory of ``baccarat-audit import`` on a large shoe log, and on two hostile logs.

Goals (issue: an import that loses nothing): a valid shoe log of 10 MB (about 143,000 card rows) under 10 CPU
seconds and 500 MB; a 100 MB log with a quote never closed, and a log whose header row has 2,000,000 columns,
each under 500 MB (and one clear message, exit 2 or 1, never a hang).

Each run is the installed command under ``/usr/bin/time -v`` (its CPU time, user + system, and its own peak RSS:
the load of a shared machine changes the wall-clock time, not these).  The logs are written line by line, so this
script stays small.

Measured on the 2-core development machine (loaded by other work): the valid 10 MB log (173,358 card rows, 35,109
coups) 7.0 CPU s and 155 MB, the 20 MB one (345,772 rows) 268 MB: each coup is written as it is built and its rows
freed, so memory grows with the rows of the coups kept (when every coup was held until the end: 266 MB and 481 MB;
before that 309 MB at 10 MB; the issue measured 15 s and 590 MB on its log); the unclosed quote's 100 MB and the
2,000,000-column header are in the report of the change.

    .venv/bin/python bench/import_bounds.py              # all three
    .venv/bin/python bench/import_bounds.py --only valid --mb 10
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMAND = [str(Path(sys.executable).with_name("baccarat-audit")), "import"]
RANKS = "A23456789TJQK"


def shoe_log(path: Path, mb: float, seed: int = 7) -> int:
    """A valid shoe log of about ``mb`` MB: 8-deck shoes dealt by the tableau, one card a row; its row count."""
    import random

    from compliance.games.baccarat.analyze import standard_tableau

    tableau = standard_tableau()
    rng = random.Random(seed)
    target = int(mb * 1e6)
    rows = 0
    size = 0
    with path.open("w", newline="") as f:
        head = "Table,Shoe,Coup,Seq,Card,Hand,Time,Dealer\n"
        f.write(head)
        size += len(head)
        shoe = coup = 0
        while size < target:
            shoe += 1
            deck = [r + s for r in RANKS for s in "SHDC"] * 8
            rng.shuffle(deck)
            while len(deck) > 14 and size < target:
                coup += 1
                hands = _deal(deck, tableau)
                for seq, (card, hand) in enumerate(hands, 1):
                    minute, second = divmod(coup * 40 + seq * 2, 60)
                    hour, minute = divmod(minute, 60)
                    line = (f"BAC-07,S{shoe:04d},{coup},{seq},{card},{hand},2026-11-29T{20 + hour % 4:02d}:{minute:02d}:"
                            f"{second:02d}+10:00,D-114\n")
                    f.write(line)
                    size += len(line)
                    rows += 1
    return rows


def _deal(deck: list[str], tableau) -> list[tuple[str, str]]:
    def value(code):
        return min(RANKS.index(code[0]) + 1, 10) % 10

    out = [(deck.pop(), h) for h in "PBPB"]
    p = (value(out[0][0]) + value(out[2][0])) % 10
    b = (value(out[1][0]) + value(out[3][0])) % 10
    if p in tableau.naturals or b in tableau.naturals:
        return out
    third = None
    if p in tableau.player_draws:
        third = deck.pop()
        out.append((third, "P"))
    if tableau.banker_draws(b, None if third is None else value(third)):
        out.append((deck.pop(), "B"))
    return out


def unclosed_quote(path: Path, mb: float) -> None:
    """A shoe log whose second row opens a quote never closed, then ``mb`` MB of rows."""
    with path.open("w") as f:
        f.write('Table,Shoe,Coup,Seq,Card,Hand\nBAC-07,S1,1,1,"4H,P\n')
        block = "BAC-07,S1,1,2,KS,B\n" * 50_000
        for _ in range(int(mb * 1e6 / len(block)) + 1):
            f.write(block)


def wide_header(path: Path, columns: int) -> None:
    with path.open("w") as f:
        f.write("Shoe,Coup,Card")
        for start in range(0, columns, 100_000):
            f.write("".join(f",C{i}" for i in range(start, min(start + 100_000, columns))))
        f.write("\nS1,1,4H\n")


def run(log: Path, out: Path) -> tuple[float, float, float, int, str]:
    """(CPU seconds, peak RSS MB, wall seconds, exit status, the command's last line) of one import."""
    report = out.with_suffix(".time")
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-v", "-o", str(report)] + COMMAND + [
        f"shoe-log={log}", "--table", "BAC-07", "--jurisdiction", "us-nj", "-o", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    got = dict(line.strip().rsplit(": ", 1) for line in report.read_text().splitlines() if ": " in line)
    lines = [line for line in proc.stderr.decode(errors="replace").strip().splitlines()]
    cpu = float(got["User time (seconds)"]) + float(got["System time (seconds)"])
    return cpu, int(got["Maximum resident set size (kbytes)"]) / 1024, wall, proc.returncode, (lines or [""])[-1][:160]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=("valid", "quote", "header"), action="append")
    ap.add_argument("--mb", type=float, default=10, help="size of the valid shoe log (MB)")
    ap.add_argument("--quote-mb", type=float, default=100)
    ap.add_argument("--columns", type=int, default=2_000_000)
    a = ap.parse_args(argv)
    which = a.only or ["valid", "quote", "header"]
    def valid(log: Path) -> str:
        return f"{shoe_log(log, a.mb):>9,} rows"

    def quote(log: Path) -> str:
        unclosed_quote(log, a.quote_mb)
        return ""

    def header(log: Path) -> str:
        wide_header(log, a.columns)
        return f"{a.columns:>9,} columns"

    # each case: how its log is written (giving what the line says of its size), its label, its goal
    cases = {"valid": (valid, "valid shoe log", "< 10 s, < 500 MB"), "quote": (quote, "unclosed quote", "< 500 MB"),
             "header": (header, "wide header", "< 500 MB")}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name in which:
            write, label, goal = cases[name]
            log = tmp / f"{name}.csv"
            size = write(log)
            cpu, rss, wall, status, last = run(log, tmp / f"{name}.jsonl")
            said = f"exit {status}" if name == "valid" else f"exit {status}: {last}"
            print(f"{label:<15} {log.stat().st_size / 1e6:6.1f} MB {size}  CPU {cpu:5.1f} s  peak RSS {rss:6.1f} MB  "
                  f"({wall:.1f} s wall, {said})  goal: {goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
