"""The HTML report: one self-contained page an auditor can open or print, at any size.

The summary (by rule, category and table) is drawn in the page; the coups with
a finding are data drawn by the page's own script a page at a time, with the
wagers, calls, payouts and commission of each coup beside its cards and the
event of each finding highlighted. The page is opened in headless Chromium and
the test reads what it shows; a report of 20,000 findings must open in a few
seconds and be filtered by rule, category, severity and table. Screenshots and
the measured load time are left in out/html-report/ as build artifacts.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import time
from collections import Counter
from decimal import Decimal

import browser
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reporting import (
    ROOT,
    SAMPLE,
    STAMP,
    START,
    breaching_transcripts,
    clean_doc,
    run,
    sample_doc,
    sample_into,
    with_unreadable_coup,
    write,
)

from compliance.engine import Checker
from compliance.findings import Finding, Money
from compliance.report.digest import ROWS_DRAWN, TIME_PERIODS, TIME_UNITS, patron_digest, period_of, time_fold
from compliance.report.groups import NOT_RECORDED
from compliance.report.html import data_document
from compliance.report.model import Report
from compliance.report.patrons import patron_counts

ARTIFACTS = ROOT / "out" / "html-report"
LOAD_LIMIT = 5.0  # seconds from navigation to the first page of coups drawn, at 20,000 findings


def html_report(tmp_path, monkeypatch, *inputs: str, extra=()) -> str:
    monkeypatch.chdir(tmp_path)
    r = run("check", *inputs, "-f", "html", "--timestamp", STAMP, *extra)
    return r.stdout


def page_data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
    return json.loads(m.group(1))


def spelled(data: dict, coup: dict) -> dict:
    """A coup of the page's data as the page's script reads it: each row by its fields' names (``fields``), its
    words written out (the data gives each word by its place in ``words``)."""
    def named(row, kind, worded=()):
        x = dict(zip(data["fields"][kind], row, strict=True))
        return x | {name: None if x[name] is None else data["words"][x[name]] for name in worded}

    picture = None
    if coup["c"] is not None:
        picture = named(coup["c"], "picture", ["where"])
        picture["hands"] = [named(h, "hand", ["label", "value", "who"]) for h in picture["hands"]]
    return coup | {"f": [named(f, "finding") for f in coup["f"]],
                   "s": [named(s, "step", ["kind", "who", "what", "amount", "note"]) for s in coup["s"]],
                   "w": [named(w, "wager", ["who", "spot", "staked", "outcome", "paid", "commission"])
                         for w in coup["w"]],
                   "c": picture}


def test_the_script_reads_the_coup_data_by_field_names():
    """The coup data is rows of values (compact), their fields' names written once; the script reads no field
    by its place."""
    from compliance.report.html import FIELDS, SCRIPT

    assert not re.search(r"\b[cfkswh]\[\d", SCRIPT)
    assert set(FIELDS) == {"finding", "picture", "hand", "step", "wager"}


def test_the_page_is_self_contained(tmp_path, monkeypatch):
    sample_into(tmp_path)
    page = html_report(tmp_path, monkeypatch, "night-shift.json")
    assert page.startswith("<!DOCTYPE html>")
    assert "default-src 'none'" in page  # the Content-Security-Policy lets the page fetch nothing at all
    assert not re.search(r'\ssrc=', page) and not re.search(r'href="(?!#)', page)  # no external resource, no link out
    assert page.count("<script") == 2  # its data and its own script, both inline
    assert "<style>" in page and "@media print" in page


def test_the_page_names_what_it_checked(tmp_path, monkeypatch):
    sample_into(tmp_path)
    page = html_report(tmp_path, monkeypatch, "night-shift.json")
    assert hashlib.sha256(SAMPLE.read_bytes()).hexdigest() in page
    assert "us-nj" in page and "baccarat-audit 0." in page and "generated 2026-11-29T12:00:00Z" in page
    assert "N.J.A.C. 13:69F-3.9" in page


def test_transcript_text_is_escaped(tmp_path, monkeypatch):
    doc = clean_doc()
    doc["table"]["id"] = "<img src=x onerror=alert(1)></script><script>alert(2)</script>"
    write(tmp_path / "t.json", with_unreadable_coup(doc, 1))
    page = html_report(tmp_path, monkeypatch, "t.json")
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert page.count("<script") == 2 and "alert(2)</script>" not in page  # the data cannot close its script
    assert page_data(page)["tables"] == [doc["table"]["id"]]  # and still reads back as written


def test_the_summary_comes_first_by_rule_category_and_table(tmp_path, monkeypatch):
    sample_into(tmp_path)
    page = html_report(tmp_path, monkeypatch, "night-shift.json")
    order = [page.index(f'<h2 id="{key}"') for key in ("summary", "by-rule", "by-category", "by-table",
                                                        "transcripts", "coups")]
    assert order == sorted(order)
    assert all(f'href="#{key}"' in page for key in ("by-rule", "by-category", "by-table", "coups"))  # contents
    by_rule = page[page.index('<table class="by-rule">'):page.index("</table>", page.index('<table class="by-rule">'))]
    first = by_rule.split("</tr>")[1]  # the most frequent rule first
    assert "BAC-DRAW-BANKER-ILLEGAL" in first and '<td class="num">2</td>' in first
    assert 'data-filter="category"' in page and 'data-filter="table"' in page


def test_each_coup_carries_its_wagers_calls_payouts_and_commission_from_the_replay(tmp_path):
    """Coup 5 of the sample: seat 1's Banker wager of 1,000 won and was paid 1,000 with no commission (the
    finding's event 10); what the page draws is the replayed state, through the report model."""
    result = Checker(keep_states=True).check_file(SAMPLE, "night-shift.json")
    data = data_document(Report([result]))
    coup5 = spelled(data, next(c for c in data["coups"] if c["n"] == 5))
    steps = {s["at"]: s for s in coup5["s"]}
    assert (steps[2]["kind"], steps[2]["who"], steps[2]["what"]) == ("announce", "", "no_more_bets")
    assert steps[10] == {"at": 10, "kind": "settle", "who": "seat 1", "what": "banker", "amount": "1,000",
                         "note": "win"}
    assert {"who": "seat 1", "spot": "banker", "staked": "1,000", "changed": [0], "outcome": "win", "paid": "1,000",
            "settled": 10, "commission": None, "commission_at": None} in coup5["w"]
    settle = next(f for f in coup5["f"] if data["rules"][f["rule"]][0] == "BAC-SETTLE-AMOUNT")
    assert settle["event"] == 10  # the event the page highlights
    assert [(h["label"], h["who"]) for h in coup5["c"]["hands"]] == [("Player", "player"), ("Banker", "banker")]
    assert len(coup5["s"]) == len(sample_doc()["coups"][4]["events"])  # every event, none made up


def test_a_commission_collected_apart_is_shown_on_the_bettors_banker_wager(tmp_path):
    doc = sample_doc()
    coup5 = next(c for c in doc["coups"] if c["coup"] == 5)  # seat 1's Banker wager of 1,000 won
    coup5["events"].insert(11, {"type": "commission", "seat": 1, "amount": 50})
    write(tmp_path / "c.json", doc)
    result = Checker(keep_states=True).check_file(tmp_path / "c.json", "c.json")
    data = data_document(Report([result]))
    coup = spelled(data, next(c for c in data["coups"] if c["n"] == 5))
    assert {"who": "seat 1", "spot": "banker", "staked": "1,000", "changed": [0], "outcome": "win", "paid": "1,000",
            "settled": 10, "commission": "50", "commission_at": 11} in coup["w"]
    assert {"at": 11, "kind": "commission", "who": "seat 1", "what": "", "amount": "50", "note": ""} in coup["s"]


def test_the_coup_a_shuffle_finding_cites_shows_its_cards_as_recorded(tmp_path, monkeypatch):
    """BAC-SHUFFLE is judged over the whole shoe, after the replay: the coup it cites (the one at which the
    evidence became decisive) had no finding of its own, yet the recording has its cards, and the page draws
    them (with -j 2 too)."""
    monkeypatch.chdir(tmp_path)
    made = run("simulate", "-r", "us-nj", "-n", "200", "--seed", "3", "--inject", "integrity.unshuffled@1",
               "-o", "night.json")
    assert made.exit_code == 0, made.stderr
    recorded = {c["coup"]: c for c in json.loads((tmp_path / "night.json").read_text())["coups"]}
    for jobs in ("1", "2"):
        data = page_data(run("check", "night.json", "-f", "html", "-j", jobs, "--timestamp", STAMP).stdout)
        shuffle = data["rules"].index(next(r for r in data["rules"] if r[0] == "BAC-SHUFFLE"))
        cited = [spelled(data, c) for c in data["coups"] if any(f[0] == shuffle for f in c["f"])]
        assert cited and all(len(c["f"]) == 1 for c in cited)  # no finding of their own
        for c in cited:
            assert "why" not in c
            hand = next(h for h in c["c"]["hands"] if h["label"] == "Player")
            player = [data["faces"][i][0] for i in hand["cards"]]
            dealt = [e["card"] for e in recorded[c["n"]]["events"] if e["type"] == "card" and e.get("to") == "player"]
            assert player == dealt


def test_without_chromium_the_browser_tests_name_the_step_that_installs_it(monkeypatch):
    monkeypatch.setenv("PATH", "")
    assert browser.find() is None
    assert "`make browser`" in browser.MISSING
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nbrowser:\n", 1)[1].split("\n\n", 1)[0]
    assert "apt-get install" in recipe and "chromium" in recipe
    assert "make browser" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def chromium():
    path = browser.find()
    if path is None:
        pytest.skip(browser.MISSING)
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (the slow extra) drives the browser")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def opened(chromium, page_file, width=1240):
    page = chromium.new_page(viewport={"width": width, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    requests = []
    page.on("request", lambda req: requests.append(req.url))
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-ready=true]")
    return page, errors, requests


@pytest.mark.slow
def test_chromium_shows_the_report(tmp_path, monkeypatch, chromium):
    sample_into(tmp_path)
    write(tmp_path / "waivers.yaml", {"waivers": [{
        "id": "W-17", "rule": "BAC-WAGER-LATE", "justification": "accepted by the pit boss",
        "approved_by": "M. Okafor", "expires": "2030-01-01"}]})
    page_file = tmp_path / "report.html"
    page_file.write_text(html_report(tmp_path, monkeypatch, "night-shift.json", extra=["--waivers", "waivers.yaml"]))
    page, errors, requests = opened(chromium, page_file)

    assert page.inner_text("h1") == "Baccarat compliance report"
    assert page.inner_text(".status") == "FAIL"
    assert page.inner_text(".summary-line") == ("checked 1 transcript, 6 coups, 5 findings: 5 error; 1 waived; "
                                                       "net 50 USD paid to patrons beyond what was due")
    assert page.locator("section.coup").count() == 4  # coups 3, 4, 5, 6

    coup3 = page.locator("section.coup[data-coup='3']")
    assert coup3.locator(".hand.player h4").inner_text() == "PLAYER 0 points"  # text-transform: uppercase
    player = [c.get_attribute("aria-label") for c in coup3.locator(".hand.player .card").all()]
    assert player == ["two of spades", "three of diamonds", "five of clubs (third card)"]
    banker = coup3.locator(".hand.banker .card")
    assert [c.get_attribute("data-card") for c in banker.all()] == ["7H", "QC", "8D"]
    first = banker.nth(0).bounding_box()
    third = banker.nth(2).bounding_box()
    assert first["height"] > first["width"] > 40  # an upright card
    assert third["width"] > third["height"] > 40  # the third card lies sideways
    assert coup3.locator(".card.red").first.evaluate("e => getComputedStyle(e).color") == "rgb(192, 21, 47)"
    assert coup3.locator(".card.hit").get_attribute("data-card") == "8D"  # the card the finding is about
    assert "Regulation: N.J.A.C. 13:69F-3.9" in coup3.inner_text()
    assert "night-shift.json:241:5" in coup3.inner_text()

    coup5 = page.locator("section.coup[data-coup='5']")
    assert coup5.locator("table.events tr.hit").evaluate_all("rows => rows.map(r => r.dataset.event)") == ["8", "10"]
    settled = coup5.locator("table.events tr[data-event='10']").inner_text().split("\t")
    assert settled[:5] == ["10", "settle", "seat 1", "banker", "1,000"]
    wager = coup5.locator("table.wagers tr.hit").inner_text().split("\t")
    assert wager[:5] == ["seat 1", "banker", "1,000", "win", "1,000"]  # beside the cards: staked, settled, paid
    assert coup5.locator(".coup-body > .right").bounding_box()["x"] > coup5.locator(".table-felt").bounding_box()["x"]
    assert "no_more_bets" in coup5.locator("table.events").inner_text()  # the calls

    waived = page.locator("section.coup[data-coup='6'] li.waived")
    assert "waived by W-17" in waived.inner_text() and "M. Okafor" in waived.inner_text()
    assert hashlib.sha256(SAMPLE.read_bytes()).hexdigest() in page.inner_text("table.facts")
    assert all(url.startswith("file://") for url in requests)  # nothing fetched from anywhere
    assert errors == []

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "night-shift.png"), full_page=True)
    assert (ARTIFACTS / "night-shift.png").stat().st_size > 10_000
    page.close()


@pytest.mark.slow
def test_chromium_prints_it(tmp_path, monkeypatch, chromium):
    write(tmp_path / "night.json", sample_doc())
    page_file = tmp_path / "report.html"
    page_file.write_text(html_report(tmp_path, monkeypatch, "night.json"))
    page, errors, _ = opened(chromium, page_file)
    page.emulate_media(media="print")
    assert page.locator(".filters").evaluate("e => getComputedStyle(e).display") == "none"
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "night-shift.pdf").write_bytes(pdf)
    assert errors == []
    page.close()


@pytest.mark.slow
def test_a_report_of_20000_findings_opens_in_seconds_and_filters(tmp_path, monkeypatch, chromium):
    """Four tables, 3,350 coups each: 20,100 findings in 13,400 coups, dealt by four dealers in turn, a coup a
    minute: the coups filtered by dealer and by hour too."""
    monkeypatch.chdir(tmp_path)
    breaching_transcripts(tmp_path, 3_350, tables=4, staffed=True)
    # the same four coups over and over are no shuffled shoe: the shoe and table integrity rules are left out
    r = run("check", ".", "-j", "1", "-o", "html=report.html", "--timestamp", STAMP, "--ignore", "integrity.*")
    assert "20,100 findings" in r.stderr
    page_file = tmp_path / "report.html"

    started = time.perf_counter()
    page, errors, requests = opened(chromium, page_file)
    seconds = time.perf_counter() - started
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "scale.txt").write_text(f"20,100 findings, {page_file.stat().st_size:,} bytes: opened and the "
                                         f"first page of coups drawn in {seconds:.2f} s\n")
    assert seconds < LOAD_LIMIT, f"{seconds:.2f} s to open the report of 20,100 findings"
    assert errors == [] and all(url.startswith("file://") for url in requests)
    assert page.inner_text("table.by-rule").count("\n") == 5  # a header and five rules
    assert page.locator("section.coup").count() == 50  # a page of coups, not 13,400
    assert "of 13,400 (20,100 findings match the filters)" in page.inner_text("#coup-count")

    page.select_option("#filter-rule", label="BAC-WAGER-LATE")
    assert "of 3,348 (3,348 findings" in page.inner_text("#coup-count")
    rules = page.locator("section.coup li:not(.other)").evaluate_all("li => li.map(x => x.dataset.rule)")
    assert set(rules) == {"BAC-WAGER-LATE"} and len(rules) == 50

    page.select_option("#filter-table", label="BAC-02")
    assert "of 837 (837 findings" in page.inner_text("#coup-count")
    tables = page.locator("section.coup .coup-head .meta").all_inner_texts()
    assert tables and all("table BAC-02" in t for t in tables)

    page.select_option("#filter-rule", label="all")
    page.select_option("#filter-category", label="settlement.wrong-amount")
    assert "of 837 (837 findings" in page.inner_text("#coup-count")
    first = page.locator("section.coup").first.get_attribute("data-coup")
    page.locator(".pager .next").first.click()
    assert page.locator("section.coup").first.get_attribute("data-coup") != first
    assert "page 2 of 17" in page.inner_text(".pager")

    page.select_option("#filter-severity", label="warning")
    assert page.inner_text("#coup-count") == "No coup has a finding that matches the filters."
    assert page.locator("section.coup").count() == 0

    page.select_option("#filter-severity", label="all")
    page.select_option("#filter-category", label="all")
    page.select_option("#filter-table", label="all")
    page.locator("table.by-rule a.pick", has_text="BAC-SETTLE-AMOUNT").click()  # the summary leads to the coups
    assert "of 3,348 (3,348 findings" in page.inner_text("#coup-count")

    page.select_option("#filter-rule", label="all")
    page.select_option("#filter-dealer", label="D-02")
    assert "of 3,360 (5,040 findings" in page.inner_text("#coup-count")
    heads = page.locator("section.coup .coup-head .meta").all_inner_texts()
    assert heads and all("dealer D-02" in h for h in heads)
    # 56 hours: shown by the day, an hour reached within its day
    assert page.locator("table.by-day tr").count() == 1 + 4  # 20:00 on the 29th to 03:49 on 2 December
    page.select_option("#filter-day", label="2026-11-29 (UTC)")
    assert "of 320 (480 findings" in page.inner_text("#coup-count")  # D-02's coups 41 to 80, 201 to 240: 20:00 to 23:59
    page.select_option("#filter-hour", label="2026-11-29T21:00Z")  # D-02 deals coups 41 to 80: 20:40 to 21:19
    assert "of 80 (120 findings" in page.inner_text("#coup-count")
    assert all("2026-11-29T21:" in h for h in page.locator("section.coup .coup-head .meta").all_inner_texts())
    dealers = page.locator("table.by-dealer tr").all_inner_texts()
    assert dealers[0].startswith("dealer") and len(dealers) == 5  # every dealer, the highest rate first
    page.locator("table.by-patron a.pick").first.click()  # a patron leads to the coups of the patron's findings
    theirs = page.locator("section.coup li:not(.other)")
    assert theirs.count() and theirs.locator(".money").count() == theirs.count()
    page.screenshot(path=str(ARTIFACTS / "scale.png"))
    assert errors == []
    page.close()


def test_chart_labels_are_shown_whole():
    from compliance.report.svg import bar_chart

    chart = bar_chart("findings by category", [("settlement.wrong-amount", 12), ("integrity.settlement-drift", 1)])
    assert ">settlement.wrong-amount</text>" in chart and ">integrity.settlement-drift</text>" in chart


def test_flagged_shoes_are_drawn_first_over_the_run_and_those_beyond_the_cap_are_listed_with_their_flags(
        monkeypatch):
    from types import SimpleNamespace

    from compliance.report import svg
    from compliance.report.svg import MAX_DRAWN, MAX_SHOES, shoes_drawn, shoes_html

    monkeypatch.setattr(svg, "shoe_html", lambda v: f'<div class="shoe{" flagged" if v.flagged else ""}"></div>')

    def shoes(flagged: int, fair: int, table: str) -> list:
        return [SimpleNamespace(shoe=f"{table}-S{i:03d}", flagged=[f"BAC-SHUFFLE: shoe {i} not shuffled"] if i < flagged
                                else [], first_coup=i * 70 + 1, last_coup=i * 70 + 70) for i in range(flagged + fair)]

    run_of = [shoes(100, 40, "A"), None, shoes(50, 10, "B"), shoes(0, 200, "C")]
    drawn = shoes_drawn(run_of)
    assert drawn == [(100, 0), (0, 0), (20, 0), (0, 0)]  # every drawing goes to flagged shoes, the first table's first
    assert sum(f + o for f, o in drawn) == MAX_DRAWN
    assert shoes_drawn([shoes(3, 100, "A"), shoes(0, 100, "B")]) == [(3, MAX_SHOES - 3), (0, MAX_SHOES)]
    page = shoes_html(run_of[2], drawn[2])
    assert page.count('class="shoe flagged"') == 20 and "30 more flagged shoes, not drawn" in page
    assert '<li data-shoe="B-S049">shoe B-S049, coups 3431\u20133500: BAC-SHUFFLE: shoe 49 not shuffled</li>' in page
    assert "10 more shoes without a finding are not drawn" in page


# ------------------------------------------------------------------ a long recording, as the page draws it

_hours = st.lists(st.datetimes(min_value=dt.datetime(2024, 1, 1), max_value=dt.datetime(2031, 12, 31)).map(
    lambda t: t.strftime("%Y-%m-%dT%H:00Z")), min_size=1, max_size=400, unique=True)


@settings(max_examples=60, deadline=None)
@given(hours=_hours, spread=st.sampled_from([1, 24, 24 * 30, 24 * 400]))
def test_the_time_view_is_the_finest_unit_in_which_the_findings_fall_in_at_most_48_periods(hours, spread):
    """However long the recording, the time view has at most 48 rows, in the finest of hour, day, month and year
    that allows it, and reaches every hour through the periods above it; nothing is lost on the way."""
    start = dt.datetime(2026, 11, 1, 20)
    hours = sorted({(start + (dt.datetime.fromisoformat(h[:-1]) - dt.datetime(2024, 1, 1)) * spread
                     / (24 * 400)).strftime("%Y-%m-%dT%H:00Z") for h in hours})
    counts = {h: Counter({"error": i % 3 + 1}) for i, h in enumerate(hours)}
    fold = time_fold(counts)
    units = [u for u, _ in TIME_UNITS]
    finest = next(u for u in units if len({period_of(h, u) for h in hours}) <= TIME_PERIODS)
    assert fold.unit == finest and fold.units == units[:units.index(finest) + 1][::-1]
    assert len(fold.periods) <= TIME_PERIODS or fold.unit == "year"
    assert [p.key for p in fold.levels[-1]] == hours and fold.hours == len(hours)
    for at, hour in enumerate(hours):  # each hour is reached through the periods it falls in
        for level in range(len(fold.units) - 1, 0, -1):
            at = fold.levels[level][at].up
            assert fold.levels[level - 1][at].key == period_of(hour, fold.units[level - 1])
    assert sum(sum(p.counts.values()) for p in fold.periods) == sum(sum(c.values()) for c in counts.values())
    assert sum(p.hours for p in fold.periods) == len(hours)
    for p in fold.periods:
        assert p.most == max(sum(counts[h].values()) for h in hours if period_of(h, fold.unit) == p.key)


def test_periods_keep_the_offset_the_hours_were_recorded_in():
    assert period_of("2026-11-29T21:00+10:00", "day") == "2026-11-29 (+10:00)"
    assert period_of("2026-11-29T21:00Z", "month") == "2026-11 (UTC)"
    assert period_of("2026-11-29T21:00", "year") == "2026"
    assert period_of(NOT_RECORDED, "month") == NOT_RECORDED
    fold = time_fold({f"2026-11-{d:02d}T20:00Z": Counter(error=1) for d in range(1, 31)}
                     | {f"2026-12-{d:02d}T20:00Z": Counter(error=1) for d in range(1, 31)}
                     | {NOT_RECORDED: Counter(info=2)}, more_hours=["2027-01-01T00:00Z"])
    assert fold.unit == "month" and [p.key for p in fold.periods] == ["2026-11 (UTC)", "2026-12 (UTC)", NOT_RECORDED]
    assert fold.levels[-1][-2].key == "2027-01-01T00:00Z" and not fold.levels[-1][-2].counts  # a waived finding's
    assert fold.hours == 60 and fold.levels[0][-1].counts == Counter(info=2)


def test_a_page_lists_100_patrons_at_most_and_adds_up_the_rest_in_one_line():
    def paid(i: int, coup: int, gain: int) -> Finding:
        return Finding("BAC-SETTLE-AMOUNT", "settlement.wrong-amount", "error", "night.json", coup, 3, "…", "§1",
                       table="T-9", money=Money(Decimal(100), Decimal(100 + gain), "USD", f"P-{i:04d}"))

    found = [paid(i, i, 10 * (i % 7) - 20) for i in range(250)] + [paid(i, 1000 + i, 5) for i in range(3)]
    patrons = patron_counts(found)
    drawn = patron_digest(patrons)
    assert len(drawn.shown) == ROWS_DRAWN and drawn.left_out == 150
    assert [k for k, _ in drawn.shown[:3]] == ["P-0000", "P-0001", "P-0002"]  # the most findings first
    nets = [abs(p.money.net) for _, p in drawn.shown[3:]]  # then the largest net either way: 35 of 40, 36 of 30 ...
    assert nets == sorted(nets, reverse=True) and nets[:36] == [40] * 35 + [30]
    rest, shown = drawn.rest, [p for _, p in drawn.shown]
    assert rest.count + sum(p.count for p in shown) == len(found)
    assert rest.money.net + sum(p.money.net for p in shown) == sum(f.money.gain for f in found)
    assert rest.settlements == 150 and rest.currency == "USD" and rest.by_rule == [("BAC-SETTLE-AMOUNT", 150)]
    assert patron_digest(dict(list(patrons.items())[:100])).rest is None  # nothing left out, no such line


def _long_night(directory, coups: int) -> None:
    """One table's coups half an hour apart from 2026-11-29T20:00Z (two months and more), each coup's seat 1 a
    patron of its own; one coup in four pays seat 1's Banker wager wrong: by 50 as the sample does, every tenth of
    them by 250."""
    (path,) = breaching_transcripts(directory, coups, tables=1, staffed=True)
    doc = json.loads(path.read_text())
    for i, c in enumerate(doc["coups"]):
        at = (START + dt.timedelta(minutes=30 * i)).strftime("%Y-%m-%dT%H:%M:%SZ")
        for e in c["events"]:
            e["at"] = at
            if e["type"] == "settle" and e.get("seat") == 1 and e["amount"] == 1000 and i % 40 == 2:
                e["amount"] = 1200
        c["seated"]["1"] = f"P-{i + 1:05d}"
    write(path, doc, indent=None)


@pytest.mark.slow
def test_a_recording_of_two_months_and_3000_patrons_opens_folded_by_the_month_and_filters_to_any_hour_and_patron(
        tmp_path, monkeypatch, chromium):
    monkeypatch.chdir(tmp_path)
    _long_night(tmp_path, 3_000)
    r = run("check", ".", "-j", "1", "-o", "html=report.html", "-o", "json=report.json", "--timestamp", STAMP,
            "--ignore", "integrity.*")
    assert "4,500 findings" in r.stderr
    doc = json.loads((tmp_path / "report.json").read_text())
    assert len(doc["groups"]["hour"]) == 1_500 and len(doc["groups"]["patron"]) == 750  # the JSON report: each
    page, errors, requests = opened(chromium, tmp_path / "report.html")

    # time: 1,500 hours from 29 November to 31 January, three months in the summary, its chart and the filter
    months = page.locator("table.by-month tr").all_inner_texts()
    assert [m.split("\t")[0] for m in months[1:]] == ["2026-11 (UTC)", "2026-12 (UTC)", "2027-01 (UTC)"]
    assert months[2].split("\t")[1:5] == ["2,232", "0", "0", "744"]  # 1,488 coups of December, 1.5 findings each
    assert "fall in 1,500 hours, shown by the month" in page.inner_text("p.folded")
    assert "by month" in page.inner_text("section#charts")
    assert page.locator("table.by-hour tr").count() == 4 and page.locator("table.money-by-month tr").count() == 4
    assert page.locator("#filter-month option").count() == 4
    assert page.locator("#filter-day").is_disabled() and page.locator("#filter-hour").is_disabled()
    page.select_option("#filter-month", label="2026-12 (UTC)")
    assert "of 1,488 (2,232 findings" in page.inner_text("#coup-count")
    assert page.locator("#filter-day option").count() == 1 + 31 and page.locator("#filter-hour").is_disabled()
    page.select_option("#filter-day", label="2026-12-25 (UTC)")
    assert "of 48 (72 findings" in page.inner_text("#coup-count")
    assert page.locator("#filter-hour option").count() == 1 + 24
    page.select_option("#filter-hour", label="2026-12-25T21:00Z")
    assert "of 2 (" in page.inner_text("#coup-count")
    assert all("2026-12-25T21:" in h for h in page.locator("section.coup .coup-head .meta").all_inner_texts())
    page.select_option("#filter-month", label="2027-01 (UTC)")  # a new month: the day and hour chosen again
    assert page.locator("#filter-hour").is_disabled() and page.input_value("#filter-day") == ""
    page.locator("table.by-month a.pick[data-filter=hour]").first.click()  # the busiest hour of November
    assert page.input_value("#filter-month") == "0" and page.locator("#filter-hour option:checked").inner_text() \
        == "2026-11-29T20:00Z"
    assert "of 2 (3 findings" in page.inner_text("#coup-count")

    # patrons: 750, each with one finding; the 75 paid 250 wrong first, 100 listed, the rest in one line
    patrons = page.locator("table.by-patron tr").all_inner_texts()
    assert len(patrons) == 1 + 100 + 1
    assert all(row.split("\t")[-3] == "250 USD" for row in patrons[1:76])
    assert patrons[-1].startswith("650 more patrons\t650\t650\t0\t0\t650")
    assert "650 more patrons not listed" in page.inner_text("#patrons ~ p.left-out")
    assert "JSON report (groups.patron, money.patron)" in page.inner_text("#patrons ~ p.left-out")
    assert page.locator("table.money-by-patron tr").count() == 1 + 100 + 1
    box = page.locator("input#filter-patron")
    assert box.get_attribute("placeholder") == "any of 750: type a name"
    box.fill("P-0299")
    suggested = page.locator("#names-patron option").evaluate_all("o => o.map(x => x.value)")
    assert suggested == ["P-02991", "P-02995", "P-02999"][:len(suggested)] and suggested  # names holding it
    page.select_option("#filter-month", label="all")
    box.fill("P-02999")  # one of the patrons not listed
    box.dispatch_event("change")
    assert "of 1 (1 finding matches" in page.inner_text("#coup-count")
    assert page.locator("section.coup").get_attribute("data-coup") == "2999"
    box.fill("P-nobody")
    box.dispatch_event("change")
    assert page.inner_text("#coup-count") == "No patron named \u201cP-nobody\u201d has a finding in this report."
    page.locator("table.by-patron a.pick").first.click()
    assert box.input_value() == patrons[1].split("\t")[0] and "of 1 (1 finding" in page.inner_text("#coup-count")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "long-night.png"), full_page=False)
    assert errors == [] and all(url.startswith("file://") for url in requests)
    page.close()


def test_a_chart_of_many_dealers_draws_the_30_with_the_most_findings_and_counts_the_rest():
    from compliance.report.digest import BARS_DRAWN, bars
    from compliance.report.groups import Groups
    from compliance.report.svg import charts_html

    counts = [(f"D-{i:03d}", i % 50 + 1) for i in range(45)]
    chart = bars("dealer", counts)
    assert len(chart.items) == BARS_DRAWN == 30
    assert [n for _, n in chart.items] == sorted((n for _, n in counts), reverse=True)[:30]
    assert chart.left_out == 15 and chart.left_out_findings + sum(n for _, n in chart.items) == sum(n for _, n in counts)
    page = charts_html([chart])
    assert "by dealer: the 30 with the most findings; 15 more, with 120 findings, not drawn" in page
    assert page.count("<rect") == 30
    assert bars("dealer", counts[:30]).items == counts[:30]  # few enough: all, in their order

    groups = Groups({"D-1": Counter(error=3), "D-2": Counter(error=1, info=1), "D-3": Counter()}, {}, {},
                    dealer_coups={"D-1": 100, "D-2": 60, "D-3": 40}, dealer_whole={"D-1": 1, "D-2": 0, "D-3": 0})
    rest = groups.together(["D-2", "D-3"])  # the dealers a page does not list one by one, in one line
    assert (rest.counts, rest.coups, str(rest.rate), rest.whole) == (Counter(error=1, info=1), 100, "2.00", 0)
