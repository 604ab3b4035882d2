"""Fuzzing the baseline file: whatever it holds, it loads or is refused with one
:class:`~compliance.errors.UserError` that names the file, never a traceback.

* structure-aware: baselines with entries of every JSON value in every field, keys dropped and added, the
  version and the findings list replaced, numbers at the edges;
* raw bytes: a baseline written by ``--write-baseline`` with bytes flipped, inserted, deleted, repeated and cut.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from fuzzing import budget, mutated
from hypothesis import given
from hypothesis import strategies as st

from compliance import baseline
from compliance.errors import UserError
from compliance.findings import Finding

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(),
                    st.sampled_from(["", "f1", "BAC-SETTLE-AMOUNT", "night-shift.json", "\u0000", "\ufeff", "é"]),
                    st.text(max_size=8))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                     st.dictionaries(st.text(max_size=4), inner, max_size=3)),
                    max_leaves=6)
FIELDS = ["fingerprint", "rule", "category", "transcript", "coup", "event", "message", "extra"]
GOOD = {"fingerprint": "f1", "rule": "BAC-SETTLE-AMOUNT", "category": "settlement.wrong-amount",
        "transcript": "night-shift.json", "coup": 5, "event": 10, "message": "m"}


@st.composite
def baselines(draw) -> str:
    entries = []
    for _ in range(draw(st.integers(0, 3))):
        entry = dict(GOOD)
        for key in draw(st.lists(st.sampled_from(FIELDS), max_size=3, unique=True)):
            if draw(st.booleans()):
                entry.pop(key, None)
            else:
                entry[key] = draw(JSON)
        entries.append(entry if draw(st.integers(0, 9)) else draw(JSON))
    doc = {"baseline_version": 1, "tool": "baccarat-audit", "tool_version": "0", "findings": entries}
    for key in draw(st.lists(st.sampled_from(["baseline_version", "findings", "tool", "x"]), max_size=2)):
        doc[key] = draw(JSON)
    return json.dumps(doc if draw(st.integers(0, 9)) else draw(JSON), allow_nan=True)


def _loads_or_refuses(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "baseline.json"
        path.write_bytes(data)
        try:
            loaded = baseline.load(path)
        except UserError as e:
            assert e.where and e.where.startswith(str(path)), str(e)
            return
    for fingerprint, entry in loaded.entries.items():
        assert isinstance(fingerprint, str) and fingerprint == entry.fingerprint
        assert all(isinstance(v, str) for v in (entry.rule, entry.transcript, entry.message))
        assert entry.coup is None or isinstance(entry.coup, int)
        json.dumps(entry.__dict__, ensure_ascii=False).encode("utf-8")  # a report can print it


@budget(150)
@given(text=baselines())
def test_any_baseline_shaped_json_loads_or_is_refused(text):
    _loads_or_refuses(text.encode("utf-8", "surrogatepass"))


VALID = baseline.render([Finding(rule="BAC-SETTLE-AMOUNT", category="settlement.wrong-amount", severity="error",
                                 transcript="night-shift.json", coup=n, event=10, message=f"seat {n} paid wrong",
                                 citation="c") for n in range(1, 4)], "0").encode()
TOKENS = [b"NaN", b"Infinity", b"1e999999", b"9" * 5000, b"[" * 3000, b'"\\ud800"', b"\xff", b"\x00", b"{", b"]",
          b'"', b"\\", b",", b"null"]


@budget(150)
@given(data=st.data())
def test_a_written_baseline_with_bytes_mangled_loads_or_is_refused(data):
    _loads_or_refuses(data.draw(mutated(VALID, TOKENS)))
