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
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import msgspec

from compliance.errors import UserError
from compliance.reading.reader import BOM, CoupRecord, TranscriptFile

TAG = "baccarat-transcript"
_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*)$")


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
    """Every fenced block tagged ``baccarat-transcript``, in document order (CommonMark fences)."""
    lines = document.splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m or (m["fence"][0] == "`" and "`" in m["info"]):
            i += 1
            continue
        fence, indent, info = m["fence"], len(m["indent"]), m["info"].strip()
        body: list[str] = []
        j = i + 1
        while j < len(lines):
            close = _FENCE.match(lines[j])
            if close and close["fence"][0] == fence[0] and len(close["fence"]) >= len(fence) and not close["info"].strip():
                break
            line = lines[j]
            strip = len(line) - len(line.lstrip(" "))
            body.append(line[min(strip, indent):])
            j += 1
        if info.split()[:1] == [TAG]:
            text = ("\n".join(body) + "\n").encode("utf-8")
            out.append(Block(len(out), i + 2, indent, text, info))
        i = j + 1
    return out


class _MemoryPath:
    """The little of :class:`pathlib.Path` that :class:`TranscriptFile` uses, over bytes in memory."""

    def __init__(self, data: bytes, jsonl: bool):
        self._data = data
        self.suffix = ".jsonl" if jsonl else ".json"

    def exists(self) -> bool:
        return True

    def is_dir(self) -> bool:
        return False

    def read_bytes(self) -> bytes:
        return self._data

    def open(self, mode: str = "rb"):
        return io.BytesIO(self._data)


class EmbeddedTranscript(TranscriptFile):
    """A transcript read from a block of a Markdown document; lines are the document's."""

    def __init__(self, block: Block, display: str):
        self.block = block
        super().__init__(_MemoryPath(block.text.removeprefix(BOM), block.jsonl), display)

    def records(self) -> Iterator[CoupRecord]:
        shift, indent = self.block.line - 1, self.block.indent
        for record in super().records():
            yield record._replace(line=record.line + shift, column=record.column + indent)

    def sha256(self) -> str:
        return hashlib.sha256(self.block.text).hexdigest()


def read_blocks(path: str | Path, display: str) -> list[Block]:
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UserError("no such file", display) from None
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"cannot read: {getattr(e, 'strerror', None) or e}", display) from None
    return blocks(text)


def open_block(path: str | Path, display: str, index: int) -> EmbeddedTranscript:
    """The ``index``-th tagged block of a document, opened as a transcript."""
    block = read_blocks(path, display)[index]
    try:
        return EmbeddedTranscript(block, display)
    except UserError as e:
        where = e.where if e.where and e.where != display else f"{display}:{block.line}"
        place = e.where.removeprefix(display) if e.where and e.where.startswith(display) else ""
        if re.fullmatch(r":\d+(:\d+)?", place):
            # a header error names its line (and column) inside the block: make them the document's
            line, _, column = place[1:].partition(":")
            where = f"{display}:{block.line + int(line) - 1}" + (f":{int(column) + block.indent}" if column else "")
        raise UserError(f"transcript block: {e.message}", where) from None
