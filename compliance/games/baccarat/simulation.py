"""Baccarat's simulator and analysis as ``simulate`` and ``analyze`` ask for them (:class:`compliance.games.Simulator`,
:class:`compliance.games.Analyser`): the options of the command, given to :mod:`.simulate` and :mod:`.analyze`."""

from __future__ import annotations

from decimal import Decimal

from compliance.errors import UserError
from compliance.games import SimulateRequest
from compliance.printable import decimal_text
from compliance.ruleset.models import Ruleset

DECKS, VARIANT, SEATS, ROTATION = 8, "punto_banco", 7, 40  # what a request leaves to the simulator


class Simulation:
    """One simulated baccarat table (:class:`compliance.games.Simulation`)."""

    def __init__(self, ruleset: Ruleset, request: SimulateRequest):
        from compliance.games.baccarat.simulate import Simulator, parse_during, parse_inject, parse_start

        wanted: dict[str, float] = {}
        for spec in request.inject:
            kind, rate = parse_inject(spec)
            wanted[kind] = rate
        self.coups = request.coups
        self.sim = Simulator(
            ruleset, coups=request.coups, seed=request.seed, decks=request.decks or DECKS,
            game=request.variant or VARIANT, seats=request.seats or SEATS, dealing_method=request.dealing_method,
            commission=request.commission, inject=wanted, irregularities=request.irregularities,
            table_id=request.table_id, dealers=request.dealers, rotation=request.rotation or ROTATION,
            stay=request.stay, start=None if request.start is None else parse_start(request.start),
            currency=request.currency, during=None if request.during is None else parse_during(request.during))

    def write(self, out, encoding: str, on_coup=None) -> None:
        from compliance.games.baccarat.simulate import write_transcript

        write_transcript(self.sim, out, encoding, on_coup)

    def made(self) -> dict:
        return self.sim.injected_report()

    def summary(self) -> str:
        n = len(self.sim.integrity)
        spoilt = f", {n} {'shoe or run' if n == 1 else 'shoes or runs'} spoilt" if n else ""
        return (f"in {self.coups} coups: {len(self.sim.injected)} breaches injected, {len(self.sim.handled)} "
                f"irregularities handled as required{spoilt}")


def simulation(ruleset: Ruleset, request: SimulateRequest) -> Simulation:
    return Simulation(ruleset, request)


# ---------------------------------------------------------------- analyze


def document(ruleset: Ruleset, decks: int | None, variant: str | None) -> dict:
    """The analysis as data: exact integers, fractions as strings, decimals rounded to 10 places."""
    from compliance.games.baccarat.analyze import OUTCOMES, analyze, decimal

    game = variant or VARIANT
    if ruleset.game is None:
        raise UserError(f"ruleset {ruleset.id!r} has no game section: analyze counts the shoe its tableau deals")
    if game not in ruleset.game.variants:
        raise UserError(f"ruleset {ruleset.id!r} has no game {game!r} (it has: {', '.join(ruleset.game.variants)})")
    spots = ruleset.game.spots_for(game)
    a = analyze(ruleset.game.tableau, spots, decks or DECKS)
    total = a.outcomes.total
    return {
        "ruleset": ruleset.id, "game": game, "decks": a.decks, "cards": 52 * a.decks,
        "method": "full enumeration of the shoe's composition; counts are permutations of six cards",
        "counts": {**a.counts, "total": total},
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


def render(doc: dict) -> str:
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
