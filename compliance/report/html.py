"""The HTML report: one self-contained file an auditor can open, file or print, at any size.

:func:`render` writes the page: the run's summary drawn on the server (the verdict, the contents, the
findings by rule, category and table, each transcript's table, ruleset, hash and counts, the rules not
judged, the findings by dealer, table and hour, each shoe's pictures from :mod:`compliance.report.svg`),
then the coups with a finding as one JSON document (:func:`data_document`) that the page's script
(:data:`SCRIPT`) draws a page at a time with DOM calls.  What it shows of a coup comes from the report
model; this module only formats it.

What the page shows, why its coups are data, and what it takes to open: docs/reports.md, "Formats" (the
``html`` row) and "A long recording in the HTML report".
"""

from __future__ import annotations

import json
from decimal import Decimal
from html import escape

from compliance import registry
from compliance.categories import CATEGORIES, SEVERITIES, SHARED
from compliance.games.common import money
from compliance.printable import printable
from compliance.report import svg
from compliance.report.digest import TIME_PERIODS, TimeFold, counts_digest, digest, money_digest, patron_digest
from compliance.report.groups import NOT_RECORDED
from compliance.report.hold import hold_percent
from compliance.report.model import CoupView, Report, TranscriptView
from compliance.report.money import MONEY_GROUPS, MoneySummary, money_words
from compliance.report.patrons import finding_patron

SUIT = {"S": ("♠", "spades", "black"), "H": ("♥", "hearts", "red"), "D": ("♦", "diamonds", "red"),
        "C": ("♣", "clubs", "black")}
RANK = {"A": "A", "T": "10", "J": "J", "Q": "Q", "K": "K"}
RANK_NAME = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
             "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}
PAGE_SIZES = (25, 50, 100, 250, 1000)
PAGE_SIZE = 50

CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; "
       "base-uri 'none'; form-action 'none'")

STYLE = """
:root { --ink: #1d2329; --muted: #5b6670; --line: #d5dbe0; --felt: #0f5e3c; --error: #b3261e; --warning: #a15c00;
  --info: #1f5fa8; --ok: #1b7f3b; --hit: #fff1a8; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); margin: 0;
  background: #f4f6f7; }
main { max-width: 1240px; margin: 0 auto; padding: 24px; }
header.report { border-bottom: 3px solid var(--felt); margin-bottom: 16px; }
h1 { margin: 0 0 4px; font-size: 26px; } h2 { margin: 28px 0 8px; font-size: 20px; } h3 { margin: 0; font-size: 17px; }
.meta { color: var(--muted); margin: 0 0 12px; }
.status { display: inline-block; padding: 4px 12px; border-radius: 14px; font-weight: 600; color: #fff; }
.status.fail { background: var(--error); } .status.pass { background: var(--ok); }
.status.partial { background: var(--warning); }
.summary-line { font-weight: 600; margin: 12px 0; }
nav.toc ol { display: flex; flex-wrap: wrap; gap: 4px 18px; list-style: none; padding: 0; margin: 8px 0; }
table { border-collapse: collapse; width: 100%; background: #fff; margin: 8px 0; }
th, td { border: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: #eef1f3; font-weight: 600; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .sha { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 13px; }
.sha { word-break: break-all; }
a.pick { color: inherit; text-decoration: underline dotted; cursor: pointer; }
.filters { position: sticky; top: 0; z-index: 2; background: #f4f6f7; padding: 8px 0; display: flex; flex-wrap: wrap;
  gap: 8px 14px; align-items: center; border-bottom: 1px solid var(--line); }
.filters label { font-size: 13px; color: var(--muted); }
.filters select, .filters input { margin-left: 4px; max-width: 260px; }
.pager { display: flex; gap: 10px; align-items: center; margin: 10px 0; }
.pager button { padding: 3px 10px; }
section.coup { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin: 14px 0; padding: 14px;
  break-inside: avoid; }
.coup-head { display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
.coup-body { display: flex; gap: 18px; flex-wrap: wrap; align-items: flex-start; }
.coup-body > .left { flex: 0 1 430px; } .coup-body > .right { flex: 1 1 480px; min-width: 0; }
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
.card.hit { outline: 4px solid #ffd400; outline-offset: 1px; }
.no-cards { opacity: .8; font-style: italic; }
.result { color: var(--muted); margin: 4px 0 8px; }
table.wagers, table.events { font-size: 13px; margin: 6px 0; }
table.events td:first-child, table.wagers td.num { white-space: nowrap; }
tr.hit td { background: var(--hit); font-weight: 600; }
ul.findings { list-style: none; padding: 0; margin: 8px 0 0; }
ul.findings li { border-left: 4px solid var(--line); padding: 6px 10px; margin: 6px 0; background: #fafbfc; }
ul.findings li.error { border-color: var(--error); } ul.findings li.warning { border-color: var(--warning); }
ul.findings li.info { border-color: var(--info); } ul.findings li.waived { opacity: .75; border-left-style: dashed; }
ul.findings li.other { opacity: .55; }
.sev { font-weight: 700; text-transform: uppercase; font-size: 12px; letter-spacing: .05em; margin-right: 6px; }
.sev.error { color: var(--error); } .sev.warning { color: var(--warning); } .sev.info { color: var(--info); }
.money { font-size: 13px; margin-top: 2px; } .money.patron { color: var(--error); } .money.house { color: var(--info); }
.citation { color: var(--muted); } .where { color: var(--muted); font-size: 13px; }
.notice { color: var(--warning); } .clean { color: var(--ok); font-weight: 600; }
footer { color: var(--muted); font-size: 13px; margin-top: 32px; border-top: 1px solid var(--line); padding-top: 8px; }
@media print { body { background: #fff; } main { padding: 0; } section.coup { border-color: #999; }
  .filters, .pager, nav.toc { display: none; }
  .table-felt, tr.hit td { -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
"""

#: the page's script: reads the JSON document, fills the filters' effect and draws a page of coups at a time
SCRIPT = r"""
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("report-data").textContent);
  var list = document.getElementById("coup-list"), count = document.getElementById("coup-count");
  var T = D.time, levels = T ? T.units.length : 0;  // the time filters: the view's unit first, the hour last
  var pick = {};  // the filters the page has (no dealer or time recorded: none of theirs)
  ["rule", "category", "severity", "table", "dealer", "patron"].concat(T ? T.units : []).forEach(function (k) {
    var e = document.getElementById("filter-" + k);
    if (e) pick[k] = e;
  });
  var lists = {table: D.tables, dealer: D.dealers, patron: D.patrons};  // what a filter box takes a name of
  var places = {};
  var size = document.getElementById("page-size"), pages = document.querySelectorAll(".pager");
  var shown = [], page = 0;
  var above = [];  // each hour's place at each level of the time filters, the coarsest first
  for (var h = 0; T && h < D.hours.length; h++) {
    var at = new Array(levels);
    at[levels - 1] = h;
    for (var L = levels - 1; L > 0; L--) at[L - 1] = T.up[L][at[L]];
    above.push(at);
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  function word(i) { return i === null ? null : D.words[i]; }
  function named(row, kind, worded) {  // a row of the data by its fields' names (D.fields), its words spelled out
    var x = {};
    D.fields[kind].forEach(function (name, i) { x[name] = row[i]; });
    (worded || []).forEach(function (name) { x[name] = word(x[name]); });
    return x;
  }
  D.coups.forEach(function (c) { c.f = c.f.map(function (f) { return named(f, "finding"); }); });
  function spelled(c) {  // a coup's hands, events and wagers by name, with their words (given by place in D.words)
    var x = {};
    Object.keys(c).forEach(function (key) { x[key] = c[key]; });
    x.s = c.s.map(function (s) { return named(s, "step", ["kind", "who", "what", "amount", "note"]); });
    x.w = c.w.map(function (w) { return named(w, "wager", ["who", "spot", "staked", "outcome", "paid", "commission"]); });
    if (c.c) {
      x.c = named(c.c, "picture", ["where"]);
      x.c.hands = x.c.hands.map(function (h) { return named(h, "hand", ["label", "value", "who"]); });
    }
    return x;
  }
  function option(v, text) { var o = el("option", null, text); o.value = v; return o; }
  function typed(k) { return pick[k] && pick[k].tagName === "INPUT" ? pick[k].value.trim() : null; }
  function value(k) {  // the place of what a filter chose, null for all; a name typed and not known: -1
    var s = pick[k];
    if (!s || s.value === "") return null;
    if (s.tagName !== "INPUT") return Number(s.value);
    var name = typed(k);
    if (name === "") return null;
    if (!places[k]) { places[k] = new Map(); lists[k].forEach(function (n, i) { places[k].set(n, i); }); }
    var i = places[k].get(name);
    return i === undefined ? -1 : i;
  }
  function suggest(k) {  // a filter box suggests the first 50 names holding what was typed
    var box = document.getElementById("names-" + k), text = typed(k).toLowerCase(), names = lists[k], n = 0;
    box.textContent = "";
    for (var i = 0; i < names.length && n < 50; i++) {
      if (names[i].toLowerCase().indexOf(text) >= 0) { add(box, option(names[i])); n++; }
    }
  }
  function fill(L) {  // a time filter below the first: the periods of the one chosen above it
    var s = pick[T.units[L]], up = value(T.units[L - 1]), names = L === levels - 1 ? D.hours : T.names[L];
    s.textContent = "";
    s.disabled = up === null;
    if (up === null) { add(s, option("", "choose a " + T.units[L - 1] + " first")); return; }
    add(s, option("", "all"));
    for (var i = 0; i < names.length; i++) { if (T.up[L][i] === up) add(s, option(String(i), names[i])); }
  }
  function time() {  // the finest time filter chosen: [level, place], or null
    for (var L = levels - 1; L >= 0; L--) { var v = value(T.units[L]); if (v !== null) return [L, v]; }
    return null;
  }
  function matches(f, want) {
    return (want.rule === null || f.rule === want.rule)
      && (want.category === null || D.rules[f.rule][2] === D.categories[want.category])
      && (want.severity === null || f.severity === want.severity) && (want.patron === null || f.patron === want.patron);
  }
  function wanted() {
    return {rule: value("rule"), category: value("category"), severity: value("severity"), table: value("table"),
            dealer: value("dealer"), time: T ? time() : null, patron: value("patron")};
  }
  function filter() {
    var want = wanted();
    shown = [];
    for (var i = 0; i < D.coups.length; i++) {
      var c = D.coups[i];
      if (want.table !== null && D.transcripts[c.t][1] !== want.table) continue;
      if (want.dealer !== null && c.d !== want.dealer) continue;
      if (want.time !== null && (c.h === null || above[c.h][want.time[0]] !== want.time[1])) continue;
      for (var j = 0; j < c.f.length; j++) { if (matches(c.f[j], want)) { shown.push(i); break; } }
    }
    page = 0;
    draw();
  }
  function card(face, third, hit) {  // face: [code, rank shown, suit symbol, colour, label]
    var label = face[4] + (third ? " (third card)" : "");
    var e = el("span", "card " + face[3] + (third ? " third" : "") + (hit ? " hit" : ""));
    e.setAttribute("role", "img"); e.setAttribute("aria-label", label); e.title = label;
    e.setAttribute("data-card", face[0]);
    add(e, el("span", "rank", face[1])); add(e, el("span", "suit", face[2])); add(e, el("span", "corner", face[1]));
    return e;
  }
  function hand(h, hits) {  // a hand as its game names it: its label, its points or rank, its cards
    var e = el("div", "hand" + (h.who ? " " + h.who : ""));
    var head = add(e, el("h4", null, h.label + " "));
    add(head, el("span", "total", h.value));
    var row = add(e, el("div", "cards"));
    if (!h.cards.length) add(row, el("span", "no-cards", "no cards"));
    h.cards.forEach(function (f, i) {
      var face = D.faces[f];
      row.appendChild(card(face, i >= h.initial, hits.indexOf(face[0]) >= 0));
    });
    return e;
  }
  function hitCards(c, events, who) {  // the cards dealt to a hand by the events a finding names
    return c.s.filter(function (s) { return events.indexOf(s.at) >= 0 && (s.kind === "card" || s.kind === "card_move")
                                              && s.who === who; }).map(function (s) { return s.what; });
  }
  function felt(c, events) {
    var box = el("div", "left");
    var f = add(box, el("div", "table-felt"));
    if (!c.c) { add(f, el("span", "no-cards", c.why)); return box; }
    c.c.hands.forEach(function (h) { f.appendChild(hand(h, hitCards(c, events, h.who))); });
    add(box, el("p", "result", (c.c.where ? c.c.where + "; " : "") + c.c.outcome));
    return box;
  }
  function row(table, cells, hit, header) {
    var tr = add(table, el("tr", hit ? "hit" : null));
    cells.forEach(function (x, i) {
      var td = add(tr, el(header ? "th" : "td", typeof x === "string" && /^-?[\d,.]+$/.test(x) && i ? "num" : null, x));
      if (header) td.scope = "col";
    });
    return tr;
  }
  function ledger(c, events) {
    var box = el("div", "right");
    if (c.w.length) {
      add(box, el("h4", null, "Wagers"));
      var t = add(box, el("table", "wagers"));
      row(t, ["who", "spot", "staked", "settled", "amount", "commission"], false, true);
      c.w.forEach(function (w) {
        var hit = w.changed.some(function (a) { return events.indexOf(a) >= 0; }) || events.indexOf(w.settled) >= 0
          || events.indexOf(w.commission_at) >= 0;
        row(t, [w.who, w.spot, w.staked, w.outcome === null ? "not settled" : w.outcome, w.paid === null ? "" : w.paid,
                w.commission === null ? "" : w.commission], hit);
      });
    }
    if (c.s.length) {
      add(box, el("h4", null, "Events"));
      var e = add(box, el("table", "events"));
      row(e, ["#", "event", "who", "what", "amount", ""], false, true);
      c.s.forEach(function (s) {
        var tr = row(e, [String(s.at), s.kind, s.who, s.what, s.amount === null ? "" : s.amount, s.note],
                     events.indexOf(s.at) >= 0);
        tr.setAttribute("data-event", s.at);
      });
    }
    return box;
  }
  function finding(f, want) {
    var r = D.rules[f.rule], sev = D.severities[f.severity];
    var li = el("li", sev + (f.waiver !== null ? " waived" : "") + (matches(f, want) ? "" : " other"));
    li.setAttribute("data-rule", r[0]);
    add(li, el("span", "sev " + sev, sev)); add(li, el("code", null, r[0]));
    li.appendChild(document.createTextNode(" ")); add(li, el("span", "category", "[" + r[2] + "]"));
    add(li, el("br")); add(li, el("span", "message", f.message)); add(li, el("br"));
    add(li, el("span", "citation", "Regulation: " + (word(f.citation) || "\u2014")));
    li.appendChild(document.createTextNode(" "));
    add(li, el("span", "where", "(" + f.where + (f.event === null ? "" : ", event " + f.event) + ")"));
    if (f.money !== null) add(li, el("div", "money " + f.favours, f.money));
    if (f.waiver !== null) add(li, el("div", "waiver", "waived by " + f.waiver + ": " + f.why));
    return li;
  }
  function coup(c, want) {
    c = spelled(c);
    var events = c.f.filter(function (f) { return matches(f, want) && f.event !== null; })
      .map(function (f) { return f.event; });
    var tr = D.transcripts[c.t];
    var s = el("section", "coup");
    if (c.n !== null) s.setAttribute("data-coup", c.n);
    s.setAttribute("data-transcript", tr[0]);
    var head = add(s, el("div", "coup-head"));
    add(head, el("h3", null, c.n !== null ? "Coup " + c.n : "Unreadable coup (line " + c.l + ")"));
    var reported = c.f.filter(function (f) { return f.waiver === null; }).length, waived = c.f.length - reported;
    add(head, el("span", "meta", tr[0] + " \u00b7 table " + D.tables[tr[1]]
                 + (c.d !== null ? " \u00b7 dealer " + D.dealers[c.d] : "") + (c.a !== null ? " \u00b7 " + c.a : "")
                 + " \u00b7 " + reported + " finding" + (reported === 1 ? "" : "s")
                 + (waived ? ", " + waived + " waived" : "")));
    var body = add(s, el("div", "coup-body"));
    body.appendChild(felt(c, events)); body.appendChild(ledger(c, events));
    var ul = add(s, el("ul", "findings"));
    c.f.forEach(function (f) { ul.appendChild(finding(f, want)); });
    return s;
  }
  function draw() {
    var want = wanted(), n = size.value === "all" ? shown.length || 1 : Number(size.value);
    var last = Math.max(0, Math.ceil(shown.length / n) - 1);
    page = Math.min(Math.max(page, 0), last);
    var from = page * n, to = Math.min(shown.length, from + n), frag = document.createDocumentFragment();
    for (var i = from; i < to; i++) frag.appendChild(coup(D.coups[shown[i]], want));
    list.textContent = "";
    list.appendChild(frag);
    var findings = 0;
    shown.forEach(function (i) { D.coups[i].f.forEach(function (f) { if (matches(f, want)) findings++; }); });
    var unknown = Object.keys(lists).filter(function (k) { return value(k) === -1; });
    count.textContent = unknown.length ? "No " + unknown[0] + " named \u201c" + typed(unknown[0])
      + "\u201d has a finding in this report." : shown.length ? "Coups " + (from + 1).toLocaleString("en") + "\u2013"
      + to.toLocaleString("en") + " of " + shown.length.toLocaleString("en") + " (" + findings.toLocaleString("en") + " finding"
      + (findings === 1 ? " matches" : "s match") + " the filters)" : "No coup has a finding that matches the filters.";
    pages.forEach(function (p) {
      p.querySelector(".page").textContent = "page " + (page + 1) + " of " + (last + 1);
      p.querySelector(".prev").disabled = page === 0;
      p.querySelector(".next").disabled = page >= last;
    });
    document.body.setAttribute("data-drawn", String(to - from));
  }
  Object.keys(pick).forEach(function (k) {
    var L = T ? T.units.indexOf(k) : -1;
    pick[k].addEventListener("change", L < 0 ? filter : function () {
      for (var M = L + 1; M < levels; M++) fill(M);
      filter();
    });
    if (lists[k] && pick[k].tagName === "INPUT") pick[k].addEventListener("input", function () { suggest(k); });
  });
  function choose(k, v) {  // a filter set to the place v, as a summary entry asks (a period: the ones above it too)
    var L = T ? T.units.indexOf(k) : -1;
    if (L < 0) { pick[k].value = pick[k].tagName === "INPUT" ? lists[k][v] : String(v); return; }
    var at = [v];
    for (var M = L; M > 0; M--) at.unshift(T.up[M][at[0]]);
    for (M = 0; M < levels; M++) {
      if (M) fill(M);
      if (M <= L) pick[T.units[M]].value = String(at[M]);
    }
  }
  size.addEventListener("change", function () { page = 0; draw(); });
  pages.forEach(function (p) {
    p.querySelector(".prev").addEventListener("click", function () { page--; draw(); });
    p.querySelector(".next").addEventListener("click", function () { page++; draw(); });
  });
  document.querySelectorAll("a.pick").forEach(function (a) {
    a.addEventListener("click", function (ev) {
      ev.preventDefault();
      Object.keys(pick).forEach(function (k) { pick[k].value = ""; });
      for (var M = 1; M < levels; M++) fill(M);
      if (!pick[a.getAttribute("data-filter")]) return;
      choose(a.getAttribute("data-filter"), Number(a.getAttribute("data-value")));
      filter();
      document.getElementById("coups").scrollIntoView();
    });
  });
  filter();
  document.body.setAttribute("data-ready", "true");
})();
"""


def _e(text) -> str:
    """Text from anywhere, as HTML: its control and format characters (a bidirectional override) made
    visible, then escaped."""
    return escape(printable(text), quote=True)


def face(code: str) -> list:
    """A card as the page draws it: [code, rank shown, suit symbol, colour, label]; a ``?`` for what was not
    recorded (``7?``: a seven, suit not recorded; ``0?``: a ten or court card; ``??``: not read)."""
    rank, suit = code[:-1], code[-1]
    if suit not in SUIT and (suit != "?" or rank not in RANK_NAME and rank not in ("0", "?")):
        return [code, code, "", "black", code]  # not a rank and a suit (a joker): its code as its game gives it
    symbol, suit_name, colour = SUIT.get(suit, ("?", "suit not recorded", "black"))
    shown = RANK.get(rank, rank)
    if code == "??":
        label = "card not read"
    elif rank == "0":
        shown, label = "0", "a ten or court card, not recorded which"
    else:
        label = (f"{RANK_NAME.get(rank, rank)} of {suit_name}" if suit in SUIT
                 else f"{RANK_NAME[rank]}, suit not recorded")
    return [code, shown, symbol, colour, label]


# ------------------------------------------------------------------ the coups as data


def _amount(a) -> str | None:
    return None if a is None else money(a)


class _Index:
    """Strings written once in the data and referred to by their place."""

    def __init__(self):
        self.items: list = []
        self.at: dict = {}

    def __call__(self, item) -> int:
        if item not in self.at:
            self.at[item] = len(self.items)
            self.items.append(item)
        return self.at[item]


def _coup_data(cv: CoupView, transcript: int, rule_index: dict[str, int], faces: _Index, dealers: _Index,
               hours: _Index, patrons: dict[str, int], words: _Index) -> dict:
    """One coup as the page's script draws it. The words its events, wagers and citations repeat from coup to coup
    (an event's kind, who, what, amount and note; a wager's spot, stakes and outcome) are written once in
    the document's ``words`` and given here by their place (a night of 20,000 findings: 30 MB of data to 13)."""
    c = cv.cards

    def word(text):
        return None if text is None else words(text)

    findings = [(f, None) for f in cv.findings] + list(cv.waived)
    data = {
        "t": transcript, "n": cv.number, "l": cv.line,
        # who dealt it and when (a coup the record names nobody for: "(not recorded)", as the filters say)
        "d": dealers(cv.dealer or NOT_RECORDED) if dealers.items else None, "a": cv.at,
        "h": hours(cv.hour or NOT_RECORDED) if hours.items else None,
        "f": [[rule_index[f.rule], SEVERITIES.index(f.severity), f.event, f.message,
               f"{f.transcript}:{f.line}:{f.column}" if f.line is not None else f.transcript, word(f.citation),
               None if e is None else e.key,
               None if e is None else (f"{e.waiver.justification} (approved by {e.waiver.approved_by}, until "
                                       f"{e.waiver.expires.isoformat()})"),
               None if f.money is None else money_words(f.money), None if f.money is None else f.money.favours,
               patrons.get(finding_patron(f))]  # the patron it names, for the patron filter
              for f, e in findings],
        "c": None, "s": [], "w": [],
    }
    if c is None:
        data["why"] = "this coup could not be read" if cv.unreadable else "the cards of this coup were not kept"
        return data
    data["c"] = [word(c.where), [[word(h.label), [faces(code) for code in h.cards], h.initial, word(h.value),
                                  word(h.who)] for h in c.hands], c.outcome]
    data["s"] = [[s.at, word(s.kind), word(s.who), word(s.what), word(_amount(s.amount)), word(s.note)]
                 for s in c.steps]
    data["w"] = [[word(w.who), word(w.spot), word(money(w.staked)), list(w.changed_at), word(w.outcome),
                  word(_amount(w.paid)), w.settled_at, word(_amount(w.commission)), w.commission_at]
                 for w in c.wagers]
    return data


#: the names of the fields of each kind of row of the coup data, in the order a row gives them (the page's
#: script reads every field by its name; a row is a list, its names written once)
FIELDS = {
    "finding": ["rule", "severity", "event", "message", "where", "citation", "waiver", "why", "money", "favours",
                "patron"],
    "picture": ["where", "hands", "outcome"],
    "hand": ["label", "cards", "initial", "value", "who"],
    "step": ["at", "kind", "who", "what", "amount", "note"],
    "wager": ["who", "spot", "staked", "changed", "outcome", "paid", "settled", "commission", "commission_at"],
}


def data_document(report: Report) -> dict:
    """What the page's script draws: the rules, tables and transcripts once, then every coup with a finding."""
    rules = []
    rule_index: dict[str, int] = {}
    for rule_id, versions in report.rules():
        rule_index[rule_id] = len(rules)
        if versions:
            _, r = versions[0]
            rules.append([rule_id, r.title, r.category, r.citation_text])
        else:
            f = next(f for f in report.all_findings if f.rule == rule_id)
            rules.append([rule_id, "", f.category, f.citation])
    tables, faces, dealers, hours, words = _Index(), _Index(), _Index(), _Index(), _Index()
    time = report.time
    if report.groups is not None:  # the filters' order: the summary's
        for name in report.groups.dealer:
            dealers(name)
        for p in time.levels[-1]:  # every hour of a coup shown, in order
            hours(p.key)
    transcripts = [[t.result.transcript, tables(t.result.table), t.result.ruleset.id] for t in report.transcripts]
    patrons = {name: i for i, name in enumerate(report.patrons)}  # the filter's order: the patrons section's
    coups = [_coup_data(cv, i, rule_index, faces, dealers, hours, patrons, words)
             for i, view in enumerate(report.transcripts) for cv in report.coups_of(view, every_coup=False)]
    return {"fields": FIELDS, "severities": list(SEVERITIES), "categories": _categories(report), "rules": rules,
            "tables": tables.items, "dealers": dealers.items, "hours": hours.items, "patrons": list(patrons),
            # the time filters, coarsest first: each level's periods (the hours are "hours") and, below the first,
            # the place of each in the level above
            "time": None if time is None else {
                "units": time.units, "names": [[p.key for p in level] for level in time.levels[:-1]],
                "up": [None] + [[p.up for p in level] for level in time.levels[1:]]},
            "transcripts": transcripts, "faces": [face(code) for code in faces.items], "words": words.items,
            "coups": coups}


def _shown(value):
    """Every string of the data as the page shows it: control and format characters made visible
    (:func:`compliance.printable.printable`), as everywhere else in the page."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list):
        return [_shown(v) for v in value]
    if isinstance(value, dict):
        return {k: _shown(v) for k, v in value.items()}
    return value


def _script_json(doc: dict) -> str:
    """JSON safe inside <script>: no "</script", no "<!--" (every < written \\u003c); strings as shown."""
    text = json.dumps(_shown(doc), ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


# ------------------------------------------------------------------ the summary, drawn here


def _pick(kind: str, value: int, text: str) -> str:
    """A summary entry that, clicked, shows the coups of that rule, category or table."""
    return f'<a class="pick" href="#coups" data-filter="{kind}" data-value="{value}">{_e(text)}</a>'


def _severity_cells(counter) -> str:
    return "".join(f'<td class="num">{counter[s]:,}</td>' for s in SEVERITIES)


def _by_rule(report: Report, data: dict) -> str:
    index = {r[0]: i for i, r in enumerate(data["rules"])}
    stats = report.statistics()
    if not stats:
        return '<p class="clean">No finding.</p>'
    rows = "".join(
        f'<tr><td>{_pick("rule", index[c.rule], c.rule)}</td><td>{_e(c.title)}</td>'
        f'<td><code>{_e(c.category)}</code></td>'
        f'<td>{_e(c.severity)}</td><td class="num">{c.count:,}</td><td class="num">{c.coups:,}</td>'
        f'<td>{_e(data["rules"][index[c.rule]][3] or "—")}</td></tr>' for c in stats)
    return ('<table class="by-rule"><tr><th>rule</th><th>title</th><th>category</th><th>severity</th>'
            f'<th class="num">findings</th><th class="num">coups</th><th>regulation</th></tr>{rows}</table>')


def _categories(report: Report) -> list[str]:
    """The categories the page's filters name, in order: the shared ones and those of the games it checked."""
    own = {c.name for kind in {t.result.ruleset.game_kind for t in report.transcripts}
           for c in registry.get(kind).categories}
    present = {f.category for f in report.all_findings}
    return [c for c in CATEGORIES if c in SHARED or c in own or c in present]


def _by_category(report: Report, data: dict) -> str:
    present = [c for c in CATEGORIES if report.by_category[c]]
    if not present:
        return '<p class="clean">No finding.</p>'
    order = {c: i for i, c in enumerate(data["categories"])}
    rows = "".join(f'<tr><td>{_pick("category", order[c], c)}</td><td>{_e(CATEGORIES[c])}</td>'
                   f'<td class="num">{report.by_category[c]:,}</td></tr>' for c in present)
    return ('<table class="by-category"><tr><th>category</th><th>meaning</th><th class="num">findings</th></tr>'
            f"{rows}</table>")


def _by_table(report: Report, data: dict) -> str:
    index = {t: i for i, t in enumerate(data["tables"])}
    rows = "".join(f'<tr><td>{_pick("table", index[t.table], t.table)}</td><td class="num">{t.transcripts:,}</td>'
                   f'<td class="num">{t.coups:,}</td>{_severity_cells(t.by_severity)}<td class="num">{t.waived:,}</td>'
                   "</tr>" for t in report.tables())
    return ('<table class="per-table"><tr><th>table</th><th class="num">transcripts</th><th class="num">coups</th>'
            + "".join(f'<th class="num">{s}</th>' for s in SEVERITIES)
            + f'<th class="num">waived</th></tr>{rows}</table>')


def _transcripts(report: Report) -> str:
    out = []
    shoes = [getattr(view.result.integrity, "view", None) for view in report.transcripts]
    drawn = svg.shoes_drawn(shoes)
    for i, view in enumerate(report.transcripts):
        r = view.result
        counts = ", ".join(f"{view.by_severity[s]:,} {s}" for s in SEVERITIES if view.by_severity[s]) or "no findings"
        out.append(
            f'<h3 id="transcript-{i + 1}">{_e(r.transcript)}</h3>'
            f'<table class="facts"><tr><th>table</th><td>{_e(r.table)}</td><th>game</th><td>{_e(r.game)}</td></tr>'
            f'<tr><th>ruleset</th><td>{_e(r.ruleset.id)} {_e(r.ruleset.version)}</td><th>coups</th>'
            f'<td class="num">{r.coups:,}</td></tr>'
            f'<tr><th>ruleset SHA-256</th><td colspan="3" class="sha">{_e(r.ruleset.sha256)}</td></tr>'
            f'<tr><th>SHA-256</th><td colspan="3" class="sha">{_e(r.sha256)}</td></tr>'
            f'<tr><th>findings</th><td colspan="3">{_e(counts)}'
            + (f"; {len(view.waived):,} waived" if view.waived else "")
            + (f"; {view.baselined:,} in the baseline" if view.baselined else "") + "</td></tr></table>"
            + _not_judged(view) + _clean(view)
            + svg.shoes_html(shoes[i], drawn[i]))  # its shoes, as the integrity stage judged them
    return "".join(out)


def _clean(view: TranscriptView) -> str:
    """A transcript without a finding says so (the coups section lists only coups with one)."""
    if view.findings or view.waived:
        return ""
    if view.not_judged:
        return '<p class="clean">Every coup complies with the rules the recording lets us judge.</p>'
    return '<p class="clean">Every coup complies with the ruleset.</p>'


#: a filter of more choices than this is a box to type a name in (suggesting the names that match), not a list
SELECT_OPTIONS = 100


def _options(kind: str, label: str, choices: list[tuple[int, str]]) -> str:
    if len(choices) > SELECT_OPTIONS:
        return (f'<label>{label}<input type="search" id="filter-{kind}" list="names-{kind}" autocomplete="off" '
                f'placeholder="any of {len(choices):,}: type a name" spellcheck="false">'
                f'<datalist id="names-{kind}"></datalist></label>')
    opts = "".join(f'<option value="{i}">{_e(text)}</option>' for i, text in choices)
    return f'<label>{label}<select id="filter-{kind}"><option value="">all</option>{opts}</select></label>'


def _time_filters(data: dict) -> str:
    """A list of the periods of the time view's unit; below it, where that unit is coarser than the hour, a list
    a finer unit down to the hour, each filled (by the page's script) with the periods of the one above chosen."""
    time = data["time"]
    if time is None:
        return ""
    units = time["units"]
    names = time["names"] + [data["hours"]]
    out = _options(units[0], units[0], list(enumerate(names[0])))
    for above, unit in zip(units, units[1:]):
        out += (f'<label>{unit}<select id="filter-{unit}" disabled><option value="">choose a {above} first</option>'
                "</select></label>")
    return out


def _filters(report: Report, data: dict) -> str:
    present = {f.category for f in report.all_findings}
    broken = {f.rule for f in report.all_findings}
    rules = [(i, r[0]) for i, r in enumerate(data["rules"]) if r[0] in broken]
    categories = [(i, c) for i, c in enumerate(data["categories"]) if c in present]
    sizes = "".join(f'<option value="{n}"{" selected" if n == PAGE_SIZE else ""}>{n}</option>' for n in PAGE_SIZES)
    return ('<div class="filters">' + _options("rule", "rule", rules) + _options("category", "category", categories)
            + _options("severity", "severity", list(enumerate(SEVERITIES)))
            + _options("table", "table", list(enumerate(data["tables"])))
            + (_options("dealer", "dealer", list(enumerate(data["dealers"]))) if data["dealers"] else "")
            + _time_filters(data)
            + (_options("patron", "patron", list(enumerate(data["patrons"]))) if data["patrons"] else "")
            + f'<label>coups a page<select id="page-size">{sizes}<option value="all">all</option></select></label>'
            + "</div>")


_PAGER = ('<div class="pager"><button type="button" class="prev">‹ previous</button><span class="page"></span>'
          '<button type="button" class="next">next ›</button></div>')


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


def _left_out(n: int, what: str, where: str) -> str:
    """The line under a capped table: how many rows it leaves out and where to find them."""
    return (f'<p class="meta left-out">{n:,} more {what} not listed (their sum is the last row): the JSON report '
            f"({where}) lists every one, and the filter above the coups reaches each.</p>")


def _groups(report: Report, data: dict) -> str:
    """The findings by dealer (the highest rate per 100 coups dealt first, with the coups each dealt), table and
    time (the hour, or the coarser unit of the report's time view), where the transcripts record who dealt and
    when; a dealer, a table or a period leads to its coups. A list longer than the page draws ends in one line
    adding up the rest."""
    groups = report.groups
    if groups is None:
        return ""
    index = {name: {key: i for i, key in enumerate(data[name + "s"])} for name in ("dealer", "table")}
    heads = "".join(f'<th class="num">{s}</th>' for s in SEVERITIES)
    dealers = digest([(key, key) for key in groups.dealers_by_rate()], list)
    rows = []
    for key, _ in dealers.shown:
        c, rate = groups.dealer[key], groups.rate(key)
        coups = groups.dealer_coups.get(key)
        rows.append(f"<tr><td>{_pick('dealer', index['dealer'][key], key)}</td>"
                    f'<td class="num">{"" if coups is None else f"{coups:,}"}</td>'
                    f'<td class="num">{"" if rate is None else rate}</td>'
                    + "".join(f'<td class="num">{c[s]:,}</td>' for s in SEVERITIES)
                    + f'<td class="num">{groups.dealer_whole.get(key, 0):,}</td></tr>')
    note = ""
    if dealers.rest is not None:
        rest = groups.together(dealers.rest)
        rows.append(f'<tr class="rest"><td>{dealers.left_out:,} more dealers</td>'
                    f'<td class="num">{rest.coups:,}</td><td class="num">{"" if rest.rate is None else rest.rate}</td>'
                    + "".join(f'<td class="num">{rest.counts[s]:,}</td>' for s in SEVERITIES)
                    + f'<td class="num">{rest.whole:,}</td></tr>')
        note = _left_out(dealers.left_out, "dealers", "groups.dealer")
    parts = ['<table class="by-dealer"><tr><th>dealer</th><th class="num">coups dealt</th>'
             f'<th class="num">findings per 100 coups</th>{heads}<th class="num">of them on whole shoes</th></tr>'
             + "".join(rows) + "</table>" + note]
    tables = counts_digest(groups.table)
    body = "".join(f"<tr><td>{_pick('table', index['table'][key], key) if key in index['table'] else _e(key)}</td>"
                   + "".join(f'<td class="num">{c[s]:,}</td>' for s in SEVERITIES) + "</tr>"
                   for key, c in tables.shown)
    if tables.rest is not None:
        body += (f'<tr class="rest"><td>{tables.left_out:,} more tables</td>'
                 + "".join(f'<td class="num">{tables.rest[s]:,}</td>' for s in SEVERITIES) + "</tr>")
    parts.append(f'<table class="by-table"><tr><th>table</th>{heads}</tr>{body}</table>'
                 + (_left_out(tables.left_out, "tables", "groups.table") if tables.rest is not None else ""))
    parts.append(_time_table(report.time, heads))
    return (f'<h2>Findings by dealer, table and {report.time.unit}</h2><p class="meta">A finding on a whole shoe or '
            "run (integrity) counts against the dealer of the coup at which it became decisive; the last column "
            'shows them apart.</p><div class="groups">' + "".join(parts) + "</div>")


def _time_table(time: TimeFold, heads: str) -> str:
    """The findings by hour; over a longer span by the time view's unit, with the hours of each holding a finding
    and the busiest of them (a period, or that hour, leads to its coups)."""
    unit = time.unit
    if not time.folded:
        body = "".join(f"<tr><td>{_pick('hour', i, p.key)}</td>"
                       + "".join(f'<td class="num">{p.counts[s]:,}</td>' for s in SEVERITIES) + "</tr>"
                       for i, p in enumerate(time.levels[0]) if p.counts)
        return f'<table class="by-hour"><tr><th>hour</th>{heads}</tr>{body}</table>'
    hour_at = {p.key: i for i, p in enumerate(time.levels[-1])}
    body = "".join(f"<tr><td>{_pick(unit, i, p.key)}</td>"
                   + "".join(f'<td class="num">{p.counts[s]:,}</td>' for s in SEVERITIES)
                   + f'<td class="num">{p.hours:,}</td><td>'
                   + (f"{_pick('hour', hour_at[p.busiest], p.busiest)} ({p.most:,})" if p.busiest else "")
                   + "</td></tr>" for i, p in enumerate(time.levels[0]) if p.counts)
    return (f'<table class="by-hour by-{unit}"><tr><th>{unit}</th>{heads}<th class="num">hours with findings</th>'
            f"<th>busiest hour</th></tr>{body}</table>"
            f'<p class="meta folded">The findings fall in {time.hours:,} hours, shown by the {unit} '
            f"({TIME_PERIODS} rows at most); the filters above the coups choose a {unit}, then "
            + ", then ".join(f"{'an' if u == 'hour' else 'a'} {u}" for u in time.units[1:])
            + ", to reach any hour, and the JSON report counts each hour (groups.hour, money.hour).</p>")


#: where the JSON report keeps each money table's rows in full
MONEY_JSON = {"day": "hour", "month": "hour", "year": "hour"}


def _hold_mark(g) -> str:
    if g.outside:
        return _e(("finding: " if g.flagged else "") + g.direction)
    return "" if g.judged else "too few coups to judge"


#: the most groups the hold's picture draws (the table lists them all)
HOLD_DRAWN = 60


def _hold(view) -> str:
    """Hold against theory: each table and shift drawn against its band; every group in a table."""
    level = f"{view.confidence * 100:g}%"
    shifts = ", ".join(view.shifts) if view.shifts else "none (the day from midnight)"
    head = (f'<h2 id="hold">Hold against theory</h2><p class="meta">The house\'s win over the handle beside the '
            f"theoretical hold (each stake times the exact house edge of its spot), with the band honest play lands "
            f"in {level} of the time; red: outside it. Shifts {_e(shifts)}; time zone "
            f"{_e(view.time_zone or 'each time at its recorded offset')}; a finding where a group survives "
            f"Benjamini-Hochberg at {view.false_discovery_rate:g}.</p>")
    drawn = [g for g in view.groups if g.kind in ("table", "table-shift")]
    picture = svg.hold_bands(drawn[:HOLD_DRAWN], view.confidence)
    if len(drawn) > HOLD_DRAWN:
        picture += f'<p class="meta">{len(drawn) - HOLD_DRAWN:,} more tables and shifts in the table below.</p>'
    outside = ' class="outside"'
    rows = "".join(
        f'<tr{outside if g.outside else ""}><td>{_e(g.name)}</td><td class="num">{g.coups:,}</td>'
        f'<td class="num">{_e(money(g.handle))}</td><td class="num">{_e(money(g.win))}</td>'
        f'<td class="num">{_e(money(g.theoretical_win.quantize(Decimal("0.01"))))}</td>'
        f'<td class="num">{_e(hold_percent(g.hold))}</td><td class="num">{_e(hold_percent(g.theoretical_hold))}</td>'
        f'<td class="num">{_e(hold_percent(g.low))} to {_e(hold_percent(g.high))}</td><td class="num">{g.z:.2f}</td>'
        f'<td class="num">{g.p_value:.2g}</td><td>{_hold_mark(g)}'
        "</td></tr>" for g in view.groups)
    table = ('<details><summary>every group (' + f"{len(view.groups):,}" + ')</summary><table class="hold">'
             '<tr><th>group</th><th class="num">coups</th><th class="num">handle</th><th class="num">win</th>'
             '<th class="num">theoretical win</th><th class="num">hold</th><th class="num">theoretical hold</th>'
             f'<th class="num">{level} band</th><th class="num">z</th><th class="num">p</th><th>outside</th></tr>'
             + rows + "</table></details>") if view.groups else ""
    missing = "".join(f"<li>table {_e(t)}: {_e(why)}</li>" for t, why in view.not_judged)
    return (head + picture + table + (f'<p class="meta">Not judged:</p><ul class="notices">{missing}</ul>'
                                      if missing else ""))


def _money(summary: MoneySummary, time: TimeFold | None) -> str:
    """What the wrong settlements cost or gave: net, each way, and by table, dealer, hour and patron (amounts of
    different currencies apart)."""
    if summary.currencies is not None:
        return '<h2 id="money">Money</h2>' + "".join(f"<h3>{_e(code)}</h3>" + _money_of(one, time)
                                                    for code, one in summary.currencies.items())
    unit = f" ({_e(summary.currency)})" if summary.currency else ""
    return f'<h2 id="money">Money{unit}</h2>' + _money_of(summary, time)


def _money_of(summary: MoneySummary, time: TimeFold | None) -> str:
    t = summary.total
    net = (f'<p class="money-net">{_e(summary.net_words())}: {_e(money(t.to_patrons))} to patrons, '
           f'{_e(money(t.to_house))} to the house, over {t.findings:,} finding{"" if t.findings == 1 else "s"}.</p>')
    parts = [net]

    def row(key: str, g, cls: str = "") -> str:
        return (f'<tr{cls}><td>{_e(key)}</td><td class="num">{g.findings:,}</td>'
                f'<td class="num">{_e(money(g.to_patrons))}</td><td class="num">{_e(money(g.to_house))}</td>'
                f'<td class="num">{_e(money(g.net))}</td></tr>')

    for name, title in MONEY_GROUPS:
        group = getattr(summary, name)
        if name == "hour" and time is not None and time.folded:
            name = title = time.unit
            group = time.money(group)
        rows = money_digest(group, largest=name == "patron")  # the patrons: the largest net either way first
        body = "".join(row(key, g) for key, g in rows.shown)
        if rows.rest is not None:
            body += row(f"{rows.left_out:,} more", rows.rest, ' class="rest"')
        table = (f'<table class="money-by-{name}"><tr><th>{title}</th><th class="num">findings</th>'
                 f'<th class="num">to patrons</th><th class="num">to the house</th><th class="num">net</th></tr>'
                 f"{body}</table>")
        if rows.rest is not None:
            table += _left_out(rows.left_out, f"{title}s" if name != "patron" else "patrons",
                               f"money.{MONEY_JSON.get(name, name)}")
        if name == "patron":
            shown = (f"the {len(rows.shown):,} of the largest net, of {len(group):,}" if rows.rest is not None
                     else f"{len(group):,}")
            table = f"<details><summary>by {title} ({shown})</summary>{table}</details>"
        parts.append(table)
    return '<div class="money-summary">' + "".join(parts) + "</div>"


def _patrons(report: Report, data: dict) -> str:
    """Each patron a finding names (the :data:`ROWS_DRAWN` with the most findings, then the largest net, where
    there are more; the rest added up in one line): the findings by severity and by rule, the wagers they rest on,
    the net of the patron's wrong settlements and the edge the patron took (advantage play); a patron leads to its
    coups."""
    index = {name: i for i, name in enumerate(data["patrons"])}
    heads = "".join(f'<th class="num">{s}</th>' for s in SEVERITIES)

    def amount(value, currency) -> str:
        return "" if value is None else _e(money(value) + (f" {currency}" if currency else ""))

    def row(name: str, p, cls: str = "", rules: bool = True) -> str:
        return (f"<tr{cls}><td>{name}</td><td class=\"num\">{p.count:,}</td>"
                + "".join(f'<td class="num">{p.by_severity[s]:,}</td>' for s in SEVERITIES)
                + f'<td class="num">{p.settlements:,}</td>'
                f'<td class="num">{"" if p.wagers is None else f"{p.wagers:,}"}</td>'
                f'<td class="num">{amount(None if p.money is None else p.money.net, p.currency)}</td>'
                f'<td class="num">{amount(p.edge, p.currency)}</td>'
                f'<td>{_e(", ".join(f"{rule} {n:,}" for rule, n in p.by_rule)) if rules else ""}</td></tr>')

    drawn = patron_digest(report.patrons)
    rows = [row(_pick("patron", index[key], key), p) for key, p in drawn.shown]
    head = (f'<tr><th>patron</th><th class="num">findings</th>{heads}<th class="num">wrong settlements</th>'
            '<th class="num">wagers settled</th>'
            '<th class="num">net of wrong settlements</th><th class="num">edge taken</th><th>rules</th></tr>')
    note = ""
    if drawn.rest is not None:
        rows.append(row(f"{drawn.left_out:,} more patrons", drawn.rest, ' class="rest"'))
        note = _left_out(drawn.left_out, "patrons", "groups.patron, money.patron")
    table = f'<table class="by-patron">{head}{"".join(rows)}</table>{note}'
    return ('<h2 id="patrons">Patrons</h2><p class="meta">Every patron a finding names (a wrong settlement, '
            "collusion, advantage play), the most findings first (then the largest net either way). The net is what "
            "the patron's wrong settlements paid the patron beyond what was due, less what the house kept; the edge "
            "taken is the expected gain of the side wagers an advantage-play finding names, given the cards left in "
            f"the shoe. A patron leads to the coups of the patron's findings.</p>{table}")


def render(report: Report) -> str:
    failed = report.exit_code != 0
    data = data_document(report)
    rulesets = ", ".join(f"{rs.id} {rs.version} ({rs.title}, sha256 {rs.sha256}"
                         + (f"; {report.origin_words(rs)}" if report.origin_words(rs) else "") + ")"
                         for rs in report.rulesets) or "none"
    configured = "".join(f" · {_e(line)}" for line in report.configured())
    notes = "".join(f'<li class="notice">warning: {_e(w)}</li>' for w in report.warnings())
    notes += "".join(f'<li class="notice">{_e(n)}</li>' for n in report.notices())
    notes += "".join(f'<li class="notice">{_e(n)}</li>' for n in report.versions_applied())
    notes += "".join(f'<li class="notice">could not check {_e(e)}</li>' for e in report.errors)
    sections = [("summary", "Summary"), ("by-rule", "By rule"), ("by-category", "By category"),
                ("by-table", "By table")]
    if report.groups is not None:
        sections.append(("by-dealer", f"By dealer, table and {report.time.unit}"))
    if report.money is not None:
        sections.append(("money", "Money"))
    if report.patrons:
        sections.append(("patrons", "Patrons"))
    if report.hold is not None:
        sections.append(("hold", "Hold"))
    if report.findings:
        sections.append(("charts", "Charts"))
    sections.append(("transcripts", "Transcripts"))
    if notes:
        sections.append(("notes", "Notes"))
    sections.append(("coups", "Coups with findings"))
    toc = "".join(f'<li><a href="#{key}">{_e(title)}</a></li>' for key, title in sections)
    severity_counts = ", ".join(f"{report.by_severity[s]:,} {s}" for s in SEVERITIES)
    partial = report.partial_evidence()
    status = "fail" if failed else "partial" if partial else "pass"
    status_text = ("FAIL" if failed else
                   f"NOT FULLY JUDGED: {report.rules_not_judged:,} rule{'' if report.rules_not_judged == 1 else 's'} "
                   "not judged" if partial else "PASS")
    body = [
        '<header class="report"><h1>Baccarat compliance report</h1>',
        f'<p class="meta">baccarat-audit {_e(report.tool_version)} · generated {_e(report.generated_iso)} · '
        f"rulesets: {_e(rulesets)}{configured} · fails on {_e(report.fail_on)}</p></header>",
        f'<nav class="toc" aria-label="contents"><ol>{toc}</ol></nav>',
        f'<h2 id="summary">Summary</h2><p><span class="status {status}">{_e(status_text)}</span></p>'
        + (f'<p class="partial-evidence">{_e(partial[0].upper() + partial[1:])}: see each transcript\'s '
           "rules not judged.</p>" if partial else ""),
        f'<p class="summary-line">{_e(report.summary_line())}</p>',
        f'<p class="severities">Reported findings by severity: {_e(severity_counts)}.</p>',
        f'<h2 id="by-rule">By rule</h2>{_by_rule(report, data)}',
        f'<h2 id="by-category">By category</h2>{_by_category(report, data)}',
        f'<h2 id="by-table">By table</h2>{_by_table(report, data)}',
    ]
    groups = _groups(report, data)
    if groups:
        body.append(f'<section id="by-dealer">{groups}</section>')
    if report.money is not None:
        body.append(_money(report.money, report.time))
    if report.patrons:
        body.append(_patrons(report, data))
    if report.hold is not None:
        body.append(_hold(report.hold))
    charts = svg.charts_html(report.breakdown()) if report.findings else ""
    if charts:
        body.append(f'<section id="charts">{charts}</section>')
    body.append(f'<h2 id="transcripts">Transcripts</h2>{_transcripts(report)}')
    if notes:
        body.append(f'<h2 id="notes">Notes</h2><ul class="notices">{notes}</ul>')
    body += [
        '<h2 id="coups">Coups with findings</h2>',
        "<noscript><p>The coups are drawn by this page's own script, which this browser does not run; the summary "
        "above is complete without it.</p></noscript>",
        _filters(report, data), f'<p id="coup-count" class="meta"></p>{_PAGER}<div id="coup-list"></div>{_PAGER}',
        f"<footer>Findings cite the regulation paragraph each rule rests on. Report generated by "
        f"baccarat-audit {_e(report.tool_version)} at {_e(report.generated_iso)}.</footer>",
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>baccarat-audit report: {_e(report.summary_line())}</title>"
            f"<style>{STYLE}{svg.STYLE}</style></head><body><main>\n" + "\n".join(body) + "\n</main>\n"
            f'<script type="application/json" id="report-data">{_script_json(data)}</script>\n'
            f"<script>{SCRIPT}</script>\n</body></html>\n")
