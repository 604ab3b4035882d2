"""The progress of a long check or simulation (issue 17): coups done, the share of the whole, the time left.

With ``-j`` the worker processes count what they check into counters the
parent reads, so one large file cut into chunks shows its coups as they are
checked and the bar ends on the exact total; ``simulate`` shows its coups too.
Nothing is drawn when standard error is not a terminal.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from compliance import progress as progress_module
from compliance._internal import driver, runners
from compliance._internal.inputs import Input
from compliance._internal.run import Progress
from compliance.context import RunContext

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import generate  # noqa: E402

CLI = [sys.executable, "-m", "compliance"]
COUPS = 3000


@pytest.fixture(scope="module")
def recording(tmp_path_factory) -> Path:
    return generate(tmp_path_factory.mktemp("progress") / "shift.jsonl", COUPS, "au-nsw", seed=5, breach_every=211)


class Watched(Progress):
    """check's bar, drawn into a string, remembering every (coups, bytes) it showed."""

    def __init__(self, inputs):
        self.screen = Console(file=io.StringIO(), force_terminal=True, width=140)
        self.shown = []
        super().__init__(inputs, True, console=self.screen)

    def refresh(self):
        super().refresh()
        self.shown.append(self.state())


def _input(path: Path) -> Input:
    return Input(str(path), path.name, size=path.stat().st_size)


def test_with_j_the_bar_follows_the_workers_and_reaches_the_total(recording, monkeypatch):
    monkeypatch.setattr(runners, "POOL_BYTES", 0)  # worker processes even for this small file
    monkeypatch.setattr(progress_module, "POLL", 0.005)
    inp = _input(recording)
    errors = []
    with Watched([inp]) as bar:
        (result,) = driver.check([inp], RunContext(), jobs=2, on_error=errors.append, progress=bar,
                                 chunk_bytes=60_000)
        assert bar.shared is not None, "the bar followed the workers' counters"
        # every coup counted once (not the shoe a chunk replays before its own), every byte of the file
        assert tuple(bar.shared) == (COUPS, inp.size)
        bar.complete(bar.finished_coups)
    assert not errors and result.coups == COUPS
    assert bar.state() == (COUPS, inp.size)
    assert [c for c, _ in bar.shown if 0 < c < COUPS], "coups were shown while the workers checked them"
    assert bar.shown == sorted(bar.shown), "the counts only go up"
    drawn = bar.screen.file.getvalue()
    assert "100%" in drawn and f"{COUPS:,} coups" in drawn and "ETA" in drawn


def test_in_one_process_the_bar_moves_with_the_coups_and_reaches_the_total(recording):
    inp = _input(recording)
    with Watched([inp]) as bar:
        (result,) = driver.run([inp], RunContext(), on_error=print, progress=bar)
        bar.complete(bar.finished_coups)
    assert result.coups == COUPS
    coups = [c for c, _ in bar.shown]
    assert coups[:3] == [256, 512, 768] and coups[-1] == COUPS
    assert bar.shown == sorted(bar.shown) and bar.shown[-1] == (COUPS, inp.size)
    assert all(abs(b / inp.size - c / COUPS) < 0.05 for c, b in bar.shown), "the share of bytes keeps up with the coups"


@pytest.mark.slow
def test_without_a_terminal_nothing_is_drawn(recording, tmp_path):
    big = generate(tmp_path / "big.jsonl", 5000, "au-nsw", seed=8)
    assert big.stat().st_size + recording.stat().st_size > runners.POOL_BYTES  # -j 2 starts workers
    r = subprocess.run(CLI + ["check", "-j", "2", "-f", "json", "-o", str(tmp_path / "r.json"), str(recording),
                              str(big)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 1, r.stderr
    # the two recordings name one table with shoes that do not follow each other: one warning says how they are
    # judged; otherwise the summary alone, with no bar and no escape sequence
    *warnings, line = r.stderr.splitlines()
    assert "\x1b" not in r.stderr
    assert [w.split(" is named by ")[0] for w in warnings] == ["baccarat-audit: warning: table BAC-BENCH"]
    assert re.fullmatch(r"checked 2 transcripts, 8,000 coups, \d+ findings: \d+ error(; net .+ beyond what was due)?", line)
    r = subprocess.run(CLI + ["simulate", "-r", "us-nj", "-n", "600", "-o", str(tmp_path / "s.jsonl")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and r.stderr == ""


def on_a_terminal(argv: list[str], cwd: Path) -> str:
    """What a command writes to the terminal it runs on (a pseudo-terminal)."""
    main, terminal = os.openpty()
    proc = subprocess.Popen(argv, stdin=terminal, stdout=terminal, stderr=terminal, cwd=cwd,
                            env=dict(os.environ, COLUMNS="140", TERM="xterm", NO_COLOR="1"))
    os.close(terminal)
    out = []
    while True:
        try:
            data = os.read(main, 1 << 16)
        except OSError:  # the command has closed the terminal
            break
        if not data:
            break
        out.append(data)
    proc.wait(timeout=600)
    os.close(main)
    return b"".join(out).decode("utf-8", "replace")


def frames(screen: str) -> list[tuple[int, int]]:
    """(percent, coups) of each frame of a bar."""
    return [(int(p), int(c.replace(",", ""))) for p, c in re.findall(r"(\d+)%\s+([\d,]+) coups", screen)]


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_on_a_terminal_check_j_and_simulate_end_on_every_coup(recording, tmp_path):
    big = generate(tmp_path / "big.jsonl", 5000, "au-nsw", seed=8)
    screen = on_a_terminal(CLI + ["check", "-j", "2", "-o", str(tmp_path / "r.json"), str(recording), str(big)],
                           tmp_path)
    assert frames(screen)[-1] == (100, 8000)
    assert "ETA" in screen and "checked 2 transcripts, 8,000 coups" in screen
    screen = on_a_terminal(CLI + ["simulate", "-r", "us-nj", "-n", "1200", "-o", str(tmp_path / "s.jsonl")], tmp_path)
    assert frames(screen)[-1] == (100, 1200)
    assert (tmp_path / "s.jsonl").read_text().count("\n") == 1201
