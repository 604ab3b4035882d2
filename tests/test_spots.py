"""Wager spots as data: side wagers, EZ Baccarat, commission-free games and transcript format 1.1.

A ruleset declares the spots a table offers, each settled by condition kinds
(``win``, ``tie``, ``pair``); settlement, limits, requirements and the exact
analysis all read that declaration.  The payouts below are written out by
hand, independently of the rulesets and of the condition kinds, as the
Pennsylvania code and the published side-wager tables give them.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest
from builders import check, dumps, play, total, winner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compliance.cards import DECK
from compliance.errors import UserError
from compliance.games.baccarat.analyze import analyze, decimal, first_four
from compliance.ruleset.loader import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
TOTAL_8_DECKS = 4_998_398_275_503_360  # six-card permutations of an eight-deck shoe


@pytest.fixture(scope="module")
def pa():
    return load_ruleset("us-pa")


def edges(ruleset, game: str, decks: int = 8) -> dict:
    return {e.spot: e for e in analyze(ruleset.game.tableau, ruleset.game.spots_for(game), decks).edges}


def percent(x: Fraction) -> str:
    return str(decimal(x * 100, 4))


# ------------------------------------------------------------------ exact odds, to the integer


def test_dragon_7_at_40_to_1_and_panda_8_at_25_to_1_counted_deal_by_deal(pa):
    e = edges(pa, "ez_baccarat")
    dragon, panda = e["dragon_7"], e["panda_8"]
    assert dragon.counts == {"win": 112_633_011_329_024, "push": 0, "lose": TOTAL_8_DECKS - 112_633_011_329_024}
    assert panda.counts == {"win": 172_660_763_262_976, "push": 0, "lose": TOTAL_8_DECKS - 172_660_763_262_976}
    assert dragon.per_coup == 1 - Fraction(41 * 112_633_011_329_024, TOTAL_8_DECKS)
    assert percent(dragon.per_coup) == "7.6113"
    assert percent(panda.per_coup) == "10.1876"


def test_ez_baccarat_banker_wager_pushes_on_a_dragon_7_and_takes_no_commission(pa):
    e = edges(pa, "ez_baccarat")
    banker = e["banker"]
    assert percent(banker.per_coup) == "1.0183"
    assert banker.counts["push"] == 475_627_426_473_216 + 112_633_011_329_024  # the ties and the Dragon 7s
    player_wins = e["player"].counts["win"]
    assert banker.per_coup == Fraction(player_wins - banker.counts["win"], TOTAL_8_DECKS)  # paid 1 to 1, no commission


def test_commission_free_banker_win_on_six_pays_half(pa):
    banker = edges(pa, "commission_free")["banker"]
    [six] = [n for words, odds, n in banker.rows if odds == Decimal("0.5")]
    assert banker.per_coup == Fraction(banker.counts["lose"] - (banker.counts["win"] - six), TOTAL_8_DECKS) \
        - Fraction(six, 2 * TOTAL_8_DECKS)


@pytest.fixture(scope="module")
def side(tmp_path_factory):
    """Every side wager the condition kinds can declare, on a punto banco table (Dragon Bonus, pairs)."""
    path = tmp_path_factory.mktemp("rulesets") / "side.yaml"
    rows = "\n".join(f"        by_{m}: {{when: {{kind: win, hand: HAND, margin: {m}, natural: false}}, odds: {o}}}"
                     for m, o in ((9, 30), (8, 10), (7, 6), (6, 4), (5, 2), (4, 1)))
    bonus = """      pushes: {natural_tie: {kind: tie, natural: true}}
      pays:
        natural: {when: {kind: win, hand: HAND, natural: true}, odds: 1}
""" + rows
    path.write_text(f"""id: side-wagers
title: Side wagers
version: "1"
extends: {ROOT / 'rulesets' / 'punto-banco.yaml'}
abstract: true
game:
  spots:
    player_pair: {{wins: {{kind: pair, hand: player}}, odds: 11, requires: {{wager_on: [player, banker]}}}}
    either_pair: {{wins: {{kind: pair, hand: either}}, odds: 5}}
    dragon_bonus_player:
{bonus.replace('HAND', 'player')}
    dragon_bonus_banker:
{bonus.replace('HAND', 'banker')}
""", encoding="utf-8")
    return load_ruleset(str(path), allow_abstract=True)


def test_player_pair_at_11_to_1(side):
    pair = edges(side, "punto_banco")["player_pair"]
    assert pair.counts["win"] == TOTAL_8_DECKS * 31 // 415  # the second card matches the first's rank: 31 of 415
    assert pair.per_coup == 1 - Fraction(12 * 31, 415)
    assert percent(pair.per_coup) == "10.3614"


def test_either_pair_counts_both_hands_together(side):
    either = edges(side, "punto_banco")["either_pair"]
    # P(no pair in either hand) worked out by hand: first the Player's two cards, then the Banker's
    n, same = 416, 32
    player_no = Fraction(n - same, n - 1)
    # the Banker's two from 414 cards after an unpaired Player: their ranks hold 31+31 cards, the other 352 ranks 32 each
    banker_no = 1 - (Fraction(2 * 31, 414) * Fraction(30, 413) + Fraction(352, 414) * Fraction(31, 413))
    assert Fraction(either.counts["lose"], TOTAL_8_DECKS) == player_no * banker_no


# Wizard of Odds, "Baccarat", appendix 5: the Dragon Bonus for eight decks, deal by deal
DRAGON_BONUS = {
    "player": [89_325_908_267_520, 812_685_054_124_032, 18_409_431_764_992, 34_097_645_543_424, 89_590_261_473_280,
               141_238_897_317_888, 166_169_165_987_840, 186_780_352_174_080],
    "banker": [89_325_908_267_520, 812_685_054_124_032, 15_390_342_909_952, 28_305_092_784_128, 79_517_099_278_336,
               119_200_072_366_080, 157_275_882_332_160, 201_147_167_287_296],
}


@pytest.mark.parametrize("hand,edge", [("player", "2.6517"), ("banker", "9.3731")])
def test_dragon_bonus_natural_and_margin_rows_match_the_published_counts(side, hand, edge):
    bonus = edges(side, "punto_banco")[f"dragon_bonus_{hand}"]
    assert [n for _, _, n in bonus.rows[:-1]] == DRAGON_BONUS[hand]  # natural tie, natural win, by 9 ... by 4
    assert bonus.rows[0][0] == "a tie of naturals returns Dragon bonus player and Dragon bonus banker wagers"
    assert percent(bonus.per_coup) == edge


def test_perfect_pairs_paytable_counted_by_suit_and_colour(pa):
    e = edges(pa, "midi_baccarat")
    for hand in ("player", "banker"):
        rows = [n for _, _, n in e[f"perfect_pairs_{hand}"].rows]
        assert rows[:3] == [TOTAL_8_DECKS * 7 // 415, TOTAL_8_DECKS * 8 // 415, TOTAL_8_DECKS * 16 // 415]
        assert e[f"perfect_pairs_{hand}"].per_coup == Fraction(17, 415)  # 1 - (26*7 + 13*8 + 7*16) / 415


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_the_first_four_cards_are_every_ordered_deal_of_four(decks):
    deals = first_four(decks)
    assert sum(n for _, _, n in deals) == math.perm(52 * decks, 4)
    assert len(deals) < 1000  # labels, not cards: a few hundred steps


# ------------------------------------------------------------------ settlement, by hand


COLOUR = {"S": "black", "C": "black", "H": "red", "D": "red"}


def pays(game: str, spot: str, stake: Decimal, player: list[str], banker: list[str]) -> tuple[str, Decimal]:
    """What Pennsylvania pays a wager: written out by hand from the code's definitions (627a.1, 629b.1, 629b.2)."""
    p, b, w = total(player), total(banker), winner(player, banker)
    dragon_7 = w == "banker" and b == 7 and len(banker) == 3
    panda_8 = w == "player" and p == 8 and len(player) == 3
    if spot in ("player", "banker"):
        if w == "tie":
            return "push", Decimal(0)
        if w != spot:
            return "lose", stake
        if spot == "player":
            return "win", stake
        if game == "ez_baccarat":
            return ("push", Decimal(0)) if dragon_7 else ("win", stake)
        if game == "commission_free":
            return "win", stake / 2 if b == 6 else stake
        return "win", stake * Decimal("0.95")
    if spot == "tie":
        return ("win", stake * 8) if w == "tie" else ("lose", stake)
    if spot in ("dragon_7", "panda_8"):
        won, odds = (dragon_7, 40) if spot == "dragon_7" else (panda_8, 25)
        return ("win", stake * odds) if won else ("lose", stake)
    first = player[:2] if spot.endswith("player") else banker[:2]
    (r1, s1), (r2, s2) = first
    if r1 != r2:
        return "lose", stake
    odds = 25 if s1 == s2 else 12 if COLOUR[s1] == COLOUR[s2] else 6
    return "win", stake * odds


SPOTS = {"ez_baccarat": ["player", "banker", "tie", "dragon_7", "panda_8"],
         "midi_baccarat": ["player", "banker", "tie", "perfect_pairs_player", "perfect_pairs_banker"],
         "commission_free": ["player", "banker", "tie"],
         "mini_baccarat": ["player", "banker", "tie"]}


def table(game: str, coups: list[dict], **limits) -> dict:
    return {"format": "baccarat-transcript", "version": "1.1",
            "table": {"id": "PA-1", "jurisdiction": "us-pa", "game": game, "seats": 7,
                      "limits": {"min_wager": 5, "max_wager": 5000, **limits}},
            "shoes": [{"id": "S1", "decks": 8}], "coups": coups}


def dealt(number: int, player: list[str], banker: list[str], wagers, settlements) -> dict:
    events = [{"type": "wager", "seat": s, "spot": spot, "amount": a} for s, spot, a in wagers]
    events.append({"type": "announce", "call": "no_more_bets"})
    order = [("player", player[0]), ("banker", banker[0]), ("player", player[1]), ("banker", banker[1])]
    order += [("player", c) for c in player[2:]] + [("banker", c) for c in banker[2:]]
    events += [{"type": "card", "card": c, "to": to, "face": "up"} for to, c in order]
    events.append({"type": "result", "player_points": total(player), "banker_points": total(banker),
                   "winner": winner(player, banker)})
    events += [{"type": "settle", "seat": s, "spot": spot, "outcome": o, "amount": a} for s, spot, o, a in settlements]
    return {"coup": number, "shoe": "S1", "seated": {str(s): f"P-{s}" for s, _, _ in wagers}, "events": events}


SHUFFLED = st.permutations(list(DECK) * 2).map(lambda cards: cards[:6])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards=SHUFFLED, game=st.sampled_from(sorted(SPOTS)), stake=st.integers(5, 500), off=st.sampled_from([1, -1]))
def test_every_spot_is_settled_as_pennsylvania_pays_and_a_cent_off_is_found(cards, game, stake, off):
    player, banker = play(iter(cards + ["KS", "KS"]))
    main = "player" if stake % 2 else "banker"
    wagers = [(1, main, Decimal(stake))] + [(1, spot, Decimal(5)) for spot in SPOTS[game] if spot != main]
    settled = [(s, spot, *pays(game, spot, a, player, banker)) for s, spot, a in wagers]
    assert check(table(game, [dealt(1, player, banker, wagers, settled)])) == []
    k = stake % len(settled)
    seat, spot, outcome, amount = settled[k]
    wrong = amount + Decimal(off) / 100 if amount + Decimal(off) / 100 >= 0 else amount + Decimal("0.01")
    settled[k] = (seat, spot, outcome, wrong)
    [finding] = check(table(game, [dealt(1, player, banker, wagers, settled)]))
    assert finding.rule == "BAC-SETTLE-AMOUNT" and f"seat 1 {spot} wager" in finding.message


DRAGON_7 = (["3H", "2D", "9S"], ["2S", "AH", "4D"])  # Banker 7 on three cards beats Player 4
PANDA_8 = (["2C", "3C", "3H"], ["KS", "6D"])  # Player 8 on three cards beats Banker 6


def test_a_dragon_7_returns_the_ez_banker_wager_and_pays_the_dragon_7_wager_40_to_1():
    wagers = [(1, "banker", 100), (1, "dragon_7", 25)]
    right = [(1, "banker", "push", 0), (1, "dragon_7", "win", 1000)]
    assert check(table("ez_baccarat", [dealt(1, *DRAGON_7, wagers, right)])) == []
    [finding] = check(table("ez_baccarat", [dealt(1, *DRAGON_7, wagers, [(1, "banker", "win", 100), right[1]])]))
    assert finding.message == ("seat 1 banker wager of 100 should be push 0 (Banker winning with 7 on three cards "
                               "returns Banker wagers); it was settled win 100")


def test_a_losing_side_wager_says_what_the_coup_was():
    wagers = [(1, "player", 100), (1, "dragon_7", 25), (1, "panda_8", 25)]
    settled = [(1, "player", "win", 100), (1, "dragon_7", "win", 1000), (1, "panda_8", "win", 625)]
    [finding] = check(table("ez_baccarat", [dealt(1, *PANDA_8, wagers, settled)]))
    assert finding.message == ("seat 1 dragon_7 wager of 25 should be lose 25 (Player won 8 to 6 on three cards); "
                               "it was settled win 1,000")


# ------------------------------------------------------------------ what a spot requires, and its limits


def test_a_side_wager_needs_a_main_wager_beside_it_no_smaller_than_itself():
    lone = [(2, "dragon_7", 25)]
    found = check(table("ez_baccarat", [dealt(1, *DRAGON_7, lone, [(2, "dragon_7", "win", 1000)])]))
    assert [(f.rule, f.category) for f in found] == [("PA-SIDE-WAGER-REQUIREMENT", "wager.not-eligible")]
    assert "stands without a wager on Player or Banker beside it" in found[0].message
    big = [(2, "player", 50), (2, "panda_8", 60)]
    found = check(table("ez_baccarat", [dealt(1, *PANDA_8, big, [(2, "player", "win", 50), (2, "panda_8", "win", 1500)])]))
    assert [f.message for f in found] == [("seat 2 panda_8 wager of 60 is larger than the 50 wagered on Player or "
                                           "Banker beside it, its limit")]
    equal = [(2, "banker", 60), (2, "panda_8", 60)]
    assert check(table("ez_baccarat", [dealt(1, *PANDA_8, equal, [(2, "banker", "lose", 60), (2, "panda_8", "win", 1500)])])) == []


def test_a_side_wager_beside_a_main_wager_the_record_leaves_doubtful_is_not_judged_for_it():
    """A table system's log gave seat 2's Player wager twice with different amounts: the import writes neither
    (record.duplicate-row, keyed by the wager); whether the panda_8 wager beside it is within it is not known."""
    lone = [(2, "panda_8", 60)]
    doc = table("ez_baccarat", [dealt(1, *PANDA_8, lone, [(2, "panda_8", "win", 1500)])])
    assert [f.rule for f in check(doc)] == ["PA-SIDE-WAGER-REQUIREMENT"]
    doc["version"] = "1.1"
    doc["coups"][0]["record_faults"] = [{"fault": "duplicate-row", "rows": ["wagers.csv:2-3"], "key": {
        "seat": 2, "spot": "player"}, "message": "seat 2 spot player is recorded twice (amount 50 and 80)"}]
    assert [f.rule for f in check(doc)] == ["BAC-RECORD-DUPLICATE-ROW"]


def test_a_spot_with_limits_of_its_own_is_held_to_them():
    wagers = [(1, "banker", 500), (1, "dragon_7", 200)]
    settled = [(1, "banker", "push", 0), (1, "dragon_7", "win", 8000)]
    doc = table("ez_baccarat", [dealt(1, *DRAGON_7, wagers, settled)], spots={"dragon_7": {"max_wager": 100}})
    [finding] = check(doc)
    assert finding.rule == "BAC-WAGER-LIMITS"
    assert finding.message == "seat 1 dragon_7 wager of 200 is above the Dragon 7 maximum of 100"


def test_limits_for_a_spot_the_table_does_not_offer_are_one_finding_and_every_coup_is_judged():
    """As a wager on such a spot makes only its coup unreadable, limits posted for one refuse nothing: they judge
    no wager, they are reported once, and the spots the table offers keep their own limits."""
    wagers = [(1, "player", 600)]
    doc = table("mini_baccarat", [dealt(1, *PANDA_8, wagers, [(1, "player", "win", 600)])],
                spots={"dragon_7": {"max_wager": 100}, "playr": {"max_wager": 50}, "player": {"max_wager": 500}})
    found = check(doc)
    posted = [f for f in found if f.rule == "BAC-LIMITS-UNOFFERED-SPOT"]
    assert [(f.coup, f.severity, f.message) for f in posted] == [
        (None, "error", "table.limits.spots posts limits for 'dragon_7', which this table does not offer (ruleset "
                        "'us-pa', game 'mini_baccarat', offers: player, banker, tie, house_money): they apply to no wager"),
        (None, "error", "table.limits.spots posts limits for 'playr', which this table does not offer (ruleset "
                        "'us-pa', game 'mini_baccarat', offers: player, banker, tie, house_money): they apply to no wager; "
                        "did you mean 'player'?")]
    [limit] = [f for f in found if f.rule == "BAC-WAGER-LIMITS"]
    assert (limit.coup, limit.message) == (1, "seat 1 player wager of 600 is above the Player maximum of 500")


# ------------------------------------------------------------------ transcript format 1.1


def test_a_spot_the_table_does_not_offer_is_an_unreadable_coup_that_names_the_spots_it_offers():
    wagers = [(1, "player", 100), (1, "dragon_7", 25)]
    doc = table("mini_baccarat", [dealt(1, *DRAGON_7, wagers, [(1, "player", "lose", 100), (1, "dragon_7", "win", 1000)]),
                                  dealt(2, *PANDA_8, [(1, "player", 100)], [(1, "player", "win", 100)])])
    [finding] = check(doc)
    assert finding.rule == "BAC-TRANSCRIPT" and finding.coup == 1 and finding.event == 1
    assert finding.message.endswith("wager at events[1] is on spot 'dragon_7', which this table does not offer "
                                    "(ruleset 'us-pa', game 'mini_baccarat', offers: player, banker, tie, house_money)")


def test_version_1_reads_as_it_always_did_a_side_spot_is_not_one_of_its_spots():
    doc = table("mini_baccarat", [dealt(1, *DRAGON_7, [(1, "dragon_7", 25)], [(1, "dragon_7", "win", 1000)])])
    doc["version"] = 1
    [finding] = check(doc)
    assert finding.message.endswith("Invalid enum value 'dragon_7' - at `$.coups[0].events[0].spot`")
    doc["table"]["game"] = "ez_baccarat"
    with pytest.raises(UserError, match=r"header: Invalid enum value 'ez_baccarat' - at `\$.table.game`"):
        check(doc)
    doc["version"] = "1.2"
    with pytest.raises(UserError, match=r"header: Invalid enum value '1.2' - at `\$.version`"):
        check(doc)


@pytest.mark.parametrize("version,game,spot,valid", [
    (1, "mini_baccarat", "tie", True),
    (1, "mini_baccarat", "dragon_7", False),
    (1, "ez_baccarat", "player", False),
    ("1.1", "ez_baccarat", "dragon_7", True),
    ("1.1", "mini_baccarat", "Dragon 7", False),
    ("1.2", "mini_baccarat", "tie", False),
])
def test_the_published_schema_keeps_version_1_to_its_spots_and_games(version, game, spot, valid):
    schema = json.loads((ROOT / "docs" / "schema" / "transcript.schema.json").read_text(encoding="utf-8"))
    doc = json.loads(dumps(table(game, [dealt(1, *DRAGON_7, [(1, spot, 25)], [])])))
    doc["version"] = version
    assert jsonschema.Draft202012Validator(schema).is_valid(doc) is valid


# ------------------------------------------------------------------ the declaration


def test_a_condition_kind_the_code_does_not_know_is_refused_where_it_is_written(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"""id: bad
title: A spot on an unknown condition
version: "1"
extends: {ROOT / 'rulesets' / 'us-nj.yaml'}
game:
  spots:
    lucky_6:
      wins: {{kind: lucky, hand: banker}}
      odds: 12
""", encoding="utf-8")
    with pytest.raises(UserError, match=r"bad.yaml:8:7: game.spots.lucky_6.wins: Value error, unknown condition kind "
                                        r"'lucky' \(kinds: pair, tie, win\)"):
        load_ruleset(str(bad))
    bad.write_text(bad.read_text().replace("kind: lucky, hand: banker", "kind: win, hand: banker, totl: 6"))
    with pytest.raises(UserError, match="condition 'win': totl: unknown parameter"):
        load_ruleset(str(bad))


def test_payouts_is_spots_now(tmp_path):
    old = tmp_path / "old.yaml"
    old.write_text(f"id: old\ntitle: t\nversion: '1'\nextends: {ROOT / 'rulesets' / 'us-nj.yaml'}\n"
                   "game: {payouts: {tie: {odds: 9}}}\n", encoding="utf-8")
    with pytest.raises(UserError, match="`game.payouts` is now `game.spots`"):
        load_ruleset(str(old))


def test_a_wager_is_settled_by_the_first_that_holds_pushes_then_pays_then_wins(pa):
    ez = pa.game.spots_for("ez_baccarat")["banker"]
    assert list(ez.pushes) == ["tie", "dragon_7"] and ez.commission == 0
    cf = pa.game.spots_for("commission_free")["banker"]
    assert list(cf.pays) == ["on_six"] and cf.odds == 1  # on 6 half, otherwise 1 to 1
    assert "dragon_7" not in pa.game.spots_for("mini_baccarat")


# ------------------------------------------------------------------ the table's commission, on the spots that take one

BANKER_7_TO_6 = (["KD", "6D"], ["KS", "7C"])  # Banker 7 on two cards beats Player 6: no Dragon 7
BANKER_6_TO_5 = (["KD", "5D", "KH"], ["KS", "6C"])  # Player 5 draws a ten; Banker 6 stands and wins


def banker_paid(game: str, hands, amount, commission: float | None) -> list[str]:
    doc = table(game, [dealt(1, *hands, [(1, "banker", 200)], [(1, "banker", "win", amount)])])
    if commission is not None:
        doc["table"]["commission"] = commission
    return [f.message for f in check(doc)]


@pytest.mark.parametrize("commission", [None, 0.05])
@pytest.mark.parametrize("game", ["ez_baccarat", "commission_free"])
def test_a_table_commission_is_never_taken_on_a_banker_wager_that_takes_none(game, commission):
    """EZ Baccarat (§ 627a.1) and commission-free Midibaccarat (§ 629b.2) take no vigorish: a header's
    ``commission`` (which a table system writes in every header) leaves their Banker wagers at 1 to 1."""
    assert banker_paid(game, BANKER_7_TO_6, 200, commission) == []
    [net] = banker_paid(game, BANKER_7_TO_6, 190, commission)
    assert net.startswith("seat 1 banker wager of 200 should be win 200 (Banker pays 1 to 1);")


@pytest.mark.parametrize("commission", [None, 0.05])
def test_commission_free_banker_six_is_half_with_no_commission_stacked_on_it(commission):
    assert banker_paid("commission_free", BANKER_6_TO_5, 100, commission) == []
    [stacked] = banker_paid("commission_free", BANKER_6_TO_5, 95, commission)
    assert stacked.startswith("seat 1 banker wager of 200 should be win 100 (Banker winning with 6 pays 0.5 to 1);")


@pytest.mark.parametrize("game", ["punto_banco", "mini_baccarat", "midi_baccarat"])
@pytest.mark.parametrize(("commission", "net"), [(None, 190), (0.05, 190), (0.04, 192)])
def test_a_table_commission_replaces_the_rate_of_a_banker_wager_that_takes_one(game, commission, net):
    assert banker_paid(game, BANKER_7_TO_6, net, commission) == []
    [full] = banker_paid(game, BANKER_7_TO_6, 200, commission)
    assert f"should be win {net} (Banker pays 1 to 1 less {5 if net == 190 else 4}% commission)" in full


# ------------------------------------------------------------------ a finding cites the chapter of its table's game

BANKER_DREW_ON_SIX = (["KD", "6D"], ["KS", "6C", "2H"])  # Player 6 stands; Banker 6 must stand, and drew


@pytest.mark.parametrize(("game", "cited"), [
    ("punto_banco", "58 Pa. Code § 631a.11"), ("mini_baccarat", "58 Pa. Code § 627a.10"),
    ("ez_baccarat", "58 Pa. Code § 627a.10"), ("midi_baccarat", "58 Pa. Code § 629a.10"),
    ("commission_free", "58 Pa. Code § 629a.10")])
def test_a_banker_draw_cites_the_drawing_rules_of_the_tables_game(game, cited):
    doc = table(game, [dealt(1, *BANKER_DREW_ON_SIX, [(1, "player", 100)], [(1, "player", "lose", 100)])])
    [finding] = check(doc)
    assert finding.rule == "BAC-DRAW-BANKER-ILLEGAL" and finding.citation == cited


@pytest.mark.parametrize(("game", "hands", "settled", "cited"), [
    ("midi_baccarat", (["7H", "7S"], ["KS", "9C"]), ("perfect_pairs_player", "lose", 200),  # a mixed pair, collected
     "58 Pa. Code § 629a.11, 629a.12, 629b.1"),
    ("commission_free", BANKER_6_TO_5, ("banker", "win", 95), "58 Pa. Code § 629a.11, 629a.12, 629b.2"),
    ("punto_banco", BANKER_7_TO_6, ("banker", "win", 200), "58 Pa. Code § 631a.12, 631a.13"),
    ("ez_baccarat", BANKER_7_TO_6, ("banker", "win", 190), "58 Pa. Code § 627a.1, 627a.11, 627a.12")])
def test_a_settlement_cites_the_payouts_of_the_tables_game(game, hands, settled, cited):
    spot = settled[0]
    [finding] = check(table(game, [dealt(1, *hands, [(1, spot, 200)], [(1, *settled)])]))
    assert finding.rule == "BAC-SETTLE-AMOUNT" and finding.citation == cited


def test_rules_list_shows_what_each_game_cites():
    from compliance.cli.rules import citation_words

    rule = next(r for r in load_ruleset("us-pa").rules if r.id == "BAC-DRAW-BANKER-ILLEGAL")
    assert citation_words(rule) == ("58 Pa. Code § 627a.10 (midi_baccarat, commission_free: 58 Pa. Code § 629a.10; "
                                    "punto_banco: 58 Pa. Code § 631a.11)")


def test_a_game_citation_must_name_a_game_of_the_ruleset(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(f"id: house\ntitle: t\nversion: '1'\nextends: {ROOT / 'rulesets' / 'us-pa.yaml'}\n"
                    "overrides:\n  BAC-RESULT:\n    citation_by_game:\n"
                    "      chemin_de_fer: {source: pa-631a, at: ['631a.12']}\n", encoding="utf-8")
    with pytest.raises(UserError, match="citation_by_game names 'chemin_de_fer', which is not a game of the ruleset"):
        load_ruleset(str(path))


# ------------------------------------------------------------------ Perfect Pairs on cards recorded without their suits

def in_part(coup: dict, codes: dict[str, str]) -> dict:
    """The coup with some cards recorded in part (format 1.1: ``7?``, the rank without the suit)."""
    for e in coup["events"]:
        if e["type"] == "card" and e["card"] in codes:
            e["card"] = codes[e["card"]]
    return coup


@pytest.mark.parametrize(("outcome", "amount", "right"), [
    ("win", 1200, True), ("win", 2400, True), ("win", 5000, True),  # mixed, coloured or perfect: the suits decide
    ("lose", 200, False),  # a pair whatever the suits: never a loss
    ("win", 1000, False),  # no row pays 5 to 1
])
def test_perfect_pairs_on_a_pair_recorded_without_its_suits(outcome, amount, right):
    wagers = [(1, "banker", 200), (1, "perfect_pairs_player", 200)]
    settled = [(1, "banker", "win", 190), (1, "perfect_pairs_player", outcome, amount)]
    coup = in_part(dealt(1, ["7H", "7S"], ["KS", "9C"], wagers, settled), {"7H": "7?", "7S": "7?"})
    found = check(table("midi_baccarat", [coup]))
    if right:
        assert found == []
        return
    [finding] = found
    assert finding.rule == "BAC-SETTLE-AMOUNT" and finding.citation == "58 Pa. Code § 629a.11, 629a.12, 629b.1"
    assert finding.message.startswith("seat 1 perfect_pairs_player wager of 200 should be win 5,000 (a suited pair "
                                      "in the Player's first two cards pays 25 to 1) or win 2,400")
    assert finding.message.endswith(f"whichever suits the cards recorded without one have; it was settled "
                                    f"{outcome} {amount:,}")


def test_perfect_pairs_is_not_judged_where_a_rank_is_left_out_too():
    wagers = [(1, "banker", 200), (1, "perfect_pairs_player", 200)]
    settled = [(1, "banker", "win", 190), (1, "perfect_pairs_player", "lose", 200)]
    coup = in_part(dealt(1, ["7H", "KD"], ["KS", "9C"], wagers, settled), {"7H": "7?", "KD": "0?"})
    assert check(table("midi_baccarat", [coup])) == []
