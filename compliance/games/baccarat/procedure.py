"""Baccarat's house tables in a procedure document: a payout table and a drawing table, each compared with the
submission the document carries (compliance.procedures; the marking: docs/rule-authoring.md).

A table reaches here as its rows, each a line number and its cells by column heading (lower case).  A payout
table has a ``spot`` column and ``odds`` and ``commission`` columns.  A drawing table is the Banker's (first
heading naming the Banker: a row a Banker total, a column a Player third card 0-9 or ``stood``, the Player's
Hand having stood) or the Player's (first heading naming the Player: a row a Player total, then its action);
a cell is ``D``/``draw`` or ``S``/``stand``, and a blank cell states nothing.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

KINDS = ("payout-table", "drawing-table")
_RANGE = re.compile(r"^\s*(\d)\s*(?:(?:-|–|—|to)\s*(\d))?\s*$")
_DRAW = {"d": True, "draw": True, "draws": True, "s": False, "stand": False, "stands": False}
_STOOD = ("none", "no third card", "—", "-")  # (and any heading with "stood"): the Player's Hand stood


def citation(kind: str, version, game: str) -> str:
    """What a finding on a house table of ``kind`` cites: the rule the table restates, at ``game`` tables."""
    category = "settlement.wrong-amount" if kind == "payout-table" else "third-card.banker.illegal"
    rule = next((r for r in version.rules if r.category == category), None)
    return rule.cite_for(game) if rule is not None else ""


def compare(kind: str, table, version, game: str, when: str) -> list[tuple[int, str]]:
    """(line, message) of each row of ``table`` that disagrees with the rules of ``version`` at ``game`` tables;
    ``when`` says the day in words ("on 2021-01-15")."""
    if kind == "payout-table":
        return _payouts(table, version, game, when)
    return _drawing(table, version.game.tableau, when)


def _number(text: str) -> Decimal | None:
    words = text.replace("%", "").replace("to 1", "").strip()
    if words.lower() in ("none", "—", "-"):
        return Decimal(0)
    try:
        value = Decimal(words)
    except InvalidOperation:
        return None
    return value / 100 if "%" in text else value


def _payouts(table, version, game: str, when: str) -> list[tuple[int, str]]:
    spots = version.game.spots_for(game, None)
    out = []
    for row in table.rows:
        name = row.cells.get("spot", "").strip("` ")
        spot = spots.get(name)
        if spot is None:
            out.append((row.line, f"the house payout table lists spot {name!r}, which the submission does not "
                                  f"offer at {game} tables"))
            continue
        for column, want in (("odds", spot.odds), ("commission", spot.commission)):
            if not row.cells.get(column, "").strip():
                continue  # a column the table has not, or a cell it leaves blank, states nothing
            written = _number(row.cells[column])
            if written is None or written != Decimal(want or 0):
                out.append((row.line, f"the house payout table gives {name} {column} {row.cells[column]}, but the "
                                      f"submission in force {when} gives {want or 0}"))
    return out


def _totals(text: str) -> list[int] | None:
    m = _RANGE.match(text.strip("`* "))
    if m is None:
        return None
    low, high = int(m[1]), int(m[2] if m[2] is not None else m[1])
    return list(range(low, high + 1)) if low <= high else None


def _verb(draws: bool) -> str:
    return "draws" if draws else "stands"


def _cases(hand: str, totals: list[int], column: str, tableau) -> list[tuple[str, bool]] | None:
    """(the case in words, whether the hand draws there) of each case a cell of ``column`` states; None where
    the column is no case."""
    if hand == "Player":
        return [(f"on {t}", t not in tableau.naturals and t in tableau.player_draws) for t in totals]
    if column.lower() in _STOOD or "stood" in column.lower():
        return [(f"on {t} when the Player's Hand stood",
                 t not in tableau.naturals and t in tableau.banker_draws_when_player_stood) for t in totals]
    cards = _totals(column)
    if cards is None:
        return None
    return [(f"on {t} against a Player third card of {c}", t not in tableau.naturals and tableau.banker_draws(t, c))
            for t in totals for c in cards]


def _drawing(table, tableau, when: str) -> list[tuple[int, str]]:
    heads = list(table.heads)
    first = heads[0] if heads else ""
    if "banker" in first:
        hand = "Banker"
    elif "player" in first:
        hand = "Player"
    else:
        return [(table.line, "the house drawing table's first column names neither the Banker's nor the Player's "
                             f"total (its heading: {first!r})")]
    out = []
    for row in table.rows:
        totals = _totals(row.cells.get(first, ""))
        if totals is None:
            out.append((row.line, f"the house drawing table's row {row.cells.get(first, '')!r} is not a "
                                  f"{hand} total (0 to 9, or a range such as 0-2)"))
            continue
        said: list[str] = []  # each case the row gets wrong, in words
        for column in heads[1:]:
            cell = row.cells.get(column, "").strip("`* ").lower()
            if not cell:
                continue  # a blank cell states nothing
            if cell not in _DRAW:
                out.append((row.line, f"the house drawing table's cell {cell!r} (column {column!r}) is neither "
                                      "draw (D) nor stand (S)"))
                continue
            cases = _cases(hand, totals, column.strip(), tableau)
            if cases is None:
                out.append((row.line, f"the house drawing table's column {column!r} is not a Player third card "
                                      "(0 to 9) or 'stood'"))
                continue
            said += [f"{_verb(_DRAW[cell])} {words} (the submission: {_verb(due)})"
                     for words, due in cases if due != _DRAW[cell]]
        if said:
            out.append((row.line, f"the house drawing table says the {hand}'s Hand " + "; ".join(said)
                                  + f", against the submission in force {when}"))
    return out
