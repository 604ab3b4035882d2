"""``baccarat-audit schema``: the JSON Schemas of the formats, generated from the models."""

from __future__ import annotations

import json

import typer

from compliance.cli.app import app
from compliance.errors import UserError


def schema_for(which: str) -> dict:
    """The JSON Schema of ``which``: ``ruleset``, ``report``, or a game's transcript format by its schema name."""
    if which == "report":
        from compliance.report.json import schema as report_schema

        return report_schema()
    if which == "ruleset":
        from compliance.ruleset.loader import ruleset_json_schema

        doc = ruleset_json_schema()
    else:
        from compliance import registry

        named = {game.schema_name: game for game in registry.every()}
        if which not in named:
            raise UserError(f"no format {which!r}; known: {', '.join([*named, 'ruleset', 'report'])}")
        doc = named[which].transcript_schema()
    doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return doc


@app.command()
def schema(which: str = typer.Argument(..., metavar="FORMAT", show_default=False,
                                       help="ruleset, report (the JSON report of check), or a game's transcript "
                                            "format: transcript (baccarat's), or the name another game gives its "
                                            "own (an unknown name lists them).")):
    """Print the JSON Schema of a format."""
    typer.echo(json.dumps(schema_for(which.lower()), indent=2, sort_keys=True))
