"""The root of the command line: ``app``, and what every command shares (one way to fail, to write a file)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import typer
from typer.core import TyperGroup

from compliance import __version__
from compliance.errors import UserError


class _Commands(TyperGroup):
    """The command line: a UserError from any command ends it with one clear message and exit 2."""

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
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool):
    if value:
        typer.echo(f"baccarat-audit {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version.")):
    pass


def fail(err: UserError | str) -> None:
    """Print one clear message and exit 2."""
    typer.echo(f"baccarat-audit: {err}", err=True)
    raise typer.Exit(2)


def decimal_text(d) -> str:
    """A Decimal as a person writes it: 0.05, 19, never 0.0500 or 1.9E+1."""
    text = f"{d:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def write_atomic(path: Path, content: bytes | Callable[[BinaryIO], object], error: str = "cannot write") -> None:
    """Write ``content`` (bytes, or a function writing to the binary file it is given) to ``path`` atomically.

    It goes to a temporary file beside ``path``, synced, then renamed over it: never a half-written file.
    An OSError ends the command with ``ERROR: <reason>`` (exit 2); interrupted (Ctrl-C, SIGTERM), the
    temporary file is removed and the old file (or none) is left.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            if isinstance(content, bytes):
                f.write(content)
            else:
                content(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        fail(UserError(f"{error}: {e.strerror}", str(path)))
    except BaseException:  # interrupted: leave the old file (or none), never half of a new one
        tmp.unlink(missing_ok=True)
        raise
