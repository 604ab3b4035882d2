"""What was recorded: a rule whose evidence the recording lacks is not judged, and the report says why.

A transcript's header may say what its recording holds (``recorded``, format
1.1); a coup may say the same of itself; a card may be recorded in part
(``7?``, ``0?``) or not read (``??``).  Each check kind declares the evidence it
needs.  A rule is judged only where that evidence was recorded: it never
reports a breach for something the record does not hold, and every report
lists it as not judged, with the reason.  A version 1 transcript (no
``recorded``) means exactly what it always meant.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compliance import evidence, registry
from compliance.checks import REGISTRY
from compliance.context import RunContext
from compliance.engine import Checker
from compliance.report.model import Report
from compliance.report.notjudged import not_judged
from tests import builders
from tests.reporting import run

SHOE = [r + s for r in "A23456789TJQK" for s in "SHDC"] * 8


def compliant_play(seed: int = 7, coups: int = 12) -> dict:
    """A us-nj transcript of compliant coups: wagers, calls, cards, result, settlements."""
    cards = SHOE[:]
    random.Random(seed).shuffle(cards)
    return builders.transcript(builders.dealt_by_the_rules(cards)[:coups])


def recorded_as(doc: dict, recorded: list[str], keep=("card", "result")) -> dict:
    """The transcript as a recording holding only ``recorded`` would give it: the other events left out."""
    doc = copy.deepcopy(doc)
    doc["version"] = "1.1"
    doc["recorded"] = recorded
    for c in doc["coups"]:
        c["events"] = [e for e in c["events"] if e["type"] in keep]
        c.pop("seated", None)
        if "faces" not in recorded:  # a record without the faces writes none
            for e in c["events"]:
                e.pop("face", None)
    return doc


def write(path: Path, doc: dict) -> Path:
    path.write_text(builders.dumps(doc), encoding="utf-8")
    return path


def result_of(doc: dict, tmp_path: Path, ruleset: str | None = None):
    path = write(tmp_path / "recording.json", doc)
    return Checker(ruleset=ruleset).check_file(path, path.name)


def reasons(result) -> dict[str, str]:
    return {nj.rule.id: nj.reason for nj in not_judged(result)}


# ------------------------------------------------------------------ rules not judged


def test_a_cards_only_recording_of_compliant_play_gives_no_finding_and_lists_the_rules_not_judged(tmp_path):
    doc = recorded_as(compliant_play(), ["cards", "hands", "order"], keep=("card",))
    result = result_of(doc, tmp_path)
    assert result.findings == []
    why = reasons(result)
    assert why["BAC-CALLS"] == "calls not recorded"
    assert why["BAC-RESULT"] == "results not recorded"
    assert why["BAC-WAGER-LIMITS"] == "wagers not recorded"
    assert why["BAC-SETTLE-MISSING"] == "wagers and settlements not recorded"
    assert why["NJ-RECIPIENT"] == "wagers and hand passes not recorded"
    judged = {"BAC-DEAL-ORDER", "BAC-DEAL-EXTRA", "BAC-DRAW-PLAYER-ILLEGAL", "BAC-DRAW-PLAYER-MISSING",
              "BAC-DRAW-BANKER-ILLEGAL", "BAC-DRAW-BANKER-MISSING", "BAC-DRAW-NO-READING", "BAC-SHOE-INTEGRITY",
              "BAC-TRANSCRIPT", "BAC-RECORD-TIMESTAMP", "BAC-SHUFFLE", "BAC-OUTCOMES",  # the shoe's order and outcomes: from its cards
              "BAC-RECORD-DECLARATION", "BAC-RECORD-EVIDENCE",  # what the record holds, judged on every record
              "BAC-RECORD-REJECTED-ROW", "BAC-RECORD-CARD-SEQUENCE", "BAC-RECORD-LOGS-DISAGREE",  # what an import
              "BAC-RECORD-DUPLICATE-ROW", "BAC-RECORD-CONTRADICTION",  # found: wherever it says so
              "BAC-LIMITS-UNOFFERED-SPOT",  # the header's posted limits: judged on every record
              "BAC-RECORD-STAFF"}  # the header's staff stretches: likewise
    rules = {r.id for r in result.ruleset.rules}
    assert set(why) == rules - judged
    assert why["BAC-RECORD-DUPLICATE"] == "every coup of the shoe not recorded"  # a recording that does not claim it
    assert all(nj.coups == nj.of == 12 for nj in not_judged(result))


def test_the_same_recording_with_third_card_errors_gives_exactly_those_findings(tmp_path):
    doc = recorded_as(compliant_play(), ["cards", "hands", "order"], keep=("card",))
    drew, stood = None, None
    for c in doc["coups"]:
        hands = [e["to"] for e in c["events"]]
        if drew is None and hands.count("player") == 3 and hands.count("banker") == 2:
            del c["events"][4]  # the Player's third card never dealt: the Player stood when it had to draw
            drew = c["coup"]
        elif stood is None and len(hands) == 4 and c["coup"] != drew:
            points = [builders.total([e["card"] for e in c["events"][i::2]]) for i in (0, 1)]
            if points[0] in (6, 7) and points[1] in (6, 7):  # neither draws: a Banker card is one too many
                c["events"].append({"type": "card", "card": "5D", "to": "banker"})
                stood = c["coup"]
    assert drew and stood
    result = result_of(doc, tmp_path)
    assert builders.pairs(result.findings) == {(drew, "BAC-DRAW-PLAYER-MISSING"), (stood, "BAC-DRAW-BANKER-ILLEGAL")}


def test_a_rule_not_judged_gives_no_finding_where_a_version_1_transcript_is_reported(tmp_path):
    v1 = compliant_play(coups=2)
    for c in v1["coups"]:
        c["events"] = [e for e in c["events"] if e["type"] != "announce"]  # no call in the record
    assert {f.rule for f in result_of(v1, tmp_path).findings} == {"BAC-CALLS"}  # v1: the calls were never made
    recording = copy.deepcopy(v1) | {"version": "1.1",
                                     "recorded": [n for n in evidence.DECLARABLE if n not in ("calls", "coups")]}
    result = result_of(recording, tmp_path)
    assert result.findings == []
    assert reasons(result) == {"BAC-CALLS": "calls not recorded", "NJ-PLAYER-HAND-FIRST": "calls not recorded",
                               "BAC-RECORD-DUPLICATE": "every coup of the shoe not recorded",
                               "BAC-RECORD-COUP-NUMBER": "every coup of the shoe not recorded",
                               "BAC-COLLUSION": "the dealer not recorded"}  # format 1.1 can name the dealer


def test_a_version_1_transcript_lists_nothing_as_not_judged_and_its_json_report_is_unchanged(tmp_path):
    path = write(tmp_path / "v1.json", compliant_play(coups=3))
    result = Checker().check_file(path, path.name)
    assert result.not_judged == {} and result.recorded is None
    out = run("check", path, "-f", "json", "--timestamp", "2026-11-29T12:00:00Z")
    doc = json.loads(out.stdout)
    assert "not_judged" not in doc and "groups" not in doc and "recorded" not in doc["transcripts"][0]


def test_every_check_kind_declares_the_evidence_it_needs_beside_its_registration():
    registry.load_checks()
    for name, kind in REGISTRY.items():
        assert set(kind.needs) <= set(evidence.EVIDENCE), name
    assert REGISTRY["procedure.calls"].needs == ("calls", "cards")
    assert REGISTRY["third-card.banker.illegal"].needs == ("hands", "values")
    assert REGISTRY["deal.initial-order"].needs == ("hands", "order")
    assert REGISTRY["record.timestamp"].needs == ()  # judged wherever a timestamp is recorded


#: what every coup of :func:`compliant_play` shows it holds, whatever it declares: cards (each to its hand, face
#: up), calls, wagers as they stood (placed before every other event), a result and settlements
SHOWN = frozenset({"cards", "hands", "faces", "calls", "stakes", "results", "settlements"})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(recorded=st.sets(st.sampled_from(evidence.DECLARABLE)), seed=st.integers(0, 3))
def test_what_a_recording_states_never_narrows_what_its_coups_hold(tmp_path, recorded, seed):
    """The same coups, stated to hold less: a rule gives exactly its findings on the whole transcript wherever
    its evidence is stated or shown by the coups; only a rule needing what is neither gives none and is listed
    as not judged; and a statement that leaves out what the coups show is itself a finding."""
    doc = compliant_play(seed, coups=8)
    rng = random.Random(seed)
    for c in doc["coups"]:  # some breaches for the rules to find
        if rng.random() < 0.4:
            c["events"] = [e for e in c["events"] if not (e["type"] == "announce" and e["call"] == "cards")]
        if rng.random() < 0.3:  # a wager settled twice
            c["events"].append(copy.deepcopy(next(e for e in reversed(c["events"]) if e["type"] == "settle")))
    for c in doc["coups"]:
        assert {"card", "announce", "wager", "result", "settle"} <= {e["type"] for e in c["events"]}
    full = result_of(doc, tmp_path)
    stated = copy.deepcopy(doc) | {"version": "1.1", "recorded": sorted(recorded)}
    result = result_of(stated, tmp_path)
    have = evidence.with_shown(evidence.held(sorted(recorded)), SHOWN)
    listed = {rule for rule, _ in result.not_judged}
    for rule in result.ruleset.rules:
        needs = REGISTRY[rule.check].needs
        if rule.check == "integrity.unshuffled" and "hands" not in have:
            needs += ("order",)  # the cards' order: as recorded, or implied by the rules from their hands
        if rule.check == "integrity.collusion":
            needs += ("dealers",)  # who dealt each coup: format 1.1 staff, which this recording does not name
        mine = [f.as_dict() for f in result.findings if f.rule == rule.id]
        if rule.category == "record.declaration":
            assert bool(mine) == (not SHOWN <= evidence.held(sorted(recorded))), mine
            assert [f["coup"] for f in mine] in ([], [1])
        elif set(needs) <= have:
            assert mine == [f.as_dict() for f in full.findings if f.rule == rule.id], rule.id
            assert rule.id not in listed
        else:
            assert mine == [], rule.id
            assert rule.id in listed


# ------------------------------------------------------------------ coups recorded in part


def test_a_coup_with_a_result_and_no_captured_cards_is_not_a_dealing_breach(tmp_path):
    doc = compliant_play(coups=3)
    doc["coups"][1]["events"] = [e for e in doc["coups"][1]["events"] if e["type"] != "card"]
    v1 = result_of(doc, tmp_path)
    assert (2, "BAC-DEAL-ORDER") in builders.pairs(v1.findings)  # v1: the initial deal is incomplete
    doc["version"] = "1.1"
    doc["coups"][1]["recorded"] = [n for n in evidence.DECLARABLE if n not in ("cards", "hands", "order")]
    result = result_of(doc, tmp_path)
    assert result.findings == []
    nj = {n.rule.id: n for n in not_judged(result)}
    assert nj["BAC-DEAL-ORDER"].coups == 1
    assert nj["BAC-DEAL-ORDER"].reason == "the hand each card went to and the dealing order not recorded"
    assert nj["BAC-SHOE-INTEGRITY"].reason == "cards not recorded"
    assert "BAC-SETTLE-AMOUNT" not in nj  # its wagers settled right by the announced result: judged, compliant
    assert nj["BAC-RESULT"].extent == "in 1 of 3 coups"


def test_a_coup_whose_wagers_were_not_captured_is_not_a_settlement_breach(tmp_path):
    doc = compliant_play(coups=3)
    doc["coups"][2]["events"] = [e for e in doc["coups"][2]["events"] if e["type"] != "settle"]
    assert {f.rule for f in result_of(doc, tmp_path).findings} == {"BAC-SETTLE-MISSING"}
    doc["version"] = "1.1"
    doc["coups"][2]["recorded"] = [n for n in evidence.DECLARABLE if n not in ("wagers", "stakes", "settlements")]
    doc["coups"][2]["events"] = [e for e in doc["coups"][2]["events"] if e["type"] != "wager"]
    result = result_of(doc, tmp_path)
    assert result.findings == []
    assert reasons(result)["BAC-SETTLE-MISSING"] == "wagers and settlements not recorded"


def test_a_card_marked_unread_is_judged_for_where_it_went_not_for_its_value(tmp_path):
    doc = compliant_play(coups=2)
    cards = [e for e in doc["coups"][0]["events"] if e["type"] == "card"]
    cards[0]["card"] = "??"  # the Player's first card, not read by the shoe
    result = result_of(doc, tmp_path)
    assert result.findings == []
    assert reasons(result)["BAC-DRAW-PLAYER-MISSING"] == "card values not recorded"
    assert reasons(result)["BAC-RESULT"] == "card values not recorded"
    cards[0]["to"], cards[1]["to"] = "banker", "player"  # and dealt out of order: that is still seen
    assert builders.pairs(result_of(doc, tmp_path).findings) == {(1, "BAC-DEAL-ORDER")}


def test_cards_recorded_by_value_only_are_judged_by_the_tableau(tmp_path):
    doc = recorded_as(compliant_play(coups=6), ["cards", "hands", "order", "results"])
    for c in doc["coups"]:
        for e in c["events"]:
            if e["type"] == "card":
                e["card"] = "0?" if e["card"][0] in "TJQK" else e["card"][0] + "?"
    assert result_of(doc, tmp_path).findings == []
    third = next(c for c in doc["coups"] if len([e for e in c["events"] if e["type"] == "card"]) == 6)
    del third["events"][5]  # the Banker's third card left out: it stood when it had to draw
    assert builders.pairs(result_of(doc, tmp_path).findings) == {(third["coup"], "BAC-DRAW-BANKER-MISSING")}


def test_the_html_report_draws_a_card_recorded_in_part(tmp_path):
    doc = compliant_play(coups=2)
    cards = [e for e in doc["coups"][0]["events"] if e["type"] == "card"]
    cards[0]["card"], cards[1]["card"] = "??", "7?"
    cards[2]["to"], cards[3]["to"] = "banker", "player"
    path = write(tmp_path / "partial.json", doc)
    run("check", path, "-o", f"html={tmp_path / 'r.html'}", "--timestamp", "2026-11-29T12:00:00Z")
    from compliance.report.html import face

    html = (tmp_path / "r.html").read_text()
    data = json.loads(html.split('<script type="application/json" id="report-data">', 1)[1].split("</script>", 1)[0])
    assert {"card not read", "seven, suit not recorded"} <= {f[4] for f in data["faces"]}  # the cards' labels
    assert face("??")[1:] == ["?", "?", "black", "card not read"]
    hands, value = data["fields"]["picture"].index("hands"), data["fields"]["hand"].index("value")
    assert "points not known (a card not read)" in [data["words"][h[value]] for c in data["coups"] if c["c"]
                                                    for h in c["c"][hands]]


# ------------------------------------------------------------------ the reports


def recording(tmp_path: Path) -> Path:
    return write(tmp_path / "cards-only.json", recorded_as(compliant_play(coups=4), ["cards", "hands", "order"],
                                                         keep=("card",)))


def test_every_report_says_which_rules_were_not_judged_and_why(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = recording(tmp_path).name
    stamp = ("--timestamp", "2026-11-29T12:00:00Z")
    text = run("check", path, *stamp).stdout
    assert ("cards-only.json: not judged BAC-CALLS [procedure.call-missing] in every coup (4): calls not recorded"
            in text)
    assert text.rstrip().endswith("rules not judged for want of evidence")
    doc = json.loads(run("check", path, "-f", "json", *stamp).stdout)  # validated against the schema by run()
    calls = next(n for n in doc["not_judged"] if n["rule"] == "BAC-CALLS")
    assert calls == {"transcript": "cards-only.json", "rule": "BAC-CALLS", "category": "procedure.call-missing",
                     "citation": "N.J.A.C. 13:69F-3.7(b)", "coups": 4, "of": 4, "missing": {"calls": 4},
                     "reason": "calls not recorded"}
    assert doc["transcripts"][0]["recorded"] == ["cards", "hands", "order"]
    sarif = json.loads(run("check", path, "-f", "sarif", *stamp).stdout)  # validated against SARIF 2.1.0
    run_ = sarif["runs"][0]
    assert {r["level"] for r in run_["results"]} == {"note"}  # nothing found: each rule not judged is a note
    note = next(r for r in run_["results"] if r["ruleId"] == "BAC-CALLS")
    assert note["kind"] == "notApplicable" and note["properties"]["notJudged"] is True
    assert note["message"]["text"].startswith("BAC-CALLS not judged in every coup (4): calls not recorded")
    assert len(run_["results"]) == len(doc["not_judged"])
    notes = [n for n in run_["invocations"][0]["toolExecutionNotifications"] if n["properties"].get("notJudged")]
    calls = next(n for n in notes if n["associatedRule"]["id"] == "BAC-CALLS")
    assert calls["level"] == "note"
    assert calls["message"]["text"] == "BAC-CALLS not judged in every coup (4): calls not recorded"
    assert run_["tool"]["driver"]["rules"][calls["associatedRule"]["index"]]["id"] == "BAC-CALLS"
    junit = run("check", path, "-f", "junit", *stamp).stdout  # validated against the JUnit XSD
    assert '<testcase name="BAC-CALLS" classname="cards-only.json" time="0">\n      <skipped message="not judged in ' \
           'every coup (4): calls not recorded"' in junit  # the rule's own test case, skipped, saying why
    per_coup = run("check", path, "-f", "junit", "--junit-cases", "coup", *stamp).stdout
    assert '<testcase name="rule BAC-CALLS (not judged)"' in per_coup
    assert '<skipped message="not judged in every coup (4): calls not recorded"' in per_coup
    md = run("check", path, "-f", "markdown", *stamp).stdout
    assert "#### Not judged" in md
    assert "| `BAC-CALLS`<br>procedure.call-missing | in every coup (4) | calls not recorded |" in md
    run("check", path, "-o", f"html={tmp_path / 'r.html'}", *stamp)
    html = (tmp_path / "r.html").read_text()
    assert "rules not judged: the evidence they need was not recorded" in html
    assert '<tr data-rule="BAC-CALLS"><td><code>BAC-CALLS</code>' in html
    assert "Every coup complies with the rules the recording lets us judge." in html


def test_not_judged_counts_add_up_when_a_large_recording_is_checked_in_chunks(tmp_path, monkeypatch):
    from compliance._internal import driver, runners
    from compliance._internal.inputs import Input

    monkeypatch.setattr(runners, "POOL_BYTES", 0)
    cut = []
    merge = driver.merge
    monkeypatch.setattr(driver, "merge", lambda chunks, sha: cut.append(len(chunks)) or merge(chunks, sha))
    cards = SHOE * 3
    random.Random(5).shuffle(cards)
    coups = builders.dealt_by_the_rules(cards)
    doc = builders.transcript(coups)
    for i, c in enumerate(doc["coups"]):
        c["shoe"] = f"S{i // 40 + 1}"
        if i % 9 == 0:
            c["recorded"] = ["cards", "hands", "order"]
    doc["shoes"] = [{"id": f"S{k + 1}", "decks": 8} for k in range(len(coups) // 40 + 1)]
    doc["version"] = "1.1"
    path = tmp_path / "big.jsonl"
    path.write_text(builders.jsonl(doc))
    one = Checker().check_file(path, str(path))
    inp = Input(str(path), str(path), size=path.stat().st_size)
    errors: list = []
    [chunked] = driver.check([inp], RunContext(), jobs=2, on_error=errors.append, chunk_bytes=8_000)
    assert not errors and cut and cut[0] > 2  # checked in chunks
    assert one.not_judged and chunked.not_judged == one.not_judged


# ------------------------------------------------------------------ the recording's own faults


def claims_every_coup(doc: dict) -> dict:
    return doc | {"version": "1.1", "recorded": list(evidence.DECLARABLE)}


def test_the_same_coup_captured_twice_is_a_warning_where_the_recording_holds_every_coup(tmp_path):
    doc = compliant_play(coups=4)
    again = copy.deepcopy(doc["coups"][1])
    for c in doc["coups"][2:]:
        c["coup"] += 1
    again["coup"] = 3
    doc["coups"].insert(2, again)
    assert "BAC-RECORD-DUPLICATE" not in {f.rule for f in result_of(doc, tmp_path).findings}  # v1: two coups
    assert "BAC-RECORD-DUPLICATE" not in reasons(result_of(doc, tmp_path))  # and not listed as not judged
    [dup] = [f for f in result_of(claims_every_coup(doc), tmp_path).findings if f.rule == "BAC-RECORD-DUPLICATE"]
    assert (dup.coup, dup.severity, dup.category) == (3, "warning", "record.duplicate-coup")
    assert dup.message.startswith("the cards of coup 3 (") and dup.message.endswith(
        "are those of coup 2 before it: the same coup captured twice")


def test_a_coup_number_skipped_in_a_shoe_is_a_coup_missing_from_the_record(tmp_path):
    doc = compliant_play(coups=6)
    del doc["coups"][2]  # coup 3
    [gap] = [f for f in result_of(claims_every_coup(doc), tmp_path).findings]
    assert (gap.rule, gap.coup, gap.severity) == ("BAC-RECORD-COUP-NUMBER", 4, "warning")
    assert gap.message == "shoe 'S1' goes from coup 2 to coup 4: coup 3 is missing from the record"
    assert result_of(doc, tmp_path).findings == []  # a version 1 transcript may leave coups out


def test_a_coup_out_of_order_is_its_own_finding_and_the_coups_after_it_are_numbered_from_the_last_in_order(tmp_path):
    doc = claims_every_coup(compliant_play(coups=5))
    doc["coups"][3]["coup"] = 2  # coups 1, 2, 3, 2, 5: the fourth is out of order
    found = builders.pairs(result_of(doc, tmp_path).findings)
    assert found == {(2, "BAC-TRANSCRIPT"), (5, "BAC-RECORD-COUP-NUMBER")}  # coup 4 missing; the 2 again is unreadable
    doc["coups"][3]["coup"] = 4
    doc["coups"][3]["events"][0]["type"] = "wagr"  # coup 4 is there, but cannot be read
    assert builders.pairs(result_of(doc, tmp_path).findings) == {(4, "BAC-TRANSCRIPT")}
    doc["coups"][3]["events"][0]["type"] = "wager"
    doc["coups"][2]["coup"] = 30  # mistyped: coups 1, 2, 30, 4, 5
    found = builders.pairs(result_of(doc, tmp_path).findings)
    assert found == {(30, "BAC-RECORD-COUP-NUMBER"), (4, "BAC-TRANSCRIPT")}  # 4 comes after 30: out of order


def test_timestamps_not_iso_8601_or_running_backwards_are_warnings(tmp_path):
    doc = compliant_play(coups=3)
    for n, c in enumerate(doc["coups"]):
        for i, e in enumerate(c["events"]):
            e["at"] = f"2026-11-29T20:{10 + n:02d}:{i:02d}+10:00"
    assert result_of(doc, tmp_path).findings == []
    doc["coups"][0]["events"][2]["at"] = "yesterday"
    doc["coups"][2]["events"][0]["at"] = "2026-11-29T20:05:00+10:00"  # before coup 2's last
    found = [(f.coup, f.event, f.message) for f in result_of(doc, tmp_path).findings]
    assert found == [
        (1, 2, "timestamp 'yesterday' is not an ISO 8601 date and time (e.g. 2026-11-29T20:15:00+10:00)"),
        (3, 0, "timestamp 2026-11-29T20:05:00+10:00 is earlier than 2026-11-29T20:11:"
               f"{len(doc['coups'][1]['events']) - 1:02d}+10:00, recorded before it (coup 2): "
               "the clock runs backwards"),
    ]
    doc["coups"][2]["events"][0]["at"] = "2026-11-29T10:05:00"  # no offset: not compared with those that have one
    assert [f.coup for f in result_of(doc, tmp_path).findings] == [1]


# ------------------------------------------------------------------ who and when


def test_findings_carry_the_dealer_and_the_time_and_the_reports_group_them(tmp_path):
    doc = compliant_play(coups=4)
    doc["version"] = "1.1"
    doc["staff"] = [{"from_coup": 1, "dealer": "D-114", "inspector": "I-7"}, {"from_coup": 3, "dealer": "D-207"}]
    doc["coups"][3]["staff"] = {"dealer": "D-301"}
    for n, c in enumerate(doc["coups"]):
        for i, e in enumerate(c["events"]):
            e["at"] = f"2026-11-29T{20 + n // 2:02d}:{n:02d}:{i:02d}+10:00"
        c["events"] = [e for e in c["events"] if not (e["type"] == "announce" and e["call"] == "cards")]
    findings = result_of(doc, tmp_path).findings
    assert [(f.coup, f.dealer, dict(f.staff).get("inspector"), f.at[:16]) for f in findings] == [
        (1, "D-114", "I-7", "2026-11-29T20:00"), (2, "D-114", "I-7", "2026-11-29T20:01"),
        (3, "D-207", None, "2026-11-29T21:02"), (4, "D-301", None, "2026-11-29T21:03")]
    path = write(tmp_path / "shift.json", doc)
    out = json.loads(run("check", path, "-f", "json", "--timestamp", "2026-11-29T12:00:00Z").stdout)
    assert out["findings"][0]["staff"] == {"dealer": "D-114", "inspector": "I-7"}
    # each dealer with the coups they dealt and their findings per 100 of them
    assert out["groups"]["dealer"] == {
        "D-114": {"error": 2, "warning": 0, "info": 0, "coups": 2, "per_100_coups": "100.00", "whole_shoe": 0},
        "D-207": {"error": 1, "warning": 0, "info": 0, "coups": 1, "per_100_coups": "100.00", "whole_shoe": 0},
        "D-301": {"error": 1, "warning": 0, "info": 0, "coups": 1, "per_100_coups": "100.00", "whole_shoe": 0}}
    assert out["groups"]["hour"] == {"2026-11-29T20:00+10:00": {"error": 2, "warning": 0, "info": 0},
                                     "2026-11-29T21:00+10:00": {"error": 2, "warning": 0, "info": 0}}
    assert out["groups"]["table"] == {"T-us-nj": {"error": 4, "warning": 0, "info": 0}}
    run("check", path, "-o", f"html={tmp_path / 'r.html'}", "--timestamp", "2026-11-29T12:00:00Z")
    html = (tmp_path / "r.html").read_text()
    assert "<h2>Findings by dealer, table and hour</h2>" in html
    # a dealer leads to their coups; with the coups they dealt and their rate, the highest rate first
    assert ('data-filter="dealer" data-value="2">D-301</a></td><td class="num">1</td><td class="num">100.00</td>'
            '<td class="num">1</td>') in html
    assert html.index(">D-114</a>") < html.index(">D-207</a>") < html.index(">D-301</a>")  # all at 100: by name
    assert '<select id="filter-dealer">' in html and '<select id="filter-hour">' in html


def test_a_report_on_findings_without_dealer_or_time_has_no_groups():
    assert Report([]).groups is None


# ------------------------------------------------------------------ coverage and rules


def test_coverage_of_a_recording_names_the_paragraphs_its_evidence_does_not_let_the_rules_judge(tmp_path, monkeypatch):
    import pytest

    from compliance.paragraphs import regulations_dir

    if regulations_dir() is None:
        pytest.skip("the regulation texts are not at hand")
    path = recording(tmp_path)
    out = run("coverage", "--transcript", path).stdout
    assert "3.7(b)     NOT-REC  " in out and "BAC-CALLS: calls not recorded" in out
    assert "3.7(c)     covered  " in out
    assert "with what the recording holds: cards, hands, order" in out
    whole = run("coverage", "--ruleset", "us-nj").stdout
    assert "NOT-REC" not in whole


def test_rules_show_lists_the_evidence_a_rule_needs():
    out = run("rules", "show", "BAC-CALLS").stdout
    assert "  evidence     calls (the dealer's calls); cards (the cards taken from the shoe, each as read)" in out
    kinds = run("rules", "kinds").stdout
    assert "procedure.calls  [procedure.call-missing]" in kinds and "    needs: calls, cards" in kinds
    listed = json.loads(run("rules", "list", "-r", "us-nj", "-f", "json").stdout)
    assert next(r for r in listed if r["id"] == "BAC-RESULT")["needs"] == ["hands", "values", "results"]


def test_a_verdict_on_partial_evidence_says_so_in_every_format(tmp_path, monkeypatch):
    """No finding on a recording whose rules were not all judged is never a bare "compliant" or "PASS", and no
    format is silent about it."""
    monkeypatch.chdir(tmp_path)
    path = recording(tmp_path).name
    stamp = ("--timestamp", "2026-11-29T12:00:00Z")
    doc = json.loads(run("check", path, "-f", "json", *stamp).stdout)
    rules = len({n["rule"] for n in doc["not_judged"]})
    assert rules > 10
    md = run("check", path, "-f", "markdown", *stamp).stdout
    assert "✅ compliant" not in md
    assert f"### baccarat-audit: ⚠️ no finding, on partial evidence ({rules} not judged)" in md
    assert f"**The verdict rests on partial evidence: {rules} rules were not judged" in md
    run("check", path, "-o", f"html={tmp_path / 'r.html'}", *stamp)
    html = (tmp_path / "r.html").read_text()
    assert ">PASS<" not in html
    assert f'<span class="status partial">NOT FULLY JUDGED: {rules} rules not judged</span>' in html
    assert "The verdict rests on partial evidence" in html
    github = run("check", path, "-f", "github", *stamp).stdout
    (notice,) = [line for line in github.splitlines() if "not judged" in line]
    assert notice.startswith("::notice file=cards-only.json,title=baccarat-audit%3A not judged::cards-only.json: "
                             f"the verdict rests on partial evidence: {rules} rules not judged (")
    assert "in every coup (4): wagers not recorded" in notice
    gitlab = json.loads(run("check", path, "-f", "gitlab", *stamp).stdout)
    (entry,) = gitlab
    assert entry["severity"] == "info" and entry["check_name"] == "not-judged"
    assert entry["location"]["path"] == "cards-only.json" and f"{rules} rules not judged" in entry["description"]
    quiet = run("check", path, "-q", *stamp)
    assert quiet.stdout == ""
    assert quiet.stderr == f"baccarat-audit: {rules} rules not judged for want of evidence\n"
    whole = write(tmp_path / "whole.json", compliant_play(coups=2))
    for fmt in ("github", "gitlab", "markdown"):
        assert "not judged" not in run("check", whole.name, "-f", fmt, *stamp).stdout
    assert run("check", whole.name, "-q", *stamp).stderr == ""
    assert "✅ compliant" in run("check", whole.name, "-f", "markdown", *stamp).stdout


# ------------------------------------------------------------------ a wager recorded twice, differently


def test_a_wager_recorded_twice_differently_leaves_only_what_needs_every_wager_not_judged(tmp_path):
    """A table system's log gave seat 2's Banker wager twice with different amounts (record.duplicate-row, with
    the wager it leaves doubtful as its key): the import writes neither.  The coup's other wagers are judged (seat
    3's overpayment is found); the table differential, which needs every wager of the coup, is not judged there."""
    player, banker = ["2H", "3S", "4D"], ["KC", "QH", "5S"]  # Player 9 wins: no natural, both drew
    assert builders.winner(player, banker) == "player"
    coup = builders.coup(1, player, banker, ((1, "player", 4500), (3, "player", 100)))
    settle = next(e for e in coup["events"] if e["type"] == "settle" and e["seat"] == 3)
    settle["amount"] = 110  # overpaid
    clash = {"fault": "duplicate-row", "rows": ["wagers.csv:3-4"], "key": {"seat": 2, "spot": "banker"},
             "message": "wager-log: seat 2 spot banker is recorded twice, with different values (amount 500 and 700)"}
    plain = builders.transcript([coup]) | {"version": "1.1"}
    doubtful = copy.deepcopy(plain)
    doubtful["coups"][0]["record_faults"] = [clash]
    # without the doubt: Player 4,600 against Banker 0 is over the differential of 4,000
    assert {f.rule for f in result_of(plain, tmp_path).findings} == {"BAC-TABLE-DIFFERENTIAL", "BAC-SETTLE-AMOUNT"}
    result = result_of(doubtful, tmp_path)
    assert {f.rule for f in result.findings} == {"BAC-RECORD-DUPLICATE-ROW", "BAC-SETTLE-AMOUNT"}
    nj = {n.rule.id: n for n in not_judged(result)}
    assert nj["BAC-TABLE-DIFFERENTIAL"].missing == {"stakes": 1} and nj["BAC-TABLE-DIFFERENTIAL"].of == 1
