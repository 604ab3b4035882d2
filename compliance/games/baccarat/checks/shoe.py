"""The cards must fit the shoe they came from."""

from __future__ import annotations

from compliance.checks import Breach
from compliance.games.baccarat.checks.register import check
from compliance.games.baccarat.replay import CoupState


@check("shoe.integrity", "shoe.integrity", needs=("cards",), when=("integrity",))
def integrity(coup: CoupState, params, table):
    """No more copies of a card than the shoe's decks hold, no more cards than the shoe holds,
    and no card in two places (moved from a hand that does not hold it, carried over from nowhere)."""
    return [Breach(at, message) for at, message in coup.integrity]
