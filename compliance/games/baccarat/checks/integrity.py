"""Shoe and table integrity: check kinds judged over whole shoes and runs of shoes (``scope="run"``).

These kinds are not called coup by coup.  The engine replays every coup as
usual; baccarat's integrity stage (:mod:`compliance.games.baccarat.integrity`)
then reads the rules of these kinds in each transcript's ruleset and judges
the shoes, tables, dealers and the run as a whole.  The functions below only
document the kinds (``rules kinds``); their parameter models are validated by
the ruleset loader like any other.  Each declares the evidence it needs: a
coup whose recording lacks it adds nothing to the test (a gap in the shoe's
cards, a coup left out of the counts) and is counted as not judged by it
(the shuffle test also counts the coups whose cards it could not take).
The tests and their false-alarm rates are written up in docs/integrity.md.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, field_validator

from compliance.checks import Params
from compliance.games.baccarat.checks.register import check

Probability = Annotated[float, Field(gt=0, lt=1)]


class Stepped(Params):
    """The parameter every integrity kind shares: how strong evidence must be to fail the run."""

    error_at: Probability = 1e-9
    """A finding whose p-value (or the bound on it) is at or below this is an error, whatever the rule's
    severity: fair play comes this far only about once in a billion tests (measured on fair days: never,
    docs/integrity.md). Above it the finding has the rule's severity."""


class ShuffleParams(Stepped):
    false_alarm: Probability = 1e-6
    """Chance that a fairly shuffled shoe is flagged, per shoe and per test (a bound, not an estimate): the
    repeated or in-order stretch must be long enough that a shuffled shoe holds one this long less often."""
    min_cards: Annotated[int, Field(ge=2, le=832)] = 2
    """No stretch shorter than this is reported, however unlikely (by default the bound alone decides: a shoe is
    flagged as early as the evidence allows). Raise it to pass over short stretches copied by hand."""
    within_shoe: bool = True
    """Look for a stretch of the shoe that repeats an earlier stretch of the same shoe (decks dealt in the same
    order, as at the Golden Nugget)."""
    manufacturer_order: bool = True
    """Look for long runs of a suit in rank order, up or down (a deck as it leaves the factory)."""
    earlier_shoes: Annotated[int, Field(ge=0, le=1000)] = 50
    """Compare each shoe with this many earlier shoes of the same table in the run (a shoe dealt again without
    reshuffling, a stacked slug); 0: do not compare shoes."""


class OutcomeParams(Stepped):
    false_discovery_rate: Probability = 0.0001
    """Benjamini-Hochberg level over every p-value the rule computes in the run: under fair play, the chance of
    any finding at all in a run is about this (measured: docs/integrity.md). Raise it (0.01, 0.05) to look
    harder at a table already suspected, at the cost of more false alarms."""
    groups: list[Literal["shoe", "table", "dealer", "run"]] = ["shoe", "table", "dealer", "run"]
    """What is judged: each shoe, each table's shoes together, each dealer's coups, the whole run."""
    statistics: list[Literal["banker", "player", "tie", "naturals", "streak"]] = [
        "banker", "player", "tie", "naturals", "streak"]
    """The counts of Banker, Player and Tie wins and of naturals (two-sided), and the longest Banker or Player
    streak of a shoe (ties do not break one, as on the big road)."""


class DriftParams(Stepped):
    false_alarm: Probability = 0.001
    """Two-sided sign-test level, per dealer and per table: the chance that errors falling either way alike
    look this one-sided."""
    min_errors: Annotated[int, Field(ge=1)] = 8
    """Fewer wrong settlements than this are not a pattern."""
    groups: list[Literal["table", "dealer"]] = ["table", "dealer"]
    """Judge each table's errors together, and each dealer's (where the record names the dealer)."""


@check("integrity.unshuffled", "integrity.unshuffled", ShuffleParams, needs=("cards",), scope="run")
def unshuffled(coup, params, table):
    """The cards of each shoe, in the order they came out (burns and discards included where recorded),
    look shuffled: no long stretch repeats an earlier stretch of the shoe, none runs a suit in rank order as
    a new deck does, none repeats a stretch of an earlier shoe of the table.  A stretch is reported from the
    coup in which it reaches the length a shuffled shoe holds with a chance below ``false_alarm``.  It needs
    the cards and their order: the dealing order where recorded; where only each hand's cards are (a hand
    log), the order the rules deal a regular coup in (Player, Banker, Player, Banker, then the third cards),
    said so in the finding.  Cards read in part are compared by rank or by value where too many are (the
    bounds for those); a coup whose order is neither recorded nor implied, or none of whose cards is read,
    is not judged."""
    return ()


@check("integrity.outcomes", "integrity.outcomes", OutcomeParams, needs=("hands", "values"), scope="run",
       partly={("cards",): "the outcome of a coup whose cards are recorded in dealing order without their hands "
                           "(cards_in_order), as the tableau deals them; not judged where one was not read (??)"})
def outcomes(coup, params, table):
    """The Banker, Player and Tie counts, the naturals and the longest streak of each shoe, table, dealer and
    of the run are compared with their exact probabilities for the ruleset's tableau and the shoe's decks (the
    enumeration of ``analyze``); Benjamini-Hochberg keeps false alarms over many shoes in check.  A coup found
    dealt against the tableau is counted at the outcome the tableau gives its cards (the cards that came next
    from the shoe standing in for a third card not drawn), as is a coup whose cards are recorded in dealing order
    without their hands; void coups are left out."""
    return ()


@check("integrity.settlement-drift", "integrity.settlement-drift", DriftParams,
       needs=("hands", "values", "stakes", "settlements"), scope="run")
def settlement_drift(coup, params, table):
    """The wrong settlements of each table and dealer (those ``settlement.amount`` reports) fall either way,
    in the patrons' favour or the house's, about alike; a sign test flags errors that run one way, with their
    net amount over the run."""
    return ()


class CollusionParams(Stepped):
    false_discovery_rate: Probability = 0.001
    """Benjamini-Hochberg level over the p-values of every (dealer, patron) pair of the run (two a pair): under
    fair play, the chance of any finding at all in a run is about this."""
    min_events: Annotated[int, Field(ge=1)] = 3
    """Fewer overpayments (late wagers) to one patron at one dealer than this are not a pattern."""


@check("integrity.collusion", "integrity.collusion", CollusionParams,
       needs=("hands", "values", "stakes", "settlements"), scope="run")
def collusion(coup, params, table):
    """No dealer favours one patron: the overpayments (wrong settlements in a patron's favour, those
    ``settlement.amount`` reports) and the late wagers (``wager.late``) at each dealer's coups fall on the
    patrons about in proportion to the wagers each had settled there.  Each (dealer, patron) pair's count is put
    to an exact binomial tail against the patron's share, Benjamini-Hochberg over every pair of the run.  It needs
    who dealt each coup (format 1.1 ``staff``) and who placed each wager (a patron's id, or the patron seated at
    the seat): a coup without its dealer, or with a wager whose patron is not recorded, is not judged."""
    return ()


class AdvantageParams(Params):
    spots: list[str] | None = None
    """The side wagers judged: a list of spot names, or (by default) every spot a table offers that requires a
    wager beside it; each settled by the result of the coup (EZ Baccarat's Dragon 7 and Panda 8, a Dragon Bonus
    paid by margin) or by the first two cards of the hands (pairs: House Money, Perfect Pairs), its edge worked
    out from its own paytable.  A spot named that needs no wager beside it (Perfect Pairs) is a chance at every
    coup its patron is at the table; one that no game of the ruleset declares, or whose conditions read both the
    result and the first cards, is refused."""
    false_discovery_rate: Probability = 0.001
    """Benjamini-Hochberg level over the p-values of every patron of the run (two tests a patron and spot): under
    fair play, the chance of any finding at all in a run is about this."""
    min_wagers: Annotated[int, Field(ge=1)] = 3
    """Fewer side wagers of a patron where the cards favour the patron than this are not a pattern."""
    error_at: Probability | None = None
    """Advantage play is legal: by default a finding keeps the rule's severity however strong the evidence.  A
    house that wants a run to fail on it sets a level here (a finding whose p-value is at or below it is an
    error), or the rule's severity."""

    @field_validator("spots")
    @classmethod
    def _judged(cls, spots, info: ValidationInfo):
        """Every spot named is one the ruleset's games declare, settled by the result alone or by the first two
        cards alone (the two the edge engine works out): a spot it cannot judge is refused, never left out."""
        game = (info.context or {}).get("game")
        if spots is None or game is None:
            return spots
        from compliance.games.baccarat.spots import table_spots

        seen: set[str] = set()
        for variant in game.variants:
            for name, spot in table_spots({k: s for k, s in game.spots_of(variant).items() if k in spots}).items():
                seen.add(name)
                if spot.scopes not in ({"result"}, {"cards"}):
                    raise ValueError(f"spot {name!r} ({variant}) is settled both by the result and by the first "
                                     "cards of the hands: its edge given the cards left is not worked out, so its "
                                     "wagers cannot be judged; leave it out of `spots`")
        unknown = [name for name in spots if name not in seen]
        if unknown:
            raise ValueError(f"no game of the ruleset declares the spot(s) {', '.join(map(repr, unknown))}")
        return spots


@check("integrity.advantage-play", "integrity.advantage-play", AdvantageParams,
       needs=("cards", "values", "stakes"), scope="run",
       partly={("cards", "stakes"): "a coup whose own cards' values are not all known (recorded in dealing order "
                                    "without their hands, or a card not read): its wagers, against the shoe left "
                                    "before it"})
def advantage_play(coup, params, table):
    """A patron's side wagers do not follow the cards left in the shoe: where a side wager (Dragon 7, Panda 8, a
    pair) favours the patron (the patron's edge, given the cards out of the shoe before the coup, is above nought), a
    patron playing blind wagers on it no more often, and no larger, than elsewhere.  For each patron and side
    wager, the wagers placed at the coups that favoured the patron, among the coups the patron could have placed
    one (a wager beside which it is allowed), are put to an exact hypergeometric tail, and the large wagers among
    them likewise; Benjamini-Hochberg over every patron of the run.  It needs who placed each wager and the cards
    of every coup of the shoe before it: a coup whose patron is not recorded, or after a coup of the shoe whose
    cards are not all recorded, is not judged."""
    return ()


class HoldParams(Params):
    confidence: Annotated[float, Field(ge=0.5, lt=1)] = 0.95
    """A group whose win falls outside the band theory gives it at this confidence (two-sided) is listed in the
    reports, toward the house or toward the patrons; at 95%, one honest group in twenty is."""
    false_discovery_rate: Probability = 0.001
    """Benjamini-Hochberg level over the p-values of every group of the run (each table, table and shift, table
    and day, dealer and day): a finding only where a deviation survives it. Under fair play the chance of any
    finding at all in a run is about this."""
    min_coups: Annotated[int, Field(ge=2)] = 200
    """A group of fewer settled coups is shown with its figures but neither listed outside the band nor tested:
    the z-score reads the win as normal, which a handful of coups (a Tie paying 8 to 1) is not."""
    error_at: Probability | None = None
    """A hold off theory is a question for the house, not a breach: by default a finding keeps the rule's
    severity however strong the evidence. Set a level to make a finding whose p-value is at or below it an
    error."""


@check("integrity.hold", "integrity.hold", HoldParams, needs=("stakes", "settlements"), scope="run")
def hold(c, p, t):
    """Each table's, shift's, dealer's and day's win (the house's net from settlements and commission) is where
    the game puts it: its theoretical win is each wager's stake times the exact house edge of its spot under the
    table's rules (a full shoe of the shoe's decks), its spread the exact standard deviation from each spot's
    outcome distribution; the z-score's two-sided p-value lists the groups outside the confidence band, and
    Benjamini-Hochberg over every group of the run keeps the findings to those no honest table explains, toward
    the house or toward the patrons. Shifts and the time zone come from the run's configuration (``shifts``,
    ``time-zone``). A coup without its wagers or their settlement is not judged."""
    return ()
