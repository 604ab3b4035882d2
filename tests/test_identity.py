"""Who sat, who bet, who dealt: the integrity rules name people, so the record's word on each is read whole and
never guessed (issue: accuse no one the evidence does not single out; docs/integrity.md).

* A wager's ``patron`` is its bettor whatever seat it names; the seat's occupant stands in only where a wager
  names no patron.  A seat whose occupant and wagers disagree on whose a wager was is ``record.seat-patron``.
* Ids are compared whole: a 300-character id and an id that is its shortened form are two people.
* Every coup a staff stretch covers keeps its dealer however the stretches overlap; stretches that contradict
  each other are ``record.staff``, and the coups they leave in doubt name no dealer.
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path

from builders import coup, dumps, transcript
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance._internal import driver
from compliance._internal.inputs import Input
from compliance.context import RunContext
from compliance.engine import Checker
from compliance.printable import bounded_name
from compliance.report.money import money_summary
from compliance.transcript.fields import StaffStretch
from compliance.transcript.staff import Staffing

ROOT = Path(__file__).resolve().parent.parent
FAVOURED = ROOT / "fixtures" / "rules" / "us-nj" / "patron-favoured-by-one-dealer.json"


def _checked(doc: dict, ruleset: str = "us-nj"):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.json"
        path.write_text(dumps(doc), encoding="utf-8")
        return Checker(ruleset=ruleset, judge=False).check_file(path, path.name)


def _staffed(coups: list[dict], **head) -> dict:
    doc = transcript(coups, **head)
    doc["version"] = "1.1"
    doc["staff"] = [{"from_coup": 1, "dealer": "D-1"}]
    return doc


def _back_bet(c: dict, seat: int, patron: str, spot: str, amount: int, outcome: str, paid: int,
              settle_names: bool = True) -> dict:
    """``c`` with a wager of ``patron`` behind ``seat`` (the wager names both), and its settlement."""
    c = copy.deepcopy(c)
    events = c["events"]
    events.insert(0, {"type": "wager", "seat": seat, "patron": patron, "spot": spot, "amount": amount})
    settle = {"type": "settle", "seat": seat, "spot": spot, "outcome": outcome, "amount": paid}
    if settle_names:
        settle["patron"] = patron
    events.append(settle)
    return c


# ------------------------------------------------------------------ §1 identity


def test_a_wager_naming_a_patron_behind_a_seat_is_that_patrons_not_the_occupants():
    # seat 1's occupant P-1 wagers on the Player; B-9 wagers on the Banker behind seat 1 and is paid 1 over
    base = coup(1, ["KD", "4D", "3S"], ["KS", "6C"], [(1, "player", 100)])  # Player 7, Banker 6: Player wins
    c = _back_bet(base, 1, "B-9", "player", 100, "win", 101)
    result = _checked(_staffed([c]))
    wrong = [f for f in result.findings if f.category == "settlement.wrong-amount"]
    assert [f.money.patron for f in wrong] == ["B-9"]
    assert dict(result.integrity.wagered) == {"P-1": 1, "B-9": 1}
    ((kind, _, _, dealer, patron, gain, _),) = result.integrity.patrons.events
    assert (kind, dealer, patron, gain) == ("over", "D-1", "B-9", 1)
    assert not [f for f in result.findings if f.category == "record.seat-patron"]


def test_a_seat_whose_occupant_and_wagers_disagree_is_reported_and_names_no_patron():
    base = coup(1, ["KD", "4D", "3S"], ["KS", "6C"], [(1, "player", 100)])
    # the Tie wager names B-9 behind seat 1; its settlement names no one, so would be the occupant's
    c = _back_bet(base, 1, "B-9", "tie", 25, "lose", 25, settle_names=False)
    result = _checked(_staffed([c]))
    (doubt,) = [f for f in result.findings if f.category == "record.seat-patron"]
    assert "names patron 'B-9'" in doubt.message and "'P-1'" in doubt.message and "in doubt" in doubt.message
    assert "B-9" not in result.integrity.wagered
    assert result.integrity.patrons.no_patron == 1


def test_where_no_one_is_recorded_seated_the_patron_a_seat_wager_names_is_its_bettor():
    c = coup(1, ["KD", "4D", "3S"], ["KS", "6C"], [])
    c["events"].insert(0, {"type": "wager", "seat": 2, "patron": "P-7", "spot": "player", "amount": 100})
    c["events"].append({"type": "settle", "seat": 2, "spot": "player", "outcome": "win", "amount": 100})
    del c["seated"]
    result = _checked(_staffed([c]))
    assert dict(result.integrity.wagered) == {"P-7": 1}
    assert not [f for f in result.findings if f.category in ("record.seat-patron", "wager.not-eligible")]


def test_a_300_character_id_and_its_shortened_form_are_two_people():
    long_id = "P" * 300
    short = bounded_name(long_id)  # how a report shows the long one
    assert len(short) < 300 and bounded_name(short) != short  # shown apart, too
    c = coup(1, ["KD", "4D", "3S"], ["KS", "6C"], [(1, "player", 100), (2, "player", 100)])
    c["seated"] = {"1": long_id, "2": short}
    result = _checked(_staffed([c]))
    assert sorted(who for _, who in result.integrity.patrons.wagers) == sorted([long_id, short])
    assert len(result.integrity.wagered) == 2


def test_a_dealer_id_and_its_shortened_form_are_two_dealers():
    long_id = "D" * 300
    staffing = Staffing([StaffStretch(from_coup=1, to_coup=10, dealer=long_id),
                         StaffStretch(from_coup=11, dealer=bounded_name(long_id))])
    assert staffing.of(5, None) == (("dealer", long_id),)  # whole: the report shortens it
    assert staffing.of(12, None) == (("dealer", bounded_name(long_id)),)
    assert not staffing.contradictions


# ------------------------------------------------------------------ §2 staff


@st.composite
def _true_stretches(draw):
    """A night's dealers by stretches (each to the next, or closed), and the same told again by redundant true
    stretches (a stretch's first coup alone, a part of a stretch), in any order."""
    starts = sorted(draw(st.sets(st.integers(1, 200), min_size=1, max_size=12)))
    dealers = [draw(st.sampled_from(["D-1", "D-2", "D-3"])) for _ in starts]
    truth = {}
    stretches = []
    for i, (start, dealer) in enumerate(zip(starts, dealers, strict=True)):
        end = starts[i + 1] - 1 if i + 1 < len(starts) else 220
        for n in range(start, end + 1):
            truth[n] = dealer
        closed = draw(st.booleans())
        stretches.append({"from_coup": start, "to_coup": end if closed else None, "dealer": dealer})
        if draw(st.booleans()):
            stretches.append({"from_coup": start, "to_coup": start, "dealer": dealer})
        if draw(st.booleans()) and end > start:
            a = draw(st.integers(start, end))
            b = draw(st.integers(a, end))
            stretches.append({"from_coup": a, "to_coup": b, "dealer": dealer})
    order = draw(st.permutations(range(len(stretches))))
    return [stretches[i] for i in order], truth


@settings(max_examples=150, deadline=None)
@given(_true_stretches())
def test_every_coup_a_stretch_covers_keeps_its_dealer_however_true_stretches_overlap(case):
    stretches, truth = case
    staffing = Staffing([StaffStretch(**s) for s in stretches])
    assert not staffing.contradictions
    for n, dealer in truth.items():
        assert staffing.of(n, None) == (("dealer", dealer),), n


def test_two_dealers_over_the_same_coups_and_a_stretch_ending_before_it_starts_name_no_one_there():
    staffing = Staffing([StaffStretch(from_coup=1, to_coup=60, dealer="D-1"),
                         StaffStretch(from_coup=55, to_coup=65, dealer="D-2"),
                         StaffStretch(from_coup=121, to_coup=110, dealer="D-3")])
    assert staffing.of(54, None) == (("dealer", "D-1"),) and staffing.of(61, None) == (("dealer", "D-2"),)
    assert all(staffing.of(n, None) == () for n in (*range(55, 61), *range(110, 122)))
    over, back = sorted(staffing.contradictions, key=lambda c: c.first)
    assert (over.first, over.last, over.names) == (55, 60, ("D-1", "D-2"))
    assert back.reversed and (back.first, back.last) == (110, 121)
    # a coup's own staff still names its dealer over the stretches
    own = StaffStretch(from_coup=0, dealer="D-9")
    assert staffing.of(57, own) == (("dealer", "D-9"),)


def _findings(doc: dict, tmp_path: Path, name: str) -> list[tuple]:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    (result,) = driver.run([Input(str(path), path.name)], RunContext())
    return sorted((f.rule, f.coup, f.message, f.staff) for f in result.findings)


def test_redundant_one_coup_stretches_leave_collusion_and_drift_as_they_were(tmp_path):
    doc = json.loads(FAVOURED.read_text(encoding="utf-8"))
    before = _findings(doc, tmp_path, "before.json")
    assert any(rule == "BAC-COLLUSION" for rule, *_ in before)
    doc["staff"] = doc["staff"] + [{"from_coup": s["from_coup"], "to_coup": s["from_coup"], "dealer": s["dealer"]}
                                   for s in doc["staff"]]
    assert _findings(doc, tmp_path, "after.json") == before


def test_contradictory_stretches_are_a_record_finding_and_their_coups_name_no_dealer(tmp_path):
    doc = json.loads(FAVOURED.read_text(encoding="utf-8"))
    doc["staff"] = doc["staff"] + [{"from_coup": 1, "to_coup": 130, "dealer": "D-99"}]  # over every coup
    found = _findings(doc, tmp_path, "doubt.json")
    staff = [m for rule, _, m, _ in found if rule == "BAC-RECORD-STAFF"]
    assert len(staff) == 3 and all("D-99" in m for m in staff)  # over each of the three true stretches
    # every coup in doubt: no finding names a dealer, and no dealer-level rule judges any coup
    assert all(not any(role == "dealer" for role, _ in s) for *_, s in found)
    assert not [rule for rule, *_ in found if rule == "BAC-COLLUSION"]


# ------------------------------------------------------------------ the simulator's classes


def _night(tmp_path: Path, name: str, **kw):
    from compliance.games.baccarat.simulate import Simulator, write_transcript
    from compliance.ruleset.loader import load_ruleset

    sim = Simulator(load_ruleset("us-pa"), game="ez_baccarat", **kw)
    path = tmp_path / f"{name}.jsonl"
    with open(path, "wb") as f:
        write_transcript(sim, f, "jsonl")
    (result,) = driver.run([Input(str(path), path.name)], RunContext())
    return sim, path, result


def _named(findings) -> list:
    return [f for f in findings if f.category.startswith(("integrity.", "record."))]


def test_an_innocent_back_bettor_is_named_by_no_rule(tmp_path):
    sim, path, result = _night(tmp_path, "back", coups=1200, seed=3, dealers=4,
                               inject={"innocent:back-bettor": 0.5})
    (made,) = [i for i in sim.integrity if i.way == "back-bettor"]
    assert len(made.backed) > 300
    behind = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    assert any(e.get("patron") == "P-BACK-BETTOR" and "seat" in e for c in behind for e in c["events"])
    assert _named(result.findings) == []
    assert "P-BACK-BETTOR" in result.integrity.wagered


def test_a_back_bettors_collusion_names_the_back_bettor_not_the_seated_patron(tmp_path):
    _, path, _ = _night(tmp_path, "back", coups=1200, seed=3, dealers=4, inject={"innocent:back-bettor": 0.5})
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    dealer = {n: s["dealer"] for s in head["staff"] for n in range(s["from_coup"], s["to_coup"] + 1)}
    coups = [json.loads(line) for line in lines[1:]]
    for c in coups:  # D-01 pays the back-bettor's winning wagers five over
        if dealer[c["coup"]] != "D-01":
            continue
        for e in c["events"]:
            if e["type"] == "settle" and e.get("patron") == "P-BACK-BETTOR" and e["outcome"] == "win":
                e["amount"] = e["amount"] + 5
    path.write_text("\n".join([lines[0]] + [json.dumps(c) for c in coups]) + "\n")
    (result,) = driver.run([Input(str(path), path.name)], RunContext())
    (found,) = [f for f in result.findings if f.category == "integrity.collusion"]
    assert found.message.startswith("dealer D-01, patron P-BACK-BETTOR:") and found.money.patron == "P-BACK-BETTOR"


def test_a_redundant_staff_log_changes_no_finding(tmp_path):
    inject = {"integrity.collusion:patron": 0.3}
    _, _, plain = _night(tmp_path, "plain", coups=1200, seed=4, inject=inject)
    sim, path, redundant = _night(tmp_path, "redundant", coups=1200, seed=4,
                                  inject=inject | {"innocent:redundant-staff": 1.0})
    head = json.loads(path.read_text().splitlines()[0])
    assert len(head["staff"]) == 2 * len(sim.table.staff)
    staffing = Staffing([StaffStretch(**s) for s in head["staff"]])  # every coup keeps its dealer
    assert not staffing.contradictions
    assert all(staffing.of(n, None) == (("dealer", sim.dealer_of(n)),) for n in range(1, 1201))
    assert any(f.category == "integrity.collusion" for f in plain.findings)
    assert [(f.rule, f.coup, f.message, f.staff) for f in redundant.findings] == \
        [(f.rule, f.coup, f.message, f.staff) for f in plain.findings]


def test_a_contradictory_staff_log_is_reported_and_its_coups_in_doubt_name_no_dealer(tmp_path):
    sim, _, result = _night(tmp_path, "contradictory", coups=1200, seed=4,
                            inject={"record.staff:contradictory": 1.0, "settlement.wrong-amount": 0.05})
    doubt = [(i.first, i.last) for i in sim.integrity if i.category == "record.staff"]
    assert {f.rule for f in result.findings if f.category == "record.staff"} == {"BAC-RECORD-STAFF"}
    staff = [f for f in result.findings if f.category == "record.staff"]
    assert doubt and len(staff) == len(doubt)
    in_doubt = {n for first, last in doubt for n in range(first, last + 1)}
    wrong = [f for f in result.findings if f.coup in in_doubt]
    assert wrong and all(f.dealer is None for f in wrong)
    assert not [f for f in result.findings if f.category in ("integrity.collusion", "integrity.advantage-play")]


def test_a_push_paid_as_push_to_one_patron_by_one_dealer_is_found_and_valued(tmp_path):
    sim, _, result = _night(tmp_path, "push", coups=2000, seed=3, inject={"integrity.collusion:push-paid": 1.0})
    (made,) = [i for i in sim.integrity if i.category == "integrity.collusion"]
    assert made.way == "push-paid" and len(made.overpaid) >= 10
    (found,) = [f for f in result.findings if f.category == "integrity.collusion"]
    assert found.message.startswith(f"dealer {made.dealer}, patron {made.patron}:")
    paid = [f for f in result.findings if f.category == "settlement.wrong-amount" and f.coup in set(made.overpaid)]
    assert len(paid) == len(made.overpaid) and all(f.money.expected == 0 < f.money.paid for f in paid)
    assert found.money.paid - found.money.expected == sum(f.money.paid for f in paid)
    # the same money in the drift of the dealer who paid it, and in the run's totals, as the patron's gain
    (drift,) = [f for f in result.findings if f.category == "integrity.settlement-drift"
                and f.message.startswith(f"dealer {made.dealer}:")]
    assert drift.money.paid - drift.money.expected >= sum(f.money.paid for f in paid)
    totals = money_summary(result.findings)
    assert totals.patron[made.patron].to_patrons == sum(f.money.paid for f in paid)
