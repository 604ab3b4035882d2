"""``baccarat-audit simulate`` and ``baccarat-audit analyze``: play a ruleset's game, and count it exactly."""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from enum import Enum
from pathlib import Path

import typer

from compliance.cli.app import BUNDLED, app, decimal_text
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
    decks: int = typer.Option(8, "--decks", min=1, max=16, metavar="N", help="Decks in each shoe."),
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
                                          "integrity.outcomes[:banker|player] spoil about RATE of "
                                          "the shoes; integrity.settlement-drift pays RATE of the coups wrong, all to "
                                          "the patrons' good. The list of what was made is written beside the "
                                          "transcript (<output>.injected.json)."),
    irregularities: float = typer.Option(0.0, "--irregularities", min=0.0, max=1.0, metavar="RATE",
                                         help="Make about RATE of the coups irregular (an erroneous card, a card found "
                                              "face up, a misdeal) and handle each as the ruleset requires: the check "
                                              "reports them as info findings, listed beside the transcript."),
    game: str = typer.Option("punto_banco", "--game", metavar="GAME",
                             help="A game of the ruleset: punto_banco, mini_baccarat, even_money, ez_baccarat ... "
                                  "(as the ruleset allows)."),
    method: str = typer.Option(None, "--dealing-method", metavar="METHOD", show_default=False,
                               help="Dealing method of the table [default: the ruleset's first]."),
    seats: int = typer.Option(7, "--seats", min=1, max=14, metavar="N", help="Seats at the table."),
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
    rotation: int = typer.Option(40, "--rotation", min=1, metavar="COUPS",
                                 help="Coups a dealer deals before the next relieves them (with --dealers)."),
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
    from compliance.games.baccarat.simulate import Simulator, parse_during, parse_inject, parse_start, write_transcript
    from compliance.ruleset.loader import load_ruleset

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
                    dealing_method=method, commission=rate, inject=wanted, irregularities=irregularities,
                    table_id=table_id, dealers=dealers, rotation=rotation, stay=stay,
                    start=None if start is None else parse_start(start),
                    currency=currency.strip().upper() if currency is not None else None,
                    during=None if during is None else parse_during(during))
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
            write_transcript(sim, sys.stdout.buffer, encoding, played)
            sys.stdout.flush()
            return
        write_output(output, lambda f: write_transcript(sim, f, encoding, played))
        bar.complete(coups)
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
                                help=f"Ruleset id ({BUNDLED}) or YAML path."),
    decks: int = typer.Option(8, "--decks", min=1, max=16, metavar="N", help="Decks in the shoe."),
    game: str = typer.Option("punto_banco", "--game", metavar="GAME",
                             help="Whose spots: a game of the ruleset (punto_banco, mini_baccarat, even_money, "
                                  "ez_baccarat ...)."),
    fmt: ReportFormat = typer.Option(ReportFormat.text, "--format", "-f", metavar="FORMAT", case_sensitive=False,
                                     help="text or json."),
):
    """Exact Banker/Player/Tie odds of a full shoe by the ruleset's tableau, and every spot's odds and house edge."""
    from compliance.games.baccarat.analyze import analyze
    from compliance.ruleset.loader import load_ruleset

    rules = load_ruleset(ruleset)
    if rules.game is None:
        raise UserError(f"ruleset {rules.id!r} is not baccarat: analyze counts the baccarat shoe")
    if game not in rules.game.variants:
        raise UserError(f"ruleset {rules.id!r} has no game {game!r} (it has: {', '.join(rules.game.variants)})")
    spots = rules.game.spots_for(game)
    a = analyze(rules.game.tableau, spots, decks)
    doc = analysis_document(rules.id, game, a, spots)
    if fmt == ReportFormat.json:
        typer.echo(json.dumps(doc, indent=2))
    else:
        typer.echo(render_analysis(doc))


def analysis_document(ruleset_id: str, game: str, a, spots) -> dict:
    """The analysis as data: exact integers, fractions as strings, decimals rounded to 10 places."""
    from compliance.games.baccarat.analyze import OUTCOMES, decimal

    total = a.outcomes.total
    counts = a.counts
    return {
        "ruleset": ruleset_id, "game": game, "decks": a.decks, "cards": 52 * a.decks,
        "method": "full enumeration of the shoe's composition; counts are permutations of six cards",
        "counts": {**counts, "total": total},
        "probabilities": {w: str(decimal(a.outcomes.probability(w), 10)) for w in OUTCOMES},
        "wagers": [_wager(e, spots[e.spot]) for e in a.edges],
    }


def _wager(e, spot) -> dict:
    from compliance.games.baccarat.analyze import decimal

    if not e.exact:
        return {"spot": e.spot, "pays": _pays(spot), "exact": False,
                "why": "its conditions read both the first cards and the result: no exact count"}
    return {
        "spot": e.spot, "pays": _pays(spot),
        "house_edge_ties_as_pushes": str(decimal(e.per_coup, 10)),
        "house_edge_ties_excluded": str(decimal(e.per_resolved, 10)),
        "house_edge_exact": f"{e.per_coup.numerator}/{e.per_coup.denominator}",
        "counts": e.counts,
        "probability": str(decimal(e.win, 10)),
        "settled": [{"when": words, "pays": "push" if odds is None and i < len(e.rows) - 1 else
                     "lose" if odds is None else f"{decimal_text(odds)} to 1", "count": n}
                    for i, (words, odds, n) in enumerate(e.rows)],
    }


def _pays(spot) -> str:
    """A spot's payouts in words: '1 to 1 less 5% commission; on 6: 0.5 to 1; push on a tie'."""
    parts = []
    if spot.odds is not None:
        text = f"{decimal_text(spot.odds)} to 1"
        if spot.commission:
            text += f" less {decimal_text(spot.commission * 100)}% commission"
        parts.append(text)
    parts += [f"{row.when.words}: {decimal_text(row.odds)} to 1" for row in spot.pays.values()]
    parts += [f"push on {cond.words}" for cond in spot.pushes.values()]
    return "; ".join(parts)


def render_analysis(doc: dict) -> str:
    from compliance.games.baccarat.analyze import OUTCOMES

    lines = [
        f"{doc['ruleset']} {doc['game']}: {doc['decks']} decks ({doc['cards']} cards), {doc['method']}",
        "",
        f"{'outcome':<8} {'permutations':>27} {'probability':>14}",
    ]
    for w in OUTCOMES:
        lines.append(f"{w:<8} {doc['counts'][w]:>27,} {doc['probabilities'][w]:>14}")
    lines.append(f"{'total':<8} {doc['counts']['total']:>27,}")
    width = max(8, *(len(w["spot"]) for w in doc["wagers"]))
    lines += [
        "",
        "House edge (share of the stake the house keeps, per wager):",
        "  ties as pushes = every coup counted, a returned wager as nothing won or lost;",
        "  ties excluded  = only the coups in which the wager is won or lost.",
        "",
        f"{'wager':<{width}} {'ties as pushes':>16} {'ties excluded':>15}  pays",
    ]
    for w in doc["wagers"]:
        if not w.get("exact", True):
            lines.append(f"{w['spot']:<{width}} {'-':>16} {'-':>15}  {w['pays']} ({w['why']})")
            continue
        lines.append(f"{w['spot']:<{width}} {_percent(w['house_edge_ties_as_pushes']):>16} "
                     f"{_percent(w['house_edge_ties_excluded']):>15}  {w['pays']}")
    lines += ["", "How each spot is settled, in permutations of six cards:"]
    for w in doc["wagers"]:
        if not w.get("exact", True):
            continue
        lines.append(f"  {w['spot']}:")
        for row in w["settled"]:
            lines.append(f"    {row['count']:>27,}  {row['pays']:<12} {row['when']}")
    return "\n".join(lines)


def _percent(fraction_text: str) -> str:
    return f"{(Decimal(fraction_text) * 100).quantize(Decimal('0.0001'))}%"
