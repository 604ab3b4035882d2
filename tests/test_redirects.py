"""A renamed rule: its old id redirects to the id it has now (``redirects`` of a ruleset), as Ruff's renamed codes do.

A waiver, a baseline entry, a ``--select``/``--ignore`` selector and the configuration's ``select`` that name the
old id keep working on the rule's findings under its new id, and each says so in a note.  The ruleset here renames
nothing of its own: it says that ``BAC-PAYOUT-WRONG`` is now ``BAC-SETTLE-AMOUNT`` of the New Jersey rules it
extends, which find the sample night's wrong settlements.
"""

from __future__ import annotations

import json
import shutil

import pytest
from reporting import SAMPLE, STAMP, run

from compliance.errors import UserError
from compliance.ruleset.lint import lint_file
from compliance.ruleset.loader import load_ruleset

RENAMED = """\
id: us-nj-renamed
title: New Jersey, with a rule renamed
version: "1"
extends: us-nj
redirects:
  BAC-PAYOUT-WRONG: BAC-SETTLE-AMOUNT
"""
NOTE = "names rule BAC-PAYOUT-WRONG, renamed BAC-SETTLE-AMOUNT in ruleset us-nj-renamed"


@pytest.fixture
def night(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SAMPLE, tmp_path / "night-shift.json")
    (tmp_path / "renamed.yaml").write_text(RENAMED)
    return tmp_path


def _rules(r) -> list[str]:
    return sorted({f["rule"] for f in json.loads(r.stdout)["findings"]})


def test_the_ruleset_keeps_its_redirects(night):
    assert load_ruleset(str(night / "renamed.yaml")).redirects == {"BAC-PAYOUT-WRONG": "BAC-SETTLE-AMOUNT"}


def test_a_redirect_must_lead_to_a_rule_of_the_ruleset(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(RENAMED.replace("BAC-SETTLE-AMOUNT", "BAC-SETTLE-AMOUNTS"))
    with pytest.raises(UserError, match="redirects to 'BAC-SETTLE-AMOUNTS', which is no rule of the ruleset "
                                        r"\(did you mean 'BAC-SETTLE-AMOUNT'\?\)"):
        load_ruleset(str(bad))
    assert [d.code for d in lint_file(bad) if d.severity == "error"] == ["load"]


def test_an_id_that_is_a_rule_cannot_redirect(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(RENAMED.replace("BAC-PAYOUT-WRONG", "BAC-WAGER-LATE"))
    with pytest.raises(UserError, match="redirect of 'BAC-WAGER-LATE', which is the id of a rule"):
        load_ruleset(str(bad))


def test_select_naming_the_old_id_selects_the_rule_with_a_note(night):
    r = run("check", "night-shift.json", "--ruleset", "renamed.yaml", "-j", "1", "-f", "json",
            "--select", "bac-payout-wrong")
    assert r.exit_code == 1
    assert _rules(r) == ["BAC-SETTLE-AMOUNT"]
    assert f"baccarat-audit: note: select bac-payout-wrong {NOTE}" in r.stderr


def test_ignore_naming_the_old_id_ignores_the_rule(night):
    every = _rules(run("check", "night-shift.json", "--ruleset", "renamed.yaml", "-j", "1", "-f", "json"))
    r = run("check", "night-shift.json", "--ruleset", "renamed.yaml", "-j", "1", "-f", "json",
            "--ignore", "BAC-PAYOUT-WRONG")
    assert "BAC-SETTLE-AMOUNT" in every and _rules(r) == [x for x in every if x != "BAC-SETTLE-AMOUNT"]
    assert f"ignore BAC-PAYOUT-WRONG {NOTE}" in r.stderr


def test_the_configuration_naming_the_old_id_keeps_working(night):
    (night / ".baccarat-audit.yaml").write_text("select: [BAC-PAYOUT-WRONG]\nruleset: renamed.yaml\n")
    r = run("check", "night-shift.json", "-j", "1", "-f", "json")
    assert _rules(r) == ["BAC-SETTLE-AMOUNT"] and NOTE in r.stderr


def test_a_waiver_naming_the_old_id_waives_the_rule_with_a_note(night):
    (night / "waivers.yaml").write_text(
        "waivers:\n  - id: W-PAY\n    rule: BAC-PAYOUT-WRONG\n    justification: refunded the next morning\n"
        "    approved_by: M. Okafor\n    expires: 2099-01-01\n")
    r = run("check", "night-shift.json", "--ruleset", "renamed.yaml", "-j", "1", "-f", "json", "--waivers",
            "waivers.yaml", "--timestamp", STAMP)
    doc = json.loads(r.stdout)
    assert "BAC-SETTLE-AMOUNT" not in _rules(r)
    assert {w["rule"] for w in doc["waived"]} == {"BAC-SETTLE-AMOUNT"}
    assert f"waiver W-PAY (waivers.yaml:2) {NOTE}" in r.stderr


def test_a_baseline_naming_the_old_id_accepts_the_rules_findings(night):
    run("check", "night-shift.json", "--ruleset", "renamed.yaml", "-j", "1", "--write-baseline", "base.json")
    doc = json.loads((night / "base.json").read_text())
    renamed = 0
    for e in doc["findings"]:  # the baseline as an earlier version, before the rename, wrote it
        if e["rule"] == "BAC-SETTLE-AMOUNT":
            from compliance.findings import fingerprint

            e["rule"] = "BAC-PAYOUT-WRONG"
            e["fingerprint"] = fingerprint(e["rule"], e["category"], e["transcript"], e["coup"], e["event"],
                                           e["message"])
            renamed += 1
    assert renamed
    (night / "base.json").write_text(json.dumps(doc))
    r = run("check", "night-shift.json", "--ruleset", "renamed.yaml", "-j", "1", "-f", "json", "--baseline",
            "base.json")
    assert r.exit_code == 0 and _rules(r) == []
    assert f"the baseline base.json ({renamed} entr{'y' if renamed == 1 else 'ies'}) {NOTE}" in r.stderr


def test_quiet_leaves_the_notes_out(night):
    r = run("check", "night-shift.json", "--ruleset", "renamed.yaml", "-j", "1", "-q", "--select", "BAC-PAYOUT-WRONG")
    assert NOTE not in r.stderr


def test_rules_show_of_the_old_id_shows_the_rule_with_a_note(night):
    r = run("rules", "show", "BAC-PAYOUT-WRONG", "--ruleset", "renamed.yaml")
    assert r.exit_code == 0 and "BAC-SETTLE-AMOUNT" in r.stdout
    assert f"rules show BAC-PAYOUT-WRONG {NOTE}" in r.stderr


@pytest.mark.parametrize("old, named", [
    ("settlement", "settlement.wrong-amount"),  # a category: --select settlement must keep selecting it
    ("Third-Card.Banker", "third-card.banker.illegal"),  # a category's prefix, in any case
    ("wager.late", "wager.late"),
    ("BAC-DRAW", "BAC-DRAW-PLAYER-ILLEGAL"),  # a prefix of rule ids
    ("bac-settle", "BAC-SETTLE-AMOUNT"),
])
def test_an_old_id_is_a_rule_id_not_a_category_or_a_prefix(tmp_path, old, named):
    bad = tmp_path / "bad.yaml"
    bad.write_text(RENAMED.replace("BAC-PAYOUT-WRONG: BAC-SETTLE-AMOUNT", f"{old}: BAC-CALLS"))
    with pytest.raises(UserError, match=f"redirect of '{old}', which --select and --ignore read as a category or a "
                                        f"prefix \\(it names {named}\\)"):
        load_ruleset(str(bad))
    assert [d.code for d in lint_file(bad) if d.severity == "error"] == ["load"]


def test_a_redirect_cannot_steal_a_category_from_select(night):
    (night / "steal.yaml").write_text(RENAMED.replace("BAC-PAYOUT-WRONG: BAC-SETTLE-AMOUNT", "settlement: BAC-CALLS"))
    r = run("check", "night-shift.json", "--ruleset", "steal.yaml", "--select", "settlement")
    assert r.exit_code == 2 and "steal.yaml:6:3: redirect of 'settlement'" in r.stderr
    selected = run("check", "night-shift.json", "--select", "settlement", "-f", "json")
    assert _rules(selected) == ["BAC-SETTLE-AMOUNT"]  # the category still selects the commission breach


def test_lint_escapes_a_redirect_key_that_holds_a_newline(tmp_path):
    forged = tmp_path / "forged.yaml"
    forged.write_text(RENAMED.replace("BAC-PAYOUT-WRONG:", '"BAC-OLD\\n::error file=ci.yml,line=1::all clear":'))
    r = run("ruleset", "lint", str(forged))
    assert r.exit_code == 1
    assert not any(line.startswith("::") for line in r.stdout.splitlines())
    assert "BAC-OLD\\n::error file=ci.yml,line=1::all clear" in r.stdout  # shown, escaped, on its own line
    doc = json.loads(run("ruleset", "lint", str(forged), "-f", "json").stdout)  # JSON keeps the exact key
    assert any("BAC-OLD\n::error" in d["message"] for d in doc["diagnostics"])
