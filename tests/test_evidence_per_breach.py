"""Judge what the record proves: evidence per breach, not per rule.

A rule needs some evidence for its whole judgement, but many breaches are proved by less: a Banker win paid
even money is wrong whatever the cards were; a wager after "no more bets" is late wherever the first card came;
a third card drawn on a natural is illegal whatever its value.  Where a coup lacks evidence a rule needs, the
rule reads it through a view in which the facts from that evidence are unknown: it reports what the recorded
facts prove, and the coup is not judged only where a fact it needed came back unknown.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compliance.engine import Checker
from tests import builders
from tests.test_recorded import SHOE

CARDLESS = ("wager", "wager_adjust", "announce", "result", "settle", "commission")


def check(doc: dict, tmp_path: Path, name: str = "recording.json"):
    path = tmp_path / name
    path.write_text(builders.dumps(doc), encoding="utf-8")
    return Checker().check_file(path, name)


def without(doc: dict, recorded: list[str], keep=CARDLESS) -> dict:
    """The transcript as a recording of ``recorded`` gives it: its other events left out."""
    doc = copy.deepcopy(doc) | {"version": "1.1", "recorded": recorded}
    for c in doc["coups"]:
        c["events"] = [e for e in c["events"] if e["type"] in keep]
        c.pop("seated", None)
    return doc


def table_system_log(doc: dict) -> dict:
    """A table system's wager log: the wagers as they stood, the announced results, the settlements; no cards."""
    return without(doc, ["stakes", "results", "settlements"], keep=("wager", "result", "settle", "commission"))


def calls_and_wagers(doc: dict) -> dict:
    return without(doc, ["calls", "wagers"], keep=("wager", "wager_adjust", "announce"))


def coup_with(doc: dict, winner: str, spot: str | None = None) -> dict:
    """The first coup the Banker (or Player, or a Tie) won in which a wager on ``spot`` was settled."""
    for c in doc["coups"]:
        result = next(e for e in c["events"] if e["type"] == "result")
        if result["winner"] == winner and (spot is None or any(e["type"] == "settle" and e["spot"] == spot
                                                                for e in c["events"])):
            return c
    raise AssertionError(f"no coup won by {winner} with a {spot} wager")


def settle(c: dict, spot: str) -> dict:
    return next(e for e in c["events"] if e["type"] == "settle" and e["spot"] == spot)


def night(coups: int = 60, seed: int = 7) -> dict:
    cards = SHOE[:]
    random.Random(seed).shuffle(cards)
    return builders.transcript(builders.dealt_by_the_rules(cards)[:coups])


def banker_paid_even_money() -> tuple[dict, dict, object]:
    """A night whose first Banker win has its Banker wager paid even money, no commission taken: (the night,
    that coup, the stake)."""
    doc = night()
    c = coup_with(doc, "banker", "banker")
    s = settle(c, "banker")
    stake = next(e["amount"] for e in c["events"] if e["type"] == "wager" and e["spot"] == "banker"
                 and e.get("seat") == s.get("seat"))
    s.update(outcome="win", amount=stake)
    c["events"] = [e for e in c["events"] if e["type"] != "commission"]
    return doc, c, stake


def rules_judging(result) -> set[str]:
    return {r.id for r in result.ruleset.rules} - {rule for rule, _ in result.not_judged}


# ------------------------------------------------------------------ a table system's log: results, no cards


def test_a_table_systems_log_of_compliant_play_is_judged_on_its_settlements_and_finds_nothing(tmp_path):
    result = check(table_system_log(night()), tmp_path)
    assert result.findings == []
    assert {"BAC-SETTLE-AMOUNT", "BAC-SETTLE-MISSING"} <= rules_judging(result)


def test_a_banker_win_paid_even_money_without_commission_is_wrong_whatever_the_cards(tmp_path):
    doc, c, stake = banker_paid_even_money()
    found = check(table_system_log(doc), tmp_path).findings
    assert builders.pairs(found) == {(c["coup"], "BAC-SETTLE-AMOUNT")}
    assert "less 5% commission" in found[0].message


def test_a_tie_paid_even_money_and_both_sides_paid_as_wins_are_wrong_whatever_the_cards(tmp_path):
    doc = night(coups=80)
    tie = coup_with(doc, "tie")
    tie["events"] = [e for e in tie["events"] if e["type"] not in ("settle", "commission")]
    tie["events"].insert(0, {"type": "wager", "seat": 6, "spot": "tie", "amount": 50})
    tie["events"].append({"type": "settle", "seat": 6, "spot": "tie", "outcome": "win", "amount": 50})
    both = coup_with(doc, "player", "banker")
    settle(both, "banker").update(outcome="win")
    found = builders.pairs(check(table_system_log(doc), tmp_path).findings)
    assert (tie["coup"], "BAC-SETTLE-AMOUNT") in found  # a Tie pays 8 to 1
    assert (both["coup"], "BAC-SETTLE-AMOUNT") in found  # the Player won: the Banker wager loses


def test_a_wager_left_unsettled_while_the_others_are_settled_is_missing_whatever_the_cards(tmp_path):
    doc = night()
    c = coup_with(doc, "player", "banker")
    c["events"].remove(settle(c, "banker"))
    assert builders.pairs(check(table_system_log(doc), tmp_path).findings) == {(c["coup"], "BAC-SETTLE-MISSING")}


# ------------------------------------------------------------------ calls and wagers, no cards


def test_calls_and_wagers_of_compliant_play_find_nothing_and_leave_what_the_cards_decide_not_judged(tmp_path):
    result = check(calls_and_wagers(night()), tmp_path)
    assert result.findings == []
    assert result.not_judged[("BAC-CALLS", ("cards",))] == 60  # in order: before the first card? not known
    assert result.not_judged[("BAC-WAGER-LATE", ("cards",))] == 60


def test_a_missing_call_calls_reversed_and_a_wager_after_no_more_bets_are_breaches_whatever_the_cards(tmp_path):
    doc = night()
    missing, reversed_, late = doc["coups"][3], doc["coups"][7], doc["coups"][11]
    missing["events"] = [e for e in missing["events"] if not (e["type"] == "announce" and e["call"] == "cards")]
    calls = [i for i, e in enumerate(reversed_["events"]) if e["type"] == "announce"]
    ev = reversed_["events"]
    ev[calls[0]], ev[calls[1]] = ev[calls[1]], ev[calls[0]]
    nmb = next(i for i, e in enumerate(late["events"]) if e.get("call") == "no_more_bets")
    late["events"].insert(nmb + 1, {"type": "wager", "seat": 6, "spot": "player", "amount": 100})
    result = check(calls_and_wagers(doc), tmp_path)
    assert builders.pairs(result.findings) == {(missing["coup"], "BAC-CALLS"), (reversed_["coup"], "BAC-CALLS"),
                                               (late["coup"], "BAC-WAGER-LATE")}
    messages = {f.coup: f.message for f in result.findings}
    assert messages[missing["coup"]] == '"Cards" was never called (the cards were not recorded)'
    assert "called out of order" in messages[reversed_["coup"]]
    assert 'wager placed 100 after "no more bets"' in messages[late["coup"]]


def test_a_table_differential_exceeded_is_a_breach_whatever_the_cards(tmp_path):
    doc = night()
    doc["table"]["limits"] = {"min_wager": 5, "max_wager": 20000, "table_differential": 5000}
    c = doc["coups"][5]
    c["events"].insert(0, {"type": "wager", "seat": 6, "spot": "player", "amount": 9000})
    result = check(calls_and_wagers(doc), tmp_path)
    (f,) = [f for f in result.findings if f.category == "wager.table-differential"]
    assert f.coup == c["coup"] and "over the table differential of 5,000" in f.message
    assert not [k for k in result.not_judged if k[0] == f.rule]  # the other coups are within it: compliant


# ------------------------------------------------------------------ a card not read


def unread_coup(number: int, player: list[str], banker: list[str], third: tuple[str, str] | None) -> dict:
    events = [{"type": "card", "card": p, "to": "player"} if k == 0 else {"type": "card", "card": b, "to": "banker"}
              for p, b in zip(player, banker) for k in (0, 1)]
    if third is not None:
        events.append({"type": "card", "card": third[0], "to": third[1]})
    return {"coup": number, "shoe": "S1", "events": events}


def cards_only(coups: list[dict]) -> dict:
    return {"format": "baccarat-transcript", "version": "1.1", "recorded": ["cards", "hands", "order", "coups"],
            "table": {"id": "T-1", "jurisdiction": "us-nj", "game": "punto_banco", "seats": 7},
            "shoes": [{"id": "S1", "decks": 8}], "coups": coups}


def test_an_unread_card_drawn_on_a_player_7_or_on_a_natural_is_illegal_whatever_its_value(tmp_path):
    doc = cards_only([
        unread_coup(1, ["4H", "3S"], ["KS", "6C"], ("??", "player")),  # the Player stands on 7
        unread_coup(2, ["4H", "2S"], ["KS", "8C"], ("??", "banker")),  # the Banker has a natural 8
        unread_coup(3, ["4H", "4S"], ["??", "??"], ("??", "player")),  # the Player has a natural 8
        unread_coup(4, ["4H", "TS"], ["KS", "5C"], ("??", "player")),  # the Player draws on 4: legal
        unread_coup(5, ["4H", "TS"], ["??", "5C"], ("??", "player")),  # draws on 4 unless the Banker has a natural
    ])
    result = check(doc, tmp_path)
    draws = {(f.coup, f.rule) for f in result.findings if f.rule.startswith("BAC-DRAW")}
    assert draws == {(1, "BAC-DRAW-PLAYER-ILLEGAL"), (2, "BAC-DRAW-BANKER-ILLEGAL"), (3, "BAC-DRAW-PLAYER-ILLEGAL")}
    messages = {f.coup: f.message for f in result.findings if f.rule.startswith("BAC-DRAW")}
    assert messages[1] == "Player drew ?? on 7 although the Player's Hand stands on 7"
    assert messages[3] == "Player drew ?? on 8 although the Player's Hand has a natural 8: no hand draws"
    assert result.not_judged[("BAC-DRAW-PLAYER-ILLEGAL", ("values",))] == 1  # coup 5 alone


# ------------------------------------------------------------------ never a breach the record does not prove


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), recording=st.sampled_from(["table system", "calls and wagers", "no cards"]))
def test_what_a_partial_recording_finds_the_whole_transcript_finds_too(tmp_path, seed, recording):
    """Breaches of every kind these rules judge, then the cards left out: each finding of the partial
    recording is a finding of the whole transcript (no rule ever guesses an unrecorded fact)."""
    rng = random.Random(seed)
    doc = night(coups=30, seed=seed % 50)
    for c in doc["coups"]:
        ev = c["events"]
        roll = rng.random()
        if roll < 0.1:
            c["events"] = [e for e in ev if e.get("call") != rng.choice(["cards", "no_more_bets"])]
        elif roll < 0.2:
            calls = [i for i, e in enumerate(ev) if e["type"] == "announce"]
            ev[calls[0]], ev[calls[1]] = ev[calls[1]], ev[calls[0]]
        elif roll < 0.3:
            at = next(i for i, e in enumerate(ev) if e["type"] == "announce") + rng.randint(1, 3)
            ev.insert(at, {"type": "wager", "seat": 6, "spot": rng.choice(["player", "banker"]), "amount": 25})
        elif roll < 0.4:
            s = rng.choice([e for e in ev if e["type"] == "settle"])
            s.update(outcome=rng.choice(["win", "lose", "push"]))
        elif roll < 0.5:
            ev.remove(rng.choice([e for e in ev if e["type"] == "settle"]))
        elif roll < 0.55:
            ev.insert(0, {"type": "wager", "seat": 6, "spot": "banker", "amount": 6000})
    whole = builders.pairs(check(doc, tmp_path, "whole.json").findings)
    partial = {"table system": table_system_log, "calls and wagers": calls_and_wagers,
               "no cards": lambda d: without(d, ["calls", "wagers", "results", "settlements"])}[recording](doc)
    found = builders.pairs(check(partial, tmp_path, "partial.json").findings)
    assert found <= whole


def test_a_banker_that_drew_on_7_is_judged_whatever_the_players_unread_first_card(tmp_path):
    """The Banker stands on 7 whatever the Player holds (a natural stops the drawing too): the unread card cannot
    change the answer, so the coup is judged, and the breach found."""
    doc = cards_only([unread_coup(1, ["??", "3S"], ["KS", "7C"], ("5D", "banker"))])
    result = check(doc, tmp_path)
    assert [(f.coup, f.rule) for f in result.findings] == [(1, "BAC-DRAW-BANKER-ILLEGAL")]
    assert result.findings[0].message == ("Banker drew 5D on 7 although the Banker's Hand stands there whatever the "
                                          "value of the card not read (??)")
    assert not [k for k in result.not_judged if k[0] == "BAC-DRAW-BANKER-ILLEGAL"]


CODES = [f"{r}{s}" for r in "A23456789TJQK" for s in "SH"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cards=st.lists(st.sampled_from(CODES), min_size=5, max_size=5), unread=st.integers(0, 3),
       drew=st.sampled_from(["banker", "player"]))
def test_an_unread_card_is_judged_exactly_where_every_value_it_may_have_gives_one_answer(tmp_path, cards, unread,
                                                                                       drew):
    """The Banker's draw with one initial card not read is a breach if and only if it is one whatever that card's
    value (each of the ten), and judged (found or cleared) if and only if every value gives one answer."""
    player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    third = (cards[4], drew)
    hidden = player if unread in (0, 2) else banker
    values = []
    for rank in "A23456789T":
        seen = [list(player), list(banker)]
        (seen[0] if hidden is player else seen[1])[unread // 2] = rank + "C"
        found = check(cards_only([unread_coup(1, *seen, third)]), tmp_path).findings
        values.append(any(f.rule == "BAC-DRAW-BANKER-ILLEGAL" for f in found))
    (player if hidden is player else banker)[unread // 2] = "??"
    result = check(cards_only([unread_coup(1, player, banker, third)]), tmp_path)
    found = any(f.rule == "BAC-DRAW-BANKER-ILLEGAL" for f in result.findings)
    judged = not [k for k in result.not_judged if k[0] == "BAC-DRAW-BANKER-ILLEGAL"]
    if drew == "banker":
        assert judged == (len(set(values)) == 1)
    assert found == (judged and all(values))


# ------------------------------------------------------------------ a wager log alone: no cards, no results


def wager_log(doc: dict) -> dict:
    """A wager log alone: the wagers as they stood and their settlements; neither the cards nor the results."""
    return without(doc, ["stakes", "settlements"], keep=("wager", "settle", "commission"))


#: a coup of each outcome, dealt by the rules: what the settlements of a wager log can have followed
EACH_OUTCOME = {"player": (["9S", "KD"], ["5H", "2C"]), "banker": (["3S", "2D", "KC"], ["4H", "4C"]),
                "tie": (["4S", "3D"], ["KH", "7C"])}


def test_a_wager_log_of_compliant_play_finds_nothing_and_leaves_each_coup_not_judged(tmp_path):
    result = check(wager_log(night()), tmp_path)
    assert result.findings == []
    assert sum(n for (rule, _), n in result.not_judged.items() if rule == "BAC-SETTLE-AMOUNT") == 60


def test_a_wager_log_alone_proves_a_banker_win_paid_without_commission_wrong(tmp_path):
    doc, c, stake = banker_paid_even_money()
    (found,) = check(wager_log(doc), tmp_path).findings
    assert (found.coup, found.rule) == (c["coup"], "BAC-SETTLE-AMOUNT")
    assert "which no outcome gives" in found.message and "the record does not show the outcome" in found.message
    assert found.money.paid - found.money.expected == stake - (stake * 95 // 100)  # the commission not taken


def test_a_wager_log_alone_proves_a_tie_paid_even_money_wrong(tmp_path):
    doc = night()
    c = doc["coups"][4]
    c["events"].insert(0, {"type": "wager", "seat": 6, "spot": "tie", "amount": 50})
    c["events"].append({"type": "settle", "seat": 6, "spot": "tie", "outcome": "win", "amount": 50})
    (found,) = check(wager_log(doc), tmp_path).findings
    assert found.coup == c["coup"] and "win 400, lose 50" in found.message  # a Tie pays 8 to 1 or loses


def test_a_wager_log_alone_proves_both_hands_paid_as_winners_wrong_and_names_no_one_it_cannot(tmp_path):
    doc = night()
    one, two = doc["coups"][2], doc["coups"][3]
    for c, seats in ((one, (1, 1)), (two, (1, 2))):
        c["events"] = [e for e in c["events"] if e["type"] not in ("wager", "settle", "commission")]
        c["events"][:0] = [{"type": "wager", "seat": seats[0], "spot": "player", "amount": 100},
                           {"type": "wager", "seat": seats[1], "spot": "banker", "amount": 100}]
        c["events"] += [{"type": "settle", "seat": seats[0], "spot": "player", "outcome": "win", "amount": 100},
                        {"type": "settle", "seat": seats[1], "spot": "banker", "outcome": "win", "amount": 95}]
    found = {f.coup: f for f in check(wager_log(doc), tmp_path).findings}
    assert set(found) == {one["coup"], two["coup"]}
    for f in found.values():
        assert "no one outcome settles these wagers so" in f.message
        assert f.money.paid - f.money.expected == 195  # at the least: a Tie (both pushed) or either hand's win
    assert found[one["coup"]].money.patron == "seat 1"
    assert found[two["coup"]].money.patron is None  # which of the two was overpaid the log cannot say


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stake=st.integers(20, 2000), spots=st.lists(st.sampled_from(["player", "banker", "tie"]), min_size=1,
                                                      max_size=3, unique=True),
       outcomes=st.lists(st.sampled_from(sorted(EACH_OUTCOME)), min_size=3, max_size=3),
       slips=st.lists(st.integers(-3, 3), min_size=3, max_size=3))
def test_a_wager_log_is_found_wrong_exactly_where_no_outcome_gives_its_settlements(tmp_path, stake, spots,
                                                                                   outcomes, slips):
    """One seat's wagers, each settled as some outcome gives it (perhaps a different outcome for each), give or
    take a few units: a breach exactly where no one outcome gives all the settlements."""
    settled = []
    for spot, outcome, slip in zip(spots, outcomes, slips, strict=False):
        word, amount = builders.payout(spot, builders.Decimal(stake), *EACH_OUTCOME[outcome])
        settled.append((spot, word, max(amount + slip, builders.Decimal(0))))
    events = [{"type": "wager", "seat": 1, "spot": spot, "amount": stake} for spot in spots]
    events += [{"type": "settle", "seat": 1, "spot": spot, "outcome": word, "amount": amount}
               for spot, word, amount in settled]
    doc = builders.transcript([{"coup": 1, "shoe": "S1", "events": events}])
    found = check(without(doc, ["stakes", "settlements"], keep=("wager", "settle")), tmp_path).findings
    possible = any(all(builders.payout(spot, builders.Decimal(stake), *hands) == (word, amount)
                       for spot, word, amount in settled) for hands in EACH_OUTCOME.values())
    assert [f.rule for f in found] == ([] if possible else ["BAC-SETTLE-AMOUNT"] * len(found))
    assert bool(found) != possible
