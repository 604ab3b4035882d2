"""``check --dask ADDRESS``: the same report on a Dask distributed cluster (here a LocalCluster).

The units of work are those of ``-j N`` (whole transcripts, exact chunks of
a large ``.jsonl``); the workers read the transcripts at the same paths.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from compliance._internal import driver
from compliance._internal.inputs import Input
from compliance.context import RunContext
from compliance.engine import Checker

pytestmark = pytest.mark.slow  # a LocalCluster of worker processes: make test-all

distributed = pytest.importorskip("distributed")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import generate  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as c:
        yield c


def test_the_command_on_a_cluster_reports_the_same_bytes(cluster, tmp_path):
    a = generate(tmp_path / "a.jsonl", 400, "au-nsw", seed=5, breach_every=37)
    b = generate(tmp_path / "b.jsonl", 200, "us-nj", seed=6, method=None, breach_every=11)
    reports = []
    for how in (["-j", "1"], ["--dask", cluster.scheduler_address]):
        out = tmp_path / f"report{len(reports)}.json"
        r = subprocess.run([sys.executable, "-m", "compliance", "check", *how, "--format", "json", "--timestamp",
                            "2026-11-29T00:00:00Z", "-o", str(out), str(a), str(b), str(tmp_path / "missing.jsonl")],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        reports.append(out.read_bytes())
    assert reports[0] == reports[1]


def test_a_large_recording_is_cut_into_exact_chunks_on_the_cluster(cluster, tmp_path):
    path = generate(tmp_path / "big.jsonl", 1200, "au-nsw", seed=9, breach_every=53)
    one = Checker().check_file(path, str(path))
    errors = []
    [chunked] = driver.check([Input(str(path), str(path), size=path.stat().st_size)], RunContext(),
                             dask=cluster.scheduler_address, on_error=errors.append, chunk_bytes=60_000)
    assert not errors
    assert [f.as_dict() for f in chunked.findings] == [f.as_dict() for f in one.findings]
    assert (chunked.coups, chunked.unreadable, chunked.sha256) == (one.coups, one.unreadable, one.sha256)


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path):
    path = generate(tmp_path / "a.jsonl", 20, "us-nj", seed=1, method=None)
    r = subprocess.run([sys.executable, "-m", "compliance", "check", "--dask", "nonsense://scheduler", str(path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert "cannot reach the Dask scheduler" in r.stderr and "Traceback" not in r.stderr


def test_workers_in_another_directory_read_the_same_files(cluster, tmp_path):
    """The workers run where the cluster was started; the command is run elsewhere, with relative paths: the
    paths sent to them are absolute (the transcripts and a ruleset file named relative to here)."""
    generate(tmp_path / "a.jsonl", 300, "us-nj", seed=3, method=None, breach_every=17)
    (tmp_path / "house.yaml").write_text("id: house\ntitle: house\nversion: '1'\nextends: us-nj\n")
    reports = []
    for how in (["-j", "1"], ["--dask", cluster.scheduler_address]):
        r = subprocess.run([sys.executable, "-m", "compliance", "check", *how, "-f", "json", "--timestamp",
                            "2026-11-29T00:00:00Z", "--ruleset", "house.yaml", "a.jsonl"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
        reports.append(r.stdout)
    assert reports[0] == reports[1] and '"transcript": "a.jsonl"' in reports[1]


def test_an_address_of_a_protocol_without_its_backend_is_a_clear_error(tmp_path):
    path = generate(tmp_path / "a.jsonl", 20, "us-nj", seed=1, method=None)
    for address in ("ucx://127.0.0.1:1", "tls://127.0.0.1:1", "inproc://x"):
        r = subprocess.run([sys.executable, "-m", "compliance", "check", "--dask", address, str(path)],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 2, address
        assert "cannot reach the Dask scheduler" in r.stderr and "Traceback" not in r.stderr, r.stderr
