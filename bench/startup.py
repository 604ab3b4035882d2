"""Start-up cost of ``baccarat-audit`` as users install it: each command against a bare ``python -c pass``.

By default the package is built into a wheel and installed, as a user's ``pip install`` does (not
editable), into a fresh virtual environment under the system's temporary directory; the dependencies
are those of this environment, seen through a ``.pth`` file (offline, nothing downloaded), whose own
``.pth`` files (an editable install's import hook) are not run.  The bare interpreter is that
environment's ``python -c pass``.  (``--here`` measures this environment instead: in an editable
install the bare interpreter itself is slower, which flatters the ratios.)

Runs, in rounds, the bare interpreter and each command, interleaved (A B A B ...), so a busy machine
slows both sides of a pair alike.  For each command it prints the median of the per-round ratios
command / bare Python, in wall-clock time and in CPU time (user + system of the child: less sensitive
to other processes on the machine than the wall clock), and the medians of the raw times.

Goals (issue 17, and issue 29 for the regular install): ``--version`` and ``--help`` at most 5 times a
bare ``python -c pass``, ``check`` of the bundled 6-coup sample at most 10 times.

    .venv/bin/python bench/startup.py --rounds 21
    .venv/bin/python bench/startup.py --no-cache   # check with the ruleset cache turned off
    .venv/bin/python bench/startup.py --here       # this environment (editable), not a regular install
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "fixtures" / "samples" / "night-shift.json"

#: (name, arguments after the command, goal: at most this many times a bare python)
COMMANDS = (
    ("--version", ["--version"], 5),
    ("--help", ["--help"], 5),
    ("check sample", ["check", SAMPLE.name], 10),
)

#: What the product's given stack costs before a line of ours runs: importing it with the same interpreter.
#: A check converts its arguments with typer, which builds pydantic ``TypeAdapter``s for them (typer's
#: ``_adapters`` imports pydantic), and validates its ruleset into pydantic models: the last line is the
#: floor under any check, whatever this package does.
FLOORS = (
    ("typer", "import typer"),
    ("pydantic models", "from pydantic import BaseModel, TypeAdapter"),
    ("typer converting", "import typer, typer._adapters"),
)


def command(python: str) -> list[str]:
    """The installed ``baccarat-audit`` script beside ``python``, else ``python -m compliance``."""
    script = Path(python).parent / "baccarat-audit"
    if script.is_file():
        return [python, str(script)]  # the script's own interpreter, without the shell's lookup
    return [python, "-m", "compliance"]


def regular_install(where: Path) -> tuple[str, Path]:
    """The package as ``pip install`` puts it (a wheel built from a copy of what the project ships, not
    editable) into a fresh venv under ``where``: its python, and the wheel (the copy is removed).
    Offline: the dependencies (and the build backend) are this environment's, through a ``.pth`` file."""
    src = where / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "build", "*.egg-info")
    for part in ("compliance", "rulesets", "fixtures/rules"):
        shutil.copytree(ROOT / part, src / part, ignore=ignore)
    for part in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / part, src / part)
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "borrowed-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip = [python, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run([*pip, "wheel", "--no-index", "--no-build-isolation", "--no-deps", "-w", str(where / "dist"),
                    str(src)], check=True, cwd=where)
    (wheel,) = (where / "dist").glob("baccarat_audit-*.whl")
    subprocess.run([*pip, "install", "--no-index", str(wheel)], check=True, cwd=where)
    shutil.rmtree(src)  # no source tree left behind
    return python, wheel


def run(argv: list[str], env: dict, cwd: Path) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system) of one run, output discarded."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                            env=env, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def _paired(name: str, bare, command, rounds: int, goal: int | None) -> tuple:
    """``rounds`` runs of ``bare`` and ``command`` in turn (A B A B ...): the medians of the per-round ratios
    (wall, CPU), of the command's wall time and of the bare interpreter's, and the goal."""
    ratios_wall, ratios_cpu, walls, base_walls = [], [], [], []
    for _ in range(rounds):
        bw, bc = bare()
        cw, cc = command()
        ratios_wall.append(cw / bw)
        ratios_cpu.append(cc / max(bc, 1e-3))
        walls.append(cw)
        base_walls.append(bw)
    return (name, statistics.median(ratios_wall), statistics.median(ratios_cpu), statistics.median(walls),
            statistics.median(base_walls), goal)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15, help="paired runs per command (default 15)")
    ap.add_argument("--no-cache", action="store_true", help="check with the ruleset cache turned off")
    ap.add_argument("--cold", action="store_true", help="check with an empty cache directory each run")
    ap.add_argument("--no-floors", dest="floors", action="store_false",
                    help="leave out the floors: importing typer and pydantic alone, against the same bare python")
    ap.add_argument("--here", action="store_true", help="measure this environment (an editable install) instead "
                                                         "of a regular install in a fresh venv")
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
    python = sys.executable if a.here else regular_install(cache / "install")[0]
    room = cache / "room"  # a directory of the user's, with the transcript and no configuration
    room.mkdir()
    shutil.copy(SAMPLE, room / SAMPLE.name)
    bare = [python, "-c", "pass"]
    tool = command(python)
    for _, args, _ in COMMANDS:  # compile the modules, warm the file system cache and the ruleset cache
        run(tool + args, env, room)
    run(bare, env, room)
    rows = []
    for name, code in FLOORS if a.floors else ():
        run([python, "-c", code], env, room)
        rows.append(_paired(f"floor: {name}", lambda: run(bare, env, room), lambda code=code: run([python, "-c", code], env, room),
                            a.rounds, None))
    for name, args, goal in COMMANDS:
        def one(args=args):
            if a.cold and args[0] == "check":
                shutil.rmtree(cache / "baccarat-audit", ignore_errors=True)
            return run(tool + args, env, room)

        rows.append(_paired(name, lambda: run(bare, env, room), one, a.rounds, goal))
    shutil.rmtree(cache, ignore_errors=True)
    how = "this environment" if a.here else "a regular install (wheel) in a fresh venv"
    print(f"{a.rounds} paired runs each, medians; {how}; bare = {' '.join(bare[1:])} with {python}")
    print(f"{'command':26} {'wall ratio':>10} {'cpu ratio':>10} {'wall':>9} {'bare wall':>10}  goal")
    for name, rw, rc, w, bw, goal in rows:
        mark = "" if goal is None else f"<= {goal}x {'ok' if rw <= goal else 'MISSED'}"
        print(f"{name:26} {rw:9.1f}x {rc:9.1f}x {w * 1000:7.0f}ms {bw * 1000:8.0f}ms  {mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
