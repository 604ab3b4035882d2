"""What start-up leans on in other projects' internals, each under a test that fails when they change.

``bench/startup.py`` measures start-up (docs/performance.md); these tests keep its tricks honest:

* typer (0.29) converts every parameter of the command through a pydantic ``TypeAdapter`` built on the
  spot, the ones left out or left at their default too; ``compliance.cli._compat`` hands those back as typer
  would, without the adapter, on the typer versions it was written for (and this suite fails on others).
  If typer's option classes change, the adapters come back (or the command breaks) and the test of what is
  converted fails.
* pydantic looks up its plugins (the ``importlib.metadata`` entry points of every installed
  distribution) when the first validator is built; typer builds adapters outside its own switch for it,
  so the entry point sets ``PYDANTIC_DISABLE_PLUGINS`` for the command's process.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from reporting import SAMPLE
from typer.core import TyperArgument, TyperOption
from typer.testing import CliRunner

from compliance.cli import app


def test_the_installed_typer_is_one_the_compat_module_was_written_for():
    import typer

    from compliance.cli import _compat

    assert _compat.written_for(typer.__version__), \
        f"typer {typer.__version__}: read compliance/cli/_compat.py against it, then add it to TYPER"
    assert not _compat.written_for("0.30.0") and not _compat.written_for("0.12.5") and not _compat.written_for("x")


def test_typer_converts_through_the_hooks_the_command_line_replaces():
    """The trick overrides ``process_value`` and asks ``get_runtime_param``: both must still be typer's way."""
    import inspect

    for cls in (TyperOption, TyperArgument):
        assert "get_runtime_param().coerce" in inspect.getsource(cls.process_value), \
            f"typer's {cls.__name__} no longer converts in process_value through get_runtime_param"


def test_a_check_builds_a_type_adapter_only_for_what_was_given(monkeypatch, tmp_path):
    """Of the check's own parameters only those given are converted (the transcripts, -o); the flags left
    out and -j at its default are not.  (typer's own --help and completion options it adds itself.)"""
    import inspect

    import typer._adapters as adapters

    converted = []
    build = adapters.try_build_adapter

    def counted(annotation, *args, **kwargs):
        frame = inspect.currentframe()
        while frame is not None and frame.f_code.co_name != "process_value":
            frame = frame.f_back
        converted.append(frame.f_locals["self"].name)
        return build(annotation, *args, **kwargs)

    monkeypatch.setattr(adapters, "try_build_adapter", counted)  # raises if typer renamed it
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["check", str(SAMPLE), "-o", str(tmp_path / "r.json")])
    assert result.exit_code == 1, result.output
    assert (tmp_path / "r.json").is_file()
    assert "transcripts" in converted and "output" in converted  # typer still converts what is given
    assert set(converted) <= {"transcripts", "output", "help", "install_completion", "show_completion"}, converted


def test_the_command_turns_pydantic_plugins_off_and_pydantic_honours_it(monkeypatch):
    code = ("import os, sys\nsys.argv = ['baccarat-audit', 'rules', 'kinds', '--help']\n"
            "from compliance.__main__ import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(os.environ.get('PYDANTIC_DISABLE_PLUGINS'))\n")
    env = {k: v for k, v in __import__("os").environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert r.stdout.splitlines()[-1] == "__all__", r.stdout + r.stderr

    from pydantic.plugin import _loader

    def scanned(**kwargs):
        raise AssertionError("pydantic read the installed distributions' entry points")

    monkeypatch.setattr(_loader, "entry_points", scanned)
    monkeypatch.setattr(_loader, "_plugins", None)
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "__all__")
    assert list(_loader.get_plugins()) == []
    monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS")
    with pytest.raises(AssertionError, match="entry points"):
        _loader.get_plugins()
