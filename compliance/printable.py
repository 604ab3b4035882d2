"""Strings from the evidence, made safe to print.

:func:`printable` replaces every control, format, line or paragraph separator and lone
surrogate character (Unicode Cc, Cf, Zl, Zp, Cs) with a visible escape; every
human-readable output passes the strings it did not write itself through it.
:func:`json_safe` writes those characters as ``\\u`` escapes in a JSON document (the data
unchanged), :func:`safe_line` makes a line safe for a CI log, and :func:`bounded_name` and
:func:`bounded_staff` shorten names for display.

Why, and which outputs do which: docs/security.md, "In more detail" (Printable text).
"""

from __future__ import annotations

import functools
import hashlib
import re

#: every character of the categories Cc, Cf, Zl, Zp and Cs (Unicode 15), as ranges; a superset is harmless
_RANGES = (
    (0x0000, 0x001F), (0x007F, 0x009F), (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD),
    (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E), (0x200B, 0x200F), (0x2028, 0x202E),
    (0x2060, 0x2064), (0x2066, 0x206F), (0xD800, 0xDFFF), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD),
    (0x110CD, 0x110CD), (0x13430, 0x1343F), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)
UNSAFE = re.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in _RANGES) + "]")
#: the same less the C0 controls, which a JSON encoder escapes itself (and the newlines that lay out its text)
_JSON_UNSAFE = re.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in _RANGES[1:]) + "]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(m: re.Match) -> str:
    c = m.group()
    if c in _NAMED:
        return _NAMED[c]
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def printable(text) -> str:
    """``text`` with every control and format character replaced by a visible escape."""
    text = str(text)
    return text if UNSAFE.search(text) is None else UNSAFE.sub(_escape, text)


def safe_line(text: str) -> str:
    """One line of a log: its control and format characters made visible, and never starting with ``::``
    (a GitHub Actions workflow command), which a file name could otherwise make it do."""
    text = printable(text)
    return "./" + text if text.startswith("::") else text


def _json_escape(m: re.Match) -> str:
    c = m.group()
    n = ord(c)
    if n < 0x10000:
        return f"\\u{n:04x}"
    n -= 0x10000  # a JSON escape of a character beyond the BMP is its surrogate pair
    return f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}"


def json_safe(document: str) -> str:
    """A JSON text (from ``json.dumps(..., ensure_ascii=False)``) with those characters as ``\\u`` escapes.

    The encoder has escaped the C0 controls already.  Outside strings a JSON
    text holds only ASCII punctuation, digits, letters and white space, so
    every other such character is inside a string, where its escape means the
    same character: the decoded document is unchanged.
    """
    return document if _JSON_UNSAFE.search(document) is None else _JSON_UNSAFE.sub(_json_escape, document)


#: the longest name (a dealer's, a patron's, a table's) a finding carries as it is written
MAX_NAME = 256


#: the end of a name cut by :func:`bounded_name`: a name written so is cut too, so that no one's name as written is
#: another's as cut
_CUT = re.compile(r"… \([0-9,]+ characters, sha256 [0-9a-f]{12}\)\Z")


@functools.lru_cache(maxsize=256)
def bounded_name(name: str) -> str:
    """A name as findings carry it: as written up to :data:`MAX_NAME` characters; a longer one cut to its start,
    its length and the start of its SHA-256 (two long names alike at the start stay two names), so a report
    holds each field within a bound whatever the evidence writes.  For display only: identity compares names
    whole.  A name that already reads as one cut is cut too (its own length and digest), so that it is never
    shown as the cut name of another."""
    if len(name) <= MAX_NAME and (not name.endswith(")") or _CUT.search(name) is None):
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{name[:MAX_NAME - 50]}… ({len(name):,} characters, sha256 {digest})"


def bounded_staff(staff: tuple) -> tuple:
    """(role, name) pairs with each name as findings carry it (:func:`bounded_name`)."""
    return tuple((role, bounded_name(name)) for role, name in staff)


def decimal_text(d) -> str:
    """A Decimal as a person writes it: 0.05, 19, never 0.0500 or 1.9E+1."""
    text = f"{d:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
