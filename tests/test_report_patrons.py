"""The patrons in the reports: each patron a finding names, the findings by severity and by rule, the patron's wrong
settlements and their net, the wagers the patron had settled over the night, and the edge the patron took.

A finding names a patron where it carries money (findings.Money): a wrong settlement, a dealer's collusion with
the patron, the patron's advantage play.  The JSON report groups them by patron (``groups.patron``, as
``groups.dealer`` groups them by dealer); the HTML report lists the patrons and filters the coups by patron.
"""

from __future__ import annotations

import json
from decimal import Decimal

import jsonschema
import pytest
from reporting import STAMP, run

from compliance.findings import Finding, Money
from compliance.report.groups import NOT_RECORDED
from compliance.report.json import schema
from compliance.report.patrons import EDGE_CATEGORY, patron_counts

SIGN = {"patron": 1, "house": -1, "neither": 0}


@pytest.fixture(scope="module")
def collusion_night(tmp_path_factory):
    """A us-pa night where dealer and patron collude, with a few honest slips besides."""
    where = tmp_path_factory.mktemp("collusion")
    path = where / "night.jsonl"
    made = run("simulate", "-r", "us-pa", "-n", "800", "--seed", "5", "--table-id", "T-9", "--dealers", "4",
               "--start", "2026-11-01T20:00:00Z", "--inject", "integrity.collusion@0.5",
               "--inject", "settlement.wrong-amount@0.01", "-o", path)
    assert made.exit_code == 0, made.stderr
    report = run("check", path, "-o", "json=-", "-o", f"html={where / 'night.html'}", "--timestamp", STAMP)
    injected = json.loads((where / "night.jsonl.injected.json").read_text())
    return json.loads(report.stdout), (where / "night.html").read_text(), injected, path


def test_the_json_report_groups_the_findings_by_patron_and_validates(collusion_night):
    doc, _, injected, _ = collusion_night
    jsonschema.validate(doc, schema())
    patrons = doc["groups"]["patron"]
    named = [f for f in doc["findings"] if "money" in f and f["money"].get("patron")]
    assert sum(p["error"] + p["warning"] + p["info"] for p in patrons.values()) == len(named)
    counts = [p["error"] + p["warning"] + p["info"] for p in patrons.values()]
    assert counts == sorted(counts, reverse=True)  # the most findings first
    for name, p in patrons.items():  # the net of each patron's wrong settlements, as money.patron adds it up
        assert p["net"] == doc["money"]["patron"][name]["net"]
        assert p["settlements"] == doc["money"]["patron"][name]["findings"]
    (colluder,) = {i["patron"] for i in injected["integrity"] if i["category"] == "integrity.collusion"}
    rules = {f["rule"] for f in named if f["money"]["patron"] == colluder}
    assert "BAC-COLLUSION" in rules and next(iter(patrons)) == colluder


def test_each_patron_has_the_wagers_settled_with_them_over_the_night(collusion_night):
    doc, _, _, path = collusion_night
    patrons = doc["groups"]["patron"]
    lines = path.read_text().splitlines()
    coups = [json.loads(line) for line in lines[1:]]
    for name in list(patrons)[:3]:
        settled = 0
        for c in coups:
            seats = {int(seat) for seat, who in (c.get("seated") or {}).items() if who == name}
            settled += len({(e["seat"], e["spot"]) for e in c["events"] if e["type"] == "settle"
                            and (e.get("seat") in seats or e.get("patron") == name)})
        assert patrons[name]["wagers"] == settled > 0


def test_the_html_report_lists_the_patrons_and_filters_the_coups_by_patron(collusion_night):
    doc, page, _, _ = collusion_night
    assert '<h2 id="patrons">Patrons</h2>' in page and 'id="filter-patron"' in page
    first = next(iter(doc["groups"]["patron"]))
    assert f'data-filter="patron" data-value="0">{first}</a>' in page
    data = json.loads(page.split('id="report-data">', 1)[1].split("</script>", 1)[0])
    assert data["patrons"][0] == first
    theirs = [f for c in data["coups"] for f in c["f"] if f[10] == 0]
    assert len(theirs) == sum(doc["groups"]["patron"][first][s] for s in ("error", "warning", "info"))


def _finding(rule, category, money, coup=1, table="T-9"):
    return Finding(rule, category, "error", "night.json", coup, 3, "…", "§1", table=table, money=money)


def test_the_edge_a_patron_took_is_the_expected_gain_of_the_advantage_play_findings():
    found = [
        _finding("BAC-SETTLE-AMOUNT", "settlement.wrong-amount", Money(Decimal(950), Decimal(1000), "USD", "P-1")),
        _finding("BAC-SETTLE-AMOUNT", "settlement.wrong-amount", Money(Decimal(100), Decimal(95), "USD", "P-1"), 2),
        # advantage play: 40 Dragon 7 wagers worth 10 at a full shoe's odds and 22.5 given the cards left
        _finding("BAC-ADVANTAGE", EDGE_CATEGORY, Money(Decimal(10), Decimal("22.5"), "USD", "P-1", sums=40), 9),
        _finding("BAC-SETTLE-AMOUNT", "settlement.wrong-amount", Money(Decimal(-200), Decimal(-150), "USD", "seat 3")),
        _finding("BAC-SETTLE-DRIFT", "integrity.settlement-drift", Money(Decimal(0), Decimal(80), "USD", None, sums=9)),
    ]
    patrons = patron_counts(found)
    assert list(patrons) == ["P-1", "T-9 seat 3"]  # a table's drift names no patron
    p = patrons["P-1"]
    assert (p.count, p.settlements, p.money.net, p.edge, p.currency) == (3, 2, Decimal(45), Decimal("12.5"), "USD")
    assert p.by_rule == [("BAC-SETTLE-AMOUNT", 2), ("BAC-ADVANTAGE", 1)]
    assert patrons["T-9 seat 3"].edge is None and patrons["T-9 seat 3"].money.net == 50


def test_amounts_of_different_currencies_are_never_added_for_a_patron():
    found = [_finding("BAC-SETTLE-AMOUNT", "settlement.wrong-amount", Money(Decimal(950), Decimal(1000), "USD", "P-1")),
             _finding("BAC-SETTLE-AMOUNT", "settlement.wrong-amount", Money(Decimal(950), Decimal(1000), "EUR", "P-1"))]
    p = patron_counts(found)["P-1"]
    assert (p.count, p.settlements, p.money, p.edge, p.currency) == (2, 2, None, None, None)


def test_a_report_without_a_finding_that_names_a_patron_has_no_patron_group(tmp_path):
    found = [_finding("BAC-DRAW-BANKER-ILLEGAL", "third-card.banker.illegal", None)]
    assert patron_counts(found) == {} and NOT_RECORDED not in patron_counts(found)
