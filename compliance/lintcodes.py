"""The codes of ``baccarat-audit ruleset lint``: each registered once, with what it finds and why it matters.

A code is a stable name a diagnostic carries (``unknown-check``, ``tableau-differs``), the way Ruff's rule
codes are: scripts and CI filter on it, and ``ruleset lint --explain CODE`` prints its explanation.  The
codes every ruleset can get are constants here (:data:`CODES`); a game's, of its own ``game`` section, are
constants of its lint module (baccarat's: :mod:`compliance.games.baccarat.lint`).  Call sites pass the
constant (``report.add(at, "error", SCHEMA, ...)``), never its name as a string; the linter reports no code
that is not registered, nor at a severity its registration does not give.
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


# the codes every ruleset can get, for the linter's call sites (a game's own are in its lint module)
SCHEMA = LintCode("schema", ("error",), "a key, type or value the ruleset format does not allow", """
    The file is not a ruleset as the format defines it (docs/rule-authoring.md, and the JSON Schema
    `baccarat-audit schema ruleset` prints): an unknown key, a value of the wrong type, a required key
    missing, YAML that does not parse.  The loader refuses such a file.  Fix the key or value named; an
    editor that reads the schema (the `yaml-language-server` comment of the bundled rulesets) shows these
    as you type.""")

UNKNOWN_CHECK = LintCode("unknown-check", ("error",), "a rule names a check kind that does not exist", """
    A rule's `check` names the code that judges it; no check kind of that name is registered.  Usually a
    typo: the message suggests the nearest name, and `baccarat-audit rules kinds` lists every kind with
    its parameters.""")

BAD_PARAMS = LintCode("bad-params", ("error",), "a rule's parameters do not fit its check kind", """
    Each check kind validates its own parameters (`baccarat-audit rules kinds` lists them).  A parameter
    the kind does not know, or a value it refuses, would stop every check with this ruleset.  An override's
    parameters are judged merged over the rule's inherited ones.""")

DUPLICATE_ID = LintCode("duplicate-id", ("error",), "two rules share an id", """
    A rule id names one rule: findings, waivers, baselines and --select name rules by it.  Two rules of one
    file with the same id, or a rule redefining one that a ruleset it extends defines, are refused; change
    an inherited rule under `overrides` instead.""")

MISSING_CITATION = LintCode("missing-citation", ("error",), "a rule of a jurisdiction cites no regulation paragraph", """
    Every finding says which paragraph it breaks, so every rule a jurisdiction checks cites one.  An abstract
    base may leave a rule uncited; the jurisdiction that extends it then cites it under `overrides` (or
    disables it).""")

UNKNOWN_SOURCE = LintCode("unknown-source", ("error",), "a citation names a source the ruleset does not declare", """
    A citation is `{source: KEY, at: [paragraphs]}`, and KEY must be a key of the ruleset's `sources` (or of a
    ruleset it extends): the source gives the prefix every cited paragraph is printed with.""")

CITATION_NOT_IN_TEXT = LintCode("citation-not-in-text", ("warning",), "a cited paragraph is not in the bundled regulation text", """
    Where a source names a bundled regulation text, its paragraph index (rulesets/coverage.yaml) lists the
    paragraphs of that text.  A citation of a paragraph the index does not have is most likely a typo, or a
    paragraph renumbered by an amendment: a finding would cite a paragraph that is not there.""")

UNKNOWN_TEXT = LintCode("unknown-text", ("warning",), "a source names a regulation text that is not bundled", """
    A source's `text` names the bundled regulation text its citations are checked against.  A name no
    bundled text has means its citations cannot be checked (`citation-not-in-text` stays silent).""")

UNREACHABLE_OVERRIDE = LintCode("unreachable-override", ("error", "warning"), "an override that reaches no rule", """
    An override changes a rule a ruleset this one extends defines.  One that names a rule no parent defines
    (a typo, or a rule renamed or removed upstream), or a rule this file defines itself, is an error: it
    would change nothing.  An override of a rule a parent disables is a warning: it has no effect unless it
    sets `enabled: true`.""")

OVERRIDE_NO_EFFECT = LintCode("override-no-effect", ("info",), "an override sets what is already in force", """
    A note: the override sets a value the inherited rule already has.  It changes nothing today, and would
    silently keep the old value if the parent changed; remove it unless it is there on purpose.""")

EXTENDS_CYCLE = LintCode("extends-cycle", ("error",), "the `extends` chain comes back to a ruleset already in it", """
    A ruleset extends one parent, which may extend another; the chain must end.  The message lists the
    chain up to the ruleset met twice.""")

EXTENDS_MISSING = LintCode("extends-missing", ("error",), "`extends` names a ruleset that cannot be loaded", """
    `extends` takes a bundled ruleset id or a path relative to the file.  The ruleset it names does not
    exist, cannot be read, or cannot be loaded itself (the message gives its own first error).""")

UNKNOWN_DEALING_METHOD = LintCode("unknown-dealing-method", ("warning",), "a rule is limited to a dealing method the ruleset does "
         "not define", """
    A rule's `dealing_methods` limits it to coups dealt by those methods, which the ruleset's
    `dealing_methods` defines.  A method it does not define matches no coup: the rule never runs.""")

HOUSE_SETS_REGULATION = LintCode("house-sets-regulation", ("error",), "a casino's house ruleset changes what the regulation fixes", """
    A casino's house ruleset (`casino:` set) extends a jurisdiction and may only set the parameters the
    regulation leaves to the house (written `{house: X, note: ...}` in the jurisdiction).  It defines no
    rules, and changes no title, severity, citation or other parameter: those are the regulation's.""")

BUNDLED_ID = LintCode("bundled-id", ("warning",), "a ruleset file takes the id of a bundled ruleset", """
    A file outside the bundled rulesets calls itself `us-nj` (say): a report judged by it would read
    "ruleset us-nj 2026.11" as if the bundled ruleset had judged, whatever rules the file turns off.  Every
    report names such a ruleset as loaded from its file, with the rules it turns off, changes and adds
    against the bundled one; give the file an id of its own, and `extends: us-nj` to build on it.""")

AMENDMENT_ORDER = LintCode("amendment-order", ("error",), "amendments not listed in the order they took effect", """
    A ruleset's `amendments` are its history, read in order: each takes effect on or after the one listed
    above it.  Out of order, a reader (and `ruleset history`) would see the rules change backwards; the
    loader refuses the file.  List them by `effective`.""")

AMENDMENT_OVERLAP = LintCode("amendment-overlap", ("error",), "two amendments in force on a common day change the same thing", """
    A temporary amendment (with `ends`) and another that takes effect before it ends, both changing the same
    spot, variant, rule or source, leave the rules of those days to the order they are written in.  The
    regulation never says so: end the first where the second begins, or merge them.""")

AMENDMENT_CITATION = LintCode("amendment-citation", ("error",), "an amendment cites no register notice, or adds an uncited rule", """
    Every version of a ruleset is named in reports by the amendments that make it, each with the register
    notice that published it (`cite: "44 Pa.B. 599"`).  An amendment without one, or a rule it adds without
    a `citation`, would judge coups by rules no one can look up.""")

OPTION_NOT_PERMITTED = LintCode("option-not-permitted", ("error",), "a house selects an option its jurisdiction does not permit", """
    A house ruleset's `selections` choose among the `options` of the jurisdiction it extends, each of which
    cites the paragraph that lets the house choose.  A selection of an option the jurisdiction does not list
    (a typo, or a choice the regulation never offered) is refused by the loader too; the message lists the
    options there are.""")

OPTION_DATE = LintCode("option-date", ("error",), "a selection takes effect before the option existed, or outlives it", """
    An option a jurisdiction permits from a day (`since`) cannot be selected from an earlier one, nor kept
    past the last day it is permitted (`until`): the house's approval could not have been given then.  Date
    the selection from the day its approval took effect.""")

LOAD = LintCode("load", ("error",), "anything else the loader refuses", """
    The passes of the linter found nothing, yet the loader refuses the ruleset (the message is the
    loader's).  Lint never passes a ruleset that a check would then refuse.""")

COVERAGE_MAP = LintCode("coverage-map", ("error",), "rulesets/coverage.yaml is malformed or disagrees with the rulesets", """
    The coverage map lists, for each bundled regulation text, its paragraphs in order and the rules that
    cite each.  It must agree with the bundled rulesets (every citation under its paragraph) and, where the
    regulation texts are at hand, with the texts themselves (docs/coverage.md).""")

#: every code above, by name
CODES = table(
    SCHEMA,
    UNKNOWN_CHECK,
    BAD_PARAMS,
    DUPLICATE_ID,
    MISSING_CITATION,
    UNKNOWN_SOURCE,
    CITATION_NOT_IN_TEXT,
    UNKNOWN_TEXT,
    UNREACHABLE_OVERRIDE,
    OVERRIDE_NO_EFFECT,
    EXTENDS_CYCLE,
    EXTENDS_MISSING,
    UNKNOWN_DEALING_METHOD,
    HOUSE_SETS_REGULATION,
    BUNDLED_ID,
    AMENDMENT_ORDER,
    AMENDMENT_OVERLAP,
    AMENDMENT_CITATION,
    OPTION_NOT_PERMITTED,
    OPTION_DATE,
    LOAD,
    COVERAGE_MAP,
)
