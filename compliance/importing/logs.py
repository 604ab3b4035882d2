"""Reading a recorder's log (CSV) through its mapping: rows of typed values, or the reason a row is refused.

A row that cannot be read (a cell that is not what its field holds, a
required value missing, too few cells) is *rejected*: it is reported at its
``file:line`` and every other row is still read.  A log that cannot be read
at all (no such file, a column the mapping names is not in the header) is a
:class:`~compliance.errors.UserError`.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

from compliance.cards import read_logged
from compliance.errors import UserError, Where
from compliance.figures import money_figure
from compliance.findings import MONEY
from compliance.importing.mapping import TEMPLATE, FieldMap, Mapping, offset, zone
from compliance.transcript.logs import Row

MAX_LOG = 512 << 20  # bytes: a log is read row by row, but kept whole per coup while coups are merged
_SPLIT = re.compile(r"[\s,;/\-|]+")


@dataclass
class Rejected:
    where: str  # file:line
    why: str
    key: tuple | None = None  # (shoe, coup) of the row, as far as its cells tell (None: they do not)
    after: int = 0  # how many rows of the log were read before it (where it stands among them)
    cells: list[str] | None = None  # the row's cells as read (None: the row could not be split into cells)
    table: str | None = None  # a row of another table: that table
    repeats: str | None = None  # a row captured twice: the row it repeats (nothing of it is lost)

    def __str__(self) -> str:
        return f"{self.where}: {self.why}"


@dataclass
class LogRead:
    """One log, read: its rows and what became of each."""

    path: str  # as shown
    mapping: Mapping
    rows: list[Row] = field(default_factory=list)  # the rows read (of the table imported)
    read: int = 0  # data rows in the file
    rejected: list[Rejected] = field(default_factory=list)
    others: list[Rejected] = field(default_factory=list)  # rows of another table: not imported, kept
    notes: list[Rejected] = field(default_factory=list)  # rows imported with a remark (a time written as recorded)
    tables: set[str] = field(default_factory=set)
    other_tables: dict[str, str] = field(default_factory=dict)  # the tables of rows not imported -> the first such row
    expect_currency: str | None = None  # the table's currency (table.currency), where the header names it
    currency: tuple | None = None  # without it: the currency the log's amounts first name (as written, where, codes)
    present: set[str] = field(default_factory=set)  # the mapped fields whose column the log has
    # beyond MAX_KEPT rows rejected (or of other tables), a log's rows are counted, not kept one by one
    more_rejected: int = 0
    more_others: int = 0
    first_more: dict[str, str] = field(default_factory=dict)  # "rejected", "others" -> the first row not kept
    lost: dict[tuple, str] = field(default_factory=dict)  # (shoe, coup) of a rejected row -> the first such row
    lost_after: dict[int, str] = field(default_factory=dict)  # rows read before a rejected row whose coup is unknown
    run: tuple = (None, {})  # the coup being read, and its rows by the fields that tell them apart

    @property
    def evidence(self) -> frozenset[str]:
        """What this log records (compliance.evidence): by the columns it has, not only those mapped."""
        have = set(self.mapping.game.importer.evidence_of(self.mapping.rows, self.present))
        if self.mapping.every_coup:
            have.add("coups")
        return frozenset(have)

    @property
    def other_count(self) -> int:
        return len(self.others) + self.more_others

    @property
    def rejected_count(self) -> int:
        return len(self.rejected) + self.more_rejected

    def reject(self, row_where: str, why: str, key: tuple | None = None, cells: list[str] | None = None,
               whole: bool = False) -> None:
        """A row refused; ``whole``: a row read whole (captured twice...), whose coup lost nothing by it."""
        if whole:
            pass
        elif key is not None:
            self.lost.setdefault(key, row_where)
        else:
            self.lost_after.setdefault(len(self.rows), row_where)
        if len(self.rejected) < MAX_KEPT:
            self.rejected.append(Rejected(row_where, why, key, len(self.rows), cells))
        else:
            self.more_rejected += 1
            self.first_more.setdefault("rejected", row_where)

    def reject_read(self, row_where: str, why: str, key: tuple | None = None) -> None:
        """A row read whole, then refused (by the merge): its coup lost nothing by it.  ``key``: its (shoe, coup),
        as the log numbers them (to name its coup in the finding)."""
        self.reject(row_where, why, whole=True)
        if key is not None and self.rejected and self.rejected[-1].where == row_where:
            self.rejected[-1].key = key

    def other(self, row_where: str, why: str, cells: list[str], named: str) -> None:
        self.other_tables.setdefault(named, row_where)
        if len(self.others) < MAX_KEPT:
            self.others.append(Rejected(row_where, why, None, len(self.rows), _kept(cells), named))
        else:
            self.more_others += 1
            self.first_more.setdefault("others", row_where)


def fill_cells(log: LogRead) -> None:
    """The cells of the rejected rows kept without them (refused whole by the merge, which keeps a row's values,
    not its cells), read again from their lines: every rejected row keeps its cells where they can be read."""
    wanted = {_line_number(r.where): r for r in log.rejected if r.cells is None}
    if not wanted:
        return
    m = log.mapping
    try:
        with open(log.path, encoding=m.csv.encoding, newline="") as f:
            for n, line in enumerate(f, 1):
                r = wanted.get(n)
                if r is None:
                    continue
                if n == 1:
                    line = line.removeprefix("\ufeff")
                if len(line) <= MAX_LINE:
                    try:
                        r.cells = _kept(next(csv.reader([line], delimiter=m.csv.delimiter, quotechar=m.csv.quote),
                                             []))
                    except csv.Error:
                        pass
                if n >= max(wanted):
                    break
    except (OSError, UnicodeError, ValueError):
        return  # (the log was read once: its rows are reported without their cells)


def _line_number(where: str) -> int:
    return int(where.rpartition(":")[2])


MAX_KEPT = 1000  # rows rejected (and rows of other tables) a log keeps one by one; the rest are counted


class _Bad(Exception):
    pass


def read_log(path: str, mapping: Mapping, table: str | None = None, currency: str | None = None) -> LogRead:
    """Every row of the log at ``path``; ``table``: only that table's rows (when the log names tables);
    ``currency``: the table's (an amount written in another is refused)."""
    p = Path(path)
    if not p.is_file():
        raise UserError("no such log file" if not p.exists() else "is not a file", path)
    if p.stat().st_size > MAX_LOG:
        raise UserError(f"the log is larger than {MAX_LOG >> 20} MB: split it (by shift or by shoe)", path)
    with open(p, encoding=mapping.csv.encoding, newline="") as f:  # streamed: a log is never held whole
        try:
            return _read(f, path, mapping, table, currency)
        except (UnicodeError, ValueError) as e:
            raise UserError(f"cannot read the log as {mapping.csv.encoding} (the mapping's csv.encoding): {e}",
                            path) from None


MAX_LINE = 1 << 20  # characters: a longer line is not read (a row, not a runaway file)
MAX_COLUMNS = 10_000  # columns a header row may name
_OVERLONG = "\x00overlong\x00"


class _Lines:
    """The file's lines for the CSV reader, one record a line: a line longer than :data:`MAX_LINE` is replaced by
    a marker row, and a record that would run onto the next line (a quote opened and never closed) ends at the
    end of its line, with ``open`` set, so that the line after it is read anew (a stray quote swallows nothing)."""

    def __init__(self, f):
        self.lines = iter(f)
        self.waiting = False  # a line was handed over and its record has not come out yet
        self.open = False

    def __iter__(self):
        return self

    def start(self) -> None:
        """Before each record."""
        self.waiting = self.open = False

    def __next__(self) -> str:
        if self.waiting:  # the reader asks for more of the same record: its quote runs past the line's end
            self.waiting, self.open = False, True
            raise StopIteration
        line = next(self.lines)
        self.waiting = True
        return _OVERLONG + "\n" if len(line) > MAX_LINE else line


def _read(f, path: str, mapping: Mapping, table: str | None, currency: str | None) -> LogRead:
    if f.read(1) != "\ufeff":  # a byte order mark before the first line is not a part of it
        f.seek(0)
    out = LogRead(path, mapping, expect_currency=currency if isinstance(currency, str) else None)
    for n in range(mapping.csv.skip):
        if not f.readline():
            raise UserError(f"the log has {n:,} lines, and the mapping skips {mapping.csv.skip:,} (csv.skip)", path)
    first = mapping.csv.skip + 1  # the line the reader starts on
    lines = _Lines(f)
    reader = csv.reader(lines, delimiter=mapping.csv.delimiter, quotechar=mapping.csv.quote)
    ended = 0  # csv's line count where the last record ended
    columns = None
    try:
        if mapping.csv.header:
            lines.start()
            header = next(reader, None)
            ended = reader.line_num
            if header is None:
                raise UserError("the log is empty: the mapping expects a header row", path)
            if lines.open:
                raise UserError("the header row opens a quote it never closes: not a log's header", Where(path, first))
            if header == [_OVERLONG] or len(header) > MAX_COLUMNS:
                raise UserError(f"the header row names more than {MAX_COLUMNS:,} columns (or is longer than "
                                f"{MAX_LINE >> 20} MB): not a log's header", Where(path, first))
            columns = _columns(header, mapping, path, first)
        else:
            columns = {k: v for name, fm in mapping.fields.items() for k, v in _numbers(name, fm).items()}
        out.present = {name for name, index in columns.items() if index is not None and "@" not in name}
    except csv.Error as e:
        raise UserError(f"not a readable CSV log: {e}", Where(path, first + ended)) from None
    while True:
        line = first + ended
        lines.start()
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as e:  # one row the CSV reader cannot take: rejected, the rows after it still read
            ended = reader.line_num
            out.read += 1
            out.reject(f"{path}:{line}", f"not a CSV row: {e}")
            continue
        ended = reader.line_num
        if cells == [_OVERLONG]:
            out.read += 1
            out.reject(f"{path}:{line}", f"the line is longer than {MAX_LINE >> 20} MB: not read")
            continue
        if lines.open:  # a stray quote: this line alone is lost, and said so; the next line is read anew
            out.read += 1
            cells = [c.rstrip("\r\n") for c in cells]
            named = _table_of(cells, columns, mapping)
            if table is not None and named is not None and named != table and not lookalike(named, table):
                out.other(f"{path}:{line}", f"a row of table {_q(named)}, not of {_q(table)}, the table imported "
                                            "(a quote in it is never closed)", cells, named)
                continue
            out.reject(f"{path}:{line}", "a quote opened in this line is never closed (a cell may not run onto the "
                                         "next line): the line is not read; the next line is read anew",
                       _key_of(cells, columns, mapping), _kept(cells))
            continue
        if not any(c.strip() for c in cells):
            continue
        out.read += 1
        _row(out, cells, columns, f"{path}:{line}", table)
    return out


def _table_of(cells: list[str], columns: dict[str, int | None], mapping: Mapping) -> str | None:
    """The table a row names (as the transcript writes it), or None."""
    index = columns.get("table")
    if index is None or index >= len(cells) or not cells[index].strip():
        return None
    return _id(mapping.fields["table"].column, cells[index].strip())


#: characters a recorder's typing or a font confuses, folded alike: a table id that differs from another only in
#: them (BAC-O7, BAC-07) is the same table mislabelled
_CONFUSABLE = str.maketrans({"O": "0", "o": "0", "I": "1", "i": "1", "l": "1", "L": "1", "|": "1", "S": "5", "s": "5",
                             "B": "8", "Z": "2", "z": "2", "\u2010": "-", "\u2011": "-", "\u2012": "-",
                             "\u2013": "-", "\u2014": "-", "\u2212": "-", "_": "-"})


def _folded_id(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip().translate(_CONFUSABLE).casefold()


def lookalike(one: str, other: str) -> bool:
    """Whether two table ids differ as a mislabelled one does: in confusable characters only (BAC-O7, BAC-07),
    by one character more or less (BAC-7, BAC-07), or by two characters swapped.  Ids that differ in one digit for
    another (BAC-07, BAC-09) are two tables."""
    if one == other:
        return False
    a, b = _folded_id(one), _folded_id(other)
    if a == b:
        return True
    if abs(len(a) - len(b)) == 1:
        short, long_ = (a, b) if len(a) < len(b) else (b, a)
        return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]:
            return True
        if len(diff) == 1 and not (a[diff[0]].isdigit() and b[diff[0]].isdigit()):
            return True
    return False


def _numbers(name: str, fm: FieldMap) -> dict[str, int]:
    out = {}
    for key, col in _sources(name, fm):
        if not isinstance(col, int):
            raise UserError(f"fields.{fm.name}: the log has no header row (csv.header: false), so its columns are "
                            f"numbers, not names ({col!r})", fm.where)
        out[key] = col - 1
    return out


def _columns(header: list[str], mapping: Mapping, path: str, line: int) -> dict[str, int | None]:
    """Field -> index of its cell, from the header row."""
    names = [h.strip() for h in header]
    folded = {n.casefold(): i for i, n in reversed(list(enumerate(names)))}
    out: dict[str, int | None] = {}
    def index(col, name, fm, what):
        if isinstance(col, int):
            return col - 1
        i = folded.get(str(col).strip().casefold())
        if i is None and not fm.column.optional:
            raise UserError(f"no column {col!r} in the header row (the mapping {mapping.path} {what} it, at "
                            f"{fm.where}); the columns are: {', '.join(names)}", Where(path, line))
        return i

    for name, fm in mapping.fields.items():
        for key, col in _sources(name, fm):
            what = f"maps `{name}` to" if key == name else f"reads `{name}`'s {key.partition('@')[2]} from"
            out[key] = index(col, name, fm, what)
    return out


def _sources(name: str, fm: FieldMap) -> list[tuple[str, str | int]]:
    """The columns a field is read from: its own (``name``), and its date, suit or further cards (``name@...``)."""
    c = fm.column
    out = [(name, c.column)] if c.column is not None else [(name, c.columns[0])] + [
        (f"{name}@card{i}", col) for i, col in enumerate(c.columns[1:], 2)]
    return out + [(f"{name}@{key}", getattr(c, key)) for key in ("date", "suit") if getattr(c, key) is not None]


def _key_of(cells: list[str], columns: dict[str, int | None], mapping: Mapping) -> tuple | None:
    """The (shoe, coup) of a row that is rejected, as far as its cells tell (to set its coup aside)."""
    def cell(name):
        i = columns.get(name)
        return cells[i].strip() if i is not None and i < len(cells) and cells[i].strip() else None

    coup = cell("coup")
    if coup is None or not re.fullmatch(r"[+-]?\d{1,20}", coup):
        return None
    shoe = cell("shoe")
    return (shoe if shoe is None else _id(mapping.fields["shoe"].column, shoe), int(coup))


def _row(out: LogRead, cells: list[str], columns: dict[str, int | None], where: str, table: str | None) -> None:
    values = {}
    index = columns.get("table")
    named = None
    if index is not None and index < len(cells) and cells[index].strip():
        named = _id(out.mapping.fields["table"].column, cells[index].strip())
        if table is not None and named != table:
            if lookalike(named, table):  # this table's row, mislabelled: rejected, as a row of this table lost
                out.other_tables.setdefault(named, where)
                out.reject(where, f"a row of table {_q(named)}, which is not {_q(table)}, the table imported, but "
                                  "differs from it as a mislabelled id does (a confusable character, one character "
                                  "more or less): not imported", _key_of(cells, columns, out.mapping), _kept(cells))
                return
            out.other(where, f"a row of table {_q(named)}, not of {_q(table)}, the table imported", cells, named)
            return
    for name, index in columns.items():
        if index is None or "@" in name:
            continue
        fm = out.mapping.fields[name]
        if index >= len(cells):
            if fm.column.optional:
                continue
            out.reject(where, f"the row has {len(cells)} cells; `{name}` is in column {index + 1}",
                       _key_of(cells, columns, out.mapping), _kept(cells))
            return
        cell = cells[index]
        if len(fm.column.columns or ()) > 1 or fm.column.date is not None or fm.column.suit is not None:
            cell = _joined(fm, name, cell, cells, columns)
        try:
            value = _value(fm, cell, where, out)
        except _Bad as e:
            out.reject(where, f"`{name}` ({_col(fm)}): {e}", _key_of(cells, columns, out.mapping), _kept(cells))
            return
        if value is not None:
            values[name] = value
    for name in _required(out.mapping):
        if values.get(name) is None:
            fm = out.mapping.fields[name]
            out.reject(where, f"`{name}` ({_col(fm)}) is empty", _key_of(cells, columns, out.mapping), _kept(cells))
            return
    problem = out.mapping.game.importer.row_problem(out.mapping.rows, values)
    if problem is not None:  # a row the check could not read: refused here, at its line
        out.reject(where, problem, _key_of(cells, columns, out.mapping), _kept(cells))
        return
    if _captured_twice(out, where, values):
        return
    if named is not None:  # (the table is never taken from a row that was not imported)
        out.tables.add(named)
    out.rows.append(Row(where, values))


def _captured_twice(out: LogRead, where: str, values: dict) -> bool:
    """A row the same as one of the coup read just before it (its fields alike) is the row captured twice:
    rejected as it is read, so that a recorder that repeats a row a million times does not fill the memory."""
    unique = out.mapping.game.importer.UNIQUE[out.mapping.rows]
    key = (values.get("shoe"), values.get("coup"))
    if out.run[0] != key:
        out.run = (key, {})
    if not unique or all(values.get(f) is None for f in unique):
        return False
    tell = tuple(values.get(f) for f in unique)
    same = out.run[1].get(tell)
    if same is None:
        out.run[1][tell] = (where, values)
        return False
    if same[1] != values:
        return False  # a clash: both kept, for the merge to set aside (record.duplicate-row)
    out.reject(where, f"the same row captured twice (it repeats {same[0]}): not imported", key, whole=True)
    if out.rejected and out.rejected[-1].where == where:
        out.rejected[-1].repeats = same[0]
    return True


def _joined(fm: FieldMap, name: str, cell: str, cells: list[str], columns: dict) -> str:
    """A field read from several columns, as one cell: a card's rank and suit, a date and a time of day (``date
    time``), one card a column (the cards, spaced)."""
    def at(key):
        j = columns.get(f"{name}@{key}")
        return cells[j].strip() if j is not None and j < len(cells) else ""

    cell = cell.strip()
    if fm.column.date is not None:
        return f"{at('date')} {cell}" if at("date") and cell else ""
    if fm.column.suit is not None:
        return cell + at("suit") if cell else ""
    more = [at(f"card{i}") for i in range(2, len(fm.column.columns) + 1)]
    return " ".join(c for c in [cell] + more if c)


MAX_KEPT_CELLS = 200  # a rejected row keeps at most this many cells, each cut to MAX_KEPT_CELL characters
MAX_KEPT_CELL = 200


def _kept(cells: list[str]) -> list[str]:
    """A row's cells as kept in the transcript: bounded, so that a runaway row does not fill it."""
    out = [c if len(c) <= MAX_KEPT_CELL else c[:MAX_KEPT_CELL] + "…" for c in cells[:MAX_KEPT_CELLS]]
    if len(cells) > MAX_KEPT_CELLS:
        out.append(f"… {len(cells) - MAX_KEPT_CELLS:,} more cells")
    return out


def _required(mapping: Mapping) -> list[str]:
    base = ["shoe", "coup"] if "shoe" in mapping.fields and (mapping.rows != "wagers" or
                                                            mapping.coup_numbers == "shoe") else ["coup"]
    if mapping.rows == "coups":  # a coup whose cards were not captured is kept, and says so
        return base
    options = mapping.game.importer.REQUIRED[mapping.rows]
    option = next(o for o in options if set(o) <= set(mapping.fields))
    return base + list(option)


def _col(fm: FieldMap) -> str:
    c = fm.column.column if fm.column.column is not None else fm.column.columns[0]
    return f"column {c}" if isinstance(c, int) else f"column {c!r}"


def _value(fm: FieldMap, cell: str, where: str, out: LogRead):
    kind = fm.field.kind
    text = cell.strip()
    column = fm.column
    if kind in ("card", "cards"):
        return _cards(fm, text) if kind == "cards" else _card(fm, text)
    if not text:
        return None
    if kind == "text":
        if column.values or column.template is not None:
            text = _id(column, text)
        return sys.intern(text) if len(text) <= 64 else text  # ids repeated on every row: kept once
    if kind == "int":
        if not re.fullmatch(r"[+-]?\d{1,20}", text):
            raise _Bad(f"{_q(text)} is not a whole number")
        return _bounded(fm, int(text), text)
    if kind == "money":
        value = _money(text, column.decimal)
        _in_currency(out, text, where)
        if column.scale is not None:
            value = MONEY.multiply(value, column.scale)
        try:
            money_figure(value)
        except ValueError as e:
            raise _Bad(f"{_q(text)}: {e}") from None
        return _bounded(fm, value, text)
    if kind == "flag":
        word = _folded(column).get(text.casefold()) or _FLAGS.get(text.casefold())
        if word is None:
            spellings = f"a spelling of the mapping ({', '.join(column.values)}) nor " if column.values else ""
            raise _Bad(f"{_q(text)} is neither {spellings}one of 1, 0, true, false, yes, no, y, n, x")
        return word == "yes"
    if kind == "word":
        word = _folded(column).get(text.casefold())
        if word is None and text.lower() in fm.field.words:
            word = text.lower()
        if word is None:
            spellings = f"a spelling of the mapping ({', '.join(column.values)}) nor " if column.values else ""
            raise _Bad(f"{_q(text)} is neither {spellings}one of the words {', '.join(fm.field.words)}")
        return word
    if kind == "time":
        stamp = read_time(text, column.time, column.timezone)
        if stamp is None or stamp.startswith("!"):
            why = (f"is not a time in the format {column.time!r}" if stamp is None else
                   f"is not one time in {column.timezone} ({stamp[1:]})")
            out.notes.append(Rejected(where, f"`{fm.name}` ({_col(fm)}): {_q(text)} {why}: written as recorded (the "
                                             "check reports it)"))
            return text
        return stamp
    raise AssertionError(kind)


#: how logs write a flag (an empty cell: no value, read as not flagged only where the mapping spells it)
_FLAGS = {"1": "yes", "0": "no", "true": "yes", "false": "no", "yes": "yes", "no": "no", "y": "yes", "n": "no",
          "t": "yes", "f": "no", "x": "yes"}


def _id(column, text: str) -> str:
    """An id as the transcript writes it: renamed by the mapping's `values`, else written by its `template` (so
    that two systems' logs of one table and shoe name them alike)."""
    renamed = _folded(column).get(text.casefold())
    if renamed is not None:
        return renamed
    if column.template is None:
        return text
    m = TEMPLATE.fullmatch(column.template)
    cell = text.zfill(int(m[1])) if m[1] is not None and text.isdigit() else text
    return re.sub(r"\{(?::0[1-9])?\}", lambda _: cell, column.template, count=1)


def _q(text: str) -> str:
    """A cell quoted in a message, cut short: a message names the cell, it does not reprint a runaway one."""
    return repr(text if len(text) <= 40 else text[:40] + "…")


def _bounded(fm: FieldMap, value, text: str):
    low, high = fm.field.low, fm.field.high
    if low is not None and value < low:
        raise _Bad(f"{_q(text)} is less than {low}")
    if high is not None and value > high:
        raise _Bad(f"{_q(text)} is more than {high}")
    return value


RANK = r"10|[2-9AJQKT1]"
SUIT = "[SHDC\u2660-\u2667]"


def _pattern(column) -> re.Pattern:
    """A card pattern (``{rank}-{suit}``) as a regular expression: its other text literal, spaces optional."""
    parts = re.split(r"(\{rank\}|\{suit\})", column.pattern)
    body = "".join(f"(?P<rank>{RANK})" if p == "{rank}" else f"(?P<suit>{SUIT})" if p == "{suit}" else
                   r"\s*".join(re.escape(w) for w in p.split(" ")) for p in parts)
    return re.compile(body, re.IGNORECASE)


def _by_pattern(fm: FieldMap, text: str) -> str | None:
    m = _pattern(fm.column).fullmatch(text)
    if m is None:
        raise _Bad(f"{_q(text)} is not a card written {fm.column.pattern!r}")
    return read_logged(m["rank"] + m["suit"])


_FOLDED: dict[int, tuple] = {}


def _folded(column) -> dict[str, str]:
    """A field's spellings, case folded (worked out once a mapping, not once a cell)."""
    kept = _FOLDED.get(id(column))
    if kept is None or kept[0] is not column:
        kept = _FOLDED[id(column)] = (column, {k.strip().casefold(): v for k, v in column.values.items()},
                                      frozenset(u.strip() for u in column.unread))
    return kept[1]


def _unread(column) -> frozenset:
    _folded(column)
    return _FOLDED[id(column)][2]


def _card(fm: FieldMap, text: str) -> str | None:
    column = fm.column
    folded = _folded(column)
    if text.casefold() in folded:
        mapped = folded[text.casefold()]
        code = read_logged(mapped)
        if code is None:
            raise _Bad(f"{_q(text)} is spelled {mapped!r} by the mapping, which is not a card")
        return code
    if text in _unread(column):
        return "??"
    if not text:
        return None
    if column.pattern is not None:
        return _by_pattern(fm, text)
    code = read_logged(text)
    if code is None:
        raise _Bad(f"{_q(text)} is not a card: expected rank then suit (7H), a rank (7, K) or a value (0 to 9)"
                   + (f", or a card not read ({', '.join(repr(u) for u in column.unread)})" if column.unread else ""))
    return code


def _cards(fm: FieldMap, text: str) -> tuple[str, ...] | None:
    if not text:
        return None
    if fm.column.pattern is not None and not fm.column.split:  # each card where the pattern finds one
        found = list(_pattern(fm.column).finditer(text))
        rest = _pattern(fm.column).sub("", text)
        if rest.strip(" ,;/|"):
            raise _Bad(f"{_q(text)} holds {_q(rest.strip())}, which is not a card written {fm.column.pattern!r}")
        return tuple(read_logged(m["rank"] + m["suit"]) for m in found)
    parts = text.split(fm.column.split) if fm.column.split else _SPLIT.split(text)
    out = []
    for part in parts:
        if not part.strip() and not fm.column.split:
            continue
        code = _card(fm, part.strip())
        if code is None:
            raise _Bad(f"{_q(text)}: an empty card between two separators")
        out.append(code)
    return tuple(out)


_CODE = re.compile(r"^[A-Z]{3}(?=[\d+\-.,])|(?<=[\d.,])[A-Z]{3}$")
_DOLLARS = frozenset({"USD", "AUD", "NZD", "CAD", "HKD", "SGD", "TWD", "MXN", "MOP", "BND", "FJD", "JMD", "BSD",
                      "BBD", "BZD", "TTD", "XCD", "LRD", "NAD", "SBD", "GYD", "SRD", "KYD", "BMD", "ARS", "CLP",
                      "COP", "CUP", "DOP", "UYU", "BRL"})
#: the currencies a sign may stand for (a sign not listed: any currency)
_SIGNS = {"$": _DOLLARS, "\uff04": _DOLLARS, "\u20ac": frozenset({"EUR"}), "\u00a3": frozenset({"GBP", "GIP", "FKP"}),
          "\u00a5": frozenset({"JPY", "CNY"}), "\uffe5": frozenset({"JPY", "CNY"}), "\u20a9": frozenset({"KRW"}),
          "\u20b9": frozenset({"INR"}), "\u20b1": frozenset({"PHP"}), "\u0e3f": frozenset({"THB"}),
          "\u20ab": frozenset({"VND"}), "\u20bd": frozenset({"RUB"}), "\u20ba": frozenset({"TRY"}),
          "\u20aa": frozenset({"ILS"}), "\u20b4": frozenset({"UAH"}), "\u20a6": frozenset({"NGN"})}


def _currency_of(text: str) -> tuple[str, frozenset[str]] | None:
    """The currency a cell names, as (how it is written, the codes it may stand for), or None if it names none."""
    code = _CODE.search("".join(ch for ch in text if unicodedata.category(ch) != "Sc" and not ch.isspace()))
    if code is not None:
        return code[0], frozenset({code[0]})
    for ch in text:
        if unicodedata.category(ch) == "Sc":
            return ch, _SIGNS.get(ch, frozenset())
    return None


def _in_currency(out: LogRead, text: str, where: str) -> None:
    """An amount written in another currency than the table's (``table.currency``), or than the log's other
    amounts, is refused: it is never read as an amount of the table's currency, nor converted."""
    named = _currency_of(text)
    if named is None:
        return
    written, codes = named
    if out.expect_currency is not None:
        if codes and out.expect_currency.upper() not in codes:
            raise _Bad(f"{_q(text)} is written in {written} ({' or '.join(sorted(codes))}), not in "
                       f"{out.expect_currency}, the table's currency (table.currency): amounts are never converted")
        return
    if out.currency is None:
        out.currency = (written, where, codes)
    elif codes and out.currency[2] and not codes & out.currency[2]:
        raise _Bad(f"{_q(text)} is written in {written}, and the log's amounts in {out.currency[0]} (first at "
                   f"{out.currency[1]}): amounts are never converted (give the table's currency in --header)")


def _money(text: str, decimal: str) -> Decimal:
    """An amount as a log writes it: a currency sign or code (``$``, ``€``, ``AUD``) dropped (checked against the
    table's by :func:`_in_currency`), a sign, the digits grouped in threes by the other mark (or spaces),
    ``decimal`` before the fraction.  A mark that does not fit (``1.250,00`` read with ``.``, ``1,25`` read with
    ``.``) is an error, never another amount."""
    group = "," if decimal == "." else "."
    plain = "".join(ch for ch in text if unicodedata.category(ch) != "Sc" and not ch.isspace())
    plain = _CODE.sub("", plain)
    sign = ""
    if plain[:1] in ("+", "-"):
        sign, plain = plain[0], plain[1:]
    whole, mark, fraction = plain.partition(decimal)
    if group in fraction or decimal in fraction:
        raise _Bad(f"{_q(text)} is not an amount written with {decimal!r} as its decimal mark (the mapping's "
                   f"`decimal`): a {group!r} after the {decimal!r}")
    if group in whole:
        groups = whole.split(group)
        if not (1 <= len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:])):
            raise _Bad(f"{_q(text)} is not an amount written with {decimal!r} as its decimal mark (the mapping's "
                       f"`decimal`): {group!r} groups the digits in threes")
        whole = "".join(groups)
    if not re.fullmatch(r"\d{0,30}", whole) or not re.fullmatch(r"\d{0,30}", fraction) or not (whole or fraction):
        raise _Bad(f"{_q(text)} is not an amount")
    try:
        return Decimal(sign + (whole or "0") + ("." + fraction if fraction else ""))
    except InvalidOperation:
        raise _Bad(f"{_q(text)} is not an amount") from None


_zone = functools.lru_cache(maxsize=16)(zone)


def read_time(text: str, fmt: str, zone: str | None) -> str | None:
    """The time in ISO 8601 (the offset given where the log writes none: a UTC offset, or a named zone's at that
    time), None if ``text`` is not one, or ``!`` and why for a time a named zone gives twice or never."""
    try:
        when = dt.datetime.fromisoformat(text) if fmt == "iso" else dt.datetime.strptime(text, fmt)
    except ValueError:
        return None
    if when.tzinfo is None and zone is not None:
        fixed = offset(zone)
        if fixed is not None:
            return when.replace(tzinfo=fixed).isoformat()
        named = _zone(zone)
        early, late = when.replace(tzinfo=named, fold=0), when.replace(tzinfo=named, fold=1)
        if early.utcoffset() != late.utcoffset():  # the hour repeated when daylight saving ended, or skipped
            back = early.astimezone(dt.UTC).astimezone(named).replace(tzinfo=None) == when
            return "!" + ("the hour repeated when daylight saving ended" if back else
                          "an hour skipped when daylight saving began")
        return early.isoformat()
    return when.isoformat()
