"""Transcripts embedded in Markdown procedure documents.

A procedure manual's worked examples must themselves be compliant.  Every
fenced code block whose info string starts with ``baccarat-transcript`` is a
transcript (a JSON document, or JSON Lines: header line then one coup a line)::

    ```baccarat-transcript
    {"format": "baccarat-transcript", "version": 1, ...}
    ```

Each block is checked on its own; its findings name the Markdown file and the
line in it, so editors and code review point at the example itself.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import msgspec

from compliance import fileread, limits
from compliance.errors import UserError
from compliance.reading.reader import BOM, CoupRecord, TranscriptFile

TAG = "baccarat-transcript"


@dataclass(frozen=True)
class Block:
    """One tagged fenced block: its text and where it sits in the document."""

    index: int  # 0-based among the tagged blocks of the document
    line: int  # 1-based line of the block's first content line
    indent: int  # spaces removed from each content line (fence indentation)
    text: bytes
    info: str  # the fence's info string: the tag, perhaps followed by "json" or "jsonl"

    @property
    def jsonl(self) -> bool:
        """Written as JSON Lines: said so in the info string, else told from the text (worked out only for the
        block that is opened, not for every block a document lists)."""
        return _is_jsonl(self.text, self.info)


def _is_jsonl(text: bytes, info: str) -> bool:
    words = info.split()
    if "jsonl" in words[1:]:
        return True
    if "json" in words[1:]:
        return False
    try:
        msgspec.json.decode(text)
        return False
    except msgspec.DecodeError:
        first = text.lstrip().split(b"\n", 1)[0]
        try:
            msgspec.json.decode(first)
        except msgspec.DecodeError:
            return False
        return True


def blocks(document: str) -> list[Block]:
    """Every fenced block tagged ``baccarat-transcript``, in document order (CommonMark fences).

    Linear in the document: the fence lines are found by one regular expression over the whole text, and
    each block's text is one slice of it (lines end with ``\\n``, ``\\r\\n`` or ``\\r``).
    """
    text = document.replace("\r\n", "\n").replace("\r", "\n")
    out: list[Block] = []
    line, counted = 1, 0  # the line number at offset `counted`
    opening = None  # (match, its line) of the fence of the block we are in
    for m in _FENCES.finditer(text):
        if opening is None:
            if m["fence"][0] == "`" and "`" in m["info"]:
                continue  # not a fence: an inline code span
            line += text.count("\n", counted, m.start())
            counted = m.start()
            opening = (m, line)
            continue
        fence = opening[0]["fence"]
        if m["fence"][0] == fence[0] and len(m["fence"]) >= len(fence) and not m["info"].strip():
            out.extend(_block(text, opening, m.start(), len(out)))
            opening = None
    if opening is not None:  # not closed: the block runs to the end of the document
        out.extend(_block(text, opening, len(text), len(out)))
    return out


_FENCES = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*)$", re.MULTILINE)


def _block(text: str, opening, end: int, index: int) -> list[Block]:
    m, line = opening
    info = m["info"].strip()
    if info.split()[:1] != [TAG]:
        return []
    start = min(m.end() + 1, len(text))  # after the fence line's newline
    body = text[start:max(end, start)]
    if not body.endswith("\n"):
        body += "\n"
    indent = len(m["indent"])
    if indent:  # fence indentation: removed from each content line, as far as it has spaces
        body = re.sub(f"(?m)^ {{1,{indent}}}", "", body)
    return [Block(index, line + 1, indent, body.encode("utf-8"), info)]


class EmbeddedTranscript(TranscriptFile):
    """A transcript read from a block of a Markdown document; lines are the document's."""

    def __init__(self, block: Block, display: str, bounds: limits.Limits = limits.DEFAULTS):
        self.block = block
        super().__init__(Path(display), display, data=block.text.removeprefix(BOM), jsonl=block.jsonl, bounds=bounds)

    def header_place(self, at: str, key: str | None = None) -> str | None:
        inner = super().header_place(at, key)
        return None if inner is None else _document_place(self.block, self.display, inner)

    def records(self) -> Iterator[CoupRecord]:
        shift, indent = self.block.line - 1, self.block.indent
        for record in super().records():
            yield record._replace(line=record.line + shift, column=record.column + indent)

    def sha256(self) -> str:
        return hashlib.sha256(self.block.text).hexdigest()


def read_blocks(path: str | Path, display: str, bounds: limits.Limits = limits.DEFAULTS) -> list[Block]:
    """The tagged blocks of a Markdown document, read within the ``markdown`` size limit (of ``bounds``).

    The last document read is kept (by its path, size and modification time), so that opening each of its
    blocks in turn reads and splits the document once, not once a block.
    """
    try:
        st = os.stat(path)
        key = (str(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, bounds)
    except (OSError, ValueError):
        key = None
    if key is not None and _last[0] == key:
        return _last[1]
    found = blocks(fileread.decode_text(fileread.read_input(path, "markdown", display, bounds=bounds), display))
    _last[:] = [key, found]
    return found


_last: list = [None, []]  # (key, blocks) of the last document read


def open_block(path: str | Path, display: str, index: int,
               bounds: limits.Limits = limits.DEFAULTS) -> EmbeddedTranscript:
    """The ``index``-th tagged block of a document, opened as a transcript."""
    block = read_blocks(path, display, bounds)[index]
    try:
        source = EmbeddedTranscript(block, display, bounds)
    except UserError as e:
        where = _document_place(block, display, e.where) or (
            e.where if e.where and e.where != display else f"{display}:{block.line}")
        raise UserError(f"transcript block: {e.message}", where) from None
    from compliance.procedures import attach  # the document's own submission, if it carries one

    attach(source, Path(path), display.rsplit("#L", 1)[0], index)
    return source


def _document_place(block: Block, display: str, where: str | None) -> str | None:
    """A place in the block (``display:line[:column]``, as its transcript reads it) as the document's; None where
    ``where`` names no line."""
    place = where.removeprefix(display) if where and where.startswith(display) else ""
    if not re.fullmatch(r":\d+(:\d+)?", place):
        return None
    line, _, column = place[1:].partition(":")
    return f"{display}:{block.line + int(line) - 1}" + (f":{int(column) + block.indent}" if column else "")
