"""Fixtures shared by the test modules.

Tests never change the machine: the engine keeps validated rulesets in the
user's cache directory (``compliance.ruleset.cache``), so the whole run,
subprocesses included, writes its cache into a temporary directory instead.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile

import pytest

from compliance import limits


@pytest.fixture
def bounds():
    """Size limits for one test (``bounds(line=4096)``, bytes by kind): the defaults, with those kinds changed,
    to hand to what reads a file (nothing else sees them)."""
    return lambda **kinds: dataclasses.replace(limits.DEFAULTS, **kinds)


@pytest.fixture(scope="session", autouse=True)
def _cache_directory():
    """The ruleset cache of the test run: a temporary directory, removed at the end."""
    directory = tempfile.mkdtemp(prefix="baccarat-audit-test-cache-")
    saved = {k: os.environ.get(k) for k in ("BACCARAT_AUDIT_CACHE_DIR", "BACCARAT_AUDIT_NO_CACHE",
                                            "BACCARAT_AUDIT_CACHE_KEY")}
    os.environ["BACCARAT_AUDIT_CACHE_DIR"] = os.path.join(directory, "cache")
    os.environ["BACCARAT_AUDIT_CACHE_KEY"] = os.path.join(directory, "key", "cache.key")  # outside the cache
    os.environ.pop("BACCARAT_AUDIT_NO_CACHE", None)
    yield os.environ["BACCARAT_AUDIT_CACHE_DIR"]
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """A cache directory of the test's own (rulesets/, odds/), the cache turned on."""
    d = tmp_path / "cache"
    monkeypatch.setenv("BACCARAT_AUDIT_CACHE_DIR", str(d))
    monkeypatch.delenv("BACCARAT_AUDIT_NO_CACHE", raising=False)
    return d
