"""Hold against theory (integrity.hold, BAC-HOLD; docs/integrity.md).

Each table's, shift's, dealer's and day's win is set beside its theoretical
win: each stake times the exact house edge of its spot (the same fraction
``analyze`` gives), with the exact variance of the win from each spot's outcome
distribution (checked here against a plain enumeration of every deal of a small
shoe).  Short payouts at one table in one shift are found there and nowhere
else; an honest run raises nothing.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
from decimal import Decimal
from fractions import Fraction
from functools import cache
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.context import RunContext
from compliance.engine import Checker
from compliance.errors import UserError
from compliance.games.baccarat import analyze
from compliance.games.baccarat.integrity import hold
from compliance.games.baccarat.odds import deal_counts, end_index, tableau_key
from compliance.games.baccarat.replay import CommissionPaid, Settlement
from compliance.games.baccarat.simulate import Simulator, write_transcript
from compliance.games.baccarat.spots import table_spots
from compliance.ruleset.loader import load_ruleset

PA = load_ruleset("us-pa")
NJ = load_ruleset("us-nj")
TABLEAU = PA.game.tableau
NATURALS = frozenset(TABLEAU.naturals)
GAMES = {"punto_banco": table_spots(NJ.game.spots_for("punto_banco")),
         "ez_baccarat": table_spots(PA.game.spots_for("ez_baccarat")),
         "midi_baccarat": table_spots(PA.game.spots_for("midi_baccarat"))}


def table_of(game: str):
    return SimpleNamespace(spots=GAMES[game], tableau=TABLEAU)


def settled_coup(stakes: dict[tuple, Decimal]):
    """A coup whose wagers ``stakes`` ((seat, spot) -> stake) were each settled as lost (the hold reads the net)."""
    return SimpleNamespace(stakes=stakes, stakes_at_settlement=None, commissions=(),
                           settlements=[Settlement(i, seat, spot, "lose", amount)
                                        for i, ((seat, spot), amount) in enumerate(stakes.items())])


def folded(game: str, coups: list[dict], decks: int):
    """(handle by spot, handle, win, theoretical win, variance) of ``coups`` as the hold stage adds them up."""
    table = table_of(game)
    data = hold.HoldData(hold.spot_returns(table))
    for i, stakes in enumerate(coups):
        data.add(settled_coup(stakes), decks, None, None, None, (i + 1, 0, 0, None, None))
    total = hold._Sum()
    judged = {k: v for k, v in data.spots.items() if v is not None}
    for b in data.buckets.values():
        total.add(("t", decks), data.spots, b, 0, None)
    return hold.figures(total, {("t", decks): hold.theory(TABLEAU, decks, judged, cache=False)})


stake = st.integers(1, 10_000).map(lambda n: Decimal(n) / 4)


@st.composite
def coups_of(draw, game: str):
    spots = sorted(GAMES[game])
    return draw(st.lists(st.dictionaries(st.tuples(st.integers(1, 7), st.sampled_from(spots)), stake, min_size=1,
                                         max_size=6), min_size=1, max_size=8))


@cache
def edges(game: str, decks: int) -> dict[str, Fraction]:
    outcomes = analyze.enumerate_shoe(TABLEAU, decks)
    return {name: analyze.spot_edge(outcomes, name, spot, NATURALS).per_coup for name, spot in GAMES[game].items()}


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=12, deadline=None)
@given(data=st.data(), decks=st.sampled_from([1, 8]))
def test_the_theoretical_win_is_each_stake_times_the_exact_house_edge_of_its_spot(game, data, decks):
    coups = data.draw(coups_of(game))
    _, handle, win, theo, _ = folded(game, coups, decks)
    edge = edges(game, decks)
    assert theo == sum((Fraction(a) * edge[spot] for c in coups for (_, spot), a in c.items()), Fraction(0))
    assert handle == sum(Fraction(a) for c in coups for a in c.values())
    assert win == handle  # every wager lost


# ------------------------------------------------------------------ the variance, against every deal of a small shoe

SMALL = (0, 0, 0, 1, 3, 4, 5, 6, 8, 9)  # ten cards by point value


def play(cards: tuple[int, ...]) -> int:
    """The end (index into ENDS) of a coup dealt ``cards`` (six, in the order they come) by the tableau as written."""
    rows = TABLEAU.banker_draws_on_player_third_card
    p, b = (cards[0] + cards[2]) % 10, (cards[1] + cards[3]) % 10
    if p in NATURALS or b in NATURALS:
        return end_index(p, b, 2, 2)
    nxt = 4
    third = None
    pc = bc = 2
    if p in TABLEAU.player_draws:
        third = cards[nxt]
        nxt += 1
        p = (p + third) % 10
        pc = 3
        draws = b in rows and rows[b][third] == "D"
    else:
        draws = b in TABLEAU.banker_draws_when_player_stood
    if draws:
        b = (b + cards[nxt]) % 10
        bc = 3
    return end_index(p, b, pc, bc)


@cache
def every_deal() -> dict[int, int]:
    """End -> the ordered deals of six of the small shoe's cards that end so, counted one by one."""
    out: dict[int, int] = {}
    for places in itertools.permutations(range(len(SMALL)), 6):
        i = play(tuple(SMALL[k] for k in places))
        out[i] = out.get(i, 0) + 1
    return out


def test_the_walk_of_a_small_shoe_counts_every_deal():
    left = tuple(SMALL.count(v) for v in range(10))
    assert deal_counts(tableau_key(TABLEAU), left) == every_deal()


@pytest.mark.parametrize("game", ["punto_banco", "ez_baccarat"])
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_the_variance_of_a_coup_s_win_is_that_of_every_deal_of_a_small_shoe(game, data):
    spots = GAMES[game]
    stakes = data.draw(st.dictionaries(st.sampled_from(sorted(spots)), stake, min_size=1, max_size=5))
    backs = {name: hold.spot_returns(table_of(game))[name] for name in stakes}
    deals = every_deal()
    total = sum(deals.values())
    # the house's win at each deal, straight from what each wager gives back there
    wins = {i: sum((Fraction(a) * (1 - backs[s][i]) for s, a in stakes.items()), Fraction(0)) for i in deals}
    mean = sum(n * wins[i] for i, n in deals.items()) / total
    brute = sum(n * (wins[i] - mean) ** 2 for i, n in deals.items()) / total
    theory = hold.Theory(list(deals.items()), [], backs)
    names = sorted(stakes)
    var = sum((Fraction(stakes[a]) * Fraction(stakes[b]) * theory.cov(a, b) * (1 if a == b else 2)
               for i, a in enumerate(names) for b in names[i:]), Fraction(0))
    assert var == brute
    assert sum((Fraction(a) * theory.mean(s) for s, a in stakes.items()), Fraction(0)) == mean


def test_a_group_s_variance_is_its_coups_added():
    one = [{(1, "player"): Decimal(100), (2, "banker"): Decimal(50), (3, "tie"): Decimal(5)}]
    *_, var1 = folded("punto_banco", one, 8)
    *_, var3 = folded("punto_banco", one * 3, 8)
    assert var3 == 3 * var1 > 0
    # a Player and a Banker wager of the same size hedge each other: less spread than either alone
    *_, hedged = folded("punto_banco", [{(1, "player"): Decimal(100), (2, "banker"): Decimal(100)}], 8)
    *_, alone = folded("punto_banco", [{(1, "player"): Decimal(100)}], 8)
    assert hedged < alone


def test_a_pair_wager_s_edge_is_analyze_s_and_its_spread_its_own():
    spots = GAMES["midi_baccarat"]
    pairs = [name for name in spots if hold.spot_returns(table_of("midi_baccarat"))[name].__class__.__name__
             == "PairReturns"]
    assert pairs
    t = hold.theory(TABLEAU, 8, {n: b for n, b in hold.spot_returns(table_of("midi_baccarat")).items()
                                 if b is not None}, cache=False)
    for name in pairs:
        assert t.mean(name) == edges("midi_baccarat", 8)[name]
        assert t.cov(name, name) > 0
        assert t.cov(name, "player") == 0  # the result and the first cards' classes taken as independent


def test_commission_counts_to_the_house():
    table = table_of("punto_banco")
    data = hold.HoldData(hold.spot_returns(table))
    coup = SimpleNamespace(stakes={(1, "banker"): Decimal(100)}, stakes_at_settlement=None,
                           settlements=[Settlement(0, 1, "banker", "win", Decimal(100))],
                           commissions=[CommissionPaid(1, 1, Decimal(5))])
    data.add(coup, 8, None, None, None, (1, 0, 0, None, None))
    (b,) = data.buckets.values()
    assert b.net == {"": Decimal(-95)} and b.handle == {"banker": Decimal(100)}



def test_a_coup_staked_beyond_exact_sums_is_left_out_and_the_rest_of_its_bucket_kept():
    table = table_of("punto_banco")
    data = hold.HoldData(hold.spot_returns(table))

    def coup(banker, player, outcome="lose"):
        return SimpleNamespace(stakes_at_settlement={(1, "banker"): banker, (2, "banker"): Decimal(0),
                                                     (3, "player"): player}, stakes=None,
                               settlements=[Settlement(0, 1, "banker", outcome, banker)], commissions=[])

    for n, stakes in enumerate([(Decimal(10), Decimal(5)), (hold.BIG, Decimal(5)), (Decimal(20), Decimal(1))]):
        data.add(coup(*stakes), 8, None, None, None, (n, 0, 0, None, None))
    (b,) = data.buckets.values()
    assert data.too_large == 1 and b.coups == 3
    assert b.handle == {"banker": Decimal(30), "player": Decimal(6)}
    assert b.moments == {("banker", "banker"): Decimal(500), ("banker", "player"): Decimal(70),
                         ("player", "player"): Decimal(26)}
    assert b.net == {"": Decimal(30) + hold.BIG}  # what was settled still counts to the house


# ------------------------------------------------------------------ days and shifts


STARTS = hold.shift_starts(["06:00", "14:00", "22:00"])
NAMES = hold.shift_names(STARTS)


def quarter(text: str):
    when = dt.datetime.fromisoformat(text)
    off = when.utcoffset()
    if off is None:
        return int((when - dt.datetime(1970, 1, 1)).total_seconds()) // 900, hold.NAIVE
    return int(when.timestamp()) // 900, int(off.total_seconds()) // 60


@pytest.mark.parametrize("at, zone, day, shift", [
    ("2026-11-03T02:00:00-05:00", None, "2026-11-02", "22:00-06:00"),  # before the first shift: the day before's
    ("2026-11-03T06:00:00-05:00", None, "2026-11-03", "06:00-14:00"),
    ("2026-11-03T13:59:59-05:00", None, "2026-11-03", "06:00-14:00"),
    ("2026-11-03T22:15:00-05:00", None, "2026-11-03", "22:00-06:00"),
    ("2026-11-03T12:00:00+00:00", "America/New_York", "2026-11-03", "06:00-14:00"),  # 07:00 in New York
    ("2026-11-03T04:00:00+00:00", "America/New_York", "2026-11-02", "22:00-06:00"),  # 23:00 the day before
    ("2026-11-03T14:30:00", "America/New_York", "2026-11-03", "14:00-22:00"),  # no offset: the table's own clock
])
def test_a_coup_belongs_to_the_gaming_day_and_shift_its_time_falls_in(at, zone, day, shift):
    from zoneinfo import ZoneInfo

    q, z = quarter(at)
    assert hold.day_and_shift(q, z, STARTS, NAMES, ZoneInfo(zone) if zone else None) == (day, shift)
    assert hold.day_and_shift(q, z, [], [], None)[1] is None  # no shifts configured: the day is one


@pytest.mark.parametrize("text, words", [
    ('shifts: ["6:00"]', "HH:MM"), ('shifts: ["06:10"]', "quarter"), ('shifts: ["06:00", "06:00"]', "twice"),
    ("time-zone: Mars/Olympus", "no time zone"),
])
def test_a_wrong_shift_or_time_zone_in_the_configuration_is_said_at_its_line(tmp_path, text, words):
    from compliance import config

    path = tmp_path / ".baccarat-audit.yaml"
    path.write_text("fail-on: error\n" + text + "\n")
    with pytest.raises(UserError) as e:
        config.read_file(path)
    assert words in str(e.value) and ":2:" in str(e.value)


# ------------------------------------------------------------------ a simulated month


def night(tmp_path, table: str, coups: int, seed: int, **inject) -> str:
    sim = Simulator(NJ, coups=coups, seed=seed, table_id=table, dealers=3, seats=7,
                    start=dt.datetime(2026, 11, 1, 6, 0, tzinfo=dt.timezone(dt.timedelta(hours=-5))), **inject)
    path = tmp_path / f"{table}.json"
    with open(path, "wb") as f:
        write_transcript(sim, f)
    return str(path)


def hold_of(paths: list[str], **context):
    checker = Checker(RunContext(**context), judge=False)
    results = [checker.check_file(p) for p in paths]
    from compliance.engine import judge_run

    judge_run(results, checker.context)
    findings = [f for r in results for f in r.findings if f.category == "integrity.hold"]
    return results[0].integrity.hold_view, findings


SHIFTS = dict(shifts=("06:00", "14:00", "22:00"), time_zone="America/New_York")


@pytest.mark.slow
def test_short_payouts_at_one_table_in_one_shift_are_found_there_and_nowhere_else(tmp_path):
    paths = [night(tmp_path, "T1", 12_000, 1), night(tmp_path, "T3", 12_000, 3),
             night(tmp_path, "T2", 12_000, 2, inject={"integrity.settlement-drift:house": 1.0},
                   during=(14 * 60, 22 * 60))]
    view, findings = hold_of(paths, **SHIFTS)
    flagged = {(g.kind, g.table, g.shift, g.day, g.dealer) for g in view.groups if g.flagged}
    assert ("table-shift", "T2", "14:00-22:00", None, None) in flagged
    assert all(table == "T2" or dealer is not None for _, table, _, _, dealer in flagged)
    assert all(shift in (None, "14:00-22:00") for _, _, shift, _, _ in flagged)
    assert {f.message.split(": hold")[0] for f in findings} >= {"table T2, shift 14:00-22:00"}
    assert all(g.direction == "toward the house" for g in view.groups if g.flagged)
    assert all(f.severity == "info" and f.staff == () for f in findings if not f.message.startswith("dealer"))


def test_an_honest_run_lists_its_groups_and_raises_nothing(tmp_path):
    paths = [night(tmp_path, "T1", 700, 11), night(tmp_path, "T2", 700, 12)]
    view, findings = hold_of(paths, **SHIFTS)
    assert findings == []
    kinds = {g.kind for g in view.groups}
    assert kinds == {"table", "table-shift", "table-day", "dealer", "day"}
    assert view.shifts == ("06:00-14:00", "14:00-22:00", "22:00-06:00")
    assert all(g.low <= g.theoretical_hold <= g.high for g in view.groups)
    assert all(g.outside == (not g.low <= g.hold <= g.high) for g in view.groups if g.judged)
    assert all(not g.outside for g in view.groups if g.coups < 200)  # too few coups to judge


def test_a_record_without_wagers_is_listed_as_not_judged(tmp_path):
    from builders import dealt_by_the_rules, transcript

    path = tmp_path / "cards.json"
    doc = transcript(dealt_by_the_rules(["9S", "2H", "3C", "4D"] * 10, wagers=()))
    path.write_text(json.dumps(doc))
    view, findings = hold_of([str(path)])
    assert view.groups == [] and findings == []
    assert view.not_judged and "not recorded" in view.not_judged[0][1]


def test_every_format_reports_the_hold_and_the_json_is_the_schema_s(tmp_path, monkeypatch):
    from reporting import run

    paths = [night(tmp_path, "T1", 400, 21), night(tmp_path, "T2", 400, 22)]
    (tmp_path / ".baccarat-audit.yaml").write_text('shifts: ["06:00", "14:00", "22:00"]\ntime-zone: '
                                                   "America/New_York\n")
    monkeypatch.chdir(tmp_path)
    out = {fmt: tmp_path / f"r.{ext}" for fmt, ext in (("json", "json"), ("markdown", "md"), ("html", "html"),
                                                      ("text", "txt"))}
    args = [a for fmt, path in out.items() for a in ("-o", f"{fmt}={path}")]
    assert run("check", *paths, *args, "--timestamp", "2026-11-29T00:00:00Z").exit_code in (0, 1)  # (validated)
    doc = json.loads(out["json"].read_text())
    h = doc["hold"]
    assert h["shifts"] == ["06:00-14:00", "14:00-22:00", "22:00-06:00"] and h["time_zone"] == "America/New_York"
    table = next(g for g in h["groups"] if g["kind"] == "table" and g["table"] == "T1")
    assert Decimal(table["handle"]) == sum(Decimal(v) for v in table["handle_by_spot"].values())
    assert "#### Hold against theory" in out["markdown"].read_text()
    assert '<h2 id="hold">' in out["html"].read_text() and 'class="hold-bands"' in out["html"].read_text()
    lines = [line for line in out["text"].read_text().splitlines() if line.startswith("hold against theory")]
    assert len(lines) == 1 and "groups" in lines[0]
    # a run that does not select the rule reports no hold
    assert run("check", *paths, "--ignore", "BAC-HOLD", "-o", f"json={out['json']}").exit_code in (0, 1)
    assert "hold" not in json.loads(out["json"].read_text())
