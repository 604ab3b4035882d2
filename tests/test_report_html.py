"""The HTML report: one self-contained page an auditor can open or print, cards drawn as cards.

The page is opened in headless Chromium and the test reads what it shows; a
screenshot is left in out/html-report/ as a build artifact.
"""

from __future__ import annotations

import hashlib
import re

import browser
import pytest
from reporting import ROOT, SAMPLE, STAMP, clean_doc, run, sample_doc, sample_into, with_unreadable_coup, write

ARTIFACTS = ROOT / "out" / "html-report"


def html_report(tmp_path, monkeypatch, *inputs: str, extra=()) -> str:
    monkeypatch.chdir(tmp_path)
    r = run("check", *inputs, "-f", "html", "--timestamp", STAMP, *extra)
    return r.stdout


def test_the_page_is_self_contained(tmp_path, monkeypatch):
    sample_into(tmp_path)
    page = html_report(tmp_path, monkeypatch, "night-shift.json")
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page and not re.search(r'(src|href)="(https?:)?//', page)
    assert "<style>" in page and "@media print" in page


def test_the_page_names_what_it_checked(tmp_path, monkeypatch):
    sample_into(tmp_path)
    page = html_report(tmp_path, monkeypatch, "night-shift.json")
    assert hashlib.sha256(SAMPLE.read_bytes()).hexdigest() in page
    assert "us-nj" in page and "baccarat-audit 0." in page and "generated 2026-11-29T12:00:00Z" in page
    assert "N.J.A.C. 13:69F-3.9" in page


def test_transcript_text_is_escaped(tmp_path, monkeypatch):
    doc = clean_doc()
    doc["table"]["id"] = "<img src=x onerror=alert(1)>"
    write(tmp_path / "t.json", with_unreadable_coup(doc, 1))
    page = html_report(tmp_path, monkeypatch, "t.json")
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page


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
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (test extra) drives the browser")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def test_chromium_shows_the_report(tmp_path, monkeypatch, chromium):
    sample_into(tmp_path)
    write(tmp_path / "waivers.yaml", {"waivers": [{
        "id": "W-17", "rule": "BAC-WAGER-LATE", "justification": "accepted by the pit boss",
        "approved_by": "M. Okafor", "expires": "2030-01-01"}]})
    page_file = tmp_path / "report.html"
    page_file.write_text(html_report(tmp_path, monkeypatch, "night-shift.json", extra=["--waivers", "waivers.yaml"]))
    page = chromium.new_page(viewport={"width": 1100, "height": 900})
    requests = []
    page.on("request", lambda req: requests.append(req.url))
    page.goto(page_file.as_uri())

    assert page.inner_text("h1") == "Baccarat compliance report"
    assert page.inner_text(".status") == "FAIL"
    assert page.inner_text(".summary-line") == "checked 1 transcript, 6 coups, 5 findings: 5 error; 1 waived"
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
    assert "Regulation: N.J.A.C. 13:69F-3.9" in coup3.inner_text()
    assert "night-shift.json:241:5" in coup3.inner_text()

    waived = page.locator("section.coup[data-coup='6'] li.waived")
    assert "waived by W-17" in waived.inner_text() and "M. Okafor" in waived.inner_text()
    assert hashlib.sha256(SAMPLE.read_bytes()).hexdigest() in page.inner_text("table.facts")
    assert all(url.startswith("file://") for url in requests)  # nothing fetched from anywhere

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "night-shift.png"), full_page=True)
    assert (ARTIFACTS / "night-shift.png").stat().st_size > 10_000
    page.close()


def test_chromium_prints_it(tmp_path, monkeypatch, chromium):
    write(tmp_path / "night.json", sample_doc())
    page_file = tmp_path / "report.html"
    page_file.write_text(html_report(tmp_path, monkeypatch, "night.json"))
    page = chromium.new_page()
    page.goto(page_file.as_uri())
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "night-shift.pdf").write_bytes(pdf)
    page.close()
