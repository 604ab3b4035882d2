"""Bounds on everything the tool reads, applied before it is parsed.

:func:`read_input` and :func:`read_text` read a file of one kind (``transcript``, ``line``, ``stream``,
``markdown``, ``ruleset``, ``mapping``, ``waivers``, ``baseline``, ``config``) within that kind's size
limit, from the run's :class:`Limits` (:data:`DEFAULTS`; the configuration raises them, and a run hands
them down in its context); :func:`yaml` and :func:`measure` bound a YAML document's nesting and aliases
before a value is built; :func:`exact_float`, :func:`fine_figure` and :func:`money_figure` bound the
figures read.  A file past a bound is one error with its place, never a traceback.

Every bound, its default, and what each hostile input costs: docs/reliability.md, "The bounds".
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from dataclasses import dataclass, fields, replace
from pathlib import Path

from compliance.errors import UserError, Where

MB = 1 << 20
#: how deep a YAML or JSON document (other than a transcript's coups, which msgspec bounds) may nest
MAX_DEPTH = 40
#: a YAML document's aliases may expand it to this many times its size (values and characters) ...
EXPANSION = 4
#: ... and a small document's to this many
MIN_EXPANSION = 100_000
#: digits of an integer written in a file: Python's limit on converting text to int (sys.int_info)
MAX_INT_DIGITS = sys.int_info.default_max_str_digits


@dataclass(frozen=True)
class Limits:
    """Size limits in bytes, by kind of file (see the module's table)."""

    transcript: int = 256 * MB
    line: int = 16 * MB
    stream: int = 64 * MB
    markdown: int = 64 * MB
    ruleset: int = 256 * 1024
    mapping: int = 256 * 1024
    waivers: int = 32 * MB
    baseline: int = 64 * MB
    config: int = 1 * MB

    @classmethod
    def raised(cls, megabytes: dict[str, int] | None = None) -> Limits:
        """The defaults, with the kinds the configuration raises (``{kind: megabytes}``)."""
        return replace(cls(), **{kind: mb * MB for kind, mb in (megabytes or {}).items()})


#: the kinds the configuration may raise (``limits:``, in megabytes)
CONFIGURABLE = tuple(f.name for f in fields(Limits) if f.name != "config")
DEFAULTS = Limits()

#: what each kind is called in messages
NOUN = {"transcript": "a .json transcript", "line": "a .jsonl line", "stream": "an input that is not a regular file",
        "markdown": "a Markdown document", "ruleset": "a ruleset",
        "mapping": "a mapping or an import's header file", "waivers": "a waivers file",
        "baseline": "a baseline file", "config": "a configuration file"}


def limit(kind: str, bounds: Limits = DEFAULTS) -> int:
    return getattr(bounds, kind)


def megabytes(n: int) -> str:
    """``64 MB``, ``256 KB``: a limit as people say it."""
    if n >= MB:
        return f"{n / MB:,.0f} MB" if n % MB == 0 or n >= 10 * MB else f"{n / MB:,.1f} MB"
    return f"{n // 1024:,} KB" if n % 1024 == 0 else f"{n:,} bytes"


def too_large(kind: str, size: int | None = None, bounds: Limits = DEFAULTS) -> str:
    """The message for a file over its kind's limit: the limit, and how to raise it."""
    n = limit(kind, bounds)
    said = f"{megabytes(size)}: " if size is not None else ""
    how = ("" if kind not in CONFIGURABLE else
           f"; raise it with `limits: {{{kind}: MEGABYTES}}` in the configuration")
    return f"{said}larger than the limit of {megabytes(n)} for {NOUN[kind]}{how}"


def os_reason(e: OSError) -> str:
    """An OSError in a few words: a symlink loop, a directory, no permission, ..."""
    if e.errno == errno.ELOOP:
        return "cannot read: a symbolic link loop"
    if e.errno == errno.EISDIR:
        return "is a directory"
    return f"cannot read: {e.strerror or e}"


def regular_size(path: str | Path, display: str, missing: str = "no such file") -> int | None:
    """The size of a regular file, None for anything else that can be read (a pipe, a device).

    Raises :class:`UserError` for what cannot be read at all: nothing there, a
    symlink loop, a directory.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise UserError(missing, display) from None
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the path
        raise UserError(os_reason(e) if isinstance(e, OSError) else f"cannot read: {e}", display) from None
    if stat.S_ISDIR(st.st_mode):
        raise UserError("is a directory", display)
    return st.st_size if stat.S_ISREG(st.st_mode) else None


def read_input(path: str | Path, kind: str, display: str | None = None, missing: str = "no such file",
               bounds: Limits = DEFAULTS) -> bytes:
    """The bytes of ``path``, refused (one :class:`UserError`) when over the limit of ``kind``.

    A regular file is measured before it is read; anything else is read up to
    the smaller of its kind's limit and the ``stream`` limit, and refused past it.
    """
    display = display or str(path)
    size = regular_size(path, display, missing)
    n = limit(kind, bounds) if size is not None else min(limit(kind, bounds), limit("stream", bounds))
    if size is not None and size > n:
        raise UserError(too_large(kind, size, bounds), display)
    try:
        with open(path, "rb") as f:
            data = read_from(f, size, n)
    except OSError as e:
        raise UserError(os_reason(e), display) from None
    if len(data) > n:
        kind = kind if size is not None or limit(kind, bounds) <= limit("stream", bounds) else "stream"
        raise UserError(too_large(kind, None, bounds), display)
    return data


def read_from(f, size: int | None, n: int) -> bytes:
    """At most ``n + 1`` bytes of the open file ``f`` (``size``: its size when it is a regular file, None for a
    pipe or a device).  Never asks for more memory than the input holds: a regular file is read by its size,
    anything else a megabyte at a time."""
    if size is not None:
        return f.read(min(size, n) + 1)
    chunks, total = [], 0
    while total <= n:
        chunk = f.read(min(MB, n + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def decode_text(data: bytes, display: str, what: str = "text") -> str:
    """UTF-8 text (a leading byte order mark dropped); a bad byte is reported with its line and column."""
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as e:
        at = e.start
        line = body.count(b"\n", 0, at) + 1
        start = body.rfind(b"\n", 0, at) + 1
        column = len(body[start:at].decode("utf-8", "replace")) + 1
        raise UserError(f"not UTF-8 {what}: byte 0x{body[at]:02x}", Where(display, line, column)) from None


def read_text(path: str | Path, kind: str, display: str | None = None, missing: str = "no such file",
              bounds: Limits = DEFAULTS) -> str:
    """:func:`read_input` decoded as UTF-8 by :func:`decode_text`."""
    display = display or str(path)
    return decode_text(read_input(path, kind, display, missing, bounds), display)


def lone_surrogate(text: str) -> int | None:
    """Index of the first lone surrogate in ``text`` (not a character: it cannot be written as UTF-8), or None."""
    try:
        text.encode("utf-8")
        return None
    except UnicodeEncodeError as e:
        return e.start


# ------------------------------------------------------------------ YAML


class YamlBound(Exception):
    """A YAML document over one of the bounds; ``line``/``column`` are 1-based, 0 when unknown."""

    def __init__(self, message: str, line: int = 0, column: int = 0):
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


def _mark(node) -> tuple[int, int]:
    m = getattr(node, "start_mark", None)
    return (m.line + 1, m.column + 1) if m is not None else (0, 0)


def measure(root, allowed: int, max_depth: int = MAX_DEPTH) -> None:
    """Refuse (:class:`YamlBound`) a composed YAML node graph nested too deep, or holding more than
    ``allowed`` values or ``allowed`` characters once its aliases are expanded.

    Aliases are the same node object reached twice, so each node's expanded
    size is worked out once (memoised): linear in the document, never in its
    expansion.  Merge keys (``<<: *a``) are mapping values like any other.
    """
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

    size: dict[int, tuple[int, int]] = {}  # id(node) -> (values, characters) it stands for, expanded
    on_path: set[int] = set()
    stack: list[tuple[object, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            children = node.value if isinstance(node, SequenceNode) else [c for kv in node.value for c in kv]
            values, chars = 1, 0
            for c in children:
                v, n = size[id(c)]
                values += v
                chars += n
            if values > allowed or chars > allowed:
                raise YamlBound(f"too large once its aliases are expanded: more than {allowed:,} values or "
                                "characters (an alias bomb?)", *_mark(node))
            size[key] = (values, chars)
            continue
        if key in size:
            continue
        if isinstance(node, ScalarNode):
            size[key] = (1, len(node.value))
            continue
        if not isinstance(node, (SequenceNode, MappingNode)):
            size[key] = (1, 0)
            continue
        if depth > max_depth:
            raise YamlBound(f"nested more than {max_depth} levels deep", *_mark(node))
        on_path.add(key)
        stack.append((node, depth, True))
        children = node.value if isinstance(node, SequenceNode) else [c for kv in node.value for c in kv]
        for child in children:
            if id(child) in on_path:
                raise YamlBound("an alias refers to the node that holds it (a recursive document)", *_mark(child))
            if id(child) not in size:
                stack.append((child, depth + 1, False))


def expansion_allowed(text: str) -> int:
    """Values (and characters) a document may hold once its aliases are expanded: four times its size, and
    never less than :data:`MIN_EXPANSION`."""
    return max(MIN_EXPANSION, EXPANSION * len(text))


def yaml(allowed: int, typ: str = "rt"):
    """A ruamel.yaml loader that measures each document (:func:`measure`) before it builds a single object
    from it; dates are left as text (an impossible date is then a bad value in its place, not a crash), and
    duplicate keys are errors."""
    from ruamel.yaml import YAML
    from ruamel.yaml.constructor import RoundTripConstructor, SafeConstructor

    base = RoundTripConstructor if typ == "rt" else SafeConstructor

    class Bounded(base):
        def construct_document(self, node):
            measure(node, allowed)
            return super().construct_document(node)

        def construct_yaml_timestamp(self, node, values=None):
            return str(self.construct_scalar(node))

        def construct_yaml_float(self, node):
            return exact_float(str(self.construct_scalar(node)))

    Bounded.add_constructor("tag:yaml.org,2002:timestamp", Bounded.construct_yaml_timestamp)
    Bounded.add_constructor("tag:yaml.org,2002:float", Bounded.construct_yaml_float)
    loader = YAML(typ=typ, pure=True)
    loader.Constructor = Bounded
    loader.allow_duplicate_keys = False
    return loader


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


def flow_depth(text: str | bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` (brackets inside strings count too: a bound, not a parse)."""
    import re

    pattern = re.compile(rb"[\[\]{}]" if isinstance(text, bytes) else r"[\[\]{}]")
    opening = (b"[", b"{") if isinstance(text, bytes) else ("[", "{")
    depth = deepest = 0
    for m in pattern.finditer(text):
        if m.group() in opening:
            depth += 1
            if depth > deepest:
                deepest = depth
        elif depth:
            depth -= 1
    return deepest
