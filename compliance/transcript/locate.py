"""Find where an event sits in a coup's JSON text, only when a finding needs it."""

from __future__ import annotations

import re

_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\],:]')


def event_offsets(raw: bytes) -> list[int]:
    """Byte offsets of the elements of the coup's ``events`` array."""
    depth = 0
    expect_events = False
    in_events = False
    offsets: list[int] = []
    previous = b""
    for m in _TOKEN.finditer(raw):
        tok = m.group()
        first = tok[:1]
        if first in (b"{", b"["):
            if in_events and depth == 2 and previous in (b"[", b","):
                offsets.append(m.start())
            if expect_events and first == b"[" and depth == 1:
                in_events = True
            depth += 1
            expect_events = False
        elif first in (b"}", b"]"):
            depth -= 1
            if in_events and depth == 1:
                in_events = False
        elif first == b":":
            pass
        else:  # a string or a comma
            expect_events = depth == 1 and tok == b'"events"' and previous != b":"
        previous = tok if first != b'"' else b'"'
    return offsets


def position(raw: bytes, line: int, column: int, offset: int) -> tuple[int, int]:
    """Line and column of ``offset`` in a coup that starts at (line, column)."""
    newlines = raw.count(b"\n", 0, offset)
    if not newlines:
        return line, column + offset
    return line + newlines, offset - raw.rfind(b"\n", 0, offset)
