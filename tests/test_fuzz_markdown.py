"""Fuzzing Markdown procedure documents: every tagged block is found where CommonMark puts it, and each is
checked or refused with one :class:`~compliance.errors.UserError` that names the document and a line.

* the fences: documents of fence lines (backticks, tildes, indented, with and without the tag, closing
  and not), text and blank lines; the blocks found by the one-pass reader are the blocks a line-by-line
  reading finds (:func:`line_by_line`, the reader the project had before it was made linear);
* raw bytes: a manual with a JSON and a JSON Lines transcript block, bytes flipped, inserted, deleted,
  repeated and cut, then every block of it checked.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from builders import coup, dumps, jsonl, transcript
from fuzzing import budget, mutated
from hypothesis import given
from hypothesis import strategies as st

from compliance._internal.inputs import collect
from compliance.categories import CATEGORIES
from compliance.engine import Checker
from compliance.errors import UserError
from compliance.reading.markdown import TAG, blocks

_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*)$")


def line_by_line(document: str) -> list[tuple[int, int, bytes, str]]:
    """(line, indent, text, info) of each tagged block, reading the document one line at a time."""
    lines = document.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out, i = [], 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m or (m["fence"][0] == "`" and "`" in m["info"]):
            i += 1
            continue
        fence, indent, info = m["fence"], len(m["indent"]), m["info"].strip()
        body, j = [], i + 1
        while j < len(lines):
            close = _FENCE.match(lines[j])
            if close and close["fence"][0] == fence[0] and len(close["fence"]) >= len(fence) \
                    and not close["info"].strip():
                break
            line = lines[j]
            body.append(line[min(len(line) - len(line.lstrip(" ")), indent):])
            j += 1
        if info.split()[:1] == [TAG]:
            out.append((i + 2, indent, ("\n".join(body) + "\n").encode(), info))
        i = j + 1
    return out


LINES = st.one_of(
    st.sampled_from(["```baccarat-transcript", "```baccarat-transcript jsonl", "~~~baccarat-transcript",
                     "  ```baccarat-transcript", "   ~~~~ baccarat-transcript json", "    ```baccarat-transcript",
                     "```", "````", "~~~", "~~~~", "  ```", "``` x", "```json", "```baccarat-transcript `x`",
                     "{\"coup\": 1}", "  indented", "      deep", "", " ", "text ``` inside", "\t```"]),
    st.text(alphabet=st.sampled_from("`~ abc{}\"\t"), max_size=8),
)


@budget(200)
@given(lines=st.lists(LINES, max_size=14), crlf=st.booleans(), end=st.booleans())
def test_the_blocks_are_those_a_line_by_line_reading_finds(lines, crlf, end):
    document = "\n".join(lines) + ("\n" if end else "")
    found = [(b.line, b.indent, b.text, b.info) for b in blocks(document.replace("\n", "\r\n") if crlf else document)]
    assert found == line_by_line(document)


SEED = transcript([coup(1, ["4H", "TD", "3S"], ["KS", "6C"], [(1, "player", 100)]),
                   coup(2, ["KD", "4D", "3S"], ["KS", "6C", "8D"], [(1, "player", 100)])], "au-nsw")
MANUAL = (f"# Procedures\n\nA coup by the book:\n\n```{TAG}\n{dumps(SEED)}\n```\n\nThe same, as JSON Lines:\n\n"
          f"~~~~{TAG} jsonl\n{jsonl(SEED)}~~~~\n\n    ```{TAG}\n    not a block: indented code\n    ```\n").encode()
TOKENS = [b"```", b"~~~", f"```{TAG}\n".encode(), b"\n", b"\r", b"\r\n", b"\x00", b"\xff", b"{", b"[" * 200,
          b"9" * 5000, b'"\\ud800"']


@budget(40)
@given(data=st.data())
def test_a_manual_with_bytes_mangled_is_checked_or_refused(data):
    document = data.draw(mutated(MANUAL, TOKENS))
    checker = Checker()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "manual.md"
        path.write_bytes(document)
        errors: list[UserError] = []
        for inp in collect([path], errors.append):
            try:
                result = inp.check(checker)
            except UserError as e:
                assert e.where and e.where.startswith(str(path)) and ":" in e.where[len(str(path)):], str(e)
                continue
            assert all(f.category in CATEGORIES and f.message for f in result.findings)
            assert result.transcript.startswith(f"{path}#L")
        for e in errors:
            assert e.where and e.where.startswith(str(path)), str(e)
