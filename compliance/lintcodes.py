"""The codes of ``baccarat-audit ruleset lint``: each registered once, with what it finds and why it matters.

A code is a stable name a diagnostic carries (``unknown-check``, ``tableau-differs``), the way Ruff's rule
codes are: scripts and CI filter on it, and ``ruleset lint --explain CODE`` prints its explanation.  The
codes every ruleset can get are registered by :mod:`compliance.ruleset.lint`; a game registers the codes of
its own ``game`` section in its lint module (baccarat's: :mod:`compliance.games.baccarat.lint`).  The linter
reports no code that is not registered, nor at a severity its registration does not give.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class LintCode:
    """One lint code: what it finds (a line), at which severities, and an explanation (what to do about it)."""

    code: str
    severities: tuple[str, ...]  # an error makes the exit status 1; a warning with --strict; a note (info) never
    summary: str
    explanation: str

    def __post_init__(self):
        unknown = [s for s in self.severities if s not in SEVERITIES]
        if not self.severities or unknown:
            raise ValueError(f"lint code {self.code!r}: severities {self.severities!r} (known: {', '.join(SEVERITIES)})")

    def explain(self) -> str:
        """The text ``ruleset lint --explain`` prints."""
        return (f"{self.code} ({', '.join(self.severities)})\n\n{self.summary}\n\n"
                + textwrap.dedent(self.explanation).strip() + "\n")


def table(*codes: LintCode) -> dict[str, LintCode]:
    """The codes by name (each once)."""
    out: dict[str, LintCode] = {}
    for c in codes:
        if c.code in out:
            raise ValueError(f"lint code {c.code!r} registered twice")
        out[c.code] = c
    return out
