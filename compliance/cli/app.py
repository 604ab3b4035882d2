"""The root of the command line: ``app``, and what every command shares (one way to fail).

What leans on typer's internals is :mod:`compliance.cli._compat` alone.  Files are written by
:mod:`compliance.outputs` (never through a link, never over a device or an input).
"""

from __future__ import annotations

import io

import typer
from typer.core import TyperGroup

from compliance import __version__
from compliance.cli._compat import BUNDLED as BUNDLED  # the placeholder the commands' help names
from compliance.cli._compat import plain_arguments
from compliance.errors import UserError
from compliance.printable import decimal_text as decimal_text  # the commands' numbers as a person writes them
from compliance.printable import printable


class ClosedStdout(io.TextIOBase):
    """Standard output when the command was started with it closed (``>&-``): writing to it ends the command
    with one message, exit 2; a run that writes its reports to files only never notices."""

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        raise UserError("standard output is closed: the report cannot be printed; open it, or write the reports "
                        "to files with -o FORMAT=FILE")

    def flush(self) -> None:
        pass


class _Commands(TyperGroup):
    """The command line: a UserError from any command ends it with one clear message and exit 2."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        plain_arguments(self)

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
