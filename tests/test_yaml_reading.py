"""One YAML reader for every YAML file the tool reads: each error reads ``file:line:col: message``."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from compliance import config, paragraphs, ruletests, waivers
from compliance.errors import UserError, Where
from compliance.ruleset.loader import load_ruleset
from compliance.yamlread import parse_yaml

BROKEN = "a: [1, 2\nb: 3\n"  # an unclosed flow sequence
PLACE = re.compile(r"^(?P<file>.+):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)$")


def _readers(tmp_path: Path):
    return {
        "ruleset": (tmp_path / "house.yaml", lambda p: load_ruleset(str(p))),
        "rule-test sidecar": (tmp_path / "x.expected.yaml", ruletests.read_sidecar),
        "coverage map": (tmp_path / "coverage.yaml", paragraphs.load_map),
        "waivers": (tmp_path / "waivers.yaml", lambda p: waivers.load(p, dt.date(2026, 1, 1))),
        "configuration": (tmp_path / ".baccarat-audit.yaml", config.read_file),
    }


@pytest.mark.parametrize("kind", ["ruleset", "rule-test sidecar", "coverage map", "waivers", "configuration"])
def test_broken_yaml_is_reported_at_file_line_column_the_same_way_for_every_file(tmp_path, kind):
    path, read = _readers(tmp_path)[kind]
    path.write_text(BROKEN)
    with pytest.raises(UserError) as e:
        read(path)
    m = PLACE.match(str(e.value))
    assert m, str(e.value)
    assert m["file"] == str(path) and m["message"].startswith("invalid YAML: ")
    assert (int(m["line"]), int(m["col"])) != (0, 0)


@pytest.mark.parametrize("kind", ["rule-test sidecar", "coverage map", "waivers", "configuration"])
def test_a_file_of_the_wrong_shape_is_reported_at_a_line_and_column(tmp_path, kind):
    path, read = _readers(tmp_path)[kind]
    path.write_text("- just\n- a list\n" if kind != "waivers" else "waivers: 7\n")
    with pytest.raises(UserError) as e:
        read(path)
    assert PLACE.match(str(e.value)), str(e.value)


def test_a_wrong_setting_in_the_configuration_points_at_its_key(tmp_path):
    path = tmp_path / ".baccarat-audit.yaml"
    path.write_text("fail-on: error\njobs: many\n")
    with pytest.raises(UserError) as e:
        config.read_file(path)
    assert str(e.value).startswith(f"{path}:2:1: setting jobs:")


def test_a_sidecar_with_an_unknown_key_points_at_the_key(tmp_path):
    path = tmp_path / "x.expected.yaml"
    path.write_text("fires: [R-1]\nsilnet: all\n")
    with pytest.raises(UserError) as e:
        ruletests.read_sidecar(path)
    assert str(e.value).startswith(f"{path}:2:1: unknown key 'silnet'")


def test_the_reader_keeps_every_place_and_gives_plain_exact_values():
    doc = parse_yaml(b"rules:\n  - id: R-1\n    rate: 0.05\n", "r.yaml")
    assert doc.data == {"rules": [{"id": "R-1", "rate": __import__("decimal").Decimal("0.05")}]}
    where = doc.where(("rules", 0, "rate"))
    assert isinstance(where, Where) and (where.line, where.column) == (3, 5) and where == "r.yaml:3:5"
    assert doc.where(("rules", 0, "missing")) == "r.yaml:2:5"  # the nearest node that is there


def test_an_alias_bomb_stops_at_the_node_count_not_at_the_machines_memory():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(6))
    with pytest.raises(UserError, match="too large"):
        parse_yaml(bomb.encode(), "bomb.yaml")


def test_an_anchor_set_twice_is_refused_at_its_second_place():
    """YAML lets a later anchor of the same name shadow the first, so an alias would read whichever came last:
    the reader refuses it, at the second anchor, as it refuses a key given twice."""
    text = b"a: &x 1\nb: [&x 2, *x]\n"
    with pytest.raises(UserError, match=r"the anchor &x is set again \(first on line 1\)") as refused:
        parse_yaml(text, "twice.yaml")
    assert refused.value.where == Where("twice.yaml", 2, 5)
    assert parse_yaml(b"a: &x 1\nb: [*x, *x]\n", "once.yaml").data == {"a": 1, "b": [1, 1]}
