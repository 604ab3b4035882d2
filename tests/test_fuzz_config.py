"""Fuzzing the configuration (``.baccarat-audit.yaml`` and ``[tool.baccarat-audit]`` in ``pyproject.toml``):
whatever it holds, it gives settings or one :class:`~compliance.errors.UserError` that names the file.

* structure-aware: every setting (and unknown ones) with values of every type, as YAML and as TOML;
* raw bytes: a valid file of each kind with bytes flipped, inserted, deleted, repeated and cut.
"""

from __future__ import annotations

import io
import json
import tempfile
from pathlib import Path

from fuzzing import budget, mutated
from hypothesis import given
from hypothesis import strategies as st
from ruamel.yaml import YAML

from compliance import config
from compliance.errors import UserError

KEYS = ["ruleset", "format", "output", "fail-on", "waivers", "baseline", "paths", "limits", "typo"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70),
                    st.floats(allow_nan=False, allow_infinity=False),
                    st.sampled_from(["us-nj", "json", "sarif", "error", "warning", "html=r.html", "recordings/", "",
                                     "../../etc/passwd", "é", "\ufeff", "x=y=z"]),
                    st.text(max_size=8))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["waivers", "stream", "line", "x"]), inner,
                                                 max_size=3)), max_leaves=6)


def _toml(value) -> str:
    """A value as TOML (None has no TOML form: an empty array stands for it)."""
    if value is None:
        return "[]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"


@st.composite
def settings_files(draw) -> tuple[str, bytes]:
    values = {k: draw(VALUES) for k in draw(st.lists(st.sampled_from(KEYS), max_size=4, unique=True))}
    if draw(st.booleans()):
        out = io.StringIO()
        YAML(typ="safe", pure=True).dump(values, out)
        return config.YAML_NAME, out.getvalue().encode("utf-8", "surrogatepass")
    body = "".join(f"{k} = {_toml(v)}\n" for k, v in values.items())
    return config.PYPROJECT, f"[project]\nname = 'x'\n\n[tool.baccarat-audit]\n{body}".encode("utf-8", "surrogatepass")


def _settings_or_refused(name: str, data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        try:
            settings = config.load(path)
        except UserError as e:
            assert e.where and e.where.startswith(str(path)), str(e)
            return
    assert set(settings.values) <= set(config.DEFAULTS) | {"limits"}
    json.dumps(settings.values, ensure_ascii=False).encode("utf-8")  # `config show` can print them


@budget(120)
@given(file=settings_files())
def test_any_configuration_gives_settings_or_is_refused_with_its_place(file):
    _settings_or_refused(*file)


VALID = {
    config.YAML_NAME: b"ruleset: us-nj\nformat: json\noutput: [sarif=audit.sarif, junit=audit.xml]\nfail-on: warning\n"
                      b"waivers: waivers.yaml\nbaseline: baseline.json\npaths: [recordings/]\nlimits: {waivers: 64}\n",
    config.PYPROJECT: b"[project]\nname = 'casino'\n\n[tool.baccarat-audit]\nruleset = 'us-nj'\nformat = 'json'\n"
                      b"output = ['sarif=audit.sarif']\nfail-on = 'warning'\npaths = ['recordings/']\n"
                      b"[tool.baccarat-audit.limits]\nwaivers = 64\n",
}
TOKENS = [b"\n", b"\r\n", b"\t", b": ", b"= ", b"- ", b"&a ", b"*a", b"[", b"{", b"'", b'"', b'"\\ud800"', b"\xff",
          b"\x00", b"#", b"9" * 5000, b"[" * 3000, b"[tool.baccarat-audit]\n", b"!!python/object "]


@budget(120)
@given(data=st.data(), name=st.sampled_from(sorted(VALID)))
def test_a_valid_configuration_with_bytes_mangled_gives_settings_or_is_refused(data, name):
    _settings_or_refused(name, data.draw(mutated(VALID[name], TOKENS)))
