"""Simulated pai gow poker play, dealt and settled by the rules: transcripts that must check clean.

Each round shuffles the 53-card deck, deals seven cards to each of the
table's boxes and to the dealer, sets every hand the simple house way below
(never a foul) and settles each wager by 68 IAC 10-9-4(b) with the house's
payout of even money less the commission.  The same seed gives the same
transcript, byte for byte.
"""

from __future__ import annotations

import itertools
import json
import random
from decimal import Decimal
from pathlib import Path

from compliance.games.pai_gow.hands import DECK, fouled, high_hand, low_hand, outcome
from compliance.games.pai_gow.models import FORMAT

COMMISSION = Decimal("0.05")


def house_way(seven: list[str]) -> tuple[list[str], list[str]]:
    """A setting that never fouls: the highest two-card hand the five-card hand still outranks
    (ties broken by the higher five-card hand, then by the cards' order)."""
    best = None
    for low in itertools.combinations(seven, 2):
        high = [c for c in seven if c not in low]
        hv, lv = high_hand(high), low_hand(list(low))
        if fouled(hv, lv):
            continue
        if best is None or (lv, hv) > best[0]:
            best = ((lv, hv), high, list(low))
    return best[1], best[2]


def _money(amount: Decimal):
    """A JSON number for an exact amount (an int when whole)."""
    return int(amount) if amount == amount.to_integral_value() else float(amount)


def simulate(rounds: int = 100, seed: int = 1, boxes: int = 6, jurisdiction: str = "us-in-pai-gow") -> dict:
    """A whole ``.json`` pai gow transcript of ``rounds`` rounds of compliant play."""
    rng = random.Random(seed)
    patrons = [f"P-{n}" for n in range(1, 13)]
    header = {
        "format": FORMAT, "version": 1,
        "table": {"id": "PG-01", "jurisdiction": jurisdiction, "game": "pai_gow_poker", "seats": boxes,
                  "currency": "USD", "limits": {"min_wager": 10, "max_wager": 500}},
    }
    coups = []
    for number in range(1, rounds + 1):
        seated = {b: rng.choice(patrons) for b in range(1, boxes + 1) if rng.random() < 0.6}
        if len(set(seated.values())) != len(seated):  # one box a patron
            seated = {b: f"P-{number}-{b}" for b in seated}
        deck = list(DECK)
        rng.shuffle(deck)
        events: list[dict] = []
        stakes = {}
        for box in sorted(seated):
            stakes[box] = Decimal(rng.choice((10, 25, 50, 100, 250, 500)))
            events.append({"type": "wager", "box": box, "amount": _money(stakes[box])})
        hands = {}
        for k, position in enumerate(list(range(1, boxes + 1)) + ["dealer"]):
            hands[position] = deck[7 * k: 7 * k + 7]
            events.append({"type": "deal", "position": position, "cards": hands[position]})
        settings = {}
        for position in sorted(stakes) + ["dealer"]:
            high, low = house_way(hands[position])
            settings[position] = (high_hand(high), low_hand(low))
            events.append({"type": "set", "position": position, "high": high, "low": low})
        dealer = settings["dealer"]
        for box in sorted(stakes):
            result = outcome(*settings[box], *dealer)
            stake = stakes[box]
            if result == "win":
                apart = rng.random() < 0.3  # paid in full, the commission collected apart
                paid = stake if apart else stake - stake * COMMISSION
                events.append({"type": "settle", "box": box, "outcome": "win", "amount": _money(paid)})
                if apart:
                    events.append({"type": "commission", "box": box, "amount": _money(stake * COMMISSION)})
            else:
                events.append({"type": "settle", "box": box, "outcome": result,
                               "amount": _money(stake if result == "lose" else Decimal(0))})
        coups.append({"coup": number, "seated": {str(b): p for b, p in sorted(seated.items())}, "events": events})
    return {**header, "coups": coups}


def write(doc: dict, path: str | Path) -> Path:
    """Write a simulated transcript as ``.json`` or, by the suffix, ``.jsonl`` (header line, then a round a line)."""
    path = Path(path)
    if path.suffix == ".jsonl":
        header = {k: v for k, v in doc.items() if k != "coups"}
        lines = [json.dumps(header)] + [json.dumps(c) for c in doc["coups"]]
        path.write_text("\n".join(lines) + "\n")
    else:
        path.write_text(json.dumps(doc, indent=1) + "\n")
    return path
