"""A push that was paid is money paid beyond what was due (issue: accuse no one the evidence does not single out).

A push is due nothing beside the stake handed back.  An EZ Baccarat Banker wager on a three-card 7 (the Banker
wins with three cards totalling 7: the wager pushes) paid and recorded as ``push`` with the amount is paid
beyond what was due: its finding carries the money, and the money totals, the drift and the collusion tests
count it as the patron's gain.
"""

from __future__ import annotations

import json
from decimal import Decimal

from compliance._internal import driver
from compliance._internal.inputs import Input
from compliance.context import RunContext
from compliance.games.baccarat.simulate import Simulator, write_transcript
from compliance.games.common import value_to_patron
from compliance.ruleset.loader import load_ruleset


def test_a_push_paid_is_worth_its_amount_to_the_patron():
    assert value_to_patron("push", Decimal("500")) == Decimal("500")
    assert value_to_patron("push", Decimal(0)) == 0
    assert value_to_patron("win", Decimal("95")) == Decimal("95")
    assert value_to_patron("lose", Decimal("100")) == Decimal("-100")


def _banker_three_card_sevens(coups: list[dict]) -> list[tuple[dict, dict]]:
    """(coup, its Banker wager's settlement) of the coups the Banker won with three cards totalling 7."""
    out = []
    for c in coups:
        banker = [e["card"] for e in c["events"] if e["type"] == "card" and e["to"] == "banker"]
        result = next((e for e in c["events"] if e["type"] == "result"), None)
        if len(banker) != 3 or result is None or result["winner"] != "banker" or result["banker_points"] != 7:
            continue
        settle = next((e for e in c["events"] if e["type"] == "settle" and e["spot"] == "banker"), None)
        if settle is not None:
            assert settle["outcome"] == "push" and Decimal(str(settle["amount"])) == 0
            out.append((c, settle))
    return out


def test_a_banker_three_card_seven_push_paid_as_push_is_found_and_valued(tmp_path):
    sim = Simulator(load_ruleset("us-pa"), coups=600, seed=11, game="ez_baccarat", dealers=2)
    path = tmp_path / "ez.jsonl"
    with open(path, "wb") as f:
        write_transcript(sim, f, "jsonl")
    lines = path.read_text().splitlines()
    coups = [json.loads(line) for line in lines[1:]]
    paid = _banker_three_card_sevens(coups)[:3]
    assert paid
    stakes = []
    for c, settle in paid:
        wager = next(e for e in c["events"] if e["type"] == "wager" and e["spot"] == "banker"
                     and e.get("seat") == settle.get("seat") and e.get("patron") == settle.get("patron"))
        settle["amount"] = wager["amount"]  # paid the stake as if it had won even money, recorded as a push
        stakes.append(Decimal(str(wager["amount"])))
    path.write_text("\n".join([lines[0]] + [json.dumps(c) for c in coups]) + "\n")
    (result,) = driver.run([Input(str(path), path.name)], RunContext())
    numbers = {c["coup"] for c, _ in paid}
    found = [f for f in result.findings if f.category == "settlement.wrong-amount" and f.coup in numbers]
    assert sorted(f.coup for f in found) == sorted(numbers)
    assert sorted(f.money.paid - f.money.expected for f in found) == sorted(stakes)
    errors = [(gain, kind) for record in result.integrity.shoes.values() for _, gain, kind, _ in record.errors]
    assert sorted(g for g, _ in errors if g > 0) >= sorted(stakes)  # the drift test counts each as a gain
    over = [e for e in result.integrity.patrons.events if e[0] == "over"]
    assert sum(1 for e in over if e[5] in stakes) >= len(stakes)  # the collusion test counts each as an overpayment
