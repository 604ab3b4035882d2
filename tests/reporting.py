"""Helpers for the report tests: run `check` in-process, small transcripts, the vendored schemas."""

from __future__ import annotations

import copy
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from compliance.cli import app
from compliance.errors import UserError

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SAMPLE = ROOT / "fixtures" / "samples" / "night-shift.json"
STAMP = "2026-11-29T12:00:00Z"


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str


def run(*args: str, env: dict | None = None) -> Run:
    """`baccarat-audit ARGS` in this process; a UserError ends it with exit 2 as the real command does."""
    result = CliRunner().invoke(app, [str(a) for a in args], env={"NO_COLOR": "1", **(env or {})})
    if isinstance(result.exception, UserError):
        return Run(2, result.stdout, f"baccarat-audit: {result.exception}")
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Run(result.exit_code, result.stdout, result.stderr)


def sample_into(directory: Path, name: str = "night-shift.json") -> Path:
    """A copy of the bundled sample (us-nj, 6 coups, 6 errors in coups 3 to 6)."""
    target = directory / name
    shutil.copyfile(SAMPLE, target)
    return target


def sample_doc() -> dict:
    return json.loads(SAMPLE.read_text())


def clean_doc(coups: int = 2) -> dict:
    """A compliant us-nj transcript: the sample's coups 1 and 2 (no finding), renumbered."""
    doc = sample_doc()
    good = [c for c in doc["coups"] if c["coup"] in (1, 2)]
    doc["coups"] = []
    for i in range(coups):
        c = copy.deepcopy(good[i % 2])
        c["coup"] = i + 1
        doc["coups"].append(c)
    return doc


def write(path: Path, doc: dict, indent: int | None = 1) -> Path:
    path.write_text(json.dumps(doc, indent=indent) + "\n")
    return path


def with_unreadable_coup(doc: dict, number: int = 2) -> dict:
    """The transcript with one coup's first card code made unreadable."""
    doc = copy.deepcopy(doc)
    coup = next(c for c in doc["coups"] if c["coup"] == number)
    card = next(e for e in coup["events"] if e["type"] == "card")
    card["card"] = "1X"
    return doc


def sarif_validator():
    import jsonschema

    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text())
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def junit_schema():
    from lxml import etree

    return etree.XMLSchema(etree.parse(str(DATA / "JUnit.xsd")))
