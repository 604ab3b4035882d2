"""Baccarat's own lint of a ruleset's ``game`` section: its drawing tableau and the exact house edge of its spots.

``baccarat-audit ruleset lint`` judges what every ruleset shares (rules, citations, overrides, ``extends``)
and hands the game section, merged over the parent's, to the game of its ``game_kind``
(:attr:`compliance.games.Game.lint`).  Its codes, registered in :data:`CODES`, are those of the drawing
tableau and of the exact house edge of the wager spots.
"""

from __future__ import annotations

from pydantic import ValidationError

from compliance.games import GameSection, LintReport
from compliance.games.baccarat import analyze
from compliance.games.baccarat.section import Section
from compliance.lintcodes import SCHEMA, LintCode

TABLEAU_INCOMPLETE = LintCode("tableau-incomplete", ("error",), "the drawing tableau lacks a decision, or has two for one case", """
    The tableau (`game.tableau`) says, for every case, whether a hand draws: the Player's totals that draw,
    the Banker's totals that draw when the Player stood, and for each Banker total that is not a natural a
    row of ten decisions (D or S), one for each value of the Player's third card.  A case without a
    decision, or with two (a natural that draws, a row for a natural), leaves the third-card rules nothing
    to judge by.""")

TABLEAU_DIFFERS = LintCode("tableau-differs", ("info",), "the drawing tableau differs from the standard punto banco tableau", """
    A note, case by case: where this ruleset's tableau draws or stands differently from the standard one.  A
    jurisdiction may play another tableau; this says where, so that a difference made by mistake is seen.""")

TABLEAU_EDGE = LintCode("tableau-edge", ("info",), "how far a different tableau moves each wager's house edge", """
    A note beside `tableau-differs`: the exact house edge of each wager under this tableau against the
    standard one, by exact enumeration of an 8-deck shoe (`baccarat-audit analyze` gives the whole
    analysis).""")

TABLEAU_STANDARD = LintCode("tableau-standard", ("info",), "the drawing tableau is the standard punto banco tableau", """
    A note: the tableau in force is the standard one (inherited, or written out again).""")

SPOT_EDGE = LintCode("spot-edge", ("info",), "the exact house edge of a wager spot, game by game", """
    A note for each wager spot: its exact house edge in each game (variant) that offers it, by exact
    enumeration of an 8-deck shoe under the ruleset's tableau and the spot's conditions, odds, pushes and
    commission.""")

SPOT_PATRON_EDGE = LintCode("spot-patron-edge", ("warning",), "a spot whose payouts give the patron the edge", """
    The spot pays more than its chances are worth: the patron, not the house, has the edge (8 decks).
    Usually a house paytable set too high, or a row's odds mistyped; the message names the house parameters
    that set its payouts.""")

SPOT_NEVER_WINS = LintCode("spot-never-wins", ("warning",), "a spot that no deal wins, in any game that offers it", """
    By exact enumeration of an 8-deck shoe, no deal meets what the spot wins on (a Banker natural 9 on three
    cards, conditions that cannot hold together): every wager on it loses.  Usually a condition mistyped.""")

ODDS_ZERO = LintCode("odds-zero", ("warning",), "a spot, or a row of its paytable, that pays 0 to 1", """
    A win at odds of 0 returns only the stake: that is a push, which is written under `pushes`, or odds left
    out by mistake.""")

#: the codes of a baccarat ruleset's game section (registered with ``ruleset lint``'s own)
CODES = (TABLEAU_INCOMPLETE, TABLEAU_DIFFERS, TABLEAU_EDGE, TABLEAU_STANDARD, SPOT_EDGE, SPOT_PATRON_EDGE,
         SPOT_NEVER_WINS, ODDS_ZERO)


def game_section(section: GameSection, report: LintReport) -> None:
    """Lint a baccarat ruleset's game section (``section.plain``, merged over the parent's and unwrapped)."""
    data, own, plain, parent = section.data, section.own, section.plain, section.parent
    tableau = plain.get("tableau")
    own_tableau = "tableau" in own
    tab_at = ("game", "tableau") if own_tableau else ("extends",) if "extends" in data else ()
    problems = tableau_problems(tableau) if isinstance(tableau, dict) else [((), "the game has no drawing tableau")]
    for where, message in problems:
        report.add(tab_at + where if own_tableau else tab_at, "error", TABLEAU_INCOMPLETE, message)
    try:
        game = Section.model_validate(plain)
    except ValidationError as err:
        report.add_validation(("game",), err, SCHEMA, skip=lambda e: bool(problems) and e["loc"][:1] == ("tableau",))
        return
    if problems:
        return
    differences = tableau_differences(game.tableau.model_dump(), analyze.STANDARD_TABLEAU)
    source = "" if own_tableau else f" (inherited from {parent.lineage[0] if parent else '?'})"
    if differences:
        for where, message in differences:
            report.add(tab_at + where if own_tableau else tab_at, "info", TABLEAU_DIFFERS,
                       message + source)
        shift = analyze.edge_shift(game.tableau, game.spots, 8)
        report.add(tab_at, "info", TABLEAU_EDGE, analyze.describe_edge_shift(shift, 8) + source)
    elif data.get("abstract") is not True or own_tableau:
        report.add(tab_at, "info", TABLEAU_STANDARD,
                   "the drawing tableau is the standard punto banco tableau" + source)
    _spot_edges(game, own, section.house, data, report)


def _spot_edges(game, own: dict, notes, data: dict, report: LintReport) -> None:
    """The house edge of every spot (an info each), and a warning where a spot gives the patron an edge,
    naming the house parameters that set its payouts."""
    edges = analyze.spot_edges(game, 8)
    for name, rows in edges.items():
        at = _spot_at(name, own, data)
        report.add(at, "info", SPOT_EDGE, analyze.describe_spot_edges(name, rows, 8))
        if all(e.exact and not e.counts.get("win") for _, e in rows):
            report.add(at, "warning", SPOT_NEVER_WINS,
                       f"spot {name} wins in no deal of {', '.join(v for v, _ in rows)} (8 decks): what it wins on "
                       "cannot happen, so every wager on it loses")
        nothing: dict[str, list[str]] = {}  # what it pays 0 to 1 on -> the games in which it does
        for variant, e in rows:
            for words, odds, _count in e.rows:
                if odds is not None and not odds:
                    nothing.setdefault(words, []).append(variant)
        for words, variants in nothing.items():
            report.add(at, "warning", ODDS_ZERO,
                       f"spot {name} pays 0 to 1 on {words} in {', '.join(variants)}: a win that returns only "
                       "the stake (a push is written under `pushes`)")
        generous: dict[str, list[str]] = {}  # the patron's edge -> the games that give it
        for variant, e in rows:
            if e.exact and e.per_coup < 0:
                generous.setdefault(f"{analyze.decimal(-e.per_coup * 100, 4)}%", []).append(variant)
        for edge, variants in generous.items():
            prefixes = (f"game.spots.{name}.",) + tuple(f"game.variants.{v}.{name}." for v in variants)
            said = "; ".join(f"{h.path} = {h.default}" + (f", set by {h.set_by}" if h.set_by else "")
                             for h in notes if h.path.startswith(prefixes)
                             and ".requires." not in h.path and not h.path.endswith(".offered"))  # what it pays
            report.add(at, "warning", SPOT_PATRON_EDGE,
                       f"spot {name} gives the patron an edge of {edge} in {', '.join(variants)} (8 decks)"
                       + (f": its house parameters {said}" if said else ""))


def _spot_at(name: str, own: dict, data: dict) -> tuple:
    """Where this file declares a spot (or changes it in a variant), else its game section or `extends`."""
    spots = own.get("spots")
    if isinstance(spots, dict) and name in spots:
        return ("game", "spots", name)
    variants = own.get("variants")
    if isinstance(variants, dict):
        for v, changes in variants.items():
            if isinstance(changes, dict) and name in changes:
                return ("game", "variants", v, name)
    return ("game",) if own else ("extends",) if "extends" in data else ()



def tableau_problems(tab: dict) -> list[tuple[tuple, str]]:
    """Where the tableau does not give exactly one decision for every case.

    Every Banker total that is not a natural needs one row of ten decisions,
    D or S, one for each value of the Player's third card; a natural needs
    none (no hand draws on a natural), so a row for it is a second decision.
    """
    out: list[tuple[tuple, str]] = []
    naturals = tab.get("naturals")
    if not isinstance(naturals, list) or not all(isinstance(t, int) and 0 <= t <= 9 for t in naturals):
        return [(("naturals",), "naturals must list point counts 0 to 9")]
    for name in ("player_draws", "banker_draws_when_player_stood"):
        totals = tab.get(name)
        if not isinstance(totals, list) or not all(isinstance(t, int) and 0 <= t <= 9 for t in totals):
            out.append(((name,), f"{name} must list point counts 0 to 9"))
            continue
        twice = sorted({t for t in totals if totals.count(t) > 1})
        if twice:
            out.append(((name,), f"{name} lists {_totals(twice)} more than once"))
        on_natural = sorted(set(totals) & set(naturals))
        if on_natural:
            out.append(((name,), f"{name} draws on {_totals(on_natural)}, a natural: no hand draws on a natural"))
    rows = tab.get("banker_draws_on_player_third_card")
    if not isinstance(rows, dict):
        return out + [(("banker_draws_on_player_third_card",),
                       "banker_draws_on_player_third_card must map each Banker total to ten decisions")]
    for total in range(10):
        row = rows.get(total)
        if total in naturals:
            if row is not None:
                out.append((("banker_draws_on_player_third_card", total),
                            f"Banker total {total} is a natural: it has no drawing decisions, remove its row"))
            continue
        if row is None:
            out.append((("banker_draws_on_player_third_card",) + ((total,) if total in rows else ()),
                        f"no row for Banker total {total}: it needs a decision (D or S) for each Player third card 0-9"))
            continue
        if not isinstance(row, str):
            out.append((("banker_draws_on_player_third_card", total), f"row for Banker total {total} must be a string"))
            continue
        bad = sorted({ch for ch in row if ch not in "DS"})
        if bad:
            out.append((("banker_draws_on_player_third_card", total),
                        f"row for Banker total {total}: {''.join(bad)!r} is not a decision (D draws, S stands)"))
        elif len(row) != 10:
            missing = "missing the decision" + ("s" if len(row) < 9 else "") + " for Player third card " + \
                ", ".join(str(v) for v in range(len(row), 10)) if len(row) < 10 else \
                f"{len(row) - 10} decision(s) too many"
            out.append((("banker_draws_on_player_third_card", total),
                        f"row for Banker total {total} has {len(row)} decisions, needs 10: {missing}"))
    for total in rows:
        if not (isinstance(total, int) and 0 <= total <= 9):
            out.append((("banker_draws_on_player_third_card", total), f"{total!r} is not a Banker point count (0-9)"))
    return out


def tableau_differences(tab: dict, standard: dict) -> list[tuple[tuple, str]]:
    """How a complete tableau differs from the standard one, case by case, in words."""
    out: list[tuple[tuple, str]] = []
    if sorted(tab["naturals"]) != sorted(standard["naturals"]):
        out.append((("naturals",), f"naturals are {_totals(sorted(tab['naturals']))} "
                                   f"(standard: {_totals(standard['naturals'])})"))
    for name, who in (("player_draws", "the Player's Hand"),
                      ("banker_draws_when_player_stood", "the Banker's Hand, when the Player's Hand stood,")):
        mine, std = set(tab[name]), set(standard[name])
        for t in sorted(mine - std):
            out.append(((name,), f"{who} draws on {t} (standard: stands)"))
        for t in sorted(std - mine - set(tab["naturals"])):
            out.append(((name,), f"{who} stands on {t} (standard: draws)"))
    rows, std_rows = tab["banker_draws_on_player_third_card"], standard["banker_draws_on_player_third_card"]
    word = {"D": "draws", "S": "stands"}
    for total in range(10):
        row, std = rows.get(total), std_rows.get(total)
        if row is None or std is None:
            continue
        for card in range(10):
            if row[card] != std[card]:
                out.append((("banker_draws_on_player_third_card", total),
                            f"Banker total {total}, Player's third card {card}: {word[row[card]]} "
                            f"(standard: {word[std[card]]})"))
    return out


def _totals(ts) -> str:
    ts = list(ts)
    return " and ".join(str(t) for t in ts) if len(ts) <= 2 else ", ".join(str(t) for t in ts[:-1]) + f" and {ts[-1]}"


