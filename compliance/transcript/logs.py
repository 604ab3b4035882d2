"""A recorder's log as a game's importer sees it: fields, rows, and the parts of one coup.

``baccarat-audit import`` (:mod:`compliance.importing`) reads logs (CSV) through
a declarative mapping and hands each coup's rows to its game, which builds
the coup's events.  What the two share is written here: the kinds of value a
field holds, a row read from a log, the rows of one coup gathered from every
log, and what the game makes of them.

The engine knows the fields every log may have (:data:`COMMON`); a game
declares the rest, per kind of row (``cards``: one card a row, ``coups``: one
coup a row, ``wagers``: one wager a row).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: the kinds of row a log may hold
ROW_KINDS = ("cards", "coups", "wagers")

#: the kinds of value a field holds (how a cell is read)
KINDS = {
    "text": "any text (spaces around it dropped)",
    "int": "a whole number",
    "money": "an exact amount (1,250.50 and 1250.5 both read as 1250.50)",
    "word": "one of the field's words, or a spelling the mapping's `values` turns into one",
    "card": "a card: rank then suit (7H, 10H, TH), suit then rank (H7), a rank only (7, T, K), a value only "
            "(0 to 9), or a spelling the mapping names unread",
    "cards": "several cards in one cell, split by `split` (default: spaces, commas or dashes)",
    "time": "a date and time, read with the mapping's `time` format",
    "flag": "yes or no: 1 or 0, true or false, yes or no, y or n, x or empty, or a spelling the mapping's "
            "`values` turns into yes or no",
}


@dataclass(frozen=True)
class Field:
    """One field a log may map a column to."""

    kind: str  # a key of KINDS
    about: str  # what it holds, for `import --list-mappings` and the docs
    words: tuple[str, ...] = ()  # for a word field: the transcript's words
    low: int | None = None  # int and money fields: the least value
    high: int | None = None  # int fields: the greatest


#: the fields of every log, whatever its rows: the table, the coup, who and when
COMMON: dict[str, Field] = {
    "table": Field("text", "the table's id (rows of another table are left out)"),
    "shoe": Field("text", "the shoe's id"),
    "coup": Field("int", "the coup's number (through the log, or from 1 in each shoe: `coup_numbers`)", low=0,
                  high=2**53),
    "sequence": Field("int", "the row's place in its coup (card rows): a gap is a row missing", low=-2**53,
                      high=2**53),
    "at": Field("time", "when (an event's timestamp in the transcript)"),
    "dealer": Field("text", "the dealer of the coup"),
    "inspector": Field("text", "the inspector of the coup"),
    "supervisor": Field("text", "the supervisor of the coup"),
}


@dataclass(slots=True)
class Row:
    """A row of a log, read: its place (``file:line``) and its values by field (absent: the cell was empty)."""

    where: str
    values: dict[str, Any]

    def get(self, name: str, default=None):
        return self.values.get(name, default)


@dataclass
class CoupParts:
    """Everything the logs hold of one coup, for its game to build the coup's events from."""

    shoe: str
    number: int  # the coup's number in the transcript
    rows: dict[str, list[Row]] = field(default_factory=dict)  # row kind -> its rows, in their order
    evidence: dict[str, frozenset[str]] = field(default_factory=dict)  # row kind -> what its log records
    have: set[str] = field(default_factory=set)  # what the record of this coup holds, before the game looks
    aside: list[Row] = field(default_factory=list)  # rows that cannot be used as they stand (kept, not built on)
    notes: list[str] = field(default_factory=list)  # what the import did or could not do, in words


@dataclass
class Built:
    """A coup as its game built it from the logs."""

    coup: dict  # the transcript's coup object (without its number, shoe and staff: the engine adds them)
    have: set[str]  # what the record of this coup holds
    notes: list[str] = field(default_factory=list)
    settled: list[str] = field(default_factory=list)  # what was left open and settled, and how
    faults: list[dict] = field(default_factory=list)  # the recorder's faults found (format 1.1 `record_faults`)


def fault(kind: str, rows, message: str) -> dict:
    """A recorder's fault found in a coup's rows, as the transcript keeps it (``record_faults``)."""
    return {"fault": kind, "rows": ranges(rows), "message": message}


def ranges(wheres) -> list[str]:
    """``file:line`` places as ``file:first-last`` runs, in the order given."""
    out: list[list] = []
    for w in wheres:
        path, _, line = w.rpartition(":")
        n = int(line)
        if out and out[-1][0] == path and out[-1][2] == n - 1:
            out[-1][2] = n
        else:
            out.append([path, n, n])
    return [f"{p}:{a}" if a == b else f"{p}:{a}-{b}" for p, a, b in out]
