"""A repeated JSON key is an error naming the key and its path, never "the last one wins".

``"amount": 1000, "amount": 950`` checked as 950, while a reader that takes
the first value sees 1000: the same file meant two things.  A header that
repeats a key stops the file (exit 2); a coup that repeats one is an
unreadable coup, and the coups after it are still checked.  Both in ``.json``
and ``.jsonl``, at every depth, escaped keys included.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from reporting import run, sample_doc

from compliance.reading import duplicates

UNREADABLE = "transcript.unreadable"


def _text(doc: dict, jsonl: bool) -> str:
    if not jsonl:
        return json.dumps(doc, indent=1)
    head = {k: v for k, v in doc.items() if k != "coups"}
    return "".join(json.dumps(x) + "\n" for x in [head, *doc["coups"]])


def _repeat(text: str, first: str, second: str) -> str:
    """The text with ``second`` written again right after ``first`` (a repeated key)."""
    assert first in text
    return text.replace(first, first + second, 1)


@pytest.mark.parametrize("jsonl", [False, True], ids=["json", "jsonl"])
def test_a_repeated_amount_in_an_event_makes_the_coup_unreadable_and_says_where(tmp_path, monkeypatch, jsonl):
    monkeypatch.chdir(tmp_path)
    doc = sample_doc()
    coup5 = doc["coups"][4]
    settle = next(i for i, e in enumerate(coup5["events"]) if e["type"] == "settle")
    coup5["events"][settle]["amount"] = "AMOUNT"
    text = _text(doc, jsonl).replace('"AMOUNT"', '1000, "amount": 950', 1)
    name = "night.jsonl" if jsonl else "night.json"
    (tmp_path / name).write_text(text)
    out = json.loads(run("check", name, "-f", "json").stdout)
    unreadable = [f for f in out["findings"] if f["category"] == UNREADABLE]
    base = "$" if jsonl else "$.coups[4]"
    assert [(f["coup"], f["message"].split("): ", 1)[1]) for f in unreadable] == [
        (5, f"duplicate key `amount` - at `{base}.events[{settle}]`")]
    assert {f["coup"] for f in out["findings"]} == {3, 4, 5, 6}  # the other coups are still checked


@pytest.mark.parametrize("jsonl", [False, True], ids=["json", "jsonl"])
@pytest.mark.parametrize("first, second, key, path", [
    ('"id": "BAC-07"', ', "id": "BAC-08"', "id", "$.table"),
    ('"version": 1', ', "version": 1', "version", "$"),
    ('"id": "BAC-07"', ', "\\u0069d": "BAC-08"', "id", "$.table"),  # the same key, written with an escape
], ids=["table", "top", "escaped"])
def test_a_repeated_key_in_the_header_stops_the_file(tmp_path, monkeypatch, jsonl, first, second, key, path):
    monkeypatch.chdir(tmp_path)
    doc = sample_doc()
    doc["table"]["id"] = "BAC-07"
    name = "night.jsonl" if jsonl else "night.json"
    (tmp_path / name).write_text(_repeat(_text(doc, jsonl), first, second))
    r = run("check", name)
    assert r.exit_code == 2 and f"duplicate key `{key}` - at `{path}`" in r.stderr, r.stderr


def test_a_repeated_coups_array_stops_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = json.dumps(sample_doc())
    text = text[:-1] + ', "coups": []}'  # a second, empty list of coups after the real one
    (tmp_path / "night.json").write_text(text)
    r = run("check", "night.json")
    assert r.exit_code == 2 and "duplicate key `coups` - at `$`" in r.stderr


def test_a_repeated_key_in_a_baseline_stops_the_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "night.json").write_text(json.dumps(sample_doc()))
    (tmp_path / "b.json").write_text('{"baseline_version": 2, "findings": [], "findings": []}')
    r = run("check", "night.json", "--baseline", "b.json")
    assert r.exit_code == 2 and "duplicate key 'findings'" in r.stderr


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=12)


def _dump_with(obj, repeat: set[int], counter: list[int], ascii_only: bool) -> str:
    """JSON text of ``obj``; the objects whose number (in document order) is in ``repeat`` write their first
    key twice.  ``ascii_only``: other characters as \\u escapes (a backslash in the text), or as they are."""
    if isinstance(obj, dict):
        counter[0] += 1
        items = [json.dumps(k, ensure_ascii=ascii_only) + ":" + _dump_with(v, repeat, counter, ascii_only)
                 for k, v in obj.items()]
        if counter[0] - 1 in repeat and obj:
            items.append(items[0])
        return "{" + ",".join(items) + "}"
    if isinstance(obj, list):
        return "[" + ",".join(_dump_with(v, repeat, counter, ascii_only) for v in obj) + "]"
    return json.dumps(obj, ensure_ascii=ascii_only)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(obj=_json, repeat=st.sets(st.integers(0, 6), max_size=2), ascii_only=st.booleans())
def test_the_fast_test_agrees_with_the_exact_one(obj, repeat, ascii_only):
    """With and without backslashes in the text (json.dumps writes non-ASCII as \\u escapes, or not)."""
    raw = _dump_with(obj, repeat, [0], ascii_only).encode("utf-8", "surrogatepass")
    exact = duplicates.find(raw) is not None
    assert duplicates.has_duplicates(raw) == exact
    if exact:
        assert duplicates.message(raw).startswith("duplicate key `")


def _coup_texts():
    """The coups of the sample, with timestamps and patrons whose strings hold colons."""
    coups = []
    for c in sample_doc()["coups"]:
        c = json.loads(json.dumps(c))
        for k, e in enumerate(c["events"]):
            e["at"] = f"2026-11-29T20:{k:02d}:00Z"
        coups.append(c)
    return coups


_COUPS = _coup_texts()
_DEFAULTS = [("no_bet", False), ("dealing_method", None), ("seated", None), ("at", None), ("face", None)]


def _objects(c: dict) -> list[dict]:
    """Every object of a coup: the coup, its events, its seated map."""
    return [c, *c["events"], *([c["seated"]] if c.get("seated") else [])]


@settings(max_examples=300, deadline=None)
@given(which=st.integers(0, len(_COUPS) - 1), repeat=st.sets(st.integers(0, 40), max_size=2),
       defaults=st.sets(st.integers(0, 60), max_size=3), vendor=st.booleans(), indent=st.sampled_from([None, 1]))
def test_the_test_on_the_decoded_coup_agrees_with_the_exact_one(which, repeat, defaults, vendor, indent):
    """The cheapest test reads the coup as the validating decoder did: a key written twice anywhere, a field
    written at its default value, a vendor key, colons inside strings, indented or compact text."""
    from compliance.games.baccarat import GAME
    from compliance.reading.reader import _decode, decode_coup

    c = json.loads(json.dumps(_COUPS[which]))
    objects = _objects(c)
    for k in defaults:  # a field written at its default, where the object has that field
        key, value = _DEFAULTS[k % len(_DEFAULTS)]
        target = objects[k % len(objects)]
        if key in ("no_bet", "dealing_method", "seated") and target is c or key == "at" and target is not c \
                or key == "face" and target.get("type") == "card":
            target.setdefault(key, value)
    if vendor:
        c["x-recorder"] = "shoe:7"
    text = json.dumps(c, indent=indent) if not repeat else _dump_with(c, repeat, [0], False)
    raw = text.encode()
    record = decode_coup(raw, 1, 1, "$")
    exact = duplicates.find(raw) is not None
    assume(record.coup is not None or record.error.startswith("duplicate key"))  # else refused for another reason
    decoded = _decode(raw, GAME.codec.coup_decoder)
    assert duplicates.has_duplicates(raw, decoded) == exact
    assert (record.error is not None) == exact
