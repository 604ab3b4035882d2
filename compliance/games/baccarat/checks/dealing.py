"""The initial deal: four cards, Player, Banker, Player, Banker; at most one more card a hand; face down
where the procedure hands the cards to the players, face up where the rules deal them so."""

from __future__ import annotations

from typing import Literal

from compliance.checks import Breach, Params
from compliance.games.baccarat.checks.register import check
from compliance.games.baccarat.replay import BANKER, HAND, PLAYER, CoupState

ORDER = (PLAYER, BANKER, PLAYER, BANKER)


def dealt_in_order(coup: CoupState) -> bool:
    """The initial cards dealt so far went Player, Banker, Player, Banker."""
    hands = tuple([h for h, _ in coup.initial])
    return hands == ORDER[: len(hands)]


def voided_for_misdeal(coup: CoupState) -> bool:
    """The coup was declared void for a misdeal: how the misdeal was put right is the misdeal rule's
    concern (an ``info`` finding when voiding was the remedy), not a second finding of the dealing rules."""
    return coup.void is not None and coup.void.reason == "misdeal"


@check("deal.initial-order", "deal.initial-order", needs=("hands", "order"))
def initial_order(coup: CoupState, params, table):
    """The first and third cards go to the Player's Hand, the second and fourth to the Banker's.

    A deal out of that order is compliant only if it was reconstructed (a
    ``reconstruct`` event restores two cards a hand); whether the
    reconstruction itself was right is an irregularity rule's concern.  A coup
    that goes on without two initial cards a hand, and is not void, breaks the
    rule too (the fourth card never came).
    """
    if coup.reconstruct_at is not None or voided_for_misdeal(coup):
        return ()  # put right by reconstruction or voided: the misdeal rule judges how
    if coup.player_initial > 2 or coup.banker_initial > 2:
        return ()  # one hand took the other's card: deal.extra-card's finding (one mistake, one finding)
    if dealt_in_order(coup):
        return _incomplete(coup) if not coup.hands_complete else ()
    wrong = next(i for i, (h, _) in enumerate(coup.initial) if h != ORDER[i])
    card = coup.initial[wrong][1]
    dealt = ", ".join(f"{h.capitalize()} {d.code}" for h, d in coup.initial)
    return (Breach(card.at, f"initial deal went {dealt}; card {wrong + 1} should have gone to the {HAND[ORDER[wrong]]} "
                   "(order: Player, Banker, Player, Banker)"),)


def _incomplete(coup: CoupState):
    """A coup that went on (cards dealt, or a result announced) without two initial cards a hand,
    and was not declared void: the initial deal was never completed.  A result with no card recorded
    at all is worded as what it is, a record without its cards (it may be a dealing error or a
    partial recording; the record cannot tell)."""
    if coup.hands_complete or coup.void is not None or (not coup.initial and coup.result is None):
        return ()
    if not coup.initial:  # a result with no card at all: the record lacks the deal, nothing says it went wrong
        r = coup.result
        return (Breach(coup.result_at, f"the result is recorded (Player {r.player_points}, Banker {r.banker_points}) "
                                    "but no card is: the record lacks the four initial cards, two to each hand, "
                                    "and any third card the result rests on"),)
    taken = next((m for m in coup.moves if m.source is not None), None)
    if len(coup.initial) == 4 and taken is not None:
        at, how = taken.at, f"after {taken.code} was moved out of the {HAND[taken.source]}"
    else:
        at = coup.initial[-1][1].at
        how = f"after {len(coup.initial)} initial card{'s' if len(coup.initial) != 1 else ''}"
    return (Breach(at, f"the initial deal is incomplete {how}: the Player's Hand holds {coup.player_initial} "
                       f"and the Banker's Hand {coup.banker_initial} initial card(s); each hand gets two"),)


@check("deal.extra-card", "deal.extra-card", needs=("hands",))
def extra_card(coup: CoupState, params, table):
    """No hand holds more than two initial cards, nor more than one additional card.

    A hand short of an initial card (the other hand took it) is not charged
    again for the cards it got after: it breaks this rule only past three cards.
    A coup declared void for the misdeal is judged by the misdeal rule (one
    mistake, one finding); a misdeal the coup went on with is a breach here.
    """
    if voided_for_misdeal(coup):
        return ()
    out = []
    for hand in (PLAYER, BANKER):
        initial = coup.player_initial if hand == PLAYER else coup.banker_initial
        cards = coup.player if hand == PLAYER else coup.banker
        if initial > 2:
            out.append(Breach(cards[2].at, f"the {HAND[hand]} received {initial} initial cards; it gets two"))
        elif len(cards) > 3 and initial == 2:
            extra = cards[2:]
            out.append(Breach(extra[1].at, f"the {HAND[hand]} received {len(extra)} additional cards "
                                           f"({', '.join(x.code for x in extra)}); at most one additional card is dealt to a hand"))
        elif len(cards) > 3:
            out.append(Breach(cards[3].at, f"the {HAND[hand]} holds {len(cards)} cards "
                                           f"({', '.join(x.code for x in cards)}); a hand holds at most three"))
    return out


Face = Literal["up", "down"]  # the order of the transcript format's `face` (equal Literals share one schema)


class FaceDownParams(Params):
    when: Literal["hands_passed", "always", "dealt_face_down"] = "hands_passed"
    """judge only the coups that record a hand passed to a patron (the procedure that deals face down is the
    one followed), every coup the rule applies to, or the coups whose record shows an initial card dealt face
    down (the deal was face down: a record of the cards as the dealer lays them out, every one face up, is not)"""
    initial: Face | None = "down"
    """the face the four initial cards are dealt with (null: not judged)"""
    player_third: Face | None = None
    """the face the Player's additional card is dealt with (null: not judged)"""
    banker_third: Face | None = None
    """the face the Banker's additional card is dealt with (null: not judged)"""


_WHICH = {  # the cards a rule requires dealt with one face, as a message names them
    ("initial",): "initial cards are", ("initial", "player_third", "banker_third"): "cards are",
    ("player_third", "banker_third"): "additional cards are", ("player_third",): "Player's additional card is",
    ("banker_third",): "Banker's additional card is",
    ("initial", "player_third"): "initial cards and the Player's additional card are",
    ("initial", "banker_third"): "initial cards and the Banker's additional card are",
}


@check("deal.face-down", "curator.handling", FaceDownParams, needs=("cards", "faces", "passes"))
def face_down(coup: CoupState, params: FaceDownParams, table):
    """The cards are dealt with the face the procedure gives them: face down where a patron (or the dealer)
    turns them, face up where the rules deal them face up; the four initial cards and each hand's
    additional card each by their own parameter.  A card recorded with the other face breaks it (one
    finding a coup, naming every such card).  A card whose face is not recorded is not judged, nor one
    found face up in the shoe, carried over, or moved out of its hand (irregularities, judged by their own
    rules)."""
    if params.when == "hands_passed" and not coup.passes:
        return ()
    if params.when == "dealt_face_down" and not any(card.face == "down" for _, card in coup.to_hands[:4]):
        return ()
    wrong = None  # required face -> the cards dealt with the other
    initial, player_third, banker_third = params.initial, params.player_third, params.banker_third
    first = 0 if initial is not None else 4  # the initial cards' face not judged: only the cards after them
    for i, (to, card) in enumerate(coup.to_hands[first:], first):
        want = initial if i < 4 else player_third if to == PLAYER else banker_third
        face = card.face
        if want is None or face is None or face == want or card.found_face_up or card.carried_over:
            continue
        if coup.moves and coup.move_of(card, to) is not None:
            continue  # dealt in error and moved out of the hand: an irregularity rule judges it
        if wrong is None:
            wrong = {"down": [], "up": []}
        wrong[want].append((to, card))
    if wrong is None:
        return ()
    if params.when == "hands_passed":
        where = " where the hands are passed to the players"
    elif params.when == "dealt_face_down":
        where = f" (the others were{' under dealing method ' + coup.method if coup.method else ''})"
    else:
        where = f" under dealing method {coup.method}" if coup.method else ""
    parts = []
    for want, other in (("down", "up"), ("up", "down")):
        if not wrong[want]:
            continue
        which = _WHICH[tuple(k for k in ("initial", "player_third", "banker_third") if getattr(params, k) == want)]
        listed = ", ".join(f"{card.code} to the {HAND[to]}" for to, card in wrong[want])
        were = "was" if len(wrong[want]) == 1 else "were"
        parts.append(f"{listed} {were} dealt face {other}; the {which} dealt face {want}{where}")
    first = min((cards[0][1] for cards in wrong.values() if cards), key=lambda card: card.at)
    return (Breach(first.at, "; ".join(parts)),)
