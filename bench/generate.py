"""Generate a large, clean ``.jsonl`` transcript: coups dealt by the rules, wagers settled right.

Used by the bench scripts (and the parallel tests) to make recordings of any
size.  Every coup follows the ruleset's tableau and spots, the dealer makes
the calls, shoes are changed when the cut card comes out, so a correct
checker reports nothing; ``--breach-every N`` settles one wager wrong in every
Nth coup to give the report something to carry.

    python bench/generate.py /tmp/year.jsonl --coups 1000000 --jurisdiction au-nsw
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from decimal import Decimal
from pathlib import Path

from compliance import games, registry
from compliance.cards import DECK, POINTS
from compliance.games.baccarat.spots import hand_facts, table_spots
from compliance.ruleset.loader import load_ruleset

SEATS = (1, 2, 3, 5, 6, 7, 8)
DECKS = 8
CUT = 14  # cards left behind the cut card


def _total(cards: list[str]) -> int:
    return sum(POINTS[c] for c in cards) % 10


def _money(x: Decimal):
    """A JSON number for a Decimal amount (an int when whole)."""
    return int(x) if x == x.to_integral_value() else float(x)


class Table:
    """Deals coups by the rules of one ruleset."""

    def __init__(self, jurisdiction: str, seed: int, method: str | None, game: str = "punto_banco",
                 side_wagers: float = 0.0):
        rs = load_ruleset(jurisdiction)
        self.tableau = rs.game.tableau
        self.naturals = frozenset(self.tableau.naturals)
        self.spots = table_spots(rs.game.spots_for(game))
        self.main = [n for n, s in self.spots.items() if s.requires is None]
        self.weights = [45 if self.spots[n].differential else 10 for n in self.main]
        self.side = [n for n, s in self.spots.items() if s.requires is not None]
        self.side_wagers = side_wagers  # share of the main wagers with a side wager beside them
        self.jurisdiction = jurisdiction
        self.method = method
        self.rng = random.Random(seed)
        self.shoe_no = 0
        self.cards: list[str] = []
        self.seated = {}

    def new_shoe(self) -> str:
        self.shoe_no += 1
        self.cards = list(DECK) * DECKS
        self.rng.shuffle(self.cards)
        n = self.rng.randint(4, 40)
        self.seated = {str(s): f"P-{n * 100 + s}" for s in self.rng.sample(SEATS, self.rng.randint(2, 6))}
        return self.shoe_id(self.shoe_no)

    @staticmethod
    def shoe_id(n: int) -> str:
        return f"S-{n:06d}"

    def coup(self, number: int, shoe: str, breach: bool) -> dict:
        rng = self.rng
        events: list[dict] = []
        if len(self.cards) == DECKS * 52:  # a fresh shoe: burn the first card
            events.append({"type": "card", "card": self.cards.pop(), "to": "burn", "face": "down"})
        seats = [int(s) for s in self.seated]
        wagers = []
        for seat in rng.sample(seats, rng.randint(1, len(seats))):
            spot = rng.choices(self.main, self.weights)[0]
            amount = Decimal(20 * rng.randint(1, 25))
            wagers.append((seat, spot, amount))
            events.append({"type": "wager", "seat": seat, "spot": spot, "amount": _money(amount)})
            if self.side_wagers and rng.random() < self.side_wagers:
                allowed = [s for s in self.side if spot in self.spots[s].requires.wager_on]
                if allowed:
                    side = rng.choice(allowed)
                    stake = min(Decimal(20 * rng.randint(1, 5)), amount)
                    wagers.append((seat, side, stake))
                    events.append({"type": "wager", "seat": seat, "spot": side, "amount": _money(stake)})
        events.append({"type": "announce", "call": "no_more_bets"})
        events.append({"type": "announce", "call": "cards"})
        player, banker = [], []
        for hand in (player, banker, player, banker):
            hand.append(self.cards.pop())
        for code, to in zip((player[0], banker[0], player[1], banker[1]), ("player", "banker", "player", "banker")):
            events.append({"type": "card", "card": code, "to": to, "face": "up"})
        t = self.tableau
        p0, b0 = _total(player), _total(banker)
        if p0 not in t.naturals and b0 not in t.naturals:
            third = None
            if p0 in t.player_draws:
                player.append(self.cards.pop())
                third = POINTS[player[2]]
                events.append({"type": "card", "card": player[2], "to": "player", "face": "up"})
            if t.banker_draws(b0, third):
                banker.append(self.cards.pop())
                events.append({"type": "card", "card": banker[2], "to": "banker", "face": "up"})
        pt, bt = _total(player), _total(banker)
        winner = "player" if pt > bt else "banker" if bt > pt else "tie"
        events.append({"type": "result", "player_points": pt, "banker_points": bt, "winner": winner})
        facts = hand_facts(player, banker, self.naturals)
        for k, (seat, spot, amount) in enumerate(wagers):
            outcome, paid = self.settle(spot, amount, facts)
            if breach and k == 0:
                paid += 5
            events.append({"type": "settle", "seat": seat, "spot": spot, "outcome": outcome, "amount": _money(paid)})
        coup = {"coup": number, "shoe": shoe, "seated": self.seated, "events": events}
        if self.method:
            coup["dealing_method"] = self.method
        return coup

    def settle(self, spot: str, amount: Decimal, facts) -> tuple[str, Decimal]:
        outcome, odds, rate = self.spots[spot].outcome(facts)
        if outcome == "win":
            return "win", amount * odds - self.spots[spot].spot.commission_on(amount * odds, rate)
        return outcome, (amount if outcome == "lose" else Decimal(0))


def generate(path: str | Path, coups: int, jurisdiction: str = "au-nsw", seed: int = 1,
             method: str | None = "C", breach_every: int = 0, game: str = "punto_banco",
             side_wagers: float = 0.0) -> Path:
    """Write a transcript of ``coups`` coups to ``path`` (``.jsonl``) and return the path.  ``side_wagers``:
    the share of main wagers that get a side wager beside them (on a spot of ``game`` that allows it).  A
    ruleset of another game is played by that game's simulator (``Game.simulator``), by the rules."""
    ruleset = load_ruleset(jurisdiction)
    other = registry.get(ruleset.game_kind)
    if other.kind != registry.BACCARAT:
        if other.simulator is None or breach_every or side_wagers:
            raise SystemExit(f"{other.title}: played by its own simulator, by the rules, or not at all")
        sim = other.simulator.simulation(ruleset, games.SimulateRequest(coups=coups, seed=seed, table_id="BENCH"))
        with Path(path).open("wb") as f:
            sim.write(f, "jsonl")
        return Path(path)
    table = Table(jurisdiction, seed, method, game, side_wagers)
    # a shoe of 8 decks gives about 80 coups; list enough shoes in the header
    shoes = max(1, coups // 60 + 2)
    header = {
        "format": "baccarat-transcript", "version": "1.1" if table.side or game != "punto_banco" else 1,
        "table": {"id": "BAC-BENCH", "jurisdiction": jurisdiction, "game": game, "seats": 8,
                  "currency": "AUD", "limits": {"min_wager": 20, "max_wager": 5000, "table_differential": 20000}},
        "shoes": [{"id": Table.shoe_id(n), "decks": DECKS} for n in range(1, shoes + 1)],
    }
    if method:
        header["table"]["dealing_method"] = method
    path = Path(path)
    dumps = json.JSONEncoder(separators=(",", ":")).encode
    shoe = table.new_shoe()
    with path.open("w", encoding="utf-8") as f:
        f.write(dumps(header) + "\n")
        for n in range(1, coups + 1):
            if len(table.cards) < CUT:
                shoe = table.new_shoe()
                if table.shoe_no > shoes:
                    raise RuntimeError("more shoes than the header lists")
            f.write(dumps(table.coup(n, shoe, bool(breach_every) and n % breach_every == 0)) + "\n")
    return path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path")
    ap.add_argument("--coups", type=int, default=100_000)
    ap.add_argument("--jurisdiction", default="au-nsw")
    ap.add_argument("--method", default="C", help="dealing method written on every coup ('' for none)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--breach-every", type=int, default=0)
    ap.add_argument("--game", default="punto_banco", help="the table's game (a variant of the ruleset)")
    ap.add_argument("--side-wagers", type=float, default=0.0, help="share of main wagers with a side wager beside them")
    a = ap.parse_args(argv)
    generate(a.path, a.coups, a.jurisdiction, a.seed, a.method or None, a.breach_every, a.game, a.side_wagers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
