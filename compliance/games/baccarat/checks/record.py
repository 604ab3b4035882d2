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
from compliance.transcript.staff import Staffing


def _cards(coup: CoupState) -> list[tuple[str, str]]:
    return [(to, card.code) for to, card in coup.drawn]


@check("record.duplicate-coup", "record.duplicate-coup", needs=("cards", "coups"))
def duplicate_coup(coup: CoupState, params, table):
    """A coup is captured once: a coup whose cards (each card, where it went, in order) are those of the coup
    recorded just before it, in the same shoe, is that coup captured again."""
    prev = coup.previous
    if prev is None or prev.shoe != coup.shoe or not coup.drawn or len(coup.drawn) != len(prev.drawn):
        return ()
    if _cards(coup) != _cards(prev):
        return ()
    return (Breach(coup.drawn[0][1].at, f"the cards of coup {coup.number} ({' '.join(code for _, code in _cards(coup))}) are "
                                     f"those of coup {prev.number} before it: the same coup captured twice"),)


@check("record.coup-number", "record.coup-number", needs=("coups",))
def coup_number(coup: CoupState, params, table):
    """The coups of a shoe are numbered one after the other: a number skipped is a coup missing from the record.
    (A number repeated or going back is the coup out of order, reported as unreadable; the coups after it are
    judged on their own, and a gap is counted from the last coup in order.)"""
    before = coup.number_before
    if before is None or coup.number <= before + 1:
        return ()
    gap = coup.number - before - 1
    which = f"coup {before + 1}" if gap == 1 else f"coups {before + 1} to {coup.number - 1}"
    return (Breach(None, f"shoe {coup.shoe!r} goes from coup {before} to coup {coup.number}: {which} "
                         f"{'is' if gap == 1 else 'are'} missing from the record"),)


@check("record.timestamp", "record.timestamp", when=("times",))
def timestamp(coup: CoupState, params, table):
    """Every timestamp (``at``) is an ISO 8601 date and time, and none is earlier than the one recorded before it
    (in this coup or the coups before); timestamps with and without a UTC offset are not compared."""
    if not coup.times:
        return ()
    out = []
    last = coup.time_before
    for stamp in coup.times:
        if stamp.when is None:
            out.append(Breach(stamp.at, f"timestamp {stamp.text!r} is not an ISO 8601 date and time "
                                        "(e.g. 2026-11-29T20:15:00+10:00)"))
            continue
        if last is not None and _comparable(last, stamp) and stamp.when < last.when:
            where = f"event {last.at}" if last.coup == coup.number else f"coup {last.coup}"
            out.append(Breach(stamp.at, f"timestamp {stamp.text} is earlier than {last.text}, recorded before it "
                                        f"({where}): the clock runs backwards"))
        last = stamp
    return out


def _comparable(a, b) -> bool:
    return (a.when.tzinfo is None) == (b.when.tzinfo is None)


# ---------------------------------------------------------------- what an import of recorders' logs found


@check("record.rejected-row", "record.rejected-row", scope="transcript")
def rejected_row(header, params, table):
    """Every row of the recorders' logs is accounted for: a row the import could not use (a cell it could not
    read, a row repeated after other coups) is kept in the header's ``rejected_rows``, and each is reported, with
    its log, line, coup (where its cells tell it) and the reason: what it held is not judged anywhere else.  A row
    captured twice loses nothing (a warning); rows of another table are not this table's evidence: they are listed
    once a log and table, as information."""
    rows = getattr(header, "rejected_rows", None) or ()
    out = [Breach(None, f"{r.log}:{r.line}: the import could not use this row: {r.reason}" if not r.count else
                  f"{r.log}:{r.line}: the import could not use {r.count:,} rows: {r.reason}",
                  "warning" if r.repeats is not None else None, coup=r.coup)
           for r in rows if r.table is None]
    others: dict[tuple, list] = {}
    for r in rows:
        if r.table is not None:
            others.setdefault((r.log, r.table), []).append(r)
    for (log, table), kept in others.items():
        n = sum(r.count or 1 for r in kept)
        lines = ", ".join(str(r.line) for r in kept[:10]) + (", ..." if len(kept) > 10 else "")
        out.append(Breach(None, f"{log}: {n:,} row{'s' if n != 1 else ''} of table {table!r}, not this "
                                f"transcript's, not imported (line{'s' if len(kept) > 1 else ''} {lines})", "info"))
    return out


@check("record.staff", "record.staff", scope="transcript")
def staff(header, params, table):
    """The header's stretches of staff agree: none ends before it starts, and no two give one role different
    names over the same coups.  Where they disagree, who held the role in those coups is in doubt: they name
    nobody there, and no rule that names a dealer judges them."""
    stretches = getattr(header, "staff", None)
    if not stretches:
        return ()
    return [Breach(None, c.message) for c in Staffing(stretches).contradictions]


@check("record.seat-patron", "record.seat-patron", needs=("stakes",), when=("seat_doubt",))
def seat_patron(coup: CoupState, params, table):
    """A seat's recorded occupant and its wagers agree on who placed each wager: a wager whose events name a
    patron behind the seat while its settlement (or its placing) names none, so the occupant, or two patrons
    named at a seat the record does not seat anyone at, leaves whose wager it was in doubt; no patron-level
    rule judges it."""
    return [Breach(at, f"seat {seat}: {words}: whose wager it was is in doubt, and no patron-level rule judges it")
            for at, seat, spot, words, _ in coup.seat_doubt]


def _faults(coup: CoupState, fault: str):
    return [Breach(None, f"{f.message} ({', '.join(f.rows)})") for f in coup.faults if f.fault == fault]


@check("record.card-sequence", "record.card-sequence", when=("faults",))
def card_sequence(coup: CoupState, params, table):
    """A smart shoe numbers the cards of a coup one after the other: a number skipped (a row missing, or the shoe
    skipping a number) means the coup's cards as logged cannot be trusted; they are not judged, and this is."""
    return _faults(coup, "card-sequence")


@check("record.logs-disagree", "record.logs-disagree", when=("faults",))
def logs_disagree(coup: CoupState, params, table):
    """Two logs of one coup (a shoe log and a hand log) give the same cards and hands: where they disagree at
    least one recorder is wrong, and neither is judged on the point."""
    return _faults(coup, "logs-disagree")


@check("record.duplicate-row", "record.duplicate-row", when=("faults",))
def duplicate_row(coup: CoupState, params, table):
    """One row of a log (a card's sequence number, a wager's bettor and spot, a coup's row) is recorded once:
    recorded twice with different values, neither can be believed; the coup is judged on the rest."""
    return _faults(coup, "duplicate-row")


@check("record.contradiction", "record.contradiction", when=("faults",))
def contradiction(coup: CoupState, params, table):
    """What a log says of a coup beside its cards (the totals, the winner, a pair or natural flag) follows from
    the cards it gives: a log that contradicts itself is a recorder's fault (a wrong result announced with the
    cards is ``result.wrong``)."""
    return _faults(coup, "contradiction")
