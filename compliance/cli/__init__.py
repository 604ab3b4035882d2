"""The ``baccarat-audit`` command line (typer).

Each command group lives in its own module and registers itself on ``app``.
"""

from __future__ import annotations

import signal
import sys

import typer

from compliance import __version__
from compliance.errors import UserError

app = typer.Typer(
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


from compliance.cli import check as _check  # noqa: E402,F401  (registers commands)
from compliance.cli import schema as _schema  # noqa: E402,F401
from compliance.cli import config as _config  # noqa: E402,F401
from compliance.cli import rules as _rules  # noqa: E402,F401
from compliance.cli import simulate as _simulate  # noqa: E402,F401


def _interrupted(signum, frame) -> None:
    """Ctrl-C or SIGTERM: stop at once with 128 + the signal's number.

    Raised as SystemExit so that click does not turn it into "Aborted!": the
    ``finally`` and ``except BaseException`` blocks on the way out stop the
    worker processes and remove a report file not yet complete.  A second
    signal kills the process outright.
    """
    signal.signal(signum, signal.SIG_DFL)
    sys.stderr.write(f"baccarat-audit: interrupted ({signal.Signals(signum).name})\n")
    raise SystemExit(128 + signum)


def main() -> None:
    signal.signal(signal.SIGINT, _interrupted)
    signal.signal(signal.SIGTERM, _interrupted)
    try:
        app()
    except UserError as e:
        typer.echo(f"baccarat-audit: {e}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        typer.echo("baccarat-audit: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
