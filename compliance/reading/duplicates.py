"""Duplicate keys in a JSON object are an error, never "the last one wins".

:func:`message` says where a coup's text repeats a key (``None`` if it does not), and
:func:`top_level_message` does it for a header; :func:`has_duplicates` is the fast test
run on every coup (fewer colons in the re-encoding than in the text), :func:`find` the
exact parse that keeps every pair.  A header with a duplicate stops the file (exit 2); a
coup with one is an unreadable coup.

Why, and what the fast path costs: docs/security.md, "In more detail" (Duplicate keys).
"""

from __future__ import annotations

import json

import msgspec

#: the longest key quoted in a message (a key can be megabytes long)
MAX_QUOTED = 64

_generic = msgspec.json.Decoder()
_encode = msgspec.json.Encoder().encode


class _Pairs(list):
    """A JSON object as the list of its (key, value) pairs, every one kept."""


def has_duplicates(raw: bytes, decoded=None) -> bool:
    """Does any object in this JSON text repeat a key?

    ``decoded``, the text as the validating decoder read it (a struct of
    :mod:`compliance.transcript.codec`), makes the usual answer cheaper still.
    Encoded again, such a struct leaves out every field at its default, so it
    holds a subset of the text's pairs, each key once; and with no backslash
    its strings are the text's own bytes.  Its colons are then those of the
    pairs it kept, and the text has as many only if it dropped none: no key
    was repeated.  Otherwise (a pair written at its default value, ``x-``
    keys, a repeat) the test below decides.
    """
    if b"\\" not in raw:
        if decoded is not None and raw.count(b":") == _encode(decoded).count(b":"):
            return False
        try:
            return raw.count(b":") != _encode(_generic.decode(raw)).count(b":")
        except (msgspec.DecodeError, RecursionError, OverflowError, ValueError, TypeError):
            pass
    return find(raw) is not None


def find(raw: bytes, base: str = "$") -> tuple[str, str] | None:
    """The first repeated key (in document order) and the JSON path of its object, or None."""
    try:
        tree = json.loads(raw, object_pairs_hook=_Pairs)
    except (ValueError, RecursionError):
        return None
    stack = [(tree, base)]
    while stack:
        node, path = stack.pop()
        if isinstance(node, _Pairs):
            seen = set()
            for key, _ in node:
                if key in seen:
                    return key, path
                seen.add(key)
            children = [(value, f"{path}.{key}") for key, value in node]
        elif isinstance(node, list):
            children = [(value, f"{path}[{i}]") for i, value in enumerate(node)]
        else:
            continue
        stack.extend(reversed(children))
    return None


def quoted(key: str, limit: int = MAX_QUOTED) -> str:
    """A key as a message quotes it: its first ``limit`` characters, and how long it is when it is longer."""
    return key if len(key) <= limit else f"{key[:limit]}… ({len(key):,} characters)"


def message(raw: bytes, base: str = "$", decoded=None) -> str | None:
    """``duplicate key `amount` - at `$.coups[3].events[2]``` when ``raw`` repeats a key, else None
    (``decoded``: see :func:`has_duplicates`)."""
    if not has_duplicates(raw, decoded):
        return None
    found = find(raw, base)
    if found is None:  # cannot happen for text the decoder accepted; say what is known
        return f"duplicate key - at `{base}`"
    key, path = found
    return f"duplicate key `{quoted(key)}` - at `{quoted(path, 4 * MAX_QUOTED)}`"


def top_level_message(data: bytes, top: dict, base: str = "$") -> str | None:
    """A repeated key of the document's top-level object, whose values ``top`` holds as ``msgspec.Raw``.

    The document's colons are those inside its values plus one a key (when no key holds a colon), so
    fewer values than that means a key was repeated.  Keys holding a colon take the exact path.
    """
    if any(":" in k for k in top):
        found = find(data, base)
        return None if found is None or found[1] != base else f"duplicate key `{quoted(found[0])}` - at `{base}`"
    keys = data.count(b":") - sum(bytes(v).count(b":") for v in top.values())
    if keys == len(top):
        return None
    found = find(data, base)
    key = found[0] if found is not None and found[1] == base else "?"
    return f"duplicate key `{quoted(key)}` - at `{base}`"
