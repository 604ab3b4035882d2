"""``check --dask ADDRESS``: the same report on a Dask distributed cluster (here a LocalCluster).

The units of work are those of ``-j N`` (whole transcripts, exact chunks of
a large ``.jsonl``); the workers read the transcripts at the same paths.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from compliance import parallel
from compliance.engine import Checker
from compliance.inputs import Input

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
    [chunked] = parallel.check_parallel([Input(str(path), str(path), size=path.stat().st_size)], parallel.Settings(),
                                        1, errors.append, dask=cluster.scheduler_address, chunk_bytes=60_000)
    assert not errors
    assert [f.as_dict() for f in chunked.findings] == [f.as_dict() for f in one.findings]
    assert (chunked.coups, chunked.unreadable, chunked.sha256) == (one.coups, one.unreadable, one.sha256)


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path):
    path = generate(tmp_path / "a.jsonl", 20, "us-nj", seed=1, method=None)
    r = subprocess.run([sys.executable, "-m", "compliance", "check", "--dask", "nonsense://scheduler", str(path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert "cannot reach the Dask scheduler" in r.stderr and "Traceback" not in r.stderr
