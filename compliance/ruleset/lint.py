"""``baccarat-audit ruleset lint``: everything wrong with a ruleset, without a transcript.

The loader stops at the first problem; the linter goes on and reports every
one it can find, each at ``file:line:column`` with a stable code, the way a
compiler or Ruff does.  Each code is a constant of :mod:`compliance.lintcodes` with what it finds and an
explanation, which ``ruleset lint --explain CODE`` prints; the linter reports no code that is not registered.

A game adds the codes of its own ``game`` section (baccarat: its tableau and the house edge of its spots,
:mod:`compliance.games.baccarat.lint`), through :attr:`compliance.games.Game.lint`.

Errors make the exit status 1; warnings and notes do not (``--strict``: warnings do).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from compliance import games, lintcodes, registry
from compliance.checks import REGISTRY
from compliance.errors import UserError, Where
from compliance.lintcodes import LintCode
from compliance.paragraphs import bundled_map, paragraph_index
from compliance.printable import safe_line
from compliance.ruleset.loader import (
    Parsed,
    _resolve_ref,
    house_overreach,
    house_rule_overreach,
    load_ruleset,
    merge_keeping_house,
    pydantic_errors,
    read_ruleset_yaml,
    unknown_game,
    unwrap_house,
)
from compliance.ruleset.models import Ruleset, RulesetFile
from compliance.yamlread import YamlDoc

SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}

#: the codes every ruleset can get (a game's own are in its lint module: ``CODES``)
CODES = lintcodes.CODES


def registered() -> dict[str, LintCode]:
    """Every lint code: those of every ruleset, then each game's (its lint module's ``CODES``)."""
    out = dict(CODES)
    for kind in registry.PACKAGES:
        lint = registry.get(kind).lint
        for c in lint.CODES if lint is not None else ():
            if c.code in out:
                raise ValueError(f"lint code {c.code!r} of {kind} is registered already")
            out[c.code] = c
    return out


def explain(code: str) -> str:
    """The explanation of a lint code; a UserError naming the nearest code for one that is not registered."""
    known = registered()
    if code not in known:
        raise UserError(f"no lint code {code!r}{_did_you_mean(code, list(known))} (codes: {', '.join(known)})")
    return known[code].explain()


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a ruleset file."""

    path: str
    line: int
    column: int
    severity: str  # error, warning, info
    code: str
    message: str

    def __str__(self) -> str:
        """One line, safe to print: a key or a path holding a newline forges no line (compliance.printable)."""
        return safe_line(f"{self.path}:{self.line}:{self.column}: {self.severity} [{self.code}] {self.message}")

    def sort_key(self):
        return (self.path, self.line, self.column, SEVERITY_ORDER[self.severity], self.code, self.message)

    def as_dict(self) -> dict:
        return {"path": self.path, "line": self.line, "column": self.column, "severity": self.severity,
                "code": self.code, "message": self.message}


def from_where(where: str | None, default_path: str) -> tuple[str, int, int]:
    """File, line and column of an error's place (a :class:`~compliance.errors.Where` keeps them)."""
    if isinstance(where, Where):
        return where.file, where.line, where.column
    return where or default_path, 1, 1


@dataclass
class _Context:
    """What a file inherits and declares that its rules and overrides are judged against."""

    parent: Ruleset | None
    sources: dict
    methods: dict | None
    inherited: dict  # rule id -> BoundRule of the parent
    disabled: set  # rule ids the parent disables
    abstract: bool
    casino: str | None

    @classmethod
    def of(cls, data: dict, parent: Ruleset | None) -> _Context:
        sources = dict(parent.sources) if parent else {}
        if isinstance(data.get("sources"), dict):
            sources.update(data["sources"])
        own_methods = data.get("dealing_methods")
        methods = own_methods if isinstance(own_methods, dict) else (parent.dealing_methods if parent else None)
        return cls(parent=parent, sources=sources, methods=methods,
                   inherited={r.id: r for r in parent.rules} if parent else {},
                   disabled=set(parent.disabled) if parent else set(),
                   abstract=data.get("abstract") is True, casino=data.get("casino"))


class _Linter:
    def __init__(self, path: Path, display: str):
        self.path = path
        self.display = display
        self.out: list[Diagnostic] = []
        self.doc: YamlDoc | None = None
        self.parsed: Parsed = {}  # every file of the extends chain as read here, handed to the loader (never read twice)
        self.codes = registered()

    # -------------------------------------------------------------- reporting

    def add(self, at: tuple, severity: str, code: LintCode, message: str) -> None:
        assert self.doc is not None
        line, col = self.doc.position(at)
        self.out.append(self.diagnostic(self.display, line, col, severity, code, message))

    def add_user_error(self, e: UserError, code: LintCode, prefix: str = "") -> None:
        path, line, col = from_where(e.where, self.display)
        self.out.append(self.diagnostic(path, line, col, "error", code, prefix + e.message))

    def diagnostic(self, path: str, line: int, col: int, severity: str, code: LintCode, message: str) -> Diagnostic:
        """A diagnostic of a registered code, at a severity its registration gives (else a bug: ValueError)."""
        if self.codes.get(code.code) is not code or severity not in code.severities:
            raise ValueError(f"lint code {code.code!r} at severity {severity!r} is not registered")
        return Diagnostic(path, line, col, severity, code.code, message)

    def add_validation(self, base: tuple, err: ValidationError, code: LintCode, skip=lambda e: False) -> None:
        assert self.doc is not None
        for e, ue in zip(err.errors(include_url=False), pydantic_errors(self.doc, base, err)):
            if not skip(e):
                self.add_user_error(ue, code)

    # -------------------------------------------------------------- passes

    def run(self) -> list[Diagnostic]:
        registry.load_checks()
        try:
            self.doc = read_ruleset_yaml(self.path, self.display)
        except UserError as e:
            self.add_user_error(e, lintcodes.SCHEMA)
            return self.out
        self.parsed[self.path.resolve()] = self.doc
        data = self.doc.data
        try:
            RulesetFile.model_validate(data)
        except ValidationError as err:
            self.add_validation((), err, lintcodes.SCHEMA, skip=lambda e: "duplicate rule id" in str(e.get("msg", "")))
        kind = data.get("game_kind")
        if isinstance(kind, str) and kind not in registry.PACKAGES:
            self.add(("game_kind",), "error", lintcodes.SCHEMA, unknown_game(kind))
        self._bundled_id(data)
        ctx = _Context.of(data, self._parent(data))
        self._texts(data)
        rules = data.get("rules") if isinstance(data.get("rules"), list) else []
        overrides = data.get("overrides") if isinstance(data.get("overrides"), dict) else {}
        self._duplicates(rules)
        own_ids = self._own_rules(rules, ctx)
        self._overrides(overrides, own_ids, ctx)
        if not ctx.abstract:
            self._inherited_citations(data, overrides, ctx)
        self._game(data, ctx.parent, ctx.casino)
        self._history(data, ctx.parent)
        self._load_net()
        return self.out

    def _bundled_id(self, data: dict) -> None:
        """A file outside the bundled rulesets that takes a bundled ruleset's id."""
        from compliance.ruleset.loader import bundled_dir, bundled_ids

        rid = data.get("id")
        if (isinstance(rid, str) and rid in bundled_ids()
                and self.path.resolve().parent != bundled_dir().resolve()):
            self.add(("id",), "warning", lintcodes.BUNDLED_ID,
                     f"this file takes the id {rid!r} of a bundled ruleset: a report would read as if the bundled "
                     f"{rid} had judged (it also names the file and what it changes); give it an id of its own, "
                     f"and `extends: {rid}` to build on it")

    def _own_rules(self, rules: list, ctx: _Context) -> set:
        """The rules this file defines: kind, parameters, id, citation, dealing methods."""
        own_ids = set()
        for i, rule in enumerate(rules):
            if not isinstance(rule, dict):
                continue
            rid = rule.get("id")
            if not isinstance(rid, str):
                continue  # a schema error already
            own_ids.add(rid)
            at = ("rules", i)
            if ctx.casino:
                self.add(at + ("id",), "error", lintcodes.HOUSE_SETS_REGULATION,
                         f"rule {rid!r}: a casino's house ruleset sets house parameters only; it defines no rules")
            kind = self._kind(rule.get("check"), at + ("check",), rid)
            if kind is not None:
                self._params(kind, rule.get("params") or {}, at + ("params",), rid)
            if rid in ctx.inherited or rid in ctx.disabled:
                self.add(at + ("id",), "error", lintcodes.DUPLICATE_ID,
                         f"rule {rid!r} is already defined by a ruleset this one extends: change it under `overrides`")
            cit = rule.get("citation")
            if cit is None:
                if not ctx.abstract:
                    self.add(at, "error", lintcodes.MISSING_CITATION,
                             f"rule {rid!r} has no citation: every rule must cite its regulation paragraph")
            else:
                self._citation(cit, ctx.sources, at + ("citation",), rid)
            self._by_game(rule.get("citation_by_game"), ctx.sources, at + ("citation_by_game",), rid)
            self._methods(rule.get("dealing_methods"), ctx.methods, at + ("dealing_methods",), rid)
        return own_ids

    def _overrides(self, overrides: dict, own_ids: set, ctx: _Context) -> None:
        """Each override reaches an inherited rule, and changes it validly."""
        for oid, over in overrides.items():
            at = ("overrides", oid)
            if not isinstance(over, dict):
                continue
            if oid in own_ids:
                self.add(at, "error", lintcodes.UNREACHABLE_OVERRIDE,
                         f"override of rule {oid!r}, which this file defines itself: change the rule instead")
                continue
            base = ctx.inherited.get(oid)
            if base is None:
                if oid in ctx.disabled:
                    self._override_disabled(oid, over, at)
                    continue
                hint = _did_you_mean(oid, list(ctx.inherited))
                self.add(at, "error", lintcodes.UNREACHABLE_OVERRIDE,
                         f"override of rule {oid!r}, which no ruleset it extends defines{hint}")
                continue
            self._override(oid, over, base, at, ctx.sources, ctx.methods, ctx.casino)

    def _inherited_citations(self, data: dict, overrides: dict, ctx: _Context) -> None:
        """A jurisdiction cites every rule it inherits uncited from an abstract base (or disables it)."""
        for rid, r in ctx.inherited.items():
            over = overrides.get(rid) if isinstance(overrides.get(rid), dict) else {}
            if r.citation is None and not over.get("citation") and over.get("enabled") is not False:
                self.add(("overrides",) if "overrides" in data else ("extends",), "error", lintcodes.MISSING_CITATION,
                         f"rule {rid!r} (from {r.defined_in}) has no citation here: cite it under `overrides`")

    def _parent(self, data: dict) -> Ruleset | None:
        ref = data.get("extends")
        if not isinstance(ref, str) or not ref:
            return None
        # walk the chain of files first: a cycle is reported here, at this file's `extends`
        seen = [self.path.resolve()]
        names = [str(data.get("id"))]
        path, cur = self.path, ref
        while cur:
            try:
                nxt, _ = _resolve_ref(cur, path)
                gone = not nxt.is_file()
            except UserError as e:
                self.add(("extends",), "error", lintcodes.EXTENDS_MISSING, f"`extends: {ref}`: {e.message}")
                return None
            except (OSError, ValueError) as e:
                self.add(("extends",), "error", lintcodes.EXTENDS_MISSING, f"`extends: {ref}`: cannot be read ({e})")
                return None
            names.append(cur)
            if nxt.resolve() in seen:
                self.add(("extends",), "error", lintcodes.EXTENDS_CYCLE, "`extends` cycle: " + " -> ".join(names))
                return None
            if gone:
                self.add(("extends",), "error", lintcodes.EXTENDS_MISSING,
                         f"`extends` names {cur!r}, which is not a ruleset file" if cur == ref
                         else f"`extends: {ref}` leads to {cur!r}, which is not a ruleset file")
                return None
            seen.append(nxt.resolve())
            try:
                parent_doc = read_ruleset_yaml(nxt, str(nxt))
            except UserError:
                break  # reported by loading the parent below
            self.parsed[nxt.resolve()] = parent_doc
            cur = parent_doc.data.get("extends")
            if not isinstance(cur, str):
                break  # reported by loading the parent below
            path = nxt
        target, _ = _resolve_ref(ref, self.path)
        try:
            return load_ruleset(str(target), allow_abstract=True, parsed=self.parsed)
        except UserError as e:
            self.add(("extends",), "error", lintcodes.EXTENDS_MISSING, f"`extends: {ref}` cannot be loaded: {e}")
            return None

    def _duplicates(self, rules: list) -> None:
        seen: dict[str, int] = {}
        for i, rule in enumerate(rules):
            if not isinstance(rule, dict) or not isinstance(rule.get("id"), str):
                continue
            rid = rule["id"]
            if rid in seen:
                first = self.doc.position(("rules", seen[rid], "id"))[0]
                self.add(("rules", i, "id"), "error", lintcodes.DUPLICATE_ID, f"duplicate rule id {rid!r} (first at line {first})")
            else:
                seen[rid] = i

    def _kind(self, name: Any, at: tuple, rid: Any):
        if not isinstance(name, str):
            return None
        kind = REGISTRY.get(name)
        if kind is None:
            self.add(at, "error", lintcodes.UNKNOWN_CHECK,
                     f"rule {rid!r}: unknown check kind {name!r}{_did_you_mean(name, list(REGISTRY))} "
                     "(see `baccarat-audit rules kinds`)")
        return kind

    def _params(self, kind, params: Any, at: tuple, rid: Any) -> None:
        if not isinstance(params, dict):
            return  # a schema error already
        plain, _ = unwrap_house(params, "params")
        try:
            kind.params.model_validate(plain)
        except ValidationError as err:
            self.add_validation(at, err, lintcodes.BAD_PARAMS)

    def _texts(self, data: dict) -> None:
        """A source's ``text`` names a bundled regulation text (one the paragraph index knows)."""
        sources = data.get("sources")
        bundled = bundled_map().texts
        for key, src in (sources.items() if isinstance(sources, dict) else ()):
            text = src.get("text") if isinstance(src, dict) else None
            if isinstance(text, str) and text not in bundled:
                self.add(("sources", key, "text"), "warning", lintcodes.UNKNOWN_TEXT,
                         f"source {key!r} names text {text!r}, which is not a bundled regulation text"
                         f"{_did_you_mean(text, list(bundled))}; the citations of it cannot be checked")

    def _citation(self, cit: Any, sources: dict, at: tuple, rid: Any) -> None:
        if not isinstance(cit, dict):
            return
        src_name = cit.get("source")
        if not isinstance(src_name, str):
            return  # a schema error already
        if src_name not in sources:
            known = ", ".join(sorted(sources)) or "none"
            self.add(at + ("source",), "error", lintcodes.UNKNOWN_SOURCE,
                     f"rule {rid!r} cites source {src_name!r}, which the ruleset does not declare (declared: {known})")
            return
        src = sources[src_name]
        text = src.get("text") if isinstance(src, dict) else getattr(src, "text", None)
        if not isinstance(text, str) or not text or not isinstance(cit.get("at"), list):
            return
        paragraphs = paragraph_index(text)
        if paragraphs is None:
            return  # not a bundled text: the `unknown-text` warning of its source says so
        for j, para in enumerate(cit["at"]):
            if str(para) not in paragraphs:
                self.add(at + ("at", j), "warning", lintcodes.CITATION_NOT_IN_TEXT,
                         f"rule {rid!r} cites {para!r}, which is not a paragraph of {text}"
                         f"{_did_you_mean(str(para), list(paragraphs))}")

    def _by_game(self, by_game: Any, sources: dict, at: tuple, rid: Any) -> None:
        """Each game's citation (one, or a list) checked as `citation` is (the loader checks the games)."""
        for game, cits in (by_game.items() if isinstance(by_game, dict) else ()):
            for j, cit in enumerate(cits) if isinstance(cits, list) else ((None, cits),):
                self._citation(cit, sources, at + ((game,) if j is None else (game, j)), rid)

    def _methods(self, wanted: Any, methods: dict | None, at: tuple, rid: Any) -> None:
        if not isinstance(wanted, list):
            return
        for j, m in enumerate(wanted):
            if not isinstance(m, str):
                continue  # a schema error already
            if methods is None or m not in methods:
                known = ", ".join(methods) if methods else "none"
                self.add(at + (j,), "warning", lintcodes.UNKNOWN_DEALING_METHOD,
                         f"rule {rid!r} applies only to dealing method {m!r}, which the ruleset does not define "
                         f"(defined: {known}): the rule never runs")

    def _override_disabled(self, oid: str, over: dict, at: tuple) -> None:
        if over.get("enabled") is not True:
            self.add(at, "warning", lintcodes.UNREACHABLE_OVERRIDE,
                     f"override of rule {oid!r}, which a parent disables: it has no effect unless it sets `enabled: true`")

    def _override(self, oid, over: dict, base, at: tuple, sources, methods, casino) -> None:
        if "citation" in over and over["citation"] is not None:
            self._citation(over["citation"], sources, at + ("citation",), oid)
        self._by_game(over.get("citation_by_game"), sources, at + ("citation_by_game",), oid)
        self._methods(over.get("dealing_methods"), methods, at + ("dealing_methods",), oid)
        kind = REGISTRY.get(base.check)
        params = over.get("params")
        if isinstance(params, dict) and kind is not None:
            merged = merge_keeping_house(_house_view(base), params, "")
            self._params(kind, merged, at + ("params",), oid)
        if casino:
            for key_path, message in house_rule_overreach(oid, over, {h.path for h in base.house}):
                self.add(at + key_path, "error", lintcodes.HOUSE_SETS_REGULATION, message)
        same = []
        for key, value in over.items():
            current = {"severity": base.severity, "enabled": True, "title": base.title, "summary": base.summary,
                       "dealing_methods": sorted(base.dealing_methods) if base.dealing_methods else None,
                       "citation": base.citation.model_dump() if base.citation else None}.get(key, _MISSING)
            if key == "params" and isinstance(value, dict):
                plain, _ = unwrap_house(value, "params")
                cur = base.params.model_dump() if hasattr(base.params, "model_dump") else {}
                if isinstance(plain, dict) and all(k in cur and _same(cur[k], v) for k, v in plain.items()):
                    same.append(key)
            elif current is not _MISSING and _same(current, _sorted_names(value) if key == "dealing_methods" else value):
                same.append(key)
        for key in same:
            self.add(at + (key,), "info", lintcodes.OVERRIDE_NO_EFFECT,
                     f"override of rule {oid!r} sets `{key}` to what it already is")

    def _game(self, data: dict, parent: Ruleset | None, casino) -> None:
        """The game section: what a casino's house ruleset may not set in it, then the lint of the game of the
        ruleset's ``game_kind`` (baccarat's: its drawing tableau and the house edge of its spots)."""
        own = data.get("game")
        if own is not None and not isinstance(own, dict):
            return  # schema error already
        game_kind = (data.get("game_kind") or (getattr(parent, "game_kind", None) if parent else None)
                     or registry.BACCARAT)
        game = registry.get(game_kind) if game_kind in registry.PACKAGES else None
        if game is None or game.section is None or game.lint is None:
            return  # no game section: the loader refuses one here (reported by the last pass)
        base = _game_view(parent) if parent and parent.game is not None else {}
        if casino and own:
            house_paths = {h.path for h in parent.game_house} if parent else set()
            for key_path, message in house_overreach(own, house_paths, _spots_of(parent)):
                self.add(("game",) + key_path, "error", lintcodes.HOUSE_SETS_REGULATION, message)
        merged = merge_keeping_house(base, own or {}, str(data.get("id")))
        plain, notes = unwrap_house(merged, "game")
        if not plain:
            return  # a base without a game: nothing to check (the loader says what is missing)
        game.lint.game_section(games.GameSection(data=data, own=own or {}, plain=plain, house=notes, parent=parent),
                               self)
        now = _amended(own or {}, data.get("amendments"), str(data.get("id")))
        if now is not None:  # the section as its amendments in force now leave it: what they add is linted too
            plain, notes = unwrap_house(merge_keeping_house(base, now, str(data.get("id"))), "game")
            before = len(self.out)
            game.lint.game_section(games.GameSection(data=data, own=now, plain=plain, house=notes, parent=parent),
                                   self)
            seen = set(self.out[:before])
            self.out[before:] = [d for d in dict.fromkeys(self.out[before:]) if d not in seen]

    def _history(self, data: dict, parent: Ruleset | None) -> None:
        """The amendments (in order, none overlapping, each cited) and the selections (of options the
        jurisdiction permits, from a day it permits them)."""
        try:
            model = RulesetFile.model_validate(data)
        except ValidationError:
            return  # reported by the schema pass
        last = None
        for i, a in enumerate(model.amendments):
            if last is not None and a.effective < last:
                self.add(("amendments", i, "effective"), "error", lintcodes.AMENDMENT_ORDER,
                         f"amendment {a.id!r} takes effect {a.effective}, before the one listed above it ({last})")
            last = max(last or a.effective, a.effective)
            if not a.cite.strip():
                self.add(("amendments", i, "cite"), "error", lintcodes.AMENDMENT_CITATION,
                         f"amendment {a.id!r} cites no register notice")
            for j, r in enumerate(a.rules):
                if r.citation is None:
                    self.add(("amendments", i, "rules", j), "error", lintcodes.AMENDMENT_CITATION,
                             f"amendment {a.id!r} adds rule {r.id!r} without a citation")
        from compliance.ruleset.loader import _overlaps

        for _, i, message in _overlaps([(None, i, a) for i, a in enumerate(model.amendments)]):
            self.add(("amendments", i), "error", lintcodes.AMENDMENT_OVERLAP, message)
        permitted = {o.key: o for o in parent.options} if parent is not None else {}
        for i, sel in enumerate(model.selections):
            o = permitted.get(sel.option)
            if o is None:
                self.add(("selections", i, "option"), "error", lintcodes.OPTION_NOT_PERMITTED,
                         f"selection of option {sel.option!r}, which the jurisdiction does not permit (options: "
                         f"{', '.join(permitted) or 'none'})" + _did_you_mean(sel.option, list(permitted)))
                continue
            if o.since is not None and sel.since < o.since:
                self.add(("selections", i, "since"), "error", lintcodes.OPTION_DATE,
                         f"selection of option {sel.option!r} from {sel.since}, before the jurisdiction permits it "
                         f"({o.since}, {o.citation})")
            if o.until is not None and (sel.until is None or sel.until > o.until):
                self.add(("selections", i), "error", lintcodes.OPTION_DATE,
                         f"selection of option {sel.option!r} runs past {o.until}, the last day the jurisdiction "
                         f"permits it ({o.citation})")

    def _load_net(self) -> None:
        """Whatever the loader refuses that no pass above found (never lint clean and fail to load)."""
        if any(d.severity == "error" for d in self.out):
            return
        try:
            load_ruleset(str(self.path), allow_abstract=True, parsed=self.parsed)
        except UserError as e:
            self.add_user_error(e, lintcodes.LOAD)


_MISSING = object()


def _amended(own: dict, amendments: Any, rid: str) -> dict | None:
    """A file's own game section with the amendments still in force after the last of them took effect (None:
    no amendment changes it)."""
    if not isinstance(amendments, list):
        return None
    dated = [a for a in amendments if isinstance(a, dict) and isinstance(a.get("effective"), str)]
    games_of = [a for a in dated if isinstance(a.get("game"), dict)]
    if not games_of:
        return None
    last = max(a["effective"] for a in dated)
    out = own
    for a in games_of:
        ends = a.get("ends")
        if not isinstance(ends, str) or ends >= last:
            out = merge_keeping_house(out, a["game"], rid)
    return out


def _same(a: Any, b: Any) -> bool:
    from decimal import Decimal

    if isinstance(a, (int, Decimal)) and isinstance(b, (int, Decimal)) and not isinstance(a, bool):
        return Decimal(a) == Decimal(b)
    return a == b


def _sorted_names(value: Any) -> Any:
    """A list of names, sorted (to compare dealing method lists); anything else as it is."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return sorted(value)
    return value


def _did_you_mean(name: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(name, choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _spots_of(parent: Ruleset | None):
    """spots_of (:func:`house_overreach`) of the jurisdiction a house ruleset extends."""
    game = parent.game if parent is not None else None

    def spots_of(variant):
        if game is None:
            return set() if variant is None else None
        if variant is None:
            return set(game.spots)
        return set(game.spots_of(variant)) if variant in game.variants else None

    return spots_of


def _with_house(values: dict, notes) -> dict:
    """``values`` (a model dump) with its house parameters wrapped again as ``{house, note}`` (to merge
    overrides over)."""
    for h in notes:
        keys = h.path.split(".")[1:]
        node = values
        for k in keys[:-1]:
            node = node.setdefault(k, {}) if isinstance(node, dict) else {}
        if keys and isinstance(node, dict):
            node[keys[-1]] = {"house": node.get(keys[-1], h.default), "note": h.note}
    return values


def _house_view(rule) -> dict:
    """A bound rule's parameters, with its house parameters wrapped again."""
    return _with_house(rule.params.model_dump() if hasattr(rule.params, "model_dump") else {}, rule.house)


def _game_view(parent: Ruleset) -> dict:
    """A parent ruleset's game section, with its house parameters wrapped again."""
    return _with_house(parent.game.model_dump(), parent.game_house)


# ------------------------------------------------------------------ entry points


def lint_file(path: str | Path, display: str | None = None) -> list[Diagnostic]:
    """Every problem of one ruleset file, sorted by place (the coverage map's: :func:`compliance.coverage.lint_map`)."""
    path = Path(path)
    found = _Linter(path, display or str(path)).run()
    unique = {(d.path, d.line, d.column, d.code, d.message): d for d in found}
    return sorted(unique.values(), key=Diagnostic.sort_key)
