"""Simulated high card play, settled by the rules: a transcript that checks clean (the same seed, the same file)."""

from __future__ import annotations

import random

from high_card.models import RANKS


def transcript(coups: int, seed: int = 1, jurisdiction: str = "toy-high-card") -> dict:
    rng = random.Random(seed)
    out = []
    for n in range(1, coups + 1):
        player, dealer = rng.choice(RANKS), rng.choice(RANKS)
        outcome = "win" if RANKS.index(player) > RANKS.index(dealer) else \
            "lose" if RANKS.index(player) < RANKS.index(dealer) else "push"
        out.append({"coup": n, "events": [
            {"type": "wager", "seat": 1, "amount": 10},
            {"type": "deal", "player": player, "dealer": dealer},
            {"type": "settle", "seat": 1, "outcome": outcome, "amount": 0 if outcome == "push" else 10}]})
    return {"format": "high-card-transcript", "version": 1,
            "table": {"id": "HC-1", "game": "high_card", "jurisdiction": jurisdiction}, "coups": out}
