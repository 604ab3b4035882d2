"""The user's cache directory: what baccarat-audit keeps between runs.

Two things are kept there, each in a folder of its own: validated rulesets
(``rulesets/``, :mod:`compliance.ruleset.cache`) and the exact outcome counts
of a full shoe under a tableau (``odds/``, which the integrity stage compares
each shoe with: :func:`compliance.games.baccarat.odds.coup_odds`).  Both are
only ever a shortcut: an entry is used when it is whole and was made from what
it would be made from now, and is otherwise made again and written anew.

The directory is ``$BACCARAT_AUDIT_CACHE_DIR``, else
``$XDG_CACHE_HOME/baccarat-audit``, else ``~/.cache/baccarat-audit``.  It is
turned off by ``BACCARAT_AUDIT_NO_CACHE=1``, by ``check --no-cache`` and by
``cache = false`` in the configuration (those two are the run context's
``cache``, :class:`compliance.context.RunContext`, which every user of the
cache is handed: nothing here is switched for the process).  Writing is atomic (a temporary file renamed), and a cache that
cannot be written is skipped.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

import compliance

ENV_DIR = "BACCARAT_AUDIT_CACHE_DIR"
ENV_OFF = "BACCARAT_AUDIT_NO_CACHE"
#: marks the directory as a cache for backup tools (https://bford.info/cachedir/)
CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                "# This file is a cache directory tag created by baccarat-audit.\n")

def disabled_by_environment() -> bool:
    """``BACCARAT_AUDIT_NO_CACHE`` set to anything but ``0``, ``false`` or ``no``."""
    return os.environ.get(ENV_OFF, "").strip().lower() not in ("", "0", "false", "no")


def directory() -> Path | None:
    """The cache's directory (``None`` when there is no home to put it in)."""
    explicit = os.environ.get(ENV_DIR)
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):  # a relative XDG_CACHE_HOME is to be ignored (XDG base directory spec)
        return Path(xdg) / "baccarat-audit"
    try:
        return Path.home() / ".cache" / "baccarat-audit"
    except RuntimeError:
        return None


def root(enabled: bool = True) -> Path | None:
    """The directory to use: None when the run's context turns the cache off (``enabled`` false), when the
    environment does, or when there is no home for it."""
    if not enabled or disabled_by_environment():
        return None
    return directory()


def write_atomic(entry: Path, data: bytes) -> None:
    """Write ``entry`` (under :func:`directory`) whole or not at all, tagging the cache directory; any
    failure to write leaves the cache as it was (OSError is the caller's to ignore)."""
    entry.parent.mkdir(parents=True, exist_ok=True)
    tag = entry.parent.parent / "CACHEDIR.TAG"
    if not tag.exists():
        tag.write_text(CACHEDIR_TAG, encoding="utf-8")
    tmp = entry.with_name(f".{entry.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, entry)
    finally:
        tmp.unlink(missing_ok=True)


@functools.cache
def code_fingerprint() -> str:
    """The package's version and the size and modification time of each of its modules: an entry made by
    other code (another version, an edited check kind or model) is never used."""
    h = hashlib.sha256(f"{compliance.__version__}\0".encode())
    top = os.path.dirname(os.path.abspath(compliance.__file__))
    for here, dirs, names in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if name.endswith(".py"):
                st = os.stat(os.path.join(here, name))
                h.update(f"{os.path.relpath(os.path.join(here, name), top)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()
