"""The announced result must be what the cards say."""

from __future__ import annotations

from compliance.checks import Breach
from compliance.games.baccarat.checks.register import check
from compliance.games.baccarat.replay import BANKER, PLAYER, CoupState


@check("result.wrong", "result.wrong", needs=("hands", "values", "results"))
def wrong_result(coup: CoupState, params, table):
    """The dealer announces each hand's final point count and the winner as the cards give them."""
    if coup.void is not None or not coup.hands_complete:
        return ()
    pt, bt, winner = coup.final_total(PLAYER), coup.final_total(BANKER), coup.winner()
    r = coup.result
    if r is not None and r.player_points == pt and r.banker_points == bt and r.winner == winner:
        return ()
    truth = f"Player {pt}, Banker {bt}: {'a tie' if winner == 'tie' else winner.capitalize() + ' wins'}"
    if r is None:
        return (Breach(coup.last_event, f"no result was announced; the cards give {truth}"),)
    said = f"Player {r.player_points}, Banker {r.banker_points}, winner {r.winner}"
    return (Breach(coup.result_at, f"announced {said}; the cards give {truth}"),)
