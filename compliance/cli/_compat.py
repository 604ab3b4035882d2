"""What the command line does through typer's internals, for the typer versions it was written for.

typer (0.29) builds a pydantic ``TypeAdapter`` for every parameter of the command being run, the ones left
out too; skipping that for the parameters left out or at their default saves some 10% of a small check's
start-up (docs/performance.md, "Start-up").  That means replacing ``process_value`` and the classes of the
parameters typer made, which only holds for the typer whose internals it was read from: ``TYPER`` (pinned in
pyproject.toml).  On any other typer :func:`plain_arguments` leaves typer's own classes in place, and
``tests/test_startup.py`` fails, so a new typer is read before it is allowed.
"""

from __future__ import annotations

import typer
from typer.core import TyperArgument, TyperOption

#: the typer versions (major, minor) these classes were written for and tested with
TYPER = ((0, 29),)


def written_for(version: str) -> bool:
    """Whether ``version`` (typer's ``__version__``) is one this module was written for."""
    parts = version.split(".")
    try:
        return (int(parts[0]), int(parts[1])) in TYPER
    except (IndexError, ValueError):
        return False


def _nothing_given(self, ctx, value):
    """typer's ``process_value``, without building a converter for a parameter left out or left as it is.

    typer (0.29) builds a pydantic ``TypeAdapter`` for every parameter of the
    command being run, the ones not given too, only to hand back ``None`` (or
    ``()``) for them, or a flag's ``False`` unchanged: a tenth of a small
    check's start-up.  For a value of ``None``, a ``bool`` (a flag: converting
    it gives it back) or an ``int`` left at its default, this does what typer
    does (the value, the callback) without the adapter; anything else, or a
    required parameter, goes through typer.
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


def plain_arguments(command) -> None:
    """Every parameter of ``command`` (a click command typer made) and of its subcommands: arguments shown
    plainly, parameters left out not converted."""
    if not written_for(typer.__version__):
        return  # another typer: its own classes, as they are (slower to start, help without the rulesets listed)
    for param in command.params:
        if type(param) is TyperArgument:
            param.__class__ = _Argument if param.metavar is not None else _PlainArgument
        elif type(param) is TyperOption:
            param.__class__ = _Option
    for sub in getattr(command, "commands", {}).values():
        plain_arguments(sub)
