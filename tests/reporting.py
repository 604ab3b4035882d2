"""Helpers for the report tests: run `check` in-process, small transcripts, the vendored schemas."""

from __future__ import annotations

import copy
import datetime as dt
import functools
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from compliance.cli import app

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SAMPLE = ROOT / "fixtures" / "samples" / "night-shift.json"
STAMP = "2026-11-29T12:00:00Z"
START = dt.datetime(2026, 11, 29, 20)  # the first coup of breaching_transcripts(staffed=True)


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str


def run(*args: str, env: dict | None = None) -> Run:
    """`baccarat-audit ARGS` in this process (a UserError ends it with its message and exit 2, as on the command line).

    Every JSON, SARIF and JUnit report it prints or writes is validated against its schema.
    """
    args = [str(a) for a in args]
    result = CliRunner().invoke(app, args, env={"NO_COLOR": "1", **(env or {})})
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    if args[:1] == ["check"]:
        for fmt, text in _reports(args, result.stdout):
            validate_report(fmt, text)
    return Run(result.exit_code, result.stdout, result.stderr)


def _reports(args: list[str], stdout: str):
    """(format, text) of the reports a `check` command line produced, where the format is known."""
    fmt = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-f", "--format")), None)
    files = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-o", "--output")]
    if stdout.strip() and (fmt or not files) and "--statistics" not in args:  # statistics are no report
        yield fmt or "text", stdout
    for spec in files:
        kind, sep, name = spec.partition("=")
        if sep and name != "-" and Path(name).is_file():
            yield kind, Path(name).read_text()


def validate_report(fmt: str, text: str) -> None:
    if fmt == "json":
        import jsonschema

        from compliance.report.json import schema

        jsonschema.Draft202012Validator(schema()).validate(json.loads(text))
    elif fmt == "sarif":
        errors = list(sarif_validator().iter_errors(json.loads(text)))
        assert not errors, errors[0]
    elif fmt == "junit":
        from lxml import etree

        schema = junit_schema()
        assert schema.validate(etree.fromstring(text.encode())), schema.error_log


def sample_into(directory: Path, name: str = "night-shift.json") -> Path:
    """A copy of the bundled sample (us-nj, 6 coups, 6 errors in coups 3 to 6)."""
    target = directory / name
    shutil.copyfile(SAMPLE, target)
    return target


def sample_doc() -> dict:
    return json.loads(SAMPLE.read_text())


_SUIT_AFTER = {"S": "H", "H": "D", "D": "C", "C": "S"}


def _suits_turned(code: str, times: int) -> str:
    for _ in range(times):
        code = code[:-1] + _SUIT_AFTER[code[-1]]
    return code


def clean_doc(coups: int = 2) -> dict:
    """A compliant us-nj transcript: the sample's coups 1 and 2 (no finding), renumbered.

    Each copy has its cards' suits turned on (the points, and so the coup, stay the same), so that a record of
    up to six copies never repeats its own cards, nor the sample's: it is a shuffled shoe to the integrity
    stage too."""
    doc = sample_doc()
    good = [c for c in doc["coups"] if c["coup"] in (1, 2)]
    doc["coups"] = []
    for i in range(coups):
        c = copy.deepcopy(good[i % 2])
        c["coup"] = i + 1
        for e in c["events"]:
            if e["type"] == "card":
                e["card"] = _suits_turned(e["card"], i // 2 % 3 + 1)
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


@functools.cache
def sarif_validator():
    import jsonschema

    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text())
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


@functools.cache
def junit_schema():
    from lxml import etree

    return etree.XMLSchema(etree.parse(str(DATA / "JUnit.xsd")))


def breaching_transcripts(directory: Path, coups: int, tables: int = 4, staffed: bool = False) -> list[Path]:
    """``tables`` transcripts of ``coups`` coups each, every coup one of the sample's breaching coups 3 to 6
    (six findings every four coups: about 1.5 a coup), renumbered, a new shoe every 24 coups (so the shoe's
    cards stay plausible), each transcript at its own table BAC-01, BAC-02 ...  ``staffed``: four dealers
    relieve each other every 40 coups (format 1.1 staff) and each coup's events carry its time, a minute apart
    from 2026-11-29T20:00:00Z."""
    doc = sample_doc()
    breaching = [c for c in doc["coups"] if c["coup"] >= 3]
    paths = []
    for t in range(tables):
        d = copy.deepcopy(doc)
        d["table"]["id"] = f"BAC-{t + 1:02d}"
        d["coups"], d["shoes"] = [], []
        if staffed:
            d["version"] = "1.1"
            d["staff"] = [{"from_coup": first, "to_coup": first + 39, "dealer": f"D-{(first // 40) % 4 + 1:02d}"}
                          for first in range(1, coups + 1, 40)]
        for i in range(coups):
            c = copy.deepcopy(breaching[i % len(breaching)])
            c["coup"], c["shoe"] = i + 1, f"S-{i // 24:04d}"
            if staffed:
                at = (START + dt.timedelta(minutes=i)).strftime("%Y-%m-%dT%H:%M:%SZ")
                for e in c["events"]:
                    e["at"] = at
            if not d["shoes"] or d["shoes"][-1]["id"] != c["shoe"]:
                d["shoes"].append({"id": c["shoe"], "decks": 8})
            d["coups"].append(c)
        paths.append(write(directory / f"table-{t + 1:02d}.json", d, indent=None))
    return paths
