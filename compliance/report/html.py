"""The HTML report: one self-contained file an auditor can open, file or print.

It shows the run's summary, then for every transcript its table, ruleset,
SHA-256 and counts, and every coup with a finding: the two hands with their
cards drawn as cards (a third card turned sideways, as it is dealt), the
result, and each finding with its rule, its citation and its place in the
file; the rules not judged for want of evidence, and (where the transcripts
record who dealt and when) the findings by dealer, table and hour.  No
script, no external resource: styles are inline, cards are text.  The
generation time is the run's (``--timestamp`` / ``SOURCE_DATE_EPOCH``), so
the same input gives the same bytes.
"""

from __future__ import annotations

from html import escape

from compliance.categories import SEVERITIES
from compliance.findings import Finding
from compliance.printable import printable
from compliance.report.model import CoupView, Report, TranscriptView

SUIT = {"S": ("♠", "spades", "black"), "H": ("♥", "hearts", "red"), "D": ("♦", "diamonds", "red"),
        "C": ("♣", "clubs", "black")}
RANK = {"A": "A", "T": "10", "J": "J", "Q": "Q", "K": "K"}
RANK_NAME = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
             "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}

STYLE = """
:root { --ink: #1d2329; --muted: #5b6670; --line: #d5dbe0; --felt: #0f5e3c; --error: #b3261e; --warning: #a15c00;
  --info: #1f5fa8; --ok: #1b7f3b; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); margin: 0;
  background: #f4f6f7; }
main { max-width: 1100px; margin: 0 auto; padding: 24px; }
header.report { border-bottom: 3px solid var(--felt); margin-bottom: 16px; }
h1 { margin: 0 0 4px; font-size: 26px; } h2 { margin: 28px 0 8px; font-size: 20px; } h3 { margin: 0; font-size: 17px; }
.meta { color: var(--muted); margin: 0 0 12px; }
.status { display: inline-block; padding: 4px 12px; border-radius: 14px; font-weight: 600; color: #fff; }
.status.fail { background: var(--error); } .status.pass { background: var(--ok); }
.summary-line { font-weight: 600; margin: 12px 0; }
table { border-collapse: collapse; width: 100%; background: #fff; margin: 8px 0; }
th, td { border: 1px solid var(--line); padding: 6px 8px; text-align: left; vertical-align: top; }
th { background: #eef1f3; font-weight: 600; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .sha { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 13px; }
.sha { word-break: break-all; }
section.coup { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin: 14px 0; padding: 14px;
  break-inside: avoid; }
.coup-head { display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
.table-felt { display: flex; gap: 28px; flex-wrap: wrap; background: var(--felt); border-radius: 10px;
  padding: 12px 16px; margin: 10px 0; color: #fff; }
.hand h4 { margin: 0 0 6px; font-size: 14px; font-weight: 600; letter-spacing: .04em; text-transform: uppercase; }
.hand .total { font-weight: 400; opacity: .85; text-transform: none; }
.cards { display: flex; gap: 8px; align-items: center; min-height: 92px; }
.card { position: relative; width: 60px; height: 86px; border-radius: 7px; background: #fff; border: 1px solid #999;
  box-shadow: 0 1px 3px rgba(0,0,0,.35); display: inline-flex; flex-direction: column; justify-content: space-between;
  padding: 4px 6px; font-weight: 700; line-height: 1; }
.card.red { color: #c0152f; } .card.black { color: #111; }
.card .rank { font-size: 20px; } .card .suit { font-size: 30px; align-self: center; }
.card .corner { font-size: 13px; align-self: flex-end; transform: rotate(180deg); }
.card.third { transform: rotate(90deg); margin: 0 14px; }
.no-cards { opacity: .8; font-style: italic; }
.result { color: var(--muted); margin: 4px 0 8px; }
ul.findings { list-style: none; padding: 0; margin: 0; }
ul.findings li { border-left: 4px solid var(--line); padding: 6px 10px; margin: 6px 0; background: #fafbfc; }
ul.findings li.error { border-color: var(--error); } ul.findings li.warning { border-color: var(--warning); }
ul.findings li.info { border-color: var(--info); } ul.findings li.waived { opacity: .75; border-left-style: dashed; }
.sev { font-weight: 700; text-transform: uppercase; font-size: 12px; letter-spacing: .05em; margin-right: 6px; }
.sev.error { color: var(--error); } .sev.warning { color: var(--warning); } .sev.info { color: var(--info); }
.citation { color: var(--muted); } .where { color: var(--muted); font-size: 13px; }
.notice { color: var(--warning); } .clean { color: var(--ok); font-weight: 600; }
footer { color: var(--muted); font-size: 13px; margin-top: 32px; border-top: 1px solid var(--line); padding-top: 8px; }
@media print { body { background: #fff; } main { padding: 0; } section.coup { border-color: #999; }
  .table-felt { -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
"""


def _e(text) -> str:
    """Text from anywhere, as HTML: its control and format characters (a bidirectional override) made
    visible, then escaped."""
    return escape(printable(text), quote=True)


def card(code: str, third: bool = False) -> str:
    """One card as a card: rank in the corner, the suit in the middle (a ``?`` for what was not recorded)."""
    rank, suit = code[:-1], code[-1]
    symbol, suit_name, colour = SUIT.get(suit, ("?", "suit not recorded", "black"))
    shown = RANK.get(rank, rank)
    if code == "??":
        label = "card not read"
    elif rank == "0":
        shown, label = "0", "a ten or court card, not recorded which"
    else:
        label = (f"{RANK_NAME.get(rank, rank)} of {suit_name}" if suit in SUIT
                 else f"{RANK_NAME[rank]}, suit not recorded")
    label += " (third card)" if third else ""
    cls = f"card {colour}" + (" third" if third else "")
    return (f'<span class="{cls}" role="img" aria-label="{_e(label)}" title="{_e(label)}" data-card="{_e(code)}">'
            f'<span class="rank">{_e(shown)}</span><span class="suit">{symbol}</span>'
            f'<span class="corner">{_e(shown)}</span></span>')


def _hand(name: str, cards: tuple[str, ...], initial: int, total: int | None) -> str:
    drawn = "".join(card(c, third=i >= initial) for i, c in enumerate(cards))
    body = drawn or '<span class="no-cards">no cards</span>'
    points = "points not known (a card not read)" if total is None else f'{total} point{"" if total == 1 else "s"}'
    return (f'<div class="hand {name.lower()}"><h4>{name} <span class="total">{points}</span></h4>'
            f'<div class="cards">{body}</div></div>')


def _hands(cv: CoupView) -> str:
    c = cv.cards
    if c is None:
        why = "this coup could not be read" if cv.unreadable else "the cards of this coup were not kept"
        return f'<div class="table-felt"><span class="no-cards">{why}</span></div>'
    felt = ('<div class="table-felt">' + _hand("Player", c.player, c.player_initial, c.player_total)
            + _hand("Banker", c.banker, c.banker_initial, c.banker_total) + "</div>")
    if c.void is not None:
        said = f"declared void ({_e(c.void)})"
    elif c.result is not None:
        winner, p, b = c.result
        said = (f"announced: tie, Player {p}, Banker {b}" if winner == "tie"
                else f"announced: {_e(winner)} wins, Player {p}, Banker {b}")
    else:
        said = "no result announced"
    shoe = f"shoe {_e(c.shoe)}" + (f", dealing method {_e(c.method)}" if c.method else "")
    return felt + f'<p class="result">{shoe}; {said}</p>'


def _finding(f: Finding, waiver=None) -> str:
    where = f"{f.transcript}:{f.line}:{f.column}" if f.line is not None else f.transcript
    event = f", event {f.event}" if f.event is not None else ""
    cls = f.severity + (" waived" if waiver else "")
    waived = ""
    if waiver is not None:
        w = waiver.waiver
        waived = (f'<div class="waiver">waived by {_e(waiver.key)}: {_e(w.justification)} (approved by '
                  f'{_e(w.approved_by)}, until {w.expires.isoformat()})</div>')
    return (f'<li class="{cls}" data-rule="{_e(f.rule)}"><span class="sev {f.severity}">{_e(f.severity)}</span>'
            f'<code>{_e(f.rule)}</code> <span class="category">[{_e(f.category)}]</span><br>'
            f'<span class="message">{_e(f.message)}</span><br>'
            f'<span class="citation">Regulation: {_e(f.citation) or "—"}</span> '
            f'<span class="where">({_e(where)}{event})</span>{waived}</li>')


def _coup(cv: CoupView) -> str:
    title = f"Coup {cv.number}" if cv.number is not None else f"Unreadable coup (line {cv.line})"
    n = len(cv.findings)
    counts = f"{n} finding{'' if n == 1 else 's'}" + (f", {len(cv.waived)} waived" if cv.waived else "")
    items = "".join(_finding(f) for f in cv.findings) + "".join(_finding(f, e) for f, e in cv.waived)
    number = "" if cv.number is None else f' data-coup="{cv.number}"'
    return (f'<section class="coup"{number}><div class="coup-head"><h3>{_e(title)}</h3>'
            f'<span class="meta">{counts}</span></div>{_hands(cv)}<ul class="findings">{items}</ul></section>')


def _transcript(report: Report, view: TranscriptView, index: int) -> str:
    r = view.result
    counts = ", ".join(f"{view.by_severity[s]} {s}" for s in SEVERITIES if view.by_severity[s]) or "no findings"
    head = (f'<h2 id="transcript-{index + 1}">{_e(r.transcript)}</h2>'
            f'<table class="facts"><tr><th>table</th><td>{_e(r.table)}</td><th>game</th><td>{_e(r.game)}</td></tr>'
            f'<tr><th>ruleset</th><td>{_e(r.ruleset.id)} {_e(r.ruleset.version)}</td><th>coups</th>'
            f'<td class="num">{r.coups:,}</td></tr>'
            f'<tr><th>ruleset SHA-256</th><td colspan="3" class="sha">{_e(r.ruleset.sha256)}</td></tr>'
            f'<tr><th>SHA-256</th><td colspan="3" class="sha">{_e(r.sha256)}</td></tr>'
            f'<tr><th>findings</th><td colspan="3">{_e(counts)}'
            + (f"; {len(view.waived)} waived" if view.waived else "")
            + (f"; {view.baselined} in the baseline" if view.baselined else "") + "</td></tr></table>")
    head += _not_judged(view)
    coups = report.coups_of(view, every_coup=False)
    if not coups:
        if view.not_judged:
            return head + '<p class="clean">Every coup complies with the rules the recording lets us judge.</p>'
        return head + '<p class="clean">Every coup complies with the ruleset.</p>'
    return head + "".join(_coup(cv) for cv in coups)


def _not_judged(view: TranscriptView) -> str:
    """The rules of a transcript that gave no finding because the evidence they need was not recorded."""
    if not view.not_judged:
        return ""
    rows = "".join(f'<tr data-rule="{_e(nj.rule.id)}"><td><code>{_e(nj.rule.id)}</code><br>'
                   f'<span class="category">{_e(nj.rule.category)}</span></td><td>{_e(nj.extent)}</td>'
                   f"<td>{_e(nj.reason)}</td><td>{_e(nj.rule.citation_text) or '—'}</td></tr>"
                   for nj in view.not_judged)
    return ('<details class="not-judged"><summary>' + f"{len(view.not_judged)} rule"
            + ("" if len(view.not_judged) == 1 else "s") + " not judged: the evidence they need was not recorded"
            + "</summary><table><tr><th>rule</th><th>not judged</th><th>why</th><th>regulation</th></tr>"
            + rows + "</table></details>")


def _groups(report: Report) -> str:
    """The findings by dealer, table and hour, where the transcripts record who dealt and when."""
    groups = report.groups
    if groups is None:
        return ""
    parts = []
    for name, title in (("dealer", "dealer"), ("table", "table"), ("hour", "hour")):
        counts = getattr(groups, name)
        rows = "".join(f"<tr><td>{_e(key)}</td>" + "".join(f'<td class="num">{c[s]}</td>' for s in SEVERITIES)
                       + "</tr>" for key, c in counts.items())
        parts.append(f'<table class="by-{name}"><tr><th>{title}</th>'
                     + "".join(f"<th>{s}</th>" for s in SEVERITIES) + f"</tr>{rows}</table>")
    return '<h2>Findings by dealer, table and hour</h2><div class="groups">' + "".join(parts) + "</div>"


def render(report: Report) -> str:
    failed = report.exit_code != 0
    rulesets = ", ".join(f"{rs.id} {rs.version} ({rs.title}, sha256 {rs.sha256})" for rs in report.rulesets) or "none"
    overview = "".join(
        f'<tr><td><a href="#transcript-{i + 1}">{_e(t.result.transcript)}</a></td><td>{_e(t.result.table)}</td>'
        f"<td>{_e(t.result.ruleset.id)}</td><td class=\"num\">{t.result.coups:,}</td>"
        + "".join(f'<td class="num">{t.by_severity[s]}</td>' for s in SEVERITIES)
        + f'<td class="num">{len(t.waived)}</td></tr>'
        for i, t in enumerate(report.transcripts))
    notices = "".join(f'<li class="notice">{_e(n)}</li>' for n in report.notices())
    notices += "".join(f'<li class="notice">could not check {_e(e)}</li>' for e in report.errors)
    body = [
        '<header class="report"><h1>Baccarat compliance report</h1>',
        f'<p class="meta">baccarat-audit {_e(report.tool_version)} · generated {_e(report.generated_iso)} · '
        f"rulesets: {_e(rulesets)} · fails on {_e(report.fail_on)}</p></header>",
        f'<p><span class="status {"fail" if failed else "pass"}">{"FAIL" if failed else "PASS"}</span></p>',
        f'<p class="summary-line">{_e(report.summary_line())}</p>',
        '<table class="overview"><tr><th>transcript</th><th>table</th><th>ruleset</th><th>coups</th>'
        + "".join(f"<th>{s}</th>" for s in SEVERITIES) + f"<th>waived</th></tr>{overview}</table>",
    ]
    groups = _groups(report)
    if groups:
        body.append(groups)
    if notices:
        body.append(f'<h2>Notes</h2><ul class="notices">{notices}</ul>')
    body += [_transcript(report, t, i) for i, t in enumerate(report.transcripts)]
    body.append(f"<footer>Findings cite the regulation paragraph each rule rests on. Report generated by "
                f"baccarat-audit {_e(report.tool_version)} at {_e(report.generated_iso)}.</footer>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>baccarat-audit report: {_e(report.summary_line())}</title>"
            f"<style>{STYLE}</style></head><body><main>\n" + "\n".join(body) + "\n</main></body></html>\n")
