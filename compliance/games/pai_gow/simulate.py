"""Simulated pai gow poker play, dealt and settled by the rules: transcripts that must check clean.

Each round shuffles the 53-card deck, deals seven cards to each of the
table's boxes and to the dealer, sets every hand the simple house way below
(never a foul) and settles each wager by 68 IAC 10-9-4(b) with the payout and
commission of the ruleset's pai gow settlement rule.  Amounts are exact
decimals, written as JSON numbers; the same seed gives the same transcript,
byte for byte.
"""

from __future__ import annotations

import itertools
import random
from decimal import Decimal
from pathlib import Path

import msgspec

from compliance.errors import UserError
from compliance.games import SimulateRequest
from compliance.games.common import encode, plain
from compliance.games.pai_gow.checks import SettlementParams
from compliance.games.pai_gow.hands import DECK, fouled, high_hand, low_hand, outcome
from compliance.games.pai_gow.models import FORMAT
from compliance.ruleset.models import Ruleset


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


def settlement_params(ruleset: Ruleset) -> SettlementParams:
    """The payout and commission of the ruleset's pai gow settlement rule (the rule's defaults if it has none)."""
    rules = ruleset.rules
    return next((r.params for r in rules if r.check == "pai-gow.settlement.amount"), SettlementParams())


def simulate(ruleset: Ruleset, rounds: int = 100, seed: int = 1, boxes: int = 6) -> dict:
    """A whole ``.json`` pai gow transcript of ``rounds`` rounds of compliant play under ``ruleset``."""
    pay = settlement_params(ruleset)
    rng = random.Random(seed)
    patrons = [f"P-{n}" for n in range(1, 13)]
    header = {
        "format": FORMAT, "version": 1,
        "table": {"id": "PG-01", "jurisdiction": ruleset.id, "game": "pai_gow_poker", "seats": boxes,
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
            events.append({"type": "wager", "box": box, "amount": plain(stakes[box])})
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
                winnings = stake * pay.odds
                commission = winnings * pay.commission
                paid = winnings if apart else winnings - commission
                events.append({"type": "settle", "box": box, "outcome": "win", "amount": plain(paid)})
                if apart:
                    events.append({"type": "commission", "box": box, "amount": plain(commission)})
            else:
                events.append({"type": "settle", "box": box, "outcome": result,
                               "amount": plain(stake if result == "lose" else Decimal(0))})
        coups.append({"coup": number, "seated": {str(b): p for b, p in sorted(seated.items())}, "events": events})
    return {**header, "coups": coups}


def write(doc: dict, path: str | Path) -> Path:
    """Write a simulated transcript as ``.json`` or, by the suffix, ``.jsonl`` (header line, then a round a line)."""
    path = Path(path)
    path.write_bytes(encoded(doc, "jsonl" if path.suffix == ".jsonl" else "json"))
    return path


def encoded(doc: dict, encoding: str) -> bytes:
    """A simulated transcript as ``json`` or ``jsonl`` bytes."""
    if encoding == "jsonl":
        header = {k: v for k, v in doc.items() if k != "coups"}
        lines = [msgspec.json.format(encode(obj), indent=0) for obj in [header, *doc["coups"]]]
        return b"\n".join(lines) + b"\n"
    return msgspec.json.format(encode(doc), indent=1) + b"\n"


class Simulation:
    """A simulated pai gow poker table, as ``simulate`` asks for one (:class:`compliance.games.Simulation`)."""

    OPTIONS = ("--seats", "--currency")  # the options of `simulate` it plays: boxes, and the header's currency

    def __init__(self, ruleset: Ruleset, request: SimulateRequest):
        refused = [flag for flag in request.given() if flag not in self.OPTIONS]
        if refused:
            raise UserError(f"the pai gow poker simulator plays rounds by the rules only: {', '.join(refused)} "
                            f"{'is' if len(refused) == 1 else 'are'} baccarat's (it takes --coups, --seed, --seats, "
                            f"--table-id and --currency)")
        self.doc = simulate(ruleset, rounds=request.coups, seed=request.seed, boxes=request.seats or 6)
        self.doc["table"]["id"] = request.table_id
        if request.currency is not None:
            self.doc["table"]["currency"] = request.currency

    def write(self, out, encoding: str, on_coup=None) -> None:
        out.write(encoded(self.doc, encoding))

    def made(self) -> dict:
        return {}

    def summary(self) -> str:
        return f"{len(self.doc['coups'])} rounds played by the rules"


def simulation(ruleset: Ruleset, request: SimulateRequest) -> Simulation:
    return Simulation(ruleset, request)
