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


# ------------------------------------------------------------------ a JSON path in a document

_PATH_PART = re.compile(r'\.([^.\[`]+)|\[(\d+)\]')
_SPACE = b" \t\r\n"


def parse_path(path: str) -> list[str | int] | None:
    """``$.table.limits`` or ``$.shoes[0].id`` (msgspec's error paths) as keys and indexes; None if not one."""
    if not path.startswith("$"):
        return None
    parts: list[str | int] = []
    at = 1
    for m in _PATH_PART.finditer(path, 1):
        if m.start() != at:
            return None
        parts.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        at = m.end()
    return parts if at == len(path) else None


def _skip_space(raw: bytes, i: int) -> int:
    while i < len(raw) and raw[i] in _SPACE:
        i += 1
    return i


def _value_end(raw: bytes, i: int) -> int:
    """Where the JSON value starting at ``i`` ends (one past it)."""
    if raw[i:i + 1] == b'"':
        m = _TOKEN.match(raw, i)
        return m.end() if m else len(raw)
    if raw[i:i + 1] in (b"{", b"["):
        depth = 0
        for m in _TOKEN.finditer(raw, i):
            tok = m.group()[:1]
            if tok in (b"{", b"["):
                depth += 1
            elif tok in (b"}", b"]"):
                depth -= 1
                if depth == 0:
                    return m.end()
        return len(raw)
    j = i
    while j < len(raw) and raw[j:j + 1] not in (b",", b"}", b"]") and raw[j] not in _SPACE:
        j += 1
    return j


def _members(raw: bytes, i: int):
    """(key, key offset, value offset) of the members of the object at ``i``."""
    import json

    i = _skip_space(raw, i + 1)
    while i < len(raw) and raw[i:i + 1] == b'"':
        m = _TOKEN.match(raw, i)
        if not m:
            return
        try:
            key = json.loads(m.group())
        except ValueError:
            return
        j = _skip_space(raw, m.end())
        if raw[j:j + 1] != b":":
            return
        value = _skip_space(raw, j + 1)
        yield key, i, value
        i = _skip_space(raw, _value_end(raw, value))
        if raw[i:i + 1] != b",":
            return
        i = _skip_space(raw, i + 1)


def _elements(raw: bytes, i: int):
    i = _skip_space(raw, i + 1)
    while i < len(raw) and raw[i:i + 1] != b"]":
        yield i
        i = _skip_space(raw, _value_end(raw, i))
        if raw[i:i + 1] != b",":
            return
        i = _skip_space(raw, i + 1)


def path_offset(raw: bytes, path: list[str | int], key: str | None = None) -> int | None:
    """Byte offset in the JSON text ``raw`` of the value at ``path`` (or, given ``key``, of that key in the
    object there); None when the text does not hold it."""
    i = _skip_space(raw, 0)
    for part in path:
        if isinstance(part, str):
            if raw[i:i + 1] != b"{":
                return None
            i = next((v for k, _, v in _members(raw, i) if k == part), None)
        else:
            if raw[i:i + 1] != b"[":
                return None
            i = next((v for n, v in enumerate(_elements(raw, i)) if n == part), None)
        if i is None:
            return None
    if key is None:
        return i
    if raw[i:i + 1] != b"{":
        return None
    return next((at for k, at, _ in _members(raw, i) if k == key), None)


def line_column(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column of a byte offset."""
    return data.count(b"\n", 0, offset) + 1, offset - data.rfind(b"\n", 0, offset)
