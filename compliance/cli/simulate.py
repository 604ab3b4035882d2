"""``baccarat-audit simulate`` and ``baccarat-audit analyze``: play a ruleset's game, and count it exactly."""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from enum import Enum
from pathlib import Path

import typer

from compliance.cli.app import app, decimal_text
from compliance.errors import UserError
from compliance.games.baccarat.analyze import SPOTS, analyze, decimal
from compliance.outputs import refuse_overwriting
from compliance.outputs import resolve as resolve_output
from compliance.outputs import write as write_output
from compliance.ruleset.loader import load_ruleset


class TranscriptFormat(str, Enum):
    json = "json"
    jsonl = "jsonl"


class ReportFormat(str, Enum):
    text = "text"
    json = "json"


@app.command()
def simulate(
    ruleset: str = typer.Option(..., "--ruleset", "-r", metavar="ID|FILE", show_default=False,
                                help="Ruleset id (us-nj, us-in, au-nsw, nz) or YAML path."),
    coups: int = typer.Option(..., "--coups", "-n", min=1, metavar="N", show_default=False,
                              help="Number of coups to play."),
    seed: int = typer.Option(0, "--seed", metavar="N", help="Random seed: the same seed gives the same bytes."),
    decks: int = typer.Option(8, "--decks", min=1, max=16, metavar="N", help="Decks in each shoe."),
    fmt: TranscriptFormat = typer.Option(None, "--format", "-f", metavar="FORMAT", case_sensitive=False,
                                         show_default=False, help="Transcript encoding, json or jsonl [default: "
                                                                  "from the output's extension, else json]."),
    output: Path = typer.Option(None, "--output", "-o", metavar="FILE", show_default=False,
                                help="Write the transcript here [default: standard output]."),
    inject: list[str] = typer.Option([], "--inject", metavar="CATEGORY[@RATE]",
                                     help="Break about RATE (default 0.01) of the coups with one breach of CATEGORY; "
                                          "repeatable. Whole shoes: integrity.unshuffled[:decks-alike|factory-order|"
                                          "repeated-shoe] and integrity.outcomes[:banker|player] spoil about RATE of "
                                          "the shoes; integrity.settlement-drift pays RATE of the coups wrong, all to "
                                          "the patrons' good. The list of what was made is written beside the "
                                          "transcript (<output>.injected.json)."),
    irregularities: float = typer.Option(0.0, "--irregularities", min=0.0, max=1.0, metavar="RATE",
                                         help="Make about RATE of the coups irregular (an erroneous card, a card found "
                                              "face up, a misdeal) and handle each as the ruleset requires: the check "
                                              "reports them as info findings, listed beside the transcript."),
    game: str = typer.Option("punto_banco", "--game", metavar="GAME",
                             help="punto_banco, mini_baccarat or even_money (as the ruleset allows)."),
    method: str = typer.Option(None, "--dealing-method", metavar="METHOD", show_default=False,
                               help="Dealing method of the table [default: the ruleset's first]."),
    seats: int = typer.Option(7, "--seats", min=1, max=14, metavar="N", help="Seats at the table."),
    commission: str = typer.Option(None, "--commission", metavar="RATE", show_default=False,
                                   help="The table's commission rate, 0.05 for 5% [default: the ruleset's]."),
):
    """Play shoes as the ruleset prescribes and write the transcript; --inject breaks chosen coups on purpose."""
    from compliance.games.baccarat.simulate import Simulator, parse_inject, write_transcript

    rules = load_ruleset(ruleset)
    wanted: dict[str, float] = {}
    for spec in inject:
        kind, rate = parse_inject(spec)
        wanted[kind] = rate
    listed = bool(wanted) or irregularities > 0
    if listed and output is None:
        raise UserError("--inject and --irregularities need --output: what was made is listed beside the transcript")
    rate = _commission(commission)
    sim = Simulator(rules, coups=coups, seed=seed, decks=decks, game=game, seats=seats,
                    dealing_method=method, commission=rate, inject=wanted, irregularities=irregularities)
    encoding = (fmt.value if fmt else None) or ("jsonl" if output and output.suffix == ".jsonl" else "json")
    if output is None:
        write_transcript(sim, sys.stdout.buffer, encoding)
        sys.stdout.flush()
        return
    targets = [resolve_output(output)] + ([resolve_output(injected_path(output))] if listed else [])
    refuse_overwriting(targets, {f: "a ruleset file" for f in rules.files})
    write_output(output, lambda f: write_transcript(sim, f, encoding))
    if listed:
        report = render_injected(sim.injected_report())
        write_output(injected_path(output), report.encode())
        n = len(sim.integrity)
        spoilt = f", {n} {'shoe or run' if n == 1 else 'shoes or runs'} spoilt" if n else ""
        typer.echo(f"in {coups} coups: {len(sim.injected)} breaches injected, {len(sim.handled)} irregularities "
                   f"handled as required{spoilt}; listed in {injected_path(output)}", err=True)


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
                                help="Ruleset id or YAML path."),
    decks: int = typer.Option(8, "--decks", min=1, max=16, metavar="N", help="Decks in the shoe."),
    game: str = typer.Option("punto_banco", "--game", metavar="GAME",
                             help="Whose payouts: punto_banco, mini_baccarat or even_money."),
    fmt: ReportFormat = typer.Option(ReportFormat.text, "--format", "-f", metavar="FORMAT", case_sensitive=False,
                                     help="text or json."),
):
    """Exact Banker/Player/Tie odds of a full shoe by the ruleset's tableau, and every wager's house edge."""
    rules = load_ruleset(ruleset)
    if rules.game is None:
        raise UserError(f"ruleset {rules.id!r} is not baccarat: analyze counts the baccarat shoe")
    if game not in rules.game.variants:
        raise UserError(f"ruleset {rules.id!r} has no game {game!r} (it has: {', '.join(rules.game.variants)})")
    payouts = rules.payouts_for(game)
    a = analyze(rules.game.tableau, payouts, decks)
    doc = analysis_document(rules.id, game, a, payouts)
    if fmt == ReportFormat.json:
        typer.echo(json.dumps(doc, indent=2))
    else:
        typer.echo(render_analysis(doc))


def analysis_document(ruleset_id: str, game: str, a, payouts) -> dict:
    """The analysis as data: exact integers, fractions as strings, decimals rounded to 10 places."""
    total = a.outcomes.total
    counts = a.counts
    pays = {
        "banker": _pays(payouts.banker), "player": _pays(payouts.player), "tie": _pays(payouts.tie),
    }
    return {
        "ruleset": ruleset_id, "game": game, "decks": a.decks, "cards": 52 * a.decks,
        "method": "full enumeration of the shoe's composition; counts are permutations of six cards",
        "counts": {**counts, "total": total},
        "probabilities": {w: str(decimal(a.outcomes.probability(w), 10)) for w in SPOTS},
        "on_tie": payouts.on_tie,
        "wagers": [
            {
                "spot": e.spot, "pays": pays[e.spot],
                "house_edge_ties_as_pushes": str(decimal(e.per_coup, 10)),
                "house_edge_ties_excluded": str(decimal(e.per_resolved, 10)),
                "house_edge_exact": f"{e.per_coup.numerator}/{e.per_coup.denominator}",
            }
            for e in a.edges
        ],
    }


def _pays(p) -> str:
    text = f"{decimal_text(p.odds)} to 1"
    if p.commission:
        text += f" less {decimal_text(p.commission * 100)}% commission"
    for ex in p.exceptions:
        cards = f" with {ex.cards} cards" if ex.cards is not None else ""
        text += f"; on {ex.points}{cards}: " + ("push" if ex.push else f"{decimal_text(ex.odds)} to 1")
    return text


def render_analysis(doc: dict) -> str:
    lines = [
        f"{doc['ruleset']} {doc['game']}: {doc['decks']} decks ({doc['cards']} cards), {doc['method']}",
        "",
        f"{'outcome':<8} {'permutations':>27} {'probability':>14}",
    ]
    for w in SPOTS:
        lines.append(f"{w:<8} {doc['counts'][w]:>27,} {doc['probabilities'][w]:>14}")
    lines.append(f"{'total':<8} {doc['counts']['total']:>27,}")
    lines += [
        "",
        "House edge (share of the stake the house keeps, per wager):",
        "  ties as pushes = every coup counted, a returned wager as nothing won or lost;",
        "  ties excluded  = only the coups in which the wager is won or lost.",
        f"  Player and Banker wagers on a tie: {doc['on_tie']}.",
        "",
        f"{'wager':<8} {'ties as pushes':>16} {'ties excluded':>15}  pays",
    ]
    for w in doc["wagers"]:
        lines.append(f"{w['spot']:<8} {_percent(w['house_edge_ties_as_pushes']):>16} "
                     f"{_percent(w['house_edge_ties_excluded']):>15}  {w['pays']}")
    return "\n".join(lines)


def _percent(fraction_text: str) -> str:
    return f"{(Decimal(fraction_text) * 100).quantize(Decimal('0.0001'))}%"
