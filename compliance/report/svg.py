"""Self-contained SVG pictures for the HTML report: a shoe's scoreboards, its counts, its flagged cards, charts.

Everything here formats numbers the integrity stage and the report model worked out; nothing is computed
but positions.  Each picture is inline ``<svg>`` with its own ``<title>`` (no script, no external
resource): a game's scoreboards of a shoe (its ``ShoeView.boards``, drawn in its package),
:func:`count_bands`, :func:`card_strip`, :func:`hold_bands` and :func:`bar_chart`, each saying in its
docstring what it draws; :func:`shoes_html` and :func:`charts_html` put them in the page.

Where each appears: docs/reports.md, "Formats" (the ``html`` row); docs/integrity.md, "In the reports".
"""

from __future__ import annotations

from compliance.games.pictures import escaped as _e
from compliance.games.pictures import svg as _svg

RED = "#c62828"  # what lies outside its band
SUITS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def count_bands(counts, width: int = 360) -> str:
    """Each count (CountBand) on its own line: the fair band shaded, the average a tick, the count a dot."""
    if not counts:
        return ""
    label_w, row_h = 70, 20
    scale_w = width - label_w - 90
    top = max(max(c.high, c.observed, c.expected) for c in counts) or 1
    parts = []
    for i, c in enumerate(counts):
        y = i * row_h + row_h / 2

        def x(v, c=c):
            return label_w + v / top * scale_w

        colour = RED if c.outside else "#263238"
        parts.append(f'<text x="0" y="{y + 4:g}" font-size="11">{_e(c.name)}</text>'
                     f'<rect x="{x(c.low):.1f}" y="{y - 5:g}" width="{max(x(c.high) - x(c.low), 1.5):.1f}" height="10" '
                     f'fill="#cfd8dc"><title>fair band {c.low} to {c.high}</title></rect>'
                     f'<line x1="{x(c.expected):.1f}" y1="{y - 7:g}" x2="{x(c.expected):.1f}" y2="{y + 7:g}" '
                     f'stroke="#546e7a"><title>fair average {c.expected:.1f}</title></line>'
                     f'<circle cx="{x(c.observed):.1f}" cy="{y:g}" r="4" fill="{colour}"><title>{_e(c.name)}: '
                     f'{c.observed}</title></circle>'
                     f'<text x="{label_w + scale_w + 8:g}" y="{y + 4:g}" font-size="11">{c.observed} '
                     f'({c.low}\u2013{c.high})</text>')
    return _svg(width, len(counts) * row_h, "counts against the band a fair shoe lands in 95 times in 100",
                "".join(parts), "count-bands")


def hold_bands(groups, confidence: float, width: int = 560) -> str:
    """Each group's hold (HoldGroup) on its own line, on one scale: the band theory gives it at the confidence
    shaded, the theoretical hold a tick, the hold a dot (red outside the band); 0% a dotted line."""
    if not groups:
        return ""
    label_w, row_h, right = 210, 20, 130
    scale_w = width - label_w - right
    values = [float(v) for g in groups for v in (g.low, g.high, g.hold, g.theoretical_hold)] + [0.0]
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0

    def x(v) -> float:
        return label_w + (float(v) - lo) / span * scale_w

    level = f"{confidence * 100:g}%"
    parts = [f'<line x1="{x(0):.1f}" y1="0" x2="{x(0):.1f}" y2="{len(groups) * row_h:g}" stroke="#b0bec5" '
             f'stroke-dasharray="2,2"><title>0%</title></line>']
    for i, g in enumerate(groups):
        y = i * row_h + row_h / 2
        colour = RED if g.outside else "#263238"
        pct = f"{float(g.hold) * 100:.2f}%"
        theo = f"{float(g.theoretical_hold) * 100:.2f}%"
        parts.append(f'<text x="0" y="{y + 4:g}" font-size="11">{_e(g.name)}</text>'
                     f'<rect x="{x(g.low):.1f}" y="{y - 5:g}" width="{max(x(g.high) - x(g.low), 1.5):.1f}" '
                     f'height="10" fill="#cfd8dc"><title>{level} band {float(g.low) * 100:.2f}% to '
                     f'{float(g.high) * 100:.2f}%</title></rect>'
                     f'<line x1="{x(g.theoretical_hold):.1f}" y1="{y - 7:g}" x2="{x(g.theoretical_hold):.1f}" '
                     f'y2="{y + 7:g}" stroke="#546e7a"><title>theoretical hold {theo}</title></line>'
                     f'<circle cx="{x(g.hold):.1f}" cy="{y:g}" r="4" fill="{colour}"><title>{_e(g.name)}: hold '
                     f'{pct}</title></circle>'
                     f'<text x="{label_w + scale_w + 8:g}" y="{y + 4:g}" font-size="11">{pct} ({theo})</text>')
    return _svg(width, len(groups) * row_h, f"hold against theoretical hold, with the band honest play lands in "
                f"{level} of the time", "".join(parts), "hold-bands")


def card_strip(cards: tuple[str, ...], stretches, decisive: int | None = None, per_row: int = 26) -> str:
    """The shoe's cards in order, ``per_row`` a row; the cards of each stretch shaded (a repeat: its twins
    outlined), the card that made the evidence decisive ringed in red."""
    w, h = 26, 22
    marked: dict[int, str] = {}
    twins: set[int] = set()
    for s in stretches:
        for i in range(s.start, min(s.end, len(cards))):
            marked.setdefault(i, "m" if s.source is not None else "o")  # a repeat, a stretch in order
        if s.source is not None and s.source_shoe is None:
            twins.update(range(s.source, s.source + s.length))
    parts = []
    # the colours are the style's (svg.card-strip): a shoe has hundreds of cards, and a report may draw hundreds
    # of shoes, so each card carries its classes only (m, o shaded; t a twin, d decisive outlined; r a red suit)
    for i, code in enumerate(cards):
        x, y = (i % per_row) * w, (i // per_row) * h
        rank, suit = code[:-1], code[-1]
        cls = " ".join(c for c in (marked.get(i), "d" if i == decisive else "t" if i in twins else None,
                                   "r" if suit in "HD" else None) if c)
        note = ": the evidence is decisive here" if i == decisive else ""
        attr = f' class="{cls}"' if cls else ""
        parts.append(f'<g{attr}><title>card {i + 1}: {_e(code)}{note}'
                     f'</title><rect x="{x + 1}" y="{y + 1}" width="{w - 2}" height="{h - 2}" rx="3"/>'
                     f'<text x="{x + w / 2:g}" y="{y + 15}">{_e(rank)}{SUITS.get(suit, suit)}</text></g>')
    rows = -(-len(cards) // per_row) or 1
    return _svg(per_row * w, rows * h, f"the shoe's {len(cards)} cards in the order drawn, flagged stretches shaded",
                "".join(parts), "card-strip")


LABEL_CHARS = 48  # a chart's labels are shown whole up to this length (a longer one in full in its tooltip)


def bar_chart(title: str, items: list[tuple[str, int]], width: int = 320) -> str:
    """Horizontal bars, one an item: its label, its bar, its count."""
    if not items:
        return ""
    row_h = 18
    longest = max(len(label) for label, _ in items)
    shown_len = min(longest, LABEL_CHARS)
    label_w = max(60, int(shown_len * 6.6) + 10)  # 11px text: about 6.6px a character at most; whole labels shown
    width = max(width, label_w + 190)
    top = max(n for _, n in items) or 1
    bar_w = width - label_w - 40
    parts = []
    for i, (label, n) in enumerate(items):
        y = i * row_h
        short = label if len(label) <= LABEL_CHARS else label[:LABEL_CHARS - 1] + "\u2026"
        parts.append(f'<text x="0" y="{y + 13}" font-size="11"><title>{_e(label)}</title>{_e(short)}</text>'
                     f'<rect x="{label_w}" y="{y + 3}" width="{max(n / top * bar_w, 1):.1f}" height="{row_h - 6}" '
                     f'fill="#0f5e3c"/><text x="{label_w + n / top * bar_w + 4:.1f}" y="{y + 13}" '
                     f'font-size="11">{n:,}</text>')
    return _svg(width, len(items) * row_h, title, "".join(parts), "bar-chart")


# ------------------------------------------------------------------ the HTML around the pictures

STYLE = """
section.shoes { margin: 12px 0; } .shoe { background: #fff; border: 1px solid var(--line); border-radius: 8px;
  padding: 10px 14px; margin: 10px 0; break-inside: avoid; } .shoe.flagged { border-left: 5px solid var(--error); }
.shoe { content-visibility: auto; contain-intrinsic-size: auto 420px; }
svg.card-strip rect { fill: #fff; stroke: #bdbdbd; stroke-width: 1; } svg.card-strip .m rect { fill: #ffe082; }
svg.card-strip .o rect { fill: #b3e5fc; } svg.card-strip .t rect { stroke: #f57f17; }
svg.card-strip .d rect { stroke: #c62828; stroke-width: 2.5; }
svg.card-strip text { font-size: 10px; text-anchor: middle; fill: #111; } svg.card-strip .r text { fill: #c62828; }
.shoe h4 { margin: 0 0 6px; font-size: 15px; } .boards { display: flex; gap: 18px; flex-wrap: wrap; align-items: start; }
.boards figure { margin: 0; } .boards figcaption { font-size: 12px; color: var(--muted); }
.shoe svg { max-width: 100%; height: auto; } .charts { display: flex; gap: 24px; flex-wrap: wrap; }
.charts figure { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; }
.charts figcaption { font-weight: 600; font-size: 13px; margin-bottom: 4px; } .flags { margin: 6px 0 0; padding-left: 18px; }
"""

#: shoes drawn per transcript, and in a whole report (flagged shoes first, over every transcript): each shoe is a
#: few hundred elements, and a browser opens a page of many thousands of them slowly (docs/reports.md: a report of
#: 20,000 findings in 560 flagged shoes).  A flagged shoe not drawn is listed with its flags; the others are counted
MAX_SHOES = 60
MAX_DRAWN = 120


def _figure(caption: str, picture: str) -> str:
    return f"<figure>{picture}<figcaption>{_e(caption)}</figcaption></figure>" if picture else ""


def shoe_html(view) -> str:
    """One shoe (a ShoeView): its game's scoreboards (baccarat's bead plate and big road), its counts against fair
    play, its flagged cards."""
    first, last = view.first_coup, view.last_coup
    head = (f'<h4>Shoe {_e(view.shoe)} <span class="meta">table {_e(view.table)} \u00b7 {view.decks} decks \u00b7 '
            f'coups {first}\u2013{last}</span></h4>')
    boards = ('<div class="boards">' + "".join(_figure(caption, picture) for caption, picture in view.boards())
              + _figure("counts against the fair band (95 in 100)", count_bands(view.counts)) + "</div>")
    flags = ""
    if view.flagged:
        flags = '<ul class="flags">' + "".join(f'<li class="notice">{_e(f)}</li>' for f in view.flagged) + "</ul>"
    strip = ""
    if view.cards is not None:
        strip = _figure("the cards in the order drawn: stretches that show the shoe was not shuffled are shaded, "
                        "the cards they repeat outlined, the card that made it decisive ringed in red",
                        card_strip(view.cards, view.stretches, view.decisive_card))
    cls = "shoe flagged" if view.flagged else "shoe"
    return (f'<div class="{cls}" data-shoe="{_e(view.shoe)}">{head}{boards}'
            f'<p class="meta">{_e(view.legend())}</p>{flags}{strip}</div>')


def shoes_drawn(runs: list) -> list[tuple[int, int]]:
    """How many of its flagged shoes and of its other shoes each transcript draws (``runs``: each transcript's
    shoe views, or None): the flagged shoes first, transcript by transcript, then the others, up to
    :data:`MAX_SHOES` a transcript and :data:`MAX_DRAWN` in all."""
    left = MAX_DRAWN
    flagged = []
    for views in runs:
        n = min(sum(1 for v in views or () if v.flagged), left)
        flagged.append(n)
        left -= n
    out = []
    for views, n in zip(runs, flagged):
        others = min(sum(1 for v in views or () if not v.flagged), max(0, MAX_SHOES - n), left)
        left -= others
        out.append((n, others))
    return out


def shoes_html(views, drawn: tuple[int, int] | None = None) -> str:
    """The shoes of a transcript: ``drawn`` (:func:`shoes_drawn`) of the flagged ones and of the others drawn;
    a flagged shoe beyond them listed with its flags, the others counted."""
    if not views:
        return ""
    flagged = [v for v in views if v.flagged]
    others = [v for v in views if not v.flagged]
    n_flagged, n_others = drawn if drawn is not None else (len(flagged), max(0, MAX_SHOES - len(flagged)))
    listed = ""
    if flagged[n_flagged:]:
        listed = (f'<p class="meta">{len(flagged) - n_flagged:,} more flagged shoes, not drawn (the report draws '
                  f'{MAX_DRAWN} shoes at most):</p><ul class="flags">'
                  + "".join(f'<li data-shoe="{_e(v.shoe)}">shoe {_e(v.shoe)}, coups {v.first_coup}\u2013{v.last_coup}: '
                            + "; ".join(_e(f) for f in v.flagged) + "</li>" for v in flagged[n_flagged:]) + "</ul>")
    more = len(others) - min(n_others, len(others))
    note = f'<p class="meta">{more:,} more shoes without a finding are not drawn.</p>' if more else ""
    return (f'<section class="shoes"><h3>Shoes ({len(views):,})</h3>'
            + "".join(shoe_html(v) for v in flagged[:n_flagged] + others[:n_others]) + listed + note + "</section>")


def _caption(chart) -> str:
    if not chart.left_out:
        return f"by {chart.name}"
    return (f"by {chart.name}: the {len(chart.items):,} with the most findings; {chart.left_out:,} more, with "
            f"{chart.left_out_findings:,} finding{'' if chart.left_out_findings == 1 else 's'}, not drawn")


def charts_html(charts: list) -> str:
    """The run summary's small charts (:class:`compliance.report.digest.Bars`): findings by category, table, dealer
    and time (hour, or the coarser unit of the report's time view)."""
    figures = "".join(_figure(_caption(c), bar_chart(f"findings by {c.name}", c.items)) for c in charts if c.items)
    names = [c.name for c in charts if c.items]
    title = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)
    return f'<h2>Findings by {title}</h2><div class="charts">{figures}</div>' if figures else ""
