"""What once ended in a traceback ends in one message and exit 2, or works.

* standard output closed (``>&-``): one message; reports written to files still are;
* ``-o json=night.json/r.json`` where ``night.json`` is a file: one message;
* a worker process killed mid-run: one line saying so, no traceback;
* a first run under a 16-byte file-size limit leaves no partial cache key or tag, and a key cut short is made
  again: the next run works, without a word.

(``-j 2`` on chunks that start after a coup with an unread card: ``tests/test_parallel.py``.)
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from reporting import SAMPLE, clean_doc, run, sample_into, write

from compliance._internal import driver, runners

CLI = [sys.executable, "-m", "compliance"]


def _closed_stdout():
    os.close(1)


def test_a_closed_standard_output_is_one_message(tmp_path):
    r = subprocess.run([*CLI, "check", str(SAMPLE)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       preexec_fn=_closed_stdout, cwd=tmp_path, timeout=120)
    assert r.returncode == 2
    assert r.stderr.splitlines() == ["baccarat-audit: standard output is closed: the report cannot be printed; open "
                                     "it, or write the reports to files with -o FORMAT=FILE"]
    r = subprocess.run([*CLI, "check", str(SAMPLE), "-o", "json=r.json", "-q"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, preexec_fn=_closed_stdout, cwd=tmp_path, timeout=120)
    assert r.returncode == 1 and r.stderr == "" and (tmp_path / "r.json").exists()  # nothing to print: it works
    r = subprocess.run([*CLI, "--version"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       preexec_fn=_closed_stdout, cwd=tmp_path, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_a_report_inside_a_file_is_one_message(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample_into(tmp_path, "night.json")
    for target in ("night.json/r.json", "night.json/sub/r.json"):
        r = run("check", "night.json", "-o", f"json={target}")
        assert r.exit_code == 2 and r.stdout == ""
        assert r.stderr.splitlines() == [f"baccarat-audit: {target}: cannot write: Not a directory"]


def _killed(*args):
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_killed_mid_run_is_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("a.json", "b.json", "c.json"):
        write(tmp_path / name, clean_doc())
    monkeypatch.setattr(runners, "POOL_BYTES", 0)  # a pool, however small the files
    monkeypatch.setattr(driver, "check_input", _killed)  # (the forked workers have it too)
    r = run("check", "a.json", "b.json", "c.json", "-j", "2")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.splitlines() == [f"baccarat-audit: {runners.WORKER_LOST}"]


def _cache_env(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BACCARAT_AUDIT_")}
    env.update(BACCARAT_AUDIT_CACHE_DIR=str(tmp_path / "cache"), BACCARAT_AUDIT_CACHE_KEY=str(tmp_path / "key" / "k"))
    return env


def _check(tmp_path: Path, limit: int | None = None) -> subprocess.CompletedProcess:
    def limited():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run([*CLI, "check", str(SAMPLE), "-q"], capture_output=True, text=True, env=_cache_env(tmp_path),
                          preexec_fn=limited if limit is not None else None, cwd=tmp_path, timeout=120)


@pytest.mark.slow  # real processes or large inputs: make test-slow
def test_a_file_size_limit_leaves_no_partial_cache_key(tmp_path):
    first = _check(tmp_path, limit=16)
    assert first.returncode == 1 and "Traceback" not in first.stderr
    key = tmp_path / "key" / "k"
    assert not key.exists() or key.stat().st_size == 32  # whole or absent
    tag = tmp_path / "cache" / "CACHEDIR.TAG"
    assert not tag.exists() or tag.read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    for _ in range(2):
        later = _check(tmp_path)
        assert later.returncode == 1 and later.stderr == ""
    assert key.stat().st_size == 32 and list((tmp_path / "cache").rglob("*.json"))


@pytest.mark.slow  # real processes or large inputs: make test-slow
def test_a_damaged_cache_key_is_made_again(tmp_path):
    assert _check(tmp_path).returncode == 1
    key = tmp_path / "key" / "k"
    key.write_bytes(key.read_bytes()[:16])  # cut short, as a full disk leaves it
    rebuilt = _check(tmp_path)
    assert rebuilt.returncode == 1
    assert rebuilt.stderr.splitlines()[0] == (f"baccarat-audit: note: the cache's key {key} is damaged (16 bytes, "
                                              "not 32): a new key is made, and the cache's entries with it")
    assert key.stat().st_size == 32
    after = _check(tmp_path)
    assert after.returncode == 1 and after.stderr == ""
