"""Read ``.json`` and ``.jsonl`` transcripts into header + a stream of coups.

Every coup is decoded on its own, so one broken coup becomes an
:class:`UnreadableCoup` record and the coups after it are still read.
Problems with the file as a whole (no such file, broken header, a ``.json``
document that is not JSON) raise :class:`~compliance.errors.UserError`.

``.jsonl`` files are read line by line: memory does not grow with the number
of coups.
"""

from __future__ import annotations

import difflib
import hashlib
import io
import re
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import NamedTuple

import msgspec

from compliance import figures, fileread, limits, registry
from compliance.errors import UserError
from compliance.reading import duplicates
from compliance.transcript import codec, locate

BOM = b"\xef\xbb\xbf"
# Bounds (compliance.limits): a .jsonl line over limits "line" (16 MB; a coup is a few kilobytes) is an
# unreadable coup, never loaded whole; a .json document over "transcript" (256 MB) is refused, pointing to .jsonl,
# and one that is not a regular file (a pipe, a device) is read up to "stream" (64 MB) at most.
_VENDOR = b'"x-'


class CoupRecord(NamedTuple):
    """One coup as read: decoded, or the reason it could not be."""

    coup: object | None  # codec.Coup
    line: int  # 1-based line where the coup's object starts
    column: int  # 1-based column where it starts
    raw: bytes  # the coup's JSON text, to locate its events on demand
    path: str  # JSON path of the coup in the file, e.g. "$.coups[3]" or "$" (jsonl)
    error: str | None = None
    number: int | None = None  # the coup number, when it could be recovered


_UNKNOWN = re.compile(r"Object contains unknown field `([^`]*)`(?: - at `([^`]*)`)?$")


def _friendly(err: str, card_words: str = codec.CARD_WORDS, struct: type | None = None) -> str:
    """msgspec's validation message in the words of the spec (``card_words``: what a card code is, per game);
    an unknown key gets the nearest key the object may have (``struct``: the type decoded)."""
    m = re.match(r"Invalid enum value '(.*)' - at `(.*\.card|.*\.\w+\[\d+\])`$", err)
    if m:
        return f"bad card code '{m.group(1)}': expected {card_words} - at `{m.group(2)}`"
    m = _UNKNOWN.match(err)
    if m and struct is not None:
        path = locate.parse_path(m.group(2) or "$")
        close = difflib.get_close_matches(m.group(1), codec.keys_at(struct, path), n=1) if path is not None else []
        if close:
            return f"{err}; did you mean `{close[0]}`?"
    return err


def _rebase(err: str, base: str) -> str:
    """Rewrite a ``$``-rooted JSON path in a msgspec message onto ``base``."""
    if base == "$":
        return err
    return err.replace("`$", "`" + base, 1)


_new = tuple.__new__  # a CoupRecord from a full tuple, without the NamedTuple's Python-level __new__
_exact_decoder = msgspec.json.Decoder(float_hook=Decimal)
_exact_encoder = msgspec.json.Encoder(decimal_format="number")


def _decode(data: bytes, decoder: msgspec.json.Decoder):
    """Decode with the struct decoder; vendor ``x-`` keys go through a slower path."""
    if _VENDOR in data:
        # stripped, then written back as JSON for the same strict decoder; numbers go through
        # Decimal, never a binary float, so amounts keep their exact digits
        return decoder.decode(_exact_encoder.encode(codec.strip_vendor_keys(_exact_decoder.decode(data))))
    return decoder.decode(data)


def _coup_number(raw: bytes) -> int | None:
    try:
        obj = msgspec.json.decode(raw)
    except (ValueError, RecursionError):  # msgspec.DecodeError is a ValueError
        m = re.search(rb'"coup"\s*:\s*(\d+)', raw)
        return int(m.group(1)) if m and len(m.group(1)) <= figures.MAX_INT_DIGITS else None
    n = obj.get("coup") if isinstance(obj, dict) else None
    return n if isinstance(n, int) and not isinstance(n, bool) else None


#: the longest quoted part of a message about the input (an unknown key can be megabytes long)
MAX_QUOTED = 100
_QUOTED_SPAN = re.compile(f"`[^`]{{{MAX_QUOTED + 1},}}`|'[^']{{{MAX_QUOTED + 1},}}'")


def _short(m: re.Match) -> str:
    span = m.group()  # cut so that the result is no longer than MAX_QUOTED: cutting it again changes nothing
    return f"{span[:MAX_QUOTED - 31]}… ({len(span) - 2:,} characters){span[0]}"


def bounded(message: str) -> str:
    """A message with each quoted part (`...` or '...') longer than ``MAX_QUOTED`` characters cut to its
    start and its length."""
    return message if len(message) <= MAX_QUOTED else _QUOTED_SPAN.sub(_short, message)


def decode_coup(raw: bytes, line: int, column: int, path: str, fmt: codec.Codec | None = None) -> CoupRecord:
    """One coup decoded with the codec of its transcript's game (``fmt``; baccarat's when not given); a coup
    that repeats a key is unreadable (see :mod:`compliance.reading.duplicates`)."""
    fmt = fmt or registry.get(registry.BACCARAT).codec
    try:
        coup = _decode(raw, fmt.coup_decoder)
    except msgspec.ValidationError as e:  # a subclass of DecodeError: catch it first
        return CoupRecord(None, line, column, raw, path,
                          bounded(_rebase(_friendly(str(e), fmt.card_words, fmt.coup_decoder.type), path)),
                          _coup_number(raw))
    except msgspec.DecodeError as e:
        return CoupRecord(None, line, column, raw, path, bounded(f"not valid JSON: {e}"), _coup_number(raw))
    except RecursionError:
        return CoupRecord(None, line, column, raw, path, "nested too deeply to be a coup", _coup_number(raw))
    except ValueError as e:  # a number of more than figures.MAX_INT_DIGITS digits
        return CoupRecord(None, line, column, raw, path, figures.value_error(e), _coup_number(raw))
    repeated = duplicates.message(raw, path, coup)
    if repeated is not None:
        return CoupRecord(None, line, column, raw, path, repeated, coup.coup)
    return _new(CoupRecord, (coup, line, column, raw, path, None, coup.coup))


class TranscriptFile:
    """An opened transcript: its header, then its coups one at a time.

    The file is opened once and read once, front to back: the SHA-256 that
    reports give is of the bytes that were checked, taken as they were read
    (a file replaced while it is checked cannot lend its hash to the old
    one's findings, and a FIFO is read once).
    """

    def __init__(self, path: Path, display: str, *, data: bytes | None = None, jsonl: bool | None = None,
                 bounds: limits.Limits = limits.DEFAULTS):
        """``path``, or ``data`` already in memory (a Markdown block; ``jsonl`` says which form it has);
        ``bounds``: the run's size limits."""
        self.path = path
        self.bounds = bounds
        self.display = display  # the name findings carry
        self._memory = data
        if data is None:
            if not path.exists():
                raise UserError("no such file", display)
            if path.is_dir():
                raise UserError("is a directory, not a transcript", display)
        self.jsonl = path.suffix.lower() == ".jsonl" if jsonl is None else jsonl
        self._digest = hashlib.sha256()
        self._file = None  # .jsonl: the open file, from the header on to the last coup
        self.header_sha256 = ""  # of the bytes before the first coup (.jsonl), for parallel chunks
        try:
            self.header = self._read_header()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def _open(self):
        try:
            return io.BytesIO(self._memory) if self._memory is not None else self.path.open("rb", buffering=1 << 20)
        except OSError as e:
            raise UserError(f"cannot read: {e.strerror}", self.display) from None

    # -- header ---------------------------------------------------------
    def _header_from(self, data: bytes, where: str, path: str = "$"):
        try:
            self.game = registry.of_document(data)  # table.game picks the format of the header and the coups
            self.codec = self.game.codec.for_document(data)  # and `version` the revision of that format
            header = _decode(data, self.codec.header_decoder)
        except msgspec.ValidationError as e:  # a subclass of DecodeError: catch it first
            fmt = self.codec
            raise UserError(bounded(f"header: {_friendly(str(e), fmt.card_words, fmt.header_decoder.type)}"),
                            self._header_place(str(e)) or where) from None
        except msgspec.DecodeError as e:
            raise UserError(bounded(f"header is not valid JSON: {e}"), where) from None
        except RecursionError:
            raise UserError("header is nested too deeply", where) from None
        except ValueError as e:  # a number of more than figures.MAX_INT_DIGITS digits
            raise UserError(f"header: {figures.value_error(e)}", where) from None
        repeated = duplicates.message(data, path)
        if repeated is not None:
            raise UserError(f"header: {repeated}", where)
        return header

    def _header_place(self, err: str) -> str | None:
        """``file:line:column`` of what a header validation error names (the key, or the value at its path)."""
        m = _UNKNOWN.match(err)
        key, at = (m.group(1), m.group(2) or "$") if m else (None, (re.search(r" - at `(.*)`$", err) or [None, "$"])[1])
        return TranscriptFile.header_place(self, at, key)  # in this text: an embedding moves its errors' places

    def header_place(self, at: str, key: str | None = None) -> str | None:
        """``file:line:column`` of the header's value at the path ``at`` (``$.table.jurisdiction``), or of the key
        ``key`` in it; None where it is not found."""
        path = locate.parse_path(at)
        if path is None:
            return None
        if self.jsonl:
            offset = locate.path_offset(self._header_text, path, key)
            return None if offset is None else f"{self.display}:{self._header_line}:{offset + 1}"
        data = self._data
        if path:  # inside one top-level value: find that value's text in the document, then look in it
            value = self._top.get(path[0]) if isinstance(path[0], str) else None
            base = -1 if value is None else data.find(bytes(value))
            inner = None if base < 0 else locate.path_offset(bytes(value), path[1:], key)
            offset = None if inner is None else base + inner
        elif key is not None:  # an unknown top-level key: the key itself
            m = re.compile(re.escape(msgspec.json.encode(key)) + rb"\s*:").search(data)
            offset = m.start() if m else None
        else:
            offset = len(data) - len(data.lstrip())
        if offset is None:
            return None
        line, column = locate.line_column(data, offset)
        return f"{self.display}:{line}:{column}"

    def _read_header(self):
        if self.jsonl:
            f = self._file = self._open()
            digest = self._digest
            offset = 0
            longest = limits.limit("line", self.bounds)
            for n, line in enumerate(iter(lambda: f.readline(longest), b""), 1):
                digest.update(line)
                offset += len(line)
                if len(line) >= longest and not line.endswith(b"\n"):
                    raise UserError(f"header line is {limits.too_large('line', None, self.bounds)}",
                                    f"{self.display}:{n}")
                if n == 1:
                    line = line.removeprefix(BOM)
                if line.strip():
                    self._header_line = n
                    self._header_text = line
                    self._body_offset = offset  # where the first coup's line starts
                    self.header_sha256 = digest.copy().hexdigest()
                    return self._header_from(line, f"{self.display}:{n}")
            raise UserError("empty transcript: line 1 must be the header", self.display)
        as_jsonl = ("write it as .jsonl (the header on line 1, then one coup a line), which is read one coup at a "
                    "time in constant memory")
        try:
            size = (fileread.regular_size(self.path, self.display) if self._memory is None
                else len(self._memory))
            most = limits.limit("transcript", self.bounds)
            if size is None:
                most = min(most, limits.limit("stream", self.bounds))
            if size is not None and size > most:
                raise UserError(f"a .json transcript is read whole, and this one is "
                                f"{limits.too_large('transcript', size, self.bounds)}: {as_jsonl}", self.display)
            with self._open() as f:
                data = fileread.read_from(f, size, most)  # a FIFO or a device has no size to look at first
        except OSError as e:
            raise UserError(fileread.os_reason(e), self.display) from None
        if len(data) > most:
            kind = "transcript" if size is not None or most == limits.limit("transcript", self.bounds) else "stream"
            raise UserError(f"a .json transcript is read whole, and this one is "
                            f"{limits.too_large(kind, None, self.bounds)}: {as_jsonl}", self.display)
        self._digest.update(data)
        self._data = data.removeprefix(BOM)
        try:
            top = msgspec.json.decode(self._data, type=dict[str, msgspec.Raw])
        except msgspec.ValidationError:  # a subclass of DecodeError: catch it first
            raise UserError("a transcript must be a JSON object", self.display) from None
        except msgspec.DecodeError as e:
            raise UserError(f"not valid JSON: {_position(self._data, e)}", self.display) from None
        except RecursionError:
            raise UserError("not a transcript: JSON nested too deeply", self.display) from None
        except ValueError as e:  # a number of more than figures.MAX_INT_DIGITS digits
            raise UserError(f"not a transcript: {figures.value_error(e)}", self.display) from None
        repeated = duplicates.top_level_message(self._data, top)
        if repeated is not None:
            raise UserError(repeated, self.display)
        self._top = top
        if "coups" not in top:
            raise UserError("object missing required field `coups` - at `$`", self.display)
        header = b"{" + b",".join(msgspec.json.encode(k) + b":" + bytes(v) for k, v in top.items() if k != "coups") + b"}"
        try:
            self._coups = msgspec.json.decode(top["coups"], type=list[msgspec.Raw])
        except msgspec.ValidationError:
            raise UserError("`coups` must be an array - at `$.coups`", self.display) from None
        parsed = self._header_from(header, self.display)
        self._top = {k: v for k, v in top.items() if k != "coups"}  # the header's parts: where its errors are
        return parsed

    def sha256(self) -> str:
        """SHA-256 of the bytes checked, as they were read (complete once every coup has been read)."""
        return self._digest.hexdigest()

    # -- coups ----------------------------------------------------------
    def records(self) -> Iterator[CoupRecord]:
        if self.jsonl:
            f, self._file = self._file, None
            digest = self._digest
            if f is None:  # read already: open it again for a second pass (the hash is the first pass's)
                f, digest = self._open(), None
                f.seek(self._body_offset)
            with f:
                yield from self._lines(f, self._body_offset, None, self._header_line + 1, digest)
        else:
            yield from self._json_records()

    @property
    def body_offset(self) -> int:
        """A ``.jsonl``'s byte offset of the line after its header, where its coups start."""
        return self._body_offset

    @property
    def header_line(self) -> int:
        """A ``.jsonl``'s line number of its header."""
        return self._header_line

    def region_records(self, start: int, end: int | None, line: int, digest=None) -> Iterator[CoupRecord]:
        """The coups of the lines of a ``.jsonl`` from byte ``start`` (line number ``line``) to byte ``end`` (None:
        the end), one chunk of a large file (:mod:`compliance.reading.chunks`); it starts at a line start.
        ``digest``, if given, is fed the bytes read."""
        f = self._open()
        with f:
            f.seek(start)
            yield from self._lines(f, start, end, line, digest)

    def _lines(self, f, pos: int, end: int | None, line: int, digest) -> Iterator[CoupRecord]:
        """The coups of the lines read from ``f`` (at byte ``pos``, line number ``line``) up to byte ``end``.

        A line longer than the ``line`` limit is an unreadable coup, never loaded whole.
        """
        fmt = self.codec
        longest = limits.limit("line", self.bounds)
        readline = f.readline
        update = digest.update if digest is not None else None
        n = line - 1
        while end is None or pos < end:
            raw = readline(longest)
            if not raw:
                break
            if update is not None:
                update(raw)
            n += 1
            pos += len(raw)
            if len(raw) >= longest and raw[-1:] != b"\n":
                pos += _skip_line(f, update)
                yield CoupRecord(None, n, 1, b"", "$",
                                 f"line is {limits.too_large('line', None, self.bounds)}: not a coup",
                                 _coup_number(raw[:200]))
                continue
            stripped = raw.strip()
            if not stripped:
                continue
            column = 1 if raw[0] == 123 else 1 + len(raw) - len(raw.lstrip())  # 123: "{", where a coup starts
            yield decode_coup(stripped, n, column, "$", fmt)

    def _json_records(self) -> Iterator[CoupRecord]:
        """The coups of a .json document, each with its line and column, found in one pass over the text."""
        data = self._data
        search = counted = 0
        line = 1
        line_start = 0  # offset of the first byte of the current line
        for i, raw in enumerate(self._coups):
            raw = bytes(raw)
            at = data.find(raw, search)
            if at < 0:  # cannot happen for a decoded document; keep the last place
                at = counted
            newlines = data.count(b"\n", counted, at)
            if newlines:
                line += newlines
                line_start = data.rfind(b"\n", counted, at) + 1
            column = at - line_start + 1
            counted, search = at, at + len(raw)
            yield decode_coup(raw, line, column, f"$.coups[{i}]", self.codec)
        self._data = b""  # the document is no longer needed


def _skip_line(f, update=None) -> int:
    """Read past the rest of an overlong line without keeping it (``update``: fed what is read); the bytes
    skipped."""
    skipped = 0
    while True:
        part = f.readline(1 << 20)
        if update is not None:
            update(part)
        skipped += len(part)
        if not part or part[-1:] == b"\n":
            return skipped


def _position(data: bytes, err: Exception) -> str:
    """msgspec decode errors give a byte offset: turn it into line and column."""
    text = str(err)
    m = re.search(r" \(byte (\d+)\)", text)
    if m:
        offset = int(m.group(1))
        text = text[: m.start()]
    elif "truncated" in text:  # the document ends before its value does: point at its end
        offset = len(data.rstrip())
    else:
        return text
    line = data.count(b"\n", 0, offset) + 1
    column = offset - data.rfind(b"\n", 0, offset)
    return f"{text} at line {line}, column {column}"


def open_transcript(path: str | Path, display: str | None = None,
                    bounds: limits.Limits = limits.DEFAULTS) -> TranscriptFile:
    p = Path(path)
    shown = str(display or path)
    if not p.exists() and not p.is_symlink():
        raise UserError("no such file", shown)
    if p.suffix.lower() not in (".json", ".jsonl"):
        raise UserError("not a transcript: a transcript is a .json or .jsonl file", shown)
    fileread.regular_size(p, shown)  # a symlink loop, a directory: one clear error
    return TranscriptFile(p, shown, bounds=bounds)
