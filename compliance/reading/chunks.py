"""A large ``.jsonl`` transcript cut into chunks at shoe boundaries, and each chunk read as a transcript.

For the driver (:mod:`compliance._internal.driver`): :func:`plan_cuts` says where to cut
(each :class:`Cut` a lookback and a start, byte offsets at line starts), :class:`Chunk` is
the lines between two offsets seen as a transcript of its own (the same header), and
:func:`count_newlines` and :func:`file_digests` give the line number at each cut and the
SHA-256 of the file and of each chunk in one read.

Why a chunk starts at a new shoe, and its lookback: docs/architecture.md (the opening).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from typing import NamedTuple

import msgspec

from compliance.reading.reader import CoupRecord, TranscriptFile

#: how far past a chunk's nominal start to look for two shoe changes before giving up on that cut
SCAN_BYTES = 16 << 20


class Cut(NamedTuple):
    """Where a chunk starts (``start``: the first line of a new shoe) and where its lookback starts (the first
    line of the shoe before it): byte offsets of line starts."""

    lookback: int
    start: int


class _ShoeOnly(msgspec.Struct):
    """A coup line read for its shoe only: the decoder skips the events instead of building them."""

    shoe: object = None


_shoe_decoder = msgspec.json.Decoder(_ShoeOnly)


def shoe_of(line: bytes) -> str | None:
    """The ``shoe`` a coup's line names; None for a line that names none or is not a JSON object."""
    try:
        shoe = _shoe_decoder.decode(line).shoe
    except msgspec.DecodeError:  # also a line that is not an object
        return None
    return shoe if isinstance(shoe, str) else None


def next_cut(f, at: int, limit: int) -> Cut | None:
    """From byte ``at`` of the open file ``f`` (up to byte ``limit``): the start of the next shoe (the lookback)
    and of the shoe after it (the cut); None if there are not two shoe changes there."""
    f.seek(at)
    pos = at
    if at:
        pos += len(f.readline())  # to the start of a line
    previous = lookback = None
    while pos < limit:
        line = f.readline()
        if not line:
            return None
        shoe = shoe_of(line) if line.strip() else None
        if shoe is not None:
            if previous is not None and shoe != previous:
                if lookback is None:
                    lookback = pos
                else:
                    return Cut(lookback, pos)
            previous = shoe
        pos += len(line)
    return None


def plan_cuts(path: str, body: int, parts: int, chunk_bytes: int, scan_bytes: int = SCAN_BYTES) -> list[Cut]:
    """The cuts of the ``.jsonl`` at ``path`` (its coups from byte ``body`` on) into at most ``parts`` chunks of
    at least ``chunk_bytes`` each; [] where it is too small to cut or holds no shoe change to cut at."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return []  # checked whole, which reports why it cannot be read
    parts = min(parts, (size - body) // max(chunk_bytes, 1))
    if parts < 2:
        return []
    cuts: list[Cut] = []
    floor = body
    with open(path, "rb") as f:
        for k in range(1, parts):
            target = max(body + (size - body) * k // parts, floor)
            cut = next_cut(f, target, min(size, target + scan_bytes))
            if cut is None:
                continue
            cuts.append(cut)
            floor = cut.start + 1
    return cuts


def count_newlines(path: str, start: int, end: int) -> int:
    """The newlines between byte ``start`` and byte ``end`` of the file at ``path``."""
    n = 0
    with open(path, "rb") as f:
        f.seek(start)
        left = end - start
        while left > 0:
            block = f.read(min(left, 1 << 22))
            if not block:
                break
            n += block.count(b"\n")
            left -= len(block)
    return n


def file_digests(path: str, marks: list[int]) -> tuple[str, list[str]]:
    """SHA-256 of the whole file and of each region between ``marks`` (byte offsets, sorted, the first 0;
    the last region runs to the end), in one read."""
    whole = hashlib.sha256()
    parts = []
    with open(path, "rb") as f:
        for start, end in zip(marks, [*marks[1:], None]):
            part = hashlib.sha256()
            left = None if end is None else end - start
            while left is None or left > 0:
                block = f.read(1 << 22 if left is None else min(left, 1 << 22))
                if not block:
                    break
                whole.update(block)
                part.update(block)
                if left is not None:
                    left -= len(block)
            parts.append(part.hexdigest())
    return whole.hexdigest(), parts


class Chunk:
    """The lines from byte ``start`` to byte ``end`` (None: the end) of an opened ``.jsonl`` transcript, the first
    of them line number ``line``, seen by the engine as a transcript: the transcript's header and name, its
    own coups.  ``judges_header``: the engine judges the header's rules in this chunk (one chunk of a file
    does).  ``shoes`` collects the shoes its coups named; ``digest`` the SHA-256 of the bytes it read."""

    def __init__(self, source: TranscriptFile, start: int, end: int | None, line: int, judges_header: bool = True):
        self.source, self.start, self.end, self.line = source, start, end, line
        self.judges_header = judges_header
        self.header, self.display = source.header, source.display
        self.shoes: set[str] = set()
        self.digest = hashlib.sha256()  # of the bytes of the region, as they were read

    def __getattr__(self, name):  # everything else is the transcript's
        return getattr(self.source, name)

    def records(self) -> Iterator[CoupRecord]:
        shoes = self.shoes
        for record in self.source.region_records(self.start, self.end, self.line, self.digest):
            if record.coup is not None:
                shoes.add(getattr(record.coup, "shoe", None))
            yield record

    def sha256(self) -> str:
        return ""  # the file's digest is put together from every chunk's (file_digests)


__all__ = ["Chunk", "Cut", "SCAN_BYTES", "count_newlines", "file_digests", "next_cut", "plan_cuts", "shoe_of"]
