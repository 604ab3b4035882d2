"""Coups per second of ``check`` on one core, and its time against merely parsing the file with orjson.

Generates (once, cached next to the system's temporary files) a clean
``.jsonl`` transcript, then, in this one process and alternating so that a
noisy machine slows both alike:

* parses every line of it with ``orjson.loads`` (the floor: reading JSON);
* checks it with the engine ``baccarat-audit check`` uses, every rule of the
  jurisdiction enabled, on one core.

Prints coups/s and the ratio check / orjson (best of ``--repeat`` runs each),
then where the time goes: reading and decoding the coups alone (the
validating msgspec decoder), decoding and replaying them (no rule run), and
the rules (the rest of the check).
Goals (issue 7): at least 60,000 coups/s and a ratio of at most 3.  With side
wagers on (issue 15) the check stays within 10% of the same table without them:

    .venv/bin/python bench/check_speed.py --coups 200000 --jurisdiction au-nsw
    .venv/bin/python bench/check_speed.py --coups 200000 --jurisdiction us-pa --method face_up --game ez_baccarat --side-wagers 0
    .venv/bin/python bench/check_speed.py --coups 200000 --jurisdiction us-pa --method face_up --game ez_baccarat --side-wagers 0.3
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import generate  # noqa: E402

from compliance import games  # noqa: E402
from compliance.engine import Checker  # noqa: E402
from compliance.reading.reader import open_transcript  # noqa: E402


def transcript(coups: int, jurisdiction: str, method: str | None, breach_every: int, game: str = "punto_banco",
               side_wagers: float = 0.0) -> Path:
    """The generated transcript for these parameters (made once, then reused)."""
    table = "" if game == "punto_banco" and not side_wagers else f"-{game}-side{side_wagers:g}"
    name = f"baccarat-bench-{jurisdiction}-{method or 'none'}-{coups}-{breach_every}{table}.jsonl"
    path = Path(tempfile.gettempdir()) / name
    if not path.exists():
        print(f"generating {coups:,} coups -> {path}", file=sys.stderr)
        tmp = path.with_suffix(".part")
        generate(tmp, coups, jurisdiction, method=method, breach_every=breach_every, game=game,
                 side_wagers=side_wagers)
        tmp.replace(path)
    return path


def parse_only(path: Path) -> float:
    start = time.perf_counter()
    loads = orjson.loads
    with path.open("rb") as f:
        for line in f:
            if line.strip():
                loads(line)
    return time.perf_counter() - start


def decode_only(path: Path) -> float:
    """Read and decode every coup as check does, nothing more."""
    start = time.perf_counter()
    for _ in open_transcript(path).records():
        pass
    return time.perf_counter() - start


def decode_and_replay(path: Path) -> float:
    """Read, decode and replay every coup as check does; no rule runs."""
    start = time.perf_counter()
    source = open_transcript(path)
    checker = Checker()
    ruleset = checker.rulesets.for_header(source.header, str(path))
    replayer = checker.replayer(source.game, games.table_context(source.game, source.header, ruleset, str(path)))
    for record in source.records():
        if record.coup is not None:
            replayer.replay(record.coup, record.line)
    return time.perf_counter() - start


def check_once(path: Path) -> tuple[float, int, int]:
    checker = Checker()
    start = time.perf_counter()
    result = checker.check_file(path)
    return time.perf_counter() - start, result.coups, len(result.findings)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--coups", type=int, default=200_000)
    ap.add_argument("--jurisdiction", default="au-nsw")
    ap.add_argument("--method", default="C", help="dealing method of the generated coups ('' for none)")
    ap.add_argument("--breach-every", type=int, default=1000, help="settle one wager wrong every N coups (0: never)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--game", default="punto_banco", help="the table's game (a variant of the ruleset)")
    ap.add_argument("--side-wagers", type=float, default=0.0,
                    help="share of the main wagers with a side wager beside them (e.g. --jurisdiction us-pa "
                         "--game ez_baccarat --side-wagers 0.3)")
    ap.add_argument("--profile", action="store_true", help="profile one check run with cProfile instead")
    a = ap.parse_args(argv)
    path = transcript(a.coups, a.jurisdiction, a.method or None, a.breach_every, a.game, a.side_wagers)
    if a.profile:
        import cProfile
        import pstats

        cProfile.runctx("check_once(path)", globals(), {"path": path, "check_once": check_once}, "/tmp/check.prof")
        pstats.Stats("/tmp/check.prof").sort_stats("tottime").print_stats(30)
        return 0
    parse_times, check_times = [], []
    decode_times, replay_times = [], []
    coups = findings = 0
    for _ in range(a.repeat):
        parse_times.append(parse_only(path))
        elapsed, coups, findings = check_once(path)
        check_times.append(elapsed)
        decode_times.append(decode_only(path))
        replay_times.append(decode_and_replay(path))
    parse, check = min(parse_times), min(check_times)
    decode, replay = min(decode_times), min(replay_times)
    size = path.stat().st_size
    print(f"transcript      {path.name}: {coups:,} coups, {size / 1e6:,.0f} MB, {findings:,} findings")
    print(f"orjson parse    {parse:7.2f} s   {coups / parse:>10,.0f} coups/s")
    print(f"check (1 core)  {check:7.2f} s   {coups / check:>10,.0f} coups/s")
    print(f"ratio check / orjson parse: {check / parse:.2f}")
    print("where the time goes, per coup (and as a multiple of orjson parsing):")
    for what, seconds in (("read + decode (validating)", decode), ("replay", replay - decode),
                          ("rules + findings", check - replay)):
        print(f"  {what:27} {seconds / coups * 1e6:6.1f} us   {seconds / parse:5.2f} x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
