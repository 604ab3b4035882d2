"""How long the HTML report of a long simulated night takes to open in headless Chromium (goal: under 5 s).

The night of issue 28: one table, four dealers, a coup about a minute from
2026-11-01T20:00:00Z, 2% of the coups paid wrong.  A million coups give some
20,000 findings over some 16,000 hours and as many patrons.  The script
simulates it (or takes a report already made, ``--report``), checks it, and
opens the report in the system's Chromium as the slow test of
``tests/test_report_html.py`` does: from navigation until the page's script has
drawn the first page of coups (``body[data-ready=true]``), a fresh page each
run, the median printed with the machine's load.  Needs ``make browser`` and
the ``test`` extra (playwright drives the system's browser).

    .venv/bin/python bench/html_open.py                         # simulate, check, open 3 times
    .venv/bin/python bench/html_open.py --report night.html     # open a report made before
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).with_name("baccarat-audit")


def make_report(coups: int, where: Path) -> Path:
    night = where / "night.jsonl"
    subprocess.run([str(BIN), "simulate", "-r", "us-nj", "-n", str(coups), "--table-id", "T-9", "--dealers", "4",
                    "--start", "2026-11-01T20:00:00Z", "--inject", "settlement.wrong-amount@0.02", "--no-progress",
                    "-o", str(night)], check=True)
    report = where / "night.html"
    done = subprocess.run([str(BIN), "check", str(night), "--no-progress", "-j", "1", "--timestamp",
                           "2026-12-02T12:00:00Z", "-o", f"html={report}"], capture_output=True, text=True)
    if done.returncode not in (0, 1):
        sys.exit(done.stderr)
    print(done.stderr.strip().splitlines()[-1])
    return report


def chromium_version(path: str) -> str:
    return subprocess.run([path, "--version"], capture_output=True, text=True).stdout.strip()


def open_times(report: Path, runs: int) -> list[float]:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    import browser
    from playwright.sync_api import sync_playwright

    path = browser.find()
    if path is None:
        sys.exit(browser.MISSING)
    print(f"{chromium_version(path)}; {report.stat().st_size / 1e6:.1f} MB")
    out = []
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=["--no-sandbox", "--disable-gpu"])
        for _ in range(runs):
            page = b.new_page(viewport={"width": 1240, "height": 900})
            errors = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            started = time.perf_counter()
            page.goto(report.as_uri(), timeout=120_000)
            page.wait_for_selector("body[data-ready=true]", timeout=120_000)
            seconds = time.perf_counter() - started
            if errors:
                sys.exit(f"the page failed: {errors[0]}")
            print(f"  opened, first page of coups drawn: {seconds:.2f} s  (load {os.getloadavg()[0]:.2f})")
            out.append(seconds)
            page.close()
        b.close()
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--coups", type=int, default=1_000_000)
    ap.add_argument("--report", type=Path, help="an HTML report made before (else the night is simulated)")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="baccarat-html-") as tmp:
        report = a.report or make_report(a.coups, Path(tmp))
        times = open_times(report, a.runs)
    print(f"median of {len(times)}: {statistics.median(times):.2f} s (goal: under 5 s); "
          f"load averages {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
