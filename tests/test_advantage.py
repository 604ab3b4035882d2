"""Advantage play: a patron whose side wagers follow the cards left in the shoe (integrity.advantage-play,
PA-ADVANTAGE-PLAY; docs/integrity.md).

Late in some shoes the Dragon 7 and Panda 8 wagers favour the patron.  The
patron's edge is worked out exactly from the cards left (checked here against
a plain enumeration of every deal), and coup by coup by the effect-of-removal
count.  A simulated counter (``integrity.advantage-play@RATE``) is found, with
the coups and the expected gain; blind play is not; a wager whose patron is
not named, or a coup after one whose cards are not all known, is not judged.
"""

from __future__ import annotations

import itertools
import json
import random
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reporting import run
from test_patrons import checked
from test_patrons import night as patrons_night

from compliance.cards import DECK, POINTS
from compliance.games.baccarat import analyze, edges
from compliance.games.baccarat.conditions import Facts
from compliance.games.baccarat.odds import tableau_key
from compliance.games.baccarat.simulate import Simulator
from compliance.games.baccarat.spots import CARD_VIEW, COLOUR, table_spots
from compliance.games.common import money
from compliance.ruleset.loader import load_ruleset
from compliance.stats import hypergeometric_upper

RULE = "PA-ADVANTAGE-PLAY"
PA = load_ruleset("us-pa")
EZ = table_spots(PA.game.spots_for("ez_baccarat"))
TABLEAU = PA.game.tableau
NATURALS = frozenset(TABLEAU.naturals)


def back(spot: str):
    return edges.returns(EZ[spot], NATURALS)


def plain_dragon_7(left: list[int]) -> Fraction:
    """The Dragon 7 wager's edge (40 to 1 on a three-card Banker 7 that wins), by dealing every sequence of six
    point values the shoe ``left`` allows, each weighed by its ways, and playing it by the tableau as written."""
    rows = TABLEAU.banker_draws_on_player_third_card
    win = total = 0

    def deal(cards: list[int], ways: int) -> None:
        nonlocal win, total
        if len(cards) == 6:
            total += ways
            p, b = (cards[0] + cards[2]) % 10, (cards[1] + cards[3]) % 10
            if p in NATURALS or b in NATURALS:
                return
            rest = cards[4:]
            if p in TABLEAU.player_draws:
                third = rest.pop(0)
                p = (p + third) % 10
                if rows[b][third] == "D":
                    b = (b + rest[0]) % 10
                    win += ways * (b == 7 and b > p)
            elif b in TABLEAU.banker_draws_when_player_stood:
                b = (b + rest[0]) % 10
                win += ways * (b == 7 and b > p)
            return
        for v in range(10):
            if left[v]:
                left[v] -= 1
                deal(cards + [v], ways * (left[v] + 1))
                left[v] += 1

    deal([], 1)
    return Fraction(41 * win, total) - 1


@pytest.mark.parametrize("left", [
    [3, 1, 1, 1, 1, 1, 1, 1, 0, 0],  # no 8 or 9 left: the Dragon 7 favours the patron
    [4, 1, 0, 0, 2, 1, 1, 1, 0, 1],
    [2, 0, 2, 1, 0, 0, 1, 3, 1, 0],
    [3, 1, 1, 1, 0, 1, 0, 1, 1, 1],
])
def test_the_exact_edge_of_dragon_7_equals_the_plain_enumeration_of_the_cards_left(left):
    assert edges.exact_edge(TABLEAU, back("dragon_7"), left) == plain_dragon_7(list(left))


def test_the_exact_edges_of_a_full_shoe_are_the_published_ones_and_the_count_is_exact_one_card_away():
    """8 decks: Dragon 7 7.6113% and Panda 8 10.1876% to the house; the count is exact for the full shoe and for
    the full shoe less any one card, and short of 8s and 9s it says the Dragon 7 favours the patron."""
    full = edges.full_shoe(8)
    d7 = edges.exact_edge(TABLEAU, back("dragon_7"), full)
    assert round(float(d7) * 100, 4) == -7.6113
    assert round(float(edges.exact_edge(TABLEAU, back("panda_8"), full)) * 100, 4) == -10.1876
    count = edges.removal_count(TABLEAU, back("dragon_7"), 8)
    assert abs(count.estimate(full) - float(d7)) < 1e-12
    for v in (0, 4, 9):
        less = list(full)
        less[v] -= 1
        assert abs(count.estimate(less) - float(edges.exact_edge(TABLEAU, back("dragon_7"), less))) < 1e-12
    short = [96, 24, 24, 24, 20, 20, 20, 20, 4, 4]  # late in a shoe that dealt its 8s and 9s
    assert count.estimate(short) > 0 and edges.exact_edge(TABLEAU, back("dragon_7"), short) > 0
    assert edges.exact_edge(TABLEAU, back("dragon_7"), [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]) is None  # five cards: no coup


@pytest.mark.parametrize("spot", ["dragon_7", "panda_8"])
@pytest.mark.parametrize("left", [edges.full_shoe(8), edges.full_shoe(1), (3, 1, 1, 1, 1, 1, 1, 1, 0, 2)])
def test_one_walk_gives_the_exact_edge_of_the_shoe_and_of_the_shoe_less_each_card(spot, left):
    """The count's effects of removal come from one walk (each end's ways, and its ways times each value's cards
    in the deal): the same fractions as walking the shoe less each value's card on its own."""
    key = tableau_key(TABLEAU)
    edge, less = edges.removals(key, back(spot), left)
    assert edge == edges.exact_edge(TABLEAU, back(spot), left)
    for v in range(10):
        fewer = list(left)
        fewer[v] -= 1
        assert less[v] == (edges.exact_edge(TABLEAU, back(spot), fewer) if left[v] else None), v


def test_the_hypergeometric_tail_is_exact_and_its_false_alarm_rate_is_at_most_its_level():
    """Placement blind to the cards: of T chances F favourable, n wagers taken at random; the tail is the exact
    sum, and it is at most the level that often (discrete, so less)."""
    from math import comb
    assert hypergeometric_upper(3, 10, 4, 5) == pytest.approx(
        sum(comb(4, j) * comb(6, 5 - j) for j in range(3, 5)) / comb(10, 5), rel=1e-12)
    assert hypergeometric_upper(0, 10, 4, 5) == 1.0 and hypergeometric_upper(5, 10, 4, 5) == 0.0
    tiny = hypergeometric_upper(400, 3000, 400, 400)  # every wager on the favourable coups: too small for a double
    assert isinstance(tiny, Fraction) and tiny == Fraction(1, comb(3000, 400))
    rng = random.Random(30)
    for level in (0.05, 0.01):
        trials, flagged = 3000, 0
        for _ in range(trials):
            t = rng.randrange(20, 200)
            f = rng.randrange(1, t // 3)
            n = rng.randrange(1, t // 2)
            marked = set(rng.sample(range(t), f))
            x = sum(i in marked for i in rng.sample(range(t), n))
            flagged += hypergeometric_upper(x, t, f, n) <= level
        assert flagged / trials <= level + 3 * (level * (1 - level) / trials) ** 0.5, level


# ------------------------------------------------------------------ spots settled by the first two cards (pairs)

PAIRS = {**table_spots(PA.game.spots_for("midi_baccarat")), **table_spots(PA.game.spots_for("mini_baccarat"))}
PAIR_SPOTS = ("perfect_pairs_player", "perfect_pairs_banker", "house_money")


def plain_pair_edge(spot, left: list[int]) -> Fraction:
    """A pair wager's edge by dealing every ordered four first cards (Player, Banker, Player, Banker) the shoe
    ``left`` (cards of each kind, DECK's order) allows, each weighed by its ways, settled by the spot's own
    paytable on the real cards."""
    kinds = [k for k in range(52) if left[k]]
    paid = total = 0
    for deal in itertools.product(kinds, repeat=4):
        rest, ways = list(left), 1
        for k in deal:
            ways *= rest[k]
            rest[k] -= 1
        if not ways:
            continue
        view = [CARD_VIEW[DECK[k]] for k in deal]
        rule = spot.paid_by(Facts(None, None, None, None, {"player": (view[0], view[2]),
                                                           "banker": (view[1], view[3])}))
        total += ways
        paid += ways * (0 if rule is None else 1 if rule.odds is None else 1 + Fraction(rule.odds))
    return Fraction(paid, total) - 1


def shoe_of(cards: dict[str, int]) -> list[int]:
    return [cards.get(code, 0) for code in DECK]


@pytest.mark.parametrize("name", PAIR_SPOTS)
@pytest.mark.parametrize("cards", [
    {"AS": 3, "AH": 1, "AC": 2, "KD": 2, "2S": 1},  # aces of three suits: perfect, coloured and mixed pairs
    {"7S": 2, "7C": 2, "7H": 2, "7D": 1, "QS": 1},  # all but one card one rank
    {"9H": 1, "9D": 1, "5S": 1, "5C": 1, "TD": 1, "JD": 1},  # one of each card: no perfect pair
    {"4S": 4, "8S": 4},
])
def test_the_exact_edge_of_a_pair_wager_equals_the_plain_enumeration_of_the_first_cards(name, cards):
    spot = PAIRS[name]
    assert edges.pair_edge(edges.pair_returns(spot), shoe_of(cards)) == plain_pair_edge(spot, shoe_of(cards))


@settings(max_examples=25, deadline=None)
@given(st.dictionaries(st.sampled_from(DECK[:2] + DECK[13:15] + DECK[26:28] + DECK[39:41] + ("QS", "QH")),
                       st.integers(1, 3), min_size=2, max_size=7).filter(lambda d: sum(d.values()) >= 4),
       st.sampled_from(PAIR_SPOTS))
def test_the_exact_edge_of_a_pair_wager_holds_for_any_shoe_left(cards, name):
    """Shoes left of a few ranks in every suit: the closed form against the enumeration, to the fraction."""
    spot = PAIRS[name]
    assert edges.pair_edge(edges.pair_returns(spot), shoe_of(cards)) == plain_pair_edge(spot, shoe_of(cards))


def test_a_full_shoe_gives_the_analysis_s_pair_edges_and_the_count_kept_card_by_card_is_exact():
    """8 decks: the Perfect Pairs and House Money edges of the exact analysis (its own count of the first four
    cards); then, dealing a shuffled shoe card by card, the kept count equals the edge worked out afresh."""
    outcomes = analyze.enumerate_shoe(TABLEAU, 8)
    rng = random.Random(29)
    for name in PAIR_SPOTS:
        back = edges.pair_returns(PAIRS[name])
        published = analyze.spot_edge(outcomes, name, PAIRS[name], NATURALS).per_coup
        assert edges.pair_edge(back, [8] * 52) == -published
        cards = list(range(52)) * 8
        rng.shuffle(cards)
        count, left = edges.PairCount(back, [8] * 52), [8] * 52
        for i, k in enumerate(cards[:-3]):
            count.remove(k)
            left[k] -= 1
            if i % 23 == 0 or len(cards) - i < 30:
                exact = edges.pair_edge(back, left)
                assert count.edge() == exact and count.favourable() == (exact is not None and exact > 0)
        assert edges.pair_edge(back, left) is None  # three cards: no coup
    assert round(float(edges.pair_edge(edges.pair_returns(PAIRS["perfect_pairs_player"]), [8] * 52)) * 100,
                 4) == -4.0964
    late = shoe_of({"AS": 4, "AH": 3, "KC": 2, "5D": 3, "9S": 2, "QH": 1, "3C": 2, "7D": 2})
    assert edges.pair_edge(edges.pair_returns(PAIRS["perfect_pairs_player"]), late) > 0  # a few ranks left


def midi_counter(tmp_path: Path, name: str, rate: float, **kw) -> tuple[Path, set[int], str]:
    """A simulated Midibaccarat night (us-pa) whose patrons play Perfect Pairs blindly, but for one: the patron
    at the first seat all night, whose Perfect Pairs (Player) wagers, and those alone, fall where the cards out
    of the shoe favour them, at ``rate`` of such coups.  (path, the coups of the counter's wagers, the counter)."""
    path, _ = patrons_night(tmp_path, name, game="midi_baccarat", **kw)
    lines = path.read_text().splitlines()
    coups = [json.loads(line) for line in lines[1:]]
    seat, who = "1", "P-COUNTER"
    back = edges.pair_returns(PAIRS["perfect_pairs_player"])
    rng = random.Random(7)
    out: dict[str, list[int]] = {}
    placed = set()
    for c in coups:
        c.setdefault("seated", {})[seat] = who
        c["events"] = [e for e in c["events"] if not (str(e.get("seat")) == seat and e.get("spot", "").startswith(
            "perfect_pairs"))]
        left = [8 - k for k in out.get(c["shoe"], [0] * 52)]
        edge = edges.pair_edge(back, left)
        dealt = [e for e in c["events"] if e["type"] == "card"]
        if edge is not None and edge > 0 and rng.random() < rate:
            player = [e["card"] for e in dealt if e["to"] == "player"][:2]
            pair = player[0][0] == player[1][0]
            suited, same_colour = player[0] == player[1], COLOUR[player[0][1]] == COLOUR[player[1][1]]
            odds = 25 if suited else 12 if pair and same_colour else 6 if pair else 0
            at = next(i for i, e in enumerate(c["events"]) if e["type"] == "announce")
            c["events"].insert(at, {"type": "wager", "seat": int(seat), "spot": "perfect_pairs_player", "amount": 50})
            c["events"].append({"type": "settle", "seat": int(seat), "spot": "perfect_pairs_player",
                                "outcome": "win" if odds else "lose", "amount": 50 * odds if odds else 50})
            placed.add(c["coup"])
        for e in dealt:
            out.setdefault(c["shoe"], [0] * 52)[DECK.index(e["card"])] += 1
    path.write_text("\n".join([lines[0]] + [json.dumps(c) for c in coups]) + "\n")
    return path, placed, who


def test_a_patron_who_wagers_on_pairs_where_the_cards_favour_them_is_found_and_blind_pair_wagers_are_not(tmp_path):
    path, placed, who = midi_counter(tmp_path, "pairs", 1.0, coups=700, seed=4, seats=4)
    result = checked(path)
    (finding,) = [f for f in result.findings if f.rule == RULE]
    assert finding.message.startswith(f"patron {who}: side wagers that follow the cards left in the shoe")
    assert "perfect_pairs_player wagers fell at the" in finding.message and finding.coup in placed
    assert finding.money.patron == who and finding.money.sums == len(placed) >= 10
    assert finding.money.paid > 0 > finding.money.expected
    assert finding.citation.startswith("58 Pa. Code § 629b.1")
    # the same night's other patrons wager on Perfect Pairs blindly: no finding; nor a night of blind play alone
    assert {f.money.patron for f in result.findings if f.rule == RULE} == {who}
    fair, _ = patrons_night(tmp_path, "blind", game="midi_baccarat", coups=700, seed=4, seats=4)
    assert not [f for f in checked(fair).findings if f.rule == RULE]
    # a card recorded without its suit: which cards are left is not known to a pair, from the next coup on
    lines = path.read_text().splitlines()
    coups = [json.loads(line) for line in lines[1:]]
    card = next(e for e in coups[9]["events"] if e["type"] == "card" and e["to"] == "player")
    card["card"] = card["card"][0] + "?"
    path.write_text("\n".join([lines[0]] + [json.dumps(c) for c in coups]) + "\n")
    shoe = coups[9]["shoe"]
    assert checked(path).not_judged[(RULE, ("cards",))] >= sum(1 for c in coups[10:] if c["shoe"] == shoe)


def night(tmp_path: Path, name: str, **kw) -> tuple[Path, Simulator]:
    return patrons_night(tmp_path, name, game="ez_baccarat", **kw)


def test_a_patron_who_plays_the_count_is_found_with_the_coups_and_the_expected_gain(tmp_path):
    path, sim = night(tmp_path, "counter", coups=200, seed=3, seats=3, inject={"integrity.advantage-play": 1.0})
    (made,) = [i for i in sim.integrity if i.category == "integrity.advantage-play"]
    result = checked(path)
    (finding,) = [f for f in result.findings if f.rule == RULE]
    assert finding.category == "integrity.advantage-play" and finding.severity == "warning"
    assert finding.message.startswith(f"patron {made.patron}: side wagers that follow the cards left in the shoe")
    wagered = {n for n, _, _ in made.wagered}
    # the finding is the patron's: no dealer is marked for it (the deciding coup's dealer did nothing)
    assert finding.coup in wagered and finding.dealer is None and not finding.staff
    assert f"favourable wagers in coups {min(wagered)}," in finding.message
    m = finding.money
    found = {spot for spot in ("dragon_7", "panda_8") if any(spot in st.statistic for st in finding.statistics)}
    assert found and m.patron == made.patron and m.paid > 0 > m.expected
    assert m.sums == len([w for w in made.wagered if w[1] in found])  # the patron's wagers on the spots found
    assert f"an expected gain of {money(m.paid - m.expected)} from the cards" in finding.message
    assert {s.group for s in finding.statistics} == {f"patron {made.patron}"}
    assert all("hypergeometric" in s.test for s in finding.statistics)
    # its expected value: each wager times the exact edge at the cards out of its shoe before its coup, summed
    coups = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    seat = next(int(s) for s, who in coups[0]["seated"].items() if who == made.patron)
    out: dict[str, list[int]] = {}
    value = blind = Fraction(0)
    for c in coups:
        left = [n - k for n, k in zip(edges.full_shoe(8), out.get(c["shoe"], [0] * 10))]
        for e in c["events"]:
            if e["type"] == "wager" and e.get("seat") == seat and e["spot"] in found:
                value += Fraction(Decimal(str(e["amount"]))) * edges.exact_edge(TABLEAU, back(e["spot"]), left)
                blind += Fraction(Decimal(str(e["amount"]))) * edges.exact_edge(TABLEAU, back(e["spot"]),
                                                                                 edges.full_shoe(8))
        for e in c["events"]:
            if e["type"] == "card":
                out.setdefault(c["shoe"], [0] * 10)[POINTS[e["card"]]] += 1
    assert m.paid == round(Decimal(value.numerator) / value.denominator, 2)
    assert m.expected == round(Decimal(blind.numerator) / blind.denominator, 2)
    r = run("simulate", "-r", "us-pa", "--game", "ez_baccarat", "-n", "100", "--seats", "3", "--seed", "3",
            "-o", str(tmp_path / "s.json"), "--inject", "integrity.advantage-play@1")
    assert r.exit_code == 0, r.stderr
    listed = json.loads((tmp_path / "s.json.injected.json").read_text())
    (entry,) = [i for i in listed["integrity"] if i["category"] == "integrity.advantage-play"]
    assert entry["patron"].startswith("P-") and entry["wagered"][0]["dealer"].startswith("D-")
    assert {w["spot"] for w in entry["wagered"]} <= {"dragon_7", "panda_8"}


def test_a_fair_night_raises_no_advantage_play_and_judges_every_coup(tmp_path):
    path, _ = night(tmp_path, "fair", coups=600, seed=5, dealers=4)
    result = checked(path)
    assert [f for f in result.findings if f.rule == RULE] == []
    assert not [key for key in result.not_judged if key[0] == RULE]


def test_without_the_patrons_or_a_coup_s_cards_recorded_the_rule_is_not_judged_there(tmp_path):
    path, _ = night(tmp_path, "no-patrons", coups=120, seed=2, seats=3)
    lines = path.read_text().splitlines()
    coups = [json.loads(line) for line in lines[1:]]
    # coups with a seat's wager (a patron present, not named) and no standing patron's (a coup the test took for a
    # named patron is not also counted not judged)
    with_wagers = sum(1 for c in coups
                      if any(e["type"] == "wager" and "seat" in e for e in c["events"])
                      and not any(e["type"] == "wager" and "seat" not in e for e in c["events"]))
    for c in coups:
        c.pop("seated", None)  # the seats' wagers, with no patron named at them
    path.write_text("\n".join([lines[0]] + [json.dumps(c) for c in coups]) + "\n")
    result = checked(path)
    assert result.not_judged[(RULE, ("patrons",))] == with_wagers > 60
    words = run("check", str(path)).stdout
    assert f"not judged {RULE}" in words and "patrons not recorded" in words
    # a card not read (??) in coup 10: the shoe left is not known from the coup after it to the shoe's end
    path, _ = night(tmp_path, "unread", coups=120, seed=2, seats=3)
    lines = path.read_text().splitlines()
    coups = [json.loads(line) for line in lines[1:]]
    card = next(e for e in coups[9]["events"] if e["type"] == "card" and e["to"] == "player")
    card["card"] = "??"
    path.write_text("\n".join([lines[0]] + [json.dumps(c) for c in coups]) + "\n")
    result = checked(path)
    shoe = coups[9]["shoe"]
    later = [c for c in coups[10:] if c["shoe"] == shoe  # coups with a patron present: seated, or wagering
             and (c.get("seated") or any(e["type"] == "wager" for e in c["events"]))]
    assert result.not_judged[(RULE, ("cards",))] == len(later) > 20
    # coup 10 recorded with its result but none of its cards (BAC-DEAL-ORDER's finding): likewise
    path, _ = night(tmp_path, "uncaptured", coups=120, seed=2, seats=3)
    lines = path.read_text().splitlines()
    coups = [json.loads(line) for line in lines[1:]]
    coups[9]["events"] = [e for e in coups[9]["events"] if e["type"] != "card"]
    path.write_text("\n".join([lines[0]] + [json.dumps(c) for c in coups]) + "\n")
    result = checked(path)
    assert any(f.rule == "BAC-DEAL-ORDER" and f.coup == coups[9]["coup"] for f in result.findings)
    assert result.not_judged[(RULE, ("cards",))] == len(later)
    # the dealer is not needed: the patron's play is judged whoever dealt (the collusion rule is not judged there)
    path, _ = night(tmp_path, "no-dealers", coups=200, seed=3, seats=3, inject={"integrity.advantage-play": 1.0})
    header = json.loads(path.read_text().splitlines()[0])
    header.pop("staff")
    rest = path.read_text().splitlines()[1:]
    path.write_text("\n".join([json.dumps(header)] + rest) + "\n")
    result = checked(path)
    (finding,) = [f for f in result.findings if f.rule == RULE]
    assert finding.dealer is None and ("BAC-COLLUSION", ("dealers",)) in result.not_judged


@pytest.mark.slow
def test_twenty_thousand_ez_baccarat_coups_with_four_dealers_each_injection_found_and_a_fair_night_clean(tmp_path):
    """The issue's night: 20,000 EZ Baccarat coups (us-pa), four dealers.  Collusion found under its injection,
    advantage play under its own, and a fair night of the same size raises neither."""
    path, sim = night(tmp_path, "collusion", coups=20000, seed=11, dealers=4,
                      inject={"integrity.collusion:patron": 0.05, "settlement.wrong-amount": 0.01})
    found = {f.rule for f in checked(path).findings}
    assert "BAC-COLLUSION" in found and RULE not in found
    path, sim = night(tmp_path, "counter", coups=20000, seed=11, dealers=4,
                      inject={"integrity.advantage-play": 0.1})
    found = [f for f in checked(path).findings if f.rule in (RULE, "BAC-COLLUSION")]
    (made,) = [i for i in sim.integrity if i.category == "integrity.advantage-play"]
    assert [f.rule for f in found] == [RULE] and found[0].money.patron == made.patron
    path, _ = night(tmp_path, "fair", coups=20000, seed=11, dealers=4, inject={"settlement.wrong-amount": 0.01})
    result = checked(path)
    assert not [f for f in result.findings if f.rule in (RULE, "BAC-COLLUSION")]
    assert not [key for key in result.not_judged if key[0] in (RULE, "BAC-COLLUSION")]


@pytest.mark.slow
def test_a_night_cut_into_chunks_gives_the_finding_of_one_pass(tmp_path, monkeypatch):
    """Under -j each chunk keeps its patrons' chances; joined, the shoes left and the tests are those of one pass."""
    from test_parallel import _chunked, _one_pass, _same
    path, _ = night(tmp_path, "chunked", coups=400, seed=3, seats=3, inject={"integrity.advantage-play": 1.0})
    chunked, accepted = _chunked(path, monkeypatch, chunk_bytes=60_000)
    assert accepted and accepted[0][0] >= 2 and accepted[0][1], "the night was cut, and every cut exact"
    one = _one_pass(path)
    assert [f.rule for f in one.findings if f.rule == RULE] == [RULE]
    _same(chunked, one)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.randoms(use_true_random=False), st.sets(st.integers(0, 120), max_size=3),
       st.sampled_from([None, 52, "??"]))
def test_the_count_kept_card_by_card_calls_each_coup_as_the_count_worked_out_afresh(decks, rnd, gaps, spoil):
    """The judge's one pass over a shoe (the count's sum kept card by card) gives each coup's shoe left, depth
    band and favourable flag exactly as the count worked out again from the shoe left before each coup, up to a
    shoe's last cards, gaps, a card read in part and more copies of a card than the shoe holds."""
    from compliance.games.baccarat.integrity import advantage, collect
    from compliance.games.baccarat.integrity.judge import _POINTS

    shoe = [b for b in range(52) for _ in range(decks)]
    rnd.shuffle(shoe)
    if spoil == 52:  # a card the shoe holds no more of: the shoe left is not known from there
        shoe.insert(rnd.randrange(len(shoe)), shoe[0])
    elif spoil == "??":  # a card read in part (its value only)
        shoe[rnd.randrange(len(shoe))] = collect.CARD_BYTE["0?"]
    record = collect.ShoeRecord("S", decks)
    place = 0
    while place < len(shoe) + 6:
        place += rnd.choice((4, 5, 6))
        record.cards = bytearray(shoe[:place])
        record.ends.append(min(place, len(shoe) + 3))
    record.cards = bytearray(shoe)
    counts = [edges.removal_count(TABLEAU, back(spot), decks) for spot in ("dragon_7", "panda_8")]
    lefts, goods, bands = advantage.walk(record, gaps, _POINTS, counts)
    assert lefts == advantage.lefts(record, gaps, _POINTS)
    for count, good in zip(counts, goods, strict=True):
        assert good == advantage.favourable(count, lefts)
    assert bytes(bands) == bytes(0 if left is None else min(255, (52 * decks - sum(left)) // advantage.BAND)
                                 for left in lefts)
