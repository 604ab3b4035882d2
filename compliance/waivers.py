"""Waivers: approved deviations that do not fail a run.

A waivers file (``--waivers``) is YAML::

    waivers:
      - id: W-2026-014                       # optional; default: its position, e.g. "#1"
        rule: BAC-SETTLE-AMOUNT              # a rule id, or
        category: settlement.wrong-amount    # a category (at least one of the two)
        transcript: "recordings/*.json"     # optional: the transcript's path, or a glob; default any
        coups: [5, 6]                        # optional (or coup: 5, not both); default every coup
        justification: house pays even money on Banker wagers under promotion P-17
        approved_by: J. Rivera, compliance officer
        expires: 2027-03-31                  # the last day the waiver applies

A waiver applies to a finding when every scope it gives matches.  A waiver
whose ``expires`` date has passed (judged on the run's date) or that is
malformed waives nothing; both are reported, each with its line in the file.
A waiver that matched no finding is reported as unused.  A waiver naming a
rule no ruleset has is an error (:func:`check_rules`): a typo in a rule id
must not pass for a waiver that merely found nothing.

``transcript`` matches the transcript's path as reported exactly, or as a
glob (``*``, ``?`` and ``[...]`` as in :mod:`fnmatch`): ``dir/table[7].json``
waives the file of that name and, as a glob, ``dir/table7.json``; to match
a ``[`` only literally, write it ``[[]``.  A waiver that gives both ``coup``
and ``coups`` is malformed (which one was meant?), and two waivers with one
``id`` make the file unusable (exit 2): one of them could never be told
apart, as used or unused.
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Collection
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from compliance.categories import CATEGORIES
from compliance.errors import UserError, Where
from compliance.findings import Finding
from compliance.yamlread import read_yaml


class Waiver(BaseModel):
    """One approved deviation, as written in the waivers file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str | None = None
    rule: str | None = Field(default=None, description="rule id the waiver covers")
    category: str | None = Field(default=None, description="finding category the waiver covers")
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
        if self.category and self.category not in CATEGORIES:
            raise ValueError(f"unknown category {self.category!r}")
        if not self.justification.strip() or not self.approved_by.strip():
            raise ValueError("justification and approved_by must not be blank")
        return self

    def matches(self, f: Finding) -> bool:
        if self.rule and self.rule != f.rule:
            return False
        if self.category and self.category != f.category:
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

    def waiver_for(self, f: Finding) -> Entry | None:
        for e in self.active:
            if e.waiver.matches(f):
                return e
        return None


def load(path: str | Path, today: dt.date) -> Waivers:
    """Read a waivers file; a file that cannot be read at all stops the run (exit 2)."""
    doc = read_yaml(Path(path), str(path), what="waivers file", dates=True)
    shown = doc.display
    data = doc.data
    items = data.get("waivers") if isinstance(data, dict) else data
    base = ("waivers",) if isinstance(data, dict) else ()
    if data is None or items is None:
        items = []
    if not isinstance(items, list):
        raise UserError("a waivers file holds a list `waivers:` of waivers", doc.where(base))
    out = Waivers(shown)
    ids: dict[str, int] = {}
    for i, raw in enumerate(items):
        line = doc.position(base + (i,))[0]
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
        out.active.append(Entry(key, line, w, str(doc.where(base + (i, "rule"))) if w.rule else None))
    return out


def _reason(e: ValidationError) -> str:
    parts = []
    for err in e.errors():
        loc = ".".join(str(x) for x in err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts)


def check_rules(waivers: Waivers, known: Collection[str]) -> None:
    """Every waiver in force names a rule some ruleset has (``known``: their ids); else a UserError at its line."""
    for e in waivers.active:
        rule = e.waiver.rule
        if rule and rule not in known:
            close = difflib.get_close_matches(rule, sorted(known), n=1)
            hint = f"; did you mean {close[0]}?" if close else " (see `baccarat-audit rules list`)"
            raise UserError(f"waiver {e.key} names the rule {rule}, which no ruleset has{hint}",
                            e.rule_at or f"{waivers.path}:{e.line}")
