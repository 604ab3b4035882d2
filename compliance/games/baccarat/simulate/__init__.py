"""The simulator: plays shoes exactly as a ruleset prescribes, and breaks them on request.

    sim = Simulator(load_ruleset("au-nsw"), coups=10_000, seed=7, inject={"result.wrong": 0.01})
    write_transcript(sim, out, "jsonl")  # out: a file opened "wb"
    sim.injected  # [Injection(coup, category, what), ...]

:class:`Simulator` plays the coups, a night at a named table if asked (dealers relieving each other every
:data:`ROTATION` coups, coup times from ``start``); :func:`parse_inject` reads ``--inject
CATEGORY[:WAY][@RATE]``: a breach in a coup, or a shoe or run spoiled for the integrity stage (listed in
``sim.integrity``).  :func:`write_transcript` writes it; the same arguments give the same bytes.

Why it decides for itself what the rules require (it never calls a check): docs/simulator.md.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import BinaryIO

from compliance.cards import DECK
from compliance.categories import under
from compliance.errors import UserError
from compliance.games.baccarat.edges import removal_count, returns
from compliance.games.baccarat.simulate.curator import Holders
from compliance.games.baccarat.simulate.habits import HABITS, REPORTED, Habit
from compliance.games.baccarat.simulate.habits import WORDS as HABIT_WORDS
from compliance.games.baccarat.simulate.irregular import irregularities as irregular_kinds
from compliance.games.baccarat.simulate.play import CoupPlay, Game, Injection
from compliance.games.baccarat.simulate.procedure import Procedure
from compliance.games.baccarat.simulate.shoe import FACTORY_ORDER, Shoe
from compliance.games.baccarat.simulate.table import Patrons, TableSetup
from compliance.games.baccarat.spots import hand_facts
from compliance.games.common import encode
from compliance.ruleset.models import Ruleset

__all__ = ["INJECTABLE", "ROTATION", "RUN_WAYS", "Injection", "RunInjection", "Simulator", "injectable",
           "parse_inject", "parse_start", "write_transcript"]

#: categories the simulator can break a coup with (``--inject``)
INJECTABLE = (
    "deal.initial-order", "deal.extra-card",
    "third-card.player.illegal", "third-card.player.missing", "third-card.banker.illegal", "third-card.banker.missing",
    "curator.offer-order", "curator.not-eligible", "curator.wrong-recipient", "curator.handling",
    "procedure.call-missing", "wager.late", "wager.not-eligible", "wager.limits", "wager.table-differential",
    "wager.improper-reduction", "irregularity.mishandled",
    "result.wrong", "settlement.wrong-amount", "settlement.missing", "shoe.integrity", "transcript.unreadable",
)
DEFAULT_RATE = 0.01
#: what the simulator can spoil in a whole shoe or run (``--inject CATEGORY[:WAY][@RATE]``), each category's
#: ways, the first its default
RUN_WAYS: dict[str, tuple[str, ...]] = {
    "integrity.unshuffled": ("decks-alike", "factory-order", "repeated-shoe"),
    "integrity.outcomes": ("banker", "player"),
    "integrity.settlement-drift": ("patrons", "house"),
    "integrity.collusion": ("patron", "push-paid"),
    "integrity.advantage-play": ("counter", "wonging"),
    "innocent": (*HABITS, "back-bettor", "redundant-staff"),
    "record.staff": ("contradictory",),
}
#: the run ways whose RATE is not the default's when not given (a staff log's: the log is written so, or not)
RUN_RATES = {f"innocent:{way}": rate for way, rate in HABITS.items()} | {
    "innocent:back-bettor": 0.3, "innocent:redundant-staff": 1.0, "record.staff:contradictory": 1.0,
    "integrity.advantage-play:wonging": 1.0}
WAY_WORDS = {
    "decks-alike": "every deck put in the shoe in the same order, unshuffled (as at the Golden Nugget)",
    "factory-order": "the decks put in the shoe in the maker's order, unshuffled",
    "repeated-shoe": "the previous shoe's cards put back in the same order, unshuffled",
    "banker": "a preset shoe: every coup stacked for the Banker",
    "player": "a preset shoe: every coup stacked for the Player",
    "patrons": "wrong settlements all in the patrons' favour (commission not deducted, or paid a unit over)",
    "house": "wrong settlements all in the house's favour (a winning wager paid half its winnings: short payouts)",
    "patron": "one dealer overpays one patron (commission not deducted, or a unit over) on that share of the "
              "patron's winning wagers at the dealer's coups",
    "counter": "one patron, seated all night, wagers on the Player or Banker every coup and places a side wager "
               "(Dragon 7, Panda 8) only where the count of the cards out of the shoe says it favours the patron, "
               "at that share of such coups",
    "push-paid": "one dealer pays one patron the stake on that share of the patron's wagers that pushed at the "
                 "dealer's coups (EZ Baccarat's Banker on a three-card 7, a Tie's Player and Banker wagers), "
                 "recorded as a push",
    "back-bettor": "an innocent patron, standing, who wagers behind a seated patron's seat (the wager names both) "
                   "on the spot that patron backed, at that share of the coups",
    "redundant-staff": "an innocent staff log: each dealer's stretch, and its first coup again as a stretch of its own",
    "contradictory": "a staff log that contradicts itself: a stretch told again ending before it starts, and a dealer "
                     "told from two coups before the stretch before theirs ends",
} | HABIT_WORDS


@dataclass(frozen=True)
class RunInjection:
    """A shoe (or the run) spoilt on purpose: the integrity finding must fall in coups ``first`` to ``last``."""

    category: str
    way: str
    shoe: str | None  # None: the run
    first: int
    last: int
    dealer: str | None = None  # collusion: the dealer, the patron favoured, and the coups overpaid
    patron: str | None = None
    overpaid: tuple[int, ...] = ()
    # advantage play: the coups of the patron's side wagers (spot and the dealer of each, where the run names them)
    wagered: tuple[tuple[int, str, str | None], ...] = ()
    backed: tuple[int, ...] = ()  # a back-bettor: the coups they wagered behind a seat

    def as_dict(self) -> dict:
        out = {"category": self.category, "way": self.way, "shoe": self.shoe, "coups": [self.first, self.last],
               "what": WAY_WORDS[self.way]}
        if self.dealer is not None:
            out |= {"dealer": self.dealer, "patron": self.patron, "overpaid": list(self.overpaid)}
        if self.category == "innocent" and self.patron is not None:
            out["patron"] = self.patron
            if self.way == "back-bettor":
                out["backed"] = list(self.backed)
        if self.wagered:
            out |= {"patron": self.patron, "wagered": [
                {"coup": n, "spot": spot} | ({"dealer": dealer} if dealer is not None else {})
                for n, spot, dealer in self.wagered]}
        return out


def injectable(procedure: Procedure, method: str | None, irregularities: bool = False, game: Game | None = None) -> list[str]:
    """The categories the simulator can break a coup with, under these rules and dealing method, such that
    a rule of the ruleset would see it: a rule of the category must apply, and for some categories the
    rule's parameters must forbid something the simulator knows how to do wrong.  ``irregularities``:
    the run also makes irregularities (some breaches need the no bet coups they lead to)."""
    if game is None:  # the rules alone: the spots of the ruleset's first game
        rs = procedure.ruleset
        game = Game(None, procedure, rs.game.spots_for(next(iter(rs.game.variants))), rs.game.tableau)
    return [c for c in INJECTABLE if procedure.reports(c, method) and _has_a_way(procedure, c, method, irregularities, game)]


def _has_a_way(proc: Procedure, category: str, method: str | None, irregularities: bool, game) -> bool:
    if category == "wager.not-eligible":  # a standing patron wagers, or a wager in a no bet coup
        rules = proc.all_params("wager.not-eligible", method)
        erroneous = proc.params("irregularity.erroneous-card", method)
        no_bet_method = erroneous.no_bet_method or method if erroneous is not None else None
        no_bet_coups = (irregularities and erroneous is not None and erroneous.when_disclosed == "no_bet_coup"
                        and not all(p.no_bet_coup for p in proc.all_params("wager.not-eligible", no_bet_method)))
        return not all(p.standing for p in rules) or no_bet_coups
    if category == "curator.not-eligible":  # the marker's holder without its wager, or a curator keeping a lost shoe
        return any(p.marker_holder_wagers_on or p.shoe_lost_when_wager_loses
                   for p in proc.all_params("curator.not-eligible", method))
    if category == "curator.handling":
        h = proc.handling(method)
        shoe_offered = any(p.item == "shoe" for p in proc.offers(method))
        recipient = proc.recipient(method) is not None
        return ((not h.players_handle_cards and not recipient)
                or h.allowed_methods is not None
                or (h.player_hand_first and h.players_handle_cards and recipient)
                or (h.one_hand_at_a_time and h.players_handle_cards and recipient)
                or (h.instruction_call is not None and h.instruction_call not in proc.required_calls(method)
                    and shoe_offered)
                or (not h.shoe_to_players and not shoe_offered))
    if category == "curator.wrong-recipient":
        return proc.handling(method).players_handle_cards
    if category == "curator.offer-order":
        return bool(proc.offers(method))
    if category == "procedure.call-missing":
        return bool(proc.required_calls(method))
    if category == "wager.limits":  # a wager on the minor spot (the tie) under the minimum
        return game.limited(game.minor_spot, method)
    if category == "wager.improper-reduction":  # a cut for the differential within it: the reduction rule's to see
        return proc.params("wager.improper-reduction", method) is not None
    if category == "irregularity.mishandled":  # an erroneous Player third card put in the wrong place
        return proc.params("irregularity.erroneous-card", method) is not None
    return True
CUT_CARD_FROM_END = 16
ROTATION = 40  # coups a dealer deals before the next relieves them (about half an hour)


def dealer_name(i: int) -> str:
    """The simulator's i-th dealer (0-based): D-01, D-02 ..."""
    return f"D-{i + 1:02d}"


def timestamp(when: dt.datetime) -> str:
    """An ISO 8601 timestamp to the second, UTC written ``Z``, another offset kept, none where none was given."""
    text = when.isoformat(timespec="seconds")
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def parse_start(text: str) -> dt.datetime:
    """``--start``: an ISO 8601 date and time (2026-11-01T20:00:00Z)."""
    try:
        return dt.datetime.fromisoformat(text)
    except ValueError:
        raise UserError(f"--start {text!r} is not an ISO 8601 date and time (2026-11-01T20:00:00Z)") from None


def parse_during(text: str) -> tuple[int, int]:
    """``--inject-during``: ``HH:MM-HH:MM`` -> (from, to) in minutes after midnight (to before from: past midnight)."""
    import re

    m = re.fullmatch(r"([01][0-9]|2[0-3]):([0-5][0-9])-([01][0-9]|2[0-3]):([0-5][0-9])", text.strip())
    if m is None or m.group(1, 2) == m.group(3, 4):
        raise UserError(f"--inject-during {text!r}: give the hours as HH:MM-HH:MM (14:00-22:00), two different times")
    h1, m1, h2, m2 = map(int, m.groups())
    return h1 * 60 + m1, h2 * 60 + m2


def parse_inject(spec: str) -> tuple[str, float]:
    """``KIND[@RATE]`` -> (kind, rate): a breach of KIND in about RATE of the coups (default 1%); for a shoe or run
    category ``CATEGORY[:WAY]``, RATE is the share of shoes spoilt (of coups, for the drift)."""
    kind, _, rate = spec.partition("@")
    category, _, way = kind.partition(":")
    if category in RUN_WAYS:
        if way and way not in RUN_WAYS[category]:
            raise UserError(f"--inject {kind!r}: {category} can be made as: {', '.join(RUN_WAYS[category])}")
        kind = f"{category}:{way or RUN_WAYS[category][0]}"
    elif kind not in INJECTABLE and not _under(kind):
        ways = [f"{c}[:{'|'.join(w)}]" for c, w in RUN_WAYS.items()]
        raise UserError(f"--inject {kind!r}: the simulator can inject: {', '.join(INJECTABLE + tuple(ways))}, or a "
                        "prefix of them (third-card: each category under it)")
    try:
        value = float(rate) if rate else RUN_RATES.get(kind, DEFAULT_RATE)
    except ValueError:
        raise UserError(f"--inject {spec!r}: RATE must be a number between 0 and 1") from None
    if not 0 < value <= 1:
        raise UserError(f"--inject {spec!r}: RATE must be more than 0 and at most 1")
    return kind, value


def _under(prefix: str) -> list[str]:
    """The categories the simulator knows (of a coup, then of a shoe or run) that ``prefix`` names, as
    ``--select`` names them: ``third-card`` is each ``third-card.*`` category."""
    return [c for c in INJECTABLE + tuple(RUN_WAYS) if under(prefix, c)]


def _reported_by(category: str, way: str | None = None) -> tuple[str, ...]:
    """The categories whose rules must report a shoe or run spoilt so (``way``: the category's first)."""
    way = way or RUN_WAYS[category][0]
    if category == "innocent":  # what the innocent makes that a per-coup rule reports, nothing else
        return REPORTED.get(way, ())
    return (category, "settlement.wrong-amount") if way in ("patrons", "patron", "house", "push-paid") else (category,)


def _counts(game: Game, decks: int) -> dict:
    """The side wagers a counter plays (those that require a wager beside them and are settled by the result),
    each with its effect-of-removal count: what the advantage-play rule judges them by."""
    out = {}
    for name, spot in game.spots.items():
        back = returns(spot, game.naturals) if spot.requires is not None else None
        if back is not None:
            out[name] = removal_count(game.tableau, back, decks)
    return out


class Simulator:
    """Plays ``coups`` coups at one table under ``ruleset``."""

    def __init__(self, ruleset: Ruleset, *, coups: int, seed: int = 0, decks: int = 8, game: str = "punto_banco",
                 seats: int = 7, dealing_method: str | None = None, commission: Decimal | None = None,
                 inject: dict[str, float] | None = None, irregularities: float = 0.0, table_id: str = "SIM-01",
                 dealers: int = 0, rotation: int = ROTATION, start: dt.datetime | None = None,
                 currency: str | None = None, stay: float | None = None,
                 during: tuple[int, int] | None = None):
        if ruleset.game is None:
            raise UserError(f"ruleset {ruleset.id!r} is not baccarat ({getattr(ruleset, 'game_kind', '?')}): "
                            "the simulator plays baccarat")
        if game not in ruleset.game.variants:
            raise UserError(f"ruleset {ruleset.id!r} has no game {game!r} (it has: {', '.join(ruleset.game.variants)})")
        methods = ruleset.dealing_methods
        if dealing_method is None and methods:
            dealing_method = next(iter(methods))
        if dealing_method is not None and methods is not None and dealing_method not in methods:
            raise UserError(f"ruleset {ruleset.id!r} has no dealing method {dealing_method!r} "
                            f"(it has: {', '.join(methods)})")
        if not 1 <= decks <= 16:
            raise UserError("--decks must be between 1 and 16")
        if not table_id.strip():
            raise UserError("--table-id must name the table")
        if dealers < 0 or rotation < 1:
            raise UserError("--dealers must be 0 or more and --rotation at least 1")
        if stay is not None and stay < 1:
            raise UserError("--stay must be at least 1 coup")
        self.dealers = dealers
        self.rotation = rotation
        self.start = start
        if during is not None and start is None:
            raise UserError("--inject-during needs --start: the coups have no time of day without it")
        self.during = during  # (from, to) minutes after midnight, at --start's offset: where injections are made
        self.ruleset = ruleset
        self.coup_count = coups
        self.seed = seed
        self.procedure = Procedure.of(ruleset)
        self.inject = {}
        self.run_inject: dict[tuple[str, str], float] = {}  # (category, way) -> share of shoes (coups: the drift)
        prefixes: dict[str, float] = {}  # a prefix names each category under it the table can break (below)
        for kind, rate in (inject or {}).items():
            category, _, way = kind.partition(":")
            if category in RUN_WAYS:
                self.run_inject[(category, way or RUN_WAYS[category][0])] = rate
            elif kind not in INJECTABLE and _under(kind):
                prefixes[kind] = rate
            else:
                self.inject[kind] = rate
        for category, way in self.run_inject:
            if way not in RUN_WAYS[category]:
                raise UserError(f"the simulator cannot make {category} as {way!r} ({', '.join(RUN_WAYS[category])})")
            for needed in _reported_by(category, way):
                if not self.procedure.reports(needed, dealing_method):
                    raise UserError(f"ruleset {ruleset.id!r} has no enabled rule of category {needed!r}: nothing "
                                    f"would report {category}")
        # collusion is between a dealer and a patron: the dealers are named (four, unless --dealers says)
        collusion = [way for category, way in self.run_inject if category == "integrity.collusion"]
        if len(collusion) > 1:
            raise UserError("integrity.collusion: one way a run (patron or push-paid)")
        self.collusion_way = collusion[0] if collusion else None
        self.colluding = self.collusion_way is not None
        self.counting = ("integrity.advantage-play", "counter") in self.run_inject
        self.wonging = ("integrity.advantage-play", "wonging") in self.run_inject
        if self.counting and self.wonging:
            raise UserError("integrity.advantage-play: one counter a table (counter or wonging)")
        staff_log = "contradictory" if ("record.staff", "contradictory") in self.run_inject else \
            "redundant" if ("innocent", "redundant-staff") in self.run_inject else "plain"
        if (self.colluding or self.counting or self.wonging or staff_log != "plain") and not dealers:
            dealers = self.dealers = 4
        self.rng = random.Random(seed)
        self.schedule = random.Random(f"inject:{seed}")
        self.table = TableSetup.choose(self.rng, jurisdiction=ruleset.id, game=game, seats=seats, decks=decks,
                                       dealing_method=dealing_method, commission=commission, table_id=table_id)
        if currency is not None:
            if not re.fullmatch(r"[A-Z]{3}", currency):
                raise UserError(f"--currency {currency!r}: give an ISO 4217 code of three letters (USD, EUR, AUD)")
            self.table = dataclasses.replace(self.table, currency=currency)
        if dealers:
            self.table = dataclasses.replace(self.table, staff=tuple(
                (first, min(first + rotation - 1, coups), self.dealer_of(first))
                for first in range(1, coups + 1, rotation)), staff_log=staff_log)
        self.game = Game(self.table, self.procedure, ruleset.game.spots_for(game, commission), ruleset.game.tableau)
        self.table = self.game.table = self.table.with_version(self.game)
        possible = injectable(self.procedure, dealing_method, irregularities > 0, self.game)
        for prefix, rate in prefixes.items():
            named = [c for c in _under(prefix) if c in possible or (c in RUN_WAYS and all(
                self.procedure.reports(needed, dealing_method) for needed in _reported_by(c)))]
            if not named:
                raise UserError(f"--inject {prefix}: ruleset {ruleset.id!r} (dealing method "
                                f"{dealing_method or '(none)'}) has no category under it the simulator can break; "
                                f"it can inject here: {', '.join(possible)}")
            for c in named:  # a category given on its own keeps its own rate
                if c in RUN_WAYS:
                    self.run_inject.setdefault((c, RUN_WAYS[c][0]), rate)
                else:
                    self.inject.setdefault(c, rate)
        for category in self.inject:
            if category not in INJECTABLE:
                raise UserError(f"the simulator cannot inject {category!r}")
            if not self.procedure.reports(category, dealing_method):
                raise UserError(f"ruleset {ruleset.id!r} has no enabled rule of category {category!r} for "
                                f"dealing method {dealing_method or '(none)'}: nothing would report that breach")
            if category not in possible:
                raise UserError(f"the rules of category {category!r} in ruleset {ruleset.id!r} (dealing method "
                                f"{dealing_method or '(none)'}) forbid nothing the simulator knows how to break; "
                                f"it can inject here: {', '.join(possible)}")
        self.patrons = Patrons(self.rng, self.table.seat_order, standing_allowed=self.procedure.standing_may_wager(),
                               leave=0.03 if stay is None else 1 / stay)
        self.holders = Holders()
        self.shoes: list[str] = []
        self.injected: list[Injection] = []
        self.pending: list[str] = []
        self.irregular_rate = irregularities
        self.irregular_kinds = irregular_kinds(self.procedure, dealing_method)
        if irregularities and not self.irregular_kinds:
            raise UserError(f"ruleset {ruleset.id!r} has no irregularity rule the simulator can follow")
        self.irregular_pending: list[str] = []
        self.handled: list[Injection] = []  # irregularities handled as required: info findings
        self.integrity: list[RunInjection] = []  # shoes and runs spoilt on purpose
        self.drift_way = next((way for c, way in self.run_inject if c == "integrity.settlement-drift"), None)
        self.drifting = self.drift_way is not None
        self.drift_first: int | None = None
        # collusion: the dealer who favours the patron seated at the first seat all night, and the coups overpaid
        if self.colluding and self.dealers < 2:
            raise UserError("integrity.collusion needs at least two dealers: one to favour a patron, one not to")
        self.colluder = dealer_name(self.schedule.randrange(self.dealers)) if self.colluding else None
        self.accomplice_seat = self.table.seat_order[0] if self.colluding else None
        self.overpaid: list[int] = []
        if self.colluding and self.accomplice_seat not in self.patrons.seated:
            self.patrons.seated[self.accomplice_seat] = self.patrons._new()
        self.accomplice = self.patrons.seated.get(self.accomplice_seat)
        # advantage play: the patron seated all night (at the next seat, where a colluding patron has the first) who
        # places side wagers by the count, and the coups of those wagers
        self.counter_seat = None
        self.counter_play = None
        self.wagered: list[tuple[int, str, str | None]] = []
        if self.counting or self.wonging:
            counts = _counts(self.game, self.table.decks)
            if not counts:
                raise UserError(f"integrity.advantage-play: game {game!r} of ruleset {ruleset.id!r} offers no side "
                                "wager settled by the result of the coup (Dragon 7, Panda 8) to play by the count")
            seats = [s for s in self.table.seat_order if s != self.accomplice_seat]
            if not seats:
                raise UserError("integrity.advantage-play needs a seat of its own: give the table more --seats")
            self.counter_seat = seats[0]
            if self.counter_seat not in self.patrons.seated:
                self.patrons.seated[self.counter_seat] = self.patrons._new()
            if self.counting:
                self.counter_play = (self.counter_seat, self.run_inject[("integrity.advantage-play", "counter")],
                                     self.schedule, counts)
        self.counter = self.patrons.seated.get(self.counter_seat) if self.counter_seat is not None else None
        # the patrons with a habit (habits.py), each seated all night at a seat of their own
        self.habits: dict[int, Habit] = {}
        ways = [("wonging", self.run_inject[("integrity.advantage-play", "wonging")])] if self.wonging else []
        ways += [(way, rate) for (category, way), rate in self.run_inject.items()
                 if category == "innocent" and way in HABITS]
        for way, rate in ways:
            taken = {self.accomplice_seat} | set(self.habits) | ({self.counter_seat} if way != "wonging" else set())
            seat = self.counter_seat if way == "wonging" else next(
                (s for s in self.table.seat_order if s not in taken), None)
            if seat is None:
                raise UserError(f"innocent:{way} needs a seat of its own: give the table more --seats")
            # the same name every night: a run of nights judges the same patron
            self.patrons.seated[seat] = f"P-{way.upper()}"
            if way == "wonging":
                self.counter = self.patrons.seated[seat]
            self.habits[seat] = Habit(way, seat, self.patrons.seated[seat], rate, random.Random(f"habit:{seed}:{way}"),
                                      counts=counts if way == "wonging" else None)
        # a back-bettor: a standing patron wagering behind a seated patron's seat (its own random source)
        self.behind = None
        if ("innocent", "back-bettor") in self.run_inject:
            if not self.procedure.standing_may_wager():
                raise UserError(f"innocent:back-bettor: ruleset {ruleset.id!r} lets no patron wager standing, so "
                                "a back-bettor's wagers would be breaches")
            self.behind = ("P-BACK-BETTOR", self.run_inject[("innocent", "back-bettor")],
                           random.Random(f"behind:{seed}"))
        self.backed: list[int] = []

    def _habits_after(self, play: CoupPlay, number: int) -> None:
        """What the habits made in the coup (listed as injected: the per-coup rules report it), and the coups since
        the first side wager last won (the Dragon 'due')."""
        side = next((s for s in self.game.side_spots if self.game.spots[s].requires is not None), None)
        won = None
        for habit in self.habits.values():
            for coup, category, what in habit.made:
                self.injected.append(Injection(coup, category, what))
            habit.made.clear()
            if habit.way == "dragon-due" and side is not None:
                if won is None:
                    facts = hand_facts(play.player, play.banker, self.game.naturals)
                    won = self.game.spots[side].outcome(facts)[0] == "win"
                habit.since = 0 if won else habit.since + 1

    def dealer_of(self, coup: int) -> str | None:
        """Who deals coup ``coup`` (None: the run names no dealers)."""
        return dealer_name((coup - 1) // self.rotation % self.dealers) if self.dealers else None

    def coups(self) -> Iterator[dict]:
        """The coups, in order, as transcript objects (plain dicts, amounts as Decimal)."""
        clock = _Clock(self.start, self.seed, self.rotation) if self.start is not None else None
        shoe: Shoe | None = None
        carry = None
        spoilt: tuple[str, str, int] | None = None  # (category, way, first coup) of the shoe in play
        for number in range(1, self.coup_count + 1):
            opening = False
            if shoe is None or shoe.cut_card_out:
                if spoilt is not None:
                    self.integrity.append(RunInjection(spoilt[0], spoilt[1], shoe.id, spoilt[2], number - 1))
                order, spoilt = self._spoil(shoe, number)
                previous = shoe
                shoe = Shoe(f"S{len(self.shoes) + 1:04d}", self.table.decks, self.rng, CUT_CARD_FROM_END, order)
                if spoilt is not None and spoilt[0] == "integrity.outcomes":
                    shoe.preset = spoilt[1]
                del previous
                self.shoes.append(shoe.id)
                opening = True
            at = None
            if self.during is not None:  # injections only in the coups dealt within the hours given
                at = clock.next(number, opening)
                minute = clock.when.hour * 60 + clock.when.minute
                start_, end_ = self.during
                now = start_ <= minute < end_ if start_ < end_ else minute >= start_ or minute < end_
            else:
                now = True
            for category, rate in self.inject.items():
                if self.schedule.random() < rate and now:
                    self.pending.append(category)
            if self.drifting and self.schedule.random() < self.run_inject[("integrity.settlement-drift",
                                                                           self.drift_way)] and now:
                self.pending.append("integrity.settlement-drift")
            if self.irregular_rate and self.schedule.random() < self.irregular_rate:
                self.irregular_pending.append(self.schedule.choice(self.irregular_kinds))
            if opening:
                self.holders.offered = set()
                carry = None
            seated, standing = self.patrons.next_coup(keep={self.holders.shoe, self.holders.marker,
                                                            self.accomplice_seat, self.counter_seat, *self.habits})
            irregular = self.irregular_pending[0] if self.irregular_pending and carry is None else None
            breaches = self.pending if irregular is None and now else []
            if shoe.preset is not None and carry is None and irregular is None:
                shoe.stack(shoe.burn_length() if opening else 0, self.game.tableau, self.rng)
            play = CoupPlay(self.game, self.rng, number, shoe, seated, standing, breaches, opening, self.holders,
                            irregular=irregular, carry_in=carry)
            if self.colluder is not None and self.dealer_of(number) == self.colluder and not breaches:
                play.favoured = (self.accomplice_seat, self.run_inject[("integrity.collusion", self.collusion_way)],
                                 self.schedule, self.collusion_way)
            play.behind = self.behind
            play.counting = self.counter_play
            play.habits = self.habits
            play.drift_way = self.drift_way
            coup = play.play()
            if self.habits:
                self._habits_after(play, number)
            if self.behind is not None and any(isinstance(b, str) and b.startswith("behind:") for b, _ in play.stakes):
                self.backed.append(number)
            for spot in play.counted:
                self.wagered.append((number, spot, self.dealer_of(number)))
            if clock is not None and coup["events"]:
                coup["events"][0]["at"] = at if at is not None else clock.next(number, opening)
            if play.colluded is not None:
                self.overpaid.append(number)
                self.injected.append(Injection(number, "settlement.wrong-amount", play.colluded))
            carry = play.carry_out
            if play.applied is not None:
                self.pending.remove(play.applied.category)
                if play.applied.category == "integrity.settlement-drift":  # reported coup by coup as a wrong amount
                    play.applied = Injection(number, "settlement.wrong-amount", play.applied.what)
                    self.drift_first = self.drift_first or number
                self.injected.append(play.applied)
            if play.handled is not None:
                self.handled.append(play.handled)
                self.irregular_pending.pop(0)
            if play.unreadable:
                for code in _recorded_cards(coup):  # the checker will not count this coup's cards
                    shoe.dealt[code] -= 1
            yield coup
        if spoilt is not None:
            self.integrity.append(RunInjection(spoilt[0], spoilt[1], shoe.id, spoilt[2], self.coup_count))
        if self.drift_first is not None:
            self.integrity.append(RunInjection("integrity.settlement-drift", self.drift_way, None, self.drift_first,
                                               self.coup_count))
        if self.overpaid:
            self.integrity.append(RunInjection("integrity.collusion", self.collusion_way, None, self.overpaid[0],
                                               self.coup_count, self.colluder, self.accomplice, tuple(self.overpaid)))
        for habit in self.habits.values():
            if habit.way != "wonging":
                self.integrity.append(RunInjection("innocent", habit.way, None, 1, self.coup_count,
                                                   patron=habit.patron))
        if self.behind is not None:
            self.integrity.append(RunInjection("innocent", "back-bettor", None, 1, self.coup_count,
                                               patron=self.behind[0], backed=tuple(self.backed)))
        if self.table.staff_log == "redundant":
            self.integrity.append(RunInjection("innocent", "redundant-staff", None, 1, self.coup_count))
        for first, last in self.table.contradicted():
            self.integrity.append(RunInjection("record.staff", "contradictory", None, first, last))
        if self.wagered:
            self.integrity.append(RunInjection("integrity.advantage-play", "wonging" if self.wonging else "counter",
                                               None, self.wagered[0][0],
                                               self.coup_count, patron=self.counter, wagered=tuple(self.wagered)))

    def _spoil(self, previous: Shoe | None, number: int) -> tuple[list[str] | None, tuple[str, str, int] | None]:
        """How the next shoe goes into the table (its cards' order, None: shuffled), and how it was spoilt."""
        for (category, way), rate in self.run_inject.items():
            if category in ("integrity.settlement-drift", "integrity.collusion", "integrity.advantage-play",
                            "innocent", "record.staff") or self.schedule.random() >= rate:
                continue
            if way == "decks-alike":
                deck = list(DECK)
                self.rng.shuffle(deck)
                return deck * self.table.decks, (category, way, number)
            if way == "factory-order":
                return list(FACTORY_ORDER) * self.table.decks, (category, way, number)
            if way == "repeated-shoe":
                if previous is None:
                    continue  # no shoe before it to repeat
                return list(previous.cards), (category, way, number)
            return None, (category, way, number)  # a preset shoe: shuffled, then stacked coup by coup
        return None, None

    def header(self) -> dict:
        """The transcript header; complete once :meth:`coups` has run (it lists the shoes used)."""
        return self.table.header(self.shoes)

    def injected_report(self) -> dict:
        return {
            "ruleset": self.ruleset.id, "seed": self.seed, "coups": self.coup_count, "table": self.table.id,
            "injected": [self._who(i.as_dict()) for i in self.injected],
            "not_injected": sorted(self.pending),
            "handled": [self._who(dict(i.as_dict(), severity="info")) for i in self.handled],
        } | ({"integrity": [i.as_dict() for i in self.integrity]} if self.integrity else {})

    def _who(self, entry: dict) -> dict:
        """An entry of the list of what was made, with the dealer of its coup where the run names dealers."""
        dealer = self.dealer_of(entry["coup"])
        return entry if dealer is None else entry | {"dealer": dealer}


class _Clock:
    """The time of each coup of a night from its start: 45 to 75 seconds a coup, a minute more where a dealer
    relieves another, five to seven minutes more for a new shoe's shuffle (its own random stream: the times
    never change the cards)."""

    def __init__(self, start: dt.datetime, seed: int, rotation: int):
        self.when = start
        self.rng = random.Random(f"time:{seed}")
        self.rotation = rotation
        self.first = True

    def next(self, number: int, new_shoe: bool) -> str:
        if not self.first:
            pause = 45 + self.rng.randrange(31)
            if new_shoe:
                pause += 300 + self.rng.randrange(121)
            if (number - 1) % self.rotation == 0:
                pause += 60
            self.when += dt.timedelta(seconds=pause)
        self.first = False
        return timestamp(self.when)


def _recorded_cards(coup: dict) -> list[str]:
    return [ev["card"] for ev in coup["events"] if ev["type"] == "card"]


def write_transcript(sim: Simulator, out: BinaryIO, fmt: str = "json", on_coup=None) -> None:
    """Write the whole transcript: ``json`` (one document, one coup a line) or ``jsonl``.

    Coups are spooled to a temporary file while they are played, so the header,
    which lists the shoes used, can come first; memory stays constant.
    ``on_coup(n)``, if given, is told the coups played so far (a progress display).
    """
    with tempfile.TemporaryFile() as spool:
        first = True
        for n, coup in enumerate(sim.coups(), 1):
            if on_coup is not None:
                on_coup(n)
            if fmt == "json" and not first:
                spool.write(b",\n")
            spool.write(encode(coup))
            if fmt == "jsonl":
                spool.write(b"\n")
            first = False
        header = encode(sim.header())
        if fmt == "jsonl":
            out.write(header + b"\n")
        else:
            out.write(header[:-1] + b',"coups":[\n')
        spool.seek(0)
        shutil.copyfileobj(spool, out)
        if fmt == "json":
            out.write(b"\n]}\n" if not first else b"]}\n")
