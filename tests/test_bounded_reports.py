"""Every report format's memory is linear in the findings, with a bound per field (issue 24, section 8).

A 2.9 MB transcript whose header names a dealer and an inspector of 1 MB each, and 1,000 breaching coups:
``-f json`` died with a MemoryError at 4 GB (each finding repeated both names), while text needed 52 MB.
A finding carries a staff name as written up to ``MAX_NAME`` characters; a longer one is cut to its start,
its length and the start of its hash, so two long names stay two names in the groups by dealer.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from builders import coup, dumps, transcript

from compliance.printable import MAX_NAME, bounded_name

ROOT = Path(__file__).resolve().parent.parent
MB = 1 << 20
FORMATS = ("text", "json", "sarif", "html", "markdown", "junit", "github", "gitlab")


def test_a_long_name_is_cut_to_its_start_length_and_hash_and_stays_itself():
    assert bounded_name("D-114") == "D-114" and bounded_name("x" * MAX_NAME) == "x" * MAX_NAME
    a, b = bounded_name("D" * MB), bounded_name("D" * MB + "E")
    assert len(a) <= MAX_NAME and len(b) <= MAX_NAME and a != b
    assert a.startswith("D" * 50) and "1,048,576 characters" in a


def _night(path: Path, coups: int = 1000) -> Path:
    """``coups`` coups, each a Banker that drew on 6 (one breach a coup), dealt by a dealer and an inspector of
    1 MB names each (transcript format 1.1, header staff)."""
    doc = transcript([coup(n, ["KD", "4D", "3S"], ["KS", "6C", "8D"], [(1, "player", 100)])
                      for n in range(1, coups + 1)])
    doc["version"] = "1.1"
    doc["shoes"] = [{"id": "S1", "decks": 8}]
    doc["staff"] = [{"from_coup": 1, "dealer": "D" * MB, "inspector": "I" * MB}]
    path.write_text(dumps(doc), encoding="utf-8")
    return path


def _peak_of(args: list[str]) -> tuple[int, int, str]:
    """Run the command in a child and return its exit status, the child's peak resident memory (bytes) and its
    standard output's size."""
    code = ("import resource, sys, subprocess; r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, "
            "stderr=subprocess.DEVNULL); print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
            "len(r.stdout))")
    out = subprocess.run([sys.executable, "-c", code, sys.executable, "-m", "compliance", *args],
                         capture_output=True, text=True, cwd=ROOT, timeout=600).stdout.split()
    status, kb, size = (int(x) for x in out)
    return status, kb * 1024, size


@pytest.mark.slow
def test_every_format_of_a_night_with_huge_staff_names_stays_under_200_mb(tmp_path):
    night = _night(tmp_path / "night.json")
    assert 2.5 * MB < night.stat().st_size < 3.3 * MB
    for fmt in FORMATS:
        status, peak, size = _peak_of(["check", str(night), "-f", fmt, "-j", "1", "--timestamp",
                                       "2026-11-29T00:00:00Z"])
        assert status == 1, fmt
        assert peak < 200 * MB, f"{fmt}: {peak / MB:.0f} MB"
        assert size < 20 * MB, f"{fmt}: a report of {size / MB:.0f} MB"


def test_a_findings_staff_is_bounded_in_the_json_report(tmp_path):
    night = _night(tmp_path / "night.json", coups=3)
    r = subprocess.run([sys.executable, "-m", "compliance", "check", str(night), "-f", "json", "-j", "1"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    doc = json.loads(r.stdout)
    staffed = [f["staff"] for f in doc["findings"] if "staff" in f]
    assert staffed and all(len(name) <= MAX_NAME for s in staffed for name in s.values())
    assert staffed[0]["dealer"] == bounded_name("D" * MB)
    assert list(doc["groups"]["dealer"]) == [bounded_name("D" * MB)]
    assert resource  # (the slow test measures the memory)


@pytest.mark.slow  # real processes or large inputs: make test-slow
def test_a_huge_table_id_and_patron_id_are_bounded_in_every_finding_and_group(tmp_path):
    """A table id and a patron's id of 1 MB each, on 4 overpaid coups: every finding, every group and the money
    carry them cut to the bound, so a report grows with its findings, not with the ids they repeat."""
    coups = []
    for n in range(1, 5):
        c = coup(n, ["KD", "4D", "3S"], ["KS", "6C"], [(1, "player", 100)])  # Player wins 7 to 6
        c["seated"] = {"1": "P" * MB}
        next(e for e in c["events"] if e["type"] == "settle")["amount"] = 150  # even money is 100
        coups.append(c)
    doc = transcript(coups)
    doc["table"]["id"] = "T" * MB
    night = tmp_path / "night.json"
    night.write_text(dumps(doc), encoding="utf-8")
    sizes = {}
    for fmt in ("json", "sarif"):
        r = subprocess.run([sys.executable, "-m", "compliance", "check", str(night), "-f", fmt, "-j", "1"],
                           capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert r.returncode == 1, r.stderr
        sizes[fmt] = len(r.stdout)
        if fmt == "json":
            report = json.loads(r.stdout)
    overpaid = [f for f in report["findings"] if f["rule"] == "BAC-SETTLE-AMOUNT"]
    table, patron = bounded_name("T" * MB), bounded_name("P" * MB)
    assert len(overpaid) == 4 and {f["money"]["patron"] for f in overpaid} == {patron}
    assert [t["table"] for t in report["transcripts"]] == [table]
    assert list(report["money"]["table"]) == [table] and list(report["money"]["patron"]) == [patron]
    assert max(sizes.values()) < MB, sizes  # neither id is written whole, let alone once a finding
