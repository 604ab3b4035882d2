"""``--select`` and ``--ignore``: which rules a run applies, as Ruff picks its rules.

A selector names rules by id or finding category, exactly, as an id prefix ending at a
``-``, a category and everything under it, or a glob, in any case (:func:`names`).
:class:`Selection` says whether a rule's findings are reported: some ``select`` names it
(every rule without one) and no ``ignore`` does; :data:`ALWAYS` (unreadable coups) is
never deselected, and an old id of a renamed rule names the rule.

Selection filters what a report shows, never what a rule computes: docs/reports.md,
"Which rules".
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase

from compliance.categories import under
from compliance.errors import UserError

ALWAYS = "transcript.unreadable"


def names(pattern: str, rule: str, category: str) -> bool:
    """Does the selector ``pattern`` name the rule ``rule`` of category ``category``?"""
    p = pattern.strip()
    up, low = p.upper(), p.lower()
    return (fnmatchcase(rule.upper(), up) or rule.upper().startswith(up + "-")
            or fnmatchcase(category, low) or under(low, category))


@dataclass(frozen=True)
class Selection:
    """The selectors of a run (picklable: parallel workers apply it too)."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    always: tuple[str, ...] = ()  # categories shown whatever is selected (a requirement of the run's own)

    def __bool__(self) -> bool:
        return bool(self.select or self.ignore)

    def applies(self, rule: str, category: str) -> bool:
        if category == ALWAYS or category in self.always:
            return True
        if self.select and not any(names(p, rule, category) for p in self.select):
            return False
        return not any(names(p, rule, category) for p in self.ignore)

    def redirected(self, redirects: Mapping) -> tuple[Selection, list[str]]:
        """This selection with each selector that is a renamed rule's old id (``redirects``: old id ->
        :class:`compliance.redirects.Redirect`) naming the rule's id now; and a note for each."""
        by_upper = {old.upper(): r for old, r in redirects.items()}
        notes: list[str] = []

        def new(option: str, patterns: tuple[str, ...]) -> tuple[str, ...]:
            out = []
            for p in patterns:
                r = by_upper.get(p.strip().upper())
                if r is not None:
                    notes.append(r.note(f"{option} {p.strip()}"))
                out.append(r.new if r is not None else p)
            return tuple(out)

        moved = Selection(new("select", self.select), new("ignore", self.ignore), self.always)
        return (moved, notes) if notes else (self, [])

    def check_known(self, rules: Iterable[tuple[str, str]]) -> None:
        """Every selector names some rule of ``rules`` ((id, category) pairs); else a UserError with the
        nearest id or category."""
        known = list(rules)
        for option, patterns in (("--select", self.select), ("--ignore", self.ignore)):
            for p in patterns:
                if any(names(p, rule, category) for rule, category in known):
                    continue
                prefixes = ({r.rsplit("-", n)[0] for r, _ in known for n in range(1, r.count("-"))}
                            | {c.rsplit(".", n)[0] for _, c in known for n in range(1, c.count(".") + 1)})
                words = {w.upper(): w for w in {r for r, _ in known} | {c for _, c in known} | prefixes}
                close = difflib.get_close_matches(p.upper(), sorted(words), n=1)
                hint = f"; did you mean {words[close[0]]}?" if close else " (see `baccarat-audit rules list`)"
                raise UserError(f"{option} {p}: no rule id or category of the rulesets is named so{hint}")
