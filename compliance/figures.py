"""Bounds on the figures read: numbers kept exact, and small enough to be money.

:func:`exact_float` reads a YAML float as the exact decimal its text writes; :func:`fine_figure` (odds, a
commission) and :func:`money_figure` (an amount) refuse a figure beyond the digits money is kept to, where an
exact sum would not end; :func:`value_error` words a parser's error on a number of too many digits.

Every bound, and what each refuses: docs/reliability.md, "The bounds".
"""

from __future__ import annotations

import sys

#: digits of an integer written in a file: Python's limit on converting text to int (sys.int_info)
MAX_INT_DIGITS = sys.int_info.default_max_str_digits


def exact_float(text: str):
    """A YAML float as the exact decimal its text writes (``0.1`` is one tenth, ``8.12345678901234567890`` keeps
    its 21 digits): never through a binary float.  ``.inf``, ``-.inf`` and ``.nan`` are Decimal's infinities and
    NaN, which the validators refuse where a number must be finite."""
    from decimal import Decimal, InvalidOperation

    t = text.strip().replace("_", "")
    special = {".inf": "Infinity", "+.inf": "Infinity", "-.inf": "-Infinity", ".nan": "NaN"}.get(t.lower())
    try:
        return Decimal(special or t)
    except InvalidOperation:  # a float form Decimal does not read (YAML 1.1's 1:30.5): as the parser reads it
        return Decimal(repr(float(t)))

#: the most significant digits and decimal places of odds and commission figures: beyond them a number is not money
#: (1e-999999999), and an exact sum with it (a Fraction, an integer ratio: 10 ** 999999999) would never finish
FIGURE_DIGITS = 28


def significant(value) -> tuple[int, int]:
    """(significant digits, decimal places) of a finite Decimal, trailing zeros dropped: read from its digits
    and exponent alone, never through a context (whose exponent limits would round 1e-999999999 to 0)."""
    if not value.is_finite():  # refused by the field's own allow_inf_nan
        return 0, 0
    _sign, digits, exponent = value.as_tuple()
    kept = len(digits)
    while kept > 1 and digits[kept - 1] == 0:
        kept -= 1
    exponent += len(digits) - kept
    if kept == 1 and digits[0] == 0:
        return 0, 0
    return kept, max(0, -exponent)


def fine_figure(value, what: str, named: str):
    """``value`` (odds, a commission rate or unit) if it is exact to at most :data:`FIGURE_DIGITS` significant digits
    and decimal places, else a ValueError in a few words (``what``: "odds"; ``named``: "odds of 1E-30 to 1")."""
    digits, places = significant(value)
    if places > FIGURE_DIGITS:
        raise ValueError(f"{named} are finer than money is kept: at most {FIGURE_DIGITS} decimal places")
    if digits > FIGURE_DIGITS:
        raise ValueError(f"{what} are exact to at most {FIGURE_DIGITS} significant digits; these have {digits}")
    return value


#: amounts are kept exactly below 10 ** MONEY_MAGNITUDE, to FIGURE_DIGITS decimal places: within these bounds every
#: sum, difference and product of money a run makes is exact in ``compliance.findings.MONEY``
MONEY_MAGNITUDE = 40


def money_figure(value):
    """An amount of a transcript, if it is within the bounds money is kept exactly in (below 10 ** 40, at most
    28 decimal places), else a ValueError saying so: beyond them a sum would not be exact, or would not end."""
    if value.is_finite() and value and value.adjusted() >= MONEY_MAGNITUDE:
        raise ValueError(f"amounts are kept exactly below 1E+{MONEY_MAGNITUDE}; this one is {value:E}")
    if significant(value)[1] > FIGURE_DIGITS:
        raise ValueError(f"amounts are kept exactly to {FIGURE_DIGITS} decimal places; this one is {value:E}")
    return value


def value_error(e: ValueError) -> str:
    """A ValueError of a parser in a few words (Python's limit on the digits of a number, named)."""
    text = str(e)
    if "integer string conversion" in text:
        return f"a number of more than {MAX_INT_DIGITS:,} digits"
    return text[:200]
