"""Commands for rule authors and auditors: what the rules are, where they come from, whether they are tested.

``rules list|show|kinds``, ``rulesets list``, ``ruleset lint``, ``test-rules``, ``coverage``.
Everything here reads rulesets, the coverage map and rule tests; it formats,
it does not check transcripts itself.
"""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from compliance.categories import CATEGORIES
from compliance.cli.app import BUNDLED, app, decimal_text
from compliance.errors import UserError

if TYPE_CHECKING:  # the rulesets and check kinds are imported when a command runs, not at start-up
    from compliance.ruleset.models import BoundRule, Ruleset

rules_app = typer.Typer(help="The rules: list them, show one, list the check kinds.", no_args_is_help=True)
rulesets_app = typer.Typer(help="The bundled rulesets (jurisdictions).", no_args_is_help=True)
ruleset_app = typer.Typer(help="Work on a ruleset file: lint it.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")
app.add_typer(rulesets_app, name="rulesets")
app.add_typer(ruleset_app, name="ruleset")


class ListFormat(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"


class Format(str, Enum):
    text = "text"
    json = "json"


def _out(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()


def _json(value) -> str:
    return json.dumps(value, indent=2, sort_keys=True, default=_plain) + "\n"


def _plain(v):
    if isinstance(v, Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    if isinstance(v, (set, frozenset)):
        return sorted(v)
    raise TypeError(type(v).__name__)


def _rulesets(ref: str | None, include_abstract: bool = False, as_of: str | None = None) -> list[Ruleset]:
    """The named ruleset, or every bundled concrete one (and the abstract ones if asked); ``as_of``: each as it
    stood that day (the version of its history in force)."""
    from compliance.ruleset.loader import bundled_rulesets, load_ruleset

    found = [load_ruleset(ref, allow_abstract=True)] if ref else bundled_rulesets(include_abstract)
    return [rs.version_on(as_of) for rs in found] if as_of else found


AS_OF_HELP = "The rules as they stood on DATE (YYYY-MM-DD): the version of each ruleset's history in force then."


def _as_of(value: str | None) -> str | None:
    from compliance.context import a_day

    return a_day(value, "--as-of") if value else None


def _version_words(rs: Ruleset) -> str:
    return f"in force {rs.period.words()}" if rs.period is not None else ""


def _options_words(rs: Ruleset) -> list[str]:
    return [f"option {o.key}: {o.title} ({o.citation}" + (f", from {o.since}" if o.since else "")
            + (f" to {o.until}" if o.until else "") + ")" for o in rs.options]


def _value(v) -> str:
    """A parameter value in YAML-like words: 0.05, [no_more_bets, cards], {a: 1}."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, Decimal):
        return decimal_text(v)
    if isinstance(v, (list, tuple, set, frozenset)):
        items = sorted(v) if isinstance(v, (set, frozenset)) else v
        return "[" + ", ".join(_value(x) for x in items) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_value(x)}" for k, x in v.items()) + "}"
    return str(v)


def rule_params(rule: BoundRule) -> list[dict]:
    """Each parameter with its value and provenance: the regulation, the house (with its note), or, for the
    tests of whole shoes and runs, the audit (a statistical level no regulation sets)."""
    from compliance.checks import REGISTRY

    values = rule.params.model_dump() if hasattr(rule.params, "model_dump") else {}
    house = {h.path: h for h in rule.house}
    kind = REGISTRY.get(rule.check)
    own = "audit" if kind is not None and kind.scope == "run" else "regulation"
    out = []
    for key, value in values.items():
        h = house.get(f"params.{key}")
        nested = [x for p, x in house.items() if p.startswith(f"params.{key}.") or p.startswith(f"params.{key}[")]
        out.append({
            "name": key, "value": value,
            "provenance": "house" if h else (f"{own}, in part house" if nested else own),
            "note": h.note if h else ("; ".join(f"{x.path[7:]}: {x.note}" for x in nested if x.note) or None),
            "set_by": h.set_by if h else None,
        })
    return out


def provenance(rs: Ruleset, rule: BoundRule) -> dict | None:
    """Where the rule's citation comes from: its source, and the bundled text it is in (None: not bundled)."""
    if rule.citation is None:
        return None
    src = rs.sources.get(rule.citation.source)
    return {"source": rule.citation.source, "title": src.title if src else rule.citation.source,
            "bundled_text": src.text if src else None}


def _provenance_words(rs: Ruleset, rule: BoundRule) -> str:
    p = provenance(rs, rule)
    if p is None:
        return ""
    return f"{p['title']}, " + (f"bundled as {p['bundled_text']}" if p["bundled_text"] else "not bundled")


def citation_words(rule: BoundRule) -> str:
    """The rule's citation, and what it cites instead at the tables of a game of its own chapter:
    '58 Pa. Code § 627a.10 (punto_banco: 58 Pa. Code § 631a.11; midi_baccarat, commission_free: ...)'."""
    by_text: dict[str, list[str]] = {}
    for game, text in rule.citation_text_by_game.items():
        if text != rule.citation_text:
            by_text.setdefault(text, []).append(game)
    if not by_text:
        return rule.citation_text
    games = "; ".join(f"{', '.join(names)}: {text}" for text, names in by_text.items())
    return f"{rule.citation_text or '(no citation)'} ({games})"


def rule_dict(rs: Ruleset, rule: BoundRule) -> dict:
    from compliance.checks import REGISTRY

    return {
        "ruleset": rs.id, "id": rule.id, "title": rule.title, "check": rule.check, "category": rule.category,
        "severity": rule.severity, "enabled": True,
        "citation": rule.citation.model_dump() if rule.citation else None, "citation_text": rule.citation_text,
        "citation_by_game": dict(rule.citation_text_by_game),
        "citation_source": provenance(rs, rule),
        "summary": rule.summary, "parameters": rule_params(rule),
        "dealing_methods": sorted(rule.dealing_methods) if rule.dealing_methods else None,
        "defined_in": rule.defined_in, "location": rule.location,
        "needs": list(REGISTRY[rule.check].needs),
        "partly": _partly(REGISTRY[rule.check]),
    }


def _partly(kind) -> list[dict]:
    """What a check kind still judges with less evidence than it needs: [{"with": [...], "judges": "..."}]."""
    return [{"with": list(have), "judges": words} for have, words in kind.partly]


def _param_words(rule: BoundRule) -> str:
    parts = []
    for p in rule_params(rule):
        mark = " (house)" if p["provenance"] == "house" else ""
        parts.append(f"{p['name']}: {_value(p['value'])}{mark}")
    return "; ".join(parts)


# ------------------------------------------------------------------ rules list


def render_rules_text(rulesets: list[Ruleset]) -> str:
    out = []
    for rs in rulesets:
        out.append(f"{rs.id} — {rs.title} (version {rs.version}, {len(rs.rules)} rules)")
        if rs.period is not None:
            out.append(f"  {_version_words(rs)}")
        out += [f"  {line}" for line in _options_words(rs)]
        if not rs.rules:
            out.append("  (no rules)")
        w = max((len(r.id) for r in rs.rules), default=0)
        cw = max((len(r.category) for r in rs.rules), default=0)
        for r in rs.rules:
            methods = f" [methods {', '.join(sorted(r.dealing_methods))}]" if r.dealing_methods else ""
            out.append(f"  {r.id:<{w}}  {r.category:<{cw}}  {r.severity:<7}  {r.title}{methods}")
            if r.citation_text or r.citation_text_by_game:
                out.append(f"  {'':<{w}}  {citation_words(r)}")
        for d in rs.disabled:
            out.append(f"  {d:<{w}}  (disabled)")
        out.append("")
    return "\n".join(out)


def _md(s) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def render_rules_markdown(rulesets: list[Ruleset]) -> str:
    out = ["# Rules", "",
           "<!-- generated by `baccarat-audit rules list --format markdown` (make docs); do not edit -->", "",
           "Every rule of every bundled jurisdiction: its id, finding category, severity, the regulation "
           "paragraph it rests on and its parameters. A parameter marked *(house)* is one the regulation "
           "leaves to the house; the others are the regulation's. `baccarat-audit rules show ID` explains a "
           "rule with a compliant and a breaching example coup.", ""]
    out += ["| ruleset | title | version | extends | rules | disabled |", "|---|---|---|---|---:|---:|"]
    for rs in rulesets:
        parent = rs.lineage[1] if len(rs.lineage) > 1 else "—"
        out.append(f"| `{rs.id}` | {_md(rs.title)} | {rs.version} | {parent} | {len(rs.rules)} | {len(rs.disabled)} |")
    out.append("")
    for rs in rulesets:
        out += [f"## {rs.id} — {_md(rs.title)}", ""]
        if rs.description:
            out += [" ".join(rs.description.split()), ""]
        texts = [f"{s.title}" + (f" (`{s.text}`)" if s.text else " (not bundled)") for _, s in sorted(rs.sources.items())]
        if texts:
            out += ["Sources: " + "; ".join(_md(t) for t in texts) + ".", ""]
        if rs.dealing_methods:
            out += ["Dealing methods: " + "; ".join(f"**{k}** {_md(v)}" for k, v in rs.dealing_methods.items()) + ".", ""]
        if rs.history:
            out += ["History: " + "; ".join(_md(a.words()) for a in rs.history)
                    + " (`baccarat-audit ruleset history " + rs.id + "`).", ""]
        if rs.options:
            out += ["Options the house may select: " + "; ".join(_md(w) for w in _options_words(rs)) + ".", ""]
        if rs.game_house:
            out += ["House parameters of the game: " + "; ".join(
                f"`{h.path}` = {_value(h.default)}" + (f" ({_md(h.note)})" if h.note else "")
                + (f", set by `{h.set_by}`" if h.set_by else "") for h in rs.game_house) + ".", ""]
        out += ["| id | title | category | severity | citation | parameters |", "|---|---|---|---|---|---|"]
        for r in rs.rules:
            methods = f" (methods {', '.join(sorted(r.dealing_methods))})" if r.dealing_methods else ""
            out.append(f"| `{r.id}` | {_md(r.title)}{methods} | `{r.category}` | {r.severity} | "
                       f"{_md(citation_words(r)) or '—'} | {_md(_param_words(r)) or '—'} |")
        out.append("")
        if rs.disabled:
            out += ["Disabled here: " + ", ".join(f"`{d}`" for d in rs.disabled) + ".", ""]
    return "\n".join(out)


@rules_app.command("list")
def rules_list(
    ruleset: str = typer.Option(None, "--ruleset", "-r", metavar="ID|FILE", show_default=False,
                                help=f"A ruleset id ({BUNDLED}) or YAML path [default: every jurisdiction]."),
    fmt: ListFormat = typer.Option(ListFormat.text, "--format", "-f", metavar="FORMAT", case_sensitive=False,
                                   help="text, json or markdown."),
    as_of: str = typer.Option(None, "--as-of", metavar="DATE", show_default=False, help=AS_OF_HELP),
):
    """List the rules of each jurisdiction: id, category, severity, citation."""
    rulesets = _rulesets(ruleset, as_of=_as_of(as_of))
    if fmt == ListFormat.json:
        _out(_json([rule_dict(rs, r) for rs in rulesets for r in rs.rules]))
    elif fmt == ListFormat.markdown:
        _out(render_rules_markdown(rulesets))
    else:
        _out(render_rules_text(rulesets))


# ------------------------------------------------------------------ rules show


def _needs_words(needs: tuple[str, ...]) -> str:
    """The evidence a check kind needs, for `rules show` and `rules kinds`: "cards, calls (the dealer's calls)"."""
    from compliance import evidence

    if not needs:
        return "none beyond the coup itself (judged in every recording)"
    return "; ".join(f"{n} ({evidence.EVIDENCE[n]})" for n in needs) + \
        " — not judged where the recording lacks any of it, but for what it judges with less (below)"


def _event_line(i: int, e: dict) -> str:
    fields = " ".join(f"{k}={_value(v)}" for k, v in e.items() if k not in ("type", "at"))
    return f"    {i:>3}  {e.get('type', '?'):<12} {fields}"


def render_example(label: str, ex) -> list[str]:
    if ex is None:
        return [f"{label}: none (no rule test under the examples directory shows one)"]
    try:
        shown = ex.transcript.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        shown = ex.transcript
    out = [f"{label}: coup {ex.coup} of {shown}"]
    seated = ex.raw.get("seated")
    if seated:
        out.append("    seated: " + ", ".join(f"{k}: {v}" for k, v in seated.items()))
    for key in ("dealing_method", "no_bet"):
        if key in ex.raw:
            out.append(f"    {key}: {_value(ex.raw[key])}")
    out += [_event_line(i, e) for i, e in enumerate(ex.raw.get("events", []))]
    if ex.finding is not None:
        at = "" if ex.finding.event is None else f" at event {ex.finding.event}"
        out.append(f"    reported{at}: {ex.finding.message}")
    return out


def _with_examples(root: Path, rulesets: list[str], rule_id: str) -> list[str]:
    """Those of ``rulesets`` whose folder of rule tests under ``root`` has a test in which ``rule_id`` fires: where
    ``rules show -r`` finds its examples (read from the sidecars, without running the tests)."""
    from compliance.ruletests import discover, read_sidecar

    if not root.is_dir():
        return []
    named = set()
    for transcript, sidecar in discover(root)[0]:
        try:
            fires = sidecar is not None and any(e.rule == rule_id for e in read_sidecar(sidecar).fires)
        except UserError:
            continue
        if fires and Path(transcript).resolve().is_relative_to(root.resolve()):
            named.add(Path(transcript).resolve().relative_to(root.resolve()).parts[0])
    return [rs for rs in rulesets if rs in named]


def _one_rule(asked: str, shown: list, every: list) -> str:
    """The id of the one rule ``asked`` names, read as ``--select`` reads it: in any case, a renamed rule's old id
    (with a note), a prefix, a category or a glob that names a single rule (with a note); several: an error
    listing them; none: an error with the nearest ids."""
    import difflib

    from compliance import redirects
    from compliance.selection import names

    ids = {r.id: r.category for rs in shown for r in rs.rules}
    wanted = asked.strip().upper()
    exact = [i for i in ids if i.upper() == wanted]
    if exact:
        return exact[0]
    renamed = {old.upper(): r for old, r in redirects.table(every).items()}.get(wanted)
    if renamed is not None and renamed.new in ids:  # an old id: the rule it names now
        typer.echo(f"baccarat-audit: note: {renamed.note(f'rules show {asked}')}", err=True)
        return renamed.new
    named = sorted(i for i, category in ids.items() if names(asked, i, category))
    if len(named) == 1:
        typer.echo(f"baccarat-audit: note: rules show {asked}: {named[0]}, the one rule it names", err=True)
        return named[0]
    if named:
        more = f" and {len(named) - 8} more" if len(named) > 8 else ""
        raise UserError(f"{asked!r} names {len(named)} rules: {', '.join(named[:8])}{more}; name one "
                        "(`baccarat-audit rules list` lists them all)")
    known = {i.upper(): i for rs in every for r in rs.rules for i in [r.id]}
    close = [known[c] for c in difflib.get_close_matches(wanted, sorted(known), n=3)]
    raise UserError(f"no rule {asked!r}" + (f"; did you mean {', '.join(close)}?" if close else
                                            " (see `baccarat-audit rules list`)"))


@rules_app.command("show")
def rules_show(
    rule_id: str = typer.Argument(..., metavar="RULE", show_default=False,
                                  help="The rule id, e.g. BAC-SETTLE-AMOUNT."),
    ruleset: str = typer.Option(None, "--ruleset", "-r", metavar="ID|FILE", show_default=False,
                                help=f"Only this ruleset: an id ({BUNDLED}) or YAML path."),
    examples: Path = typer.Option(None, "--examples", metavar="DIR", show_default=False,
                                  help="Rule tests to take example coups from [default: the rule tests bundled "
                                       "with the package, fixtures/rules]."),
    fmt: Format = typer.Option(Format.text, "--format", "-f", metavar="FORMAT", case_sensitive=False,
                               help="text or json."),
    as_of: str = typer.Option(None, "--as-of", metavar="DATE", show_default=False, help=AS_OF_HELP),
):
    """Explain one rule: what it requires, its citation and parameters in each jurisdiction, and example coups."""
    from compliance.checks import REGISTRY
    from compliance.ruletests import bundled_dir
    from compliance.ruletests import examples as find_examples

    every = _rulesets(ruleset, include_abstract=True, as_of=_as_of(as_of))
    shown = every if ruleset else [rs for rs in every if not rs.abstract]  # abstract bases only for suggestions
    rule_id = _one_rule(rule_id, shown, every)
    found = [(rs, r) for rs in shown for r in rs.rules if r.id == rule_id]
    root = examples or bundled_dir()
    compliant = breaching = None
    example_rs = None
    # without -r, examples only from the ruleset that defines the rule: a shared rule's coups differ by jurisdiction
    for rs, _ in found if ruleset else [(rs, r) for rs, r in found if rs.id == r.defined_in]:
        c, b = find_examples(root, rs, rule_id)
        if c or b:
            compliant, breaching, example_rs = c, b, rs.id
            if c and b:
                break
    elsewhere = [] if example_rs else _with_examples(root, [rs.id for rs, _ in found], rule_id)
    if fmt == Format.json:
        def ex(e):
            return None if e is None else {"ruleset": example_rs, "transcript": str(e.transcript), "coup": e.coup,
                                           "events": e.raw.get("events", [])}
        _out(_json({"rule": rule_id, "in": [rule_dict(rs, r) for rs, r in found],
                    "kind_doc": REGISTRY[found[0][1].check].doc,
                    "category_meaning": CATEGORIES[found[0][1].category],
                    "compliant_example": ex(compliant), "breaching_example": ex(breaching),
                    "examples_in": elsewhere}))
        return
    first = found[0][1]
    kind = REGISTRY[first.check]
    out = [f"{first.id} — {first.title}", "",
           f"  category     {first.category}: {CATEGORIES[first.category]}",
           f"  check kind   {first.check}",
           f"  evidence     {_needs_words(kind.needs)}",
           *[f"  with less    {', '.join(have)}: judges {words}" for have, words in kind.partly],
           f"  defined in   {first.defined_in} ({first.location})"]
    if first.summary:
        out += ["", "  " + " ".join(first.summary.split())]
    if kind.doc and " ".join(kind.doc.split()) != " ".join((first.summary or "").split()):
        out += ["", "  The check: " + " ".join(kind.doc.split())]
    out.append("")
    for rs, r in found:
        out.append(f"  {rs.id}: severity {r.severity}; cites {citation_words(r) or '(no citation)'}")
        if rs.period is not None:
            out.append(f"      {_version_words(rs)}")
        if r.citation is not None:
            out.append(f"      source: {_provenance_words(rs, r)}")
        if r.summary != first.summary and r.summary:
            out.append("      " + " ".join(r.summary.split()))
        if r.dealing_methods:
            out.append(f"      only under dealing method(s) {', '.join(sorted(r.dealing_methods))}")
        for p in rule_params(r):
            prov = p["provenance"] + (f" — {p['note']}" if p["note"] else "") + (
                f" (set by {p['set_by']})" if p["set_by"] else "")
            out.append(f"      {p['name']} = {_value(p['value'])}   [{prov}]")
    disabled_in = [rs.id for rs in shown if rule_id in rs.disabled]
    if disabled_in:
        out.append(f"  disabled in: {', '.join(disabled_in)}")
    out.append("")
    if elsewhere:
        out.append(f"Examples: each jurisdiction deals this rule's coups its own way; `baccarat-audit rules show "
                   f"{rule_id} -r ID` shows them, for ID one of: {', '.join(elsewhere)}")
    else:
        suffix = f" ({example_rs})" if example_rs else ""
        out += render_example("Compliant example" + suffix, compliant)
        out.append("")
        out += render_example("Breaching example" + suffix, breaching)
    _out("\n".join(out))


# ------------------------------------------------------------------ rules kinds


def _type_words(schema: dict) -> str:
    if "enum" in schema:
        return " | ".join(str(x) for x in schema["enum"])
    if "anyOf" in schema:
        return " or ".join(_type_words(s) for s in schema["anyOf"])
    t = schema.get("type", "")
    if t == "array":
        return f"list of {_type_words(schema.get('items', {}))}"
    return t or "value"


def kinds_dict() -> list[dict]:
    from compliance import registry
    from compliance.checks import REGISTRY, documented

    registry.load_checks()
    out = []
    for name in sorted(REGISTRY):
        k = REGISTRY[name]
        schema = documented(k.params).model_json_schema()
        params = []
        for pname, ps in schema.get("properties", {}).items():
            field = k.params.model_fields.get(pname)
            default = field.get_default() if field and not field.is_required() else None
            params.append({"name": pname, "type": _type_words(ps), "required": pname in schema.get("required", []),
                           "default": default, "description": ps.get("description")})
        out.append({"kind": name, "category": k.category, "doc": " ".join(k.doc.split()), "params": params,
                    "needs": list(k.needs), "partly": _partly(k)})
    return out


@rules_app.command("kinds")
def rules_kinds(fmt: Format = typer.Option(Format.text, "--format", "-f", metavar="FORMAT", case_sensitive=False,
                                           help="text or json.")):
    """List the check kinds a rule may name, with their category and parameters."""
    kinds = kinds_dict()
    if fmt == Format.json:
        _out(_json(kinds))
        return
    out = []
    for k in kinds:
        out.append(f"{k['kind']}  [{k['category']}]")
        if k["doc"]:
            out.append(f"    {k['doc']}")
        out.append(f"    needs: {', '.join(k['needs']) or 'nothing recorded beyond the coup'}")
        for part in k["partly"]:
            out.append(f"    with less, {', '.join(part['with'])}: judges {part['judges']}")
        for p in k["params"]:
            default = "" if p["required"] else f" (default {_value(p['default'])})"
            desc = f": {p['description']}" if p["description"] else ""
            out.append(f"    param {p['name']}: {p['type']}{default}{desc}")
        out.append("")
    _out("\n".join(out))


# ------------------------------------------------------------------ rulesets list


@rulesets_app.command("list")
def rulesets_list(fmt: Format = typer.Option(Format.text, "--format", "-f", metavar="FORMAT", case_sensitive=False,
                                             help="text or json.")):
    """List the bundled rulesets: jurisdiction, version, what they extend, their regulation sources."""
    rulesets = _rulesets(None, include_abstract=True)
    if fmt == Format.json:
        _out(_json([{
            "id": rs.id, "title": rs.title, "version": rs.version, "abstract": rs.abstract, "game_kind": rs.game_kind,
            "extends": rs.lineage[1] if len(rs.lineage) > 1 else None, "rules": len(rs.rules),
            "disabled": rs.disabled, "dealing_methods": rs.dealing_methods,
            "sources": {k: s.model_dump(exclude_none=True) for k, s in sorted(rs.sources.items())},
        } for rs in rulesets]))
        return
    out = []
    for rs in rulesets:
        parent = f", extends {rs.lineage[1]}" if len(rs.lineage) > 1 else ""
        kind = ("abstract base" if rs.abstract else "jurisdiction") + f", {rs.game_kind.replace('_', ' ')}"
        out.append(f"{rs.id}  {rs.title}")
        out.append(f"    version {rs.version}; {kind}{parent}; {len(rs.rules)} rules"
                   + (f", {len(rs.disabled)} disabled" if rs.disabled else ""))
        for key, s in sorted(rs.sources.items()):
            where = f"text {s.text}" if s.text else (s.url or "not bundled")
            out.append(f"    source {key}: {s.title} ({where})")
        if rs.dealing_methods:
            out.append(f"    dealing methods: {', '.join(rs.dealing_methods)}")
        out.append("")
    _out("\n".join(out))


# ------------------------------------------------------------------ ruleset history


def history_dict(rs: Ruleset) -> dict:
    return {"ruleset": rs.id, "version": rs.version, "sha256": rs.sha256,
            "amendments": [a.model_dump() for a in rs.history],
            "versions": [{"start": v.period.start, "end": v.period.end, "in_force": [a.id for a in v.period.in_force],
                          "rules": len(v.rules)} for v in rs.versions]}


def render_history(rs: Ruleset) -> str:
    out = [f"{rs.id} — {rs.title} (version {rs.version}, sha256 {rs.sha256})"]
    if not rs.versions:
        out.append("  no amendments or selections: one version, in force on every day")
        return "\n".join(out)
    for n, v in enumerate(rs.versions, 1):
        out.append(f"  version {n}: in force {v.period.words()}; {len(v.rules)} rules")
        made = {a.id for a in v.period.in_force} - {a.id for a in rs.versions[n - 2].period.in_force} if n > 1 else set()
        gone = {a.id for a in rs.versions[n - 2].period.in_force} - {a.id for a in v.period.in_force} if n > 1 else set()
        for a in rs.history:
            if a.id in made:
                out.append(f"    + {a.id} ({a.kind}, {a.cite}, in {a.defined_in}): {a.title}")
                out += [f"        changes {c}" for c in a.changes]
            elif a.id in gone:
                out.append(f"    - {a.id} ({a.cite}) no longer in force")
    return "\n".join(out)


@ruleset_app.command("history")
def ruleset_history(
    ruleset: str = typer.Argument(..., metavar="ID|FILE", show_default=False,
                                  help=f"A ruleset id ({BUNDLED}) or YAML path."),
    fmt: Format = typer.Option(Format.text, "--format", "-f", metavar="FORMAT", case_sensitive=False,
                               help="text or json."),
):
    """List the versions of a ruleset: the days each is in force, and what each amendment or selection changed."""
    [rs] = _rulesets(ruleset)
    _out(_json(history_dict(rs)) if fmt == Format.json else render_history(rs))


# ------------------------------------------------------------------ ruleset lint


@ruleset_app.command("lint")
def ruleset_lint(
    files: list[Path] = typer.Argument(None, metavar="FILE", help="Ruleset YAML files.", show_default=False),
    fmt: Format = typer.Option(Format.text, "--format", "-f", metavar="FORMAT", case_sensitive=False,
                               help="text or json."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 on warnings too."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Leave out notes (info)."),
    explain: str = typer.Option(None, "--explain", metavar="CODE", show_default=False,
                                help="Print what a lint code finds and why it matters (`all`: every code), and exit."),
):
    """Validate rulesets without a transcript; exit 1 when one has an error."""
    from compliance.coverage import lint_files
    from compliance.ruleset.lint import explain as explain_code
    from compliance.ruleset.lint import registered

    if explain is not None:
        if files:
            raise UserError("--explain takes a lint code, not ruleset files: name one or the other")
        if explain == "all":
            _out("\n".join(c.explain() for c in registered().values()).rstrip("\n"))
        else:
            _out(explain_code(explain).rstrip("\n"))
        raise typer.Exit(0)
    if not files:
        raise UserError("name the ruleset files to lint (or a code to --explain)")
    found = lint_files([str(f) for f in files])
    if quiet:
        found = [d for d in found if d.severity != "info"]
    errors = sum(d.severity == "error" for d in found)
    warnings = sum(d.severity == "warning" for d in found)
    if fmt == Format.json:
        _out(_json({"diagnostics": [d.as_dict() for d in found], "errors": errors, "warnings": warnings}))
    else:
        lines = [str(d) for d in found]
        lines.append(f"{len(files)} ruleset file(s): {errors} error(s), {warnings} warning(s)")
        _out("\n".join(lines))
    raise typer.Exit(1 if errors or (strict and warnings) else 0)


# ------------------------------------------------------------------ test-rules


@app.command("test-rules")
def test_rules(
    directory: Path = typer.Argument(None, metavar="DIR", show_default=False,
                                     help="Directory of rule tests (transcript + .expected.yaml) [default: the rule "
                                          "tests bundled with the package]."),
    fmt: Format = typer.Option(Format.text, "--format", "-f", metavar="FORMAT", case_sensitive=False,
                               help="text or json."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 when a rule has no firing or no non-firing test."),
    ruleset: list[str] = typer.Option(None, "--ruleset", "-r", metavar="ID|FILE", show_default=False,
                                      help=f"Report untested rules of these rulesets only: ids ({BUNDLED}) or YAML "
                                           "paths [default: the rulesets the tests use; for the bundled tests, "
                                           "every bundled jurisdiction]."),
    config_file: Path = typer.Option(None, "--config", metavar="FILE", show_default=False,
                                     help="Configuration file whose `jurisdictions` judge the transcripts that name "
                                          "no ruleset [default: the one found from the working directory up]."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="List passing tests too."),
    list_untested: bool = typer.Option(False, "--list-untested", help="Print only the untested rules, one "
                                       "`ruleset rule firing|non-firing` a line."),
):
    """Run rule tests (default: the bundled ones): each transcript's findings against its sidecar; exit 1 when
    one fails."""
    from compliance import config, ruletests
    from compliance.ruleset.loader import bundled_rulesets, load_ruleset

    jurisdictions = config.load(config_file)["jurisdictions"]  # as `check` judges a transcript's jurisdiction
    if ruleset:
        wanted = [load_ruleset(r, allow_abstract=True) for r in ruleset]
    else:
        wanted = bundled_rulesets() if directory is None else []
    suite = ruletests.run_dir(directory or ruletests.bundled_dir(), wanted, jurisdictions)
    if ruleset:
        ids = {r.id for r in wanted}
        suite.untested = [u for u in suite.untested if u.ruleset in ids]
    if list_untested:
        sys.stdout.write("".join(f"{u.ruleset} {u.rule} {lack}\n" for u in suite.untested for lack in u.lacks))
        raise typer.Exit(0 if suite.ok else 1)
    _out(ruletests.render_json(suite) if fmt == Format.json else ruletests.render_text(suite, verbose))
    raise typer.Exit(0 if suite.ok and not (strict and suite.untested) else 1)


# ------------------------------------------------------------------ coverage


@app.command("coverage")
def coverage_cmd(
    ruleset: str = typer.Option(None, "--ruleset", "-r", metavar="ID|FILE", show_default=False,
                                help=f"Only the texts this ruleset rests on: an id ({BUNDLED}) or YAML path."),
    fmt: ListFormat = typer.Option(ListFormat.text, "--format", "-f", metavar="FORMAT", case_sensitive=False,
                                   help="text, json or markdown."),
    map_file: Path = typer.Option(None, "--map", metavar="FILE", show_default=False,
                                help="Coverage map [default: the bundled rulesets/coverage.yaml]."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 when a checkable paragraph is not covered "
                                "or the map disagrees with the rulesets."),
    transcript: Path = typer.Option(None, "--transcript", "-t", metavar="FILE", show_default=False,
                                    help="A transcript (its header is read): which "
                                    "paragraphs what it records lets the rules check (its `recorded`); the ruleset "
                                    "is its table.jurisdiction unless --ruleset names one."),
    as_of: str = typer.Option(None, "--as-of", metavar="DATE", show_default=False, help=AS_OF_HELP),
):
    """Which paragraph of each regulation text is checked by which rule, and which cannot be checked.

    The paragraphs come from the paragraph index shipped in the package; the texts are not needed."""
    from compliance import coverage as cov_mod
    from compliance import evidence
    from compliance.paragraphs import load_map

    cmap = load_map(map_file)
    recorded = have = None
    if transcript is not None:
        from compliance.reading.reader import open_transcript

        header = open_transcript(transcript, str(transcript)).header
        if not ruleset and not header.table.jurisdiction:
            raise UserError("the transcript names no table.jurisdiction: choose a ruleset with --ruleset",
                            str(transcript))
        declared = getattr(header, "recorded", None)
        recorded = tuple(declared) if declared is not None else tuple(evidence.V1 & set(evidence.DECLARABLE))
        recorded = tuple(n for n in evidence.DECLARABLE if n in recorded)
        have = evidence.held(declared)
        if not ruleset:  # the transcript's jurisdiction names a bundled ruleset, never a file
            from compliance.ruleset.loader import load_jurisdiction

            rulesets = [load_jurisdiction(header.table.jurisdiction)]
    day = _as_of(as_of)
    if ruleset or transcript is None:
        rulesets = _rulesets(ruleset, as_of=day) if ruleset or day else None
    elif day:
        rulesets = [rs.version_on(day) for rs in rulesets]
    cov = cov_mod.coverage(rulesets, cmap, recorded=recorded, have=have)
    if fmt == ListFormat.json:
        _out(_json(cov.as_dict()))
    elif fmt == ListFormat.markdown:
        _out(cov_mod.render_markdown(cov))
    else:
        _out(cov_mod.render_text(cov))
    missing = any(t.missing for t in cov.texts)
    raise typer.Exit(1 if strict and (missing or cov.problems) else 0)
