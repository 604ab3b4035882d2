"""Renamed rules: an old rule id redirects to the id the rule has now, as Ruff redirects its renamed codes.

A ruleset that renames a rule keeps the old id under ``redirects`` (``OLD-ID: NEW-ID``; the loader checks that
the new id is a rule of the ruleset and the old one is no rule's).  Whatever a user wrote with the old id keeps
working, and says so once with a note: a waiver (:func:`compliance.waivers.redirect`), a baseline entry
(:func:`compliance.baseline.load`), a ``--select``/``--ignore`` selector and the configuration's
``select``/``ignore`` (:meth:`compliance.selection.Selection.redirected`).  Nothing a user wrote is narrowed
by a rename: the old id means the rule it names today.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Redirect:
    old: str
    new: str
    ruleset: str  # the ruleset that renamed it

    def note(self, what: str) -> str:
        """The note a use of the old id gets: ``what`` is the thing that names it."""
        return f"{what} names rule {self.old}, renamed {self.new} in ruleset {self.ruleset}: it applies to " \
               f"{self.new}; write {self.new} there"


def table(rulesets: Iterable) -> dict[str, Redirect]:
    """The redirects of ``rulesets`` by old id (a rename two rulesets share counted once; the first kept)."""
    out: dict[str, Redirect] = {}
    for rs in rulesets:
        for old, new in getattr(rs, "redirects", {}).items():
            out.setdefault(old, Redirect(old, new, rs.id))
    return out
