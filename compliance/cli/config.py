"""``baccarat-audit config show``: the settings ``check`` would use here, and where each comes from."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path

import typer

from compliance import config as settings_file
from compliance.cli.app import app

config_app = typer.Typer(help="Project configuration ([tool.baccarat-audit] in pyproject.toml, or .baccarat-audit.yaml).",
                         no_args_is_help=True)
app.add_typer(config_app, name="config")


class Format(str, Enum):
    text = "text"
    json = "json"


def _toml_value(value) -> str:
    if isinstance(value, dict):  # limits: an inline table
        return "{" + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False)


@config_app.command()
def show(
    config_file: Path = typer.Option(None, "--config", metavar="FILE", show_default=False,
                                     help="Configuration file to read instead of searching upward from the working "
                                          "directory."),
    fmt: Format = typer.Option(Format.text, "--format", "-f", metavar="FORMAT", case_sensitive=False,
                               help="text (as TOML) or json."),
    as_json: bool = typer.Option(False, "--json", hidden=True, help="The same as --format json."),
):
    """Print the effective settings of `check` in this directory (command-line flags would still win)."""
    s = settings_file.load(config_file)
    source = str(s.file) if s.file else None
    if as_json or fmt == Format.json:
        doc = {"file": source, "settings": {k: {"value": v, "from": s.origin[k]} for k, v in s.values.items()}}
        typer.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    typer.echo(f"# configuration file: {source or 'none found (defaults)'}")
    typer.echo("[tool.baccarat-audit]")
    for key, value in s.values.items():
        if value is None:
            typer.echo(f"# {key}: not set")
            continue
        line = f"{key} = {_toml_value(value)}"
        typer.echo(f"{line:<48} # {s.origin[key]}")
