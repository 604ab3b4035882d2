"""``baccarat-audit simulate`` and ``baccarat-audit analyze``: play a ruleset's game, and count it exactly."""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from enum import Enum
from pathlib import Path

import typer

from compliance.cli.app import BUNDLED, app
from compliance.errors import UserError
from compliance.outputs import make_directory, refuse_overwriting
from compliance.outputs import resolve as resolve_output
from compliance.outputs import write as write_output
from compliance.progress import Progress


class TranscriptFormat(str, Enum):
    json = "json"
    jsonl = "jsonl"


class ReportFormat(str, Enum):
    text = "text"
    json = "json"


@app.command()
def simulate(
    ruleset: str = typer.Option(..., "--ruleset", "-r", metavar="ID|FILE", show_default=False,
                                help=f"Ruleset id ({BUNDLED}) or YAML path."),
    coups: int = typer.Option(..., "--coups", "-n", min=1, metavar="N", show_default=False,
                              help="Number of coups to play."),
    seed: int = typer.Option(0, "--seed", metavar="N", help="Random seed: the same seed gives the same bytes."),
    decks: int = typer.Option(None, "--decks", min=1, max=16, metavar="N", show_default=False,
                              help="Decks in each shoe [default: the game's; 8 for baccarat]."),
    fmt: TranscriptFormat = typer.Option(None, "--format", "-f", metavar="FORMAT", case_sensitive=False,
                                         show_default=False, help="Transcript encoding, json or jsonl [default: "
                                                                  "from the output's extension, else json]."),
    output: Path = typer.Option(None, "--output", "-o", metavar="FILE", show_default=False,
                                help="Write the transcript here [default: standard output]."),
    inject: list[str] = typer.Option([], "--inject", metavar="CATEGORY[@RATE]",
                                     help="Break about RATE (default 0.01) of the coups with one breach of CATEGORY; "
                                          "repeatable; a prefix, as --select takes it (third-card), names each "
                                          "category under it the table can break, each at RATE. Whole shoes: "
                                          "integrity.unshuffled[:decks-alike|factory-order|repeated-shoe] and "
                                          "integrity.outcomes[:SIDE] (the side the shoe favours) spoil about RATE of "
                                          "the shoes; integrity.settlement-drift pays RATE of the coups wrong, all to "
                                          "the patrons' good. The list of what was made is written beside the "
                                          "transcript (<output>.injected.json)."),
    irregularities: float = typer.Option(0.0, "--irregularities", min=0.0, max=1.0, metavar="RATE",
                                         help="Make about RATE of the coups irregular (an erroneous card, a card found "
                                              "face up, a misdeal) and handle each as the ruleset requires: the check "
                                              "reports them as info findings, listed beside the transcript."),
    game: str = typer.Option(None, "--game", metavar="GAME", show_default=False,
                             help="A game of the ruleset: punto_banco, mini_baccarat, even_money, ez_baccarat ... "
                                  "(as the ruleset allows) [default: punto_banco]."),
    method: str = typer.Option(None, "--dealing-method", metavar="METHOD", show_default=False,
                               help="Dealing method of the table [default: the ruleset's first]."),
    seats: int = typer.Option(None, "--seats", min=1, max=14, metavar="N", show_default=False,
                              help="Seats (boxes) at the table [default: the game's; 7 for baccarat]."),
    commission: str = typer.Option(None, "--commission", metavar="RATE", show_default=False,
                                   help="The table's commission rate, 0.05 for 5% [default: the ruleset's]."),
    currency: str = typer.Option(None, "--currency", metavar="CODE", show_default=False,
                                 help="The table's currency in the header (ISO 4217: USD, EUR, AUD), which the "
                                      "report's money is counted in [default: none said]."),
    table_id: str = typer.Option("SIM-01", "--table-id", metavar="ID",
                                 help="The table's id in the header: give each table of a simulated night its own."),
    dealers: int = typer.Option(0, "--dealers", min=0, max=99, metavar="N", show_default=False,
                                help="Name N dealers (D-01 ...) who relieve each other every --rotation coups, in the "
                                     "header's staff (format 1.1) [default: none named]."),
    rotation: int = typer.Option(None, "--rotation", min=1, metavar="COUPS", show_default=False,
                                 help="Coups a dealer deals before the next relieves them (with --dealers) "
                                      "[default: 40]."),
    stay: float = typer.Option(None, "--stay", min=1, metavar="COUPS", show_default=False,
                               help="The coups a seated patron stays, on average: a longer night's crowd with a "
                                    "larger one (--stay 15 at 1,000 coups: about 250 patrons) [default: 33]."),
    start: str = typer.Option(None, "--start", metavar="ISO-TIME", show_default=False,
                              help="Time the night from here (2026-11-01T20:00:00Z): each coup's first event gets its "
                                   "time, 45 to 75 seconds a coup, minutes for a shuffle [default: no times]."),
    during: str = typer.Option(None, "--inject-during", metavar="HH:MM-HH:MM", show_default=False,
                               help="Make the --inject breaches only in the coups dealt within these hours (at "
                                    "--start's offset), as in one shift [default: at any hour]."),
    progress: bool = typer.Option(None, "--progress/--no-progress", show_default=False,
                                  help="Progress bar on standard error [default: on a terminal, unless the transcript "
                                       "goes to the same terminal]."),
):
    """Play shoes as the ruleset prescribes and write the transcript; --inject breaks chosen coups on purpose."""
    from compliance import games, registry
    from compliance.ruleset.loader import load_ruleset

    rules = load_ruleset(ruleset)
    game_of = registry.get(rules.game_kind)
    if game_of.simulator is None:
        raise UserError(f"ruleset {rules.id!r} is for {game_of.title}, which has no simulator")
    listed = bool(inject) or irregularities > 0
    if listed and output is None:
        raise UserError("--inject and --irregularities need --output: what was made is listed beside the transcript")
    request = games.SimulateRequest(
        coups=coups, seed=seed, table_id=table_id, decks=decks, variant=game, seats=seats, dealing_method=method,
        commission=_commission(commission), inject=tuple(inject), irregularities=irregularities, dealers=dealers,
        rotation=rotation, stay=stay, start=start, during=during,
        currency=currency.strip().upper() if currency is not None else None)
    sim = game_of.simulator.simulation(rules, request)
    encoding = (fmt.value if fmt else None) or ("jsonl" if output and output.suffix == ".jsonl" else "json")
    if output is not None:
        targets = [resolve_output(output)] + ([resolve_output(injected_path(output))] if listed else [])
        refuse_overwriting(targets, {f: "a ruleset file" for f in rules.files})
        make_directory(output, "the transcript's")
    shown = sys.stderr.isatty() and (output is not None or not sys.stdout.isatty()) if progress is None else progress
    with Progress(coups, shown, "simulating") as bar:

        def played(n: int) -> None:
            if n & 255 == 0:
                bar.set(n, n)

        played = played if bar.bar else None
        if output is None:
            sim.write(sys.stdout.buffer, encoding, played)
            sys.stdout.flush()
            return
        write_output(output, lambda f: sim.write(f, encoding, played))
        bar.complete(coups)
    if listed:
        write_output(injected_path(output), render_injected(sim.made()).encode())
        typer.echo(f"{sim.summary()}; listed in {injected_path(output)}", err=True)


def render_injected(doc: dict) -> str:
    """The list of what the simulator made, one entry a line (readable, and diffable)."""
    lines = ["{"]
    for key, value in doc.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            items = ",\n".join("  " + json.dumps(v) for v in value)
            lines.append(f" {json.dumps(key)}: [\n{items}\n ],")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)},")
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join(lines) + "\n}\n"


def injected_path(transcript: Path) -> Path:
    """Where ``simulate --inject`` lists its breaches: beside the transcript, ``<name>.injected.json``."""
    return transcript.with_name(transcript.name + ".injected.json")


def _commission(text: str | None) -> Decimal | None:
    if text is None:
        return None
    try:
        value = Decimal(text)
    except ArithmeticError:
        raise UserError(f"--commission {text!r} is not a number") from None
    if not (value.is_finite() and 0 <= value < 1):
        raise UserError("--commission must be at least 0 and less than 1 (0.05 is 5%)")
    return value


@app.command(name="analyze")
def analyze_command(
    ruleset: str = typer.Option(..., "--ruleset", "-r", metavar="ID|FILE", show_default=False,
                                help=f"Ruleset id ({BUNDLED}) or YAML path."),
    decks: int = typer.Option(None, "--decks", min=1, max=16, metavar="N", show_default=False,
                              help="Decks in the shoe [default: the game's; 8 for baccarat]."),
    game: str = typer.Option(None, "--game", metavar="GAME", show_default=False,
                             help="Whose spots: a game of the ruleset (punto_banco, mini_baccarat, even_money, "
                                  "ez_baccarat ...) [default: punto_banco]."),
    fmt: ReportFormat = typer.Option(ReportFormat.text, "--format", "-f", metavar="FORMAT", case_sensitive=False,
                                     help="text or json."),
):
    """The exact odds of a full shoe by the ruleset's game, and every spot's odds and house edge."""
    from compliance import registry
    from compliance.ruleset.loader import load_ruleset

    rules = load_ruleset(ruleset)
    game_of = registry.get(rules.game_kind)
    if game_of.analyser is None:
        raise UserError(f"ruleset {rules.id!r} is for {game_of.title}, which has no exact analysis")
    doc = game_of.analyser.document(rules, decks, game)
    if fmt == ReportFormat.json:
        typer.echo(json.dumps(doc, indent=2))
    else:
        typer.echo(game_of.analyser.render(doc))
