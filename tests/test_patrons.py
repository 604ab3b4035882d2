"""Collusion: a dealer who favours one patron (integrity.collusion, BAC-COLLUSION; docs/integrity.md).

A dealer overpays an accomplice a little, many times: each payout is a wrong
settlement on its own (settlement.amount), and the pattern is the pair's share
of the dealer's overpayments far past the patron's share of the wagers settled
at the dealer's coups.  The simulator plays such a night (one dealer, one
patron, ``integrity.collusion@RATE``) and lists the dealer, the patron and the
coups; a fair night of the same size, honest slips and all, raises nothing;
without the dealers or the patrons recorded, the rule is not judged.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st
from reporting import run

from compliance._internal import driver
from compliance._internal.inputs import Input
from compliance.context import RunContext
from compliance.games.baccarat.integrity import patrons
from compliance.games.baccarat.simulate import Simulator, write_transcript
from compliance.games.common import money
from compliance.ruleset.loader import load_ruleset
from compliance.stats import benjamini_hochberg

RULE = "BAC-COLLUSION"


def night(tmp_path: Path, name: str, **kw) -> tuple[Path, Simulator]:
    sim = Simulator(load_ruleset(kw.pop("ruleset", "us-pa")), **kw)
    path = tmp_path / f"{name}.jsonl"
    with open(path, "wb") as f:
        write_transcript(sim, f, "jsonl")
    return path, sim


def checked(path: Path):
    (result,) = driver.run([Input(str(path), path.name)], RunContext())
    return result


def test_a_dealer_who_overpays_one_patron_is_found_with_the_pair_the_coups_and_the_net(tmp_path):
    path, sim = night(tmp_path, "collusion", coups=4000, seed=5, game="ez_baccarat",
                      inject={"integrity.collusion:patron": 0.2})
    (made,) = [i for i in sim.integrity if i.category == "integrity.collusion"]
    assert made.dealer.startswith("D-") and made.patron and len(made.overpaid) >= 10
    result = checked(path)
    (finding,) = [f for f in result.findings if f.rule == RULE]
    assert finding.category == "integrity.collusion"
    assert finding.message.startswith(f"dealer {made.dealer}, patron {made.patron}: the dealer favours this patron")
    assert f"{len(made.overpaid)} of the dealer's {len(made.overpaid)} overpayments went to this patron" \
        in finding.message
    assert finding.coup in made.overpaid and finding.dealer == made.dealer
    overpaid = [f for f in result.findings if f.rule == "BAC-SETTLE-AMOUNT"]
    assert {f.coup for f in overpaid} == set(made.overpaid)
    net = Decimal(0)
    for i in sim.injected:  # "seat 1 banker wager settled win 195, not 190: ...": what each gave the patron
        paid, due = re.search(r"settled win ([\d.]+), not ([\d.]+)", i.what).groups()
        net += Decimal(paid) - Decimal(due)
    assert f"net {money(net)} paid to this patron over what was due" in finding.message
    # the pair against the dealer's rate with the other patrons, the patron's with the other dealers, and the
    # house-favouring errors of the pair: each required
    assert [s.test.split(" overpayments")[0] for s in finding.statistics] == [
        "the pair's share of the dealer's", "the pair's share of the patron's"]
    assert {s.group for s in finding.statistics} == {f"dealer {made.dealer}, patron {made.patron}"}
    r = run("simulate", "-r", "us-pa", "-n", "400", "--seed", "5", "-o", str(tmp_path / "s.jsonl"),
            "--inject", "integrity.collusion@0.5")
    assert r.exit_code == 0, r.stderr
    listed = json.loads((tmp_path / "s.jsonl.injected.json").read_text())
    (entry,) = [i for i in listed["integrity"] if i["category"] == "integrity.collusion"]
    assert entry["dealer"].startswith("D-") and entry["patron"].startswith("P-") and entry["overpaid"]


def test_a_fair_night_of_the_same_size_with_honest_slips_raises_no_collusion(tmp_path):
    path, sim = night(tmp_path, "fair", coups=4000, seed=5, game="ez_baccarat", dealers=4,
                      inject={"settlement.wrong-amount": 0.02})
    result = checked(path)
    assert len([f for f in result.findings if f.rule == "BAC-SETTLE-AMOUNT"]) > 40
    assert [f for f in result.findings if f.rule == RULE] == []
    assert not [key for key in result.not_judged if key[0] == RULE]


def test_without_the_dealers_or_the_patrons_recorded_the_rule_is_not_judged(tmp_path):
    path, _ = night(tmp_path, "no-dealers", coups=300, seed=2, game="ez_baccarat",
                    inject={"settlement.wrong-amount": 0.05})
    assert json.loads(path.read_text().splitlines()[0])["version"] == "1.1"  # a format that can name the dealer
    result = checked(path)
    with_wagers = sum(1 for line in path.read_text().splitlines()[1:] if '"settle"' in line)
    assert result.not_judged[(RULE, ("dealers",))] == with_wagers > 250
    assert [f for f in result.findings if f.rule == RULE] == []
    # format 1 cannot name a dealer: as for every coup of a shoe, a version 1 transcript is not said to lack one
    path, _ = night(tmp_path, "version-1", coups=50, seed=2)
    assert not [key for key in checked(path).not_judged if key[0] == RULE]
    path, _ = night(tmp_path, "no-patrons", coups=300, seed=2, dealers=2, inject={"settlement.wrong-amount": 0.05})
    lines = path.read_text().splitlines()
    coups = [json.loads(line) for line in lines[1:]]
    for c in coups:
        c.pop("seated", None)  # the seats' wagers, with no patron named at them
    path.write_text("\n".join([lines[0]] + [json.dumps(c) for c in coups]) + "\n")
    result = checked(path)
    # a coup the test took for a standing patron's wagers is not also counted not judged
    unnamed = sum(1 for c in coups if any(e["type"] == "settle" for e in c["events"])
                  and not any(e["type"] == "settle" and "patron" in e for e in c["events"]))
    assert result.not_judged[(RULE, ("patrons",))] == unnamed > 150
    words = run("check", str(path)).stdout
    assert "not judged BAC-COLLUSION" in words and "patrons not recorded" in words


def test_the_binomial_tail_is_exact_and_its_false_alarm_rate_is_at_most_its_level():
    """Under fair play each overpayment falls on the patron with their share of the wagers: the tail is at most
    the level that often (it is discrete, so less), and the exact sum agrees with the double-precision one."""
    assert patrons.upper_tail(3, 3, Fraction(1, 2)) == 0.125
    assert patrons.upper_tail(0, 5, Fraction(1, 3)) == 1.0
    exact = patrons.upper_tail(40, 300, Fraction(1, 10))
    assert abs(exact - patrons.binomial_tails(40, 300, 0.1)[1]) < 1e-12
    rng = random.Random(30)
    for level in (0.05, 0.01):
        trials = 4000
        flagged = 0
        for _ in range(trials):
            n, share = rng.randrange(5, 60), Fraction(1, rng.randrange(2, 8))
            x = sum(rng.random() < share for _ in range(n))
            flagged += patrons.upper_tail(x, n, share) <= level
        assert flagged / trials <= level + 3 * (level * (1 - level) / trials) ** 0.5, level


def test_every_pair_of_the_run_is_a_test_though_only_those_with_events_are_worked_out():
    """Benjamini-Hochberg counts two tests a (dealer, patron) pair, p = 1 where the pair has no event of the
    kind: a run of many patrons and few overpayments works out only the pairs with one."""
    shoe = SimpleNamespace(label=1)
    wagers = Counter({("D-1", "P-1"): 30, ("D-1", "P-2"): 10, ("D-2", "P-1"): 5})
    events = [patrons.Event("over", (shoe, 3), "D-1", "P-1", Decimal(5), Decimal(10)),
              patrons.Event("late", (shoe, 4), "D-2", "P-9", Decimal(25))]  # P-9: no wager settled at D-2
    pairs, by_dealer = patrons.pairs_of(wagers, events)
    run_tests = patrons.tests_of(wagers, pairs, by_dealer)
    assert sorted(pairs) == [("D-1", "P-1"), ("D-2", "P-9")]
    assert run_tests.m == 2 * 4  # three pairs with wagers, one with a late wager only
    over = next(t for t in run_tests.tests if t.kind == "over" and t.pair.patron == "P-1")
    assert [(part.name, part.x, part.n, part.share) for part in over.parts] == [
        ("dealer", 1, 1, Fraction(30, 40)), ("patron", 1, 1, Fraction(30, 35))]
    assert over.p_value == 30 / 35  # every part must be significant: the largest p-value


@given(n=st.integers(1, 400), data=st.data(), numerator=st.integers(1, 60), denominator=st.integers(61, 300))
def test_the_binomial_tail_summed_from_either_side_is_the_same_exact_fraction(n, data, numerator, denominator):
    x = data.draw(st.integers(1, n))
    a, b = numerator, denominator
    plain = Fraction(sum(math.comb(n, j) * a ** j * (b - a) ** (n - j) for j in range(x, n + 1)), b ** n)
    assert patrons.upper_tail(x, n, Fraction(a, b)) == float(plain)


def _run(wagers: Counter, events: list) -> tuple[list, float]:
    """The pair tests of a synthetic run and the Benjamini-Hochberg cut at the rule's default level (0.001)."""
    pairs, by_kind = patrons.pairs_of(wagers, events)
    run_tests = patrons.tests_of(wagers, pairs, by_kind)
    return run_tests.tests, benjamini_hochberg([t.p_value for t in run_tests.tests], 0.001, run_tests.m)


def _floor(rng: random.Random, dealers: int, patrons_: int, wagers: int, rate: float) -> tuple[Counter, list]:
    """A floor of honest slips: every (dealer, patron) pair ``wagers`` wagers, each overpaid or underpaid with
    chance ``rate`` either way."""
    shoe = SimpleNamespace(label=0)
    counts, events = Counter(), []
    for d in range(dealers):
        for p in range(patrons_):
            counts[(f"D-{d}", f"P-{p}")] = wagers
            for _ in range(wagers):
                if rng.random() < rate:
                    gain = Decimal(5) if rng.random() < 0.5 else Decimal(-5)
                    events.append(patrons.Event("over", (shoe, len(events)), f"D-{d}", f"P-{p}", gain, Decimal(10)))
    return counts, events


def test_a_patron_mispaid_by_every_dealer_both_ways_names_no_dealer():
    """A patron whose odd stakes every dealer pays wrong, 12% of the time either way: with each dealer the pair
    is far above the dealer's rate with the others, but not above the patron's own rate with the other dealers,
    and half the slips went the house's way: no pair is named."""
    rng = random.Random(35)
    for _ in range(5):
        wagers, events = _floor(rng, 9, 12, 40, 0.01)
        shoe = SimpleNamespace(label=0)
        for d in range(9):
            wagers[(f"D-{d}", "P-ODD")] = 60
            for _ in range(60):
                if rng.random() < 0.12:
                    gain = Decimal(5) if rng.random() < 0.5 else Decimal(-5)
                    events.append(patrons.Event("over", (shoe, len(events)), f"D-{d}", "P-ODD", gain, Decimal(10)))
        tests, cut = _run(wagers, events)
        assert not [t for t in tests if t.p_value <= cut], cut


def test_a_latecomer_late_with_every_dealer_names_no_dealer():
    shoe = SimpleNamespace(label=0)
    wagers, events = _floor(random.Random(3), 9, 12, 40, 0.0)
    for d in range(9):
        wagers[(f"D-{d}", "P-LATE")] = 60
        events += [patrons.Event("late", (shoe, len(events) + i), f"D-{d}", "P-LATE", Decimal(25)) for i in range(6)]
    tests, cut = _run(wagers, events)
    assert not [t for t in tests if t.p_value <= cut]
    # the same patron late with one dealer only (and on time with the others) is that pair's effect
    events = [e for e in events if e.dealer == "D-3"] * 1
    tests, cut = _run(wagers, events)
    assert {(t.pair.dealer, t.pair.patron, t.kind) for t in tests if t.p_value <= cut} == {("D-3", "P-LATE", "late")}


def test_slips_in_the_house_favour_count_against_collusion():
    """A pair whose wrong settlements go both ways is sloppiness, not a favour: its underpayments are taken off
    its overpayments, where the same overpayments with none the house's way name the pair."""
    shoe = SimpleNamespace(label=0)
    wagers, events = _floor(random.Random(4), 4, 10, 50, 0.005)
    for d in range(4):
        wagers[(f"D-{d}", "P-X")] = 100
    over = [patrons.Event("over", (shoe, 1000 + i), "D-1", "P-X", Decimal(5), Decimal(10)) for i in range(14)]
    under = [patrons.Event("over", (shoe, 2000 + i), "D-1", "P-X", Decimal(-5), Decimal(10)) for i in range(14)]
    tests, cut = _run(wagers, events + over)
    assert ("D-1", "P-X") in {(t.pair.dealer, t.pair.patron) for t in tests if t.p_value <= cut}
    tests, cut = _run(wagers, events + over + under)
    assert not [t for t in tests if t.p_value <= cut]


def test_a_patron_with_one_dealer_only_is_judged_against_the_floor():
    shoe = SimpleNamespace(label=0)
    wagers, events = _floor(random.Random(5), 4, 10, 50, 0.01)
    wagers[("D-2", "P-ONE")] = 300
    tests, _ = _run(wagers, events)
    favoured = [patrons.Event("over", (shoe, 5000 + i), "D-2", "P-ONE", Decimal(5), Decimal(10)) for i in range(25)]
    tests, cut = _run(wagers, events + favoured)
    (test,) = [t for t in tests if t.pair.patron == "P-ONE" and t.kind == "over"]
    assert [part.name for part in test.parts] == ["dealer", "floor"]
    assert test.parts[1].share == Fraction(300, sum(wagers.values())) and test.p_value <= cut
    # at the floor's rate (about 3 of 300), nothing
    tests, cut = _run(wagers, events + favoured[:3])
    assert not [t for t in tests if t.pair.patron == "P-ONE" and t.p_value <= cut]


def test_the_pair_test_false_alarm_rate_is_at_most_its_level():
    """Under no pair effect (each patron's and each dealer's own rates, multiplied, slips either way), the pair's
    p-value (the largest of its tests) is at most the level at most that often."""
    rng = random.Random(36)
    for level in (0.05, 0.01):
        flagged = total = 0
        for _ in range(60):
            shoe = SimpleNamespace(label=0)
            dealer_rate = [rng.choice((0.5, 1, 2)) for _ in range(5)]
            patron_rate = [rng.choice((0.5, 1, 4, 12)) for _ in range(8)]
            wagers, events = Counter(), []
            for d in range(5):
                for p in range(8):
                    n = rng.randrange(5, 60)
                    wagers[(f"D-{d}", f"P-{p}")] = n
                    for _ in range(n):
                        if rng.random() < 0.01 * dealer_rate[d] * patron_rate[p]:
                            events.append(patrons.Event("over", (shoe, len(events)), f"D-{d}", f"P-{p}",
                                                        Decimal(rng.choice((5, -5))), Decimal(10)))
            pairs, by_kind = patrons.pairs_of(wagers, events)
            tests = [t for t in patrons.tests_of(wagers, pairs, by_kind).tests if t.kind == "over"]
            total += len(wagers)
            flagged += sum(t.p_value <= level for t in tests)
        assert flagged / total <= level, (level, flagged, total)


def _null_floor(rng: random.Random, dealer_rates: tuple, seated_rate: int, crowd_rates: tuple) -> tuple[Counter, list]:
    """A night's floor with no favour between any dealer and patron, crowded as the bench's: nine dealers, each
    a rate drawn from ``dealer_rates``; one patron seated all night with every dealer, overpaid at
    ``seated_rate`` times the floor's rate and never underpaid; thirty who come and go with one to three
    dealers, each a rate drawn from ``crowd_rates``, their slips either way at the toss of a coin."""
    shoe = SimpleNamespace(label=0)
    dealer_rate = [rng.choice(dealer_rates) for _ in range(9)]
    wagers, events = Counter(), []
    crowd = [(f"P-{p}", rng.choice(crowd_rates), rng.sample(range(9), rng.choice((1, 2, 3)))) for p in range(30)]
    for patron, rate, dealers in [("P-SEATED", seated_rate, range(9)), *crowd]:
        for d in dealers:
            n = 110 if patron == "P-SEATED" else rng.randrange(5, 40)
            wagers[(f"D-{d}", patron)] = n
            for _ in range(n):
                if rng.random() < 0.004 * dealer_rate[d] * rate:
                    gain = Decimal(5) if patron == "P-SEATED" or rng.random() < 0.5 else Decimal(-5)
                    events.append(patrons.Event("over", (shoe, len(events)), f"D-{d}", patron, gain, Decimal(10)))
    return wagers, events


def test_a_run_with_no_pair_effect_names_a_pair_at_most_q_of_the_time():
    """Runs where the dealers' rates differ (up to sixfold), or the patrons' (a patron seated all night
    overpaid at four times the floor's rate by every dealer, patrons of the crowd up to twelvefold), or both
    (careless dealers and the error-prone patron together), with no favour between any dealer and patron: the
    run's tests, every pair counted, name a pair in at most q of the runs."""
    q, runs = 0.05, 300
    for kind in (dict(dealer_rates=(0.5, 1, 1, 3), seated_rate=1, crowd_rates=(1,)),
                 dict(dealer_rates=(1,), seated_rate=4, crowd_rates=(1, 1, 1, 4, 12)),
                 dict(dealer_rates=(0.5, 1, 1, 1, 3), seated_rate=4, crowd_rates=(1,))):
        rng = random.Random(35)
        named = 0
        for _ in range(runs):
            wagers, events = _null_floor(rng, **kind)
            run_tests = patrons.tests_of(wagers, *patrons.pairs_of(wagers, events))
            cut = benjamini_hochberg([t.p_value for t in run_tests.tests], q, run_tests.m)
            named += any(t.p_value <= cut and t.x >= 3 for t in run_tests.tests) if cut > 0 else 0
        assert named / runs <= q + 3 * (q * (1 - q) / runs) ** 0.5, (kind, named, runs)
