"""The run's hold against theory, as a game's integrity stage judged it, for the reports."""

from __future__ import annotations

from decimal import Decimal


def hold_percent(x: Decimal) -> str:
    """A hold (a fraction) as a percentage to two places: ``2.86%``."""
    return f"{(x * 100).quantize(Decimal('0.01'))}%"


def hold_view(results: list):
    """The run's hold against theory (:class:`compliance.games.integrity.HoldView`), where a game's integrity stage
    judged it (one view for the whole run, on each of its transcripts); None otherwise."""
    for r in results:
        view = getattr(getattr(r, "integrity", None), "hold_view", None)
        if view is not None:
            return view
    return None
