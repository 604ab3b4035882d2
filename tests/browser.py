"""Headless Chromium for the HTML report test: Debian's `chromium`, installed here when missing.

The test set-up installs the package with apt-get when it is absent and this
process may (root, apt-get present); anywhere else the browser tests are
skipped with the reason.  Playwright (the `test` extra) drives the system's
browser; it downloads no browser of its own.
"""

from __future__ import annotations

import os
import shutil
import subprocess

CANDIDATES = ("chromium", "chromium-browser")


def find() -> str | None:
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


def install() -> tuple[str | None, str]:
    """The browser's path, installing Debian's chromium when missing; else None and why not."""
    path = find()
    if path:
        return path, ""
    if shutil.which("apt-get") is None:
        return None, "chromium is not installed and this system has no apt-get to install it"
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        return None, "chromium is not installed and installing it needs root (apt-get install chromium)"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    try:
        subprocess.run(["apt-get", "update", "-qq"], env=env, check=True, capture_output=True, timeout=600)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], env=env,
                       check=True, capture_output=True, timeout=900)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
        detail = getattr(e, "stderr", b"") or b""
        return None, f"apt-get could not install chromium: {e} {detail.decode(errors='replace')[-300:]}"
    path = find()
    return (path, "") if path else (None, "apt-get installed chromium but no chromium command was found")
