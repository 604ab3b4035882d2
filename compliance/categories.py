"""The finding categories of the transcript spec, in its order, then those the tool adds.

Here are the categories every game shares; a game's own (:attr:`compliance.games.Game.categories`) join
:data:`CATEGORIES` when its game is loaded (:func:`add`), each after the category it names.  Every rule
belongs to one category so that findings compare across jurisdictions; a rule's id is its ruleset's own.

The ``record.`` categories (the recording itself, not the play) and their severities: docs/transcript.md,
"The recording's own faults"; the ``integrity.`` categories (shoes and runs as a whole): docs/integrity.md.
"""

from typing import NamedTuple


class Category(NamedTuple):
    """A game's own category, listed after the category ``after`` (shared, or its game's; None: first)."""

    name: str
    meaning: str
    after: str | None


#: every category known: the shared ones below, and those of each game loaded (in the spec's order)
CATEGORIES: dict[str, str] = {
    "procedure.call-missing": "a required call was missing or came out of order",
    "wager.late": "a wager placed or increased (where the rules say so, withdrawn or reduced) after 'no more bets' "
                  "or the first card",
    "wager.not-eligible": "a wager by a patron, or in a coup, where wagering is not allowed",
    "wager.limits": "a wager below the table minimum or above the maximum",
    "wager.improper-reduction": "wagers were reduced, but not pro rata or not on the side that exceeded",
    "result.wrong": "the announced result does not match the cards",
    "settlement.wrong-amount": "a wager was paid or collected with the wrong amount",
    "settlement.missing": "a wager was never settled, or settled twice",
    "irregularity.mishandled": "an irregularity was not handled as the rules require",
    "shoe.integrity": "the cards do not fit the shoe",
    "transcript.unreadable": "a coup could not be read or replayed",
    "settlement.order": "a wager settled at a moment or in an order the rules do not allow (a House Money wager "
                        "after a third card)",
    "procedure.house-table": "a payout or drawing table a procedure document marks as the house's disagrees with "
                             "the house's submission the document carries",
    "wager.spot-not-in-force": "a wager on a spot the rules in force on the coup's day do not have (an amendment "
                               "not yet in force, or an option the house's submission did not select then)",
    "record.duplicate-coup": "the same coup captured twice: its cards are those of the coup recorded just before it",
    "record.coup-number": "the coups of a shoe are not numbered one after the other: a coup is missing from the record",
    "record.timestamp": "a timestamp that is not ISO 8601, or earlier than the one recorded before it",
    "record.declaration": "a recording's `recorded` leaves out evidence its coups hold (it is judged all the same)",
    "record.evidence-missing": "coups lack evidence the ruleset or the run requires (`--require-evidence`)",
    "record.rejected-row": "a row of a recorder's log that the import could not use (unreadable, or of another table): "
                           "what it held is not judged",
    "record.card-sequence": "a smart shoe's card sequence has a gap: a card row missing, or a sequence number skipped",
    "record.logs-disagree": "two logs of one coup disagree on what happened (the cards, the hands)",
    "record.duplicate-row": "one row of a log recorded twice with different values: neither can be believed",
    "record.contradiction": "what a log says of a coup (its totals, winner or flags) contradicts its own cards",
    "record.staff": "the header's staff stretches contradict each other (two names for one role over the same coups, "
                    "a stretch that ends before it starts): who held the role there is in doubt",
    "record.seat-patron": "a seat's recorded occupant and its wagers disagree on whose wager it was",
    "integrity.unshuffled": "a shoe's cards repeat themselves, run in the manufacturer's order, or repeat an earlier shoe: "
                            "they were not shuffled",
    "integrity.settlement-drift": "a dealer's or table's settlement errors run one way over the run",
    "integrity.collusion": "a dealer's overpayments or late wagers go to one patron far beyond that patron's share",
    "integrity.advantage-play": "a patron's side wagers fall (or grow) where the cards left in the shoe favour the "
                                "patron, far more than chance places them",
    "integrity.hold": "a table's, shift's, dealer's or day's win is further from its theoretical win than honest "
                      "play puts it, toward the house or the patrons",
}

#: the shared categories alone
SHARED: tuple[str, ...] = tuple(CATEGORIES)


def add(categories) -> None:
    """Make a game's own categories known (each :class:`Category` in place); one known already is left."""
    items = list(CATEGORIES.items())
    names = [name for name, _ in items]
    for c in categories:
        if c.name in CATEGORIES:
            if CATEGORIES[c.name] != c.meaning:
                raise ValueError(f"category {c.name!r} declared twice with different meanings")
            continue
        at = 0 if c.after is None else names.index(c.after) + 1
        items.insert(at, (c.name, c.meaning))
        names.insert(at, c.name)
    CATEGORIES.clear()
    CATEGORIES.update(items)


def under(prefix: str, category: str) -> bool:
    """``category`` is ``prefix`` or falls under it: ``third-card`` covers ``third-card.banker.illegal``."""
    return category == prefix or category.startswith(prefix + ".")


def enclosing(category: str) -> list[str]:
    """``category`` and every prefix it falls under, itself first: ``third-card.banker.illegal``,
    ``third-card.banker``, ``third-card``."""
    parts = category.split(".")
    return [".".join(parts[:n]) for n in range(len(parts), 0, -1)]


SEVERITIES = ("error", "warning", "info")
SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}
