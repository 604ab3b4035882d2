"""``baccarat-audit`` (and ``python -m compliance``): the command's entry point.

Start-up is part of every run, so this module imports nothing itself:
``--version`` is answered here, before typer, pydantic or the engine is
imported; anything else goes to the typer app (:mod:`compliance.cli`), whose
command modules import what a command needs only when it runs
(``bench/startup.py`` measures it).
"""

import gc
import os
import sys


def main() -> None:
    if sys.argv[1:] == ["--version"]:  # the answer is the version alone
        from compliance import __version__

        if sys.stdout is None:  # started with standard output closed
            sys.stderr.write("baccarat-audit: standard output is closed: the version cannot be printed\n")
            sys.exit(2)
        sys.stdout.write(f"baccarat-audit {__version__}\n")
        return
    # The command's objects are mostly long-lived (modules, classes, validators, the typer app, a ruleset), and a
    # replay makes few cycles: the cyclic collector's youngest generation is collected every 200,000 net
    # allocations instead of every 700 (as mypy does), for the whole command, once, here. The check of a small
    # file makes about 60,000, so its start-up is never walked (at 50,000 one pass cost it 25 ms). The library
    # itself never touches the collector: a program that imports compliance keeps its own settings.
    gc.set_threshold(200_000, 20, 20)
    # pydantic looks for plugins (the entry points of every installed distribution) when it builds its first
    # validator, a sixth of a small check's start-up; the command uses none. A user's own setting is kept.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        from compliance.cli import main as run

        run()
    except Exception:  # a bug, or an installation short of a module: never exit 1, which says "findings"
        import traceback

        traceback.print_exc()
        sys.stderr.write("baccarat-audit: internal error: the command could not run (exit 2); "
                         "the traceback above is for a bug report\n")
        sys.exit(2)
    finally:
        # What the run made lives until the process ends: the collector's last pass at exit would only
        # walk it (the validators, the models, the modules), a sixth of a small check's time.
        gc.freeze()


if __name__ == "__main__":
    main()
