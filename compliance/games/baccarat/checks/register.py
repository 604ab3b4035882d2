"""How a module of baccarat's check kinds registers one: :func:`compliance.checks.check`, for baccarat's coups."""

import functools

from compliance import checks
from compliance.registry import BACCARAT

check = functools.partial(checks.check, game=BACCARAT)
