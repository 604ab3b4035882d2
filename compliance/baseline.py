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


def load(path: str | Path) -> Baseline:
    shown = str(path)
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError("no such baseline file", shown) from None
    except OSError as e:
        raise UserError(f"cannot read: {e.strerror}", shown) from None
    except json.JSONDecodeError as e:
        raise UserError(f"not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}", shown) from None
    if not isinstance(doc, dict) or doc.get("baseline_version") != BASELINE_VERSION or not isinstance(
            doc.get("findings"), list):
        raise UserError(f"not a baccarat-audit baseline (expected baseline_version {BASELINE_VERSION} "
                        "and a findings list; write one with --write-baseline)", shown)
    entries: dict[str, BaselineEntry] = {}
    for i, e in enumerate(doc["findings"]):
        try:
            entries[e["fingerprint"]] = BaselineEntry(e["fingerprint"], e["rule"], e["transcript"], e.get("coup"),
                                                      e.get("event"), e.get("message", ""))
        except (KeyError, TypeError):
            raise UserError(f"entry {i} needs fingerprint, rule and transcript", shown) from None
    return Baseline(shown, entries)
