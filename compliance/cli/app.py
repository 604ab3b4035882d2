"""The root of the command line: ``app``, and what every command shares (one way to fail).

Files are written by :mod:`compliance.outputs` (never through a link, never over a device or an input).
"""

from __future__ import annotations

import io

import typer
from typer.core import TyperArgument, TyperGroup, TyperOption

from compliance import __version__
from compliance.errors import UserError
from compliance.printable import printable


def _nothing_given(self, ctx, value):
    """typer's ``process_value``, without building a converter for a parameter left out or left as it is.

    typer (0.29) builds a pydantic ``TypeAdapter`` for every parameter of the
    command being run, the ones not given too, only to hand back ``None`` (or
    ``()``) for them, or a flag's ``False`` unchanged: a tenth of a small
    check's start-up.  For a value of ``None``, a ``bool`` (a flag: converting
    it gives it back) or an ``int`` left at its default, this does what typer
    does (the value, the callback) without the adapter; anything else, or a
    required parameter, goes through typer.  ``tests/test_startup.py`` fails
    when typer's classes stop working so.
    """
    if self.required or not hasattr(self, "get_runtime_param"):
        return super(type(self), self).process_value(ctx, value)
    if value is None:
        value = () if self.multiple or self.nargs == -1 else None
    elif not (type(value) is bool or (type(value) is int and type(self.default) is int and value == self.default)):
        return super(type(self), self).process_value(ctx, value)
    return self.callback(ctx, self, value) if self.callback is not None else value


#: in the help of an option, the bundled rulesets (``--ruleset``): listed from the rulesets bundled, when help is shown
BUNDLED = "{bundled rulesets}"


class _Option(TyperOption):
    __slots__ = ()
    process_value = _nothing_given

    @property
    def help(self) -> str | None:
        """The option's help, read by ``--help`` and by shell completion alike: the bundled rulesets listed
        where it names them (looked up only then, not at every start)."""
        text = self.__dict__.get("help")
        if text is None or BUNDLED not in text:
            return text
        from compliance.ruleset.loader import jurisdiction_ids

        return text.replace(BUNDLED, ", ".join(jurisdiction_ids()))

    @help.setter
    def help(self, text: str | None) -> None:
        self.__dict__["help"] = text


class _Argument(TyperArgument):
    """An argument shown in help by its metavar alone (typer would add the Python type after it: <list[Path]>)."""

    __slots__ = ()
    process_value = _nothing_given

    def display_type_rich(self, ctx):
        return None


class _PlainArgument(TyperArgument):
    __slots__ = ()
    process_value = _nothing_given


def _plain_arguments(command) -> None:
    """Every parameter of ``command`` (a click command typer made) and of its subcommands: arguments shown
    plainly, parameters left out not converted."""
    for param in command.params:
        if type(param) is TyperArgument:
            param.__class__ = _Argument if param.metavar is not None else _PlainArgument
        elif type(param) is TyperOption:
            param.__class__ = _Option
    for sub in getattr(command, "commands", {}).values():
        _plain_arguments(sub)


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


def a_day(value: str, option: str) -> str:
    """A calendar day given to an option (YYYY-MM-DD), else the one error of a user's mistake."""
    import datetime

    try:
        if len(value) == 10:
            return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        pass
    fail(f"{option}: {value[:40]!r} is not a date (YYYY-MM-DD)")
