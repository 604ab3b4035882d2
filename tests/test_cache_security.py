"""The user's cache can never change a verdict, and is no way into the file system (issue 24, section 5).

Each attack on the cache directory, tried against the bundled sample (6 errors, exit 1): the verdict stays 6
errors with exit 1, the ruleset hash the report prints is that of the ruleset files as they are, and nothing
outside the cache is created or written.  An entry is used only when it is a regular file of the user's, in
folders of the user's that not every user may write, and authenticated with the user's key
(``compliance.cachedir``); anything else is passed over with one note, and made again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from compliance import cachedir
from compliance.games.baccarat import odds
from compliance.ruleset import cache
from compliance.ruleset.loader import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "fixtures" / "samples" / "night-shift.json"
GENUINE = load_ruleset("us-nj").sha256
ATTACKER_KEY = b"k" * 32  # anyone's but the user's
KEY = odds.tableau_key(load_ruleset("us-nj").game.tableau)


@pytest.fixture
def cache_env(tmp_path, monkeypatch):
    """A cache directory and a key of the test's own (the key outside the cache), for this process and the
    commands it starts; every note may be said again."""
    d, key = tmp_path / "cache", tmp_path / "state" / "cache.key"
    monkeypatch.setenv("BACCARAT_AUDIT_CACHE_DIR", str(d))
    monkeypatch.setenv("BACCARAT_AUDIT_CACHE_KEY", str(key))
    monkeypatch.delenv("BACCARAT_AUDIT_NO_CACHE", raising=False)
    monkeypatch.setattr(cachedir, "_said", set())
    odds._coup_odds.cache_clear()
    return d


def audit(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    r = subprocess.run([sys.executable, "-m", "compliance", "check", str(SAMPLE), "-f", "json", "-j", "1", *args],
                       capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert "Traceback" not in r.stderr and "MemoryError" not in r.stderr, r.stderr
    return r


def verdict(r: subprocess.CompletedProcess) -> tuple[int, list[str], str]:
    """Exit status, the severities of the findings, and the ruleset hash the report prints."""
    report = json.loads(r.stdout)
    return r.returncode, [f["severity"] for f in report["findings"]], report["rulesets"][0]["sha256"]


SIX_ERRORS = (1, ["error"] * 6, GENUINE)


def ruleset_entries(d: Path) -> list[Path]:
    return sorted((d / "rulesets").glob("*.json"))


def odds_entries(d: Path) -> list[Path]:
    return sorted((d / "odds").glob("*.json"))


def plant(entry: Path, content: bytes) -> None:
    """What an attacker can write: the content, with an authentication code under a key that is not the user's."""
    name = entry.relative_to(entry.parent.parent).as_posix()
    mac = hmac.new(ATTACKER_KEY, name.encode() + b"\0" + content, hashlib.sha256).hexdigest().encode()
    entry.write_bytes(mac + b"\n" + content)


def content(entry: Path) -> bytes:
    return entry.read_bytes().partition(b"\n")[2]


# ------------------------------------------------------------------ planted and forged entries


@pytest.mark.slow  # real processes or large inputs: make test-slow
def test_a_planted_ruleset_entry_with_rules_removed_is_not_used(cache_env):
    assert verdict(audit()) == SIX_ERRORS  # fills the cache
    (entry,) = ruleset_entries(cache_env)
    head, _, body = content(entry).partition(b"\n")
    doc = json.loads(body)
    doc["rules"] = doc["rules"][9:]  # nine rules fewer, the breaches of the sample among them
    body = json.dumps(doc).encode()
    header = {**json.loads(head), "digest": hashlib.sha256(body).hexdigest()}  # its digest recomputed
    plant(entry, json.dumps(header).encode() + b"\n" + body)
    r = audit()
    assert verdict(r) == SIX_ERRORS
    assert "were not made with this user's key" in r.stderr and r.stderr.count("note:") == 1
    assert json.loads(content(entry).partition(b"\n")[2])["rules"][:9] != doc["rules"][:9]  # made again
    assert verdict(audit()) == SIX_ERRORS and "note:" not in audit().stderr


def test_a_cache_entry_is_authenticated_under_its_own_name(cache_env):
    """An entry of the user's own (a shoe of six decks), copied under another entry's name (eight decks), does
    not authenticate there."""
    eight = odds.shoe_counts(KEY, 8)
    odds.shoe_counts(KEY, 6)
    by_decks = {8 if sum(r[4] for r in json.loads(content(e))) == math.perm(416, 6) else 6: e
                for e in odds_entries(cache_env)}
    by_decks[8].write_bytes(by_decks[6].read_bytes())
    odds._coup_odds.cache_clear()
    assert odds.shoe_counts(KEY, 8) == eight


def _forged_counts(rows: list) -> list:
    """The counts rewritten with their total kept: every Banker win moved to the Player's side of the table."""
    by_key = {tuple(r[:4]): r[4] for r in rows}
    out = []
    for p, b, pc, bc, n in rows:
        if b > p and (b, p, bc, pc) in by_key:
            n = by_key[(b, p, bc, pc)]  # swapped with its mirror: the total stays what it was
        elif p > b and (b, p, bc, pc) in by_key:
            n = by_key[(b, p, bc, pc)]
        out.append([p, b, pc, bc, n])
    return out


def test_a_forged_odds_entry_is_detected_and_worked_out_again(cache_env):
    genuine = odds.shoe_counts(KEY, 8)
    (entry,) = odds_entries(cache_env)
    rows = json.loads(content(entry))
    forged = _forged_counts(rows)
    assert forged != rows and sum(r[4] for r in forged) == sum(r[4] for r in rows) == math.perm(416, 6)
    plant(entry, json.dumps(forged).encode())
    odds._coup_odds.cache_clear()
    assert odds.shoe_counts(KEY, 8) == genuine
    assert json.loads(content(entry)) == rows  # written anew


def test_a_forged_odds_entry_does_not_change_an_integrity_verdict(cache_env):
    nugget = ROOT / "fixtures" / "rules" / "us-nj" / "shoe-decks-in-the-same-order.json"
    run = lambda: subprocess.run([sys.executable, "-m", "compliance", "check", str(nugget), "-f", "json", "-j", "1",  # noqa: E731
                                  "--timestamp", "2026-11-29T00:00:00Z"], capture_output=True, text=True, cwd=ROOT,
                                 timeout=120)
    cold = run()
    for entry in odds_entries(cache_env):
        plant(entry, json.dumps(_forged_counts(json.loads(content(entry))[:])).encode())
    forged = run()
    assert '"integrity.' in cold.stdout
    assert (forged.returncode, forged.stdout) == (cold.returncode, cold.stdout)


# ------------------------------------------------------------------ whose the cache is


def test_a_cache_directory_every_user_may_write_is_not_used(cache_env):
    assert verdict(audit()) == SIX_ERRORS
    cache_env.chmod(0o777)  # a shared cache (/tmp/cache): anyone could have put the entries there
    (entry,) = ruleset_entries(cache_env)
    before = entry.read_bytes()
    r = audit()
    assert verdict(r) == SIX_ERRORS
    assert f"the cache directory {cache_env} is writable by every user" in r.stderr and r.stderr.count("note:") == 1
    assert entry.read_bytes() == before  # neither read nor written


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file to another user needs root")
def test_an_entry_another_user_owns_is_not_used(cache_env):
    assert verdict(audit()) == SIX_ERRORS
    (entry,) = ruleset_entries(cache_env)
    os.chown(entry, 65534, 65534)
    r = audit()
    assert verdict(r) == SIX_ERRORS
    assert "owned by another user: it is made again" in r.stderr
    assert entry.stat().st_uid == os.geteuid()  # replaced by the user's own


def test_a_key_other_users_may_read_turns_the_cache_off(cache_env, tmp_path):
    assert verdict(audit()) == SIX_ERRORS
    key = tmp_path / "state" / "cache.key"
    assert key.stat().st_mode & 0o777 == 0o600 and key.stat().st_size == 32
    assert not str(key).startswith(str(cache_env))  # kept outside the cache
    key.chmod(0o644)
    r = audit()
    assert verdict(r) == SIX_ERRORS and "readable or writable by other users" in r.stderr


def test_a_cache_restored_without_its_key_is_a_cold_cache(cache_env, tmp_path):
    """A CI cache restored from another branch: its entries were made with a key this run does not have."""
    assert verdict(audit()) == SIX_ERRORS
    (tmp_path / "state" / "cache.key").unlink()
    assert verdict(audit()) == SIX_ERRORS
    assert verdict(audit()) == SIX_ERRORS  # and warm again, under the new key


# ------------------------------------------------------------------ special files and links


def test_a_fifo_as_an_entry_does_not_hang_the_check(cache_env):
    assert verdict(audit()) == SIX_ERRORS
    (entry,) = ruleset_entries(cache_env)
    entry.unlink()
    os.mkfifo(entry)
    r = audit(timeout=60)
    assert verdict(r) == SIX_ERRORS and "not a regular file" in r.stderr
    assert entry.is_file()  # replaced by a regular entry


def test_an_entry_linked_to_dev_zero_is_refused(cache_env):
    assert verdict(audit()) == SIX_ERRORS
    (entry,) = ruleset_entries(cache_env)
    entry.unlink()
    entry.symlink_to("/dev/zero")
    r = audit(timeout=60)
    assert verdict(r) == SIX_ERRORS and "cannot be read" in r.stderr
    assert entry.is_file() and not entry.is_symlink()


def test_a_dangling_cachedir_tag_link_creates_nothing_outside_the_cache(cache_env, tmp_path):
    cache_env.mkdir(mode=0o700)
    outside = tmp_path / "elsewhere" / "created-by-the-check"
    outside.parent.mkdir()
    (cache_env / "CACHEDIR.TAG").symlink_to(outside)
    assert verdict(audit()) == SIX_ERRORS
    assert not outside.exists() and ruleset_entries(cache_env)


def test_a_link_planted_at_the_temporary_name_is_never_written_through(cache_env, tmp_path, monkeypatch):
    """The temporary name was ``.<entry>.<pid>.tmp``, followed through links: now unpredictable, created
    exclusively, and never through a link even where it is guessed."""
    cache.load("us-nj")  # the folders and the key
    (entry,) = ruleset_entries(cache_env)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    entry.unlink()
    (entry.parent / f".{entry.name}.{os.getpid()}.tmp").symlink_to(victim)  # the old name
    guessed = b"\x01" * 8
    (entry.parent / f".{entry.name}.{guessed.hex()}.tmp").symlink_to(victim)  # the name, guessed
    monkeypatch.setattr(cachedir.os, "urandom", lambda n: guessed if n == 8 else os.getrandom(n))
    cache.load("us-nj")
    assert victim.read_text() == "precious\n"
    monkeypatch.undo()


def test_an_entry_too_large_is_not_read(cache_env):
    assert verdict(audit()) == SIX_ERRORS
    (entry,) = ruleset_entries(cache_env)
    with entry.open("ab") as f:
        f.truncate(cachedir.MAX_ENTRY + 1)
    r = audit()
    assert verdict(r) == SIX_ERRORS and "larger than" in r.stderr


@pytest.mark.parametrize("state", [pytest.param("cold", marks=pytest.mark.slow),
                                   pytest.param("warm", marks=pytest.mark.slow), "corrupted"])
def test_the_sample_gives_its_six_errors_whatever_the_cache_holds(cache_env, state):
    if state != "cold":
        audit()
    if state == "corrupted":
        for entry in ruleset_entries(cache_env) + odds_entries(cache_env):
            entry.write_bytes(b"\x00" * 100)
    assert verdict(audit()) == SIX_ERRORS
