"""Coups that cannot be read or replayed."""

from __future__ import annotations

from compliance.checks import check


@check("transcript.unreadable", "transcript.unreadable", game=None)
def unreadable(c, p, t):
    """A coup that cannot be decoded or replayed is reported with the reason and its place;
    the coups after it are still checked.  The engine reports these findings itself, before
    any coup state exists, so this function never has anything to add."""
    return ()
