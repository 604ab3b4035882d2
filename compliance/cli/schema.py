"""``baccarat-audit schema``: the JSON Schemas of the formats, generated from the models."""

from __future__ import annotations

import json
from enum import Enum

import typer

from compliance.cli.app import app


class Which(str, Enum):
    transcript = "transcript"
    ruleset = "ruleset"
    report = "report"
    pai_gow_transcript = "pai-gow-transcript"


def schema_for(which: str) -> dict:
    if which == "transcript":
        from compliance import registry

        doc = registry.get(registry.BACCARAT).transcript_model.model_json_schema()
        doc["title"] = "baccarat transcript v1 and v1.1 (.json)"
        doc["description"] = ("Keys starting with x- are vendor extensions, accepted anywhere and ignored. "
                              "A .jsonl transcript holds the header (everything but coups) on line 1 and one coup a "
                              "line. Format 1.1 adds optional fields (recorded, staff, card codes recorded in part "
                              "such as 7?, 0?, ??): see docs/transcript.md.")
    elif which == "pai-gow-transcript":
        from compliance import registry

        doc = registry.get("pai_gow_poker").transcript_model.model_json_schema()
        doc["title"] = "pai gow poker transcript v1 (.json)"
        doc["description"] = ("Keys starting with x- are vendor extensions, accepted anywhere and ignored. "
                              "A .jsonl transcript holds the header (everything but coups) on line 1 and one round "
                              "(a coup object) a line. See docs/pai-gow-transcript.md.")
    elif which == "report":
        from compliance.report.json import schema as report_schema

        return report_schema()
    else:
        from compliance.ruleset.loader import ruleset_json_schema

        doc = ruleset_json_schema()
    doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return doc


@app.command()
def schema(which: Which = typer.Argument(..., metavar="FORMAT", show_default=False, case_sensitive=False,
                                         help="transcript, pai-gow-transcript, ruleset or report (the JSON report "
                                              "of check).")):
    """Print the JSON Schema of a format."""
    typer.echo(json.dumps(schema_for(which.value), indent=2, sort_keys=True))
