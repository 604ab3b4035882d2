"""The speed-up of ``check -j N`` over ``-j 1`` on one large simulated ``.jsonl`` (issue 29: at least 1.8 with -j 2).

Simulates a night once (``baccarat-audit simulate``: dealers relieving each
other, timestamps, a few injected breaches of every kind, the integrity
stage's included, so every rule of the ruleset has work), then runs the
installed command as an auditor would, every rule on, alternately with
``-j 1`` and ``-j N`` (A B A B ...), each under ``/usr/bin/time -v``, and
checks the reports are the same bytes.  Prints each run's wall-clock and CPU
time and peak memory, the load of the machine before it (``/proc/loadavg``:
other work on the cores slows the parallel run more than the serial one), and
the median of the paired ratios.

    .venv/bin/python bench/check_jobs.py --coups 200000 --jobs 2 --repeat 3
"""

from __future__ import annotations

import argparse
import hashlib
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BIN = Path(sys.executable).with_name("baccarat-audit")
INJECT = ("settlement@0.001", "third-card@0.001", "wager@0.001", "curator@0.001", "integrity.unshuffled@0.02",
          "integrity.outcomes@0.02", "integrity.settlement-drift@0.005", "integrity.collusion@0.005")


def night(coups: int, jurisdiction: str) -> Path:
    """The simulated night for these parameters (made once, then reused)."""
    path = Path(tempfile.gettempdir()) / f"baccarat-jobs-{jurisdiction}-{coups}.jsonl"
    if not path.exists():
        print(f"simulating {coups:,} coups -> {path}", file=sys.stderr)
        tmp = path.with_name(path.stem + ".part.jsonl")
        command = [str(BIN), "simulate", "-r", jurisdiction, "-n", str(coups), "--seed", "29", "--dealers", "8",
                   "--start", "2026-11-01T20:00:00Z", "--irregularities", "0.002", "--no-progress", "-o", str(tmp)]
        for inject in INJECT:
            command += ["--inject", inject]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        tmp.replace(path)
        tmp.with_name(tmp.name + ".injected.json").unlink(missing_ok=True)
    return path


def _seconds(text: str) -> float:
    parts = [float(p) for p in text.split(":")]
    return sum(p * 60 ** k for k, p in enumerate(reversed(parts)))


def run(path: Path, jobs: int) -> dict:
    """One check under /usr/bin/time -v: wall and CPU seconds, peak RSS (MB), the report's digest, the load."""
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    command = ["/usr/bin/time", "-v", str(BIN), "check", "--format", "json", "--no-progress", "--isolated",
               "--timestamp", "2026-11-29T00:00:00Z", "-j", str(jobs), str(path)]
    proc = subprocess.run(command, capture_output=True)
    err = proc.stderr.decode(errors="replace")

    def field(name: str) -> str:
        m = re.search(rf"^\s*{re.escape(name)}: (.*)$", err, re.MULTILINE)
        if m is None:
            raise SystemExit(f"/usr/bin/time gave no {name!r}:\n{err[-2000:]}")
        return m.group(1).strip()

    return {"wall": _seconds(field("Elapsed (wall clock) time (h:mm:ss or m:ss)")),
            "cpu": float(field("User time (seconds)")) + float(field("System time (seconds)")),
            "rss": int(field("Maximum resident set size (kbytes)")) / 1024, "load": load,
            "digest": hashlib.sha256(proc.stdout).hexdigest(), "code": proc.returncode}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--coups", type=int, default=200_000)
    ap.add_argument("--jurisdiction", default="au-nsw")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3, help="pairs of runs (-j 1 then -j N)")
    a = ap.parse_args(argv)
    path = night(a.coups, a.jurisdiction)
    print(f"transcript {path.name}: {a.coups:,} coups, {path.stat().st_size / 1e6:.0f} MB")
    ratios, digests = [], set()
    for k in range(a.repeat):
        one, many = run(path, 1), run(path, a.jobs)
        for jobs, r in ((1, one), (a.jobs, many)):
            digests.add(r["digest"])
            print(f"pair {k + 1}  -j {jobs:<3} wall {r['wall']:7.2f} s  cpu {r['cpu']:7.2f} s  peak {r['rss']:6.0f} MB  "
                  f"exit {r['code']}  load before {r['load']}")
        ratios.append(one["wall"] / many["wall"])
    print(f"speed-up of -j {a.jobs} (wall, median of {len(ratios)} pairs): {statistics.median(ratios):.2f}x "
          f"(pairs: {', '.join(f'{r:.2f}' for r in ratios)}); reports identical: {'yes' if len(digests) == 1 else 'NO'}")
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
