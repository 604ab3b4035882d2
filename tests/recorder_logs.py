"""A transcript written out as the logs a casino's recorders keep, in the bundled mappings' layouts.

The simulator plays shoes as a transcript; this module writes what a
card-reading shoe (shoe log), a hand log and a table system (wager log)
would have recorded of the same play, so that ``baccarat-audit import`` can
be judged against the transcript it must give back.  Written independently
of the importer: it knows only the CSV layouts documented in docs/import.md.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

HAND = {"player": "P", "banker": "B", "burn": "BURN", "discard": "D"}
SPOT = {"player": "P", "banker": "B", "tie": "T"}
OUTCOME = {"win": "W", "lose": "L", "push": "P"}
WINNER = {"player": "P", "banker": "B", "tie": "T"}


def _csv(header: list[str], rows: list[list]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return out.getvalue()


def _value_only(code: str) -> str:
    rank = code[0]
    return "0" if rank in "TJQK" else "1" if rank == "A" else rank


def shoe_log(transcript: dict, *, destinations: bool = True, values_only: bool = False, sequence: bool = True,
             table: bool = True) -> str:
    """One card a row: Table, Shoe, Coup, Seq, Card[, Hand], Time.  Without destinations, as a shoe that reads
    only the order of the cards dealt to the hands: burnt cards are left out."""
    header = (["Table"] if table else []) + ["Shoe", "Coup"] + (["Seq"] if sequence else []) + ["Card"] + (
        ["Hand"] if destinations else []) + ["Time"]
    rows = []
    for coup in transcript["coups"]:
        n = 0
        for ev in coup["events"]:
            if ev["type"] != "card" or (not destinations and ev["to"] not in ("player", "banker")):
                continue
            n += 1
            card = _value_only(ev["card"]) if values_only else ev["card"]
            rows.append(([transcript["table"]["id"]] if table else []) + [coup["shoe"], coup["coup"]]
                        + ([n] if sequence else []) + [card] + ([HAND[ev["to"]]] if destinations else [])
                        + [ev.get("at", "")])
    return _csv(header, rows)


def hand_log(transcript: dict, *, values_only: bool = False) -> str:
    """One coup a row: Table, Shoe, Coup, Player, Banker, Winner, PlayerTotal, BankerTotal, Time."""
    rows = []
    for coup in transcript["coups"]:
        hands = {"player": [], "banker": []}
        result = None
        for ev in coup["events"]:
            if ev["type"] == "card" and ev["to"] in hands:
                hands[ev["to"]].append(_value_only(ev["card"]) if values_only else ev["card"])
            elif ev["type"] == "result":
                result = ev
            elif ev["type"] == "void":
                result = {"winner": "VOID", "player_points": "", "banker_points": ""}
        rows.append([transcript["table"]["id"], coup["shoe"], coup["coup"], " ".join(hands["player"]),
                     " ".join(hands["banker"]), WINNER.get(result["winner"], result["winner"]) if result else "",
                     result["player_points"] if result else "", result["banker_points"] if result else "",
                     result.get("at", "") if result else ""])
    return _csv(["Table", "Shoe", "Coup", "Player", "Banker", "Winner", "PlayerTotal", "BankerTotal", "Time"], rows)


def wager_log(transcript: dict) -> str:
    """One wager a row, as it stood at the first card, with its settlement:
    Table, Shoe, Coup, Seat, Patron, Spot, Amount, Outcome, Payout, Commission, Time (of the settlement)."""
    rows = []
    for coup in transcript["coups"]:
        stakes: dict[tuple, Decimal] = {}
        who: dict[tuple, tuple] = {}
        settled: dict[tuple, dict] = {}
        commission: dict = {}
        dealt = False
        for ev in coup["events"]:
            kind = ev["type"]
            bettor = (ev.get("seat"), ev.get("patron") if ev.get("seat") is None else None)
            if kind == "card" and ev["to"] in ("player", "banker"):
                dealt = True
            elif kind in ("wager", "wager_adjust") and not dealt:
                key = (bettor, ev["spot"])
                before = stakes.get(key, Decimal(0))
                stakes[key] = before + Decimal(str(ev["amount"])) if kind == "wager" else Decimal(str(ev["amount"]))
                who[key] = (ev.get("seat"), ev.get("patron"))
            elif kind == "settle":
                settled[(bettor, ev["spot"])] = ev
            elif kind == "commission":
                commission[bettor] = ev["amount"]
        for key, amount in stakes.items():
            if not amount:
                continue
            seat, patron = who[key]
            s = settled.get(key)
            rows.append([transcript["table"]["id"], coup["shoe"], coup["coup"], "" if seat is None else seat,
                         patron or "", SPOT[key[1]], amount, OUTCOME[s["outcome"]] if s else "",
                         s["amount"] if s else "", commission.get(key[0], "") if key[1] == "banker" else "",
                         s.get("at", "") if s else ""])
    return _csv(["Table", "Shoe", "Coup", "Seat", "Patron", "Spot", "Amount", "Outcome", "Payout", "Commission",
                 "Time"], rows)
