"""Baselines: accept the findings known today, report only new ones.

``--write-baseline FILE`` records every finding of a run by its logical
fingerprint (rule, category, transcript, table, coup, event: not its line, so
editing a transcript elsewhere does not make old findings new).
``--baseline FILE`` then reports only findings whose fingerprint is not in it;
entries that no finding matches any more are listed as stale (the breach was
fixed or the transcript moved), never fatal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import msgspec

from compliance import limits
from compliance.errors import UserError
from compliance.findings import Finding

BASELINE_VERSION = 1


@dataclass(frozen=True)
class BaselineEntry:
    """One accepted finding of a baseline file (also how the JSON report lists a stale one)."""

    fingerprint: str
    rule: str
    transcript: str
    coup: int | None
    event: int | None
    message: str


@dataclass
class Baseline:
    path: str
    entries: dict[str, BaselineEntry]

    def __contains__(self, f: Finding) -> bool:
        return f.fingerprint in self.entries


def _entry(f: Finding) -> dict:
    return {"fingerprint": f.fingerprint, "rule": f.rule, "category": f.category, "transcript": f.transcript,
            "coup": f.coup, "event": f.event, "message": f.message}


def render(findings: list[Finding], tool_version: str) -> str:
    """The baseline file for these findings: one entry per fingerprint, in report order."""
    seen: dict[str, dict] = {}
    for f in findings:
        seen.setdefault(f.fingerprint, _entry(f))
    entries = sorted(seen.values(), key=lambda e: (e["transcript"], e["coup"] if e["coup"] is not None else -1,
                                                   e["event"] if e["event"] is not None else -1, e["rule"],
                                                   e["fingerprint"]))
    doc = {"baseline_version": BASELINE_VERSION, "tool": "baccarat-audit", "tool_version": tool_version,
           "findings": entries}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


class _Entry(msgspec.Struct):
    fingerprint: str
    rule: str
    transcript: str
    coup: int | None = None
    event: int | None = None
    message: str = ""


class _Head(msgspec.Struct):
    baseline_version: object = None
    findings: msgspec.Raw = msgspec.Raw()


NOT_A_BASELINE = (f"not a baccarat-audit baseline (expected baseline_version {BASELINE_VERSION} and a findings list; "
                  "write one with --write-baseline)")


def load(path: str | Path) -> Baseline:
    """Read a baseline file: bounded in size (limits ``baseline``), decoded by msgspec against the entries' types
    (a value an entry cannot hold, a NaN, a deep nesting or a number of thousands of digits is one error with
    its JSON path)."""
    shown = str(path)
    data = limits.read_input(Path(path), "baseline", shown, missing="no such baseline file")
    try:
        head = msgspec.json.decode(data, type=_Head)
        if head.baseline_version != BASELINE_VERSION or not head.findings or bytes(head.findings)[:1] != b"[":
            raise UserError(NOT_A_BASELINE, shown)
        entries_raw = msgspec.json.decode(head.findings, type=list[_Entry])
    except msgspec.ValidationError as e:  # a subclass of DecodeError: caught first
        if " - at `" not in str(e) or "- at `$`" in str(e):  # the document is not an object
            raise UserError(NOT_A_BASELINE, shown) from None
        raise UserError(f"not a baseline entry: {_rebase(str(e))}", shown) from None
    except msgspec.DecodeError as e:
        if "UTF-8" in str(e):
            limits.decode_text(data, shown, "JSON")  # raises, with the line and column of the bad byte
        raise UserError(f"not valid JSON: {_position(data, e)}", shown) from None
    except RecursionError:
        raise UserError("not a baseline: JSON nested too deeply", shown) from None
    except ValueError as e:  # a number of more than limits.MAX_INT_DIGITS digits
        raise UserError(f"not a baseline: {str(e)[:100]}", shown) from None
    entries: dict[str, BaselineEntry] = {}
    for e in entries_raw:
        if limits.lone_surrogate(e.fingerprint + e.rule + e.transcript + e.message) is not None:
            raise UserError("a baseline entry holds a lone surrogate, which is not a character", shown)
        entries[e.fingerprint] = BaselineEntry(e.fingerprint, e.rule, e.transcript, e.coup, e.event, e.message)
    return Baseline(shown, entries)


def _rebase(err: str) -> str:
    """msgspec's ``$[3].rule`` in the findings list, as ``$.findings[3].rule``."""
    return err.replace("`$", "`$.findings", 1)


def _position(data: bytes, err: Exception) -> str:
    from compliance.reading.reader import _position as position

    return position(data, err)
