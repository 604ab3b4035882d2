"""The initial deal: four cards, Player, Banker, Player, Banker; at most one more card a hand; face down
where the procedure hands the cards to the players."""

from __future__ import annotations

from typing import Literal

from compliance.checks import Breach, Params, check
from compliance.games.baccarat.replay import BANKER, HAND, PLAYER, CoupState

ORDER = (PLAYER, BANKER, PLAYER, BANKER)


def dealt_in_order(c: CoupState) -> bool:
    """The initial cards dealt so far went Player, Banker, Player, Banker."""
    hands = tuple([h for h, _ in c.initial])
    return hands == ORDER[: len(hands)]


def voided_for_misdeal(c: CoupState) -> bool:
    """The coup was declared void for a misdeal: how the misdeal was put right is the misdeal rule's
    concern (an ``info`` finding when voiding was the remedy), not a second finding of the dealing rules."""
    return c.void is not None and c.void.reason == "misdeal"


@check("deal.initial-order", "deal.initial-order")
def initial_order(c: CoupState, p, t):
    """The first and third cards go to the Player's Hand, the second and fourth to the Banker's.

    A deal out of that order is compliant only if it was reconstructed (a
    ``reconstruct`` event restores two cards a hand); whether the
    reconstruction itself was right is an irregularity rule's concern.  A coup
    that goes on without two initial cards a hand, and is not void, breaks the
    rule too (the fourth card never came).
    """
    if c.reconstruct_at is not None or voided_for_misdeal(c):
        return ()  # put right by reconstruction or voided: the misdeal rule judges how
    if c.player_initial > 2 or c.banker_initial > 2:
        return ()  # one hand took the other's card: deal.extra-card's finding (one mistake, one finding)
    if dealt_in_order(c):
        return _incomplete(c) if not c.hands_complete else ()
    wrong = next(i for i, (h, _) in enumerate(c.initial) if h != ORDER[i])
    card = c.initial[wrong][1]
    dealt = ", ".join(f"{h.capitalize()} {d.code}" for h, d in c.initial)
    return (Breach(card.at, f"initial deal went {dealt}; card {wrong + 1} should have gone to the {HAND[ORDER[wrong]]} "
                   "(order: Player, Banker, Player, Banker)"),)


def _incomplete(c: CoupState):
    """A coup that went on (cards dealt, or a result announced) without two initial cards a hand,
    and was not declared void: the initial deal was never completed.  A result with no card recorded
    at all is worded as what it is, a record without its cards (it may be a dealing error or a
    partial recording; the record cannot tell)."""
    if c.hands_complete or c.void is not None or (not c.initial and c.result is None):
        return ()
    if not c.initial:  # a result with no card at all: the record lacks the deal, nothing says it went wrong
        r = c.result
        return (Breach(c.result_at, f"the result is recorded (Player {r.player_points}, Banker {r.banker_points}) "
                                    "but no card is: the record lacks the four initial cards, two to each hand, "
                                    "and any third card the result rests on"),)
    taken = next((m for m in c.moves if m.source is not None), None)
    if len(c.initial) == 4 and taken is not None:
        at, how = taken.at, f"after {taken.code} was moved out of the {HAND[taken.source]}"
    else:
        at = c.initial[-1][1].at
        how = f"after {len(c.initial)} initial card{'s' if len(c.initial) != 1 else ''}"
    return (Breach(at, f"the initial deal is incomplete {how}: the Player's Hand holds {c.player_initial} "
                       f"and the Banker's Hand {c.banker_initial} initial card(s); each hand gets two"),)


@check("deal.extra-card", "deal.extra-card")
def extra_card(c: CoupState, p, t):
    """No hand holds more than two initial cards, nor more than one additional card.

    A hand short of an initial card (the other hand took it) is not charged
    again for the cards it got after: it breaks this rule only past three cards.
    A coup declared void for the misdeal is judged by the misdeal rule (one
    mistake, one finding); a misdeal the coup went on with is a breach here.
    """
    if voided_for_misdeal(c):
        return ()
    out = []
    for hand in (PLAYER, BANKER):
        initial = c.player_initial if hand == PLAYER else c.banker_initial
        cards = c.player if hand == PLAYER else c.banker
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


class FaceDownParams(Params):
    when: Literal["hands_passed", "always"] = "hands_passed"
    """judge only the coups that record a hand passed to a patron (the procedure that deals face down is the
    one followed), or every coup"""
    third_cards: bool = False
    """a hand's additional card is dealt face down too, not only the four initial cards"""


@check("deal.face-down", "curator.handling", FaceDownParams)
def face_down(c: CoupState, p: FaceDownParams, t):
    """Where the procedure deals the cards face down (for the patrons to turn them), the initial cards, and
    where the rules say so the additional cards, are dealt face down: a card recorded as dealt face up
    breaks it (one finding a coup, naming every such card). A card whose face is not recorded is not judged,
    nor one found face up in the shoe or carried over (irregularities, judged by their own rules)."""
    if p.when == "hands_passed" and not c.passes:
        return ()
    dealt = [(to, card) for to, card in c.drawn if to == PLAYER or to == BANKER]
    judged = dealt if p.third_cards else dealt[:4]
    up = [(to, card) for to, card in judged if card.face == "up" and not card.found_face_up and not card.carried_over]
    if not up:
        return ()
    which = "cards" if p.third_cards else "initial cards"
    where = " where the hands are passed to the players" if p.when == "hands_passed" else ""
    listed = ", ".join(f"{card.code} to the {HAND[to]}" for to, card in up)
    were = "was" if len(up) == 1 else "were"
    return (Breach(up[0][1].at, f"{listed} {were} dealt face up; the {which} are dealt face down{where}"),)
