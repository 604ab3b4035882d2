"""What every picture of the HTML report is drawn with: inline SVG with its own title, its text made safe to show.

The report's pictures (``compliance/report/svg.py``) and a game's own (baccarat's scoreboards) share it.
"""

from __future__ import annotations

from html import escape

from compliance.printable import printable

CELL = 16  # px a cell of a scoreboard
ROWS = 6  # cells a scoreboard's column


def escaped(text) -> str:
    return escape(printable(str(text)), quote=True)  # control and bidi characters shown, never obeyed


def svg(width: float, height: float, title: str, body: str, cls: str) -> str:
    return (f'<svg class="{cls}" xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}" role="img"><title>{escaped(title)}</title>{body}</svg>')
