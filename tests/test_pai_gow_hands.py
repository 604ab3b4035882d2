"""Pai gow poker hands: ranking, the joker as the bug, fouls, copies (68 IAC 10-9-4(b)).

The table of known hands is written by hand from the rules of the game; the
property tests check that the ranking is a total order, that the comparison
agrees with it, and that the joker always takes the best value the bug rule
allows (checked against a brute-force enumeration of its substitutions).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.games.pai_gow.hands import (
    ACE,
    DECK,
    FIVE_ACES,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    JOKER,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    VALUE,
    BadHand,
    HandValue,
    compare,
    describe,
    fouled,
    high_hand,
    low_hand,
    outcome,
)

# (cards, category, description) -- the wheel ranks second highest unless a row says otherwise
KNOWN_HIGH = [
    # without the joker
    ("AS KS QS JS TS", STRAIGHT_FLUSH, "royal flush"),
    ("9H 8H 7H 6H 5H", STRAIGHT_FLUSH, "straight flush to the nine"),
    ("AD 2D 3D 4D 5D", STRAIGHT_FLUSH, "straight flush ace to five"),
    ("7S 7H 7D 7C 2S", FOUR_OF_A_KIND, "four sevens"),
    ("QS QH QD 5C 5S", FULL_HOUSE, "full house, queens over fives"),
    ("AC JC 8C 4C 2C", FLUSH, "flush, ace high"),
    ("TS 9H 8D 7C 6S", STRAIGHT, "straight to the ten"),
    ("AS KH QD JC TS", STRAIGHT, "straight to the ace"),
    ("AS 2H 3D 4C 5S", STRAIGHT, "straight ace to five"),
    ("6S 6H 6D KC 2S", THREE_OF_A_KIND, "three sixes"),
    ("KS KH 4D 4C 9S", TWO_PAIR, "two pair, kings and fours"),
    ("9S 9H AD 7C 2S", ONE_PAIR, "pair of nines"),
    ("AS QH 9D 7C 2S", HIGH_CARD, "ace high"),
    ("QS AS KS JS 9H", HIGH_CARD, "ace high"),  # four to a royal is nothing
    ("KS AH 2D 3C 4S", HIGH_CARD, "ace high"),  # no "round the corner" straight
    # the joker as an ace
    ("AS AH AD AC JK", FIVE_ACES, "five aces"),
    ("AS AH AD KC JK", FOUR_OF_A_KIND, "four aces"),
    ("AS AH KD KC JK", FULL_HOUSE, "full house, aces over kings"),
    ("AS AH 7D 4C JK", THREE_OF_A_KIND, "three aces"),
    ("AS KH 8D 4C JK", ONE_PAIR, "pair of aces"),
    ("KS QH 9D 4C JK", HIGH_CARD, "ace high"),
    # the joker is never another rank than an ace, except to make a straight or a flush
    ("KS KH QD QC JK", TWO_PAIR, "two pair, kings and queens"),  # not a full house
    ("7S 7H 7D 2C JK", THREE_OF_A_KIND, "three sevens"),  # not four sevens
    ("KS KH 7D 2C JK", ONE_PAIR, "pair of kings"),  # ace kicker, not three kings
    ("8S 8H 8D 2C 2D", FULL_HOUSE, "full house, eights over twos"),
    # the joker completing a straight
    ("9H 8D 7C 6S JK", STRAIGHT, "straight to the ten"),  # at the top end
    ("9H 8D 6C 5S JK", STRAIGHT, "straight to the nine"),  # in the gap
    ("KH QD JC TS JK", STRAIGHT, "straight to the ace"),  # as the ace
    ("AH KD QC JS JK", STRAIGHT, "straight to the ace"),  # as the ten: beats the pair of aces
    ("AH 2D 3C 4S JK", STRAIGHT, "straight ace to five"),  # as the five
    ("2H 3D 4C 5S JK", STRAIGHT, "straight ace to five"),  # as the ace: the wheel beats a six-high straight here
    # the joker completing a flush: the highest card of the suit the hand lacks
    ("KS 9S 4S 2S JK", FLUSH, "flush, ace high"),
    ("AS 9S 4S 2S JK", FLUSH, "flush, ace high"),
    # the joker completing a straight flush
    ("9C 8C 7C 6C JK", STRAIGHT_FLUSH, "straight flush to the ten"),
    ("KS QS JS TS JK", STRAIGHT_FLUSH, "royal flush"),
    ("AS KS QS TS JK", STRAIGHT_FLUSH, "royal flush"),  # as the jack
    ("2D 3D 4D 5D JK", STRAIGHT_FLUSH, "straight flush ace to five"),
    ("3D 4D 5D 6D JK", STRAIGHT_FLUSH, "straight flush to the seven"),
    # the flush beats the straight it could also make
    ("9S 8S 7S 5S JK", STRAIGHT_FLUSH, "straight flush to the nine"),
    ("9S 8S 7S 5H JK", STRAIGHT, "straight to the nine"),
]


def cards(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize("hand,category,words", KNOWN_HIGH, ids=[k[0] for k in KNOWN_HIGH])
def test_known_five_card_hands(hand, category, words):
    value = high_hand(cards(hand))
    assert value.category == category
    assert describe(value) == words


def test_joker_flush_key_is_the_highest_missing_card():
    assert high_hand(cards("KS 9S 4S 2S JK")).key == (ACE, 13, 9, 4, 2)
    assert high_hand(cards("AS 9S 4S 2S JK")).key == (ACE, 13, 9, 4, 2)  # the joker is the king
    assert high_hand(cards("AS KS 4S 2S JK")).key == (ACE, 13, 12, 4, 2)  # ... or the queen


def test_joker_kicker_is_an_ace():
    assert high_hand(cards("KS KH QD QC JK")).key == (13, 12, ACE)
    assert high_hand(cards("7S 7H 7D 2C JK")).key == (7, ACE, 2)


def test_five_aces_beat_the_royal_flush():
    assert high_hand(cards("AS AH AD AC JK")) > high_hand(cards("AD KD QD JD TD"))


def test_wheel_second_highest_or_lowest():
    wheel, six, king, ace = (cards(h) for h in ("AS 2H 3D 4C 5S", "2S 3H 4D 5C 6S", "9S TH JD QC KS", "TS JH QD KC AS"))
    assert high_hand(king) < high_hand(wheel) < high_hand(ace)
    assert high_hand(wheel, "lowest") < high_hand(six, "lowest") < high_hand(ace, "lowest")
    # with the joker, the house's wheel decides what the joker becomes
    assert describe(high_hand(cards("2H 3D 4C 5S JK"), "lowest")) == "straight to the six"


KNOWN_LOW = [
    ("AS AH", ONE_PAIR, "pair of aces"),
    ("AS JK", ONE_PAIR, "pair of aces"),
    ("KS JK", HIGH_CARD, "ace-king"),
    ("2D JK", HIGH_CARD, "ace-two"),
    ("5C 5D", ONE_PAIR, "pair of fives"),
    ("QH 7C", HIGH_CARD, "queen-seven"),
    ("7C QH", HIGH_CARD, "queen-seven"),
]


@pytest.mark.parametrize("hand,category,words", KNOWN_LOW, ids=[k[0] for k in KNOWN_LOW])
def test_known_two_card_hands(hand, category, words):
    value = low_hand(cards(hand))
    assert value.category == category
    assert describe(value) == words


def test_two_card_hands_have_no_straight_or_flush():
    assert low_hand(cards("KS QS")) < low_hand(cards("AH 2D"))


def test_ten_spelled_10():
    assert high_hand(cards("AS KS QS JS 10S")) == high_hand(cards("AS KS QS JS TS"))


@pytest.mark.parametrize("bad", [["AS", "KS", "QS", "JS"], ["AS", "KS", "QS", "JS", "XX"], ["AS", "KS", "QS", "JK", "JK"]])
def test_not_a_hand(bad):
    with pytest.raises(BadHand):
        high_hand(bad)


# ------------------------------------------------------------------ fouls

FOULS = [
    # (five-card hand, two-card hand, fouled?)
    ("AS QH 9D 7C 2S", "KD KC", True),  # a pair behind ace high
    ("QS QH 9D 7C 2S", "KD KC", True),  # a higher pair behind
    ("KS KH 9D 7C 2S", "QD QC", False),
    ("AS KH 9D 7C 2S", "AD QC", False),  # ace-king-nine... outranks ace-queen
    ("AS QH 9D 7C 2S", "AD KC", True),  # ace-queen... is below ace-king
    ("AS KH 9D 7C 2S", "JK KC", False),  # ace-king-nine beats the joker's ace-king
    ("AS AH 9D 7C 2S", "AD AC", False),  # equal pairs: the five-card hand has kickers
    ("KS QH 9D 7C 2S", "JK 3C", True),  # the joker's ace outranks the king
    ("2S 3H 4D 5C 6S", "AD AC", False),  # any straight outranks any two-card hand
    ("9S 9H 4D 4C 2S", "AD AC", False),
]


@pytest.mark.parametrize("high,low,foul", FOULS)
def test_foul(high, low, foul):
    assert fouled(high_hand(cards(high)), low_hand(cards(low))) is foul


# ------------------------------------------------------------------ outcomes and copies (68 IAC 10-9-4(b))


def _outcome(ph, pl, dh, dl):
    return outcome(high_hand(cards(ph)), low_hand(cards(pl)), high_hand(cards(dh)), low_hand(cards(dl)))


def test_both_hands_higher_wins():  # (b)(1)
    assert _outcome("KS KH 9D 7C 2S", "AD QC", "QS QH 9C 7D 3S", "AH JC") == "win"


def test_one_hand_each_is_a_push():  # (b)(3)
    assert _outcome("KS KH 9D 7C 2S", "AD 2C", "QS QH 9C 7D 3S", "AH JC") == "push"


def test_both_hands_lower_loses():  # (b)(4)
    assert _outcome("QS QH 9C 7D 3S", "AH JC", "KS KH 9D 7C 2S", "AD QC") == "lose"


def test_copy_hand_goes_to_the_dealer():  # (b)(2)
    # the low hands are a copy (ace-queen both): the player wins only the high hand: a push
    assert _outcome("KS KH 9D 7C 2S", "AD QC", "QS QH 9C 7D 3S", "AH QD") == "push"
    # both copies: the player loses
    assert _outcome("KS KH 9D 7C 2S", "AD QC", "KD KC 9H 7S 2H", "AH QD") == "lose"


def test_copy_with_the_joker():
    # the joker completes a flush identical in value to the dealer's flush: a copy
    assert compare(high_hand(cards("KS 9S 4S 2S JK")), high_hand(cards("AH KH 9H 4H 2H"))) == 0
    # the joker's ace-king is a copy of a natural ace-king
    assert compare(low_hand(cards("JK KD")), low_hand(cards("AC KS"))) == 0
    # the joker's straight to the ten copies a natural one
    assert compare(high_hand(cards("9H 8D 7C 6S JK")), high_hand(cards("TS 9C 8H 7D 6D"))) == 0


def test_suits_never_break_ties():
    assert compare(high_hand(cards("AS KH 9D 7C 2S")), high_hand(cards("AH KS 9C 7D 2H"))) == 0


# ------------------------------------------------------------------ properties

hands5 = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@settings(max_examples=300, deadline=None)
@given(st.lists(hands5, min_size=3, max_size=3))
def test_ranking_is_a_total_order_consistent_with_comparison(three):
    a, b, c = (high_hand(h) for h in three)
    # comparison is the ranking's order: antisymmetric, reflexive copies, transitive
    assert compare(a, b) == -compare(b, a)
    assert compare(a, a) == 0
    assert compare(a, b) == (a > b) - (a < b)
    if compare(a, b) >= 0 and compare(b, c) >= 0:
        assert compare(a, c) >= 0
    # and total: sorting by the ranking orders every pair by the comparison
    ordered = sorted((a, b, c))
    for x, y in itertools.combinations(ordered, 2):
        assert compare(x, y) <= 0


@settings(max_examples=300, deadline=None)
@given(hands5, st.permutations(range(5)), st.permutations("SHDC"))
def test_rank_ignores_card_order_and_suit_names(hand, order, suits):
    rename = dict(zip("SHDC", suits))
    shuffled = [hand[i] for i in order]
    renamed = [c if c == JOKER else c[0] + rename[c[1]] for c in shuffled]
    assert high_hand(hand) == high_hand(renamed)


def _brute_force_joker(others: list[str]) -> HandValue:
    """The bug rule spelled out: the joker is any ace, or any card that makes a straight or a flush."""
    if sum(c[0] == "A" for c in others) == 4:
        return HandValue(FIVE_ACES, (ACE,))  # no ace left in the deck: the joker is the fifth
    best = None
    for card in DECK[:-1]:
        if card in others:
            continue
        candidate = high_hand(others + [card])
        if card[0] == "A" or candidate.category in (STRAIGHT, FLUSH, STRAIGHT_FLUSH):
            best = candidate if best is None or candidate > best else best
    return best


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(DECK[:-1]), min_size=4, max_size=4, unique=True))
def test_joker_takes_the_best_value_the_bug_allows(four):
    assert high_hand(four + [JOKER]) == _brute_force_joker(four)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True))
def test_every_seven_cards_can_be_set_without_a_foul(seven):
    assert any(not fouled(high_hand([c for c in seven if c not in low]), low_hand(list(low)))
               for low in itertools.combinations(seven, 2))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=2, max_size=2, unique=True),
       st.lists(st.sampled_from(DECK), min_size=2, max_size=2, unique=True))
def test_two_card_comparison_is_by_value(x, y):
    def values(h):
        return sorted((ACE if c == JOKER else VALUE[c[0]]) for c in h)
    assert (compare(low_hand(x), low_hand(y)) == 0) == (values(x) == values(y))
