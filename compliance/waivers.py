"""Waivers: approved deviations that do not fail a run.

:func:`load` reads a waivers file (``--waivers``; YAML, a list under ``waivers:`` of
entries with a rule or category, an optional transcript glob and coups, a justification,
who approved it and when it expires) into :class:`Waivers`, whose ``waiver_for`` finds
the waiver of a finding, if any.  A file laid out one key a line is read by
:func:`plain_layout` without a YAML parser; :func:`check_rules` refuses a waiver naming a
rule no ruleset has, and :func:`redirect` follows renamed rule ids.

The format, what matches what, and what is reported as expired, malformed or unused:
docs/reports.md, "Waivers".
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
import io
import re
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from compliance import fileread, limits, registry
from compliance.categories import enclosing, under
from compliance.errors import UserError, Where
from compliance.findings import Finding
from compliance.yamlread import parse_yaml


class Waiver(BaseModel):
    """One approved deviation, as written in the waivers file."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    id: str | None = None
    rule: str | None = Field(default=None, description="rule id the waiver covers")
    category: str | None = Field(default=None, description="finding category the waiver covers, with every "
                                 "category under it (record covers record.duplicate-coup)")
    transcript: str | None = Field(default=None, description="glob on the transcript path (default: any)")
    coups: list[int] | None = Field(default=None, description="coup numbers (default: every coup)")
    justification: str = Field(min_length=1, description="why the deviation is acceptable")
    approved_by: str = Field(min_length=1, description="who approved it")
    expires: dt.date = Field(description="last day the waiver applies")

    @model_validator(mode="before")
    @classmethod
    def _single_coup(cls, data):
        if isinstance(data, dict) and "coup" in data:
            if "coups" in data:
                raise ValueError("give `coup` or `coups`, not both")
            data = dict(data)
            data["coups"] = [data.pop("coup")]
        return data

    @model_validator(mode="after")
    def _scope(self):
        if not self.rule and not self.category:
            raise ValueError("a waiver needs a rule or a category")
        if self.category and not any(under(self.category, c) for c in registry.categories()):
            raise ValueError(f"unknown category {self.category!r}")
        if not self.justification.strip() or not self.approved_by.strip():
            raise ValueError("justification and approved_by must not be blank")
        return self

    def matches(self, f: Finding) -> bool:
        if self.rule and self.rule != f.rule:
            return False
        if self.category and not under(self.category, f.category):
            return False
        if self.coups is not None and f.coup not in self.coups:
            return False
        return self.transcript is None or _path_matches(self.transcript, f.transcript)


def _path_matches(pattern: str, path: str) -> bool:
    """The transcript path as reported (``/`` separators), exactly or as a glob; a pattern without ``/`` may
    match the name."""
    path = PurePosixPath(path.replace("\\", "/")).as_posix()
    pattern = pattern.replace("\\", "/").removeprefix("./")
    name = PurePosixPath(path).name
    if pattern in (path, path.removeprefix("./")) or ("/" not in pattern and pattern == name):
        return True
    if fnmatchcase(path, pattern) or fnmatchcase(path.removeprefix("./"), pattern):
        return True
    return "/" not in pattern and fnmatchcase(name, pattern)


@dataclass(frozen=True)
class Entry:
    """A waiver with its place in the file."""

    key: str  # its id, or "#<position>"
    line: int
    waiver: Waiver
    rule_at: str | None = None  # file:line:column of its `rule:`, for an error about the rule it names

    def describe(self) -> str:
        w = self.waiver
        return f"waiver {self.key} ({w.approved_by}, until {w.expires.isoformat()}): {w.justification}"


@dataclass(frozen=True)
class Rejected:
    """A waiver that waives nothing: expired or malformed."""

    key: str
    line: int
    reason: str


@dataclass
class Waivers:
    """The waivers of one file, split into those in force and those rejected."""

    path: str
    active: list[Entry] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    _index: dict | None = field(default=None, repr=False, compare=False)

    def waiver_for(self, f: Finding) -> Entry | None:
        """The first waiver in the file that applies to ``f``: only the waivers of its rule or of its category
        (or one it falls under), for its coup or for every coup, are looked at."""
        if self._index is None:
            self._index = _index(self.active)
        found = None
        keys = [("rule", f.rule, f.coup), ("rule", f.rule, None)]
        keys += [("category", c, coup) for c in enclosing(f.category) for coup in (f.coup, None)]
        for key in keys:
            for position, e in self._index.get(key, ()):
                if found is not None and position >= found[0]:
                    break  # each list is in file order: nothing later in it comes first
                if e.waiver.matches(f):
                    found = (position, e)
                    break
        return found[1] if found else None


def _index(entries: list[Entry]) -> dict[tuple, list[tuple[int, Entry]]]:
    """Each waiver under its rule (else its category) and each of its coups (None: every coup), in file order."""
    index: dict[tuple, list[tuple[int, Entry]]] = {}
    for position, e in enumerate(entries):
        w = e.waiver
        scope = ("rule", w.rule) if w.rule else ("category", w.category)
        for coup in (dict.fromkeys(w.coups) if w.coups is not None else (None,)):
            index.setdefault((*scope, coup), []).append((position, e))
    return index


def load(path: str | Path, today: dt.date, bounds: limits.Limits = limits.DEFAULTS) -> Waivers:
    """Read a waivers file (within the run's size limits, ``bounds``); a file that cannot be read at all stops
    the run (exit 2)."""
    shown = str(path)
    data = fileread.read_input(Path(path), "waivers", shown, missing="no such waivers file", bounds=bounds)
    try:  # the documented layout, line by line: each waiver validated as it is read
        return _judge(shown, plain_layout(fileread.decode_text(data, shown)), today)
    except _NotPlain:
        pass
    doc = parse_yaml(data, shown, what="waivers file", kind="waivers", bounds=bounds)  # any other YAML: the one YAML reader
    items = doc.data.get("waivers") if isinstance(doc.data, dict) else doc.data
    base = ("waivers",) if isinstance(doc.data, dict) else ()
    if doc.data is None or items is None:
        items = []
    if not isinstance(items, list):
        raise UserError("a waivers file holds a list `waivers:` of waivers", doc.where(base))
    return _judge(shown, ((doc.position(base + (i,))[0], raw, doc.position(base + (i, "rule")))
                          for i, raw in enumerate(items)), today)


def _judge(shown: str, listed, today: dt.date) -> Waivers:
    """The waivers (line, raw value, (line, column) of its ``rule:``) split into those in force and those
    rejected, with the reason."""
    out = Waivers(shown)
    ids: dict[str, int] = {}
    for i, (line, raw, rule_at) in enumerate(listed):
        key = str(raw.get("id")) if isinstance(raw, dict) and raw.get("id") is not None else f"#{i + 1}"
        if key in ids:
            raise UserError(f"two waivers have the id {key[:80]!r} (lines {ids[key]} and {line}): each waiver needs "
                            "its own id, or its use could not be told", Where(shown, line))
        ids[key] = line
        try:
            w = Waiver.model_validate(raw)
        except ValidationError as e:
            out.rejected.append(Rejected(key, line, "malformed: " + _reason(e)))
            continue
        if w.expires < today:
            out.rejected.append(Rejected(key, line, f"expired on {w.expires.isoformat()}"))
            continue
        out.active.append(Entry(key, line, w, str(Where(shown, *rule_at)) if w.rule else None))
    return out


def _reason(e: ValidationError) -> str:
    parts = []
    for err in e.errors():
        loc = ".".join(str(x) for x in err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts)


def redirect(waivers: Waivers, redirects: Mapping) -> list[str]:
    """Point each waiver in force that names a renamed rule's old id (``redirects``: old id ->
    :class:`compliance.redirects.Redirect`) at the rule's id now; a note for each."""
    notes = []
    for i, e in enumerate(waivers.active):
        r = redirects.get(e.waiver.rule) if e.waiver.rule else None
        if r is not None:
            waivers.active[i] = dataclasses.replace(e, waiver=e.waiver.model_copy(update={"rule": r.new}))
            notes.append(r.note(f"waiver {e.key} ({waivers.path}:{e.line})"))
    if notes:
        waivers._index = None
    return notes


def check_rules(waivers: Waivers, known: Collection[str]) -> None:
    """Every waiver in force names a rule some ruleset has (``known``: their ids); else a UserError at its line."""
    for e in waivers.active:
        rule = e.waiver.rule
        if rule and rule not in known:
            close = difflib.get_close_matches(rule, sorted(known), n=1)
            hint = f"; did you mean {close[0]}?" if close else " (see `baccarat-audit rules list`)"
            raise UserError(f"waiver {e.key} names the rule {rule}, which no ruleset has{hint}",
                            e.rule_at or f"{waivers.path}:{e.line}")


# ------------------------------------------------------------------ the plain layout, read without a YAML parser

_UNUSUAL = re.compile(r"[^\n\r\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]|\r(?!\n)")
#: one line: its indentation, ``- `` when it starts a waiver, and ``key: value``; or blank, or a comment
_LINE = re.compile(r"( *)(?:(- )?([a-z_]+):(?: +(.*))?|#.*)?\Z")
_TOP = re.compile(r"waivers:(?: +#.*)? *")
_QUOTES = frozenset("'\"")
_PLAIN = re.compile(r"[A-Za-z_/][^\t#'\"]*")  # a plain one-line string: a letter, _ or / first, no quote or #
_NUMBER = re.compile(r"0|[1-9][0-9]{0,17}")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_QUOTED = re.compile(r"'([^'\n]*)'|\"([^\"\\\n]*)\"")
_NUMBERS = re.compile(r"\[ *(?:(?:0|[1-9][0-9]{0,17}) *(?:, *(?:0|[1-9][0-9]{0,17}) *)*)?\]")
#: plain words YAML reads as something else than text (1.2 core schema, and 1.1's words, to be safe)
_NOT_TEXT = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n"})


def _value(text: str | None):
    """One value of the plain layout, as the YAML parser reads it (dates stay text); :class:`_NotPlain` when
    it is not one of the plain forms."""
    if not text:
        raise _NotPlain
    if "#" in text:
        comment = text.find(" #")
        if comment >= 0:
            text = text[:comment]
    text = text.rstrip(" ")
    first = text[:1]
    if first in _QUOTES:
        if _QUOTED.fullmatch(text):
            return text[1:-1]
    elif first.isdigit():
        if _NUMBER.fullmatch(text):
            return int(text)
        if _DATE.fullmatch(text):
            return text
    elif first == "[":
        if _NUMBERS.fullmatch(text):
            return [int(n) for n in text[1:-1].split(",") if n.strip()]
    elif _PLAIN.fullmatch(text) and ": " not in text and text[-1] != ":" and text.lower() not in _NOT_TEXT:
        return text
    raise _NotPlain


class _NotPlain(Exception):
    """The file is not in the plain layout: the YAML parser reads it."""


def plain_layout(text: str) -> Iterator[tuple[int, dict, tuple[int, int]]]:
    """The waivers of a file in the documented layout, each with its line and the (line, column) of its
    ``rule:`` (of the waiver when it has none), read line by line (linear, no
    YAML parser), each yielded once all its keys are read; :class:`_NotPlain` is raised as soon as the file
    turns out to be laid out any other way (a multi-line value, a nested mapping, a block list, an anchor,
    a tag, ...), for the YAML parser to read.

    ``waivers:`` (or nothing) on top, then ``- key: value`` to start each waiver and ``key: value`` two
    spaces further in for its other keys; comments and blank lines anywhere.  The values it accepts are
    read exactly as ruamel.yaml reads them (``tests/test_fuzz_waivers.py`` compares the two).
    """
    if _UNUSUAL.search(text):  # tabs, control characters, other line breaks: for the YAML parser
        raise _NotPlain
    current: tuple[int, dict] | None = None
    top = indent = None
    line_match = _LINE.match
    for n, line in enumerate(io.StringIO(text, newline=None), 1):
        m = line_match(line.rstrip("\n"))
        if m is None:
            raise _NotPlain
        spaces, dash, key, value = m.groups()
        if key is None:  # blank, or a comment
            continue
        if dash:
            if indent is None:
                indent = len(spaces)
                if top is None:
                    if indent:
                        raise _NotPlain
                    top = "list"
            if len(spaces) != indent:
                raise _NotPlain
            if current is not None:
                yield current
            current = (n, {key: _value(value)}, (n, len(spaces) + 3))  # the waiver's first key: where it starts
            continue
        if top is None and indent is None and not spaces and key == "waivers" and _TOP.fullmatch(line.rstrip("\n")):
            top = "waivers"
            continue
        if current is None or len(spaces) != indent + 2 or key in current[1]:
            raise _NotPlain
        current[1][key] = _value(value)
        if key == "rule":
            current = (current[0], current[1], (n, len(spaces) + 1))
    if current is not None:
        yield current
