"""Fuzzing the transcript reader and the whole check: no input, however broken, ends in a traceback.

Two kinds of input:

* structure-aware — hypothesis builds transcripts that look like the format
  (the right keys, mostly) with values of every type in every place, events
  of every kind in any order, numbers at the edges, unknown and vendor keys;
* raw bytes — a valid ``.json`` and ``.jsonl`` recording with bytes flipped,
  inserted, deleted, repeated and cut.

For each, the check either reports (findings, possibly ``transcript.unreadable``
ones, each with a category from the spec) or refuses the file with one
:class:`~compliance.errors.UserError` that says where.  Bounded in time: a few
hundred examples each.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import msgspec
import pytest
from builders import coup, dumps, jsonl, transcript
from fuzzing import budget, mutated
from hypothesis import given
from hypothesis import strategies as st

from compliance.categories import CATEGORIES
from compliance.engine import Checker
from compliance.errors import UserError

_encode = msgspec.json.Encoder(decimal_format="number").encode
_checker = Checker()
FUZZ = budget(150)

SEED = transcript([
    coup(1, ["4H", "TD", "3S"], ["KS", "6C"], [(1, "player", 100), (2, "banker", 200)]),
    coup(2, ["9H", "KH"], ["2C", "3C"], [(1, "player", 100), (3, "tie", 25)]),
    coup(3, ["KD", "4D", "3S"], ["KS", "6C", "8D"], [(1, "player", 100)]),
], "au-nsw")


def _judged(data: bytes, suffix: str) -> None:
    """The check reports on ``data`` or refuses it with a UserError; nothing else."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"fuzz{suffix}"
        path.write_bytes(data)
        try:
            result = _checker.check_file(path, path.name)
        except UserError as e:
            assert str(e).startswith("fuzz") or e.where, f"no place in: {e}"
            return
    for f in result.findings:
        assert f.category in CATEGORIES and f.severity in ("error", "warning", "info")
        assert f.message
    assert result.unreadable <= result.coups


# ------------------------------------------------------------------ structure-aware

SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, -1, 7, 8, 9, 10, 52, 2**31, 2**63, 2**64]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.decimals(allow_nan=False, allow_infinity=False, places=3),
    st.sampled_from(["", "x", "4H", "10S", "TD", "ZZ", "player", "banker", "tie", "burn", "discard", "next_coup",
                     "shoe", "banker_marker", "no_more_bets", "cards", "up", "down", "win", "lose", "push", "S1",
                     "initial", "third", "misdeal", "A", "C", "NaN", "-Infinity", "1e999999", "\u0000", "\ufeff"]),
)
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["a", "x-v", "type", "card", "amount"]), inner,
                                                 max_size=3)), max_leaves=8)
EVENT_KEYS = ["type", "at", "item", "seat", "patron", "accepted", "spot", "amount", "reason", "call", "card", "to",
              "face", "found_face_up", "carried_over", "player", "banker", "hand", "cards", "player_points",
              "banker_points", "winner", "outcome", "note", "x-vendor", "amout"]
TYPES = ["offer", "shoe_return", "wager", "wager_adjust", "announce", "card", "card_move", "reconstruct", "hand_pass",
         "hand_return", "result", "settle", "commission", "void", "dance"]


@st.composite
def events(draw):
    """An event: usually a real type with plausible fields, sometimes anything at all."""
    event = {"type": draw(st.sampled_from(TYPES))}
    for key in draw(st.lists(st.sampled_from(EVENT_KEYS[1:]), max_size=5, unique=True)):
        event[key] = draw(SCALARS if draw(st.integers(0, 4)) else JSON)
    if draw(st.integers(0, 9)) == 0:
        return draw(JSON)
    return event


def _tweak(draw, obj: dict, keys: list[str]) -> dict:
    """Replace, drop or add a few keys of ``obj``."""
    obj = dict(obj)
    for _ in range(draw(st.integers(0, 2))):
        key = draw(st.sampled_from(keys))
        what = draw(st.integers(0, 2))
        if what == 0:
            obj.pop(key, None)
        else:
            obj[key] = draw(JSON)
    return obj


@st.composite
def transcripts(draw) -> dict:
    head = {k: v for k, v in SEED.items() if k != "coups"}
    head = _tweak(draw, head, ["format", "version", "shoes", "x-origin", "extra"]) if draw(st.integers(0, 5)) == 0 \
        else head
    table = head.get("table")
    if isinstance(table, dict) and draw(st.booleans()):
        head["table"] = _tweak(draw, table, ["id", "game", "seats", "seat_order", "dealing_method", "limits",
                                             "commission", "jurisdiction", "currency", "x-floor"])
        if not isinstance(head["table"].get("jurisdiction"), str) or head["table"]["jurisdiction"] not in (
                "us-nj", "us-in", "au-nsw", "nz"):
            head["table"]["jurisdiction"] = "au-nsw"
    coups = []
    for n, base in enumerate(draw(st.lists(st.sampled_from(SEED["coups"]), min_size=0, max_size=4)), 1):
        c = dict(base, coup=draw(st.sampled_from([n, n, n, 0, n - 2, 2**40])))
        evs = list(c["events"])
        for _ in range(draw(st.integers(0, 3))):
            where = draw(st.integers(0, len(evs)))
            if draw(st.booleans()) and evs:
                evs.pop(min(where, len(evs) - 1))
            else:
                evs.insert(where, draw(events()))
        c["events"] = evs
        if draw(st.integers(0, 4)) == 0:
            c = _tweak(draw, c, ["coup", "shoe", "seated", "no_bet", "dealing_method", "events", "x-cam"])
        coups.append(c)
    return head | {"coups": coups}


@pytest.mark.slow
@FUZZ
@given(doc=transcripts(), jsonl_encoding=st.booleans())
def test_any_transcript_shaped_input_is_reported_or_refused(doc, jsonl_encoding):
    if jsonl_encoding:
        head = {k: v for k, v in doc.items() if k != "coups"}
        data = b"".join(_encode(x) + b"\n" for x in [head, *doc["coups"]])
        _judged(data, ".jsonl")
    else:
        _judged(_encode(doc), ".json")


# ------------------------------------------------------------------ raw bytes

VALID = {".json": dumps(SEED).encode(), ".jsonl": jsonl(SEED).encode()}


#: pieces of JSON syntax and the hostile values a recording may carry
JSON_TOKENS = [b"\n", b"\r\n", b"\xef\xbb\xbf", b"\x00", b"{", b"]", b'"', b"\\", b"1e999999", b"-", b"NaN", b"\xff"]


@FUZZ
@given(data=st.data(), suffix=st.sampled_from([".json", ".jsonl"]))
def test_a_valid_recording_with_bytes_mangled_is_reported_or_refused(data, suffix):
    _judged(data.draw(mutated(VALID[suffix], JSON_TOKENS)), suffix)


@budget(100)
@given(data=st.binary(max_size=2000), suffix=st.sampled_from([".json", ".jsonl"]))
def test_random_bytes_are_reported_or_refused(data, suffix):
    _judged(data, suffix)
