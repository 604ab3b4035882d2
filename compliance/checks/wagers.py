"""Wagers: when they may be placed, by whom, how much."""

from __future__ import annotations

from compliance.checks import Breach, check
from compliance.replay import CoupState, describe_bettor


@check("wager.late", "wager.late")
def late(c: CoupState, p, t):
    """No wager is placed or increased after "no more bets" is called or after the first card is dealt."""
    out = []
    for ch in c.changes:
        if not ch.late:
            continue
        when = "after the first card" if ch.after_first_card else "after \"no more bets\""
        what = "placed" if ch.kind == "wager" else f"increased from {t.money(ch.before)} to"
        out.append(Breach(ch.at, f"{describe_bettor(ch.bettor)} {ch.spot} wager {what} {t.money(ch.after)} {when}"))
    return out
