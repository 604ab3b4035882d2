"""A run's context: everything a check is told by its command, in one object handed down.

``check`` builds one :class:`RunContext` from its defaults, the configuration file and
its flags, and hands it to the engine, the driver (:mod:`compliance._internal.driver`),
every worker and a game's integrity stage; :class:`ConfigSource` names the configuration
file it came from.  No module keeps a switch for the process.

Why, and what a new choice of a command adds here: docs/architecture.md (the opening).
"""

from __future__ import annotations

from dataclasses import dataclass

from compliance.errors import UserError
from compliance.limits import DEFAULTS, Limits
from compliance.selection import Selection


@dataclass(frozen=True)
class ConfigSource:
    """The configuration file a run used: where it is, the SHA-256 of its bytes, and the rules it turned off
    (its ``ignore``, and the rules its ``select`` left out, as patterns)."""

    path: str
    sha256: str
    ignore: tuple[str, ...] = ()
    select: tuple[str, ...] = ()


@dataclass(frozen=True)
class RunContext:
    """What a run was asked to do, beside the transcripts it reads."""

    #: the operator's ruleset (--ruleset or the configuration's ``ruleset``: a bundled id or a file), else None:
    #: each transcript's ``table.jurisdiction``
    ruleset: str | None = None
    #: the configuration's ``jurisdictions``: a table.jurisdiction -> the ruleset id or file it stands for
    jurisdictions: tuple[tuple[str, str], ...] = ()
    #: which rules' findings are reported (--select, --ignore)
    selection: Selection = Selection()
    #: the size limits of every file the run reads (compliance.limits; the configuration's ``limits``)
    limits: Limits = DEFAULTS
    #: use the user's cache directory (validated rulesets, a shoe's exact odds): off with --no-cache,
    #: ``cache = false`` or BACCARAT_AUDIT_NO_CACHE (compliance.cachedir)
    cache: bool = True
    #: the configuration file the run's settings came from (None: none was found, or --isolated)
    config: ConfigSource | None = None
    #: --isolated: no configuration file was read at all
    isolated: bool = False
    #: keep the cards of the coups with findings (the HTML report draws them)
    keep_states: bool = False
    #: keep every readable coup's number (reports that list each coup)
    keep_coups: bool = False
    #: evidence every coup's record must hold (--require-evidence, the configuration's ``require-evidence``:
    #: names of compliance.evidence.DECLARABLE); a coup lacking it is a record.evidence-missing finding
    require_evidence: frozenset[str] = frozenset()
    #: --as-of DATE (YYYY-MM-DD): every coup judged by the rules in force that day, whatever its own date
    as_of: str | None = None
    #: the hold test's shift starts (HH:MM) and the time zone its shifts and days are told in (the configuration's
    #: ``shifts`` and ``time-zone``); none: the day is one shift, each time at the offset it was recorded with
    shifts: tuple[str, ...] = ()
    time_zone: str | None = None

    @property
    def jurisdiction_map(self) -> dict[str, str]:
        return dict(self.jurisdictions)


def a_day(value: str, option: str) -> str:
    """A calendar day given to an option (YYYY-MM-DD: ``--as-of``), else the one error of a user's mistake."""
    import datetime as dt

    try:
        if len(value) == 10:
            return dt.date.fromisoformat(value).isoformat()
    except ValueError:
        pass
    raise UserError(f"{option}: {value[:40]!r} is not a date (YYYY-MM-DD)")
