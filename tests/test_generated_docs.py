"""Generated documents are up to date: docs/rules.md, docs/coverage.md, docs/schema/*.schema.json.

They are never written by hand: `make docs` regenerates them from the
rulesets, the coverage map and the models; these tests fail when a change was
committed without regenerating them.  The bundled rulesets point editors at
the schema and validate against it.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import jsonschema
import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

from compliance.cli import app
from compliance.ruleset.loader import bundled_dir, bundled_ids

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
REGENERATE = "out of date: run `make docs`"


def cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_rules_md_is_generated_from_the_rulesets():
    assert (DOCS / "rules.md").read_text(encoding="utf-8") == cli("rules", "list", "--format", "markdown"), REGENERATE


def test_coverage_md_is_generated_from_the_map():
    assert (DOCS / "coverage.md").read_text(encoding="utf-8") == cli("coverage", "--format", "markdown"), REGENERATE


def test_ruleset_schema_is_generated_from_the_models():
    published = json.loads((DOCS / "schema" / "ruleset.schema.json").read_text(encoding="utf-8"))
    assert published == json.loads(cli("schema", "ruleset")), REGENERATE


def test_transcript_schema_is_generated_from_the_models():
    published = json.loads((DOCS / "schema" / "transcript.schema.json").read_text(encoding="utf-8"))
    assert published == json.loads(cli("schema", "transcript")), REGENERATE


@pytest.mark.parametrize(("seated", "valid"), [
    ({"1": "P-1", "12": "P-12", "x-vip": True}, True),
    ({"03": "P-3"}, False),
    ({"-3": "P-3"}, False),
    ({"three": "P-3"}, False),
    ({"3": 3}, False),
])
def test_the_published_schema_takes_the_seat_keys_the_readers_take(seated, valid):
    schema = json.loads((DOCS / "schema" / "transcript.schema.json").read_text(encoding="utf-8"))
    doc = {"format": "baccarat-transcript", "version": 1, "table": {"id": "T", "game": "punto_banco", "seats": 14},
           "shoes": [{"id": "S1", "decks": 8}], "coups": [{"coup": 1, "shoe": "S1", "seated": seated, "events": []}]}
    assert jsonschema.Draft202012Validator(schema).is_valid(doc) is valid


@pytest.mark.parametrize("name", ["clean-us-nj.json", "clean-au-nsw.json", "faults-us-nj.json"])
def test_conformance_transcripts_validate_against_the_published_transcript_schema(name):
    path = ROOT.parent / "shared" / "conformance" / name
    if not path.exists():
        pytest.skip("the shared conformance suite is not beside the project")
    schema = json.loads((DOCS / "schema" / "transcript.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(json.loads(path.read_text(encoding="utf-8")))


def test_rules_md_lists_every_rule_with_its_citation_per_jurisdiction():
    from compliance.ruleset.loader import load_ruleset

    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    for rid in bundled_ids():
        rs = load_ruleset(rid, allow_abstract=True)
        if rs.abstract:
            continue
        section = text.split(f"## {rs.id} — ", 1)[1].split("\n## ", 1)[0]
        for r in rs.rules:
            row = next(line for line in section.splitlines() if line.startswith(f"| `{r.id}` |"))
            assert f"`{r.category}`" in row and r.severity in row and r.citation_text.replace("|", "\\|") in row


def _plain(value):
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, Decimal):
        return float(value)
    return value


def _schema_validator():
    schema = json.loads((DOCS / "schema" / "ruleset.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("rid", bundled_ids())
def test_bundled_ruleset_names_the_schema_for_editors_and_validates_against_it(rid):
    path = bundled_dir() / f"{rid}.yaml"
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../docs/schema/ruleset.schema.json"
    assert (path.parent / "../docs/schema/ruleset.schema.json").resolve() == (DOCS / "schema" / "ruleset.schema.json")
    data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    errors = [e.message for e in _schema_validator().iter_errors(_plain(data))]
    assert errors == []


def test_schema_knows_each_check_kind_and_its_parameters():
    v = _schema_validator()
    base = {"id": "x", "title": "x", "version": "1"}
    rule = {"id": "R", "title": "t", "check": "procedure.calls"}
    assert not list(v.iter_errors({**base, "rules": [{**rule, "params": {"calls": ["cards"]}}]}))
    assert not list(v.iter_errors({**base, "rules": [{**rule, "params": {"calls": {"house": ["cards"], "note": "n"}}}]}))
    assert list(v.iter_errors({**base, "rules": [{**rule, "params": {"calls": ["shout"]}}]}))
    assert list(v.iter_errors({**base, "rules": [{**rule, "params": {"cals": ["cards"]}}]}))
    assert list(v.iter_errors({**base, "rules": [{**rule, "check": "procedure.call"}]}))
