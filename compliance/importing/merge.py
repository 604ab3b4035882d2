"""Several logs of one table and shift, merged into one transcript by shoe and coup.

:func:`import_logs` reads each log through its mapping (:mod:`.logs`), gathers its rows
coup by coup, puts the coups of every log together by shoe and coup, and hands each to
the game's ``importer.build``; the result is an :class:`Imported`.  What each coup's
record holds is worked out as it is built (the header's and the coup's ``recorded``).
Nothing read is lost: a row that cannot be read is rejected at its ``file:line``, one
that cannot be used as it stands is kept under ``x-rows`` with a note in ``x-import``.

What the command does and what it refuses: docs/import.md, "What the command does" and
"Rows the import refuses, and why".
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field

from compliance import evidence
from compliance.errors import UserError
from compliance.importing.logs import MAX_KEPT, LogRead, Rejected, fill_cells, read_log
from compliance.importing.mapping import Mapping, load_mapping
from compliance.transcript.logs import CoupParts, Row, fault, ranges

ROLES = ("dealer", "inspector", "supervisor")
SHOE_BASE = 1000  # coups numbered in each shoe: the transcript numbers them 1000 x the shoe's place + the number


@dataclass
class Imported:
    """What the logs made: the transcript (header and coups) and what became of every row.  ``settled``,
    ``partial`` and ``notes`` are complete once every coup has been read from ``coups``."""

    header: dict
    coups: Iterator[dict]  # built as they are read (once): the rows of a coup are freed once it is built
    logs: list[LogRead]
    count: int = 0  # coups built so far
    settled: int = 0  # coups where something the logs left open was settled
    partial: int = 0  # coups whose record holds less than the header says
    notes: list[str] = field(default_factory=list)  # "coup N: ..." remarks, in coup order

    @property
    def rejected(self) -> int:
        return sum(log.rejected_count for log in self.logs)


@dataclass
class _Group:
    """The rows of one log for one coup."""

    key: tuple
    shoe: str | None
    rows: list[Row] = field(default_factory=list)
    set_aside: str | None = None  # why the rows cannot be used as they stand
    clashes: dict[tuple, str] = field(default_factory=dict)  # rows that stand alone and clash: what tells them -> why
    faults: list[dict] = field(default_factory=list)  # the recorder's faults its rows show (record_faults)
    lost: bool = False  # a row of it was rejected (a gap in its card sequence is that row, reported as rejected)
    also: list[str] = field(default_factory=list)  # rows of another log that are rows of this one (overlapping logs)


def import_logs(specs: list[tuple[str, str]], table: str | None = None, ruleset=None,
                header: dict | None = None, decks: int = 8) -> Imported:
    """Merge the logs ``specs`` (mapping, path) of one table into a transcript."""
    if not specs:
        raise UserError("name at least one log: MAPPING=FILE (e.g. shoe-log=shoe.csv)")
    mappings = [load_mapping(m) for m, _ in specs]
    game = mappings[0].game
    for m in mappings[1:]:
        if m.game is not game:
            raise UserError(f"the logs record different games ({game.title}, {m.game.title}): "
                            "import one game at a time")
    numbering = {m.coup_numbers for m in mappings}
    per_shoe = numbering == {"shoe"}
    header = dict(header or {})
    table_head = dict(header.get("table") or {})
    table = table or table_head.get("id")
    _refuse_a_log_twice(specs)
    logs = [read_log(path, m, table, table_head.get("currency")) for (_, path), m in zip(specs, mappings)]
    if len(numbering) > 1:  # coups numbered through the night in one log, in each shoe in another
        _renumber(logs)
    if table is None:
        tables = sorted(set().union(*(log.tables for log in logs)))
        if len(tables) > 1:
            raise UserError(f"the logs hold several tables ({', '.join(tables)}): choose one with --table")
        if not tables:
            raise UserError("the logs do not name their table: give its id with --table (or in --header)")
        table = tables[0]
    elif not any(log.rows for log in logs) and any(log.other_tables for log in logs):
        held = sorted(set().union(*(log.other_tables for log in logs)))
        raise UserError(f"no row of the logs is of table {table!r} (--table, or table.id in --header): the logs hold "
                        f"table{'s' if len(held) > 1 else ''} {', '.join(held)}")
    groups = [_groups(log, per_shoe) for log in logs]
    _fuse(logs, groups)
    for log, gs in zip(logs, groups):
        if "sequence" in log.mapping.fields:
            base = _sequence_base(gs)
            for group in gs.values():
                _in_sequence(group, base, log.mapping.name)
    keys, shoes = _keys(logs, groups, per_shoe)
    context = game.importer.context(ruleset)
    claimed = frozenset().union(*(log.evidence for log in logs))
    every = "coups" in claimed
    seats = max([7] + [r.get("seat") for log in logs for r in log.rows if isinstance(r.get("seat"), int)])
    for log in logs:
        log.rows = []  # each row is in its coup's group now: freed as the coup is built
    out = Imported({}, iter(()), logs)
    out.coups = _built(game, context, logs, groups, keys, shoes, per_shoe, claimed, every, out)
    order = list(dict.fromkeys(shoes[k] for k in keys))
    decks_of = {s["id"]: s["decks"] for s in header.get("shoes") or () if isinstance(s, dict) and "id" in s}
    table_head = {"id": table, "game": table_head.get("game", "punto_banco"),
                  "seats": table_head.get("seats", seats)} | table_head | {"id": table}
    out.header = {
        "format": "baccarat-transcript", "version": "1.1", "table": table_head,
        "shoes": [{"id": s, "decks": decks_of.get(s, decks)} for s in order] or [{"id": "S1", "decks": decks}],
        "recorded": [n for n in evidence.DECLARABLE if n in claimed],
    } | {k: v for k, v in header.items() if k not in ("format", "version", "table", "shoes", "recorded")}
    places = {s: i + 1 for i, s in enumerate(order)}

    def coup_of(log: LogRead, r: Rejected) -> int | None:
        """The transcript's number of a rejected row's coup, where its cells or values tell it."""
        if r.key is None or r.key[1] is None or r.table is not None:
            return None
        if per_shoe:
            place = places.get(r.key[0])
            return None if place is None or not 0 <= r.key[1] < SHOE_BASE else place * SHOE_BASE + r.key[1]
        return r.key[1] if log.mapping.coup_numbers == "transcript" and r.key[1] >= 0 else None

    for log in logs:
        fill_cells(log)
    kept = [{"log": log.path, "line": _line_of(r.where), "reason": r.why}
            | ({"coup": n} if (n := coup_of(log, r)) is not None else {})
            | ({"table": r.table} if r.table is not None else {})
            | ({"repeats": r.repeats} if r.repeats is not None else {})
            | ({"cells": r.cells} if r.cells is not None else {})
            for log in logs for r in sorted(log.rejected + log.others, key=lambda r: _line_of(r.where))]
    for log in logs:
        for what, n, words in (("rejected", log.more_rejected, "rejected"),
                               ("others", log.more_others, "of other tables")):
            if n:
                kept.append({"log": log.path, "line": _line_of(log.first_more[what]), "count": n,
                             "reason": f"{n:,} more rows {words} from this line on, counted, not kept one by one "
                                       f"(the first {MAX_KEPT:,} are)"}
                            | ({"table": ", ".join(sorted(log.other_tables))} if what == "others" else {}))
    if kept:
        out.header["rejected_rows"] = kept
    out.header["x-import"] = {"logs": [{"file": log.path, "mapping": log.mapping.name, "rows": log.read,
                                        "imported": log.read - log.rejected_count - log.other_count,
                                        "rejected": log.rejected_count, "other_tables": log.other_count}
                                       for log in logs]}
    return out


# ------------------------------------------------------------------ a log's coups


def _renumber(logs: list[LogRead]) -> None:
    """Number the coups of the logs that number them from 1 in each shoe as the logs numbered through the night
    do: coup k of a shoe is the k-th from the first coup of that shoe in a log numbered through the night that
    holds every coup and names its shoes.  A row of a shoe no such log holds is rejected (its number through the
    night is not known)."""
    firsts: dict[str, int] = {}
    for log in logs:
        if log.mapping.coup_numbers == "transcript" and log.mapping.every_coup and "shoe" in log.present:
            for r in log.rows:
                shoe, n = r.get("shoe"), r.get("coup")
                if shoe is not None and n is not None and n < firsts.get(shoe, n + 1):
                    firsts[shoe] = n
    if not firsts:
        raise UserError("the mappings number coups differently (coup_numbers: transcript and shoe): to merge them, a "
                        "log numbered through the night must hold every coup (every_coup) and name its shoes")
    for log in logs:
        if log.mapping.coup_numbers != "shoe":
            continue
        kept = []
        for r in log.rows:
            first = firsts.get(r.get("shoe"))
            if first is None:
                log.reject_read(r.where, f"coup {r.get('coup')} of shoe {r.get('shoe')!r}: no log numbered through the "
                                         "night holds that shoe, so the coup's number there is not known: not imported",
                                (r.get("shoe"), r.get("coup")))
                continue
            r.values["coup"] = first + r.get("coup") - 1
            kept.append(r)
        log.rows = kept
        # a rejected row's coup, where its cells tell it, renumbered alike (else its coup is not known)
        log.lost = {(shoe, firsts[shoe] + n - 1): w for (shoe, n), w in log.lost.items() if shoe in firsts}


def _key(row: Row, per_shoe: bool) -> tuple:
    return (row.get("shoe"), row.get("coup")) if per_shoe else (None, row.get("coup"))


def _groups(log: LogRead, per_shoe: bool) -> OrderedDict[tuple, _Group]:
    """The log's rows, coup by coup.  A row of a coup read earlier, after other coups, is rejected; two rows
    of a coup that are the same row (the game's ``UNIQUE`` fields alike) are one captured twice (the second
    rejected) or, if they differ, a clash that sets the coup's rows aside."""
    unique = log.mapping.game.importer.UNIQUE[log.mapping.rows]
    unreadable = (dict(log.lost), dict(log.lost_after))  # the rows rejected as read (those rejected below are whole)
    groups: OrderedDict[tuple, _Group] = OrderedDict()
    current = None
    for row in log.rows:
        key = _key(row, per_shoe)
        group = groups.get(key)
        if group is not None and key != current:
            first = group.rows[0].where if group.rows else "?"
            log.reject_read(row.where, f"{_coup_words(key, group.shoe)} appears again, after other coups (its rows "
                                  f"began at {first}): not imported", (row.get("shoe"), row.get("coup")))
            continue
        if group is None:
            group = groups[key] = _Group(key, row.get("shoe"))
        current = key
        if group.shoe is not None and row.get("shoe") is not None and row.get("shoe") != group.shoe:
            log.reject_read(row.where, f"coup {key[1]} is in shoe {group.shoe!r} ({group.rows[0].where}), this row says "
                                  f"shoe {row.get('shoe')!r}: not imported", (group.shoe, row.get("coup")))
            continue
        if group.shoe is None:
            group.shoe = row.get("shoe")
        same = _same_row(group, row, unique)
        if same is not None:
            if same.values == row.values:
                log.reject_read(row.where, f"the same row captured twice (it repeats {same.where}): not imported",
                                (group.shoe, row.get("coup")))
                if log.rejected and log.rejected[-1].where == row.where:
                    log.rejected[-1].repeats = same.where
                continue
            what = f"{_coup_words(key, group.shoe)}" + (f", {_unique_words(row, unique)}," if unique else "")
            differ = ", ".join(f"{f} {_shown(same.get(f))} and {_shown(row.get(f))}" for f in
                               sorted(set(same.values) | set(row.values)) if same.get(f) != row.get(f))
            found = fault("duplicate-row", [same.where, row.where], f"{log.mapping.name}: {what} is recorded twice, "
                          f"with different values ({differ}): neither is judged")
            why = f"recorded twice with different values ({same.where}, {row.where})"
            if unique and log.mapping.rows in log.mapping.game.importer.ALONE:
                # the other rows of the coup are judged; what depends on every row of it is not (the fault's key)
                found["key"] = {f: _plain(row.get(f)) for f in unique if row.get(f) is not None}
                group.clashes.setdefault(_tell(row, unique), f"{_unique_words(row, unique)}: {why}")
            else:
                group.set_aside = group.set_aside or why
            group.faults.append(found)
            group.rows.append(row)
            continue
        group.rows.append(row)
    _rejected_rows(log, groups, per_shoe, unreadable)
    return groups


def _refuse_a_log_twice(specs: list[tuple[str, str]]) -> None:
    """The same log given twice (the same file, or a copy of it) would give every row twice: refused."""
    seen: list[tuple[tuple, int, str]] = []  # (the file's identity, its size, its path)
    digests: dict[str, str] = {}

    def digest(path: str) -> str:
        if path not in digests:
            h = hashlib.sha256()
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
            digests[path] = h.hexdigest()
        return digests[path]

    for _, path in specs:
        try:
            st = os.stat(path)
        except OSError:
            continue  # read_log says what is wrong with it
        if not stat.S_ISREG(st.st_mode):
            continue
        for identity, size, other in seen:
            if identity == (st.st_dev, st.st_ino) or (size == st.st_size and digest(other) == digest(path)):
                raise UserError(f"the same log is given twice ({other}, {path}): every row of it would be read "
                                "twice; name each log once", path)
        seen.append(((st.st_dev, st.st_ino), st.st_size, path))


def _fuse(logs: list[LogRead], groups: list[OrderedDict]) -> None:
    """Logs of one kind of row that record alike (two exports of one shoe log, which may overlap) give each coup's
    rows once: a row both give alike is one row (both places kept in ``x-source``); a row they give differently
    is ``record.logs-disagree``, and is judged as a clash of the log's rows is (set aside)."""
    families: dict[tuple, list[int]] = {}
    for i, log in enumerate(logs):
        families.setdefault((log.mapping.rows, log.evidence), []).append(i)
    for members in families.values():
        first = members[0]
        into = groups[first]
        for j in members[1:]:
            common = tuple(sorted(logs[first].present & logs[j].present))
            for key, g in groups[j].items():
                have = into.get(key)
                if have is None:
                    into[key] = g
                else:
                    _fuse_group(have, g, logs[first], logs[j], common)
            groups[j] = OrderedDict()


def _fuse_group(have: _Group, g: _Group, one: LogRead, other: LogRead, common: tuple[str, ...]) -> None:
    """The rows ``g`` of log ``other`` for a coup ``have`` holds rows of (from log ``one``), put in ``have``."""
    mapping = one.mapping
    unique = mapping.game.importer.UNIQUE[mapping.rows]
    alone = mapping.rows in mapping.game.importer.ALONE
    have.faults += g.faults
    have.set_aside = have.set_aside or g.set_aside
    have.lost = have.lost or g.lost
    have.clashes.update(g.clashes)

    def seen(r: Row) -> tuple:
        return tuple(r.get(f) for f in common)

    def differ(a: Row, b: Row) -> str:
        return ", ".join(f"{f} {_shown(a.get(f))} and {_shown(b.get(f))}" for f in common if a.get(f) != b.get(f))

    what = f"{_coup_words(have.key, have.shoe)}"
    logs = f"{one.mapping.name} ({one.path}) and {other.mapping.name} ({other.path})"
    if unique and all(any(r.get(f) is not None for f in unique) for r in have.rows + g.rows):
        by = {_tell(r, unique): r for r in have.rows}
        for r in g.rows:
            tell = _tell(r, unique)
            o = by.get(tell)
            if o is None:
                have.rows.append(r)
                by[tell] = r
            elif seen(o) == seen(r):
                have.also.append(r.where)  # the same row in both logs: one row
            else:
                why = f"{_unique_words(r, unique)}: {logs} give it differently ({o.where}, {r.where})"
                have.faults.append(fault("logs-disagree", [o.where, r.where], f"{what}, {_unique_words(r, unique)}: "
                                         f"the logs {logs} give different values ({differ(o, r)}): neither is judged"))
                if alone:
                    have.clashes.setdefault(tell, why)
                else:
                    have.set_aside = have.set_aside or why
                have.rows.append(r)
        return
    a, b = [seen(r) for r in have.rows], [seen(r) for r in g.rows]
    if _within(b, a):
        have.also += [r.where for r in g.rows]
    elif _within(a, b):  # the other log holds the whole coup, this one a part of it (an export cut mid-coup)
        have.also += [r.where for r in have.rows]
        have.rows = list(g.rows)
    else:
        wheres = ranges(r.where for r in have.rows) + ranges(r.where for r in g.rows)
        have.faults.append(fault("logs-disagree", wheres, f"{what}: the logs {logs} give its rows differently: "
                                 "neither is judged"))
        have.set_aside = have.set_aside or f"{logs} give its rows differently"
        have.rows += g.rows


def _within(part: list, whole: list) -> bool:
    """Whether ``part`` is a run of ``whole`` (its rows one after the other)."""
    n = len(part)
    return any(whole[i:i + n] == part for i in range(len(whole) - n + 1))


def _shown(value) -> str:
    return "(empty)" if value is None else " ".join(value) if isinstance(value, tuple) else str(value)


def _sequence_base(groups) -> int | None:
    """The number a log's card sequence starts each coup at (0 or 1, as most coups start), or None when its
    coups do not start alike (a sequence numbered through the shoe: only gaps inside a coup are told)."""
    firsts: dict[int, int] = {}
    for g in groups.values():
        numbers = [r.get("sequence") for r in g.rows if r.get("sequence") is not None]
        if numbers:
            first = min(numbers)
            firsts[first] = firsts.get(first, 0) + 1
    if not firsts:
        return None
    first, n = max(firsts.items(), key=lambda kv: (kv[1], -kv[0]))
    return first if first in (0, 1) and 2 * n >= sum(firsts.values()) else None


def _tell(row: Row, unique: tuple[str, ...]) -> tuple:
    return tuple(row.get(f) for f in unique)


def _same_row(group: _Group, row: Row, unique: tuple[str, ...]) -> Row | None:
    """The row of ``group`` that ``row`` is the same row as (alike in the ``unique`` fields), if any."""
    if unique and all(row.get(f) is None for f in unique):
        return None  # nothing tells this row apart: several rows of a coup, each its own
    return next((r for r in group.rows if all(r.get(f) == row.get(f) for f in unique)), None)


def _unique_words(row: Row, unique: tuple[str, ...]) -> str:
    return " ".join(f"{f} {row.get(f)}" for f in unique if row.get(f) is not None)


def _in_sequence(group: _Group, base: int | None, log: str) -> None:
    """Card rows in the order of their sequence numbers; a gap (a row missing, a number skipped, the first card
    missing) is a fault of the recorder and sets the coup's rows aside."""
    rows = sorted(group.rows, key=lambda r: (r.get("sequence") is None, r.get("sequence") or 0))
    numbered = [r for r in rows if r.get("sequence") is not None]
    group.rows = rows
    if not numbered:
        return
    gap = None
    if base is not None and numbered[0].get("sequence") > base:
        gap = (base, numbered[0].get("sequence") - 1, [numbered[0].where], f"starts at {numbered[0].get('sequence')}")
    for a, b in zip(numbered, numbered[1:]):
        if gap is None and b.get("sequence") > a.get("sequence") + 1:
            gap = (a.get("sequence") + 1, b.get("sequence") - 1, [a.where, b.where],
                   f"goes from {a.get('sequence')} to {b.get('sequence')}")
    if gap is None or group.lost:
        return
    low, high, wheres, how = gap
    which = f"sequence {low}" + (f" to {high}" if high > low else "")
    group.faults.append(fault("card-sequence", wheres, f"{log}: the card sequence of {_coup_words(group.key, group.shoe)} "
                              f"{how}: no row for {which} (a card row missing, or a number the shoe skipped): its "
                              "cards are not judged"))
    group.set_aside = group.set_aside or f"no row for {which} (a row missing from the log, or rejected)"


def _coup_words(key: tuple, shoe) -> str:
    return f"coup {key[1]}" + (f" of shoe {shoe!r}" if shoe is not None else "")


def _rejected_rows(log: LogRead, groups: OrderedDict, per_shoe: bool, unreadable: tuple[dict, dict]) -> None:
    """A coup that lost a row to rejection cannot be used as it stands: set it aside.  A rejected row whose
    coup its cells do not tell sets aside the coups read just before and just after it."""
    lost, lost_after = unreadable
    for found, where in lost.items():
        key = found if per_shoe else (None, found[1])
        group = groups.get(key)
        if group is None:  # e.g. the coup's only wager: without it the log would say the coup had none
            group = groups[key] = _Group(key, found[0])
        group.set_aside = group.set_aside or f"its row {where} was rejected"  # (the row is reported)
        group.lost = True
    for after, where in lost_after.items():
        for row in log.rows[max(after - 1, 0):after + 1]:
            group = groups.get(_key(row, per_shoe))
            if group is not None and row in group.rows:
                group.set_aside = group.set_aside or (f"a rejected row next to it ({where}) may be one of its "
                                                      "rows")


# ------------------------------------------------------------------ merging


def _keys(logs: list[LogRead], groups: list[OrderedDict], per_shoe: bool) -> tuple[list[tuple], dict[tuple, str]]:
    """Every coup of every log, in order, and its shoe (logs that disagree on a coup's shoe: the later one's
    rows are rejected)."""
    shoes: dict[tuple, str] = {}
    where: dict[tuple, str] = {}
    for log, gs in zip(logs, groups):
        for key, g in list(gs.items()):
            if key[1] < 0 or (per_shoe and key[1] >= SHOE_BASE):
                limit = f"0 to {SHOE_BASE - 1} (a coup numbered in its shoe)" if per_shoe else "0 or more"
                for row in g.rows:
                    log.reject_read(row.where, f"coup {key[1]}: a coup is numbered {limit}: not imported")
                del gs[key]
                continue
            if g.shoe is None:
                continue
            if key in shoes and shoes[key] != g.shoe:
                for row in g.rows:
                    log.reject_read(row.where, f"coup {key[1]} is in shoe {shoes[key]!r} ({where[key]}), this log says "
                                          f"shoe {g.shoe!r}: not imported", (shoes[key], key[1]))
                del gs[key]
                continue
            shoes.setdefault(key, g.shoe)
            where.setdefault(key, g.rows[0].where if g.rows else log.path)
    for log, gs in zip(logs, groups):
        for key, g in list(gs.items()):
            if key not in shoes:
                for row in g.rows:
                    log.reject_read(row.where, f"coup {key[1]}: no other log holds it, and this log does not name its "
                                          "shoe: not imported", (None, key[1]))
                del gs[key]
    if per_shoe:
        place = {s: i for i, s in enumerate(dict.fromkeys(shoes[k] for gs in groups for k in gs))}
        keys = sorted(shoes, key=lambda k: (place[shoes[k]], k[1]))
    else:
        keys = sorted(shoes, key=lambda k: k[1])
    return keys, shoes


def _built(game, context, logs: list[LogRead], groups: list[OrderedDict], keys: list[tuple], shoes: dict,
           per_shoe: bool, claimed: frozenset, every: bool, out: Imported) -> Iterator[dict]:
    """The coups, each built from its rows as it is asked for (its rows then freed): the merge holds the rows
    not yet built on, never the coups already written."""
    places = {s: i + 1 for i, s in enumerate(dict.fromkeys(shoes[k] for k in keys))}
    for key in keys:
        shoe = shoes[key]
        number = places[shoe] * SHOE_BASE + key[1] if per_shoe else key[1]
        out.count += 1
        yield _coup(game, context, logs, groups, key, shoe, number, claimed, every, out)


def _coup(game, context, logs: list[LogRead], groups: list[OrderedDict], key: tuple, shoe: str, number: int,
          claimed: frozenset, every: bool, out: Imported) -> dict:
    parts = CoupParts(shoe, number)
    set_aside: list[dict] = []
    faults: list[dict] = []
    sources: list[str] = []
    have: set[str] = {"coups"} if every else set()
    for log, gs in zip(logs, groups):
        m: Mapping = log.mapping
        g = gs.pop(key, None)
        ev = log.evidence - {"coups"}
        if g is None:
            if not m.every_coup:
                have |= ev  # a log that holds a row for a coup only when there is something (a wager) to say
            continue
        sources += ranges(r.where for r in g.rows) + ranges(g.also)
        faults += g.faults
        if g.set_aside is not None:
            kept = ("this log's rows of the coup are kept under x-rows and not judged" if g.rows else
                    "the row is kept in the header's rejected_rows, and nothing of this log is judged in the coup")
            parts.notes.append(f"{log.mapping.name} ({log.path}): {g.set_aside}; {kept}")
            set_aside += [{"row": r.where} | {k: _plain(v) for k, v in r.values.items()} for r in g.rows]
            parts.aside.extend(g.rows)
            continue
        rows = g.rows
        if g.clashes:  # rows that stand alone and clash: those set aside, the others judged
            unique = m.game.importer.UNIQUE[m.rows]
            clashing = [r for r in rows if _tell(r, unique) in g.clashes]
            rows = [r for r in rows if _tell(r, unique) not in g.clashes]
            for why in g.clashes.values():
                parts.notes.append(f"{log.mapping.name} ({log.path}): {why}; those rows are kept under x-rows and "
                                   "not judged, nor what depends on every row of the coup (its wagers' totals); the "
                                   "log's other rows of the coup are judged")
            set_aside += [{"row": r.where} | {k: _plain(v) for k, v in r.values.items()} for r in clashing]
            parts.aside.extend(clashing)
        parts.rows.setdefault(m.rows, []).extend(rows)
        parts.evidence[m.rows] = parts.evidence.get(m.rows, frozenset()) | ev
        have |= ev
    parts.have = have
    built = game.importer.build(parts, context)
    coup: dict = {"coup": number, "shoe": shoe}
    own = {n for n in built.have if n in evidence.DECLARABLE}
    if own != set(claimed):
        coup["recorded"] = [n for n in evidence.DECLARABLE if n in own]
        out.partial += 1
    staff = _staff(parts, out, number)
    if staff:
        coup["staff"] = staff
    coup |= built.coup
    coup["x-source"] = sources
    notes = parts.notes + built.notes
    if notes or built.settled:
        coup["x-import"] = ({"settled": built.settled} if built.settled else {}) | ({"notes": notes} if notes else {})
        out.notes += [f"coup {number}: settled {s}" for s in built.settled] + [f"coup {number}: {n}" for n in notes]
    if built.settled:
        out.settled += 1
    faults += built.faults
    if faults:
        coup["record_faults"] = faults
    if set_aside:
        coup["x-rows"] = set_aside
    return coup


def _staff(parts: CoupParts, out: Imported, number: int) -> dict:
    """Who ran the table, by every row of the coup (rows set aside too: who dealt is not in doubt)."""
    found: dict[str, list[str]] = {}
    for rows in list(parts.rows.values()) + [parts.aside]:
        for r in rows:
            for role in ROLES:
                name = r.get(role)
                if name is not None and name not in found.setdefault(role, []):
                    found[role].append(name)
    staff = {}
    for role in ROLES:
        names = found.get(role) or []
        if len(names) == 1:
            staff[role] = names[0]
        elif names:
            parts.notes.append(f"the logs name more than one {role} ({', '.join(names)}): none is recorded")
    return staff


def _plain(v):
    return list(v) if isinstance(v, tuple) else v


def _line_of(where: str) -> int:
    return int(where.rpartition(":")[2])
