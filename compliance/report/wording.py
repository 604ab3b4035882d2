"""Counts and lists in the words every report format shares: ``3 coups``, ``A, B and 14 more``."""

from __future__ import annotations

#: ids listed in a line; the rest are counted
LISTED = 12


def plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n:,} {word if n == 1 else plural or word + 's'}"


def listed(ids: list[str]) -> str:
    shown = ", ".join(ids[:LISTED])
    return shown + (f" and {len(ids) - LISTED:,} more" if len(ids) > LISTED else "")
