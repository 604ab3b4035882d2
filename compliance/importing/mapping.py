"""A mapping: how one recorder's log (CSV) reads as transcript fields, written in YAML, not in code.

:func:`load_mapping` reads a mapping (a bundled one by its ``name``, from
``compliance/importing/mappings``, else a path) into a :class:`Mapping`: what one row
holds (``rows``: cards, coups or wagers), how the CSV is laid out, and which column holds
each field.  The fields are the engine's (:data:`compliance.transcript.logs.COMMON`) and
its game's (``importer.ROWS``).  Every mistake is one :class:`~compliance.errors.UserError`
at its ``file:line:col``.

The format, field by field, and the bundled mappings worked: docs/import.md, "The mapping format".
"""

from __future__ import annotations

import codecs
import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from compliance import games, registry
from compliance.errors import UserError
from compliance.ruleset.loader import pydantic_errors
from compliance.transcript.logs import COMMON, ROW_KINDS
from compliance.transcript.logs import Field as LogField
from compliance.yamlread import YamlDoc, read_yaml


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Column(_Strict):
    """Where a field is in the log, and how its cells are spelled."""

    column: str | int | None = Field(default=None, description="the column's name in the header row, or its number "
                                     "(1 is the first)")
    columns: list[str | int] | None = Field(default=None, min_length=1, max_length=16, description="fields of several "
                                            "cards: one column a card, in order (P1, P2, P3), in place of `column`")
    suit: str | int | None = Field(default=None, description="card fields: the column of the suit, when the rank is "
                                   "in this one")
    optional: bool = Field(default=False, description="the log may lack the column; its rows then hold no value")
    values: dict[str, str] = Field(default_factory=dict, description="spellings in the log -> the transcript's "
                                   "word (or, for cards, card code); upper or lower case alike")
    unread: list[str] = Field(default_factory=list, description="card fields: spellings of a card dealt but not "
                              "read (written ??); an empty cell is one only if listed here")
    split: str | None = Field(default=None, description="a field of several cards: the text between two cards "
                              "(default: spaces, commas, semicolons, slashes or dashes)")
    time: str = Field(default="iso", description="time fields: iso (ISO 8601), or a strptime format such as "
                      "%d/%m/%Y %H:%M:%S")
    timezone: str | None = Field(default=None, description="time fields: the UTC offset of a time written "
                                 "without one (+10:00, Z)")
    decimal: Literal[".", ","] = Field(default=".", description="money fields: the decimal mark (the other one, "
                                       "and spaces, group the digits in threes); a currency sign or code is dropped")
    scale: Decimal | None = Field(default=None, gt=0, description="money fields: what one unit of the column is "
                                  "worth (0.01: amounts written in cents)")
    pattern: str | None = Field(default=None, description="card fields: how a card is written, with {rank} and "
                                "{suit} for its parts (`{rank}-{suit}` reads Q-S and 10-H; `{suit}{rank}` H7)")
    date: str | int | None = Field(default=None, description="time fields: the column of the date, when the "
                                   "time of day is in this one (the format reads the date, a space, the time)")
    template: str | None = Field(default=None, max_length=200, description="id fields (table, shoe): how the "
                                 "transcript writes the id, `{}` the cell (`S{}`), `{:04}` the cell's digits "
                                 "padded with zeros to 4 (`S{:04}` writes 7 as S0007); `values` renames ids one by "
                                 "one")


class Csv(_Strict):
    delimiter: str = Field(default=",", min_length=1, max_length=1)
    quote: str = Field(default='"', min_length=1, max_length=1)
    header: bool = Field(default=True, description="the first row names the columns (else columns are numbers)")
    skip: int = Field(default=0, ge=0, description="lines before the header (or the first row) to skip")
    encoding: str = "utf-8"


class MappingFile(_Strict):
    """A mapping as written."""

    format: Literal["baccarat-audit-mapping"]
    version: Literal[1]
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    description: str | None = None
    game: str = Field(default=registry.BACCARAT, description="the game the log records (a ruleset game_kind)")
    rows: Literal[ROW_KINDS]  # type: ignore[valid-type]
    csv: Csv = Csv()
    every_coup: bool | None = Field(default=None, description="the log holds every coup of its shoes (default: "
                                    "true for cards and coups rows, false for wagers: a coup without a wager "
                                    "has no row)")
    coup_numbers: Literal["transcript", "shoe"] = Field(
        default="transcript", description="transcript: the coup column numbers the coups through the log; shoe: "
        "from 1 in each shoe (the transcript then numbers a coup 1000 x the shoe's place + its number)")
    fields: dict[str, Column] = Field(description="field -> where it is: a column's name or number, or a mapping "
                                      "of the keys of a Column")


@dataclass
class FieldMap:
    """A mapped field, ready to read cells with."""

    name: str
    field: LogField
    column: Column
    where: str  # file:line:col of its entry in the mapping


@dataclass
class Mapping:
    """A validated mapping."""

    name: str
    title: str
    path: str  # as shown in messages
    game: games.Game
    rows: str
    csv: Csv
    every_coup: bool
    coup_numbers: str
    fields: dict[str, FieldMap]

    @property
    def evidence(self) -> frozenset[str]:
        """What a log read through this mapping records (compliance.evidence)."""
        have = set(self.game.importer.evidence_of(self.rows, set(self.fields)))
        if self.every_coup:
            have.add("coups")
        return frozenset(have)


def bundled_dir() -> Path:
    return Path(str(resources.files("compliance.importing") / "mappings"))


def bundled_names() -> list[str]:
    return sorted(p.stem for p in bundled_dir().glob("*.yaml"))


def load_mapping(ref: str) -> Mapping:
    """A bundled mapping by name (``shoe-log``), or a mapping file by path."""
    if ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref:
        path, display = Path(ref), ref
    else:
        path = bundled_dir() / f"{ref}.yaml"
        display = f"mappings/{ref}.yaml"
        if not path.is_file():
            raise UserError(f"no mapping {ref!r}; bundled mappings: {', '.join(bundled_names())} (or give a "
                            "mapping file's path)")
    doc = read_yaml(path, display, what="mapping", kind="mapping")  # bounded: compliance.limits
    if not isinstance(doc.data, dict):
        raise UserError("a mapping must be a YAML mapping", doc.where())
    fields = doc.data.get("fields")
    try:
        raw = MappingFile.model_validate({k: v for k, v in doc.data.items() if k != "fields"} | {"fields": {}})
        if not isinstance(fields, dict):
            raise UserError("fields: a mapping of field -> column (shoe: Shoe, coup: Coup, ...)" if fields is not None
                            else "fields: missing required key 'fields'", doc.where(("fields",) if fields is not None
                                                                                    else ()))
        for name, spec in fields.items():
            raw.fields[str(name)] = _column(spec, name, doc)
    except ValidationError as e:
        raise pydantic_errors(doc, (), e)[0] from None
    return _bind(raw, doc)


def _column(spec, name, doc: YamlDoc) -> Column:
    """A field's entry: a column's name or number, or a mapping of the keys of :class:`Column` (validated alone,
    so that a mistake in it is named as itself, not as a failed alternative)."""
    at = ("fields", name)
    if isinstance(spec, bool) or not isinstance(spec, (str, int, dict)):
        kind = "a list" if isinstance(spec, list) else "empty" if spec is None else f"a {type(spec).__name__}"
        raise UserError(f"fields.{name}: a column's name or number, or a mapping (column, optional, values...), not "
                        f"{kind}", doc.where(at))
    if not isinstance(spec, dict):
        return Column(column=spec)
    try:
        return Column.model_validate(spec)
    except ValidationError as e:
        raise pydantic_errors(doc, at, e)[0] from None


def _bind(raw: MappingFile, doc: YamlDoc) -> Mapping:
    if raw.game not in registry.PACKAGES:
        raise UserError(f"game: unknown game {raw.game!r} (known: {', '.join(registry.PACKAGES)})", doc.where(("game",)))
    try:
        text_encoding = codecs.lookup(raw.csv.encoding)._is_text_encoding
    except LookupError:
        text_encoding = None
    if not text_encoding or codecs.lookup(raw.csv.encoding).name in _NOT_FOR_LOGS:
        raise UserError(f"csv.encoding: {raw.csv.encoding!r} is not an encoding a log is written in (utf-8, "
                        "utf-8-sig, cp1252, latin-1, utf-16...)", doc.where(("csv", "encoding")))
    game = registry.get(raw.game)
    if game.importer is None:
        raise UserError(f"game: {game.title} logs cannot be imported yet", doc.where(("game",)))
    known = COMMON | game.importer.ROWS[raw.rows]
    fields: dict[str, FieldMap] = {}
    for name, spec in raw.fields.items():
        at = ("fields", name)
        if name not in known:
            raise UserError(f"fields: {raw.rows} rows of a {game.title} log have no field {name!r} (they have: "
                            f"{', '.join(known)})", doc.where(at))
        column = spec
        field = known[name]
        _check_column(name, field, column, doc, at)
        fields[name] = FieldMap(name, field, column, str(doc.where(at)))
    for name in ("shoe", "coup") if raw.rows != "wagers" or raw.coup_numbers == "shoe" else ("coup",):
        if name not in fields:
            raise UserError(f"fields: a log must map `{name}` (which column holds it)", doc.where(("fields",)))
    options = game.importer.REQUIRED[raw.rows]
    if not any(set(option) <= set(fields) for option in options):
        wanted = " or ".join(", ".join(f"`{f}`" for f in option) for option in options)
        raise UserError(f"fields: a log of {raw.rows} rows must map {wanted}", doc.where(("fields",)))
    every = raw.every_coup if raw.every_coup is not None else raw.rows != "wagers"
    return Mapping(raw.name, raw.title, doc.display, game, raw.rows, raw.csv, every, raw.coup_numbers, fields)


def _check_column(name: str, field: LogField, column: Column, doc: YamlDoc, at: tuple) -> None:
    for key in ("column", "date", "suit"):
        if isinstance(getattr(column, key), int) and getattr(column, key) < 1:
            raise UserError(f"fields.{name}.{key}: a column number counts from 1", doc.where(at + (key,)))
    if field.kind in ("word", "flag"):
        for spelling, word in column.values.items():
            if word not in field.words:
                raise UserError(f"fields.{name}.values: {spelling!r} -> {word!r}: {name} is one of "
                                f"{', '.join(field.words)}", doc.where(at + ("values", spelling)))
    elif column.values and field.kind not in ("card", "cards", "text"):
        raise UserError(f"fields.{name}: `values` spells words, and {name} holds {field.kind}",
                        doc.where(at + ("values",)))
    if column.unread and field.kind not in ("card", "cards"):
        raise UserError(f"fields.{name}: `unread` is for card fields", doc.where(at + ("unread",)))
    if (column.column is None) == (column.columns is None):
        raise UserError(f"fields.{name}: give `column` (or, for several cards, `columns`)", doc.where(at))
    for key, kinds in (("scale", ("money",)), ("pattern", ("card", "cards")), ("date", ("time",)),
                       ("suit", ("card",)), ("columns", ("cards",)), ("template", ("text",))):
        if getattr(column, key) is not None and field.kind not in kinds:
            raise UserError(f"fields.{name}: `{key}` is for {kinds[0]} fields", doc.where(at + (key,)))
    if column.template is not None and not TEMPLATE.fullmatch(column.template):
        raise UserError(f"fields.{name}.template: {column.template!r} holds the cell once, as {{}} or {{:0N}} (N "
                        "from 1 to 9: its digits padded with zeros), and no other brace (e.g. 'S{:04}')",
                        doc.where(at + ("template",)))
    if column.pattern is not None:
        if "{rank}" not in column.pattern or "{suit}" not in column.pattern:
            raise UserError(f"fields.{name}.pattern: {column.pattern!r} names {{rank}} and {{suit}} (e.g. "
                            "'{rank}-{suit}')", doc.where(at + ("pattern",)))
    if field.kind == "time":
        if column.time != "iso":
            try:
                dt.datetime.strptime(dt.datetime(2026, 11, 29, 20, 15, 30).strftime(column.time), column.time)
            except (ValueError, re.error) as e:
                why = "a directive given twice" if isinstance(e, re.error) else str(e)
                raise UserError(f"fields.{name}.time: {column.time!r} is not a time format that reads back "
                                f"({why}); use directives such as %Y-%m-%d %H:%M:%S", doc.where(at + ("time",))) from None
        if column.timezone is not None and offset(column.timezone) is None and zone(column.timezone) is None:
            raise UserError(f"fields.{name}.timezone: {column.timezone!r} is neither a UTC offset (+10:00, -05:00, Z) "
                            "nor a time zone this machine knows (Australia/Sydney, America/New_York)",
                            doc.where(at + ("timezone",)))
    elif column.time != "iso" or column.timezone is not None:
        raise UserError(f"fields.{name}: `time` and `timezone` are for time fields", doc.where(at))


#: an id template: the cell once, as {} or {:0N}, in literal text without braces
TEMPLATE = re.compile(r"[^{}]*\{(?::0([1-9]))?\}[^{}]*")


#: text encodings Python knows that no recorder writes a CSV log in (they decode by rules of their own, slowly or
#: not at all line by line)
_NOT_FOR_LOGS = {"punycode", "idna", "raw_unicode_escape", "unicode_escape", "undefined", "mbcs", "oem", "utf-7"}


def zone(name: str):
    """A named time zone (``Australia/Sydney``: its offset follows daylight saving), or None if unknown."""
    import zoneinfo

    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+){0,2}", name):
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return None


def offset(text: str) -> dt.timezone | None:
    """A UTC offset as ISO 8601 writes it (``+10:00``, ``-0500``, ``Z``)."""
    if text in ("Z", "z", "UTC"):
        return dt.UTC
    try:
        return dt.datetime.strptime(text, "%z").tzinfo
    except ValueError:
        return None
