"""Replay of a pai gow poker round: one pass over its events builds the state the checks read.

The round's first ``deal`` is its first card: wagers count as they stand
then (68 IAC 10-9-4(a)), and every change after it is judged by 10-9-4(c).
The last ``set`` of a position is how its hands are finally set.  The cards
are checked against the one 53-card deck of the round as they are dealt.

The replay driver, the coup numbering and unreadable rounds are the shared
engine's (:mod:`compliance.engine`, :func:`compliance.games.common.check_coup_number`).
"""

from __future__ import annotations

import functools
from collections import Counter
from decimal import Decimal
from typing import NamedTuple

from compliance.games.common import ZERO, CoupPicture, HandView, WagerLine, check_coup_number, money
from compliance.games.pai_gow.hands import CARDS, DECK, BadHand, HandValue, Wheel, describe, fouled, high_hand, low_hand

DEALER = "dealer"
HAND_SIZE = 7


class BoxChange(NamedTuple):
    """A wager placed or changed in a box."""

    at: int
    box: int
    patron: str | None
    before: Decimal
    after: Decimal
    kind: str  # "wager" or "wager_adjust"
    reason: str | None
    after_first_card: bool

    @property
    def late(self) -> bool:
        """Placed or increased after the first card."""
        return self.after_first_card and (self.kind == "wager" or self.after > self.before)

    @property
    def reduced(self) -> bool:
        """Reduced or removed after the first card."""
        return self.after_first_card and self.kind == "wager_adjust" and self.after < self.before


class Setting(NamedTuple):
    """How a position's seven cards were set: the five-card and the two-card hand."""

    at: int
    position: int | str
    high: tuple[str, ...]
    low: tuple[str, ...]

    def values(self, wheel: Wheel = "second_highest") -> tuple[HandValue, HandValue]:
        return _values(self.high, self.low, wheel)

    @property
    def fouled(self) -> bool:
        high, low = self.values()
        return fouled(high, low)


class BoxSettlement(NamedTuple):
    at: int
    box: int
    outcome: str
    amount: Decimal


class BoxCommission(NamedTuple):
    at: int
    box: int
    amount: Decimal


class BoxSurrender(NamedTuple):
    at: int
    box: int
    stake: Decimal  # the wager surrendered
    amount: Decimal  # what the house kept
    after_first_card: bool


@functools.lru_cache(maxsize=256)
def _values(high: tuple[str, ...], low: tuple[str, ...], wheel: Wheel) -> tuple[HandValue, HandValue]:
    """Ranks of a setting, once: several checks read the same hands."""
    return high_hand(high, wheel), low_hand(low)


def describe_position(position: int | str) -> str:
    return "the dealer" if position == DEALER else f"box {position}"


class RoundState:
    """Everything the pai gow checks need to know about one round, built in one pass."""

    __slots__ = (
        "number", "seated", "events", "method", "first_card_at", "dealt", "dealt_at", "settings",
        "stakes", "stakes_at_first_card", "stakes_at_settlement", "players", "changes", "surrenders",
        "settlements", "commissions", "void", "void_at", "integrity", "miscounted", "last_event",
    )

    def __init__(self, number: int, seated: dict[int, str], events):
        self.number = number
        self.seated = seated
        self.events = events
        self.method = None  # dealing methods are baccarat's: no pai gow rule is limited to one
        self.first_card_at: int | None = None
        self.dealt: dict[int | str, list[str]] = {}  # position -> the cards dealt to it
        self.dealt_at: dict[int | str, int] = {}  # position -> the last event that dealt to it
        self.settings: dict[int | str, list[Setting]] = {}  # position -> every setting, in order
        self.stakes: dict[int, Decimal] = {}  # box -> wager, as it stands at the end of the round
        self.stakes_at_first_card: dict[int, Decimal] = {}
        self.stakes_at_settlement: dict[int, Decimal] | None = None
        self.players: dict[int, str | None] = {}  # box -> the patron who wagered in it
        self.changes: list[BoxChange] = []
        self.surrenders: list[BoxSurrender] = []
        self.settlements: list[BoxSettlement] = []
        self.commissions: list[BoxCommission] = []
        self.void = None
        self.void_at: int | None = None
        self.integrity: list[tuple[int, str]] = []  # cards that do not fit the round's deck
        self.miscounted: set[int | str] = set()  # positions whose final hands are not the cards they were dealt
        self.last_event = -1

    def setting(self, position: int | str) -> Setting | None:
        """The position's hands as finally set (the last ``set``), if they were set."""
        found = self.settings.get(position)
        return found[-1] if found else None

    def describe_box(self, box: int) -> str:
        patron = self.players.get(box)
        return f"box {box}" + (f" ({patron})" if patron else "")


def picture(s: RoundState) -> CoupPicture:
    """The round as a report draws it: each position's hands as set (or its seven cards, where it set none), the
    settlements, and each box's wager."""
    hands = []
    for position in sorted((p for p in s.dealt if p != DEALER), key=str) + ([DEALER] if DEALER in s.dealt else []):
        name = describe_position(position)
        setting = s.setting(position)
        if setting is None:
            hands.append(HandView(name, tuple(s.dealt[position]), len(s.dealt[position]), "not set", str(position)))
            continue
        try:
            high, low = (describe(v) for v in setting.values())
        except BadHand:
            high = low = "not a hand"
        hands.append(HandView(f"{name}, five-card hand", setting.high, len(setting.high), high, str(position)))
        hands.append(HandView(f"{name}, two-card hand", setting.low, len(setting.low), low, str(position)))
    settled = {x.box: x for x in s.settlements}
    commission = {x.box: x for x in s.commissions}
    staked = s.stakes_at_settlement if s.stakes_at_settlement is not None else s.stakes
    wagers = tuple(
        WagerLine(s.players.get(box) or f"box {box}", f"box {box}", staked.get(box, ZERO),
                  tuple(c.at for c in s.changes if c.box == box),
                  settled[box].outcome if box in settled else None, settled[box].amount if box in settled else None,
                  settled[box].at if box in settled else None,
                  commission[box].amount if box in commission else None,
                  commission[box].at if box in commission else None)
        for box in sorted(set(staked) | set(settled)))
    if s.void is not None:
        outcome = "declared void"
    elif s.settlements:
        outcome = "settled: " + ", ".join(f"box {x.box} {x.outcome} {money(x.amount)}" for x in s.settlements)
    else:
        outcome = "no box settled"
    return CoupPicture(s.number, f"round {s.number}", tuple(hands), outcome, (), wagers)


class PaiGowReplayer:
    """Replays the rounds of one transcript in order."""

    def __init__(self, table):
        self.table = table
        self.last_number: int | None = None
        self.last_line = 0

    def replay(self, coup, line: int = 0) -> RoundState:
        last, last_line = self.last_number, self.last_line
        self.last_number, self.last_line = coup.coup, line  # the next round is compared with this one
        check_coup_number(coup.coup, last, last_line)
        seated = coup.seated or {}  # the decoder gives seat numbers as int keys
        s = RoundState(coup.coup, seated, coup.events)
        seen: dict[str, int] = {}  # card -> the event that dealt it
        i = -1
        for i, ev in enumerate(coup.events):
            kind = ev.type
            if kind == "deal":
                if s.first_card_at is None:
                    s.first_card_at = i
                    s.stakes_at_first_card = dict(s.stakes)
                hand = s.dealt.setdefault(ev.position, [])
                s.dealt_at[ev.position] = i
                for code in ev.cards:
                    code = CARDS[code]
                    if code in seen:
                        s.integrity.append((i, f"{code} is dealt again (first at event {seen[code]}): "
                                               f"the deck of {len(DECK)} cards holds one of each"))
                    else:
                        seen[code] = i
                    hand.append(code)
            elif kind == "set":
                s.settings.setdefault(ev.position, []).append(
                    Setting(i, ev.position, tuple(CARDS[c] for c in ev.high), tuple(CARDS[c] for c in ev.low)))
            elif kind in ("wager", "wager_adjust"):
                patron = ev.patron or seated.get(ev.box)
                before = s.stakes.get(ev.box, ZERO)
                after = before + ev.amount if kind == "wager" else ev.amount
                if after:
                    s.stakes[ev.box] = after
                else:
                    s.stakes.pop(ev.box, None)
                if kind == "wager" and ev.box not in s.players:
                    s.players[ev.box] = patron
                s.changes.append(BoxChange(i, ev.box, patron, before, after, kind,
                                           getattr(ev, "reason", None), s.first_card_at is not None))
            elif kind == "surrender":
                stake = s.stakes.pop(ev.box, ZERO)
                s.surrenders.append(BoxSurrender(i, ev.box, stake, ev.amount, s.first_card_at is not None))
            elif kind == "settle":
                if s.stakes_at_settlement is None:
                    s.stakes_at_settlement = dict(s.stakes)
                s.settlements.append(BoxSettlement(i, ev.box, ev.outcome, ev.amount))
            elif kind == "commission":
                s.commissions.append(BoxCommission(i, ev.box, ev.amount))
            elif kind == "void":
                s.void, s.void_at = ev, i
        s.last_event = i
        if s.first_card_at is None:
            s.stakes_at_first_card = dict(s.stakes)
        self._check_hands(s)
        return s

    @staticmethod
    def _check_hands(s: RoundState) -> None:
        """Each position holds seven cards, and is set from exactly the seven it was dealt."""
        for position, cards in s.dealt.items():
            if len(cards) != HAND_SIZE:
                s.integrity.append((s.dealt_at[position], f"{describe_position(position)} was dealt {len(cards)} "
                                                          f"cards; a pai gow hand has {HAND_SIZE}"))
        for position, settings in s.settings.items():
            cards = sorted(s.dealt.get(position, ()))
            for st in settings:
                if sorted(st.high + st.low) == cards:
                    continue
                if st is settings[-1]:
                    s.miscounted.add(position)
                held, dealt = Counter(st.high + st.low), Counter(cards)
                extra = sorted((held - dealt).elements())
                missing = sorted((dealt - held).elements())
                why = "; ".join(x for x in (
                    f"{', '.join(extra)} not dealt to it" if extra else "",
                    f"{', '.join(missing)} dealt to it but not in its hands" if missing else "") if x)
                s.integrity.append((st.at, f"{describe_position(position)}'s hands are not the cards it was dealt: {why}"))
