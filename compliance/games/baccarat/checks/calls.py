"""The dealer's calls before the deal."""

from __future__ import annotations

from typing import Literal

from compliance.checks import Breach, Params
from compliance.evidence import Unknown
from compliance.games.baccarat.checks.register import check
from compliance.games.baccarat.replay import CoupState

WORDS = {"no_more_bets": '"No more bets"', "cards": '"Cards"'}


class CallParams(Params):
    calls: list[Literal["no_more_bets", "cards"]] = ["no_more_bets", "cards"]
    """the calls required before the first card, in the order they must come"""
    in_no_bet_coup: bool = False
    """the calls are required in a no bet coup too (where no wager is taken, so no betting is closed)"""


@check("procedure.calls", "procedure.call-missing", CallParams, needs=("calls", "cards"),
       partly={("calls",): "a required call never made, or the calls made out of order, in a coup shown to be "
                           "dealt (a call made, or its result announced) without its cards"})
def calls(coup: CoupState, params: CallParams, table):
    """Each required call is made before the first card of the coup, in the required order
    (one finding names every call that is missing); a no bet coup needs them only where the rule says so."""
    if coup.no_bet and not params.in_no_bet_coup:
        return ()
    made = {}  # call -> where it was first made
    for call, at in coup.calls:
        made.setdefault(call, at)
    try:
        first = coup.first_card_at
    except Unknown as e:  # the cards not recorded: what the calls alone prove
        return _without_cards(coup, params, made, e)
    if first is None:
        return ()
    out = []
    missing = [WORDS[call] for call in params.calls if made.get(call, first + 1) > first]
    if missing:
        were = "was" if len(missing) == 1 else "were"
        out.append(Breach(first, f"{' and '.join(missing)} {were} not called before the first card"))
    return out + _out_of_order(params, made, first)


def _out_of_order(params: CallParams, made: dict, first: int | None) -> list[Breach]:
    """The required calls made before the first card (``first``; None: wherever they were made) that came
    out of the required order."""
    out = []
    last = -1
    for call in params.calls:
        at = made.get(call)
        if at is None or (first is not None and at > first):
            continue
        if at < last:
            out.append(Breach(at, f"{WORDS[call]} was called out of order (required order: "
                                  + ", then ".join(WORDS[x] for x in params.calls) + ")"))
        else:
            last = at
    return out


def _without_cards(coup: CoupState, params: CallParams, made: dict, unknown: Unknown):
    """A coup whose cards were not recorded: a required call never made is missing wherever the first card
    came, and required calls made in the wrong order are out of order (or one came after the first card);
    either way a breach, in a coup that was dealt (a call made, or its result announced).  Calls all made in
    order may still have come after the first card: that is not known."""
    if not made:
        try:
            dealt = coup.result is not None
        except Unknown:
            dealt = False
        if not dealt:
            raise unknown  # no call, no result: whether the coup was dealt at all is not known
    out = []
    missing = [WORDS[call] for call in params.calls if call not in made]
    if missing:
        were = "was" if len(missing) == 1 else "were"
        out.append(Breach(min(made.values(), default=None), f"{' and '.join(missing)} {were} never called "
                                                             "(the cards were not recorded)"))
    out += _out_of_order(params, made, None)
    if not out:
        raise unknown  # every call made, in order: whether before the first card is not known
    return out
