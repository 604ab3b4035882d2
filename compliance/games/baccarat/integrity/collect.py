"""What the integrity stage keeps of each replayed coup: a few bytes, gathered shoe by shoe.

The engine hands every replayed coup (and the per-coup findings on it) to a :class:`Collector`, which
keeps, shoe by shoe, the cards in the order they left the shoe (a byte a card), where each coup's cards
end, its number and place, its outcome letter, its wrong settlements, who ran the table and its first
time: about 25 bytes a coup.  Nothing here re-reads an event.  An :class:`IntegrityData` is one
transcript's, or one chunk's (:meth:`IntegrityData.extend` joins them, a shoe cut between two chunks
joined again).

What a coup recorded in part adds (a gap, the order the rules deal, a card read in part, a coup captured
twice) and why the bounds still hold: docs/integrity.md, "How it runs".
"""

from __future__ import annotations

import bisect
import datetime as dt
from array import array
from collections import Counter
from decimal import Decimal

from compliance.cards import DECK, PARTIAL_POINTS, POINTS, RANKS
from compliance.evidence import V1
from compliance.games.baccarat.checks.settlement import wrong_settlements
from compliance.games.baccarat.edges import pair_returns, returns
from compliance.games.baccarat.integrity.hold import HOLD, HoldData, spot_returns
from compliance.games.integrity import Slotted, Timeline
from compliance.printable import bounded_name

#: card code -> its byte: suits in DECK's order (S, H, D, C), ranks A..K within a suit, so that two cards are
#: neighbours in a new deck's order when they are of one suit and their bytes differ by one; a card read in part
#: after them: its rank only (``A?`` .. ``K?``: 52 + the rank's place in A..K), its value only (``0?``: 65).  A
#: card not read (``??``) has none: it is left out of the shoe's sequence
CARD_BYTE = {code: i for i, code in enumerate(DECK)} | {rank + "?": 52 + i for i, rank in enumerate(RANKS)} | {
    "0?": 65}
#: byte -> card code (the reports draw the cards of a flagged shoe)
CODES: tuple[str, ...] = tuple(sorted(CARD_BYTE, key=CARD_BYTE.get))
#: bytes at and above this are cards read in part
PARTIAL_BYTE = 52

#: a coup with a finding of one of these categories was not dealt as the tableau deals: the outcome counts take
#: it at the outcome the tableau gives its cards (:func:`tableau_letter`), not at the outcome the table gave it
#: (its own finding says what went wrong); leaving it out would bias the counts, as such errors happen only in
#: some coups (a third card can only be missed where one is due)
NOT_DEALT_BY_THE_TABLEAU = frozenset({
    "deal.initial-order", "deal.extra-card", "third-card.player.illegal", "third-card.player.missing",
    "third-card.banker.illegal", "third-card.banker.missing", "shoe.integrity", "irregularity.mishandled",
})

#: the check kind of the collusion test: the collector keeps what it needs only where its rule is on
COLLUSION = "integrity.collusion"
#: the check kind of the advantage-play test: likewise
ADVANTAGE = "integrity.advantage-play"

NO_TIME = -(2 ** 63)  # a coup without a timestamp, in a shoe whose record has some
NAIVE = -(2 ** 15)  # a timestamp recorded without an offset
_EPOCH_NAIVE = dt.datetime(1970, 1, 1)
#: the evidence that gives a shoe's sequence of cards as recorded; a coup with the cards and their hands but not
#: their order (a hand log) is put in the order the rules of the game deal it, where it is regular
SEQUENCE = frozenset({"cards", "order"})
HANDS = frozenset({"cards", "hands"})
#: what the outcome counts need of a coup (integrity.outcomes' needs): where the record lacks it, the engine leaves
#: the coup to this stage (the kind judges cards in dealing order without it), which counts it not judged where it
#: cannot count it
OUTCOME = frozenset({"hands", "values"})
#: what the hold test needs of a coup (integrity.hold's needs)
MONEY = frozenset({"stakes", "settlements"})


def _append(shoe, name: str, value: int) -> None:
    """Append to one of a shoe's compact arrays; a value too large for it (a hostile coup number, a line past
    4 billion) turns that array into a list of Python ints."""
    try:
        getattr(shoe, name).append(value)
    except OverflowError:
        setattr(shoe, name, [*getattr(shoe, name), value])


class ShoeRecord(Slotted):
    """One shoe of one transcript, as its coups were replayed."""

    __slots__ = ("shoe", "decks", "cards", "ends", "numbers", "lines", "columns", "outcomes", "errors", "aside",
                 "recount", "times", "zones", "implied", "unordered", "unread", "uncounted", "own", "rules", "tableau",
                 "later")

    def __init__(self, shoe: str, decks: int):
        self.shoe = shoe
        self.decks = decks
        self.cards = bytearray()  # CARD_BYTE of every card drawn from the shoe, in order
        self.ends = array("I")  # len(cards) at the end of each coup
        self.numbers: array | list = array("q")  # coup numbers (each of these three a list, should one not fit)
        self.lines = array("I")  # where each coup starts in the file
        self.columns = array("I")
        # as the table gave them: b"B", b"P", b"T" (lower case: a natural), b"-" none, b"?" dealt but not read
        self.outcomes = bytearray()
        # (coup index, the patron's gain, kind, what was due: its value to the patron) of wrong settlements
        self.errors: list[tuple[int, Decimal, str, Decimal]] = []
        self.aside: list[int] = []  # places in ``cards`` of the cards that went to no hand (burnt, discarded)
        # coups dealt against the tableau: (coup index, its first four hand cards in the order dealt, the place in
        # ``cards`` after the fourth), to count them at the outcome the tableau gives their cards
        self.recount: list[tuple[int, bytes, int]] = []
        # each coup's first timestamp, where the shoe's record has any: seconds since 1970 (NO_TIME: none) and the
        # offset in minutes (NAIVE: none recorded); None until one is seen
        self.times: array | None = None
        self.zones: array | None = None
        self.implied = 0  # coups whose cards are in the order the rules deal them (their record gives the hands only)
        # coups of cards the shuffle test cannot take: recorded in no order it knows (neither the dealing order
        # nor hands it can put in the rules' order), or none of them read (??): not judged there
        self.unordered = 0
        self.unread = 0
        # coups the outcome counts could not take for want of what they needed, by what was not recorded (the
        # evidence names): None until one comes
        self.uncounted: dict[tuple[str, ...], int] | None = None
        # what the shoe gives on its own, worked out once where it was collected (judge.prepare): None until then,
        # and again once it is extended
        self.own: dict | None = None
        # the rules of the shoe's own tests (check kind -> rule) and the tableau, of the ruleset's version in force
        # at its first coup (Collector.add)
        self.rules: dict | None = None
        self.tableau = None
        # where another version of the ruleset takes over within the shoe: (index of its first coup, its run-scope
        # rules by kind), in order; None: the version of its first coup throughout (the tests that span shoes judge
        # each coup by its own version: rules_at)
        self.later: list[tuple[int, dict]] | None = None

    def rules_at(self, index: int) -> dict | None:
        """The run-scope rules, by kind, of the version of the ruleset in force at the shoe's coup ``index``."""
        rules = self.rules
        for first, theirs in self.later or ():
            if first > index:
                break
            rules = theirs
        return rules

    def last_rules(self) -> dict | None:
        return self.later[-1][1] if self.later else self.rules

    def __len__(self) -> int:
        return len(self.numbers)

    def extend(self, other: ShoeRecord) -> None:
        """The same shoe, continued (in the next chunk of the file, or brought back later)."""
        base_cards, base_coups = len(self.cards), len(self.numbers)
        self.cards += other.cards
        self.ends.extend(base_cards + e for e in other.ends)
        for name in ("numbers", "lines", "columns"):
            mine, theirs = getattr(self, name), getattr(other, name)
            if isinstance(mine, array) and not isinstance(theirs, array):
                mine = list(mine)
                setattr(self, name, mine)
            mine.extend(theirs)
        self.outcomes += other.outcomes
        self.errors.extend((base_coups + i, *rest) for i, *rest in other.errors)
        self.aside.extend(base_cards + i for i in other.aside)
        if self.times is not None or other.times is not None:
            mine = self.times if self.times is not None else array("q", [NO_TIME] * base_coups)
            mine_z = self.zones if self.zones is not None else array("h", [NAIVE] * base_coups)
            mine.extend(other.times if other.times is not None else array("q", [NO_TIME] * len(other.numbers)))
            mine_z.extend(other.zones if other.zones is not None else array("h", [NAIVE] * len(other.numbers)))
            self.times, self.zones = mine, mine_z
        self.recount.extend((base_coups + i, four, base_cards + after) for i, four, after in other.recount)
        if other.rules is not None and other.rules != self.last_rules():  # (another process's copy: by value)
            self.later = (self.later or []) + [(base_coups, other.rules)]
        if other.later:
            self.later = (self.later or []) + [(base_coups + i, rules) for i, rules in other.later]
        self.implied += other.implied
        self.unordered += other.unordered
        self.unread += other.unread
        if other.uncounted:
            self.uncounted = self.uncounted or {}
            for lacking, n in other.uncounted.items():
                self.uncounted[lacking] = self.uncounted.get(lacking, 0) + n
        self.own = None  # worked out again on the whole shoe

    def add_time(self, when) -> None:
        """The time of the coup just added (a datetime, or None), kept where the shoe records times."""
        if when is None and self.times is None:
            return
        if self.times is None:
            earlier = len(self.numbers) - 1
            self.times, self.zones = array("q", [NO_TIME] * earlier), array("h", [NAIVE] * earlier)
        if when is None:
            self.times.append(NO_TIME)
            self.zones.append(NAIVE)
            return
        offset = when.utcoffset()
        if offset is None:
            self.times.append(int((when - _EPOCH_NAIVE).total_seconds()))
            self.zones.append(NAIVE)
        else:
            self.times.append(int(when.timestamp()))
            self.zones.append(int(offset.total_seconds() // 60))

    def time_of(self, index: int) -> str | None:
        """The coup's first timestamp, as ISO 8601 (to the second), where recorded."""
        if self.times is None or self.times[index] == NO_TIME:
            return None
        seconds, zone = self.times[index], self.zones[index]
        if zone == NAIVE:
            return (_EPOCH_NAIVE + dt.timedelta(seconds=seconds)).isoformat()
        return dt.datetime.fromtimestamp(seconds, dt.timezone(dt.timedelta(minutes=zone))).isoformat()

    def coup_of_card(self, index: int) -> int:
        """The index (in this shoe) of the coup that drew card ``index``."""
        lo, hi = 0, len(self.ends)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.ends[mid] <= index:
                lo = mid + 1
            else:
                hi = mid
        return min(lo, len(self.ends) - 1)



_POINTS = tuple(POINTS[code] if code in POINTS else PARTIAL_POINTS[code] for code in CODES)


def patron_of(bettor, seated: dict, named=None) -> str | None:
    """Who placed a wager: the patron it names (``patron:<id>``), or the patron seated at its seat, or where the
    record does not say who is seated, the one its events name (None: not named, or in doubt); the id whole (a
    report shortens it, identity never)."""
    if isinstance(bettor, str):
        return bettor[7:]  # "patron:<id>"
    who = seated.get(bettor)
    return named.get(bettor) if who is None and named else who


def _in_doubt(s) -> frozenset:
    """The bettors of a coup whose patron the record leaves in doubt (a seat whose occupant and wagers
    disagree): no patron-level rule judges them."""
    return frozenset(b for *_, bettors in s.seat_doubt for b in bettors) if s.seat_doubt else frozenset()


def side_wagers(table, names: list[str] | None) -> dict[str, tuple]:
    """The side wagers of a table the advantage-play test judges: ``names`` (those the table offers), or every
    spot it offers that requires a wager beside it; only those whose settlement reads the coup's result, or the
    first two cards of the hands (pairs).  Spot -> (what a unit staked gives back at each end of a coup, or at
    each class of the hands' first two cards; the spots it may stand beside: None for any)."""
    out = {}
    for name, spot in table.spots.items():
        if (name not in names) if names is not None else spot.requires is None:
            continue
        back = returns(spot, table.naturals)
        if back is None:
            back = pair_returns(spot)
        if back is not None:
            beside = frozenset(spot.requires.wager_on) if spot.requires is not None and spot.requires.wager_on \
                else None
            out[name] = (back, beside)
    return out


def tableau_letter(four: bytes, cards: bytes, after: int, aside: set[int], tableau) -> int:
    """The outcome letter the tableau gives a coup dealt from ``four`` (Player, Banker, Player, Banker) and then
    the hand cards of ``cards`` from ``after`` on (45, "-": the shoe ran out first)."""
    naturals = tableau.naturals
    p, b = (_POINTS[four[0]] + _POINTS[four[2]]) % 10, (_POINTS[four[1]] + _POINTS[four[3]]) % 10
    natural = p in naturals or b in naturals
    if not natural:
        following = (cards[i] for i in range(after, len(cards)) if i not in aside)
        third = None
        if p in tableau.player_draws:
            card = next(following, None)
            if card is None:
                return 45
            third = _POINTS[card]
            p = (p + third) % 10
        if tableau.banker_draws(b, third):
            card = next(following, None)
            if card is None:
                return 45
            b = (b + _POINTS[card]) % 10
    letter = 80 if p > b else 66 if b > p else 84
    return letter + 32 if natural else letter


def counted_outcomes(record: ShoeRecord, tableau) -> bytes:
    """The shoe's outcome letters as the counts take them: the table's, but the tableau's for the coups dealt
    against it."""
    if not record.recount:
        return bytes(record.outcomes)
    letters = bytearray(record.outcomes)
    aside = set(record.aside)
    for index, four, after in record.recount:
        if 255 not in four:
            letters[index] = tableau_letter(four, record.cards, after, aside, tableau)
    return bytes(letters)


class Patrons(Slotted):
    """What the collusion test keeps of a transcript: the wagers settled by each (dealer, patron) pair, the
    overpayments and late wagers (each with its shoe, coup index, dealer, patron and amount), and the coups it
    could not judge (no dealer recorded; a wager whose patron is not)."""

    __slots__ = ("wagers", "events", "no_dealer", "no_patron")

    def __init__(self):
        self.wagers: Counter = Counter()  # (dealer, patron) -> wagers settled
        # (kind, shoe id, coup index, dealer, patron, amount, what was due): an overpayment's amount is the patron's
        # gain, and what was due its value to the patron (findings.Money); a late wager's amount is the wager's
        self.events: list[tuple] = []
        self.no_dealer = 0
        self.no_patron = 0

    def extend(self, other: Patrons, base: dict[str, int]) -> None:
        """``other``'s, its coup indices moved on by ``base`` (shoe id -> the coups of it before ``other``)."""
        self.wagers.update(other.wagers)
        self.events.extend((k, shoe, base.get(shoe, 0) + i, *rest) for k, shoe, i, *rest in other.events)
        self.no_dealer += other.no_dealer
        self.no_patron += other.no_patron



def spot_key(name: str, back, tableau) -> str:
    """The key of a side wager as one version of a ruleset has it (:attr:`Chances.spots`): its name and a digest of
    its returns and its tableau's key, the same in every process (a plain string: hashed once, looked up at every
    wager)."""
    import hashlib

    from compliance.games.baccarat.odds import tableau_key

    canonical = tuple(tuple(sorted(x)) if isinstance(x, frozenset) else x for x in tableau_key(tableau))
    digest = hashlib.sha256(repr((type(back).__name__, tuple(back), canonical)).encode()).hexdigest()[:32]
    return f"{name}@{digest}"


class Chances(Slotted):
    """What the advantage-play test keeps of a transcript: the side wagers it judges (each spot's name, what a unit
    staked on it gives back at each end of a coup, :func:`~compliance.games.baccarat.edges.returns`, and the spots
    beside which it may be placed), and for every coup a named patron could place one, the patron and the side
    wagers placed (at the first card); the coups whose cards are not all recorded (the shoe left is not known
    after them), and the coups with a wager whose patron is not named.  The chances come in runs, a run a stretch
    of coups of one shoe under one version's side wagers, gathered by patron as they come (the judge takes a
    patron's chances of a run at once)."""

    __slots__ = ("spots", "runs", "gaps", "no_patron")

    def __init__(self, spots: dict):
        # spot_key -> (returns, the spots it may stand beside: None for any, the tableau, the spot): a spot whose
        # payouts or tableau another version of the ruleset changes is another line of the test, its wagers judged
        # by their own version's odds (Collector.table)
        self.spots: dict[str, tuple] = spots
        # (shoe id, the spots (keys of ``spots``) every patron present could place, patron -> ([coup index of each
        # chance, in order], [(its place among them, ((spot, amount), ...) placed)] of those with a side wager)),
        # the patrons in the order they first came in the run
        self.runs: list[tuple[str, tuple, dict[str, tuple[list[int], list]]]] = []
        self.gaps: list[tuple[str, int]] = []  # (shoe id, coup index)
        self.no_patron = 0

    def extend(self, other: Chances, base: dict[str, int]) -> None:
        for key, spot in other.spots.items():
            self.spots.setdefault(key, spot)
        for shoe, could, patrons in other.runs:
            moved = base.get(shoe, 0)
            if moved:
                patrons = {who: ([i + moved for i in indices], wagered) for who, (indices, wagered) in patrons.items()}
            self.runs.append((shoe, could, patrons))
        self.gaps.extend((shoe, base.get(shoe, 0) + i) for shoe, i in other.gaps)
        self.no_patron += other.no_patron



class IntegrityData(Slotted):
    """One transcript's shoes, in the order they first appear, and who dealt when."""

    __slots__ = ("table", "shoes", "timeline", "view", "rules", "currency", "patrons", "chances", "wagered", "hold",
                 "hold_view")

    def __init__(self, table: str, currency: str | None = None):
        self.table = table
        self.currency = currency  # the header's table.currency, for the money of a finding
        self.shoes: dict[str, ShoeRecord] = {}
        self.timeline = Timeline()
        self.view = None  # filled by the integrity stage: list of ShoeView, for the reports
        self.rules: dict = {}  # check kind -> the rule of the transcript's ruleset that judges it (as selected)
        self.patrons: Patrons | None = None  # where the collusion rule is on
        self.chances: Chances | None = None  # where the advantage-play rule is on and the table offers a side wager
        # patron -> the wagers settled with them, every coup (the reports' patrons; "seat N" where none is named)
        self.wagered: Counter = Counter()
        self.hold: HoldData | None = None  # where the hold rule is on: the settled coups' money, in buckets
        self.hold_view = None  # filled by the integrity stage: the run's HoldView, for the reports

    def extend(self, other: IntegrityData | None) -> None:
        """Append the next chunk of the same transcript."""
        if other is None:
            return
        base = {shoe: len(record) for shoe, record in self.shoes.items()}
        for shoe, record in other.shoes.items():
            if shoe in self.shoes:
                self.shoes[shoe].extend(record)
            else:
                self.shoes[shoe] = record
        self.timeline.extend(other.timeline)
        for kind, rule in other.rules.items():  # (a kind only a later chunk's versions have)
            self.rules.setdefault(kind, rule)
        self.wagered.update(other.wagered)
        if other.patrons is not None:
            if self.patrons is None:
                self.patrons = Patrons()
            self.patrons.extend(other.patrons, base)
        if other.chances is not None:
            if self.chances is None:
                self.chances = Chances({})
            self.chances.extend(other.chances, base)
        if other.hold is not None:
            if self.hold is None:
                self.hold = other.hold
            else:
                self.hold.extend(other.hold)



class Collector:
    """Gathers a transcript's :class:`IntegrityData`, one replayed coup at a time.

    The engine sets :attr:`table` again where a coup was dealt under another version of the ruleset's history: the
    tests that span shoes (collusion, advantage play, the hold) take each coup by the rules, spots and payouts of
    its own version, worked out once a version (:meth:`_switch`); a shoe's own tests, by the version at its first
    coup (docs/rule-authoring.md, "A ruleset's history: amendments")."""

    def __init__(self, header, table, rules=()):
        self._table = table  # the TableContext: decks per shoe, tableau, payouts
        self.data = IntegrityData(bounded_name(header.table.id), table.currency)
        # the run-scope rules selected, by kind: those of the version of the transcript's first coup (and a kind
        # only a later version has, as it first comes); the run's tests that span shoes take their thresholds there
        own = {r.check: r for r in reversed(list(rules))}
        self.data.rules = dict(own)
        self.hold_staff: object = self  # (never a coup's staff: the first coup finds its dealer)
        self.hold_dealer = None
        self.known = frozenset({"cards", "values"})
        self.standing: dict = {}  # a standing patron's "patron:<id>" -> the id
        # the run of chances being gathered (Chances.runs): its shoe, its side wagers, its patrons
        self.run_shoe = self.run_every = None
        self.run: dict = {}
        # format 1 has no way to name the dealer (staff is 1.1's): its coups are not counted as lacking one, as a
        # version 1 transcript's coups are not counted as lacking every coup of the shoe (compliance.evidence)
        self.dealers_recordable = getattr(header, "version", 1) != 1
        self.naturals = frozenset(table.tableau.naturals)
        self.current: ShoeRecord | None = None
        self.last_staff: object = self  # (never a coup's: the first coup always marks the timeline)
        self.shown: dict[str, str] = {}  # a patron's id -> its name in the reports (bounded_name)
        # id(table) -> (it, its run-scope rules by kind, what the tests that span shoes take its coups by)
        self.versions: dict[int, tuple] = {id(table): (table, own, None)}
        self._keys: dict[str, str] = {}
        self._switch(table)

    @property
    def table(self):
        return self._table

    @table.setter
    def table(self, table) -> None:
        """The coups from here on were dealt under another version of the ruleset (its table)."""
        if table is not self._table:
            self._table = table
            self.naturals = frozenset(table.tableau.naturals)  # a coup's outcome letter: by its own rules
            if not self.data.shoes:  # before the first coup: the transcript starts under this version
                self.data.rules = dict(self._version_rules())
            self._switch(table)
            self.current = None  # (add marks the change on the shoe: ShoeRecord.later)

    def _version_rules(self) -> dict:
        """The run-scope rules, by kind, of the version of the ruleset whose table the collector has now."""
        return self._version()[1]

    def _version(self) -> tuple:
        from compliance.checks import REGISTRY

        t = self._table
        known = self.versions.get(id(t))
        if known is None:
            rules = [r for r in t.ruleset.rules if r.check in REGISTRY and REGISTRY[r.check].scope == "run"]
            known = self.versions[id(t)] = (t, {r.check: r for r in reversed(rules)}, None)
        return known

    def _switch(self, table) -> None:
        """Take the coups from here on by ``table``'s version: whether each test that spans shoes is in force, the
        side wagers advantage play judges (and their keys), the spots' payouts the hold's theory reads."""
        t, rules, made = self._version()
        for kind in (COLLUSION, ADVANTAGE, HOLD):  # (a kind the first coup's version lacks, from where it comes)
            if kind in rules:
                self.data.rules.setdefault(kind, rules[kind])
        if made is None:
            made = self._stretch(table, rules)
            self.versions[id(t)] = (t, rules, made)
        (self.patrons, self.collusion_id, self.sides, self.every, self.advantage_id, self.hold,
         period) = made
        if self.hold is not None:
            self.hold.switch(period)

    def _stretch(self, table, rules: dict) -> tuple:
        data = self.data
        collusion = rules.get(COLLUSION)
        if collusion is not None and data.patrons is None:
            data.patrons = Patrons()
        advantage = rules.get(ADVANTAGE)
        spots = side_wagers(table, advantage.params.spots) if advantage is not None else {}
        sides = every = None
        if spots:
            if data.chances is None:
                data.chances = Chances({})
                shoe = self.current
                if shoe is not None and len(shoe):  # the coups before: their cards not known to the test
                    data.chances.gaps.append((shoe.shoe, len(shoe) - 1))
            sides = {}
            for name, (back, beside) in spots.items():
                key = spot_key(name, back, table.tableau)
                key = self._keys.setdefault(key, key)  # (one object a spot as versions have it alike)
                data.chances.spots.setdefault(key, (back, beside, table.tableau, name))
                sides[name] = key
            # every side wager judged: a chance at each for every patron at the table (seated, or placing any
            # wager), whether or not they wagered beside it (a counter who sits out the coups the count does not
            # favour is present at them)
            every = tuple(sides.values())
        hold = rules.get(HOLD)
        period = None
        if hold is not None:
            version = table.ruleset.period.start if getattr(table.ruleset, "period", None) is not None else None
            returns = spot_returns(table)
            period = (version, returns, table.tableau, hold)
            if data.hold is None:
                data.hold = HoldData(returns, table.tableau, version, hold)
        return (data.patrons if collusion is not None else None, collusion.id if collusion is not None else None,
                sides, every, advantage.id if advantage is not None else None,
                data.hold if hold is not None else None, period)

    def add(self, s, record, found, have=V1, staff=(), unjudged=frozenset()) -> None:
        """One replayed coup ``s`` (read from ``record``), with the findings ``found`` of the per-coup rules, the
        evidence its recording holds and who ran the table; ``unjudged``: the ids of the rules the engine
        counted not judged here (the collusion and advantage-play tests neither take the coup nor count it)."""
        shoe = self.current
        if shoe is None or shoe.shoe != s.shoe:
            shoe = self.current = self.data.shoes.get(s.shoe)
            if shoe is None:
                shoe = self.current = self.data.shoes[s.shoe] = ShoeRecord(s.shoe, self._table.decks[s.shoe])
                shoe.rules, shoe.tableau = self._version_rules(), self._table.tableau  # (kept whole across chunks)
            else:
                rules = self._version_rules()
                if shoe.last_rules() is not rules:  # another version from this coup on
                    shoe.later = (shoe.later or []) + [(len(shoe), rules)]
        cards = shoe.cards
        start = len(cards)
        duplicate = False
        unplaced = s.unplaced
        if unplaced:  # cards in the order dealt, not their hands (cards_in_order): taken in the order recorded
            drawn = unplaced
            for code, _ in unplaced:
                byte = CARD_BYTE.get(code)
                if byte is not None:  # (a card not read, ??, left out as below)
                    cards.append(byte)
        else:
            drawn = s.drawn if SEQUENCE <= have else self._implied(s) if HANDS <= have else None
            if drawn is not None:
                if drawn is not s.drawn:
                    shoe.implied += 1
                for to, card in drawn:
                    if not card.carried_over:
                        byte = CARD_BYTE.get(card.code)
                        if byte is None:  # a card not read (??): left out, the cards on either side still a draw
                            continue
                        if to != "player" and to != "banker":
                            shoe.aside.append(len(cards))
                        cards.append(byte)
        if len(cards) == start and (s.drawn or unplaced) and "cards" in have:  # none the shuffle test can take
            if drawn is None:
                shoe.unordered += 1  # their order neither recorded nor implied
            else:
                shoe.unread += 1  # none read
        if drawn is not None:
            ends = shoe.ends
            if ends and len(cards) - start >= 4 \
                    and cards[start:] == cards[(ends[-2] if len(ends) > 1 else 0):start]:
                # the coup before captured again (a recorder's fault: record.duplicate-coup), not cards drawn: a gap
                duplicate = True
                del cards[start:]
                del shoe.aside[bisect.bisect_left(shoe.aside, start):]
        shoe.ends.append(len(cards))
        try:
            shoe.numbers.append(s.number)
            shoe.lines.append(record.line or 0)
            shoe.columns.append(record.column or 0)
        except OverflowError:  # a value too large for its array: the arrays not yet appended to take it as an int
            coups = len(shoe.ends)
            for name, value in (("numbers", s.number), ("lines", record.line or 0), ("columns", record.column or 0)):
                if len(getattr(shoe, name)) < coups:
                    _append(shoe, name, value)
        categories = {f.category for f in found} if found else ()
        if s.void is None and s.hands_complete and "values" in have and not duplicate:
            pi, bi, p, b = s.points
            letter = 80 if p > b else 66 if b > p else 84  # P, B, T
            if pi in self.naturals or bi in self.naturals:
                letter += 32  # lower case: a natural
            if categories and NOT_DEALT_BY_THE_TABLEAU & categories and len(s.initial) == 4 and len(cards) > start:
                self._recount(shoe, s, start)
        else:
            # "?": a coup dealt whose outcome the counts cannot read (outcomes.py counts it at its worst); "-": none
            letter = 63 if s.void is None and not duplicate else 45
            if not OUTCOME <= have and "cards" in have:
                self._without_hands(shoe, s, have, len(cards) - start, start, duplicate)
        shoe.outcomes.append(letter)
        wrong = wrong_settlements(s, self.table) if "settlement.wrong-amount" in categories else ()
        if wrong:
            index = len(shoe.numbers) - 1
            for w in wrong:
                shoe.errors.append((index, w.gain, w.kind, w.expected))
        if s.settlements:
            self._wagered(s)
        if self.patrons is not None and (s.settlements or categories) \
                and not (unjudged and self.collusion_id in unjudged):
            self._patrons(s, shoe, found, wrong, staff)
        if self.data.chances is not None:
            # cards in order without their hands are the shoe's cards like any dealt (in ``cards`` above): the shoe
            # left after them is known, unless one was not read (??) or the coup is one captured twice
            if unplaced and len(cards) - start < len(unplaced) or not (s.drawn or unplaced) and s.void is None:
                # a card not read, or a coup dealt whose cards were not captured: the shoe left after it is not known
                self.data.chances.gaps.append((shoe.shoe, len(shoe.numbers) - 1))
            if "cards" in have:  # (else the rule is not judged at this coup: the engine says so)
                self._chances(s, shoe, have, duplicate, not (unjudged and self.advantage_id in unjudged))
        times = s.times
        if times or shoe.times is not None:
            shoe.add_time(next((t.when for t in times if t.when is not None), None))
        if self.hold is not None and s.settlements and s.void is None and "stakes" in have \
                and "settlements" in have:  # (MONEY <= have)
            if staff is not self.hold_staff:  # the dealer, found once a stretch of coups
                self.hold_staff = staff
                self.hold_dealer = next((name for role, name in staff if role == "dealer"), None)
            if shoe.times is None:
                seconds = zone = None
            else:
                seconds, zone = shoe.times[-1], shoe.zones[-1]
                if seconds == NO_TIME:
                    seconds = zone = None
            self.hold.add(s, shoe.decks, self.hold_dealer, seconds, zone,
                          (s.number, record.line or 0, record.column or 0, seconds, zone))
        if staff is not self.last_staff:  # most coups: the staff of the one before (the same tuple, or both empty)
            self.last_staff = staff
            self.data.timeline.add(s.number, staff)

    def _wagered(self, s) -> None:
        """Count each wager settled in the coup against its patron (the id the record names, a standing
        patron's or the one seated at the seat; else the seat), once however often it was settled."""
        wagered, shown = self.data.wagered, self.shown
        doubt = _in_doubt(s) if s.seat_doubt else ()
        seated, named = s.seated or {}, s.named
        for bettor, _ in {(st.bettor, st.spot) for st in s.settlements}:
            who = None if bettor in doubt else patron_of(bettor, seated, named)
            if who is None:
                wagered[f"seat {bettor}"] += 1
            else:
                name = shown.get(who)
                if name is None:
                    name = shown[who] = bounded_name(who)
                wagered[name] += 1

    def _patrons(self, s, shoe: ShoeRecord, found, wrong, staff) -> None:
        """Keep, for the collusion test, who was settled at whose coup, and the overpayments and late wagers."""
        patrons = self.data.patrons
        dealer = next((name for role, name in staff if role == "dealer"), None)
        if dealer is None:
            patrons.no_dealer += self.dealers_recordable
            return
        seated, named, doubt = s.seated, s.named, _in_doubt(s)

        def patron(bettor) -> str | None:
            return None if bettor in doubt else patron_of(bettor, seated, named)

        index = len(shoe.numbers) - 1
        unnamed = taken = False
        for bettor, _ in {(st.bettor, st.spot) for st in s.settlements}:
            who = patron(bettor)
            if who is None:
                unnamed = True
            else:
                taken = True
                patrons.wagers[(dealer, who)] += 1
        patrons.no_patron += unnamed and not taken  # (a coup the test took is not also counted not judged)
        for w in wrong:
            who = patron(w.bettor)
            if who is not None and w.gain:
                patrons.events.append(("over", shoe.shoe, index, dealer, who, w.gain, w.expected))
        for f in found or ():
            if f.category == "wager.late":
                ch = next((ch for ch in s.changes if ch.at == f.event), None)
                who = None if ch is None else patron(ch.bettor)
                if who is not None:
                    patrons.events.append(("late", shoe.shoe, index, dealer, who, ch.after, None))

    def _chances(self, s, shoe: ShoeRecord, have, duplicate: bool, judged: bool = True) -> None:
        """Keep, for the advantage-play test, each named patron's chance at the side wagers in this coup (every
        patron present: seated, or placing any wager) and the side wagers placed; and whether the coup's cards are all known.
        Every coup of a table with side wagers comes here: kept lean (each name bounded once, no dict made for a
        coup without side wagers)."""
        chances = self.data.chances
        drawn = s.drawn
        if drawn:
            gap = duplicate or not self.known <= have
            if not gap:
                for _, card in drawn:
                    if card.points is None:
                        gap = True
                        break
            if gap:
                chances.gaps.append((shoe.shoe, len(shoe.numbers) - 1))
        # the engine counted the rule not judged here, or the rule (or any side wager) is not in force at the coup's
        # version: the shoe left is all the coup gives the test
        sides, every = self.sides, self.every
        if not judged or every is None:
            return
        stakes = s.stakes_at_first_card
        if stakes is None:
            stakes = s.stakes
        seated = s.seated
        if not stakes and not seated:
            return
        placed_of = None
        # a chance at every side wager for every patron at the table: seated, or placing any wager (in this order)
        present = {}
        for bettor, spot in stakes:
            present[bettor] = None
            if spot in sides:
                if placed_of is None:
                    placed_of = {}
                placed_of[bettor] = placed_of.get(bettor, ()) + ((sides[spot], stakes[(bettor, spot)]),)
        if seated:
            present.update(dict.fromkeys(seated))
        if not present:
            return
        index = len(shoe.numbers) - 1
        if shoe.shoe != self.run_shoe or every is not self.run_every:  # a new run: another shoe, or version
            self.run_shoe, self.run_every, self.run = shoe.shoe, every, {}
            chances.runs.append((shoe.shoe, every, self.run))
        run, standing = self.run, self.standing
        named, doubt = s.named, s.seat_doubt and _in_doubt(s)
        taken = unnamed = False
        for bettor in present:
            if doubt and bettor in doubt:
                unnamed = True
                continue
            if type(bettor) is str:  # a patron's own wager, "patron:<id>": the id
                who = standing.get(bettor)
                if who is None:
                    who = standing[bettor] = patron_of(bettor, seated, named)
            else:  # a seat: the patron seated there (or named there, where the record does not say who is seated)
                who = seated.get(bettor)
                if who is None:
                    who = named.get(bettor) if named else None
                    if who is None:
                        unnamed = True
                        continue
            mine = run.get(who)
            if mine is None:
                mine = run[who] = ([], [])
            if placed_of:
                placed = placed_of.get(bettor)
                if placed:
                    mine[1].append((len(mine[0]), placed))
            mine[0].append(index)
            taken = True
        if unnamed and not taken:  # (a coup the test took is not also counted not judged)
            chances.no_patron += 1

    def _implied(self, s) -> list | None:
        """A coup recorded with each hand's cards but not the order they were dealt in (a hand log), put in the
        order the rules deal a regular coup: Player, Banker, Player, Banker, then the Player's third card and the
        Banker's.  Regular: two or three cards a hand, every card's value known, each third card drawn where the
        tableau draws one and only there; the cards that went to no hand (burnt) are left out.  None otherwise:
        the order cannot be implied."""
        player, banker = s.player, s.banker
        if not (2 <= len(player) <= 3 and 2 <= len(banker) <= 3) or s.moves or s.reconstructed:
            return None
        points = [c.points for c in player] + [c.points for c in banker]
        if None in points:
            return None
        tableau = self.table.tableau
        p, b = (points[0] + points[1]) % 10, (points[len(player)] + points[len(player) + 1]) % 10
        natural = p in self.naturals or b in self.naturals
        player_draws = not natural and p in tableau.player_draws
        if player_draws != (len(player) == 3):
            return None
        if (not natural and tableau.banker_draws(b, points[2] if player_draws else None)) != (len(banker) == 3):
            return None
        return [("player", player[0]), ("banker", banker[0]), ("player", player[1]), ("banker", banker[1])] + [
            ("player", c) for c in player[2:]] + [("banker", c) for c in banker[2:]]

    @staticmethod
    def _without_hands(shoe: ShoeRecord, s, have, fed: int, start: int, duplicate: bool) -> None:
        """A coup the outcome counts cannot read from its hands.  Its cards in dealing order without their hands
        (``cards_in_order``), all read, are counted at the outcome the tableau deals them (their first four the
        Player's, the Banker's, the Player's, the Banker's, then what the tableau draws: the coup's own cards where
        a reading of them is legal, the cards that came next where none is, as for a coup dealt against the
        tableau); a card not read among them, the coup is not judged ("values").  A void coup, one captured
        twice, or one of fewer than four cards adds no outcome, as with its hands.  Any other coup is not judged
        for what its record lacks."""
        unplaced = s.unplaced
        lacking = None
        if not unplaced:
            lacking = tuple(name for name in ("hands", "values") if name not in have)
        elif s.void is None and not duplicate:
            if fed < len(unplaced):
                lacking = ("values",)
            elif fed >= 4:
                shoe.recount.append((len(shoe.numbers) - 1, bytes(shoe.cards[start:start + 4]), start + 4))
        if lacking:
            shoe.uncounted = shoe.uncounted or {}
            shoe.uncounted[lacking] = shoe.uncounted.get(lacking, 0) + 1

    @staticmethod
    def _recount(shoe: ShoeRecord, s, start: int) -> None:
        """Keep what the tableau needs to deal this coup's cards itself: its first four hand cards in the
        order they came (whatever hand they went to) and where the cards after them start."""
        four = bytes(CARD_BYTE.get(card.code, 255) for _, card in s.initial)
        fourth = s.initial[3][1].at
        place = start
        for _, card in s.drawn:
            if card.carried_over or card.code not in CARD_BYTE:
                continue
            place += 1
            if card.at == fourth:
                break
        shoe.recount.append((len(shoe.numbers) - 1, four, place))

    def finish(self) -> IntegrityData:
        return self.data
