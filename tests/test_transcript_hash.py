"""The SHA-256 a report gives is of the bytes that were checked, taken as they were read.

Before, the hash came from reading the path again after the check: a file
replaced while it was checked was reported with the new file's hash next to
the old file's findings, and a FIFO was read twice (the second read waited
for a writer that never came).  Now the file is opened once and hashed as it
is read; chunks of a large file checked in parallel are accepted only when
the bytes each chunk read are the bytes the whole-file hash was taken of.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from reporting import sample_doc

from compliance._internal import driver, runners
from compliance._internal.inputs import Input
from compliance.context import RunContext
from compliance.engine import Checker
from compliance.reading.reader import open_transcript

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import generate  # noqa: E402


def _jsonl(doc: dict) -> str:
    head = {k: v for k, v in doc.items() if k != "coups"}
    return "".join(json.dumps(x) + "\n" for x in [head, *doc["coups"]])


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_a_file_replaced_while_it_is_checked_keeps_the_hash_of_what_was_checked(tmp_path, suffix):
    path = tmp_path / f"night{suffix}"
    text = _jsonl(sample_doc()) if suffix == ".jsonl" else json.dumps(sample_doc(), indent=1)
    path.write_text(text)
    checked = hashlib.sha256(text.encode()).hexdigest()
    other = tmp_path / "other"
    other.write_text(text.replace('"amount": 500', '"amount": 5'))

    def replace_it(n: int, nbytes: int) -> None:
        if n == 2:  # half way through, the file at the path is swapped for another
            os.replace(other, path)

    result = Checker().check_source(open_transcript(path, path.name), on_coup=replace_it)
    assert result.sha256 == checked != hashlib.sha256(path.read_bytes()).hexdigest()
    assert len(result.findings) == 6  # the findings of what was checked, all of it


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_a_fifo_is_read_once(tmp_path, suffix):
    text = (_jsonl(sample_doc()) if suffix == ".jsonl" else json.dumps(sample_doc())).encode()
    fifo = tmp_path / f"night{suffix}"
    os.mkfifo(fifo)

    def feed():
        with open(fifo, "wb") as f:
            f.write(text)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    r = subprocess.run([sys.executable, "-m", "compliance", "check", fifo.name, "-f", "json"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60)
    writer.join(10)
    doc = json.loads(r.stdout)
    assert r.returncode == 1 and len(doc["findings"]) == 6, r.stderr
    assert doc["transcripts"][0]["sha256"] == hashlib.sha256(text).hexdigest()


_REAL_DIGESTS = driver.file_digests


def _digests_of(other: str, path: str, marks: list[int]):
    """The digests of another file: as if the file changed between the chunks' reads and the hash's."""
    return _REAL_DIGESTS(other, marks)


def test_parallel_chunks_that_read_other_bytes_than_were_hashed_are_checked_again_in_one_piece(
        tmp_path, monkeypatch):
    path = generate(tmp_path / "floor.jsonl", 1500, "au-nsw", seed=7, breach_every=97)
    one = Checker(keep_coups=True).check_file(path, str(path))
    assert one.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    changed = tmp_path / "changed.jsonl"
    changed.write_bytes(path.read_bytes().replace(b'"amount":', b'"amount" :', 1))
    monkeypatch.setattr(driver, "file_digests", functools.partial(_digests_of, str(changed)))
    monkeypatch.setattr(runners, "POOL_BYTES", 0)
    again = []
    check_input = driver.check_input
    monkeypatch.setattr(driver, "check_input", lambda *a: again.append(a) or check_input(*a))
    inp = Input(str(path), str(path), size=path.stat().st_size)
    errors = []
    (result,) = driver.check([inp], RunContext(keep_coups=True), jobs=2, on_error=errors.append, chunk_bytes=40_000)
    assert not errors and len(again) == 1, "the chunks were refused and the file checked in one piece"
    assert result.sha256 == one.sha256
    assert [f.as_dict() for f in result.findings] == [f.as_dict() for f in one.findings]
