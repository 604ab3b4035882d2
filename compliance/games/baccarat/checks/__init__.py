"""Baccarat's check kinds, one module an area; importing this package registers them all."""

from compliance.games.baccarat.checks import (  # noqa: F401
    calls,
    curator,
    dealing,
    drawing,
    irregularity,
    result,
    settlement,
    shoe,
    wagers,
)
