"""Replay: one pass over a coup's events builds the state every check reads.

The :class:`Replayer` walks a transcript's coups in order and makes, for each, a :class:`CoupState`: the
hands as dealt and as held, the wagers as they stood at the first card, the calls, the passes of the
cards, the result, the settlements, and what carries over from the coups before it (the shoe's cards so
far, the curator, the Banker marker, a card set aside).  Checks read only this state.

How a coup is read (the initial deal, ``reconstruct``, additional cards, when wagers count):
docs/transcript.md, "How a coup is replayed".
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import NamedTuple

from compliance.cards import CANONICAL, DECK, PARTIAL, PARTIAL_POINTS, POINTS
from compliance.evidence import Unknown
from compliance.games.baccarat.table import TableContext, describe_spots
from compliance.games.common import (  # noqa: F401 (read by checks)
    ZERO,
    CoupPicture,
    HandView,
    ReplayError,
    Step,
    WagerLine,
    check_coup_number,
)

PLAYER, BANKER = "player", "banker"
HAND = {PLAYER: "Player's Hand", BANKER: "Banker's Hand"}  # the hands in the words of the regulations
_NONE = ()  # what a coup's list holds until the replay puts something in it
_new = tuple.__new__  # builds a NamedTuple from a full tuple of its fields without its Python-level __new__


class DealtCard(NamedTuple):
    code: str  # canonical code (format 1.1: or a card recorded in part, 7? 0? ??)
    points: int | None  # None: the card was not read (??)
    at: int  # index of the event that dealt (or moved) it
    face: str | None = None
    found_face_up: bool = False
    carried_over: bool = False
    moved_from: str | None = None  # the hand it was moved from by a card_move

    @property
    def exposed(self) -> bool:
        """Dealt face up, or found face up: a card the patrons have seen (NSW 13.5, NZ 12.1-12.2 "disclosed")."""
        return self.face == "up" or self.found_face_up


class WagerChange(NamedTuple):
    at: int
    bettor: int | str  # seat number, or "patron:<id>" for a standing patron
    spot: str
    before: Decimal
    after: Decimal
    kind: str  # "wager" or "wager_adjust"
    reason: str | None
    after_no_more_bets: bool
    after_first_card: bool
    seat: int | None
    patron: str | None

    @property
    def late(self) -> bool:
        return (self.after_no_more_bets or self.after_first_card) and (
            self.kind == "wager" or self.after > self.before
        )


class Settlement(NamedTuple):
    at: int
    bettor: int | str
    spot: str
    outcome: str
    amount: Decimal


class CommissionPaid(NamedTuple):
    at: int
    bettor: int | str
    amount: Decimal


class Offer(NamedTuple):
    at: int
    item: str
    seat: int
    accepted: bool


class Pass(NamedTuple):
    at: int
    hand: str
    seat: int
    accepted: bool
    cards: str  # "initial" or "third"


class Move(NamedTuple):
    at: int
    code: str
    source: str | None  # hand it was taken from, None when it was in no hand
    to: str


class SetAside(NamedTuple):
    """A card set aside for the next coup, and whether it was exposed when it was."""

    code: str
    disclosed: bool


class Stamp(NamedTuple):
    """An event's timestamp as recorded, and read as ISO 8601 (``when`` None: it is not)."""

    at: int  # index of the event
    text: str
    when: dt.datetime | None
    coup: int  # the coup it was recorded in


def read_time(text: str) -> dt.datetime | None:
    """An ISO 8601 date and time (``2026-11-29T20:00:00Z``, with or without an offset), or None."""
    if len(text) < 10 or not text[:4].isdigit():  # fromisoformat takes "2026" too; a timestamp is more
        return None
    try:
        return dt.datetime.fromisoformat(text)
    except ValueError:
        return None


def _points_words(total: int | None) -> str:
    return "points not known (a card not read)" if total is None else f'{total} point{"" if total == 1 else "s"}'


def side_totals(stakes: dict[tuple, Decimal], spots: dict) -> dict[str, Decimal]:
    """Total staked on each side of the table differential (the Player's and the Banker's), from wagers keyed
    (bettor, spot): a spot's wagers count on the side its declaration names, if any."""
    totals = {PLAYER: ZERO, BANKER: ZERO}
    for (_, spot), amount in stakes.items():
        s = spots.get(spot)
        if s is not None and s.differential is not None:
            totals[s.differential] += amount
    return totals


def describe_bettor(bettor: int | str) -> str:
    return f"seat {bettor}" if isinstance(bettor, int) else f"patron {bettor.removeprefix('patron:')}"


class CoupState:
    """Everything the checks need to know about one coup, built in one pass."""

    __slots__ = (
        "number", "shoe", "method", "no_bet", "seated",
        "calls", "first_card_at",
        "initial", "player", "banker", "player_initial", "banker_initial", "reconstruct_at",
        "dealt_player", "dealt_banker", "drawn", "moves", "found_face_up",
        "expected_carry", "carry_out", "integrity",
        "stakes_at_first_card", "stakes", "stakes_at_settlement", "changes",
        "settlements", "commissions", "result", "result_at", "void", "void_at",
        "offers", "passes", "returns", "shoe_returns", "curator_at_start", "curator",
        "marker_at_start", "marker", "previous", "last_event",
        "last_curator_at_start", "offered_before", "reconstructed",
        "points", "hands_complete", "lacking", "times", "time_before", "number_before",
        "player_extra", "banker_extra", "won", "to_hands", "faults", "unplaced", "unsplit", "doubtful",
        "named", "seat_doubt", "behind", "out_of_force",
    )

    #: the evidence each fact of the coup comes from (compliance.evidence): on a coup whose record lacks it, a
    #: check reading the fact through the coup's evidence view (compliance.evidence.View) gets Unknown.  The
    #: facts not named (its number, shoe, seats, timestamps, the last event) are known wherever the coup is.
    FACTS: dict[str, tuple[str, ...]] = {
        **dict.fromkeys(("first_card_at", "drawn", "integrity", "expected_carry", "carry_out", "moves",
                         "reconstruct_at", "reconstructed", "unplaced"), ("cards",)),
        **dict.fromkeys(("initial", "player", "banker", "player_initial", "banker_initial", "dealt_player",
                         "dealt_banker", "to_hands", "hands_complete", "player_extra", "banker_extra", "points"),
                        ("cards", "hands")),
        "found_face_up": ("cards", "faces"),
        "won": ("cards", "hands", "values"),
        "calls": ("calls",),
        **dict.fromkeys(("stakes_at_first_card", "stakes", "stakes_at_settlement", "changes"), ("stakes",)),
        **dict.fromkeys(("settlements", "commissions"), ("settlements",)),
        **dict.fromkeys(("result", "result_at", "void", "void_at"), ("results",)),
        **dict.fromkeys(("offers", "shoe_returns", "curator_at_start", "curator", "marker_at_start", "marker",
                         "last_curator_at_start", "offered_before"), ("offers",)),
        **dict.fromkeys(("passes", "returns"), ("passes",)),
        "previous": ("coups",),  # the coup recorded before: the one played before only where every coup is
    }

    def __init__(self):
        # Lists most coups leave empty start as the empty tuple, and the replay makes a list of one only when
        # it has something to put in it (the checks read them alike): a coup allocates only what it holds.
        self.calls: list[tuple[str, int]] = []
        self.first_card_at: int | None = None
        self.initial: list[tuple[str, DealtCard]] = []  # (hand, card) of the first four cards
        self.player: list[DealtCard] = []  # the hands as finally held
        self.banker: list[DealtCard] = []
        self.player_initial = 0  # how many of player[] are initial cards
        self.banker_initial = 0
        self.reconstruct_at: int | None = None
        # the hands as dealt, before any reconstruct or move: the same lists as the hands until one changes them
        self.dealt_player: list[DealtCard] = self.player
        self.dealt_banker: list[DealtCard] = self.banker
        self.drawn: list[tuple[str, DealtCard]] = []  # every card taken from the shoe, with where it went
        self.to_hands: list[tuple[str, DealtCard]] = []  # those of them dealt to the Player's or the Banker's Hand
        self.moves: list[Move] = _NONE
        self.found_face_up: list[DealtCard] = _NONE
        self.expected_carry: list[SetAside] = _NONE  # cards the previous coup set aside for this one
        self.carry_out: list[SetAside] = _NONE  # cards this coup sets aside for the next
        self.integrity: list[tuple[int, str]] = _NONE  # cards that do not fit the shoe
        self.stakes: dict[tuple, Decimal] = {}  # as they stand at the end of the coup
        self.stakes_at_settlement: dict[tuple, Decimal] | None = None
        self.changes: list[WagerChange] = []
        self.settlements: list[Settlement] = []
        self.commissions: list[CommissionPaid] = _NONE
        self.result = None
        self.result_at: int | None = None
        self.void = None
        self.void_at: int | None = None
        self.offers: list[Offer] = _NONE
        self.passes: list[Pass] = _NONE
        self.returns: list[tuple[int, str]] = _NONE
        self.shoe_returns: list[int] = _NONE
        self.previous: CoupState | None = None
        self.last_curator_at_start: int | None = None  # the seat that last held the shoe, even if it went back
        self.offered_before: frozenset[str] = frozenset()  # items offered in earlier coups of this shoe
        self.reconstructed: tuple[tuple[str, ...], tuple[str, ...]] | None = None  # the last reconstruct's hands
        # worked out once the hands are final, at the end of the replay (checks read a replayed state only):
        # stakes_at_first_card; the totals (initial and final, Player's then Banker's); whether both hands hold
        # their two initial cards (dealt in order or reconstructed); each hand's additional cards; the winner
        # what the record of this coup lacks, beyond what it states (compliance.evidence): {"values"} when a
        # card in the hands was not read; the rules needing it are not judged here
        self.lacking: frozenset[str] = frozenset()
        self.times: list[Stamp] = _NONE  # the events' timestamps, where recorded
        self.time_before: Stamp | None = None  # the last valid timestamp of the coups before (its event: -1)
        self.number_before: int | None = None  # the number of the coup recorded just before, in the same shoe
        self.faults = _NONE  # the recorder's faults an import found in the coup's rows (format 1.1 record_faults)
        # the cards dealt in order where the record does not say which hand each went to (format 1.1
        # cards_in_order): (code, points) each
        self.unplaced: tuple[tuple[str, int | None], ...] = ()
        # both hands' five cards, the Player's first, the split between them not read (format 1.1 hands_unsplit):
        # (code, points) each; nothing else of the coup's cards is known (they are not counted against the shoe)
        self.unsplit: tuple[tuple[str, int | None], ...] = ()
        # the wagers (bettor, spot) the record leaves doubtful: recorded twice with different values, neither in
        # the events (format 1.1 record_faults, duplicate-row with a key)
        self.doubtful: frozenset[tuple] = frozenset()
        # seat -> the patron its events name, where the record does not say who is seated (None: two named)
        self.named: dict[int, str | None] = _NONE
        # (event, its type, bettor, spot) of each wager, change or settlement on a spot the ruleset's history has
        # but not on the coup's day (TableContext.out_of_force): left out of the stakes, judged by its own rule
        self.out_of_force: list[tuple[int, str, int | str, str]] = _NONE
        # (event, seat, spot, what the record says): a seat whose recorded occupant and wagers disagree
        # (event, seat, spot, in words, the bettors in doubt)
        self.seat_doubt: list[tuple[int, int, str, str, tuple]] = _NONE
        # (event, seat, spot, patron) of the events naming a patron at a seat another is recorded seated at
        self.behind: list[tuple[int, int, str, str]] = _NONE

    # ------------------------------------------------------------ what the record shows
    def shows(self) -> frozenset[str]:
        """The evidence this coup's events show the record holds (:mod:`compliance.evidence`), whatever its
        ``recorded`` says: a card dealt shows ``cards`` and ``hands`` (every card names where it went), cards
        in order without their hands (``cards_in_order``) show ``cards``, a face
        shows ``faces``, a call ``calls``, a wager ``stakes``, a settlement or commission ``settlements``, a
        result or void ``results``, an offer or shoe return ``offers``, a hand passed or returned ``passes``.
        Two show only where they carry what a record without them could not have written:
        ``wagers`` (their place among the events) where a wager is changed, or placed after a call or a card (a
        record of the wagers as they stood writes them before every other event), and ``order`` where the
        cards to the hands are not in the order the rules deal them (Player, Banker, Player, Banker, then the
        Player's third card, then the Banker's: the order a record without it writes them in)."""
        out = []
        if self.drawn or self.unplaced:
            out.append("cards")
            if self.to_hands:
                out.append("hands")
                if not _in_dealing_order(self.to_hands):
                    out.append("order")
            if any(c.face is not None or c.found_face_up for _, c in self.drawn):
                out.append("faces")
        if self.result is not None or self.void is not None:
            out.append("results")
        if self.calls:
            out.append("calls")
        if self.changes:
            out.append("stakes")
            first_call = self.calls[0][1] if self.calls else None
            if any(ch.kind != "wager" or ch.after_first_card or ch.after_no_more_bets
                   or (first_call is not None and ch.at > first_call) for ch in self.changes):
                out.append("wagers")
        if self.settlements or self.commissions:
            out.append("settlements")
        if self.offers or self.shoe_returns:
            out.append("offers")
        if self.passes or self.returns:
            out.append("passes")
        return frozenset(out)

    # ------------------------------------------------------------ derived facts
    def initial_total(self, hand: str) -> int:
        return self.points[0 if hand == PLAYER else 1]

    def final_total(self, hand: str) -> int:
        return self.points[2 if hand == PLAYER else 3]

    def extra_cards(self, hand: str) -> list[DealtCard]:
        """The hand's additional cards (the cards after its initial ones)."""
        return self.player_extra if hand == PLAYER else self.banker_extra

    def winner(self) -> str:
        """"player", "banker" or "tie", by the final totals."""
        return self.won

    def picture(self) -> CoupPicture:
        """The coup as a report draws it (the hands, every event, every wager), kept instead of the whole state."""
        r = self.result
        known = not self.lacking  # no total where a card was not read
        said = ("no result announced" if r is None else
                f"announced: {'tie' if r.winner == 'tie' else r.winner + ' wins'}, Player {r.player_points}, "
                f"Banker {r.banker_points}")
        if self.void is not None and self.void.reason is not None:
            said = f"declared void ({self.void.reason})"
        return CoupPicture(
            self.number, f"shoe {self.shoe}" + (f", dealing method {self.method}" if self.method else ""),
            (HandView("Player", tuple(c.code for c in self.player), self.player_initial,
                      _points_words(self.points[2] if known else None), "player"),
             HandView("Banker", tuple(c.code for c in self.banker), self.banker_initial,
                      _points_words(self.points[3] if known else None), "banker")),
            said, self.steps(), self.wager_lines())

    def steps(self) -> tuple[Step, ...]:
        """Every event of the coup, in order, from what the replay kept of it."""
        out: list[Step] = []
        for to, card in self.drawn:
            notes = [w for w, on in (("face up", card.face == "up"), ("found face up", card.found_face_up),
                                     ("carried over", card.carried_over)) if on]
            out.append(Step(card.at, "card", to, card.code, None, ", ".join(notes)))
        for ch in self.changes:
            if ch.kind == "wager":
                out.append(Step(ch.at, "wager", describe_bettor(ch.bettor), ch.spot, ch.after - ch.before))
            else:
                out.append(Step(ch.at, "wager_adjust", describe_bettor(ch.bettor), ch.spot, ch.after,
                                f"from {ch.before}" + (f": {ch.reason}" if ch.reason else "")))
        out += [Step(at, "announce", "", call) for call, at in self.calls]
        out += [Step(st.at, "settle", describe_bettor(st.bettor), st.spot, st.amount, st.outcome)
                for st in self.settlements]
        out += [Step(cp.at, "commission", describe_bettor(cp.bettor), "", cp.amount) for cp in self.commissions]
        out += [Step(o.at, "offer", f"seat {o.seat}", o.item, None, "accepted" if o.accepted else "declined")
                for o in self.offers]
        out += [Step(ps.at, "hand_pass", f"seat {ps.seat}", ps.hand, None,
                     f"{ps.cards} cards, " + ("accepted" if ps.accepted else "declined")) for ps in self.passes]
        out += [Step(at, "hand_return", "", hand) for at, hand in self.returns]
        out += [Step(at, "shoe_return", "", "shoe") for at in self.shoe_returns]
        out += [Step(m.at, "card_move", m.to, m.code, None, f"from {m.source}" if m.source else "from no hand")
                for m in self.moves]
        if self.reconstruct_at is not None and self.reconstructed is not None:
            player, banker = self.reconstructed
            out.append(Step(self.reconstruct_at, "reconstruct", "", "hands", None,
                            f"Player {' '.join(player) or '-'}; Banker {' '.join(banker) or '-'}"))
        if self.result_at is not None and self.result is not None:
            r = self.result
            out.append(Step(self.result_at, "result", "", r.winner, None,
                            f"Player {r.player_points}, Banker {r.banker_points}"))
        if self.void_at is not None and self.void is not None:
            out.append(Step(self.void_at, "void", "", "coup", None, self.void.reason or ""))
        out.sort(key=lambda st: st.at)
        return tuple(out)

    def wager_lines(self) -> tuple[WagerLine, ...]:
        """Each wager of the coup: staked (as settlement found it), its settlement, the bettor's commission."""
        basis = self.stakes_at_settlement if self.stakes_at_settlement is not None else self.stakes
        lines: dict[tuple, dict] = {}
        for ch in self.changes:
            lines.setdefault((ch.bettor, ch.spot), {"changed_at": []})["changed_at"].append(ch.at)
        for key in basis:
            lines.setdefault(key, {"changed_at": []})
        for st in self.settlements:
            lines.setdefault((st.bettor, st.spot), {"changed_at": []}).update(
                outcome=st.outcome, paid=st.amount, settled_at=st.at)
        for cp in self.commissions:  # collected on a winning Banker wager: shown on the bettor's Banker line
            key = next((k for k in lines if k[0] == cp.bettor and k[1] == BANKER), (cp.bettor, BANKER))
            lines.setdefault(key, {"changed_at": []}).update(commission=cp.amount, commission_at=cp.at)
        return tuple(WagerLine(describe_bettor(bettor), spot, basis.get((bettor, spot), ZERO),
                               tuple(v.pop("changed_at")), **v)
                     for (bettor, spot), v in sorted(lines.items(), key=lambda kv: (str(kv[0][0]), kv[0][1])))

    def whole_stakes(self) -> dict[tuple, Decimal]:
        """The wagers as they stood at the first card, every one of them: for what depends on all of a coup's
        wagers (their totals, the highest), Unknown where the record leaves one doubtful."""
        if self.doubtful:
            raise Unknown("stakes")
        return self.stakes_at_first_card

    def occupied(self, seat: int) -> bool:
        """The seat is occupied (or the record does not say who is seated)."""
        return not self.seated or seat in self.seated

    def stakes_before(self, index: int) -> dict[tuple, Decimal]:
        """The wagers as they stood just before event ``index`` (rebuilt from the recorded changes)."""
        stakes: dict[tuple, Decimal] = {}
        for ch in self.changes:
            if ch.at >= index:
                break
            if ch.after:
                stakes[(ch.bettor, ch.spot)] = ch.after
            else:
                stakes.pop((ch.bettor, ch.spot), None)
        return stakes

    def move_of(self, card: DealtCard, source: str | None = None) -> Move | None:
        """The card_move that took ``card`` (from the hand ``source``, if given) after it was dealt."""
        return next((m for m in self.moves if m.code == card.code and m.at > card.at
                     and (source is None or m.source == source)), None)

    def holder_at(self, item: str, index: int) -> int | None:
        """The seat holding the shoe (the curator) or the Banker marker just before event ``index``."""
        holder = self.curator_at_start if item == "shoe" else self.marker_at_start
        returns = iter(self.shoe_returns if item == "shoe" else ())
        ret = next(returns, None)
        for o in self.offers:
            if o.at >= index:
                break
            while ret is not None and ret < o.at:
                holder = None
                ret = next(returns, None)
            if o.item == item:
                holder = o.seat if o.accepted else None  # on offer: with no patron until accepted
        while ret is not None and ret < index:
            holder = None
            ret = next(returns, None)
        return holder



class Replayer:
    """Replays the coups of one transcript in order, carrying state between them."""

    def __init__(self, table: TableContext):
        self.table = table
        self.shoe_counts: dict[str, dict[str, int]] = {}
        self.shoe_totals: dict[str, int] = {}
        self.current_shoe: str | None = None
        self.pending_carry: list[SetAside] = []  # what the last coup set aside for the next
        self.curator: int | None = None
        self.last_curator: int | None = None
        self.marker: int | None = None
        self.offered: frozenset[str] = frozenset()  # items offered in this shoe so far (replaced, never changed)
        self.last_number: int | None = None  # the coup before's number: see check_coup_number
        self.last_line = 0
        self.previous: CoupState | None = None
        self.last_time: Stamp | None = None  # the last valid timestamp recorded so far
        self.numbered: tuple[str | None, int] | None = None  # (shoe, number) of the last coup the record holds

    def carried(self) -> tuple:
        """Everything this replayer carries to the next coup (the game's ``replay_key`` is its fingerprint): the
        counts of the current shoe only, and not the table (the same for every coup of a transcript).  The driver
        checks that a chunk of a file uses no other shoe of the chunks before it (:mod:`compliance._internal.driver`)."""
        shoe = self.current_shoe
        return (shoe, self.shoe_counts.get(shoe), self.shoe_totals.get(shoe), self.pending_carry, self.curator,
                self.last_curator, self.marker, self.offered, self.last_number, self.last_line, self.previous,
                self.last_time, self.numbered)

    def replay(self, coup, line: int = 0) -> CoupState:
        t = self.table
        n = coup.coup
        last, last_line = self.last_number, self.last_line
        self.last_number, self.last_line = n, line  # the next coup is compared with this one, even out of order
        check_coup_number(n, last, last_line)
        if coup.shoe not in t.decks:
            raise ReplayError(f"shoe {coup.shoe!r} is not among the header's shoes ({', '.join(t.decks)})")

        s = CoupState()
        s.number = n
        s.shoe = coup.shoe
        decks = t.decks[coup.shoe]
        s.method = coup.dealing_method or t.dealing_method
        s.no_bet = coup.no_bet
        if coup.record_faults:
            s.faults = coup.record_faults
            s.doubtful = frozenset(_doubtful(coup.record_faults, coup.seated or {}))
        seated: dict[int, str] = coup.seated or {}  # the decoder gives seat numbers as int keys
        s.seated = seated

        if coup.shoe != self.current_shoe:
            self.pending_carry = []  # a new shoe: nothing carries over
            self.offered = frozenset()
            if self.current_shoe in self.shoe_counts:  # the shoe put away: its counts kept small, in case it returns
                put_away = self.shoe_counts[self.current_shoe]
                self.shoe_counts[self.current_shoe] = tuple(put_away.get(key, 0) for key in _COUNTED)
            self.current_shoe = coup.shoe
        counts = self.shoe_counts.get(coup.shoe)
        if type(counts) is not dict:  # a new shoe, or one brought back
            counts = self.shoe_counts[coup.shoe] = {key: n for key, n in zip(_COUNTED, counts or ()) if n}
        total = self.shoe_totals.get(coup.shoe, 0)
        capacity = 52 * decks
        if coup.cards_in_order:  # cards taken from the shoe, in dealing order, not their hands: counted as dealt
            s.unplaced = tuple(_CARDS[c] for c in coup.cards_in_order)
            total = _count_unplaced(s, counts, total, capacity, coup.shoe, decks)
        if coup.hands_unsplit:
            s.unsplit = tuple(_CARDS[c] for c in coup.hands_unsplit)
        s.expected_carry = self.pending_carry
        self.pending_carry = []
        s.last_curator_at_start = self.last_curator
        s.offered_before = self.offered
        s.curator_at_start = s.curator = self.curator
        s.marker_at_start = s.marker = self.marker
        numbered = self.numbered
        if numbered is not None and numbered[0] in (coup.shoe, None):
            s.number_before = numbered[1]
        self.numbered = (coup.shoe, n)
        s.time_before = self.last_time
        prev = self.previous
        if prev is not None:
            prev.previous = None  # keep one coup of history, not a chain
        s.previous = prev

        stakes = s.stakes
        spots = t.spots
        first_card = False
        nmb = False
        rebuilt = False  # a reconstruct has replaced the hands: no card after it is an initial card
        initial = s.initial
        player, banker = s.player, s.banker
        dealt_player, dealt_banker = s.dealt_player, s.dealt_banker
        drawn = s.drawn
        to_hands = s.to_hands
        changes = s.changes
        i = -1
        for i, ev in enumerate(coup.events):
            kind = ev.type
            if ev.at is not None:
                _add(s, "times", _new(Stamp, (i, ev.at, read_time(ev.at), n)))
            if kind == "card":
                code, value = _CARDS[ev.card]
                face_up, carried = ev.found_face_up is True, ev.carried_over is True
                card = _new(DealtCard, (code, value, i, ev.face, face_up, carried, None))
                to = ev.to
                if carried:
                    if all(a.code != code for a in s.expected_carry):
                        _add(s, "integrity", (i, f"{code} is marked carried over, but the previous coup set no {code} aside"))
                else:
                    total += 1
                    # (the count of _count_unplaced, written out here: this is the loop of every dealt card)
                    if total > capacity:  # the shoe has run out: one finding, at the first card past its end
                        if total == capacity + 1:
                            _add(s, "integrity", (i, _past_end(code, total, coup.shoe, decks)))
                    else:
                        # the card itself, its rank, the cards worth 0: a card that does not fit one is reported
                        # there and not counted against the wider ones (its excess is one finding, not two)
                        for key, copies in _NODES[code]:
                            c = counts.get(key, 0) + 1
                            counts[key] = c
                            if c > decks * copies:
                                _add(s, "integrity", (i, _too_many(code, key, c, coup.shoe, decks)))
                                break
                if face_up:
                    _add(s, "found_face_up", card)
                dealt_to = (to, card)
                drawn.append(dealt_to)
                if to == PLAYER:
                    hand, dealt = player, dealt_player
                elif to == BANKER:
                    hand, dealt = banker, dealt_banker
                else:
                    continue
                to_hands.append(dealt_to)
                if not first_card:
                    first_card = True
                    s.first_card_at = i
                    s.stakes_at_first_card = dict(stakes)
                if len(initial) < 4 and not rebuilt:
                    initial.append(dealt_to)
                    if hand is player:
                        s.player_initial += 1
                    else:
                        s.banker_initial += 1
                hand.append(card)
                if dealt is not hand:  # the hands were changed by a reconstruct or a move: the dealt ones go on apart
                    dealt.append(card)
            elif kind == "wager":
                if ev.spot not in spots:
                    if self._out_of_force(s, ev, i, seated):
                        continue
                    raise self._undeclared(ev, i)
                bettor = _bettor(ev, seated, i, s)
                spot = ev.spot
                key = (bettor, spot)
                before = stakes.get(key, ZERO)
                after = before + ev.amount
                if after:
                    stakes[key] = after
                else:
                    stakes.pop(key, None)
                changes.append(_new(WagerChange, (i, bettor, spot, before, after, kind, None, nmb, first_card,
                                                  ev.seat, ev.patron)))
            elif kind == "settle":
                if ev.spot not in spots:
                    if self._out_of_force(s, ev, i, seated):
                        continue
                    raise self._undeclared(ev, i)
                if s.stakes_at_settlement is None:
                    s.stakes_at_settlement = dict(stakes)
                s.settlements.append(_new(Settlement, (i, _bettor(ev, seated, i, s),
                                                       ev.spot, ev.outcome, ev.amount)))
            elif kind == "announce":
                s.calls.append((ev.call, i))
                if ev.call == "no_more_bets":
                    nmb = True
            elif kind == "result":
                s.result = ev
                s.result_at = i
            elif kind == "wager_adjust":
                if ev.spot not in spots:
                    if self._out_of_force(s, ev, i, seated):
                        continue
                    raise self._undeclared(ev, i)
                bettor = _bettor(ev, seated, i, s)
                key = (bettor, ev.spot)
                before = stakes.get(key, ZERO)
                after = ev.amount
                if after:
                    stakes[key] = after
                else:
                    stakes.pop(key, None)
                changes.append(_new(WagerChange, (i, bettor, ev.spot, before, after, kind, ev.reason, nmb, first_card,
                                                  ev.seat, ev.patron)))
            elif kind == "hand_pass":
                _add(s, "passes", Pass(i, ev.hand, ev.seat, ev.accepted, ev.cards))
            elif kind == "hand_return":
                _add(s, "returns", (i, ev.hand))
            elif kind == "offer":
                _add(s, "offers", Offer(i, ev.item, ev.seat, ev.accepted))
                if ev.item not in self.offered:
                    self.offered = self.offered | {ev.item}
                # an item on offer is with no patron until one accepts it
                holder = ev.seat if ev.accepted else None
                if ev.item == "shoe":
                    s.curator = self.curator = holder
                    if ev.accepted:
                        self.last_curator = ev.seat
                else:
                    s.marker = self.marker = holder
            elif kind == "shoe_return":
                _add(s, "shoe_returns", i)
                s.curator = self.curator = None
            elif kind == "commission":
                _add(s, "commissions", CommissionPaid(i, _bettor(ev, seated, i, s), ev.amount))
            elif kind == "card_move":
                _keep_dealt(s)
                dealt_player, dealt_banker = s.dealt_player, s.dealt_banker
                self._move(s, ev, i)
            elif kind == "reconstruct":
                _keep_dealt(s)
                dealt_player, dealt_banker = s.dealt_player, s.dealt_banker
                s.reconstruct_at = i
                rebuilt = True
                s.player[:] = [DealtCard(*_CARDS[c], i) for c in ev.player]
                s.banker[:] = [DealtCard(*_CARDS[c], i) for c in ev.banker]
                s.reconstructed = (tuple(x.code for x in s.player), tuple(x.code for x in s.banker))
                s.player_initial = min(2, len(ev.player))
                s.banker_initial = min(2, len(ev.banker))
            elif kind == "void":
                s.void = ev
                s.void_at = i
        s.last_event = i
        if s.behind:
            _behind(s)
        s.points = _points(player, s.player_initial, banker, s.banker_initial)  # the hands are final now
        pi, bi = s.player_initial, s.banker_initial
        s.hands_complete = pi == 2 and bi == 2
        s.player_extra = player[pi:]  # the hands' additional cards and the winner, asked for by many checks
        s.banker_extra = banker[bi:]
        if s.points is None:  # a card in the hands was not read: the totals it is in are unknown, and the winner
            s.points = Unread((_total(player[:pi]), _total(banker[:bi]), _total(player), _total(banker)))
            s.lacking = _NO_VALUES
            s.won = None
        else:
            p, b = s.points[2], s.points[3]
            s.won = PLAYER if p > b else BANKER if b > p else "tie"
        if s.times:
            valid = [t for t in s.times if t.when is not None]
            if valid:
                self.last_time = valid[-1]
        if not first_card:
            s.stakes_at_first_card = dict(stakes)
        self.shoe_totals[coup.shoe] = total
        self.pending_carry = s.carry_out
        self.previous = s
        return s

    def passed_over(self, number: int | None) -> None:
        """A coup the record holds but that could not be read (its number, if known): the next coup's
        number follows it.  A number that goes back (the coup out of order) is not followed: the coups
        after it are numbered from the last one in order."""
        if number is not None and (self.numbered is None or number > self.numbered[1]):
            self.numbered = (self.numbered[0] if self.numbered is not None else None, number)

    def _out_of_force(self, s: CoupState, ev, i: int, seated) -> bool:
        """Keep apart an event on a spot the rules of the coup's day lack but its history has (True), where the
        ruleset judges such a wager by a rule of its own."""
        t = self.table
        if not t.out_of_force or ev.spot not in t.ruleset.spot_notes:
            return False
        _add(s, "out_of_force", (i, ev.type, _bettor(ev, seated, i, s), ev.spot))
        return True

    def _undeclared(self, ev, i: int) -> ReplayError:
        t = self.table
        why = t.ruleset.spot_notes.get(ev.spot)  # the rules in force that day lack it: the history says why
        if why:
            return ReplayError(f"{ev.type} at events[{i}] is on spot {ev.spot!r}, which the rules in force on the "
                               f"coup's day do not have: {why}", i)
        return ReplayError(f"{ev.type} at events[{i}] is on spot {ev.spot!r}, which this table does not offer "
                           f"({describe_spots(t.spots, t.ruleset.id, t.game)})", i)

    def _move(self, s: CoupState, ev, i: int) -> None:
        code = _CARDS[ev.card][0]
        source = None
        # With several decks both hands may hold the code: a card moved to a hand comes from the
        # other one; otherwise the most recently dealt copy moves (an erroneous card is the last dealt).
        best = None  # (dealt at, hand name, hand, index)
        for hand_name, hand in ((PLAYER, s.player), (BANKER, s.banker)):
            if hand_name == ev.to:
                continue
            for j in range(len(hand) - 1, -1, -1):
                if hand[j].code == code:
                    if best is None or hand[j].at > best[0]:
                        best = (hand[j].at, hand_name, hand, j)
                    break
        if best is not None:
            _, source, hand, j = best
            card = hand.pop(j)
            if source == PLAYER and j < s.player_initial:
                s.player_initial -= 1
            elif source == BANKER and j < s.banker_initial:
                s.banker_initial -= 1
        if source is None:
            _add(s, "integrity", (i, f"{code} is moved, but no hand of this coup holds it"))
            card = DealtCard(code, _CARDS[code][1], i)
        _add(s, "moves", Move(i, code, source, ev.to))
        moved = card._replace(at=i, moved_from=source)
        if ev.to == PLAYER:
            s.player.append(moved)
        elif ev.to == BANKER:
            s.banker.append(moved)
        elif ev.to == "next_coup":
            _add(s, "carry_out", SetAside(code, card.exposed))


def _add(s: CoupState, name: str, item) -> None:
    """Append ``item`` to the coup's list ``name``, made when its first item comes (see CoupState)."""
    items = getattr(s, name)
    if items is _NONE:
        items = []
        setattr(s, name, items)
    items.append(item)


def _keep_dealt(s: CoupState) -> None:
    """Before a reconstruct or a move changes the hands, keep the hands as dealt apart from them."""
    if s.dealt_player is s.player:
        s.dealt_player = list(s.player)
        s.dealt_banker = list(s.banker)


def _in_dealing_order(to_hands: list[tuple[str, DealtCard]]) -> bool:
    """The cards to the hands are in the order the rules deal them: Player, Banker, Player, Banker, then the
    Player's third card, then the Banker's (for as many cards as each hand got)."""
    player = sum(1 for to, _ in to_hands if to == PLAYER)
    banker = len(to_hands) - player
    k = 0
    for i in range(max(player, banker)):
        for hand, count in ((PLAYER, player), (BANKER, banker)):
            if i < count:
                if to_hands[k][0] != hand:
                    return False
                k += 1
    return True


def _count_unplaced(s: CoupState, counts: dict[str, int], total: int, capacity: int, shoe: str, decks: int) -> int:
    """Count the coup's cards recorded in dealing order without their hands (``cards_in_order``) against its shoe,
    as the replay counts a dealt card (its loop writes the same count out, for speed): the cards past the shoe's
    end (one finding, at the first), and each card against its copies, its rank's and the cards worth 0, a card
    read in part against everything it may be.  A finding names no event (the cards are in none).  Returns the
    cards drawn from the shoe so far."""
    for code, _ in s.unplaced:
        total += 1
        if total > capacity:
            if total == capacity + 1:
                _add(s, "integrity", (None, _past_end(code, total, shoe, decks)))
            continue
        for key, copies in _NODES[code]:
            c = counts.get(key, 0) + 1
            counts[key] = c
            if c > decks * copies:
                _add(s, "integrity", (None, _too_many(code, key, c, shoe, decks)))
                break
    return total


def _past_end(code: str, total: int, shoe: str, decks: int) -> str:
    """Why the first card past a shoe's end does not fit it (the cards after it are not reported one by one)."""
    capacity = 52 * decks
    return (f"more than {capacity} cards drawn from shoe {shoe!r} ({_decks(decks)}): {code} is card {total} of a "
            f"shoe of {capacity}; the cards drawn after it in this shoe are past its end too, not reported one by one")


def _decks(n: int) -> str:
    return "1 deck" if n == 1 else f"{n} decks"


#: every accepted spelling of a card -> (canonical code, point value)
_CARDS = {spelling: (code, POINTS[code]) for spelling, code in CANONICAL.items()} | {
    spelling: (code, PARTIAL_POINTS[code]) for spelling, code in PARTIAL.items()}

#: canonical code -> what it is counted against in its shoe, the narrowest first: (key, copies a deck holds).
#: A card fully read counts against its own copies, those of its rank (``7?``) and, worth 0, those of the 16
#: cards worth 0 (``0?``); a card read in part counts against everything it is compatible with: ``7?`` against
#: the sevens, ``K?`` against the kings and the cards worth 0, ``0?`` against the cards worth 0; ``??`` only
#: against the shoe's size.  The sets are nested, so the record fits the shoe (some reading of its partial
#: codes as whole cards holds no card more often than the shoe does) exactly when no count exceeds its copies.
_NODES: dict[str, tuple[tuple[str, int], ...]] = {}
for _code in DECK:
    _NODES[_code] = ((_code, 1), (_code[0] + "?", 4)) + ((("0?", 16),) if POINTS[_code] == 0 else ())
for _code in set(PARTIAL.values()) - {"??"}:
    _NODES[_code] = (((_code, 4),) if _code != "0?" else ()) + ((("0?", 16),) if PARTIAL_POINTS[_code] == 0 else ())
_NODES["??"] = ()
#: every key a shoe's counts may hold, in a fixed order (a shoe put away keeps its counts as a tuple of them)
_COUNTED: tuple[str, ...] = DECK + tuple(r + "?" for r in "A23456789TJQK") + ("0?",)
_RANK_WORDS = {"A": "aces", "T": "tens", "J": "jacks", "Q": "queens", "K": "kings"} | {
    str(n): f"{n}s" for n in range(2, 10)}


def _too_many(code: str, key: str, count: int, shoe: str, decks: int) -> str:
    """Why ``code`` does not fit its shoe: its count of ``key`` (the card, its rank, the cards worth 0)."""
    if key == code and code in POINTS:
        return f"{code} appears {count} times in shoe {shoe!r}, which holds {_decks(decks)}"
    partly = "" if code in POINTS else ", counted against every card it may be"
    if key == "0?":
        return (f"{code} is card {count} worth 0 (a ten or a court card) in shoe {shoe!r}, which holds "
                f"{16 * decks} ({_decks(decks)}){partly}")
    return (f"{code} is card {count} of rank {key[0]} ({_RANK_WORDS[key[0]]}) in shoe {shoe!r}, which holds "
            f"{4 * decks} ({_decks(decks)}){partly}")
_NO_VALUES = frozenset({"values"})


class Unread(tuple):
    """A coup's totals (initial and final, the Player's then the Banker's) where a card in a hand was not read
    (``??``): a total holding it is None, and reading it raises Unknown (its value was not recorded); the others,
    read as any total is (the Player's initial 7 when only the third card was not read)."""

    __slots__ = ()

    def __getitem__(self, i):
        v = tuple.__getitem__(self, i)
        if v is None:
            raise Unknown("values")
        return v

    def __iter__(self):
        return (self[i] for i in range(len(self)))


def _total(cards: list[DealtCard]) -> int | None:
    """The point total of cards, None where one was not read."""
    values = [c.points for c in cards]
    return None if None in values else sum(values) % 10


def _points(player: list[DealtCard], player_initial: int, banker: list[DealtCard], banker_initial: int):
    """Initial and final point counts of both hands, in one pass (checks read them many times);
    None when a card in a hand was not read."""
    p = [c.points for c in player]
    b = [c.points for c in banker]
    if None in p or None in b:
        return None
    return sum(p[:player_initial]) % 10, sum(b[:banker_initial]) % 10, sum(p) % 10, sum(b) % 10


def _doubtful(faults, seated: dict[int, str]):
    """The wagers (bettor, spot) a recording's faults leave doubtful: a wager row recorded twice, differently."""
    for f in faults:
        key = f.key
        if f.fault == "duplicate-row" and key and key.get("spot") is not None:
            seat, patron = key.get("seat"), key.get("patron")
            if isinstance(seat, int):
                behind = patron is not None and seated and seated.get(seat) != patron
                yield ("patron:" + str(patron) if behind else seat), key["spot"]
            elif patron is not None:
                seat = next((n for n, p in reversed(list(seated.items())) if p == patron), None)
                yield (seat if seat is not None else "patron:" + str(patron)), key["spot"]


def _behind(s: CoupState) -> None:
    """A wager named for a patron behind a seat whose settlement names no patron (so is the occupant's), or the
    other way round: the record disagrees on whose wager it was (``seat_doubt``)."""
    for at, seat, spot, patron in s.behind:
        mine = "patron:" + patron
        wagered = any(ch.bettor == mine and ch.spot == spot for ch in s.changes)
        settled = any(st.bettor == mine and st.spot == spot for st in s.settlements)
        if wagered == settled:
            continue
        seat_wagered = any(ch.bettor == seat and ch.spot == spot for ch in s.changes)
        seat_settled = any(st.bettor == seat and st.spot == spot for st in s.settlements)
        if (seat_settled and not seat_wagered) if wagered else (seat_wagered and not seat_settled):
            if not any(d[1] == seat and d[2] == spot for d in s.seat_doubt):
                side = "settlement" if wagered else "wager"
                _add(s, "seat_doubt", (at, seat, spot, f"its {spot} wager names patron {patron!r} and its {side} "
                                       f"names no patron (so the seat's occupant, {s.seated.get(seat)!r})",
                                       (seat, mine)))


def _bettor(ev, seated: dict[int, str], i: int, s: CoupState) -> int | str:
    """Who made a wager, settlement or commission: a seat (its occupant's), the seat of a seated patron, or a
    patron's own (``patron:<id>``): a standing patron, or one wagering at a seat another is recorded seated at
    (a back-bettor).  The patron an event names is its bettor whatever seat it names; where the record does not
    say who is seated, the seat's wagers are the patron's its events name (two named: in doubt)."""
    seat = ev.seat
    if seat is not None:
        patron = ev.patron
        if patron is None:
            return seat
        if seated:
            if seated.get(seat) == patron:
                return seat
            _add(s, "behind", (i, seat, getattr(ev, "spot", ""), patron))
            return "patron:" + patron  # behind a seat (or at one the record leaves empty): the patron's own
        named = s.named
        if named is _NONE:
            named = s.named = {}
        had = named.get(seat, named)
        if had is named:
            named[seat] = patron
        elif had is not None and had != patron:
            named[seat] = None
            _add(s, "seat_doubt", (i, seat, getattr(ev, "spot", ""), f"its events name patron {had!r} and patron "
                                   f"{patron!r}, and the record does not say who is seated", (seat,)))
        return seat
    if ev.patron is not None:
        seat = None
        for number, patron in seated.items():  # the last seat the patron is listed at
            if patron == ev.patron:
                seat = number
        return seat if seat is not None else "patron:" + ev.patron
    raise ReplayError(f"{ev.type} at events[{i}] names neither a seat nor a patron", i)
