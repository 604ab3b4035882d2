"""Third cards, judged by the ruleset's tableau against what actually happened before.

If the Player's Hand wrongly stood, the Banker's Hand is judged by the rule
for a Player's Hand that stood (spec: one mistake, one finding).
"""

from __future__ import annotations

import itertools

from compliance.checks import Breach
from compliance.evidence import Unknown
from compliance.games.baccarat.checks.register import check
from compliance.games.baccarat.replay import BANKER, PLAYER, CoupState

#: what the drawing rules still judge where a card in the hands was not read (``??``): a draw whatever its value
UNREAD = {("cards", "hands"): "a third card drawn where a natural or the drawing hand's own total forbids any, "
                              "whatever the value of a card not read (??)"}


def is_natural(coup: CoupState, table) -> bool:
    """Either hand's two initial cards are a natural: no hand draws (known where one hand's natural is, even
    if the other hand's total is not)."""
    naturals = table.tableau.naturals
    try:
        if coup.initial_total(PLAYER) in naturals:
            return True
    except Unknown:
        if coup.initial_total(BANKER) in naturals:
            return True
        raise
    return coup.initial_total(BANKER) in naturals


def player_must_draw(coup: CoupState, table) -> bool:
    """The tableau has the Player's Hand draw on its initial total (and neither hand is a natural)."""
    return not is_natural(coup, table) and coup.initial_total(PLAYER) in table.tableau.player_draws


def banker_must_draw(coup: CoupState, table) -> bool:
    """The tableau has the Banker's Hand draw, given the Player's actual third card (or none)."""
    if is_natural(coup, table):
        return False
    player_extra = coup.extra_cards(PLAYER)
    third = player_extra[0].points if player_extra else None
    if third is None and player_extra:
        raise Unknown("values")  # the Player's third card was not read: the tableau's column is not known
    return table.tableau.banker_draws(coup.initial_total(BANKER), third)


def _natural(coup: CoupState, table) -> str | None:
    """Which natural stops the drawing, in words (None: neither hand has one; Unknown where neither is known
    to have one and a hand's total is not known)."""
    naturals = table.tableau.naturals
    unknown = None
    for hand, whose in ((PLAYER, "Player"), (BANKER, "Banker")):
        try:
            total = coup.initial_total(hand)
        except Unknown as e:
            unknown = e
            continue
        if total in naturals:
            return f"the {whose}'s Hand has a natural {total}"
    if unknown is not None:
        raise unknown
    return None


def _on(coup: CoupState, hand: str) -> str:
    """" on 7": the hand's initial total, where it is known."""
    try:
        return f" on {coup.initial_total(hand)}"
    except Unknown:
        return ""


def _deal_end(coup: CoupState) -> int | None:
    """Event where the initial deal ended: where a missing third card was due."""
    if coup.reconstruct_at is not None:
        return coup.reconstruct_at
    return coup.initial[-1][1].at if coup.initial else None


@check("third-card.player.illegal", "third-card.player.illegal", needs=("hands", "values"), when=("player_extra",),
       partly=UNREAD)
def player_drew(coup: CoupState, params, table):
    """The Player's Hand draws only on a total the tableau says draws, and never when either hand is a natural."""
    if not coup.hands_complete:
        return ()
    extra = coup.extra_cards(PLAYER)
    if not extra:
        return ()
    try:
        natural = _natural(coup, table)
    except Unknown as e:  # the Banker's total not known: the Player's own total may still forbid the draw
        natural, unknown = None, e
    else:
        unknown = None
    if natural:
        why = f"{natural}: no hand draws"
    else:
        total = coup.initial_total(PLAYER)
        if total in table.tableau.player_draws:
            if unknown is not None:
                raise unknown  # the Player may draw on its total, unless the Banker's unknown total is a natural
            return ()
        why = f"the Player's Hand stands on {total}"
    return (Breach(extra[0].at, f"Player drew {extra[0].code}{_on(coup, PLAYER)} although {why}"),)


@check("third-card.player.missing", "third-card.player.missing", needs=("hands", "values"))
def player_stood(coup: CoupState, params, table):
    """The Player's Hand draws on every total the tableau says draws, unless either hand is a natural."""
    if not coup.hands_complete or coup.extra_cards(PLAYER) or coup.void is not None:
        return ()
    if not player_must_draw(coup, table):
        return ()
    total = coup.initial_total(PLAYER)
    return (Breach(_deal_end(coup), f"Player stood on {total} although the Player's Hand draws on {total}"),)


def _banker_why(coup: CoupState, table, draws: bool) -> str:
    """Why the Banker's Hand draws or stands (worded only for a finding)."""
    natural = _natural(coup, table)
    if natural:
        return natural
    total = coup.initial_total(BANKER)
    player_extra = coup.extra_cards(PLAYER)
    if not player_extra:
        return f"the Player's Hand stood; the Banker {'draws' if draws else 'stands'} on {total}"
    third = player_extra[0]
    return (f"the Player's third card was {third.points} ({third.code}); "
            f"the Banker {'draws' if draws else 'stands'} on {total} against {_a(third.points)}")


def _a(points: int) -> str:
    """'a 3', 'an 8'."""
    return f"an {points}" if points == 8 else f"a {points}"


@check("third-card.banker.illegal", "third-card.banker.illegal", needs=("hands", "values"), when=("banker_extra",),
       partly=UNREAD)
def banker_drew(coup: CoupState, params, table):
    """The Banker's Hand draws only where the tableau says draw, given the Player's actual third card (or none),
    and only once the Player's Hand is complete: a Banker card dealt before the Player's third card is a breach."""
    if not coup.hands_complete:
        return ()
    extra = coup.extra_cards(BANKER)
    if not extra:
        return ()
    player_extra = coup.extra_cards(PLAYER)
    if player_extra and player_extra[0].at > extra[0].at:
        return (Breach(extra[0].at, f"Banker drew {extra[0].code} before the Player's third card ({player_extra[0].code}) "
                                    "was dealt; the Player's Hand is completed first"),)
    try:
        if banker_must_draw(coup, table):
            return ()
        why = _banker_why(coup, table, False)
    except Unknown:  # a card not read: judged if the Banker stands whatever its value
        tableau = table.tableau
        if _whatever_unread(coup, lambda p, b, third: b not in tableau.naturals and p not in tableau.naturals
                            and tableau.banker_draws(b, third)):
            return ()
        why = "the Banker's Hand stands there whatever the value of the card not read (??)"
    return (Breach(extra[0].at, f"Banker drew {extra[0].code}{_on(coup, BANKER)} although {why}"),)


_VALUES = range(10)


def _possible(c: CoupState, index: int) -> list[int]:
    """The initial totals a hand may have: its total where every card was read, else every total 0 to 9."""
    try:
        return [c.points[index]]
    except Unknown:
        return list(_VALUES)


def _whatever_unread(c: CoupState, decide) -> bool:
    """``decide(player_total, banker_total, player_third)`` (the initial totals, the Player's third card's points or
    None) where it gives one answer whatever the values of the cards not read (??); Unknown where the values
    change it.  A card's value matters only where it changes the answer."""
    extra = c.extra_cards(PLAYER)
    thirds = [None] if not extra else [extra[0].points] if extra[0].points is not None else list(_VALUES)
    answers = {decide(p, b, third) for p in _possible(c, 0) for b in _possible(c, 1) for third in thirds}
    if len(answers) != 1:
        raise Unknown("values")
    return answers.pop()


@check("third-card.banker.missing", "third-card.banker.missing", needs=("hands", "values"))
def banker_stood(coup: CoupState, params, table):
    """The Banker's Hand draws wherever the tableau says draw, given the Player's actual third card (or none)."""
    if not coup.hands_complete or coup.extra_cards(BANKER) or coup.void is not None:
        return ()
    if not banker_must_draw(coup, table):
        return ()
    player_extra = coup.extra_cards(PLAYER)
    at = player_extra[0].at if player_extra else _deal_end(coup)
    return (Breach(at, f"Banker stood on {coup.initial_total(BANKER)} although {_banker_why(coup, table, True)}"),)


#: additional cards the readings are enumerated for (two readings a card); with more, a hand drew more than one
_MOST_EXTRA = 2


def reading_breach(points: list[int], hands: tuple[str, ...], table) -> str | None:
    """The first drawing rule a reading of cards dealt in order breaks (each card's hand, the first four the
    Player's, the Banker's, the Player's, the Banker's), in words; None where the reading complies."""
    tableau = table.tableau
    p, b = (points[0] + points[2]) % 10, (points[1] + points[3]) % 10
    extra = {h: [(i, points[i]) for i in range(4, len(points)) if hands[i] == h] for h in (PLAYER, BANKER)}
    for hand, whose in ((PLAYER, "Player"), (BANKER, "Banker")):
        if len(extra[hand]) > 1:
            return f"the {whose}'s Hand drew {len(extra[hand])} additional cards"
    natural = next((f"the {whose}'s Hand has a natural {total}" for total, whose in ((p, "Player"), (b, "Banker"))
                    if total in tableau.naturals), None)
    if natural is not None:
        return f"the {'Player' if extra[PLAYER] else 'Banker'} drew although {natural}"
    if extra[PLAYER] and p not in tableau.player_draws:
        return f"the Player drew on {p}"
    if not extra[PLAYER] and p in tableau.player_draws:
        return f"the Player stood on {p}"
    if extra[PLAYER] and extra[BANKER] and extra[BANKER][0][0] < extra[PLAYER][0][0]:
        return "the Banker drew before the Player's Hand was complete"
    third = extra[PLAYER][0][1] if extra[PLAYER] else None
    against = f"against {_a(third)}" if third is not None else "after the Player stood"
    draws = tableau.banker_draws(b, third)
    if extra[BANKER] and not draws:
        return f"the Banker drew on {b} {against}"
    if not extra[BANKER] and draws:
        return f"the Banker stood on {b} {against}"
    return None


@check("third-card.no-legal-reading", "third-card.no-legal-reading", needs=("cards",), when=("unplaced", "unsplit"),
       partly={("coups",): "both hands' five cards whose split was not read (hands_unsplit): whether either split "
                           "complies with the tableau"})
def no_legal_reading(coup: CoupState, params, table):
    """Cards recorded in the order they were dealt, without the hand each went to (a shoe log of the order
    only), comply with the tableau in some reading of where the additional cards went: where no reading
    complies, a drawing rule was broken whichever it was.  So do both hands' five cards recorded without how
    many are the Player's (a cell of both hands that splits either way): where neither split complies, the
    tableau was broken whichever it was."""
    if coup.unsplit:
        return _no_legal_split(coup.unsplit, table)
    cards = coup.unplaced
    if len(cards) <= 4:
        return ()
    codes = " ".join(code for code, _ in cards)
    if len(cards) - 4 > _MOST_EXTRA:
        return (Breach(None, f"the cards dealt, in this order ({codes}), hold {len(cards) - 4} additional cards: "
                             "whichever hand each went to, a hand drew more than one"),)
    points = [v for _, v in cards]
    if None in points:
        raise Unknown("values")  # a card not read (??): which readings comply depends on its value
    said = []
    for extra in itertools.product((PLAYER, BANKER), repeat=len(cards) - 4):
        broken = reading_breach(points, (PLAYER, BANKER, PLAYER, BANKER) + extra, table)
        if broken is None:
            return ()
        said.append(f"{', '.join(f'{code} to the {h.capitalize()}' for (code, _), h in zip(cards[4:], extra))}: "
                    f"{broken}")
    return (Breach(None, f"the cards dealt, in this order ({codes}), break the tableau whichever hand each additional "
                         f"card went to: {'; '.join(said)}"),)


#: the splits of both hands' five cards, the Player's first: the hand that drew, and the dealing order of the cards
#: (Player, Banker, Player, Banker, then the third card) as places in the list
_SPLITS = ((PLAYER, (0, 3, 1, 4, 2)), (BANKER, (0, 2, 1, 3, 4)))


def _no_legal_split(cards: tuple, table) -> tuple:
    points = [v for _, v in cards]
    if None in points:
        raise Unknown("values")  # a card not read (??): which split complies depends on its value
    said = []
    for drew, order in _SPLITS:
        broken = reading_breach([points[i] for i in order], (PLAYER, BANKER, PLAYER, BANKER, drew), table)
        if broken is None:
            return ()
        k = 3 if drew == PLAYER else 2
        said.append(f"Player {' '.join(c for c, _ in cards[:k])}, Banker {' '.join(c for c, _ in cards[k:])}: "
                    f"{broken}")
    codes = " ".join(code for code, _ in cards)
    return (Breach(None, f"both hands' cards ({codes}, the Player's first; the split between them was not read) "
                         f"break the tableau whichever way they are split: {'; '.join(said)}"),)
