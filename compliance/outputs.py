"""Writing what the tool makes (reports, baselines, simulated transcripts) without destroying anything.

:func:`resolve` says what an output path names (standard output or error, a new or
regular file, a FIFO or character device, or something refused with exit 2);
:func:`refuse_overwriting` refuses an output that is a file the run reads, or another
output; :func:`write` writes one (a regular file through :func:`write_atomic`: a
temporary file beside it, renamed over the path, so it is whole or absent);
:func:`remove_stale` removes the temporary files of processes that died.

What each kind of path is allowed, and why: docs/security.md, "What outputs may touch".
"""

from __future__ import annotations

import os
import re
import secrets
import stat
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from compliance.errors import UserError

STDOUT_NAMES = frozenset({"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"})
STDERR_NAMES = frozenset({"/dev/stderr", "/dev/fd/2", "/proc/self/fd/2"})
TMP_SUFFIX = ".baccarat-audit-tmp"
#: ``.<name>.<pid>.<8 random characters>.baccarat-audit-tmp``
_OURS = re.compile(r"^\..*\.(?P<pid>[0-9]+)\.[a-z0-9_]{8}" + re.escape(TMP_SUFFIX) + r"$")

Content = bytes | Callable[[BinaryIO], object]


@dataclass(frozen=True)
class Output:
    """Where one output goes: ``kind`` is ``stdout``, ``stderr``, ``stream`` (written plainly) or ``file``."""

    path: Path
    kind: str


def _describe(mode: int) -> str | None:
    """Why a file of this mode is never written to, or None when it may be."""
    if stat.S_ISDIR(mode):
        return "is a directory"
    if stat.S_ISBLK(mode):
        return "is a block device: a report is never written onto a disk"
    if stat.S_ISSOCK(mode):
        return "is a socket"
    return None


def resolve(path: str | Path) -> Output:
    """What writing to ``path`` would do; UserError (exit 2) for a path that is never written to."""
    name = str(path)
    if name in STDOUT_NAMES:
        return Output(Path("-"), "stdout")
    if name in STDERR_NAMES:
        return Output(Path(name), "stderr")
    p = Path(path)
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        return Output(p, "file")
    except OSError as e:
        raise UserError(f"cannot write: {e.strerror}", name) from None
    if stat.S_ISREG(st.st_mode):
        return Output(p, "file")
    if stat.S_ISLNK(st.st_mode):
        try:
            target = os.readlink(p)
        except OSError:
            target = "?"
        try:
            followed = os.stat(p)
        except OSError:
            raise UserError(f"is a symbolic link to {target}, which does not exist: a report is never written "
                            "through a link; name the file itself", name) from None
        if stat.S_ISFIFO(followed.st_mode) or stat.S_ISCHR(followed.st_mode):
            return Output(p, "stream")
        why = _describe(followed.st_mode)
        if why:
            raise UserError(f"is a symbolic link to {target}, which {why.removeprefix('is ')}", name)
        raise UserError(f"is a symbolic link to {target}: a report never writes through a link or replaces it; "
                        "name the file itself", name)
    if stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode):
        return Output(p, "stream")
    raise UserError(_describe(st.st_mode) or "is not a regular file", name)


def _identity(path: str | Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def _real(path: str | Path) -> str:
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return os.path.abspath(path)


def refuse_overwriting(outputs: Iterable[Output], reads: Mapping[str, str]) -> None:
    """UserError (exit 2) if an output is a file the run reads (``reads``: path -> what it is), or if two
    outputs are the same file.  Files are the same by name after every link is followed, or by device and
    inode (a hard link)."""
    known: dict[object, str] = {}
    for path, what in reads.items():
        known.setdefault(_real(path), what)
        ident = _identity(path)
        if ident is not None:
            known.setdefault(ident, what)
    written: dict[object, str] = {}
    for out in outputs:
        if out.kind in ("stdout", "stderr"):
            continue
        keys = [_real(out.path)]
        ident = _identity(out.path)
        if ident is not None:
            keys.append(ident)
        for key in keys:
            if key in known:
                raise UserError(f"is {known[key]} this run reads: an output never overwrites what is checked",
                                str(out.path))
            if out.kind == "file" and key in written:
                raise UserError(f"is written twice in one run (also as {written[key]})", str(out.path))
        for key in keys:
            written.setdefault(key, str(out.path))


def make_directory(path: str | Path, whose: str) -> None:
    """The directory of a file to write, made when missing (not for standard output, a FIFO or a device);
    ``whose``: the file's, in the message (``the report's``)."""
    if resolve(path).kind != "file":
        return
    directory = Path(path).parent
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot make {whose} directory: {e.strerror}", str(directory)) from None


def write(path: str | Path, content: Content, error: str = "cannot write") -> None:
    """Write ``content`` (bytes, or a function writing to the binary file it is given) to ``path``.

    Standard output and error, FIFOs and character devices are written plainly; a file is written
    atomically.  UserError (exit 2) for a path never written to, or one that cannot be written.
    """
    out = resolve(path)
    if out.kind in ("stdout", "stderr"):
        stream = sys.stdout if out.kind == "stdout" else sys.stderr
        stream.flush()
        _fill(stream.buffer, content)
        stream.buffer.flush()
    elif out.kind == "stream":
        _write_stream(out.path, content, error)
    else:
        write_atomic(out.path, content, error)


def _fill(f: BinaryIO, content: Content) -> None:
    if isinstance(content, bytes):
        f.write(content)
    else:
        content(f)


def _write_stream(path: Path, content: Content, error: str) -> None:
    """A FIFO or a character device: opened for writing as it is (not created, not truncated)."""
    try:
        fd = os.open(path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise UserError(f"{error}: {e.strerror}", str(path)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):  # it changed since it was looked at
            raise UserError(f"{error}: it is no longer a FIFO or a device", str(path))
        with os.fdopen(fd, "wb", closefd=False) as f:
            _fill(f, content)
    except OSError as e:
        raise UserError(f"{error}: {e.strerror}", str(path)) from None
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: str | Path, content: Content, error: str = "cannot write") -> None:
    """Write ``content`` to a temporary file beside ``path``, synced, then renamed over ``path``.

    Never a half-written file: on any error or interruption the temporary file is removed and
    the old file (or none) is left.  The file gets the permissions a new file gets (``0666`` less
    the umask).
    """
    path = Path(path)
    directory = path.parent
    remove_stale(directory, path.name)
    # The temporary's name is known before the file is made, and made inside the block that removes it on the
    # way out: a signal that stops the run the instant after the file is made (before its descriptor is even
    # kept) still has it removed.
    tmp = os.path.join(directory, f".{path.name[:96]}.{os.getpid()}.{secrets.token_hex(4)}{TMP_SUFFIX}")
    try:
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
        except OSError as e:  # not made, so not ours to remove
            raise UserError(f"{error}: {e.strerror}", str(path)) from None
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            _fill(f, content)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except UserError:
        raise
    except OSError as e:
        _unlink(tmp)
        raise UserError(f"{error}: {e.strerror}", str(path)) from None
    except BaseException:  # interrupted (Ctrl-C, SIGTERM, SIGHUP) or a bug: leave the old file, or none
        _unlink(tmp)
        raise


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # another user's process: not ours to judge
    return True


def remove_stale(directory: Path, name: str | None = None) -> list[str]:
    """Remove the temporary files an earlier run left in ``directory`` when it was killed outright.

    Only regular files of this user named as :func:`write_atomic` names them, whose process is
    gone (and, for ``name``, the ``.<name>.<pid>.tmp`` files of earlier versions).  The names removed.
    """
    old = re.compile(r"^\." + re.escape(name) + r"\.(?P<pid>[0-9]+)\.tmp$") if name else None
    removed = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    uid = os.getuid() if hasattr(os, "getuid") else None
    for entry in entries:
        m = _OURS.match(entry.name) or (old.match(entry.name) if old else None)
        if m is None or m.group("pid") == str(os.getpid()) or _alive(int(m.group("pid"))):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or (uid is not None and st.st_uid != uid):
            continue
        _unlink(entry.path)
        removed.append(entry.name)
    return removed
