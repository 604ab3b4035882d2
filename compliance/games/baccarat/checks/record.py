"""The recording's own integrity: faults of the recorder, not of the play.

A card-reading shoe or a table system can capture the same coup twice, lose
a coup, or stamp events with a clock that runs back or in no known format.
None of it is a breach of the rules of the game, so these rules cite the
recording, not a regulation paragraph, and default to ``warning``.

The first two judge only a recording that says it holds every coup of its
shoes (``recorded`` lists ``coups``, format 1.1): a version 1 transcript may
leave coups out, and may repeat a coup's cards on purpose.  The timestamps
are judged wherever they are recorded (the format has always said ISO 8601).
"""

from __future__ import annotations

from compliance.checks import Breach
from compliance.games.baccarat.checks.register import check
from compliance.games.baccarat.replay import CoupState


def _cards(c: CoupState) -> list[tuple[str, str]]:
    return [(to, card.code) for to, card in c.drawn]


@check("record.duplicate-coup", "record.duplicate-coup", needs=("cards", "coups"))
def duplicate_coup(c: CoupState, p, t):
    """A coup is captured once: a coup whose cards (each card, where it went, in order) are those of the coup
    recorded just before it, in the same shoe, is that coup captured again."""
    prev = c.previous
    if prev is None or prev.shoe != c.shoe or not c.drawn or len(c.drawn) != len(prev.drawn):
        return ()
    if _cards(c) != _cards(prev):
        return ()
    return (Breach(c.drawn[0][1].at, f"the cards of coup {c.number} ({' '.join(code for _, code in _cards(c))}) are "
                                     f"those of coup {prev.number} before it: the same coup captured twice"),)


@check("record.coup-number", "record.coup-number", needs=("coups",))
def coup_number(c: CoupState, p, t):
    """The coups of a shoe are numbered one after the other: a number skipped is a coup missing from the record.
    (A number repeated or going back is the coup out of order, reported as unreadable; the coups after it are
    judged on their own, and a gap is counted from the last coup in order.)"""
    before = c.number_before
    if before is None or c.number <= before + 1:
        return ()
    gap = c.number - before - 1
    which = f"coup {before + 1}" if gap == 1 else f"coups {before + 1} to {c.number - 1}"
    return (Breach(None, f"shoe {c.shoe!r} goes from coup {before} to coup {c.number}: {which} "
                         f"{'is' if gap == 1 else 'are'} missing from the record"),)


@check("record.timestamp", "record.timestamp", when=("times",))
def timestamp(c: CoupState, p, t):
    """Every timestamp (``at``) is an ISO 8601 date and time, and none is earlier than the one recorded before it
    (in this coup or the coups before); timestamps with and without a UTC offset are not compared."""
    if not c.times:
        return ()
    out = []
    last = c.time_before
    for stamp in c.times:
        if stamp.when is None:
            out.append(Breach(stamp.at, f"timestamp {stamp.text!r} is not an ISO 8601 date and time "
                                        "(e.g. 2026-11-29T20:15:00+10:00)"))
            continue
        if last is not None and _comparable(last, stamp) and stamp.when < last.when:
            where = f"event {last.at}" if last.coup == c.number else f"coup {last.coup}"
            out.append(Breach(stamp.at, f"timestamp {stamp.text} is earlier than {last.text}, recorded before it "
                                        f"({where}): the clock runs backwards"))
        last = stamp
    return out


def _comparable(a, b) -> bool:
    return (a.when.tzinfo is None) == (b.when.tzinfo is None)


# ---------------------------------------------------------------- what an import of recorders' logs found


@check("record.rejected-row", "record.rejected-row", scope="transcript")
def rejected_row(header, p, t):
    """Every row of the recorders' logs is accounted for: a row the import could not use (a cell it could not
    read, a row of another table, a row repeated after other coups) is kept in the header's ``rejected_rows``,
    and each is reported, with its log, line and the reason: what it held is not judged anywhere else."""
    return [Breach(None, f"{r.log}:{r.line}: the import could not use this row: {r.reason}" if not r.count else
                   f"{r.log}:{r.line}: the import could not use {r.count:,} rows: {r.reason}")
            for r in getattr(header, "rejected_rows", None) or ()]


def _faults(c: CoupState, fault: str):
    return [Breach(None, f"{f.message} ({', '.join(f.rows)})") for f in c.faults if f.fault == fault]


@check("record.card-sequence", "record.card-sequence", when=("faults",))
def card_sequence(c: CoupState, p, t):
    """A smart shoe numbers the cards of a coup one after the other: a number skipped (a row missing, or the shoe
    skipping a number) means the coup's cards as logged cannot be trusted; they are not judged, and this is."""
    return _faults(c, "card-sequence")


@check("record.logs-disagree", "record.logs-disagree", when=("faults",))
def logs_disagree(c: CoupState, p, t):
    """Two logs of one coup (a shoe log and a hand log) give the same cards and hands: where they disagree at
    least one recorder is wrong, and neither is judged on the point."""
    return _faults(c, "logs-disagree")


@check("record.duplicate-row", "record.duplicate-row", when=("faults",))
def duplicate_row(c: CoupState, p, t):
    """One row of a log (a card's sequence number, a wager's bettor and spot, a coup's row) is recorded once:
    recorded twice with different values, neither can be believed; the coup is judged on the rest."""
    return _faults(c, "duplicate-row")


@check("record.contradiction", "record.contradiction", when=("faults",))
def contradiction(c: CoupState, p, t):
    """What a log says of a coup beside its cards (the totals, the winner, a pair or natural flag) follows from
    the cards it gives: a log that contradicts itself is a recorder's fault (a wrong result announced with the
    cards is ``result.wrong``)."""
    return _faults(c, "contradiction")
