"""Headless Chromium for the HTML report test: the system's `chromium`, found, never installed here.

Tests do not change the machine they run on: `make browser` installs Debian's
`chromium` (apt-get, as root or through sudo); without it the browser tests
are skipped with that reason.  Playwright (the `test` extra) drives the
system's browser; it downloads no browser of its own.
"""

from __future__ import annotations

import shutil

CANDIDATES = ("chromium", "chromium-browser")
MISSING = ("chromium is not installed: `make browser` installs it (apt-get install chromium); "
           "the HTML report is then checked in headless Chromium")


def find() -> str | None:
    """The system browser's path, or None."""
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None
