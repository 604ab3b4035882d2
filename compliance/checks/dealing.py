"""The initial deal: four cards, Player, Banker, Player, Banker; at most one more card a hand."""

from __future__ import annotations

from compliance.checks import Breach, check
from compliance.replay import BANKER, PLAYER, CoupState

ORDER = (PLAYER, BANKER, PLAYER, BANKER)


@check("deal.initial-order", "deal.initial-order")
def initial_order(c: CoupState, p, t):
    """The first and third cards go to the Player's Hand, the second and fourth to the Banker's.

    A deal out of that order is compliant only if it was reconstructed (a
    ``reconstruct`` event restores two cards a hand); whether the
    reconstruction itself was right is an irregularity rule's concern.
    """
    hands = tuple(h for h, _ in c.initial)
    if hands == ORDER[: len(hands)] or c.reconstruct_at is not None:
        return ()
    wrong = next(i for i, h in enumerate(hands) if h != ORDER[i])
    card = c.initial[wrong][1]
    dealt = ", ".join(f"{h.capitalize()} {d.code}" for h, d in c.initial)
    return (Breach(card.at, f"initial deal went {dealt}; card {wrong + 1} should have gone to the {ORDER[wrong].capitalize()}'s Hand "
                   "(order: Player, Banker, Player, Banker)"),)


@check("deal.extra-card", "deal.extra-card")
def extra_card(c: CoupState, p, t):
    """No hand holds more than two initial cards, nor more than one additional card."""
    out = []
    for hand in (PLAYER, BANKER):
        initial = c.player_initial if hand == PLAYER else c.banker_initial
        if initial > 2:
            cards = c.player if hand == PLAYER else c.banker
            out.append(Breach(cards[2].at, f"the {hand.capitalize()}'s Hand received {initial} initial cards; it gets two"))
        extra = c.extra_cards(hand)
        if len(extra) > 1:
            out.append(Breach(extra[1].at, f"the {hand.capitalize()}'s Hand received {len(extra)} additional cards "
                                           f"({', '.join(x.code for x in extra)}); at most one additional card is dealt to a hand"))
    return out
