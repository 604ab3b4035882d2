"""An interrupted check (Ctrl-C, SIGTERM) stops at once, non-zero, and leaves no report file behind.

A partial report would be worse than none: an auditor could file it as the
whole.  Reports are written through a temporary file and renamed; a signal
unwinds the run, stops the worker processes and removes the temporary file.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import generate  # noqa: E402

CLI = [sys.executable, "-m", "compliance"]
pytestmark = pytest.mark.slow  # real processes signalled in the middle of a 160,000-coup check: make test-all


@pytest.fixture(scope="module")
def long_recording(tmp_path_factory) -> Path:
    """Some 160,000 coups: 32 copies of a 5,000-coup recording, each with its own shoes."""
    d = tmp_path_factory.mktemp("interrupt")
    base = generate(d / "base.jsonl", 5000, "au-nsw", seed=11)
    header, *coups = base.read_text().splitlines()
    head = json.loads(header)
    shoes = head["shoes"]
    head["shoes"] = [{"id": f"K{k}-{s['id']}", "decks": s["decks"]} for k in range(32) for s in shoes]
    number = re.compile(r'^\{"coup":(\d+),')
    path = d / "long.jsonl"
    with path.open("w") as f:
        f.write(json.dumps(head) + "\n")
        for k in range(32):
            for line in coups:
                line = number.sub(lambda m, k=k: f'{{"coup":{int(m.group(1)) + k * 5000},', line, count=1)
                f.write(line.replace('"shoe":"S-', f'"shoe":"K{k}-S-', 1) + "\n")
    return path


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_the_check_promptly_and_no_report_is_left(long_recording, tmp_path, jobs, sig, status):
    report = tmp_path / "report.json"
    proc = subprocess.Popen(CLI + ["check", "-j", jobs, "-o", str(report), str(long_recording)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(1.5)
    assert proc.poll() is None, "the check should still be running"
    sent = time.monotonic()
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)  # Ctrl-C reaches every process of the terminal's group
    else:
        proc.send_signal(sig)  # SIGTERM: to the command alone
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - sent < 5, "stopped promptly"
    assert proc.returncode == status
    assert b"interrupted" in err and b"Traceback" not in err
    assert list(tmp_path.iterdir()) == [], "no report, complete or partial, and no temporary file"
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)  # no worker process outlives the command


def test_a_signal_lost_in_a_finalizer_is_delivered_again():
    """A signal handled while the cyclic collector runs a finalizer raises inside it, where Python only prints
    "Exception ignored": the command must still stop (the -j parent used to wait for its workers for ever)."""
    from types import SimpleNamespace

    from compliance import cli

    saved = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(SystemExit) as stopped:
            cli._lost(SimpleNamespace(exc_value=cli.Interrupted(128 + signal.SIGINT)))
            for _ in range(500):  # the exit comes back to this thread within a few milliseconds
                time.sleep(0.01)
        assert stopped.value.code == 130
    finally:
        signal.signal(signal.SIGINT, saved)
