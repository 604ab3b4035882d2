"""False alarms of the shoe and table integrity tests on fair play: measured, day by day.

A "day" is 1,000 fair shoes (default: 20 tables of 50 shoes, 8 decks, 8
dealers taking turns shoe by shoe).  Each shoe is shuffled, burnt and dealt
coup by coup by the ruleset's tableau until the cut card comes out, with the
simulator's own shoe; what the integrity stage keeps of each coup (its cards,
its outcome) is filled in directly, without writing and reading a transcript,
so that many days run in minutes.  Each day is then judged as one run by the
integrity stage with the ruleset's rules at their defaults, and its findings
counted.  Wrong settlements falling either way at random (a coin a slip) are
added to measure the drift test the same way.

    .venv/bin/python bench/integrity_false_alarms.py --days 50      # the figures in docs/integrity.md
    make integrity-false-alarms

Also prints, for each outcome test, how often a fair shoe's p-value falls at
or below 0.05 and 0.01 (a calibrated test: at most about that share), and
how close fair play comes to the level at which a finding is an error (the
rules' ``error_at``, 10^-9): the findings stepped to an error, and the
smallest p-value of every outcome test (every shoe, table, dealer and the
run) and every sign test of the days.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
import tempfile
import time
from array import array
from collections import Counter
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from compliance.cards import POINTS, hand_total  # noqa: E402
from compliance.engine import TranscriptResult  # noqa: E402
from compliance.games.baccarat.integrity import drift, outcomes  # noqa: E402
from compliance.games.baccarat.integrity.collect import CARD_BYTE, IntegrityData, ShoeRecord  # noqa: E402
from compliance.games.baccarat.integrity.judge import judge, rules_by_kind  # noqa: E402
from compliance.games.baccarat.simulate.shoe import Shoe  # noqa: E402
from compliance.ruleset.loader import load_ruleset  # noqa: E402
from compliance.stats import sign_test  # noqa: E402

CUT = 16  # cards behind the cut card, as the simulator places it


def deal_shoe(shoe_id: str, decks: int, rng: random.Random, tableau, first: int) -> ShoeRecord:
    """One fair shoe, dealt to the cut card: its record as the integrity stage keeps it."""
    shoe = Shoe(shoe_id, decks, rng, CUT)
    record = ShoeRecord(shoe_id, decks)
    naturals = frozenset(tableau.naturals)
    burn = shoe.burn()
    number = first
    cards = record.cards
    cards.extend(CARD_BYTE[c] for c in burn)
    while not shoe.cut_card_out:
        p = [shoe.draw()]
        b = [shoe.draw()]
        p.append(shoe.draw())
        b.append(shoe.draw())
        pi, bi = hand_total(p), hand_total(b)
        if pi not in naturals and bi not in naturals:
            third = None
            if pi in tableau.player_draws:
                p.append(shoe.draw())
                third = POINTS[p[-1]]
            if tableau.banker_draws(bi, third):
                b.append(shoe.draw())
        cards.extend(CARD_BYTE[c] for c in (p[0], b[0], p[1], b[1], *p[2:], *b[2:]))
        record.ends.append(len(cards))
        record.numbers.append(number)
        record.lines.append(number)
        record.columns.append(1)
        pt, bt = hand_total(p), hand_total(b)
        letter = 80 if pt > bt else 66 if bt > pt else 84
        if pi in naturals or bi in naturals:
            letter += 32
        record.outcomes.append(letter)
        number += 1
    return record


def loosened(ruleset: str, fdr: float | None = None, false_alarm: float | None = None,
             drift: float | None = None) -> str:
    """A ruleset extending ``ruleset`` with the integrity rules' levels changed (to measure them looser)."""
    params = {"BAC-OUTCOMES": ("false_discovery_rate", fdr), "BAC-SHUFFLE": ("false_alarm", false_alarm),
              "BAC-SETTLE-DRIFT": ("false_alarm", drift)}
    lines = [f"id: {ruleset}-loosened", "title: integrity levels loosened to measure them", "version: bench",
             f"extends: {ruleset}", "overrides:"]
    lines += [f"  {rule}: {{params: {{{name}: {value}}}}}" for rule, (name, value) in params.items() if value]
    path = Path(tempfile.gettempdir()) / f"baccarat-bench-{ruleset}-{fdr}-{false_alarm}-{drift}.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def fair_day(seed: int, shoes: int = 1000, tables: int = 20, decks: int = 8, dealers: int = 8,
             ruleset: str = "us-nj", slips: float = 0.0) -> list[TranscriptResult]:
    """A day of fair play as a run of ``tables`` transcripts, ready for the integrity stage.

    ``slips``: the share of coups with a wrong settlement of one unit, in the patrons' favour or the
    house's at the toss of a coin (honest mistakes)."""
    rs = load_ruleset(ruleset)
    tableau = rs.game.tableau
    rng = random.Random(seed)
    results = []
    per_table = [shoes // tables + (1 if t < shoes % tables else 0) for t in range(tables)]
    turn = 0
    for t, count in enumerate(per_table):
        table = f"T{t + 1:02d}"
        r = TranscriptResult(f"day-{seed}/{table}.jsonl", table, rs.id, "punto_banco", rs)
        data = r.integrity = IntegrityData(table)
        data.rules = rules_by_kind(rs)  # the integrity rules of the ruleset, as the collector would have them
        number = 1
        for s in range(count):
            record = deal_shoe(f"S{s + 1:03d}", decks, rng, tableau, number)
            dealer = f"D-{turn % dealers + 1:02d}"
            turn += 1
            hour = (s * 24) // max(count, 1)  # the coups' times: the hour the shoe was dealt in
            data.timeline.add(record.numbers[0], (("dealer", dealer),))
            record.times = array("q", [int(dt.datetime(2026, 11, 29, hour, tzinfo=dt.UTC).timestamp())]
                                 * len(record))
            record.zones = array("h", [0] * len(record))
            if slips:
                for i in range(len(record)):
                    if rng.random() < slips:
                        gain = Decimal(5) if rng.random() < 0.5 else Decimal(-5)
                        record.errors.append((i, gain, "payout", Decimal(95)))
            data.shoes[record.shoe] = record
            number += len(record)
        r.coups = number - 1
        results.append(r)
    return results


def findings_of(results) -> list:
    judge(results)
    return [f for r in results for f in r.findings]


class Smallest:
    """The smallest p-value of each kind of test seen while judging (the outcome tests of every group, the sign
    test of every group with enough errors), and how many were computed: how near fair play comes to error_at."""

    def __init__(self):
        self.p = {"outcomes": 1.0, "drift": 1.0}
        self.tests = Counter()
        self._statistics_of, self._judge = outcomes.statistics_of, drift.DriftGroup.judge
        smallest = self

        def statistics_of(texts, odds, shoe, wanted):  # every group's tests (a shoe's, where it is collected)
            out = smallest._statistics_of(texts, odds, shoe, wanted)
            smallest.tests["outcomes"] += len(out)
            for *_, p_value, _side in out:
                smallest.p["outcomes"] = min(smallest.p["outcomes"], p_value)
            return out

        def judge_drift(group, alpha, min_errors):
            signed = [e for e in group.errors if e.gain]
            if len(signed) >= min_errors:
                smallest.tests["drift"] += 1
                up = sum(1 for e in signed if e.gain > 0)
                smallest.p["drift"] = min(smallest.p["drift"], float(sign_test(up, len(signed))))
            return smallest._judge(group, alpha, min_errors)

        outcomes.statistics_of, drift.DriftGroup.judge = statistics_of, judge_drift


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--days", type=int, default=20)
    ap.add_argument("--shoes", type=int, default=1000)
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--decks", type=int, default=8)
    ap.add_argument("--ruleset", default="us-nj")
    ap.add_argument("--slips", type=float, default=0.01, help="share of coups with an honest wrong settlement")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fdr", type=float, help="BAC-OUTCOMES false_discovery_rate instead of the default")
    ap.add_argument("--false-alarm", type=float, help="BAC-SHUFFLE false_alarm instead of the default")
    ap.add_argument("--drift", type=float, help="BAC-SETTLE-DRIFT false_alarm instead of the default")
    a = ap.parse_args(argv)
    ruleset = loosened(a.ruleset, a.fdr, a.false_alarm, a.drift) if (a.fdr or a.false_alarm or a.drift) else a.ruleset
    per_day: list[int] = []
    by_category: Counter = Counter()
    calibration: Counter = Counter()
    tested = 0
    smallest = Smallest()
    errors = 0
    start = time.perf_counter()
    coups = 0
    for day in range(a.days):
        results = fair_day(a.seed + day, a.shoes, a.tables, a.decks, ruleset=ruleset, slips=a.slips)
        found = findings_of(results)
        coups += sum(r.coups for r in results)
        per_day.append(len(found))
        by_category.update(f.category for f in found)
        errors += sum(f.severity == "error" for f in found)
        for r in results:
            for view in r.integrity.view:
                for band in view.counts:
                    tested += 1
                    calibration[(band.name, 0.05)] += band.p_value <= 0.05
                    calibration[(band.name, 0.01)] += band.p_value <= 0.01
                if view.streak is not None:
                    calibration[("streak", 0.05)] += view.streak[2] <= 0.05
                    calibration[("streak", 0.01)] += view.streak[2] <= 0.01
        for f in found:
            print(f"day {day + 1}: {f.transcript} coup {f.coup} {f.rule}: {f.message}")
    took = time.perf_counter() - start
    days = len(per_day)
    shoes = days * a.shoes
    levels = f"levels: {'defaults' if ruleset == a.ruleset else Path(ruleset).read_text().split('overrides:')[1]}"
    print(f"{days} days of {a.shoes:,} fair shoes ({a.tables} tables, {a.decks} decks; {coups:,} coups; "
          f"honest slips in {a.slips:.0%} of coups), {took:.0f} s; {levels.strip()}")
    print(f"false findings: {sum(per_day)} in all, {sum(per_day) / days:.3f} a day on average, at most {max(per_day)} "
          f"in a day; days with any: {sum(1 for n in per_day if n)} of {days}")
    for category, n in sorted(by_category.items()):
        print(f"  {category}: {n}")
    print(f"findings that are errors (a test at or below error_at, 1e-9 by default): {errors}; the smallest p-value "
          f"of fair play: outcome tests {smallest.p['outcomes']:.2g} (of {smallest.tests['outcomes']:,} tests), "
          f"sign tests {smallest.p['drift']:.2g} (of {smallest.tests['drift']:,})")
    per_test = tested // 4 or 1
    print(f"per-shoe p-values at or below 0.05 / 0.01, over {shoes:,} shoes (a calibrated test: about 5% / 1% or less):")
    for name in ("Banker", "Player", "Tie", "naturals", "streak"):
        print(f"  {name:<9} {calibration[(name, 0.05)] / per_test:.4f} / {calibration[(name, 0.01)] / per_test:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
