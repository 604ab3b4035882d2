"""A simulated night at one table: named dealers relieving each other, coup times, and the auditor's numbers.

``simulate --table-id T-9 --dealers 4 --start ...`` writes a night as a real
table records it (format 1.1 staff stretches, each coup's time); the report
of it gives every settlement finding its money, a net that is the sum of
their differences, and each dealer's coups, which add up to the coups
checked.
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from reporting import run

from compliance.games.baccarat.simulate import ROTATION, dealer_name

NIGHT = ("--table-id", "T-9", "--dealers", "4", "--start", "2026-11-01T20:00:00Z",
         "--inject", "settlement.wrong-amount@0.02")
SIGN = {"patron": 1, "house": -1, "neither": 0}


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    where = tmp_path_factory.mktemp("night")
    path = where / "night.json"
    made = run("simulate", "-r", "us-nj", "-n", "1200", "--seed", "3", *NIGHT, "-o", path)
    assert made.exit_code == 0, made.stderr
    report = run("check", path, "-f", "json")
    assert report.exit_code == 1
    return (json.loads(path.read_text()), json.loads((where / "night.json.injected.json").read_text()),
            json.loads(report.stdout))


def test_every_settlement_finding_has_money_and_the_net_is_the_sum_of_their_differences(night):
    _, injected, report = night
    settlement = [f for f in report["findings"] if f["category"].startswith("settlement.")]
    assert len(settlement) == len(injected["injected"]) > 5
    assert all("money" in f for f in settlement)
    counted = [f["money"] for f in report["findings"] if "money" in f and "sums" not in f["money"]]
    signed = sum((SIGN[m["favours"]] * Decimal(m["difference"]) for m in counted), Decimal(0))
    assert Decimal(report["money"]["net"]) == signed
    assert (Decimal(report["money"]["to_patrons"]) - Decimal(report["money"]["to_house"])) == signed
    by_dealer = sum((Decimal(d["net"]) for d in report["money"]["dealer"].values()), Decimal(0))
    assert by_dealer == signed


def test_the_four_dealers_coups_add_up_to_the_coups_checked(night):
    _, _, report = night
    dealers = report["groups"]["dealer"]
    assert set(dealers) == {"D-01", "D-02", "D-03", "D-04"}
    assert sum(d["coups"] for d in dealers.values()) == report["counts"]["coups"] == 1200
    for d in dealers.values():
        found = d["error"] + d["warning"] + d["info"]
        assert Decimal(d["per_100_coups"]) == (Decimal(found * 100) / d["coups"]).quantize(Decimal("0.01"))


def test_dealers_relieve_each_other_every_forty_coups_and_each_injection_names_its_dealer(night):
    transcript, injected, report = night
    assert transcript["table"]["id"] == "T-9" and transcript["version"] == "1.1"
    stretches = transcript["staff"]
    assert stretches[0] == {"from_coup": 1, "to_coup": ROTATION, "dealer": "D-01"}
    assert [s["dealer"] for s in stretches[:5]] == ["D-01", "D-02", "D-03", "D-04", "D-01"]
    by_coup = {f["coup"]: f["staff"]["dealer"] for f in report["findings"]}
    for i in injected["injected"]:
        assert i["dealer"] == dealer_name((i["coup"] - 1) // ROTATION % 4) == by_coup[i["coup"]]


def test_coup_times_run_from_the_start_at_a_table_pace(night):
    transcript, _, _ = night
    times = [dt.datetime.fromisoformat(c["events"][0]["at"]) for c in transcript["coups"]]
    assert times[0] == dt.datetime(2026, 11, 1, 20, tzinfo=dt.UTC)
    gaps = [(b - a).total_seconds() for a, b in zip(times, times[1:])]
    assert min(gaps) >= 45 and max(gaps) <= 75 + 60 + 420  # a coup, a dealer's change, a shuffle
    per_hour = len(times) / ((times[-1] - times[0]).total_seconds() / 3600)
    assert 40 < per_hour < 80


def test_a_start_that_is_no_time_is_refused(tmp_path):
    r = run("simulate", "-r", "us-nj", "-n", "5", "--start", "tonight", "-o", tmp_path / "x.json")
    assert r.exit_code == 2 and "--start 'tonight' is not an ISO 8601 date and time" in r.stderr


def _split(path, tmp_path, shoes_in_first: int):
    """The night cut in two files between its shoes: first.jsonl the first shoes, second.jsonl the rest."""
    head, *coups = path.read_text().splitlines()
    header = json.loads(head)
    shoe_of = [json.loads(line)["shoe"] for line in coups]
    first_shoes = [s["id"] for s in header["shoes"][:shoes_in_first]]
    parts = []
    for name, keep in (("first.jsonl", True), ("second.jsonl", False)):
        lines = [line for line, shoe in zip(coups, shoe_of) if (shoe in first_shoes) == keep]
        own = header | {"shoes": [s for s in header["shoes"] if (s["id"] in first_shoes) == keep]}
        (tmp_path / name).write_text("\n".join([json.dumps(own), *lines]) + "\n")
        parts.append(tmp_path / name)
    return parts


def test_files_of_one_table_are_one_record_only_when_their_shoes_follow_each_other(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    at = ("--table-id", "T-9", "--start", "2026-11-01T20:00:00Z")
    run("simulate", "-r", "us-nj", "-n", "300", "--seed", "5", *at, "-o", "night.jsonl")
    first, second = _split(tmp_path / "night.jsonl", tmp_path, 2)
    joined = run("check", first.name, second.name)
    assert ("table T-9 is named by 2 transcripts (first.jsonl, second.jsonl): their shoes follow each other, so "
            "the tests of whole shoes and runs judge them as one table's record, in the order given") in joined.stdout
    run("simulate", "-r", "us-nj", "-n", "100", "--seed", "6", *at, "-o", "other.jsonl")  # another table, same id
    apart = run("check", first.name, "other.jsonl")
    assert ("table T-9 is named by 2 transcripts (first.jsonl, other.jsonl), whose shoes do not follow each other"
            in apart.stdout)
    backwards = run("check", second.name, first.name)  # the later file first: its times run back
    assert "whose shoes do not follow each other" in backwards.stdout
