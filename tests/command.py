"""``baccarat-audit ARGS`` run in this process, as a subprocess test ran it: in a directory, with an environment.

Starting an interpreter and importing the tool for each of some hundred commands took a third of the
suite's time.  What these tests judge (exit status, standard output and error, files written) is the same
in this process; the tests of the process itself (the entry point, a crash, signals, a terminal, standard
input from a device, an installed wheel) still start one.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from compliance.cli import app


def audit(*args: str, cwd: Path, env: dict | None = None, input: str | None = None) -> subprocess.CompletedProcess:
    """The command's exit status and output; ``env``, when given, is the whole environment (as for a process).

    A bug's exception is raised here, never turned into an exit status.
    """
    if env is not None:  # the variables not in env are unset for the command, as in a process started with it
        env = {k: None for k in os.environ if k not in env} | dict(env)
    before = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, [str(a) for a in args], env=env, input=input, prog_name="baccarat-audit")
    finally:
        os.chdir(before)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(["baccarat-audit", *args], result.exit_code, result.stdout, result.stderr)
