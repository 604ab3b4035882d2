"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest

from compliance import limits


@pytest.fixture
def bounds():
    """Set size limits (``bounds(line=4096)``, bytes by kind) for one test; the defaults are back after it."""
    yield lambda **kinds: limits.configure(kinds)
    limits.configure()
