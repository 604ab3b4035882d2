"""Baccarat's check kinds, one module an area; importing this package registers them all."""

from compliance.games.baccarat.checks import (  # noqa: F401
    calls,
    curator,
    dealing,
    drawing,
    integrity,
    irregularity,
    record,
    result,
    settlement,
    shoe,
    wagers,
)
