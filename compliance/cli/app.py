"""The root of the command line: ``app``, and what every command shares (one way to fail).

Files are written by :mod:`compliance.outputs` (never through a link, never over a device or an input).
"""

from __future__ import annotations

import typer
from typer.core import TyperArgument, TyperGroup

from compliance import __version__
from compliance.errors import UserError
from compliance.printable import printable


class _Argument(TyperArgument):
    """An argument shown in help by its metavar alone (typer would add the Python type after it: <list[Path]>)."""

    def display_type_rich(self, ctx):
        return None


def _plain_arguments(command) -> None:
    """Every argument of ``command`` (a click command typer made) and of its subcommands shown plainly."""
    for param in command.params:
        if type(param) is TyperArgument and param.metavar is not None:
            param.__class__ = _Argument
    for sub in getattr(command, "commands", {}).values():
        _plain_arguments(sub)


class _Commands(TyperGroup):
    """The command line: a UserError from any command ends it with one clear message and exit 2."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _plain_arguments(self)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except UserError as e:
            fail(e)


app = typer.Typer(
    cls=_Commands,
    name="baccarat-audit",
    help="Replay recorded baccarat coups against a jurisdiction's rules and report every breach, with its regulation.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion, --show-completion (bash, zsh, fish, PowerShell)
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool):
    if value:
        typer.echo(f"baccarat-audit {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                      help="Print the version and exit.")):
    pass


def fail(err: UserError | str) -> None:
    """Print one clear message (its control characters made visible: it may quote the input) and exit 2."""
    typer.echo(f"baccarat-audit: {printable(err)}", err=True)
    raise typer.Exit(2)


def decimal_text(d) -> str:
    """A Decimal as a person writes it: 0.05, 19, never 0.0500 or 1.9E+1."""
    text = f"{d:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
