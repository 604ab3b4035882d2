"""What the ruleset asks of the table, read from its rules by check kind.

The simulator plays by the same rule parameters the checker judges by, but
reads them itself: it never calls a check function to learn what is right.
Rules are found by their check kind (or category), never by jurisdiction.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from compliance.ruleset.models import BoundRule, Ruleset

DEFAULT_CALLS = ("no_more_bets", "cards")


def _memo(fn):
    """Cache a question about the rules by its arguments (the rules do not change during a run)."""

    def ask(self, *args):
        key = (fn.__name__,) + args
        try:
            return self.memo[key]
        except KeyError:
            answer = self.memo[key] = fn(self, *args)
            return answer

    ask.__doc__ = fn.__doc__
    return ask


@dataclass(frozen=True)
class Procedure:
    """The ruleset's enabled rules, indexed the way the simulator needs them."""

    ruleset: Ruleset
    by_kind: dict[str, list[BoundRule]] = field(default_factory=dict)
    by_category: dict[str, list[BoundRule]] = field(default_factory=dict)
    memo: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, ruleset: Ruleset) -> Procedure:
        by_kind: dict[str, list[BoundRule]] = {}
        by_category: dict[str, list[BoundRule]] = {}
        for rule in ruleset.rules:
            by_kind.setdefault(rule.check, []).append(rule)
            by_category.setdefault(rule.category, []).append(rule)
        return cls(ruleset, by_kind, by_category)

    @_memo
    def params(self, kind: str, method: str | None):
        """Parameters of the first rule of ``kind`` that applies to coups dealt by ``method`` (None if none)."""
        for rule in self.by_kind.get(kind, ()):
            if applies(rule, method):
                return rule.params
        return None

    @_memo
    def reports(self, category: str, method: str | None) -> bool:
        """Whether some enabled rule of ``category`` judges a coup dealt by ``method``."""
        return any(applies(r, method) for r in self.by_category.get(category, ()))

    @_memo
    def calls(self, method: str | None) -> tuple[str, ...]:
        """The calls to make before the first card: those a rule requires, in its order.

        A table makes the usual two calls even where no rule requires them.
        """
        p = self.params("procedure.calls", method)
        if p is None:
            return DEFAULT_CALLS
        required = tuple(p.calls)
        return required + tuple(c for c in DEFAULT_CALLS if c not in required)

    @_memo
    def required_calls(self, method: str | None, no_bet: bool = False) -> tuple[str, ...]:
        """The calls a rule requires before the first card (in a no bet coup, only where the rule says so)."""
        p = self.params("procedure.calls", method)
        if p is None or (no_bet and not p.in_no_bet_coup):
            return ()
        return tuple(p.calls)

    @_memo
    def all_params(self, kind: str, method: str | None) -> list:
        """Parameters of every rule of ``kind`` that applies to coups dealt by ``method``."""
        return [r.params for r in self.by_kind.get(kind, ()) if applies(r, method)]

    @_memo
    def handling(self, method: str | None) -> Handling:
        """How the cards may be handled, every handling rule that applies taken together."""
        rules = self.all_params("curator.handling", method)
        calls = [p.instruction_call for p in rules if p.instruction_call]
        allowed = [set(p.allowed_methods) for p in rules if p.allowed_methods is not None]
        return Handling(
            players_handle_cards=all(p.players_handle_cards for p in rules),
            shoe_to_players=all(p.shoe_to_players for p in rules),
            one_hand_at_a_time=any(p.one_hand_at_a_time for p in rules),
            instruction_call=calls[0] if calls else None,
            player_hand_first=any(p.player_hand_first for p in rules),
            allowed_methods=frozenset.intersection(*map(frozenset, allowed)) if allowed else None,
        )

    def standing_may_wager(self) -> bool:
        """Patrons who are not seated may wager unless a rule of who-may-wager says otherwise."""
        return all(r.params.standing for r in self.by_kind.get("wager.not-eligible", ()))

    @_memo
    def offers(self, method: str | None) -> list:
        """The offer rules (shoe, Banker marker) that apply to ``method``."""
        return self.all_params("curator.offer-order", method)

    @_memo
    def recipient(self, method: str | None):
        return self.params("curator.wrong-recipient", method)

    @_memo
    def faces(self, method: str | None) -> dict[str, str]:
        """The face each card is dealt with ("initial", "player_third", "banker_third"): as the face rules
        that apply say (the first that names one), face down where none does."""
        faces = {"initial": "down", "player_third": "down", "banker_third": "down"}
        named = set()
        for p in self.all_params("deal.face-down", method):
            for key in faces:
                want = getattr(p, key)
                if want is not None and key not in named:
                    faces[key] = want
                    named.add(key)
        return faces


@dataclass(frozen=True)
class Handling:
    players_handle_cards: bool
    shoe_to_players: bool
    one_hand_at_a_time: bool
    instruction_call: str | None
    player_hand_first: bool
    allowed_methods: frozenset[str] | None


def applies(rule: BoundRule, method: str | None) -> bool:
    return rule.dealing_methods is None or (method is not None and method in rule.dealing_methods)
