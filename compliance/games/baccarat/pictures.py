"""Baccarat's scoreboards in the HTML report: a shoe's bead plate and big road, as the scoreboards at its tables
draw them.

* :func:`bead_plate` -- one disc a coup, six to a column, top to bottom, left to right: red the Banker, blue
  the Player, green a tie; a dot marks a natural;
* :func:`big_road` -- a column a streak: hollow rings, a new column when the winner changes; a tie is a green
  stroke across the last ring; a streak longer than six turns right along the bottom row (the "dragon tail").
"""

from __future__ import annotations

from dataclasses import dataclass

from compliance.games.integrity import ShoeView
from compliance.games.pictures import CELL, ROWS, svg

BANKER, PLAYER, TIE, GREY = "#c62828", "#1565c0", "#2e7d32", "#9e9e9e"


@dataclass(slots=True)
class Shoe(ShoeView):
    """A baccarat shoe as the report shows it: its scoreboards are drawn from its outcomes."""

    outcomes: str = ""  # one letter a coup: B, P, T (lower case: a natural), "-" a coup not compared
    streak: tuple[str, int, float] | None = None  # (B or P, length, chance of one as long) of the longest streak

    def boards(self) -> list[tuple[str, str]]:
        return [("bead plate", bead_plate(self.outcomes)), ("big road", big_road(self.outcomes))]

    def legend(self) -> str:
        streak = ""
        if self.streak is not None:
            side, length, p = self.streak
            streak = f" Longest streak: {length} {'Banker' if side == 'B' else 'Player'} (chance of one as long: {p:.2g})."
        return ("B red, P blue, T green, as the table gave them; a gold dot marks a natural; grey: a coup without an "
                "outcome (void, its hands incomplete, or its cards not recorded). The counts take a coup dealt "
                "against the tableau at the outcome the tableau gives its cards." + streak)


def _colour(letter: str) -> str:
    return {"B": BANKER, "P": PLAYER, "T": TIE}.get(letter.upper(), GREY)


def bead_plate(outcomes: str, label: str = "bead plate") -> str:
    """The bead plate of a shoe: ``outcomes`` one letter a coup (B, P, T; lower case a natural; - not compared)."""
    cols = max(1, -(-len(outcomes) // ROWS))
    parts = []
    r = CELL / 2 - 1.5
    for i, letter in enumerate(outcomes):
        x = (i // ROWS) * CELL + CELL / 2
        y = (i % ROWS) * CELL + CELL / 2
        fill = _colour(letter)
        shown = letter.upper() if letter != "-" else "\u00b7"
        parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{fill}"/>'
                     f'<text x="{x:g}" y="{y + 3.5:g}" font-size="9" text-anchor="middle" fill="#fff">{shown}</text>')
        if letter.islower():
            parts.append(f'<circle cx="{x + r - 1.5:g}" cy="{y - r + 1.5:g}" r="2" fill="#ffd600"/>')
    grid = "".join(f'<line x1="{c * CELL}" y1="0" x2="{c * CELL}" y2="{ROWS * CELL}" stroke="#e0e0e0"/>'
                   for c in range(1, cols))
    return svg(cols * CELL, ROWS * CELL, f"{label}: {len(outcomes)} coups", grid + "".join(parts), "bead-plate")


def road_cells(outcomes: str) -> list[tuple[int, int, str, int]]:
    """Cells of the big road: (column, row, B or P, ties after it); a streak past the sixth row turns right."""
    cells: list[list] = []
    taken: set[tuple[int, int]] = set()
    side = None
    col = -1
    start_col = -1
    row = 0
    ties_before = 0
    for letter in outcomes:
        s = letter.upper()
        if s == "T":
            if cells:
                cells[-1][3] += 1
            else:
                ties_before += 1
            continue
        if s not in "BP":
            continue
        if s != side:
            start_col += 1
            col, row = start_col, 0
            side = s
        elif row + 1 < ROWS and (col, row + 1) not in taken:
            row += 1
        else:
            col += 1  # the dragon tail: along the row it reached
        taken.add((col, row))
        cells.append([col, row, s, 0])
    if cells and ties_before:
        cells[0][3] += ties_before
    return [tuple(c) for c in cells]


def big_road(outcomes: str, label: str = "big road") -> str:
    cells = road_cells(outcomes)
    cols = max((c for c, _, _, _ in cells), default=0) + 1
    parts = []
    r = CELL / 2 - 2.5
    for c, row, s, ties in cells:
        x, y = c * CELL + CELL / 2, row * CELL + CELL / 2
        parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="none" stroke="{_colour(s)}" stroke-width="2.5"/>')
        if ties:
            parts.append(f'<line x1="{x - r:g}" y1="{y + r:g}" x2="{x + r:g}" y2="{y - r:g}" stroke="{TIE}" '
                         f'stroke-width="2"/>')
            if ties > 1:
                parts.append(f'<text x="{x:g}" y="{y + 3:g}" font-size="8" text-anchor="middle" fill="{TIE}">'
                             f'{ties}</text>')
    grid = "".join(f'<line x1="{c * CELL}" y1="0" x2="{c * CELL}" y2="{ROWS * CELL}" stroke="#eeeeee"/>'
                   for c in range(1, cols))
    grid += "".join(f'<line x1="0" y1="{r_ * CELL}" x2="{cols * CELL}" y2="{r_ * CELL}" stroke="#eeeeee"/>'
                    for r_ in range(1, ROWS))
    return svg(cols * CELL, ROWS * CELL, f"{label}: {len(cells)} Banker or Player coups", grid + "".join(parts),
                "big-road")
