"""Accuse no one the evidence does not single out: the integrity rules that name patrons and dealers
(BAC-COLLUSION, PA-ADVANTAGE-PLAY) against the simulator's innocents and the guilty beside them
(docs/integrity.md, "Innocents and the guilty").

The innocents (``--inject innocent:WAY``) are blind to the cards and favoured by no dealer, but each has a
habit a careless test takes for guilt: a side wager placed only late in the shoe, or once "the Dragon is
due", or raised late; odd stakes that every dealer pays wrong, both ways; late wagers with every dealer.
None of them is named.  The wonging counter, who wagers nothing unless the count favours a side wager, is.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from compliance._internal import driver
from compliance._internal.inputs import Input
from compliance.context import RunContext
from compliance.games.baccarat.simulate import RUN_RATES, Simulator, write_transcript
from compliance.games.baccarat.simulate.habits import HABITS
from compliance.ruleset.loader import load_ruleset
from compliance.stats import hypergeometric_upper, stratified_hypergeometric_upper

NAMING = ("BAC-COLLUSION", "PA-ADVANTAGE-PLAY")
INNOCENTS = tuple(HABITS)
RATES = HABITS  # each habit at its default rate


def nights(tmp_path: Path, count: int, coups: int, inject: dict, seed: int = 0) -> tuple[list, list]:
    """``count`` EZ Baccarat nights (us-pa, nine dealers relieving each other, a crowd coming and going, honest
    slips in 1% of coups), checked as one run: (the run's results, the simulators)."""
    paths, sims = [], []
    for night in range(count):
        sim = Simulator(load_ruleset("us-pa"), coups=coups, seed=seed + night, game="ez_baccarat", dealers=9,
                        stay=15, table_id=f"T-{night + 1}",
                        inject={"settlement.wrong-amount": 0.01} | inject)
        path = tmp_path / f"night-{night + 1}.jsonl"
        with open(path, "wb") as f:
            write_transcript(sim, f, "jsonl")
        paths.append(path)
        sims.append(sim)
    results = driver.run([Input(str(p), p.name) for p in paths], RunContext())
    return results, sims


def named(results) -> list:
    return [f for r in results for f in r.findings if f.rule in NAMING]


def test_the_innocents_of_a_crowded_night_are_named_by_no_rule(tmp_path):
    results, sims = nights(tmp_path, 2, 600, {f"innocent:{way}": RATES[way] for way in INNOCENTS})
    listed = {i.way: i.patron for i in sims[0].integrity if i.category == "innocent"}
    assert listed == {way: f"P-{way.upper()}" for way in INNOCENTS}
    # each habit shows: side wagers placed, settlements paid wrong both ways, wagers late
    made = [i for s in sims for i in s.injected]
    assert sum("error-prone" in i.what for i in made) > 10
    assert sum("latecomer" in i.what for i in made) > 20
    assert named(results) == []


def test_a_wonging_counter_is_found_over_a_few_nights_with_each_coup_s_transcript(tmp_path):
    results, sims = nights(tmp_path, 3, 700, {"integrity.advantage-play:wonging": 0.4}, seed=11)
    (made,) = [i for i in sims[0].integrity if i.category == "integrity.advantage-play"]
    assert made.way == "wonging" and made.patron == "P-WONGING"
    (finding,) = named(results)
    assert finding.rule == "PA-ADVANTAGE-PLAY" and finding.money.patron == "P-WONGING"
    assert finding.money.paid > 0 and finding.dealer is None  # a positive expected value; no dealer marked
    # the coups it lists name their transcripts: the run spans nights
    assert "favourable wagers in coups night-1.jsonl: " in finding.message


def test_a_patron_who_sits_out_unfavourable_coups_has_chances_there():
    """The chances are every coup the patron was present for: a wonger seated all night, wagering only at the
    favourable coups, has all 100 coups as chances, not only the 10 wagered."""
    # 10 of 10 wagers at favourable coups, the patron's 100 chances at one depth holding 12 favourable
    assert stratified_hypergeometric_upper(10, [(100, 12, 10)]) < 1e-9
    # had the chances been the coups wagered alone, every one favourable: nothing to find
    assert stratified_hypergeometric_upper(10, [(10, 10, 10)]) == 1.0


def test_a_habit_tied_to_the_shoe_depth_is_not_a_count():
    """Late in the shoe most coups are favourable: a patron who wagers only there places most wagers at favourable
    coups, but no more than the patron's own chances at that depth hold."""
    early, late = (60, 3, 0), (20, 12, 20)  # (chances, favourable, wagers) of a depth band: every late coup
    assert stratified_hypergeometric_upper(12, [early, late]) == 1.0
    # against the whole shoe's chances, blind to the depth, the same wagers look like a count
    assert hypergeometric_upper(12, 80, 15, 20) < 1e-5


@pytest.mark.parametrize("level", [0.05, 0.01])
def test_the_depth_stratified_tail_false_alarm_rate_is_at_most_its_level(level):
    """Wagers placed blind to the marks within each depth band (however many a band, and however the marks crowd
    the late bands): the stratified tail is at or below the level at most that often."""
    rng = random.Random(35)
    trials = 3000
    flagged = 0
    for _ in range(trials):
        strata, x = [], 0
        for band in range(rng.randrange(1, 6)):
            t = rng.randrange(5, 40)
            f = min(t, int(t * rng.random() * (band + 1) / 5))
            n = rng.randrange(0, t + 1) if band >= 2 else rng.randrange(0, 3)
            marked = set(rng.sample(range(t), f))
            x += sum(1 for i in rng.sample(range(t), n) if i in marked)
            strata.append((t, f, n))
        flagged += stratified_hypergeometric_upper(x, strata) <= level
    assert flagged / trials <= level, flagged / trials


@pytest.mark.slow
@pytest.mark.parametrize("kind", [f"innocent:{way}" for way in INNOCENTS] + [
    "innocent:back-bettor", "innocent:redundant-staff", "record.staff:contradictory"])
def test_twenty_nights_of_each_innocent_name_no_one(tmp_path, kind):
    results, _ = nights(tmp_path, 20, 1000, {kind: RUN_RATES[kind]}, seed=100)
    assert named(results) == []


@pytest.mark.slow
def test_a_wonging_counter_is_found_within_twenty_nights(tmp_path):
    results, _ = nights(tmp_path, 20, 1000, {"integrity.advantage-play:wonging": 0.2}, seed=200)
    assert [f.money.patron for f in named(results)] == ["P-WONGING"]
