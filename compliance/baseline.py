"""Baselines: accept the findings known today, report only new ones.

:func:`render` writes a run's findings by fingerprint (``--write-baseline``;
:func:`compliance.findings.fingerprint`); :func:`load` reads one back (``--baseline``)
into a :class:`Baseline`, working every entry's fingerprint out again from its fields
(a version 1 file is read with today's; a version 2 entry that does not match stops the
run) and following renamed rule ids (:mod:`compliance.redirects`).

What a fingerprint holds and what is stale: docs/reports.md, "Baselines"; docs/security.md,
"In more detail" (Fingerprints).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from compliance import figures, fileread, limits
from compliance.errors import UserError
from compliance.findings import Finding, fingerprint
from compliance.printable import json_safe

BASELINE_VERSION = 2
READS = (1, 2)  # the versions a baseline file may have


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
    return json_safe(json.dumps(doc, indent=2, ensure_ascii=False)) + "\n"


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs):
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise _DuplicateKey(key[:64])
        seen.add(key)
    return dict(pairs)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def load(path: str | Path, bounds: limits.Limits = limits.DEFAULTS, redirects: Mapping | None = None,
         notes: list[str] | None = None) -> Baseline:
    """Read a baseline file within the run's size limits (``bounds``); an entry of a renamed rule's old id
    (``redirects``: old id -> :class:`compliance.redirects.Redirect`) accepts the findings of the rule's id now
    (a note in ``notes`` for each old id)."""
    shown = str(path)
    redirected: dict[str, int] = {}
    # bounded (limits ``baseline``, a pipe or a device read up to it), UTF-8 with the bad byte's place
    text = fileread.read_text(Path(path), "baseline", shown, missing="no such baseline file", bounds=bounds)
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except _DuplicateKey as e:
        raise UserError(f"duplicate key {e.args[0]!r}: a baseline means one thing or nothing", shown) from None
    except json.JSONDecodeError as e:
        raise UserError(f"not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}", shown) from None
    except RecursionError:
        raise UserError("not a baseline: JSON nested too deeply", shown) from None
    except ValueError as e:  # NaN or Infinity, a number of more than figures.MAX_INT_DIGITS digits
        raise UserError(f"not valid JSON here: {figures.value_error(e)}", shown) from None
    version = doc.get("baseline_version") if isinstance(doc, dict) else None
    if version not in READS or isinstance(version, bool) or not isinstance(doc.get("findings"), list):
        raise UserError(f"not a baccarat-audit baseline (expected baseline_version {BASELINE_VERSION} "
                        "and a findings list; write one with --write-baseline)", shown)
    entries: dict[str, BaselineEntry] = {}
    for i, e in enumerate(doc["findings"]):
        try:
            rule, category, transcript, message = e["rule"], e["category"], e["transcript"], e["message"]
            coup, event = e.get("coup"), e.get("event")
            if not all(isinstance(x, str) for x in (rule, category, transcript, message)) or not all(
                    x is None or (isinstance(x, int) and not isinstance(x, bool)) for x in (coup, event)):
                raise TypeError
            if any(fileread.lone_surrogate(x) is not None for x in (rule, category, transcript, message)):
                raise UserError(f"entry {i}: text holds a lone surrogate, which is not a character", shown)
            key = fingerprint(rule, category, transcript, coup, event, message)
        except (KeyError, TypeError):
            raise UserError(f"entry {i} needs rule, category, transcript and message (strings) and coup and event "
                            "(numbers or null)", shown) from None
        if version == BASELINE_VERSION and e.get("fingerprint") != key:
            raise UserError(f"entry {i}: its fingerprint is not that of its rule, coup and message (edited by "
                            "hand?): write the baseline again with --write-baseline", shown)
        if redirects and rule in redirects:  # the findings of the rule under its id now
            redirected[rule] = redirected.get(rule, 0) + 1
            rule = redirects[rule].new
            key = fingerprint(rule, category, transcript, coup, event, message)
        entries[key] = BaselineEntry(key, rule, transcript, coup, event, message)
    if notes is not None:
        for old, n in redirected.items():
            notes.append(redirects[old].note(f"the baseline {shown} ({n} entr{'y' if n == 1 else 'ies'})"))
    return Baseline(shown, entries)
