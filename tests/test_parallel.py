"""``check -j N``: the same report as ``-j 1``, byte for byte, however the work is cut.

A large ``.jsonl`` is cut into chunks at shoe changes; each chunk rebuilds the
replay state the coups before it left (the shoe so far, the curator, the Banker
marker, the previous coup) and the parent accepts the chunks only when every
guessed start state is the true one.  These tests cut small files into many
chunks, including files whose state does carry across a cut (a curator who
keeps the shoe, a shoe brought back, coup numbers that go back), and compare
with one pass.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from compliance import registry
from compliance._internal import driver, runners
from compliance._internal.inputs import Input
from compliance.context import RunContext
from compliance.engine import Checker

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import generate  # noqa: E402

CLI = [sys.executable, "-m", "compliance"]


def _one_pass(path: Path):
    return Checker(keep_states=True, keep_coups=True).check_file(path, str(path))


def _chunked(path: Path, monkeypatch=None, jobs: int = 2, chunk_bytes: int = 40_000, **context):
    accepted = []
    if monkeypatch is not None:
        original = driver.accept

        def spy(chunks):
            accepted.append((len(chunks), original(chunks)))
            return accepted[-1][1]

        monkeypatch.setattr(driver, "accept", spy)
        monkeypatch.setattr(runners, "POOL_BYTES", 0)
    inp = Input(str(path), str(path), size=path.stat().st_size)
    errors = []
    results = driver.check([inp], RunContext(keep_states=True, keep_coups=True, **context), jobs=jobs,
                           on_error=errors.append, chunk_bytes=chunk_bytes)
    assert not errors
    return results[0], accepted


def _same(a, b) -> None:
    assert [f.as_dict() for f in a.findings] == [f.as_dict() for f in b.findings]
    assert (a.coups, a.unreadable, a.sha256, a.coup_numbers, a.transcript) == \
        (b.coups, b.unreadable, b.sha256, b.coup_numbers, b.transcript)
    assert [s.number for s in a.states or ()] == [s.number for s in b.states or ()]  # the coups a report draws
    assert a.states == b.states  # and their cards, kept the same way by a chunk as by the whole file


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def _write(path: Path, objs: list[dict]) -> Path:
    path.write_text("".join(json.dumps(o, separators=(",", ":")) + "\n" for o in objs))
    return path


@pytest.fixture(scope="module")
def recording(tmp_path_factory) -> Path:
    """About 1,500 coups over some 20 shoes, a wrong settlement every 97 coups."""
    return generate(tmp_path_factory.mktemp("par") / "floor.jsonl", 1500, "au-nsw", seed=7, breach_every=97)


def test_a_recording_cut_into_chunks_gives_the_findings_of_one_pass(recording, monkeypatch):
    chunked, accepted = _chunked(recording, monkeypatch)
    assert accepted and accepted[0][0] >= 3 and accepted[0][1], "the file was cut and every cut was exact"
    one = _one_pass(recording)
    assert len(one.findings) >= 15
    _same(chunked, one)


def test_cuts_fall_where_a_new_shoe_starts(recording):
    inp = Input(str(recording), str(recording), size=recording.stat().st_size)
    cuts = driver.plan_chunks(inp, 8, chunk_bytes=40_000).cuts
    lines = recording.read_bytes()
    for lookback, cut in cuts:
        before = json.loads(lines[:cut].splitlines()[-1])
        after = json.loads(lines[cut:].splitlines()[0])
        first = json.loads(lines[lookback:].splitlines()[0])
        assert before["shoe"] != after["shoe"], "a chunk starts with a new shoe"
        assert first["shoe"] == before["shoe"], "its lookback is the shoe before it"


@pytest.mark.slow  # real processes or large inputs: make test-slow
def test_a_curator_holding_the_shoe_across_a_cut_is_carried_exactly(recording, tmp_path, monkeypatch):
    """Seat 3 accepts the shoe in coup 2 and never returns it: every later chunk starts with a curator."""
    objs = _lines(recording)
    objs[2]["events"].insert(0, {"type": "offer", "item": "shoe", "seat": 3, "accepted": True})
    path = _write(tmp_path / "curator.jsonl", objs)
    chunked, accepted = _chunked(path, monkeypatch)
    assert accepted[0][1] is False, "the guessed start (no curator) is seen to be wrong: checked in one piece"
    _same(chunked, _one_pass(path))


@pytest.mark.slow  # real processes or large inputs: make test-slow
def test_a_shoe_brought_back_after_another_is_counted_on(recording, tmp_path, monkeypatch):
    """The last coups use the first shoe again: its cards so far live in another chunk."""
    objs = _lines(recording)
    first_shoe = objs[1]["shoe"]
    for coup in objs[-40:]:
        coup["shoe"] = first_shoe
    path = _write(tmp_path / "shoe-back.jsonl", objs)
    chunked, accepted = _chunked(path, monkeypatch)
    assert accepted[0][1] is False, "a shoe used in an earlier chunk: checked in one piece"
    one = _one_pass(path)
    assert any(f.category == "shoe.integrity" for f in one.findings) or one.findings
    _same(chunked, one)


def test_coup_numbers_that_go_back_across_a_cut_are_found_as_in_one_pass(recording, tmp_path, monkeypatch):
    objs = _lines(recording)
    objs[-5]["coup"] = 3  # repeats a coup number from the first chunk
    objs[-3]["coup"] = objs[-4]["coup"]
    path = _write(tmp_path / "numbers.jsonl", objs)
    chunked, _ = _chunked(path, monkeypatch)
    one = _one_pass(path)
    assert sum(f.category == "transcript.unreadable" for f in one.findings) >= 2
    _same(chunked, one)


def test_broken_lines_and_blank_lines_inside_chunks_keep_their_line_numbers(recording, tmp_path, monkeypatch):
    text = recording.read_text().splitlines()
    for i in (300, 700, 1100):
        text[i] = text[i][: len(text[i]) // 2]  # truncated coup
    text.insert(900, "")
    text.insert(400, "   ")
    path = tmp_path / "broken.jsonl"
    path.write_text("\r\n".join(text) + "\r\n")
    chunked, accepted = _chunked(path, monkeypatch)
    one = _one_pass(path)
    assert one.unreadable == 3
    _same(chunked, one)


def test_several_files_in_parallel_report_in_the_order_given(recording, tmp_path, monkeypatch):
    monkeypatch.setattr(runners, "POOL_BYTES", 0)
    small = generate(tmp_path / "small.jsonl", 60, "us-nj", seed=3, method=None, breach_every=7)
    missing = tmp_path / "missing.jsonl"
    inputs = [Input(str(p), p.name, size=p.stat().st_size if p.exists() else 0) for p in (small, missing, recording)]
    errors_par, errors_seq = [], []
    par = driver.check(inputs, RunContext(), jobs=2, on_error=errors_par.append, chunk_bytes=50_000)
    seq = driver.check(inputs, RunContext(), jobs=1, on_error=errors_seq.append)
    assert [str(e) for e in errors_par] == [str(e) for e in errors_seq] == ["missing.jsonl: no such file"]
    assert len(par) == len(seq) == 2
    for a, b in zip(par, seq):
        _same(a, b)


@pytest.mark.slow
def test_the_command_gives_the_same_bytes_with_one_or_two_processes(recording, tmp_path):
    """Over 4 MB in all, so -j 2 does start worker processes."""
    larger = generate(tmp_path / "larger.jsonl", 5000, "au-nsw", seed=8, breach_every=301)
    assert larger.stat().st_size + 2 * recording.stat().st_size > runners.POOL_BYTES
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"report-{jobs}.json"
        proc = subprocess.run(CLI + ["check", "-j", jobs, "--format", "json", "--timestamp", "2026-11-29T00:00:00Z",
                                     "-o", str(out), str(recording), str(larger), str(recording)],
                              capture_output=True, text=True)
        assert proc.returncode == 1, proc.stderr
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]


def test_jobs_are_capped_at_the_work_available(recording, monkeypatch):
    """-j 400 on a file cut into a few chunks starts as many processes as there are chunks, not 400."""
    import concurrent.futures

    started = []
    real = concurrent.futures.ProcessPoolExecutor

    class Counting(real):
        def __init__(self, max_workers=None, **kw):
            started.append(max_workers)
            super().__init__(max_workers=max_workers, **kw)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counting)
    monkeypatch.setattr(runners, "POOL_BYTES", 0)
    inp = Input(str(recording), str(recording), size=recording.stat().st_size)
    plans = driver.plan([inp], 400, 200_000)
    errors = []
    (result,) = driver.check([inp], RunContext(), jobs=400, on_error=errors.append, chunk_bytes=200_000)
    assert started == [driver.units(plans)] and 1 < started[0] < 10
    assert [f.as_dict() for f in result.findings] == [f.as_dict() for f in _one_pass(recording).findings]
    started.clear()
    driver.check([inp], RunContext(), jobs=400, on_error=errors.append, chunk_bytes=10**9)  # one unit
    assert started == [] and not errors  # checked here: no pool for one unit of work


@pytest.mark.parametrize("kind", sorted(registry.PACKAGES))
def test_the_games_fingerprint_of_a_replay_covers_everything_the_replayer_carries(kind):
    """The driver accepts a chunk only where its replay started from the key the chunk before it ended with: a
    game's ``replay_key`` must change with everything its replayer keeps from one coup to the next (all but the
    table, which is the same for every coup of a transcript)."""
    game = registry.get(kind)
    replayer = game.replayer(None)
    key = game.replay_key(replayer)
    assert key == game.replay_key(game.replayer(None))
    names = [n for n in vars(replayer) if n != "table"]
    assert names
    for name in names:
        changed = copy.copy(replayer)
        old = getattr(replayer, name)
        # a per-shoe table (baccarat's counts): the current shoe's entry is what is carried
        value = {getattr(replayer, "current_shoe", None): ("changed", name)} if isinstance(old, dict) \
            else ("changed", name)
        setattr(changed, name, value)
        assert game.replay_key(changed) != key, f"{kind}: {name} is carried to the next coup but not fingerprinted"


def test_a_baccarat_fingerprint_holds_the_current_shoe_alone(recording):
    """The counts of a shoe put away are not carried in the key: the driver refuses a chunk that uses a shoe of
    the chunks before it instead."""
    game = registry.get(registry.BACCARAT)
    replayer = game.replayer(None)
    replayer.current_shoe = "S2"
    replayer.shoe_counts, replayer.shoe_totals = {"S2": {"AH": 1}}, {"S2": 1}
    key = game.replay_key(replayer)
    replayer.shoe_counts["S1"], replayer.shoe_totals["S1"] = (3, 4), 416
    assert game.replay_key(replayer) == key
    replayer.shoe_counts["S2"]["AH"] = 2
    assert game.replay_key(replayer) != key


def test_chunks_that_start_after_a_coup_with_an_unread_card_give_the_report_of_one_pass(recording, tmp_path,
                                                                                       monkeypatch):
    """The last coup of every shoe has its first card unread (``??``): each chunk's start state holds totals
    that cannot be read, and its fingerprint is still taken (it was an internal error under -j 2)."""
    import datetime as dt

    from compliance._internal.run import render
    from compliance.report.model import Report

    objs = _lines(recording)
    for coup, after in zip(objs[1:], objs[2:] + [None]):
        if after is None or after["shoe"] != coup["shoe"]:
            card = next(e for e in coup["events"] if e["type"] == "card")
            card["card"] = "??"
    path = _write(tmp_path / "unread.jsonl", objs)
    chunked, accepted = _chunked(path, monkeypatch)
    assert accepted and accepted[0][0] >= 3
    one = _one_pass(path)
    _same(chunked, one)
    when = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    for fmt in ("json", "text"):
        assert render(Report([chunked], generated=when), fmt) == render(Report([one], generated=when), fmt)
