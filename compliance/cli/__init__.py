"""The ``baccarat-audit`` command line (typer).

Each command group lives in its own module and registers itself on
:data:`compliance.cli.app.app`; importing this package registers them all.
"""

from __future__ import annotations

import signal
import sys

from compliance.cli import check as _check  # noqa: F401  (registers commands)
from compliance.cli import config as _config  # noqa: F401
from compliance.cli import importer as _importer  # noqa: F401
from compliance.cli import rules as _rules  # noqa: F401
from compliance.cli import schema as _schema  # noqa: F401
from compliance.cli import simulate as _simulate  # noqa: F401
from compliance.cli.app import app, fail  # noqa: F401  (the command line, for callers and tests)


class Interrupted(SystemExit):
    """The exit a signal asks for (its code 128 + the signal's number)."""


def _interrupted(signum, frame) -> None:
    """Ctrl-C, SIGTERM or SIGHUP (the terminal closed): stop at once with 128 + the signal's number.

    Raised as SystemExit so that click does not turn it into "Aborted!": the
    ``finally`` and ``except BaseException`` blocks on the way out stop the
    worker processes and remove a report file not yet complete.  A second
    signal kills the process outright.
    """
    signal.signal(signum, signal.SIG_DFL)
    sys.stderr.write(f"baccarat-audit: interrupted ({signal.Signals(signum).name})\n")
    raise Interrupted(128 + signum)


def _again(signum, frame) -> None:
    signal.signal(signum, signal.SIG_DFL)
    raise Interrupted(128 + signum)


def _lost(unraisable) -> None:
    """A signal that came while the cyclic collector ran a finalizer (a pool's weak reference callback, say) was
    raised inside it, where Python can only print "Exception ignored" and go on: the command would wait for its
    workers for ever.  Deliver the same exit again, to the main program."""
    if isinstance(unraisable.exc_value, Interrupted):
        import _thread
        import threading

        signum = unraisable.exc_value.code - 128
        signal.signal(signum, _again)
        # from another thread, so that it is raised once this finalizer and this hook are over (if it lands in
        # another finalizer, it comes back here)
        again = threading.Timer(0.01, _thread.interrupt_main, (signum,))
        again.daemon = True
        again.start()
        return
    sys.__unraisablehook__(unraisable)


def main() -> None:
    if sys.stdout is None:  # started with standard output closed
        from compliance.cli.app import ClosedStdout

        sys.stdout = ClosedStdout()
    sys.unraisablehook = _lost
    signal.signal(signal.SIGINT, _interrupted)
    signal.signal(signal.SIGTERM, _interrupted)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, _interrupted)
    try:
        app(prog_name="baccarat-audit")  # the same name (and completion variable) under python -m compliance
    except BrokenPipeError:
        sys.exit(1)
