"""A file's bytes or text, read within its kind's size limit (:mod:`compliance.limits`).

:func:`read_input` measures a regular file before it reads it, and reads anything else (a pipe, a device)
up to the limit, refusing it past it; :func:`read_text` decodes it as UTF-8, a bad byte reported with its
line and column.  A file that cannot be read, or is over its limit, is one error with its place, never a
traceback: docs/reliability.md, "The bounds".
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from compliance.errors import UserError, Where
from compliance.limits import DEFAULTS, MB, Limits, limit, too_large


def os_reason(e: OSError) -> str:
    """An OSError in a few words: a symlink loop, a directory, no permission, ..."""
    if e.errno == errno.ELOOP:
        return "cannot read: a symbolic link loop"
    if e.errno == errno.EISDIR:
        return "is a directory"
    return f"cannot read: {e.strerror or e}"


def regular_size(path: str | Path, display: str, missing: str = "no such file") -> int | None:
    """The size of a regular file, None for anything else that can be read (a pipe, a device).

    Raises :class:`UserError` for what cannot be read at all: nothing there, a
    symlink loop, a directory.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise UserError(missing, display) from None
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the path
        raise UserError(os_reason(e) if isinstance(e, OSError) else f"cannot read: {e}", display) from None
    if stat.S_ISDIR(st.st_mode):
        raise UserError("is a directory", display)
    return st.st_size if stat.S_ISREG(st.st_mode) else None


def read_input(path: str | Path, kind: str, display: str | None = None, missing: str = "no such file",
               bounds: Limits = DEFAULTS) -> bytes:
    """The bytes of ``path``, refused (one :class:`UserError`) when over the limit of ``kind``.

    A regular file is measured before it is read; anything else is read up to
    the smaller of its kind's limit and the ``stream`` limit, and refused past it.
    """
    display = display or str(path)
    size = regular_size(path, display, missing)
    n = limit(kind, bounds) if size is not None else min(limit(kind, bounds), limit("stream", bounds))
    if size is not None and size > n:
        raise UserError(too_large(kind, size, bounds), display)
    try:
        with open(path, "rb") as f:
            data = read_from(f, size, n)
    except OSError as e:
        raise UserError(os_reason(e), display) from None
    if len(data) > n:
        kind = kind if size is not None or limit(kind, bounds) <= limit("stream", bounds) else "stream"
        raise UserError(too_large(kind, None, bounds), display)
    return data


def read_from(f, size: int | None, n: int) -> bytes:
    """At most ``n + 1`` bytes of the open file ``f`` (``size``: its size when it is a regular file, None for a
    pipe or a device).  Never asks for more memory than the input holds: a regular file is read by its size,
    anything else a megabyte at a time."""
    if size is not None:
        return f.read(min(size, n) + 1)
    chunks, total = [], 0
    while total <= n:
        chunk = f.read(min(MB, n + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def decode_text(data: bytes, display: str, what: str = "text") -> str:
    """UTF-8 text (a leading byte order mark dropped); a bad byte is reported with its line and column."""
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as e:
        at = e.start
        line = body.count(b"\n", 0, at) + 1
        start = body.rfind(b"\n", 0, at) + 1
        column = len(body[start:at].decode("utf-8", "replace")) + 1
        raise UserError(f"not UTF-8 {what}: byte 0x{body[at]:02x}", Where(display, line, column)) from None


def read_text(path: str | Path, kind: str, display: str | None = None, missing: str = "no such file",
              bounds: Limits = DEFAULTS) -> str:
    """:func:`read_input` decoded as UTF-8 by :func:`decode_text`."""
    display = display or str(path)
    return decode_text(read_input(path, kind, display, missing, bounds), display)


def lone_surrogate(text: str) -> int | None:
    """Index of the first lone surrogate in ``text`` (not a character: it cannot be written as UTF-8), or None."""
    try:
        text.encode("utf-8")
        return None
    except UnicodeEncodeError as e:
        return e.start
