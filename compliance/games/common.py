"""What every game shares below the engine: exact amounts, coup order, settlement terms, replay errors.

A game package (``compliance.games.<game>``) builds on these and on the
transcript vocabulary (:mod:`compliance.transcript.fields`); no game imports
another game.
"""

from __future__ import annotations

import decimal
import hashlib
import math
from collections.abc import Callable
from decimal import Decimal
from typing import NamedTuple

import msgspec

ZERO = Decimal(0)


class ReplayError(Exception):
    """The coup cannot be replayed (becomes a ``transcript.unreadable`` finding)."""

    def __init__(self, message: str, event: int | None = None):
        super().__init__(message)
        self.event = event


class Step(NamedTuple):
    """One event of a coup as a report lists it, read from the replayed state (never from the raw events)."""

    at: int  # the event's index in the coup
    kind: str  # the event's type: card, wager, wager_adjust, announce, settle, commission, result, void, ...
    who: str  # the seat or patron, or the hand a card went to; "" when the event names none
    what: str  # the spot, the call, the card, the item offered, the winner ...
    amount: Decimal | None = None
    note: str = ""  # the rest: "found face up", "declined", the reason of an adjustment, the points announced


class WagerLine(NamedTuple):
    """One wager through a coup, for a report: what was staked, how it was settled, the commission taken."""

    who: str
    spot: str
    staked: Decimal  # as it stood when settlement began (what its settlement is judged on)
    changed_at: tuple[int, ...]  # the events that placed or changed it
    outcome: str | None = None  # as settled
    paid: Decimal | None = None
    settled_at: int | None = None
    commission: Decimal | None = None  # collected apart from the payout, from this bettor
    commission_at: int | None = None


class HandView(NamedTuple):
    """One hand as a report draws it, in its game's words."""

    label: str  # its name at the table: "Player", "box 2, five-card hand"
    cards: tuple[str, ...]  # card codes as finally held
    initial: int  # how many of them were dealt at first (the rest were drawn)
    value: str  # its points or rank in words: "7 points", "two pair"
    who: str  # the ``who`` of the steps that dealt its cards (an event a finding names is marked on its card)


class CoupPicture(NamedTuple):
    """What a report draws of a coup (:meth:`compliance.games.Game.coup_view`): small, and picklable from a
    worker process."""

    number: int
    where: str  # "shoe S-1, dealing method C"
    hands: tuple[HandView, ...]
    outcome: str  # in words: "announced: banker wins, Player 5, Banker 7", "declared void (misdeal)"
    steps: tuple[Step, ...] = ()  # every event of the coup, in order, as the replay read it
    wagers: tuple[WagerLine, ...] = ()  # each wager: staked, settled, commission


def check_coup_number(n: int, last: int | None, last_line: int) -> None:
    """Coup numbers increase within a transcript (every game).

    Each coup is compared with the coup before it only, and the replayers
    move on to its number before they call this: a coup out of order is one
    finding, and the coups after it are judged on their own.  One mistyped
    number (coup 2 written 30) makes one finding, never one for every coup
    after it.
    """
    if last is not None and n <= last:
        if n == last:
            raise ReplayError(f"coup number {n} repeats the coup at line {last_line}")
        raise ReplayError(f"coup number {n} comes after coup {last} (line {last_line}): coup numbers must increase")


#: a context of the widest exponents, for what is exact in any context but the default's exponent limits would
#: round (1e-999999999 normalized, or times 100, is 0 there): its precision is the default's
WIDE = decimal.Context(Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)


def money(amount: Decimal) -> str:
    """An amount as reports write it: grouped digits, no trailing zeros (1,000; 23.75)."""
    if not amount.is_finite() or not -60 < amount.adjusted() < 60:  # beyond any amount a transcript may hold
        return f"{amount.normalize(decimal.Context(prec=max(28, len(amount.as_tuple().digits)))):E}"
    text = f"{amount:,f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def value_to_patron(outcome: str, amount: Decimal) -> Decimal:
    """What a settlement is worth to the patron: winnings paid, a stake collected (negative); a push is due
    nothing beside the stake handed back, so what a push was paid is paid beyond it (the ``expected`` and
    ``paid`` of a finding's money, compliance.findings.Money)."""
    return -amount if outcome == "lose" else amount


class Due:
    """What a wager is owed: outcome, winnings (gross), and the commission the house keeps.

    ``why`` may be given as a function that words it: most wagers are settled
    right, and the reason is only worded for a finding.
    """

    __slots__ = ("outcome", "gross", "commission", "_why")

    def __init__(self, outcome: str, gross: Decimal, commission: Decimal, why: str | Callable[[], str]):
        self.outcome, self.gross, self.commission, self._why = outcome, gross, commission, why

    @property
    def why(self) -> str:
        return self._why if isinstance(self._why, str) else self._why()

    @property
    def net(self) -> Decimal:
        return self.gross - self.commission if self.commission else self.gross


def exact(*factors: Decimal):
    """A decimal context in which products of ``factors`` (and of their product with any one of them) are exact:
    as many digits as they have together, where the default context keeps 28, and the widest exponents Decimal
    has, where the default's would round an amount of 1e-999999999 to nothing.  The digits, not the exponents,
    are what a product costs: 1e-999999999 times 100 is as quick as 5 times 100."""
    digits = sum(len(f.as_tuple().digits) for f in factors if f is not None and f.is_finite())
    ctx = decimal.getcontext().copy()
    ctx.prec = max(ctx.prec, 2 * digits + 2)
    ctx.Emax, ctx.Emin = decimal.MAX_EMAX, decimal.MIN_EMIN
    return decimal.localcontext(ctx)


#: the magnitudes (powers of ten) an amount, rate or odds may have to be counted in integer units: beyond them
#: (1e-999999999, 1e999999999) its integer ratio alone would have a billion digits, so it is judged in Decimal
UNIT_MAGNITUDE = 40


def _ratio(value: Decimal) -> tuple[int, int] | None:
    """``value`` as an exact (numerator, denominator), or None where its magnitude is beyond :data:`UNIT_MAGNITUDE`."""
    if not value.is_finite() or (value and not -UNIT_MAGNITUDE < value.adjusted() < UNIT_MAGNITUDE) \
            or value.as_tuple().exponent < -2 * UNIT_MAGNITUDE:
        return None
    return value.as_integer_ratio()


class Units:
    """A table's money as exact integer minor units: an amount times :attr:`scale`, a whole number.

    ``scale`` is the table's smallest unit (``10 ** places``: the most decimal
    places of the amounts its header and ruleset name, cents at least) times the
    denominator of its commission rate(s), so that the commission on a whole
    number of units is itself a whole number of units (5% of 1 cent is 1/20 of
    a cent: at scale ``100 * 20`` it is 1 unit).  The hot path judges
    settlements in these integers; an amount finer than the scale, or a result
    that would not be whole, returns ``None`` and the caller judges that one in
    ``Decimal`` (the reference: the two always agree where both apply, tested
    on generated amounts, rates and roundings).  Never a binary float.
    """

    __slots__ = ("_ratios", "converted", "scale")

    def __init__(self, places: int = 2, denominator: int = 1):
        self.scale = 10 ** places * denominator
        self.converted: dict[Decimal, int | None] = {}  # the amounts of a table repeat: each converted once
        self._ratios: dict[Decimal, tuple[int, int]] = {}

    @classmethod
    def for_table(cls, amounts, rates) -> Units:
        """The units of a table whose fixed amounts (limits, commission units) and rates are given (None: absent)."""
        places = max([2] + [-a.as_tuple().exponent for a in amounts if a is not None and a.is_finite()])
        denominator = 1
        for r in rates:
            ratio = _ratio(r) if r is not None else None
            if ratio is not None:  # a rate beyond the units (1e-999999999) leaves its commissions to Decimal
                d = ratio[1]
                denominator = denominator * d // math.gcd(denominator, d)
        return cls(min(places, 12), denominator)

    def of(self, amount: Decimal) -> int | None:
        """``amount`` in units, or None when it is not a whole number of them."""
        try:
            return self.converted[amount]
        except KeyError:
            pass
        ratio = _ratio(amount)
        if ratio is None:
            units = None
        else:
            n, d = ratio
            units = None if (n * self.scale) % d else n * self.scale // d
        if len(self.converted) < 4096:  # a table's stakes and payouts are a few hundred values, not millions
            self.converted[amount] = units
        return units

    def ratio(self, value: Decimal) -> tuple[int, int] | None:
        """An exact rate or odds as (numerator, denominator); None beyond :data:`UNIT_MAGNITUDE`."""
        try:
            return self._ratios[value]
        except KeyError:
            r = self._ratios[value] = _ratio(value)
            return r

    def win(self, stake: int, odds: Decimal, rate: Decimal, unit: Decimal | None, rounding: str) -> tuple[int, int] | None:
        """(winnings, commission) in units on a winning ``stake`` (in units): the winnings at ``odds`` to 1, the
        commission ``rate`` on them, rounded ``rounding`` ("up", "half_up", "down") to a multiple of ``unit``
        if one is given; None where a result is not a whole number of units."""
        odds_ratio, rate_ratio = self.ratio(odds), self.ratio(rate)
        if odds_ratio is None or rate_ratio is None:
            return None
        on, od = odds_ratio
        g = stake * on
        if g % od:
            return None
        gross = g // od
        rn, rd = rate_ratio
        num = gross * rn
        if not num:
            return gross, 0
        if unit is None:
            return (gross, num // rd) if num % rd == 0 else None
        unit_units = self.of(unit)
        if not unit_units:
            return None
        den = rd * unit_units
        if rounding == "down":
            q = num // den
        elif rounding == "up":
            q = -(-num // den)
        else:  # half_up: half a unit and more rounds up (amounts are never negative)
            q = (2 * num + den) // (2 * den)
        return gross, q * unit_units


def settlement_basis(c) -> dict:
    """The wagers a settlement is judged against: as they stood when settlement began (or at the end of a coup
    that settled nothing). Any game's coup state with ``stakes`` and ``stakes_at_settlement``."""
    return c.stakes_at_settlement if c.stakes_at_settlement is not None else c.stakes


def plain(amount: Decimal) -> Decimal:
    """An amount without trailing zeros or exponent (25, 23.75), as a dealer writes it."""
    if amount == amount.to_integral_value():
        return amount.quantize(Decimal(1))
    return amount.normalize()


_encoder = msgspec.json.Encoder(decimal_format="number")


def encode(obj) -> bytes:
    """Compact JSON, amounts as JSON numbers, keys in the order written: the same input, the same bytes."""
    return _encoder.encode(obj)


def fingerprint(carried) -> str:
    """The SHA-256 of what a replayer carries from one coup to the next (``Game.replay_key``), in a form that is
    the same in every process: sets sorted, dictionaries in their order, a coup state by its slots."""
    return hashlib.sha256(repr(_canon(carried)).encode()).hexdigest()


def _canon(x):
    if x is None or isinstance(x, (bool, int, float, str, bytes, Decimal)):
        return x
    slots = getattr(type(x), "__slots__", None)
    if slots and not isinstance(x, (tuple, msgspec.Struct)):  # a game's coup state (baccarat's CoupState)
        return (type(x).__name__,) + tuple(_canon(getattr(x, n, None)) for n in slots)
    if isinstance(x, dict):
        return ("dict",) + tuple((_canon(k), _canon(v)) for k, v in x.items())
    if isinstance(x, (set, frozenset)):
        return ("set",) + tuple(sorted((_canon(v) for v in x), key=repr))
    if isinstance(x, tuple):  # its stored items: a game's tuple may guard reading them (baccarat's Unread totals)
        return (type(x).__name__,) + tuple(_canon(v) for v in tuple.__iter__(x))
    if isinstance(x, list):
        return (type(x).__name__,) + tuple(_canon(v) for v in x)
    if isinstance(x, msgspec.Struct):
        return (type(x).__name__,) + tuple(_canon(getattr(x, f)) for f in x.__struct_fields__)
    return repr(x)
