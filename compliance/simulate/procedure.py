"""What the ruleset asks of the table, read from its rules by check kind.

The simulator plays by the same rule parameters the checker judges by, but
reads them itself: it never calls a check function to learn what is right.
Rules are found by their check kind (or category), never by jurisdiction.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from compliance.ruleset.models import BoundRule, Ruleset

DEFAULT_CALLS = ("no_more_bets", "cards")


@dataclass(frozen=True)
class Procedure:
    """The ruleset's enabled rules, indexed the way the simulator needs them."""

    ruleset: Ruleset
    by_kind: dict[str, list[BoundRule]] = field(default_factory=dict)
    by_category: dict[str, list[BoundRule]] = field(default_factory=dict)

    @classmethod
    def of(cls, ruleset: Ruleset) -> Procedure:
        by_kind: dict[str, list[BoundRule]] = {}
        by_category: dict[str, list[BoundRule]] = {}
        for rule in ruleset.rules:
            by_kind.setdefault(rule.check, []).append(rule)
            by_category.setdefault(rule.category, []).append(rule)
        return cls(ruleset, by_kind, by_category)

    def params(self, kind: str, method: str | None = None):
        """Parameters of the first rule of ``kind`` that applies to coups dealt by ``method`` (None if none)."""
        for rule in self.by_kind.get(kind, ()):
            if applies(rule, method):
                return rule.params
        return None

    def reports(self, category: str, method: str | None) -> bool:
        """Whether some enabled rule of ``category`` judges a coup dealt by ``method``."""
        return any(applies(r, method) for r in self.by_category.get(category, ()))

    def calls(self, method: str | None) -> tuple[str, ...]:
        """The calls to make before the first card: those a rule requires, in its order.

        A table makes the usual two calls even where no rule requires them.
        """
        p = self.params("procedure.calls", method)
        if p is None:
            return DEFAULT_CALLS
        required = tuple(p.calls)
        return required + tuple(c for c in DEFAULT_CALLS if c not in required)

    def required_calls(self, method: str | None) -> tuple[str, ...]:
        p = self.params("procedure.calls", method)
        return tuple(p.calls) if p is not None else ()


def applies(rule: BoundRule, method: str | None) -> bool:
    return rule.dealing_methods is None or (method is not None and method in rule.dealing_methods)
