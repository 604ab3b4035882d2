"""Fuzzing the ruleset loader: a broken ruleset is refused with file:line:column, never a traceback.

* structure-aware — the bundled jurisdiction rulesets, parsed, with keys
  dropped, values replaced by any YAML value, unknown keys and rules added,
  check kinds and parameters changed, then written back as YAML;
* raw bytes — the bundled YAML with bytes flipped, inserted, deleted,
  repeated and cut.

Each loads, or raises one :class:`~compliance.errors.UserError` that names
the file.  Bounded in time: a hundred or so examples each.
"""

from __future__ import annotations

import copy
import io
from pathlib import Path

import pytest
from fuzzing import budget, mutated
from hypothesis import given
from hypothesis import strategies as st
from ruamel.yaml import YAML

from compliance.errors import UserError
from compliance.ruleset.loader import load_ruleset

RULESETS = Path(__file__).resolve().parents[1] / "rulesets"
BASE = RULESETS / "punto-banco.yaml"
JURISDICTIONS = ["us-nj", "us-in", "au-nsw", "nz"]
FUZZ = budget(60)

_yaml = YAML(typ="safe", pure=True)


def _source(name: str) -> str:
    """A bundled ruleset whose ``extends`` points at the bundled base by path (it is loaded from elsewhere)."""
    return (RULESETS / f"{name}.yaml").read_text().replace("extends: punto-banco", f"extends: {BASE}")


PLAIN = {name: _yaml.load(_source(name)) for name in JURISDICTIONS}

VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(),
              st.sampled_from(["", "x", "error", "warning", "info", "deal.extra-card", "no-such-kind", "A", "C",
                               "nsw", "spec", "punto-banco", "us-nj", str(BASE), "../../etc/passwd", "DDDDDDDDDD",
                               "SSSSSSSSSS", "DS", ".nan", "\ufeff", "{house: 1}"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(["house", "note", "source", "at", "odds", "x"]), inner,
                                            max_size=3)),
    max_leaves=6)


def _paths(obj, prefix=()):
    """Every place in a plain YAML value: (path to it)."""
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


def _at(obj, path):
    for p in path:
        obj = obj[p]
    return obj


@st.composite
def rulesets(draw) -> dict:
    doc = copy.deepcopy(PLAIN[draw(st.sampled_from(JURISDICTIONS))])
    for _ in range(draw(st.integers(1, 4))):
        places = [p for p in _paths(doc) if p]
        if not places:
            break
        path = draw(st.sampled_from(places))
        parent, key = _at(doc, path[:-1]), path[-1]
        op = draw(st.integers(0, 3))
        if op == 0:
            del parent[key]  # drop a key or an item
        elif op == 1:
            parent[key] = draw(VALUES)  # any value in its place
        elif op == 2 and isinstance(parent, dict):
            parent[draw(st.sampled_from(["typo", "x-note", "check", "params", "rules", "overrides"]))] = draw(VALUES)
        elif isinstance(parent, list):
            parent.insert(draw(st.integers(0, len(parent))), draw(VALUES))  # an extra item
    if draw(st.integers(0, 5)) == 0:
        doc.setdefault("rules", [])
        if isinstance(doc["rules"], list):
            doc["rules"].append({"id": draw(st.sampled_from(["NEW", "BAC-CALLS"])), "title": "t",
                                 "check": draw(st.sampled_from(["deal.extra-card", "procedure.calls", "nope"])),
                                 "citation": {"source": draw(st.sampled_from(["spec", "nowhere"])), "at": ["1"]},
                                 "params": draw(VALUES)})
    return doc


def _loads_or_refuses(path: Path) -> None:
    try:
        ruleset = load_ruleset(str(path))
    except UserError as e:
        assert e.where and (str(path) in e.where or "punto-banco" in e.where or "rulesets/" in e.where), str(e)
        return
    assert ruleset.rules, "a ruleset that loads has rules"
    for rule in ruleset.rules:
        assert rule.citation_text


@pytest.mark.slow
@FUZZ
@given(doc=rulesets())
def test_any_ruleset_shaped_yaml_loads_or_is_refused_with_its_place(tmp_path_factory, doc):
    path = tmp_path_factory.mktemp("fuzz") / "house.yaml"
    out = io.StringIO()
    YAML(typ="safe", pure=True).dump(doc, out)
    path.write_text(out.getvalue())
    _loads_or_refuses(path)


#: pieces of YAML syntax, including the hostile ones (anchors, aliases, merge keys, tags, directives)
YAML_TOKENS = [b"\t", b"\n  ", b": ", b"- ", b"&a ", b"*a", b"!!python/object ", b"{", b"[", b"'", b'"',
               b"\xef\xbb\xbf", b"\r\n", b"<<: *a\n", b"%YAML 1.1\n"]


@st.composite
def mangled(draw) -> bytes:
    source = _source(draw(st.sampled_from(JURISDICTIONS))).encode()
    return draw(mutated(source, YAML_TOKENS, edits=5, span=30))


@FUZZ
@given(data=mangled())
def test_a_bundled_ruleset_with_bytes_mangled_loads_or_is_refused(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "mangled.yaml"
    path.write_bytes(data)
    _loads_or_refuses(path)
