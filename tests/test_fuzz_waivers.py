"""Fuzzing the waivers file: whatever it holds, it loads (each waiver in force or rejected with its line) or is
refused with one :class:`~compliance.errors.UserError` that names the file; the line-by-line reader of the plain
layout reads exactly what the YAML parser reads; the index finds the waiver a scan of every waiver finds.

* structure-aware: waivers in the documented layout with values of every form (plain, quoted, numbers,
  dates possible and impossible, lists, words YAML reads as something else, comments, CRLF);
* raw bytes: a valid waivers file with bytes flipped, inserted, deleted, repeated and cut.
"""

from __future__ import annotations

import datetime as dt
import tempfile
from pathlib import Path

from fuzzing import budget, mutated
from hypothesis import given
from hypothesis import strategies as st

from compliance import waivers
from compliance.errors import UserError
from compliance.findings import Finding
from compliance.yamlread import parse_yaml

TODAY = dt.date(2026, 11, 29)
KEYS = ["id", "rule", "category", "transcript", "coups", "coup", "justification", "approved_by", "expires", "note"]
VALUES = st.one_of(
    st.sampled_from(["BAC-SETTLE-AMOUNT", "settlement.wrong-amount", "wager.late", "recordings/*.json", "*.jsonl",
                     "J. Rivera, compliance officer", "W-2026-014", "2027-03-31", "0000-00-00", "2026-02-30",
                     "[5, 6]", "[]", "[ 1 ,2 ]", "7", "007", "-1", "1e3", "true", "No", "null", "~", "yes", "on",
                     "'quoted: text'", '"double # quoted"', "'it''s'", '"esc\\u00e9"', "a: b", "a #b", "a#b",
                     "&anchor x", "*alias", "!!str x", "|", ">", "{a: 1}", "- x", "x:", "café", "é", "\u00a0x",
                     "13:69F-3.9", "\"\\ud800\"", "[1, x]", "9" * 30, "", "  padded  "]),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12),
)


#: values that look plain but that YAML may read as something else than text
TRICKY = st.sampled_from(["true", "True", "TRUE", "false", "Null", "NULL", "~", "y", "Y", "n", "on", "Off", "yes",
                          "007", "0", "10", "1e3", "1_000", "+1", "0x1F", "0o7", ".5", ".inf", ".NaN", "12:30",
                          "2027-3-31", "2027-03-31", "2027-03-31T10:00:00", "a: b", "a:b", "a:", "a #b", "a#b",
                          "a,b", "a[b]", "a{b}", "a - b", "x'y", "/rec/*.json", "_x", "[1,2]", "[1, 2 ]", "[ ]",
                          "['1']", "'q'", '"q"', "''", '""', "'a''b'", "'a # b'", "BAC-1", "W 1", "x  "])


@st.composite
def plain_files(draw, values=VALUES) -> str:
    """A waivers file in (or near) the documented layout."""
    indent = draw(st.sampled_from(["  ", "", "    "]))
    top = draw(st.sampled_from(["waivers:\n", "waivers:  # approved deviations\n", ""]))
    lines = ["# waivers of the night shift\n"] if draw(st.booleans()) else []
    lines.append(top)
    if not top:
        indent = ""
    for _ in range(draw(st.integers(0, 4))):
        keys = draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=6, unique=True))
        for k, key in enumerate(keys):
            value = draw(values)
            comment = "  # " + draw(st.sampled_from(["why", "x: y", "'"])) if draw(st.integers(0, 5)) == 0 else ""
            lead = indent + ("- " if k == 0 else "  ")
            lines.append(f"{lead}{key}: {value}{comment}\n")
            if draw(st.integers(0, 9)) == 0:
                lines.append("\n")
    text = "".join(lines)
    return text.replace("\n", "\r\n") if draw(st.integers(0, 7)) == 0 else text


def _yaml_reading(text: str):
    """(line, value) of each waiver as the one YAML reader reads the file."""
    doc = parse_yaml(text.encode(), "w.yaml", kind="waivers")
    items = doc.data.get("waivers") if isinstance(doc.data, dict) else doc.data
    base = ("waivers",) if isinstance(doc.data, dict) else ()
    return [(doc.position(base + (i,))[0], raw, doc.position(base + (i, "rule"))) for i, raw in enumerate(items or [])]


@budget(120)
@given(text=st.one_of(plain_files(), plain_files(TRICKY)))
def test_the_plain_layout_is_read_as_the_yaml_parser_reads_it(text):
    try:
        plain = list(waivers.plain_layout(text))
    except waivers._NotPlain:
        return  # the YAML parser reads it
    assert _yaml_reading(text) == plain


def _loads_or_refuses(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "w.yaml"
        path.write_bytes(data)
        try:
            loaded = waivers.load(path, TODAY)
        except UserError as e:
            assert e.where and e.where.startswith(str(path)), str(e)
            return
    for entry in loaded.active:
        assert entry.waiver.expires >= TODAY and entry.line >= 1
        entry.describe().encode("utf-8")  # a report can print it
    for rejected in loaded.rejected:
        assert rejected.reason and rejected.line >= 0
        (rejected.key + rejected.reason).encode("utf-8")


@budget(80)
@given(text=plain_files())
def test_any_waivers_file_loads_or_is_refused_with_its_place(text):
    _loads_or_refuses(text.encode("utf-8"))


VALID = (Path(__file__).parent / "test_waivers.py").read_text().split('WAIVERS = """\\\n')[1].split('"""')[0].encode()
TOKENS = [b"\n", b"\r\n", b"\t", b": ", b"- ", b"&a ", b"*a", b"<<: *a\n", b"!!python/object ", b"[", b"{", b"'",
          b'"\\ud800"', b"0000-00-00", b"\xff", b"\x00", b"#", b"9" * 5000]


@budget(80)
@given(data=st.data())
def test_a_valid_waivers_file_with_bytes_mangled_loads_or_is_refused(data):
    _loads_or_refuses(data.draw(mutated(VALID, TOKENS)))


# ------------------------------------------------------------------ matching through the index

RULES = ["BAC-A", "BAC-B"]
CATEGORIES = ["settlement.wrong-amount", "wager.late"]


@st.composite
def entries(draw) -> list[waivers.Entry]:
    out = []
    for n in range(draw(st.integers(0, 12))):
        rule = draw(st.sampled_from(RULES + [None]))
        category = draw(st.sampled_from(CATEGORIES)) if rule is None or draw(st.booleans()) else None
        w = waivers.Waiver(id=f"W-{n}", rule=rule, category=category, justification="j", approved_by="a",
                           transcript=draw(st.sampled_from([None, "a.json", "*.jsonl"])), expires=TODAY,
                           coups=draw(st.none() | st.lists(st.integers(1, 4), max_size=3)))
        out.append(waivers.Entry(f"W-{n}", n + 2, w))
    return out


@budget(150)
@given(active=entries(), found=st.lists(st.tuples(st.sampled_from(RULES), st.sampled_from(CATEGORIES),
                                                  st.sampled_from(["a.json", "b.jsonl"]), st.none() | st.integers(1, 4)),
                                        max_size=8))
def test_the_index_finds_the_first_waiver_a_scan_finds(active, found):
    loaded = waivers.Waivers("w.yaml", active=active)
    for rule, category, transcript, coup in found:
        f = Finding(rule=rule, category=category, severity="error", transcript=transcript, coup=coup, event=None,
                    message="m", citation="c")
        assert loaded.waiver_for(f) == next((e for e in active if e.waiver.matches(f)), None)
