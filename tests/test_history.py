"""A ruleset's history: each coup judged by the rules in force on the day it was dealt (docs/rule-authoring.md)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from compliance.cards import POINTS
from compliance.engine import Checker
from compliance.errors import UserError
from compliance.games.baccarat import edges
from compliance.games.baccarat.simulate import Simulator, write_transcript
from compliance.games.baccarat.spots import table_spots
from compliance.report.model import Report
from compliance.ruleset.loader import load_ruleset

PANDA_8 = "pa-627a-panda-8"


def night(ruleset, start: dt.datetime | None, coups: int = 150, game: str = "punto_banco", seed: int = 3) -> dict:
    out = io.BytesIO()
    write_transcript(Simulator(ruleset, coups=coups, seed=seed, game=game, start=start), out, "json")
    return json.loads(out.getvalue())


def check(doc: dict, tmp_path: Path, name: str, **context):
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return Checker(judge=False, cache=False, **context).check_file(path, name)


def panda_wagers(doc: dict) -> set[int]:
    return {c["coup"] for c in doc["coups"] for e in c["events"] if e["type"] == "wager" and e["spot"] == "panda_8"}


@pytest.fixture(scope="module")
def us_pa():
    return load_ruleset("us-pa")


@pytest.fixture(scope="module")
def ez_night(us_pa):
    doc = night(us_pa, None, game="ez_baccarat")
    assert panda_wagers(doc), "the night must hold Panda 8 wagers"
    return doc


def test_a_panda_8_wager_before_the_2014_amendment_is_a_finding_and_after_it_is_not(ez_night, tmp_path):
    before = check(dict(ez_night, date="2011-06-01"), tmp_path, "night-2011.json")
    after = check(dict(ez_night, date="2025-06-01"), tmp_path, "night-2025.json")
    assert after.findings == []
    flagged = {f.coup for f in before.findings}
    assert flagged == panda_wagers(ez_night)
    assert all("panda_8" in f.message and "44 Pa.B. 599" in f.message and "2014-02-01" in f.message
               for f in before.findings)
    assert {(f.rule, f.category) for f in before.findings} == {("PA-SPOT-IN-FORCE", "wager.spot-not-in-force")}
    assert all(f.citation == "58 Pa. Code § 627a.1, 627a.7; 44 Pa.B. 599" for f in before.findings)
    assert before.unreadable == 0
    [used] = after.versions
    assert [a.id for a in used.ruleset.period.in_force] == [PANDA_8] and used.coups == after.coups
    lines = Report([after]).versions_applied()
    assert lines == [f"night-2025.json: {after.coups} coups (1–{after.coups}) judged by us-pa {used.ruleset.version} "
                     f"as in force from 2014-02-01, with {PANDA_8} (44 Pa.B. 599, from 2014-02-01) (dated by coup "
                     "times, else the date 2025-06-01)"]
    # the 2011 night is before the earliest version the history records: the report says so
    assert any("2011-06-01" in n and "2012-05-19" in n for n in Report([before]).notices())


def test_coup_times_date_the_night_and_as_of_overrides_them(us_pa, tmp_path):
    doc = night(us_pa, dt.datetime(2011, 6, 1, 20, 0, tzinfo=dt.UTC), game="ez_baccarat")
    dated = check(doc, tmp_path, "timed.json")
    assert {f.coup for f in dated.findings} == panda_wagers(doc)
    assert check(doc, tmp_path, "timed.json", as_of="2025-06-01").findings == []
    assert check(dict(doc, date="2025-06-01"), tmp_path, "timed.json").findings != []  # its times come first


def test_an_undated_night_is_judged_by_the_current_version_and_the_report_says_so(ez_night, tmp_path):
    result = check(ez_night, tmp_path, "undated.json")
    assert result.findings == []
    [used] = result.versions
    assert used.undated == result.coups and used.ruleset.period.end is None
    [notice] = [n for n in Report([result]).notices() if "give no date" in n]
    assert notice.startswith(f"undated.json: {result.coups} of {result.coups} coups give no date")


RULES = Path(__file__).resolve().parent.parent / "fixtures" / "rules" / "us-pa"
EARLY_PANDA = json.loads((RULES / "panda-8-wagered-before-the-amendment.json").read_text(encoding="utf-8"))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(day=st.dates(min_value=dt.date(2012, 5, 19), max_value=dt.date(2016, 12, 31))
       | st.sampled_from([dt.date(2014, 1, 31), dt.date(2014, 2, 1)]))
def test_a_panda_8_wager_is_a_finding_exactly_before_the_amendment_and_the_coup_is_judged_all_the_same(day, tmp_path):
    """44 Pa.B. 599 adds the Panda 8 wager from 1 February 2014: a Panda 8 wager dealt the day before is a
    finding citing the chapter and the notice, one dealt on it or later is not; either way the coup's other
    wagers are judged (coup 3 pays a Banker win short) and no coup is unreadable."""
    result = check(dict(EARLY_PANDA, date=day.isoformat()), tmp_path, "dated.json")
    spots = [(f.coup, f.event) for f in result.findings if f.rule == "PA-SPOT-IN-FORCE"]
    short = [f.coup for f in result.findings if f.rule == "BAC-SETTLE-AMOUNT"]
    assert spots == ([(n, 3) for n in (1, 2, 3, 4)] if day < dt.date(2014, 2, 1) else [])
    assert short == [3] and result.unreadable == 0
    assert {f.rule for f in result.findings} <= {"PA-SPOT-IN-FORCE", "BAC-SETTLE-AMOUNT"}


def test_without_a_rule_for_it_a_wager_on_a_spot_not_in_force_leaves_its_coup_unreadable(tmp_path):
    """A ruleset whose history has the spot but no rule of kind wager.spot-not-in-force: nothing is dropped
    silently, the coup is unreadable and says why."""
    (tmp_path / "no-rule.yaml").write_text("""
id: no-rule
title: Pennsylvania without the rule on spots in force
version: "1"
extends: us-pa
overrides:
  PA-SPOT-IN-FORCE: {enabled: false}
""", encoding="utf-8")
    result = check(EARLY_PANDA, tmp_path, "early.json", ruleset=str(tmp_path / "no-rule.yaml"))
    assert result.unreadable == 4
    assert {f.rule for f in result.findings} == {"BAC-TRANSCRIPT"}
    assert all("44 Pa.B. 599" in f.message for f in result.findings)


def amended(tmp_path: Path, effective: dt.date) -> Path:
    path = tmp_path / "amended.yaml"
    path.write_text(f"""
id: amended
title: New Jersey, with the Tie paid 9 to 1 from a day
version: "1"
extends: us-nj
amendments:
  - id: tie-nine
    title: The Tie wager paid 9 to 1
    cite: "Test Register 1"
    effective: "{effective.isoformat()}"
    game:
      spots:
        tie: {{odds: 9}}
""", encoding="utf-8")
    return path


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(effective=st.dates(min_value=dt.date(2000, 1, 2), max_value=dt.date(2090, 12, 31)))
def test_a_night_spanning_an_amendment_at_midnight_is_judged_coup_by_coup(effective, tmp_path):
    """Simulated with the Tie paid 8 to 1: every winning Tie wager from midnight on, and none before, is a
    wrong settlement under the amendment."""
    ruleset = amended(tmp_path, effective)
    start = dt.datetime.combine(effective, dt.time(22, 30), tzinfo=dt.UTC) - dt.timedelta(days=1)
    doc = night(load_ruleset("us-nj"), start, coups=200)
    result = check(doc, tmp_path, "spanning.json", ruleset=str(ruleset))
    day = {c["coup"]: next(e["at"] for e in c["events"] if e.get("at"))[:10] for c in doc["coups"]}
    after = {n for n, d in day.items() if d >= effective.isoformat()}
    assert after and len(after) < len(day), "the night must span midnight"
    tie_wins = {c["coup"] for c in doc["coups"] for e in c["events"]
                if e["type"] == "settle" and e["spot"] == "tie" and e.get("outcome") == "win"}
    wrong = {f.coup for f in result.findings if f.rule == "BAC-SETTLE-AMOUNT"}
    assert wrong == tie_wins & after
    first, second = result.versions
    assert (first.ruleset.period.end, second.ruleset.period.start) == (
        (effective - dt.timedelta(days=1)).isoformat(), effective.isoformat())
    assert first.coups + second.coups == result.coups and second.first == min(after)


def test_the_history_is_in_the_content_hash_and_the_cache_keeps_every_version(tmp_path, monkeypatch):
    from compliance.ruleset import cache

    monkeypatch.setenv("BACCARAT_AUDIT_CACHE_DIR", str(tmp_path / "cache"))
    path = amended(tmp_path, dt.date(2020, 1, 1))
    first = cache.load(str(path))
    assert cache.load(str(path)) == first and len(first.versions) == 2
    path.write_text(path.read_text().replace("2020-01-01", "2021-01-01"))
    again = cache.load(str(path))
    assert again.sha256 != first.sha256 and again.versions[1].period.start == "2021-01-01"


@pytest.mark.parametrize("amendments, refusal", [
    ("""  - {id: later, title: Later, cite: "R 2", effective: "2020-01-01", game: {spots: {tie: {odds: 9}}}}
  - {id: earlier, title: Earlier, cite: "R 1", effective: "2019-01-01", game: {spots: {tie: {odds: 8}}}}
""", "before the one listed above it"),
    ("""  - {id: temporary, title: T, cite: "R 1", effective: "2019-01-01", ends: "2019-12-31", game: {spots: {tie: {odds: 9}}}}
  - {id: permanent, title: P, cite: "R 2", effective: "2019-06-01", game: {spots: {tie: {odds: 8}}}}
""", "while 'temporary' .* is still in force, and both change game.spots.tie"),
], ids=["out-of-order", "overlapping"])
def test_amendments_out_of_order_or_overlapping_are_refused(tmp_path, amendments, refusal):
    path = tmp_path / "bad.yaml"
    path.write_text('id: bad\ntitle: Bad history\nversion: "1"\nextends: us-nj\namendments:\n' + amendments,
                    encoding="utf-8")
    with pytest.raises(UserError, match=refusal):
        load_ruleset(str(path))


# ------------------------------------------------------------------ options and a house's submission

KEYSTONE = Path(__file__).resolve().parent.parent / "fixtures" / "rulesets" / "keystone-casino.yaml"


def test_a_house_selecting_commission_free_banker_from_a_day_is_judged_so_from_that_day(tmp_path):
    """Keystone Casino selects Pennsylvania's commission-free Banker (629b.2) from 1 March 2020: a Midibaccarat
    night dealt with commission before that day is clean, and the same night after it takes commission on
    Banker wagers the house no longer takes."""
    house = load_ruleset(str(KEYSTONE))
    assert [(o.key, o.citation) for o in house.options] == [("commission_free_banker", "58 Pa. Code § 629b.2")]
    before, after = house.version_on("2020-02-29"), house.version_on("2020-03-01")
    assert before.game.spots_for("midi_baccarat", None)["banker"].commission == Decimal("0.05")
    assert after.game.spots_for("midi_baccarat", None)["banker"].commission == 0
    [selected] = [a for a in after.period.in_force if a.kind == "selection"]
    assert (selected.id, selected.kind, selected.effective) == ("option:commission_free_banker", "selection",
                                                                 "2020-03-01")
    assert selected.cite == "58 Pa. Code § 629b.2; Rules Submission, Midibaccarat, revision 4"
    doc = night(load_ruleset("us-pa"), None, game="midi_baccarat", coups=120)
    clean = check(dict(doc, date="2020-02-29"), tmp_path, "feb.json", ruleset=str(KEYSTONE))
    assert clean.findings == []
    judged = check(dict(doc, date="2020-03-01"), tmp_path, "mar.json", ruleset=str(KEYSTONE))
    banker_wins = {c["coup"] for c in doc["coups"] for e in c["events"]
                   if e["type"] == "commission" or (e["type"] == "settle" and e["spot"] == "banker"
                                                    and e.get("outcome") == "win")}
    assert {f.coup for f in judged.findings} and {f.coup for f in judged.findings} <= banker_wins
    assert all("629" in f.citation for f in judged.findings)


def test_a_selection_the_jurisdiction_does_not_list_or_before_it_existed_is_refused(tmp_path):
    broken = KEYSTONE.parent / "broken"
    with pytest.raises(UserError, match="'commission_free_bankers', which the ruleset it extends does not permit"):
        load_ruleset(str(broken / "option-not-permitted.yaml"))
    with pytest.raises(UserError, match="from 2018-12-31, before the jurisdiction permits it"):
        load_ruleset(str(broken / "option-date.yaml"))


def test_a_wager_on_a_spot_the_house_did_not_select_cites_the_option_and_the_submission(tmp_path):
    (tmp_path / "jurisdiction.yaml").write_text("""
id: pair-jurisdiction
title: A jurisdiction that lets a house offer a Player Pair wager
version: "1"
extends: us-nj
sources:
  pairs: {title: "Side wagers", cite_as: "Side Wager Rule "}
rules:
  - id: PAIR-SPOT-IN-FORCE
    title: Wagers only on the spots the house's submission selects that day
    check: wager.spot-not-in-force
    citation: {source: pairs, at: ["1"]}
options:
  player_pair:
    title: The Player Pair wager
    citation: {source: pairs, at: ["4(b)"]}
    game:
      spots:
        player_pair: {wins: {kind: pair, hand: player}, odds: 11}
""", encoding="utf-8")
    (tmp_path / "house.yaml").write_text("""
id: pair-house
title: A house offering the Player Pair from 2021
version: "1"
extends: jurisdiction.yaml
casino: Pair Casino
selections:
  - {option: player_pair, since: "2021-01-01", submission: "Submission 7"}
""", encoding="utf-8")
    house = load_ruleset(str(tmp_path / "house.yaml"))
    doc = night(house.version_on("2021-06-01"), None, coups=200)
    pairs = {c["coup"] for c in doc["coups"] for e in c["events"] if e["type"] == "wager" and e["spot"] == "player_pair"}
    assert pairs
    ruleset = str(tmp_path / "house.yaml")
    assert check(dict(doc, date="2021-06-01"), tmp_path, "2021.json", ruleset=ruleset).findings == []
    early = check(dict(doc, date="2020-06-01"), tmp_path, "2020.json", ruleset=ruleset).findings
    assert {f.coup for f in early} == pairs
    assert all("option player_pair" in f.message and "Side Wager Rule 4(b)" in f.message
               and "the submission of pair-house does not select on this day" in f.message for f in early)
    # a finding of its own, citing the rule, the option's paragraph and the house's submission; the coup judged
    assert {f.rule for f in early} == {"PAIR-SPOT-IN-FORCE"}
    assert {f.citation for f in early} == {"Side Wager Rule 1; Side Wager Rule 4(b); Submission 7"}


# ------------------------------------------------------------------ the commands


def test_rules_list_and_show_give_the_rules_as_they_stood_and_history_lists_the_versions():
    from typer.testing import CliRunner

    from compliance.cli import app

    run = CliRunner().invoke
    listed = run(app, ["rules", "list", "-r", "us-pa", "--as-of", "2013-06-01", "-f", "markdown"])
    assert listed.exit_code == 0
    shown = run(app, ["rules", "show", "PA-ADVANTAGE-PLAY", "-r", "us-pa", "--as-of", "2013-06-01"])
    assert "in force as first made (42 Pa.B. 2906, in force from 2012-05-19) to 2014-01-31" in shown.output
    assert "spots = [dragon_7, house_money, perfect_pairs_player, perfect_pairs_banker]" in shown.output
    now = run(app, ["rules", "show", "PA-ADVANTAGE-PLAY", "-r", "us-pa"]).output
    assert "spots = [dragon_7, panda_8, house_money" in now
    history = run(app, ["ruleset", "history", "us-pa"])
    assert history.exit_code == 0
    assert "version 2: in force from 2014-02-01, with pa-627a-panda-8 (44 Pa.B. 599" in history.output
    assert "changes game.variants.ez_baccarat.panda_8" in history.output
    covered = run(app, ["coverage", "-r", "us-pa", "--as-of", "2013-06-01"])
    assert "history of us-pa (judged here as in force as first made" in covered.output
    bad = run(app, ["rules", "list", "--as-of", "2013-02-30"])
    assert bad.exit_code == 2 and "is not a date" in bad.output
    check_bad = run(app, ["check", "x.json", "--as-of", "yesterday"])
    assert check_bad.exit_code == 2 and "is not a date" in check_bad.output


# ------------------------------------------------------------------ whole shoes: the version at the shoe's first coup


def written(sim: Simulator) -> dict:
    """The simulated night as its JSON transcript."""
    out = io.BytesIO()
    write_transcript(sim, out, "json")
    return json.loads(out.getvalue())


def checked(doc: dict, tmp_path: Path, ruleset: Path):
    """The night ``doc`` checked by the ruleset file ``ruleset``, the integrity tests judged."""
    path = tmp_path / "night.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return Checker(judge=True, cache=False, ruleset=str(ruleset)).check_file(path, "night.json")


def shuffle_amended(tmp_path: Path) -> Path:
    path = tmp_path / "shuffle-amended.yaml"
    path.write_text("""
id: shuffle-amended
title: New Jersey, without the shuffle test from 2030
version: "1"
extends: us-nj
amendments:
  - id: no-maker-order
    title: The shuffle test withdrawn
    cite: "Test Register 2"
    effective: "2030-01-01"
    overrides:
      BAC-SHUFFLE: {enabled: false}
""", encoding="utf-8")
    return path


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(minutes=st.integers(min_value=5, max_value=150))
def test_a_shoe_is_judged_whole_by_the_version_in_force_at_its_first_coup(minutes, tmp_path):
    """Every shoe of the night is put in unshuffled, in the maker's order; from midnight an amendment withdraws
    the shuffle test.  A shoe whose first coup was dealt before midnight is flagged, even where it runs past
    midnight, and one begun after midnight is not: each shoe is judged whole by the version in force at its
    first coup, the night starting ``minutes`` before midnight."""
    start = dt.datetime(2029, 12, 31, 23, 59, tzinfo=dt.UTC) - dt.timedelta(minutes=minutes - 1)
    sim = Simulator(load_ruleset("us-nj"), coups=60, seed=11, decks=2, start=start,
                    inject={"integrity.unshuffled:factory-order": 1.0})
    doc = written(sim)
    result = checked(doc, tmp_path, shuffle_amended(tmp_path))
    first_day: dict[str, str] = {}
    shoe_of = {}
    for c in doc["coups"]:
        shoe_of[c["coup"]] = c["shoe"]
        first_day.setdefault(c["shoe"], next(e["at"] for e in c["events"] if e.get("at"))[:10])
    flagged = {shoe_of[f.coup] for f in result.findings if f.rule == "BAC-SHUFFLE"}
    assert flagged == {shoe for shoe, day in first_day.items() if day < "2030-01-01"}


# ------------------------------------------------------------------ the tests that span shoes: each coup by its own


def watched(tmp_path: Path, effective: dt.date) -> Path:
    """Pennsylvania, its advantage-play rule judging Panda 8 wagers only from ``effective``."""
    path = tmp_path / "watched.yaml"
    spots = "dragon_7, house_money, perfect_pairs_player, perfect_pairs_banker"
    path.write_text(f"""
id: watched
title: Pennsylvania, its Panda 8 wagers judged for advantage play from a day
version: "1"
extends: us-pa
overrides:
  PA-ADVANTAGE-PLAY: {{params: {{spots: [{spots}]}}}}
amendments:
  - id: panda-watched
    title: Panda 8 wagers judged for advantage play
    cite: "Test Register 3"
    effective: "{effective.isoformat()}"
    overrides:
      PA-ADVANTAGE-PLAY:
        params: {{spots: [panda_8, {spots}]}}
        citation: {{source: pa-627a, at: ["627a.1", "627a.7", "627a.12"]}}
""", encoding="utf-8")
    return path


def day_of(coup: dict) -> str:
    return next(e["at"] for e in coup["events"] if e.get("at"))[:10]


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(effective=st.dates(min_value=dt.date(2014, 2, 3), max_value=dt.date(2090, 12, 31)))
def test_advantage_play_counts_a_panda_8_wager_only_from_the_day_its_version_judges_it(effective, tmp_path):
    """A counter plays Dragon 7 and Panda 8 by the cards all night; from midnight an amendment has the
    advantage-play rule judge Panda 8 wagers too (and cite § 627a.1 as well).  Each coup is taken by its own
    version: a chance at Panda 8 only from midnight, the finding's expected gain sums every Dragon 7 wager and
    the Panda 8 wagers from midnight, each at the exact edge of the cards left before its coup, and the finding
    cites the rule as the version at its coup has it."""
    ruleset = watched(tmp_path, effective)
    start = dt.datetime.combine(effective, dt.time(22, 0), tzinfo=dt.UTC) - dt.timedelta(days=1)
    sim = Simulator(load_ruleset(str(ruleset)), coups=600, seed=3, seats=3, game="ez_baccarat", start=start,
                    inject={"integrity.advantage-play": 1.0})
    doc = written(sim)
    result = checked(doc, tmp_path, ruleset)
    after = {c["coup"] for c in doc["coups"] if day_of(c) >= effective.isoformat()}
    (made,) = [i for i in sim.integrity if i.category == "integrity.advantage-play"]
    panda = {n for n, spot, _ in made.wagered if spot == "panda_8"}
    assert panda - after and panda & after, "the counter must wager on Panda 8 either side of midnight"
    shoes = result.integrity.shoes
    spot_of = {key: spot[3] for key, spot in result.integrity.chances.spots.items()}
    offered = {(shoes[shoe].numbers[i], frozenset(spot_of[key] for key in could))
               for shoe, could, present in result.integrity.chances.runs
               for indices, _ in present.values() for i in indices}
    assert offered and all(spots == ({"dragon_7", "panda_8"} if n in after else {"dragon_7"}) for n, spots in offered)
    (finding,) = [f for f in result.findings if f.rule == "PA-ADVANTAGE-PLAY"]
    assert any("panda_8" in s.statistic for s in finding.statistics)
    # decisive after midnight: cited as the version in force at its coup has the rule
    assert finding.coup in after and finding.citation == "58 Pa. Code § 627a.1, 627a.7, 627a.12"
    pa = load_ruleset("us-pa")
    spots, tableau = table_spots(pa.game.spots_for("ez_baccarat")), pa.game.tableau
    from_ = {"dragon_7": set(), "panda_8": after}  # the coups whose wagers on each spot count (none: all)
    counted, wagers, gone = Fraction(0), 0, {}
    seat = next(int(s) for s, who in doc["coups"][0]["seated"].items() if who == made.patron)
    for c in doc["coups"]:
        left = [n - k for n, k in zip(edges.full_shoe(8), gone.get(c["shoe"], [0] * 10), strict=True)]
        for e in c["events"]:
            if e["type"] == "wager" and e.get("seat") == seat and e["spot"] in from_ \
                    and (not from_[e["spot"]] or c["coup"] in from_[e["spot"]]):
                back = edges.returns(spots[e["spot"]], frozenset(tableau.naturals))
                counted += Fraction(Decimal(str(e["amount"]))) * edges.exact_edge(tableau, back, left)
                wagers += 1
            elif e["type"] == "card":
                gone.setdefault(c["shoe"], [0] * 10)[POINTS[e["card"]]] += 1
    assert finding.money.sums == wagers
    assert finding.money.paid == round(Decimal(counted.numerator) / counted.denominator, 2)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(effective=st.dates(min_value=dt.date(2000, 1, 2), max_value=dt.date(2090, 12, 31)))
def test_the_hold_s_theory_takes_each_coup_by_the_payouts_of_its_own_version(effective, tmp_path):
    """The Tie paid 9 to 1 from midnight: the night's theoretical win is that of its coups before midnight at 8 to 1
    plus that of those after at 9 to 1 (each half checked alone), and neither version's over the whole night."""
    ruleset = amended(tmp_path, effective)
    start = dt.datetime.combine(effective, dt.time(22, 30), tzinfo=dt.UTC) - dt.timedelta(days=1)
    doc = night(load_ruleset("us-nj"), start, coups=200)

    def table_group(coups: list, name: str, **context):
        path = tmp_path / name
        path.write_text(json.dumps(dict(doc, coups=coups)), encoding="utf-8")
        result = Checker(judge=True, cache=False, ruleset=str(ruleset), **context).check_file(path, name)
        (group,) = [g for g in result.integrity.hold_view.groups if g.kind == "table"]
        return group

    whole = table_group(doc["coups"], "night.json")
    before = table_group([c for c in doc["coups"] if day_of(c) < effective.isoformat()], "before.json")
    after = table_group([c for c in doc["coups"] if day_of(c) >= effective.isoformat()], "after.json")
    assert before.coups and after.coups and whole.coups == before.coups + after.coups
    assert whole.handle == before.handle + after.handle
    assert abs(whole.theoretical_win - (before.theoretical_win + after.theoretical_win)) <= Decimal("0.0001")
    for day in (effective - dt.timedelta(days=1), effective):
        assert table_group(doc["coups"], "night.json", as_of=day.isoformat()).theoretical_win != whole.theoretical_win


SAMPLE = Path(__file__).resolve().parent.parent / "fixtures" / "samples" / "night-shift.json"


def test_a_coup_s_natural_is_read_by_the_tableau_of_its_own_version():
    """The outcome letters the shoe tests count mark a natural by the tableau in force at the coup: a version
    that counts only a 9 as a natural marks a two-card 8 as none from its first coup on."""
    from compliance import games
    from compliance.games.baccarat.integrity.collect import Collector
    from compliance.reading.reader import open_transcript

    source = open_transcript(SAMPLE)
    source.close()
    ruleset = load_ruleset(source.header.table.jurisdiction)
    first = games.table_context(source.game, source.header, ruleset, "night.json")
    later = dataclasses.replace(first, tableau=first.tableau.model_copy(update={"naturals": [9]}))
    collector = Collector(source.header, first)
    assert collector.naturals == {8, 9}
    collector.table = later
    assert collector.naturals == {9}
    collector.table = first
    assert collector.naturals == {8, 9}


def collusion_counts(tmp_path: Path, ruleset_yaml: str, date: str | None = None):
    """The collusion test's count of the pairs' wagers on a night across midnight, 31 December 2029, checked by
    the ruleset ``ruleset_yaml`` (``date``: the header's): a function of the coups kept, None where no
    collusion test ran."""
    (tmp_path / "amended.yaml").write_text(ruleset_yaml, encoding="utf-8")
    start = dt.datetime(2029, 12, 31, 22, 30, tzinfo=dt.UTC)
    sim = Simulator(load_ruleset("us-nj"), coups=200, seed=3, dealers=2, start=start)
    doc = written(sim)
    header = {"date": date} if date else {}

    def counted(keep, name: str):
        path = tmp_path / name
        path.write_text(json.dumps(dict(doc, coups=[c for c in doc["coups"] if keep(day_of(c))], **header)),
                        encoding="utf-8")
        integrity = Checker(judge=False, cache=False, ruleset=str(tmp_path / "amended.yaml")).check_file(
            path, name).integrity
        return integrity.patrons if integrity is not None else None

    return counted


def test_collusion_takes_a_coup_only_where_its_version_has_the_rule(tmp_path):
    """The collusion rule withdrawn from midnight: the pairs' wagers counted over the night are those of its coups
    before midnight."""
    patrons = collusion_counts(tmp_path, """
id: withdrawn
title: New Jersey, without the collusion test from a day
version: "1"
extends: us-nj
amendments:
  - id: no-collusion
    title: The collusion test withdrawn
    cite: "Test Register 4"
    effective: "2030-01-01"
    overrides:
      BAC-COLLUSION: {enabled: false}
""")
    whole = patrons(lambda day: True, "night.json")
    before = patrons(lambda day: day < "2030-01-01", "before.json")
    assert sum(before.wagers.values()) and whole.wagers == before.wagers
    assert patrons(lambda day: day >= "2030-01-01", "after.json") is None


def test_a_test_over_shoes_that_only_a_later_version_has_is_judged_from_its_first_coup(tmp_path):
    """No test over shoes in force on the night's date, the collusion test from midnight: the pairs' wagers
    counted are those of the coups after midnight, as if the night had begun there."""
    patrons = collusion_counts(tmp_path, """
id: introduced
title: New Jersey, with the collusion test only from a day
version: "1"
extends: us-nj
overrides:
  BAC-SHUFFLE: {enabled: false}
  BAC-OUTCOMES: {enabled: false}
  BAC-SETTLE-DRIFT: {enabled: false}
  BAC-COLLUSION: {enabled: false}
  BAC-HOLD: {enabled: false}
amendments:
  - id: collusion
    title: The collusion test brought in
    cite: "Test Register 5"
    effective: "2030-01-01"
    overrides:
      BAC-COLLUSION: {enabled: true}
""", date="2029-12-31")
    after = patrons(lambda day: day >= "2030-01-01", "after.json")
    assert sum(after.wagers.values()) and patrons(lambda day: True, "night.json").wagers == after.wagers
    before = patrons(lambda day: day < "2030-01-01", "before.json")
    assert before is None or not before.wagers


def test_a_night_spanning_an_amendment_cut_into_chunks_is_judged_as_in_one_pass(tmp_path, monkeypatch):
    """Under -j the chunks' shoes, chances and hold buckets are joined with each coup's version: the findings, the
    advantage-play finding among them, and the hold's figures are those of one pass."""
    from test_parallel import _chunked, _same

    effective = dt.date(2024, 3, 1)
    ruleset = watched(tmp_path, effective)
    start = dt.datetime.combine(effective, dt.time(22, 0), tzinfo=dt.UTC) - dt.timedelta(days=1)
    sim = Simulator(load_ruleset(str(ruleset)), coups=600, seed=3, seats=3, game="ez_baccarat", start=start,
                    inject={"integrity.advantage-play": 1.0})
    path = tmp_path / "night.jsonl"
    with path.open("wb") as f:
        write_transcript(sim, f, "jsonl")
    one = Checker(keep_states=True, keep_coups=True, ruleset=str(ruleset)).check_file(path, str(path))
    assert [f.rule for f in one.findings if f.rule == "PA-ADVANTAGE-PLAY"] == ["PA-ADVANTAGE-PLAY"]
    chunked, accepted = _chunked(path, monkeypatch, chunk_bytes=60_000, ruleset=str(ruleset))
    assert accepted and accepted[0][0] >= 2 and accepted[0][1], "the night was cut, and every cut exact"
    _same(chunked, one)
    assert chunked.integrity.hold_view.groups == one.integrity.hold_view.groups
