"""Start-up cost of ``baccarat-audit``: each command against a bare ``python -c pass``.

Runs, in rounds, a bare interpreter (``python -c pass``, the same Python and
environment as the command) and each command, interleaved (A B A B ...), so a
busy machine slows both sides of a pair alike.  For each command it prints the
median of the per-round ratios command / bare Python, in wall-clock time and
in CPU time (user + system of the child: less sensitive to other processes on
the machine than the wall clock), and the medians of the raw times.

Goals (issue 17): ``--version`` and ``--help`` at most 5 times a bare
``python -c pass``, ``check`` of the bundled 6-coup sample at most 10 times.

    .venv/bin/python bench/startup.py --rounds 21
    .venv/bin/python bench/startup.py --no-cache   # check with the ruleset cache turned off
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "fixtures" / "samples" / "night-shift.json"

#: (name, arguments after the command, goal: at most this many times a bare python)
COMMANDS = (
    ("--version", ["--version"], 5),
    ("--help", ["--help"], 5),
    ("check sample", ["check", str(SAMPLE)], 10),
)


def command() -> list[str]:
    """The installed ``baccarat-audit`` script beside this Python, else ``python -m compliance``."""
    script = Path(sys.executable).parent / "baccarat-audit"
    if script.is_file():
        return [sys.executable, str(script)]  # the script's own interpreter, without the shell's lookup
    found = shutil.which("baccarat-audit")
    return [found] if found else [sys.executable, "-m", "compliance"]


def run(argv: list[str], env: dict) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system) of one run, output discarded."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                            env=env, cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15, help="paired runs per command (default 15)")
    ap.add_argument("--no-cache", action="store_true", help="check with the ruleset cache turned off")
    ap.add_argument("--cold", action="store_true", help="check with an empty cache directory each run")
    a = ap.parse_args(argv)
    env = dict(os.environ, NO_COLOR="1")
    cache = Path(tempfile.mkdtemp(prefix="baccarat-audit-bench-cache-"))
    env.pop("BACCARAT_AUDIT_CACHE_DIR", None)
    env["XDG_CACHE_HOME"] = str(cache)  # the bench's own cache: measured as a user's second run finds it
    # compiled modules, as an installed package has them: written (by the warm-up runs) under the bench's
    # own directory, whatever PYTHONDONTWRITEBYTECODE says, never beside the sources
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(cache / "pycache")
    if a.no_cache:
        env["BACCARAT_AUDIT_NO_CACHE"] = "1"
    bare = [sys.executable, "-c", "pass"]
    tool = command()
    for _, args, _ in COMMANDS:  # compile the modules, warm the file system cache and the ruleset cache
        run(tool + args, env)
    run(bare, env)
    rows = []
    for name, args, goal in COMMANDS:
        ratios_wall, ratios_cpu, walls, cpus, base_walls = [], [], [], [], []
        for _ in range(a.rounds):
            if a.cold and args[0] == "check":
                shutil.rmtree(cache / "baccarat-audit", ignore_errors=True)
            bw, bc = run(bare, env)
            cw, cc = run(tool + args, env)
            ratios_wall.append(cw / bw)
            ratios_cpu.append(cc / max(bc, 1e-3))
            walls.append(cw)
            cpus.append(cc)
            base_walls.append(bw)
        rows.append((name, statistics.median(ratios_wall), statistics.median(ratios_cpu), statistics.median(walls),
                     statistics.median(base_walls), goal))
    shutil.rmtree(cache, ignore_errors=True)
    print(f"{a.rounds} paired runs each, medians; bare = {' '.join(bare[1:])} with {sys.executable}")
    print(f"{'command':14} {'wall ratio':>10} {'cpu ratio':>10} {'wall':>9} {'bare wall':>10}  goal")
    for name, rw, rc, w, bw, goal in rows:
        mark = "ok" if rw <= goal else "MISSED"
        print(f"{name:14} {rw:9.1f}x {rc:9.1f}x {w * 1000:7.0f}ms {bw * 1000:8.0f}ms  <= {goal}x {mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
