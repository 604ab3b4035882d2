"""The dealer's calls before the deal."""

from __future__ import annotations

from typing import Literal

from compliance.checks import Breach, Params
from compliance.games.baccarat.checks.register import check
from compliance.games.baccarat.replay import CoupState

WORDS = {"no_more_bets": '"No more bets"', "cards": '"Cards"'}


class CallParams(Params):
    calls: list[Literal["no_more_bets", "cards"]] = ["no_more_bets", "cards"]
    """the calls required before the first card, in the order they must come"""
    in_no_bet_coup: bool = False
    """the calls are required in a no bet coup too (where no wager is taken, so no betting is closed)"""


@check("procedure.calls", "procedure.call-missing", CallParams, needs=("calls", "cards"))
def calls(c: CoupState, p: CallParams, t):
    """Each required call is made before the first card of the coup, in the required order
    (one finding names every call that is missing); a no bet coup needs them only where the rule says so."""
    if c.first_card_at is None or (c.no_bet and not p.in_no_bet_coup):
        return ()
    first = c.first_card_at
    made = {}  # call -> where it was first made
    for call, at in c.calls:
        made.setdefault(call, at)
    out = []
    missing = [WORDS[call] for call in p.calls if made.get(call, first + 1) > first]
    if missing:
        were = "was" if len(missing) == 1 else "were"
        out.append(Breach(first, f"{' and '.join(missing)} {were} not called before the first card"))
    last = -1
    for call in p.calls:
        at = made.get(call)
        if at is None or at > first:
            continue
        if at < last:
            out.append(Breach(at, f"{WORDS[call]} was called out of order (required order: "
                                  + ", then ".join(WORDS[x] for x in p.calls) + ")"))
        else:
            last = at
    return out
