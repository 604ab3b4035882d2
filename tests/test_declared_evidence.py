"""What a recording declares explains what it lacks; it never exempts what it holds.

A transcript may say what its record holds (``recorded``, format 1.1, in the header and in a coup).  Whoever
supplies the evidence writes that declaration: stating less than the coups hold must never make a breach
disappear.  The coups' own events show what they hold; what they show is judged whatever the declaration
says, and a declaration they contradict is itself an error (``record.declaration``).  An auditor may also
require evidence of every coup (``--require-evidence``, ``require-evidence`` in the configuration, the
``require`` of a ruleset's ``record.evidence-missing`` rule): a coup lacking it is an error.

Every attack here is made on the bundled sample, which holds 6 errors: each keeps them, and exits 1.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from compliance.engine import Checker
from tests import builders
from tests.reporting import run as run_cli


def run(*args, expect: int):
    out = run_cli(*args)
    assert out.exit_code == expect, (out.stdout, out.stderr)
    return out

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "fixtures" / "samples" / "night-shift.json"
SIX = {(3, "BAC-DRAW-BANKER-ILLEGAL"), (4, "BAC-DRAW-BANKER-MISSING"), (4, "BAC-DRAW-PLAYER-MISSING"),
       (5, "BAC-DRAW-BANKER-ILLEGAL"), (5, "BAC-SETTLE-AMOUNT"), (6, "BAC-WAGER-LATE")}


def sample() -> dict:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))


def declared_header(recorded: list[str], version="1.1") -> dict:
    return sample() | {"version": version, "recorded": recorded}


def declared_on_the_breaching_coups(recorded: list[str]) -> dict:
    doc = sample() | {"version": "1.1"}
    for c in doc["coups"]:
        if c["coup"] in {coup for coup, _ in SIX}:
            c["recorded"] = recorded
    return doc


ATTACKS = {
    "header declares nothing": declared_header([]),
    "header declares only every coup": declared_header(["coups"]),
    "header declares the cards only": declared_header(["cards", "hands", "order"]),
    "the breaching coups declare nothing": declared_on_the_breaching_coups([]),
    "the breaching coups declare every coup only": declared_on_the_breaching_coups(["coups"]),
    "a version 1 header declares nothing": declared_header([], version=1),
    "a version 1 header declares the cards only": declared_header(["cards", "hands"], version=1),
}


def check(doc: dict, tmp_path: Path, name="evidence.json", **kw):
    path = tmp_path / name
    path.write_text(builders.dumps(doc), encoding="utf-8")
    return Checker(**kw).check_file(path, name)


@pytest.mark.parametrize("attack", ATTACKS, ids=list(ATTACKS))
def test_a_declaration_of_less_than_the_coups_hold_hides_none_of_the_six_errors(tmp_path, attack):
    result = check(ATTACKS[attack], tmp_path)
    found = builders.pairs(result.findings)
    assert SIX <= found
    declaration = [f for f in result.findings if f.rule == "BAC-RECORD-DECLARATION"]
    assert len(declaration) == 1 and declaration[0].severity == "error"
    assert found - SIX == {(declaration[0].coup, "BAC-RECORD-DECLARATION")}


@pytest.mark.parametrize("attack", ATTACKS, ids=list(ATTACKS))
def test_the_command_still_fails_the_run(tmp_path, attack):
    path = tmp_path / "evidence.json"
    path.write_text(builders.dumps(ATTACKS[attack]), encoding="utf-8")
    out = run("check", path, expect=1)
    assert "7 findings: 7 error" in out.stdout


def test_the_declaration_finding_says_what_was_declared_and_what_is_there_at_the_first_coup_contradicting_it(
        tmp_path):
    result = check(declared_on_the_breaching_coups(["coups"]), tmp_path)
    (f,) = [f for f in result.findings if f.rule == "BAC-RECORD-DECLARATION"]
    assert f.coup == 3 and f.category == "record.declaration"
    assert f.message.startswith("this coup's `recorded` says the record holds coups, but coup 3 holds cards, hands, "
                                "faces, results, calls, stakes and settlements too")
    assert "(4 coups hold evidence their declaration leaves out)" in f.message
    header = check(declared_header([]), tmp_path)
    (f,) = [f for f in header.findings if f.rule == "BAC-RECORD-DECLARATION"]
    assert f.coup == 1 and "the header's `recorded` says the record holds nothing" in f.message


def test_a_declaration_the_coups_agree_with_is_no_finding_and_judges_as_version_1_does(tmp_path):
    every = ["cards", "hands", "order", "faces", "results", "calls", "wagers", "settlements", "offers", "passes"]
    result = check(declared_header(every), tmp_path)
    assert builders.pairs(result.findings) == SIX
    assert result.not_judged == {("BAC-RECORD-DUPLICATE", ("coups",)): 6, ("BAC-RECORD-COUP-NUMBER", ("coups",)): 6,
                                 ("BAC-COLLUSION", ("dealers",)): 6}  # no dealer declared or recorded


def test_what_a_record_without_the_wagers_in_place_writes_does_not_claim_them(tmp_path):
    """A table system's log holds the wagers as they stood: written before every other event of the coup, they
    show ``stakes``, not ``wagers``; the late wager of coup 6 (after "no more bets") shows its place."""
    result = check(declared_header(["cards", "hands", "order", "faces", "results", "calls", "stakes",
                                    "settlements", "offers", "passes"]), tmp_path)
    assert builders.pairs(result.findings) == SIX | {(6, "BAC-RECORD-DECLARATION")}
    assert result.not_judged[("BAC-WAGER-LATE", ("wagers",))] == 5


def test_cards_out_of_the_order_the_rules_deal_them_show_the_order_was_recorded(tmp_path):
    doc = declared_header(["cards", "hands", "faces", "results", "calls", "wagers", "settlements"])
    cards = [e for e in doc["coups"][0]["events"] if e["type"] == "card"]
    cards[0]["to"], cards[1]["to"] = "banker", "player"  # the Banker's card first
    result = check(doc, tmp_path)
    assert (1, "BAC-DEAL-ORDER") in builders.pairs(result.findings)
    (f,) = [f for f in result.findings if f.rule == "BAC-RECORD-DECLARATION"]
    assert f.coup == 1 and "holds order too" in f.message


# ------------------------------------------------------------------ evidence required


def test_required_evidence_a_recording_lacks_is_one_error_a_transcript_and_kind_naming_its_first_coup(tmp_path):
    doc = declared_header(["cards", "hands", "order", "faces", "results", "calls", "stakes", "settlements"])
    result = check(doc, tmp_path, require_evidence=frozenset({"wagers", "offers", "cards"}))
    missing = [f for f in result.findings if f.rule == "BAC-RECORD-EVIDENCE"]
    assert [(f.coup, f.severity) for f in missing] == [(1, "error"), (1, "error")]
    wagers, offers = missing if "wagers (" in missing[0].message else missing[::-1]
    assert wagers.message.startswith("wagers (every wager as placed or changed")
    assert "but 5 of 6 coups lack it, the first coup 1" in wagers.message  # coup 6 shows its late wager's place
    assert "but 6 of 6 coups lack it, the first coup 1" in offers.message
    assert "by the run (--require-evidence)" in offers.message


def test_a_version_1_transcript_holds_everything_but_the_claim_of_every_coup(tmp_path):
    result = check(sample(), tmp_path, require_evidence=frozenset({"calls", "wagers", "passes"}))
    assert builders.pairs(result.findings) == SIX
    every = check(sample(), tmp_path, require_evidence=frozenset({"coups"}))
    (f,) = [f for f in every.findings if f.rule == "BAC-RECORD-EVIDENCE"]
    assert f.message.startswith("coups (every coup of each shoe") and "6 of 6 coups" in f.message


def test_require_evidence_on_the_command_line_and_in_the_configuration(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "evidence.json"
    path.write_text(builders.dumps(declared_header(["cards", "hands", "order", "faces", "results", "calls",
                                                    "wagers", "settlements", "offers", "passes"])), encoding="utf-8")
    assert "0 findings" in run("check", path, "--select", "BAC-RECORD", expect=0).stdout
    out = run("check", path, "--require-evidence", "all", "--select", "BAC-RECORD", expect=1).stdout
    assert "[record.evidence-missing] coup 1: coups (every coup" in out
    out = run("check", path, "--require-evidence", "calls,coups", "--select", "BAC-RECORD", expect=1).stdout
    assert out.count("record.evidence-missing") == 1
    # the run's requirement stands whatever is selected or ignored
    for chosen in (("--select", "BAC-SHUFFLE"), ("--ignore", "record")):
        out = run("check", path, "--require-evidence", "coups", *chosen, expect=1).stdout
        assert "[record.evidence-missing] coup 1: coups (every coup" in out
    (tmp_path / ".baccarat-audit.yaml").write_text("require_evidence: [coups]\n", encoding="utf-8")
    assert "record.evidence-missing" in run("check", path, "--select", "BAC-RECORD", expect=1).stdout
    (tmp_path / ".baccarat-audit.yaml").write_text("require-evidence: all\n", encoding="utf-8")
    assert "record.evidence-missing" in run("check", path, "--select", "BAC-RECORD", expect=1).stdout
    err = run("check", path, "--require-evidence", "cards,chips", expect=2).stderr
    assert err.count("'chips' is not a kind of evidence") == 1
    (tmp_path / ".baccarat-audit.yaml").write_text("require_evidence: [chips]\n", encoding="utf-8")
    assert "'chips' is not a kind of evidence" in run("check", path, expect=2).stderr


def test_a_ruleset_states_the_minimum_recording_it_expects(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(
        "id: house-nj\ntitle: A house that wants the calls and every coup\nversion: '1'\nextends: us-nj\n"
        "overrides:\n  BAC-RECORD-EVIDENCE: {params: {require: [calls, coups]}}\n", encoding="utf-8")
    result = check(sample(), tmp_path, ruleset=str(house))
    (f,) = [f for f in result.findings if f.rule == "BAC-RECORD-EVIDENCE"]
    assert "coups (every coup" in f.message and "by the ruleset" in f.message
    both = check(sample(), tmp_path, ruleset=str(house), require_evidence=frozenset({"coups"}))
    (f,) = [f for f in both.findings if f.rule == "BAC-RECORD-EVIDENCE"]
    assert "by the ruleset and the run (--require-evidence)" in f.message


def test_the_counts_add_up_when_a_large_recording_is_checked_in_chunks(tmp_path, monkeypatch):
    from compliance._internal import driver, runners
    from compliance._internal.inputs import Input
    from compliance.context import RunContext

    monkeypatch.setattr(runners, "POOL_BYTES", 0)
    doc = sample()
    coups = []
    for k in range(60):  # ten copies of the night, one shoe each, numbered on
        for c in copy.deepcopy(doc["coups"]):
            c["shoe"] = f"S{k}"
            c["coup"] = 6 * k + c["coup"]
            if k % 3 == 1:
                c["recorded"] = ["cards", "hands", "order"]
            coups.append(c)
    doc = doc | {"version": "1.1", "shoes": [{"id": f"S{k}", "decks": 8} for k in range(60)]}
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join([json.dumps({k: v for k, v in doc.items() if k != "coups"})]
                              + [json.dumps(c) for c in coups]) + "\n", encoding="utf-8")
    whole = Checker(require_evidence=frozenset({"coups", "passes"})).check_file(path, "big.jsonl")
    settings = RunContext(require_evidence=frozenset({"coups", "passes"}))
    results = driver.check([Input(str(path), "big.jsonl", size=path.stat().st_size)], settings, jobs=2,
                           on_error=lambda e: None, chunk_bytes=4096)
    assert [f.as_dict() for f in results[0].findings] == [f.as_dict() for f in whole.findings]
    record = sorted((f.rule, f.coup, f.message[:6]) for f in whole.findings if f.rule.startswith("BAC-RECORD"))
    assert record == [("BAC-RECORD-DECLARATION", 7, "this c"), ("BAC-RECORD-EVIDENCE", 1, "coups "),
                      ("BAC-RECORD-EVIDENCE", 7, "passes")]  # a version 1 header: passes but never every coup
    said = " ".join(f.message for f in whole.findings)
    assert "(120 coups hold evidence" in said and "but 120 of 360 coups lack it, the first coup 7" in said
