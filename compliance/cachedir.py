"""The user's cache directory: what baccarat-audit keeps between runs, kept so that it can never change a verdict.

Two folders: validated rulesets (``rulesets/``, :mod:`compliance.ruleset.cache`) and a
shoe's exact outcome counts (``odds/``, :func:`compliance.games.baccarat.odds.coup_odds`).
:func:`root` finds the directory (or None when the cache is off: the run context's
``cache``, or ``BACCARAT_AUDIT_NO_CACHE``); :func:`read` returns an entry only when it is
the user's and authenticates under the user's key; :func:`write` writes one whole or not at all.

Where the directory and the key live, and why nothing found there is trusted (whose an
entry is, who made it, how it is read and written): docs/security.md, "The user's cache";
for users: docs/reports.md, "The ruleset cache".
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import stat
import sys
from pathlib import Path

import compliance

ENV_DIR = "BACCARAT_AUDIT_CACHE_DIR"
ENV_OFF = "BACCARAT_AUDIT_NO_CACHE"
ENV_KEY = "BACCARAT_AUDIT_CACHE_KEY"
#: marks the directory as a cache for backup tools (https://bford.info/cachedir/)
CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                "# This file is a cache directory tag created by baccarat-audit.\n")
#: the largest entry read (a ruleset's is tens of kilobytes, a shoe's counts a few)
MAX_ENTRY = 4 << 20
KEY_BYTES = 32
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


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


def key_path() -> Path | None:
    """Where the user's key is kept: outside the cache, so that a cache restored or shared does not bring it."""
    explicit = os.environ.get(ENV_KEY)
    if explicit:
        return Path(explicit)
    state = os.environ.get("XDG_STATE_HOME")
    if state and os.path.isabs(state):
        return Path(state) / "baccarat-audit" / "cache.key"
    try:
        return Path.home() / ".local" / "state" / "baccarat-audit" / "cache.key"
    except RuntimeError:
        return None


def root(enabled: bool = True) -> Path | None:
    """The directory to use: None when the run's context turns the cache off (``enabled`` false), when the
    environment does, or when there is no home for it."""
    if not enabled or disabled_by_environment():
        return None
    return directory()


def usable(enabled: bool = True) -> bool:
    """Whether a run may use the cache at all: on, and its directory (where it exists) the user's own and not
    writable by every user.  Otherwise one note says why, and the run goes without it."""
    top = root(enabled)
    if top is None:
        return False
    try:
        st = os.stat(top)
    except FileNotFoundError:
        return True  # made, private, on the first write
    except OSError as e:
        note(f"the cache directory {top} cannot be used ({e.strerror}): the run goes without it")
        return False
    why = _untrusted(st)
    if why:
        note(f"the cache directory {top} is {why}: the run goes without it (its entries could be anyone's)")
        return False
    return True


# ------------------------------------------------------------------ notes


_said: set[str] = set()  # the notes this process has printed: each once


def note(text: str) -> None:
    """One note on standard error, once a process."""
    if text in _said:
        return
    _said.add(text)
    try:
        sys.stderr.write(f"baccarat-audit: note: {text}\n")
    except (OSError, ValueError):
        pass


# ------------------------------------------------------------------ trust


def _untrusted(st: os.stat_result, directory: bool = True) -> str | None:
    """Why a directory (or, ``directory`` false, a file) is not to be trusted, or None."""
    if directory and not stat.S_ISDIR(st.st_mode):
        return "not a directory"
    if not directory and not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        return "owned by another user"
    if st.st_mode & stat.S_IWOTH:
        return "writable by every user"
    return None


def _untrusted_folders(top: Path, folder: Path) -> str | None:
    for d in (top, folder):
        try:
            why = _untrusted(os.stat(d))
        except OSError as e:
            return f"{d}: {e.strerror}"
        if why:
            return f"{d} is {why}"
    return None


def _key(create: bool) -> bytes | None:
    """The user's key (made on first need when ``create``); None when there is none, or it is not the user's
    alone (then nothing is read or written, with a note)."""
    path = key_path()
    if path is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC)
    except FileNotFoundError:
        return _new_key(path) if create else None
    except OSError as e:
        note(f"the cache's key {path} cannot be read ({e.strerror}): the cache is not used")
        return None
    try:
        st = os.fstat(fd)
        why = _untrusted(st, directory=False)
        if why is None and st.st_mode & 0o077:
            why = "readable or writable by other users"
        if why is None:
            why = _untrusted_folders(path.parent, path.parent)
        if why is None and st.st_size != KEY_BYTES:  # the user's own, cut short (a full disk, a file-size limit)
            if not create:
                return None  # a cold cache: the write that follows makes a new key
            note(f"the cache's key {path} is damaged ({st.st_size} bytes, not {KEY_BYTES}): a new key is made, "
                 "and the cache's entries with it")
            return _new_key(path, replace=True)
        if why:
            note(f"the cache's key {path} is {why}: the cache is not used")
            return None
        return os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)


def _new_key(path: Path, replace: bool = False) -> bytes | None:
    """A new key, whole at ``path`` or not there at all: written to a temporary file of its own first, then
    linked in (``replace``: renamed over a damaged one). None when it cannot be made."""
    key = os.urandom(KEY_BYTES)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if _untrusted_folders(path.parent, path.parent):
            return None
    except OSError:
        return None
    if not _whole(path, key, 0o600, replace):
        return _key(create=False) if not replace else None  # made by a process beside this one: use it
    return key


def _whole(path: Path, data: bytes, mode: int, replace: bool = False) -> bool:
    """Create ``path`` holding ``data``, whole or not at all (a full disk, a file-size limit: nothing); False when
    it could not be made, or (not ``replace``) another process made it first."""
    tmp = path.parent / f".{path.name}.{os.urandom(8).hex()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, mode)
    except OSError:
        return False
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)  # never over a file there: a process beside this one may have made it
        return True
    except OSError:
        return False
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _mac(key: bytes, name: str, payload: bytes) -> bytes:
    return hmac.new(key, name.encode("utf-8") + b"\0" + payload, hashlib.sha256).hexdigest().encode("ascii")


# ------------------------------------------------------------------ entries


def read(top: Path, name: str) -> bytes | None:
    """The content of the entry ``name`` (``rulesets/<hash>.json``) of the cache ``top``, if it is the user's
    and authenticates; else None (and a note when something there is not what this user wrote)."""
    entry = top / name
    why = _untrusted_folders(top, entry.parent)
    if why is not None:
        if os.path.isdir(entry.parent):  # a missing folder is only a cold cache
            note(f"the cache is not used: {why}")
        return None
    try:
        fd = os.open(entry, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as e:  # a symbolic link (ELOOP), a directory, no permission
        note(f"the cache entry {entry} cannot be read ({e.strerror}): it is made again")
        return None
    try:
        st = os.fstat(fd)
        why = _untrusted(st, directory=False)
        if why is None and st.st_size > MAX_ENTRY:
            why = f"larger than {MAX_ENTRY} bytes"
        if why is not None:
            note(f"the cache entry {entry} is {why}: it is made again")
            return None
        chunks, left = [], st.st_size  # read by its size (never a buffer of MAX_ENTRY for a small entry)
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)
    key = _key(create=False)
    if key is None:
        return None
    mac, _, payload = data.partition(b"\n")
    if not hmac.compare_digest(mac, _mac(key, name, payload)):
        note(f"entries of the cache {top} were not made with this user's key (planted, edited, or made with "
             "another key): they are made again")
        return None
    return payload


def write(top: Path, name: str, payload: bytes) -> None:
    """Keep ``payload`` as the entry ``name`` of the cache ``top``, whole or not at all; any failure leaves the
    cache as it was (nothing is raised)."""
    key = _key(create=True)
    if key is None:
        return
    entry = top / name
    try:
        top.mkdir(mode=0o700, parents=True, exist_ok=True)
        entry.parent.mkdir(mode=0o700, exist_ok=True)
    except OSError:
        return
    if _untrusted_folders(top, entry.parent) is not None:
        return
    _tag(top)
    tmp = entry.parent / f".{entry.name}.{os.urandom(8).hex()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(_mac(key, name, payload) + b"\n" + payload)
        os.replace(tmp, entry)
    except OSError:
        pass
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _tag(top: Path) -> None:
    """``CACHEDIR.TAG``, created whole, only where nothing is (not through a link, dangling or not)."""
    _whole(top / "CACHEDIR.TAG", CACHEDIR_TAG.encode("ascii"), 0o644)


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
