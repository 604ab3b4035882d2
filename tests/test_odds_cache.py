"""The exact odds the integrity stage compares shoes with are kept in the user's cache (issue 17).

Enumerating a full shoe under a tableau takes a fifth of a second, many times
what checking a night's recording does, so the counts are kept between runs
(``odds/`` in the cache directory, beside the validated rulesets).  As with the
rulesets, nothing in that file is trusted: an entry is used only if it was made
by this code for this tableau and number of decks and its counts are whole
(every ordered deal of six cards counted once); a corrupt, stale or foreign
entry is worked out again and written anew, and ``--no-cache`` gives the same
findings without reading or writing the cache.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compliance import cachedir
from compliance.cli import app
from compliance.games.baccarat import odds
from compliance.ruleset.loader import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_NUGGET = ROOT / "fixtures" / "rules" / "us-nj" / "shoe-decks-in-the-same-order.json"
PRESET = ROOT / "fixtures" / "rules" / "us-nj" / "shoe-preset-for-the-banker.json"
KEY = odds.tableau_key(load_ruleset("us-nj").game.tableau)


@pytest.fixture
def enumerations(monkeypatch):
    """Counts the shoes enumerated (the others came from the cache)."""
    calls = []
    real = odds.enumerate_counts.__wrapped__

    def counting(key, decks):
        calls.append(decks)
        return real(key, decks)

    monkeypatch.setattr(odds, "enumerate_counts", counting)
    return calls


def odds_entries(d: Path) -> list[Path]:
    return sorted((d / "odds").glob("*.json")) if (d / "odds").exists() else []


def test_a_shoe_is_enumerated_once_and_then_read_from_the_cache(cache_dir, enumerations):
    first = odds.shoe_counts(KEY, 8)
    (entry,) = odds_entries(cache_dir)
    assert odds.shoe_counts(KEY, 8) == first and enumerations == [8]
    assert sum(n for _, n in first) == math.perm(416, 6)
    odds.shoe_counts(KEY, 6)  # another number of decks: an entry of its own
    assert enumerations == [8, 6] and len(odds_entries(cache_dir)) == 2


def _content(entry: Path) -> bytes:
    return entry.read_bytes().partition(b"\n")[2]  # after the line of its authentication code


def _rows(entry: Path) -> list:
    return json.loads(_content(entry))


def _put(entry: Path, content: bytes | str) -> None:
    """Write an entry authenticated with this user's key, as if this user's tool had written it wrong (a bug, a
    disk): what is tested is what comes after the authentication (tests/test_cache_security.py: without the key)."""
    content = content.encode() if isinstance(content, str) else content
    entry.write_bytes(cachedir._mac(cachedir._key(create=False), f"odds/{entry.name}", content) + b"\n" + content)


CORRUPTIONS = {
    "empty": lambda e: _put(e, b""),
    "not JSON": lambda e: _put(e, b"{not json"),
    "cut short": lambda e: _put(e, _content(e)[:-40]),
    "a count changed": lambda e: _put(e, json.dumps([r[:4] + [r[4] + 1] if i == 0 else r
                                                     for i, r in enumerate(_rows(e))])),
    "a row dropped": lambda e: _put(e, json.dumps(_rows(e)[1:])),
    "a row twice": lambda e: _put(e, json.dumps(_rows(e)[:1] + _rows(e))),
    "a count as a float": lambda e: _put(e, json.dumps([r[:4] + [float(r[4])] if i == 0 else r
                                                        for i, r in enumerate(_rows(e))])),
    "a point count of 10": lambda e: _put(e, json.dumps([[10] + r[1:] if i == 0 else r
                                                         for i, r in enumerate(_rows(e))])),
    "not a list": lambda e: _put(e, '{"banker": 0.4586}'),
    "not signed": lambda e: e.write_bytes(_content(e)),
}


@pytest.mark.parametrize("corruption", CORRUPTIONS)
def test_a_corrupt_odds_entry_is_worked_out_again_and_rewritten(cache_dir, enumerations, corruption):
    good = odds.shoe_counts(KEY, 8)
    (entry,) = odds_entries(cache_dir)
    whole = entry.read_bytes()
    CORRUPTIONS[corruption](entry)
    assert odds.shoe_counts(KEY, 8) == good
    assert enumerations == [8, 8]
    assert entry.read_bytes() == whole


def test_an_entry_made_by_other_code_is_not_used(cache_dir, enumerations, monkeypatch):
    odds.shoe_counts(KEY, 8)
    monkeypatch.setattr(cachedir, "code_fingerprint", lambda: "another build")
    odds.shoe_counts(KEY, 8)
    assert enumerations == [8, 8] and len(odds_entries(cache_dir)) == 2


def check(*args: str):
    """The command as a new process runs it: nothing remembered but the user's cache."""
    odds._coup_odds.cache_clear()
    return CliRunner().invoke(app, ["check", *args, "-f", "json", "--timestamp", "2026-11-29T00:00:00Z"])


def test_no_cache_reads_and_writes_nothing_and_finds_the_same(cache_dir):
    for path in (GOLDEN_NUGGET, PRESET):
        cached = check(str(path))
        assert odds_entries(cache_dir)
        again = check(str(path))  # this time from the cache
        for entry in odds_entries(cache_dir):
            _put(entry, "[]")  # were the cache read now, the odds would be worked out and rewritten
        plain = check("--no-cache", str(path))
        assert cached.exit_code == again.exit_code == plain.exit_code != 2
        assert cached.stdout == again.stdout == plain.stdout
        assert '"integrity.' in plain.stdout  # the whole-shoe finding the fixture is named after
        assert all(_content(e) == b"[]" for e in odds_entries(cache_dir)), "--no-cache wrote to the cache"
        for entry in odds_entries(cache_dir):
            entry.unlink()


def test_the_environment_turns_the_odds_cache_off(cache_dir, monkeypatch):
    monkeypatch.setenv("BACCARAT_AUDIT_NO_CACHE", "1")
    odds.shoe_counts(KEY, 8)
    assert not odds_entries(cache_dir)
