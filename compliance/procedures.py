"""A procedure document's own submission, and the house tables it writes.

A Markdown document may hold its house's submission as a ``baccarat-ruleset`` block
(:func:`submission_block`), which :func:`load_submission` loads as a house ruleset (refusing
what ``ruleset lint`` refuses); its worked examples are judged by it.  :func:`house_tables`
finds the tables the document marks as the house's (``<!-- baccarat-audit: house
payout-table game=... -->``), and :func:`table_findings` has the game compare each row with
the submission in force that day (``Game.house_tables``); a row that disagrees, or a
marking no table follows, is a finding at its line.

The format and what is judged: docs/rule-authoring.md, "Procedure documents carry their submission".
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from compliance.errors import UserError
from compliance.findings import Finding
from compliance.ruleset.models import Ruleset
from compliance.yamlread import YamlDoc, parse_yaml

TAG = "baccarat-ruleset"
MARK = re.compile(r"^\s*<!--\s*baccarat-audit:\s*house\s+(?P<kind>[^\s>]+)(?P<args>[^>]*)-->\s*$")
RULE = "DOC-HOUSE-TABLE"
_FENCES = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*)$")  # CommonMark, a line
CATEGORY = "procedure.house-table"


@dataclasses.dataclass(frozen=True)
class Row:
    line: int  # 1-based line in the document
    cells: dict[str, str]  # column heading (lower case) -> the cell's text


@dataclasses.dataclass(frozen=True)
class HouseTable:
    line: int  # the marker's line
    kind: str  # what the marker says the table is: payout-table, drawing-table
    game: str | None  # game=... of the marker (None: the table's game is the ruleset's first)
    heads: tuple[str, ...]  # its column headings (lower case)
    rows: tuple[Row, ...]


def _lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def submission_block(text: str) -> tuple[int, str] | None:
    """(the line of its first content line, its text) of the document's ``baccarat-ruleset`` block, if any."""
    lines = _lines(text)
    opening = None
    for i, line in enumerate(lines):
        m = _FENCES.match(line)
        if m is None:
            continue
        if opening is None:
            opening = (i, m)
        elif m["fence"][0] == opening[1]["fence"][0] and len(m["fence"]) >= len(opening[1]["fence"]) \
                and not m["info"].strip():
            start, fence = opening
            if fence["info"].split()[:1] == [TAG]:
                return start + 2, "\n".join(lines[start + 1:i]) + "\n"
            opening = None
    return None


def house_tables(text: str) -> list[HouseTable]:
    """Every Markdown table the document marks as one of the house's tables (the marker on the line before)."""
    lines = _lines(text)
    out = []
    for i, line in enumerate(lines):
        m = MARK.match(line)
        if m is None:
            continue
        args = dict(a.split("=", 1) for a in m["args"].split() if "=" in a)
        rows = []
        heads: list[str] | None = None
        for j in range(i + 1, len(lines)):
            row = lines[j].strip()
            if not row.startswith("|"):
                break
            cells = [c.strip() for c in row.strip("|").split("|")]
            if heads is None:
                heads = [c.lower() for c in cells]
            elif not all(set(c) <= set("-: ") for c in cells):
                rows.append(Row(j + 1, dict(zip(heads, cells))))
        out.append(HouseTable(i + 1, m["kind"], args.get("game"), tuple(heads or ()), tuple(rows)))
    return out


def states_rules(text: str) -> str:
    """What of a house's rules the document states, in words ("a submission", "house tables", both); "" for
    none."""
    parts = (["a submission"] if submission_block(text) is not None else []) \
        + (["house tables"] if any(MARK.match(line) for line in _lines(text)) else [])
    return " and ".join(parts)


def load_submission(document: Path, display: str) -> tuple[Ruleset, int, str | None] | None:
    """The ruleset of the document's submission block, the block's line and its ``effective`` day (None: it has
    none); every error a :class:`UserError` at its line in the document."""
    from compliance.ruleset.loader import load_ruleset

    text = document.read_text(encoding="utf-8")
    found = submission_block(text)
    if found is None:
        return None
    line, body = found
    doc = parse_yaml(body.encode("utf-8"), display)
    shifted = YamlDoc(display, doc.data, {k: (ln + line - 1, col) for k, (ln, col) in doc.positions.items()},
                      doc.sha256)
    place = document.with_name(document.name + ".submission.yaml")  # where `extends` is resolved from
    try:
        day = doc.data.get("effective") if isinstance(doc.data, dict) else None
        return load_ruleset(str(place), parsed={place.resolve(): shifted}), line, day if isinstance(day, str) else None
    except UserError as e:
        where = str(e.where).replace(str(place), display, 1) if e.where and str(e.where).startswith(str(place)) \
            else e.where or f"{display}:{line}"  # the block's place in the document, or a parent's own file
        raise UserError(f"the document's submission: {e.message}", where) from None


def table_findings(ruleset: Ruleset, day: str | None, document: str, display: str) -> list[Finding]:
    """A finding for each row of a house table that disagrees with ``ruleset`` as in force on ``day``."""
    from compliance import registry

    version = ruleset.version_on(day)
    judge = getattr(registry.get(version.game_kind), "house_tables", None)  # what its game compares, if anything
    kinds = judge.KINDS if judge is not None else ()
    when = f"on {day}" if day else "now"
    out = []
    for table in house_tables(document):
        variants = getattr(version.game, "variants", None) or {}
        game = table.game or next(iter(variants), None)
        cite = (judge.citation(table.kind, version, game) + "; " if table.kind in kinds else "") \
            + f"the submission of {ruleset.id}"
        if table.kind not in kinds:
            out.append(_finding(display, table.line, f"the document marks a house {table.kind!r}, which is no table "
                                f"a {version.game_kind} submission is compared with (those are: "
                                f"{', '.join(kinds) or 'none'})", cite))
        elif game not in variants:
            out.append(_finding(display, table.line, f"the house {table.kind} is of game {game!r}, which the "
                                f"submission does not play (it plays: {', '.join(variants)})", cite))
        elif not table.rows:
            out.append(_finding(display, table.line, f"the document marks a house {table.kind}, but no Markdown "
                                "table with rows follows the marking", cite))
        else:
            out.extend(_finding(display, line, message, cite)
                       for line, message in judge.compare(table.kind, table, version, game, when))
    return out


def _finding(display: str, line: int, message: str, cite: str) -> Finding:
    return Finding(rule=RULE, category=CATEGORY, severity="error", transcript=display, coup=None, event=None,
                   message=message, citation=cite, line=line, column=1, table="(procedure document)")


_LOADED: dict[tuple[str, str], tuple] = {}  # (document, its content hash) -> (submission, its line), or None


def attach(source, document: Path, display: str, index: int) -> None:
    """Give a worked example of ``document`` the document's submission (``source.submission``, its ``day``), and
    its first block the findings of the document's house tables (``source.house_findings``)."""
    import hashlib

    text = document.read_text(encoding="utf-8")
    key = (str(document.resolve()), hashlib.sha256(text.encode("utf-8")).hexdigest())
    if key not in _LOADED:
        _LOADED[key] = load_submission(document, display)
    found = _LOADED[key]
    if found is None:
        return
    ruleset, _, day = found
    source.submission, source.day = ruleset, day
    if index == 0:
        source.house_findings = table_findings(ruleset, day, text, display)
