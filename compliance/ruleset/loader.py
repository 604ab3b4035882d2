"""Load ruleset YAML with ruamel.yaml, resolve ``extends`` and ``overrides``.

Every problem is a :class:`~compliance.errors.UserError` that names
``file:line:column``: bad YAML, a wrong type, an unknown check kind or
parameter, a rule without a citation, an override of a rule that does not
exist, an ``extends`` cycle.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
import difflib
import hashlib
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from compliance import registry
from compliance.checks import REGISTRY, documented
from compliance.errors import UserError
from compliance.limits import DEFAULTS, Limits
from compliance.ruleset.models import (
    HOUSE_VALUE_SCHEMA,
    AmendmentNote,
    BoundRule,
    Citation,
    HouseNote,
    OptionNote,
    Period,
    Ruleset,
    RulesetFile,
    citations,
)
from compliance.yamlread import YamlDoc, read_yaml


def bundled_dir() -> Path:
    return Path(str(resources.files("compliance.rulesets")))


# YAML files bundled with the rulesets that are not rulesets
NOT_RULESETS = frozenset({"coverage"})


def bundled_ids() -> list[str]:
    """Ids of the bundled rulesets (abstract ones included)."""
    return sorted(p.stem for p in bundled_dir().glob("*.yaml") if p.stem not in NOT_RULESETS)


def jurisdiction_ids() -> list[str]:
    """Ids of the bundled rulesets a transcript can be judged by (the abstract bases left out), read from their
    YAML alone, no ruleset bound: what the help of every ``--ruleset`` lists."""
    return [rid for rid in bundled_ids()
            if not read_ruleset_yaml(bundled_dir() / f"{rid}.yaml", rid).data.get("abstract")]


def bundled_rulesets(include_abstract: bool = False) -> list[Ruleset]:
    """Every bundled ruleset an auditor can check with (and the abstract bases, if asked)."""
    loaded = (load_ruleset(rid, allow_abstract=True) for rid in bundled_ids())
    return [rs for rs in loaded if include_abstract or not rs.abstract]


# ------------------------------------------------------------------ YAML


def read_ruleset_yaml(path: Path, display: str, bounds: Limits = DEFAULTS) -> YamlDoc:
    """A ruleset file's YAML, with the position of every node (:func:`compliance.yamlread.read_yaml`)."""
    doc = read_yaml(path, display, what="ruleset file", bounds=bounds)
    if not isinstance(doc.data, dict):
        raise UserError("a ruleset must be a YAML mapping", doc.where())
    return doc


def _pydantic_error(doc: YamlDoc, base: tuple, err: ValidationError) -> UserError:
    return pydantic_errors(doc, base, err)[0]


def pydantic_errors(doc: YamlDoc, base: tuple, err: ValidationError) -> list[UserError]:
    """Every error of a validation, each with the file:line:column of its key."""
    return [_one_error(doc, base, e) for e in err.errors(include_url=False)]


def _one_error(doc: YamlDoc, base: tuple, e: dict) -> UserError:
    loc = tuple(base) + tuple(x for x in e["loc"] if not (isinstance(x, str) and x.startswith("function-")))
    # pydantic's loc for a tagged union / model-level error may include class names: keep data keys only
    data_loc = []
    node: Any = doc.data
    for part in loc:
        if isinstance(node, dict) and part in node:
            node = node[part]
            data_loc.append(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
            data_loc.append(part)
        elif isinstance(node, dict) and isinstance(part, str):
            data_loc.append(part)  # a missing or unknown key: point at its parent
            break
    name = ".".join(str(x) for x in data_loc) or "(top)"
    msg = e["msg"]
    if e["type"] == "extra_forbidden":
        msg = f"unknown key {data_loc[-1]!r}" if data_loc else "unknown key"
    elif e["type"] == "missing":
        msg = f"missing required key {loc[-1]!r}"
    return UserError(f"{name}: {msg}", doc.where(tuple(data_loc)))


# ------------------------------------------------------------------ merge helpers


SET_BY = "_set_by"  # internal: the ruleset that set a house parameter's value


def is_house(value: Any) -> bool:
    """``{house: X, note: ...}``: a parameter the regulation leaves to the house."""
    return (isinstance(value, dict) and "house" in value and set(value) <= {"house", "note", SET_BY}
            and isinstance(value.get("note"), (str, type(None))))


def merge_keeping_house(base: dict, over: dict, layer_id: str) -> dict:
    """Merge ``over`` into ``base``, mapping into mapping, but a plain value
    written over a house parameter stays a house parameter: the value changes,
    its provenance ("left to the house", the note) is kept, and the ruleset
    that set it is remembered.  This is how a casino's house ruleset sets its
    house parameters without restating them."""
    out = copy.deepcopy(base)
    for k, v in over.items():
        old = out.get(k)
        if is_house(old) and not is_house(v):
            out[k] = {**old, "house": copy.deepcopy(v), SET_BY: layer_id}
        elif isinstance(v, dict) and not is_house(v) and isinstance(old, dict) and not is_house(old):
            out[k] = merge_keeping_house(old, v, layer_id)
        else:
            out[k] = copy.deepcopy(v)
    return out


def unwrap_house(value: Any, path: str) -> tuple[Any, list[HouseNote]]:
    """Replace every ``{house: X, note: ...}`` by X and list where they were."""
    if isinstance(value, dict):
        if is_house(value):
            return value["house"], [HouseNote(path=path, default=value["house"], note=value.get("note"),
                                              set_by=value.get(SET_BY))]
        out, notes = {}, []
        for k, v in value.items():
            out[k], n = unwrap_house(v, f"{path}.{k}" if path else str(k))
            notes += n
        return out, notes
    if isinstance(value, list):
        out, notes = [], []
        for i, v in enumerate(value):
            item, n = unwrap_house(v, f"{path}[{i}]")
            out.append(item)
            notes += n
        return out, notes
    return value, []


# ------------------------------------------------------------------ what a house ruleset may set


def leaves(value: Any, prefix: str, key_path: tuple = ()):
    """(dotted path, key path) of every value set in a mapping; a house wrapper is one value."""
    if isinstance(value, dict) and not is_house(value) and value:
        for k, v in value.items():
            yield from leaves(v, f"{prefix}.{k}", key_path + (k,))
    else:
        yield prefix, key_path


def house_overreach(own_game: dict, house_paths: set[str], spots_of) -> list[tuple[tuple, str]]:
    """Where a casino's house ruleset sets in ``game`` what the regulation fixes: (key path under ``game``,
    message) for every value that is neither a house parameter (``house_paths``) nor part of a spot the
    regulation does not declare, which a house may add (a side wager the regulation leaves open).
    ``spots_of(None)``: the names of the jurisdiction's spots; ``spots_of(variant)``: those of a game variant
    (None for a variant the jurisdiction does not have, which is the regulation's to add)."""
    out = []
    for path, key_path in leaves(own_game, "game"):
        if path in house_paths or _a_new_spot(key_path, spots_of):
            continue
        out.append((key_path, f"{path} is fixed by the regulation, not left to the house"))
    return out


def _a_new_spot(key_path: tuple, spots_of) -> bool:
    if len(key_path) > 2 and key_path[0] == "spots":
        return key_path[1] not in spots_of(None)
    if len(key_path) > 3 and key_path[0] == "variants":
        names = spots_of(key_path[1])
        return names is not None and key_path[2] not in names
    return False


def house_rule_overreach(oid: str, over: dict, house_paths: set[str]) -> list[tuple[tuple, str]]:
    """Where a casino's override of rule ``oid`` sets what the regulation fixes: (key path, message)."""
    out = [((key,), f"rule {oid!r}: a house ruleset sets house parameters only; `{key}` is the regulation's")
           for key in over if key != "params"]
    params = over.get("params")
    if isinstance(params, dict):
        out += [(("params",) + key_path, f"rule {oid!r}: {path} is fixed by the regulation, not left to the house")
                for path, key_path in leaves(params, "params") if path not in house_paths]
    return out


def _raw_spots_of(game_raw: dict):
    """spots_of (:func:`house_overreach`) of a game section as merged so far, house wrappers and all."""
    spots = game_raw.get("spots") if isinstance(game_raw.get("spots"), dict) else {}
    variants = game_raw.get("variants") if isinstance(game_raw.get("variants"), dict) else {}

    def spots_of(variant):
        if variant is None:
            return set(spots)
        if variant not in variants:
            return None
        changes = variants[variant] if isinstance(variants[variant], dict) else {}
        return {k for k in spots if changes.get(k, 0) is not None} | {k for k, v in changes.items() if v is not None}

    return spots_of


# ------------------------------------------------------------------ resolution


class _Layer:
    """One file of an ``extends`` chain (``path``: where it is, every link followed)."""

    def __init__(self, doc: YamlDoc, model: RulesetFile, path: Path):
        self.doc = doc
        self.model = model
        self.path = path


def looks_like_path(ref: str) -> bool:
    """A ruleset reference that names a file (``house/casino.yaml``), not a bundled id (``us-nj``)."""
    return ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


def _resolve_ref(ref: str, relative_to: Path | None) -> tuple[Path, str]:
    if looks_like_path(ref):
        p = Path(ref)
        if not p.is_absolute() and relative_to is not None:
            p = relative_to.parent / p
        return p, ref if relative_to is None else str(p)  # as the user wrote it, or where the file found it
    p = bundled_dir() / f"{ref}.yaml"
    try:
        bundled = p.is_file()
    except OSError:  # a name the system refuses (too long, ...): no bundled ruleset's id
        bundled = False
    if not bundled:
        ids = bundled_ids()
        close = difflib.get_close_matches(ref, ids, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UserError(f"no ruleset {ref!r}{hint} (bundled rulesets: {', '.join(ids)})")
    return p, f"rulesets/{ref}.yaml"


resolve_ref = _resolve_ref  # (the file a reference names, its display name): also the cache's key


#: parsed ruleset files, by real path: a caller that has read them already (lint) passes them on
Parsed = dict[Path, YamlDoc]


def _read_layer(path: Path, display: str, parsed: Parsed | None = None, bounds: Limits = DEFAULTS) -> _Layer:
    real = path.resolve()
    doc = (parsed or {}).get(real)
    doc = dataclasses.replace(doc, display=display) if doc else read_ruleset_yaml(path, display, bounds)
    try:
        model = RulesetFile.model_validate(doc.data)
    except ValidationError as e:
        raise _pydantic_error(doc, (), e) from None
    if model.game_kind is not None and model.game_kind not in registry.PACKAGES:
        raise UserError(unknown_game(model.game_kind), doc.where(("game_kind",)))
    return _Layer(doc, model, real)


def _chain(path: Path, display: str, parsed: Parsed | None = None, bounds: Limits = DEFAULTS) -> list[_Layer]:
    layers: list[_Layer] = []
    seen: list[Path] = []
    while True:
        real = path.resolve()
        if real in seen:
            names = " -> ".join(str(layer.model.id) for layer in layers) + f" -> {layers[-1].model.extends}"
            raise UserError(f"`extends` cycle: {names}", layers[-1].doc.where(("extends",)))
        seen.append(real)
        layer = _read_layer(path, display, parsed, bounds)
        layers.append(layer)
        if not layer.model.extends:
            return list(reversed(layers))  # base first
        try:
            path, display = _resolve_ref(layer.model.extends, path)
        except UserError as e:
            raise UserError(e.message, layer.doc.where(("extends",))) from None
        try:
            what = None if path.is_file() else "is a directory" if path.is_dir() else "does not exist"
        except OSError as e:  # a name the system refuses (too long, ...): no file of a ruleset
            what = f"cannot be read ({e.strerror})"
        if what:
            raise UserError(f"`extends` names {layer.model.extends!r}, which {what}", layer.doc.where(("extends",)))


def load_ruleset(ref: str | Path, *, allow_abstract: bool = False, parsed: Parsed | None = None,
                 bounds: Limits = DEFAULTS) -> Ruleset:
    """Load a ruleset by bundled id (``us-nj``) or by path (``parsed``: files already read, not read again;
    ``bounds``: the run's size limits)."""
    ref = str(ref)
    path, display = _resolve_ref(ref, None)
    layers = _chain(path, display, parsed, bounds)
    ruleset = _bind_history(layers, allow_abstract=allow_abstract)
    made = {"sha256": chain_sha256([layer.doc.sha256 for layer in layers]),
            "files": [str(layer.path) for layer in layers]}  # the hash of the files: the history is in them
    return ruleset.model_copy(update={**made, "versions": [v.model_copy(update=made) for v in ruleset.versions]})


def chain_sha256(digests: list[str]) -> str:
    """The content hash of a ruleset: SHA-256 of the SHA-256 of each file of its ``extends`` chain, the base
    first, one hexadecimal digest a line.  ``sha256sum base.yaml ... ruleset.yaml | cut -c1-64 | sha256sum``
    gives it, so an auditor can check which rules a report was judged by."""
    return hashlib.sha256("".join(d + "\n" for d in digests).encode("ascii")).hexdigest()


#: the longest table.jurisdiction quoted in a message (the value comes from the evidence)
_QUOTED = 80


def load_jurisdiction(jurisdiction: str, mapped: dict[str, str] | None = None, load=load_ruleset) -> Ruleset:
    """The ruleset a transcript's ``table.jurisdiction`` names (``load``: how a ruleset is loaded by reference).

    The evidence never chooses a file: the value must be a bundled ruleset id,
    or one the configuration maps to a ruleset (``jurisdictions``).  Anything
    else, a path above all, is refused.
    """
    mapped = mapped or {}
    if jurisdiction in mapped:
        return load(mapped[jurisdiction])
    known = bundled_ids()
    if jurisdiction not in known:
        shown = jurisdiction if len(jurisdiction) <= _QUOTED else jurisdiction[:_QUOTED] + "…"
        ids = ", ".join(sorted(set(known) | set(mapped)))
        close = difflib.get_close_matches(jurisdiction, sorted(set(known) | set(mapped)), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UserError(f"{shown!r} is not a ruleset id{hint} (known: {ids}); a transcript names its jurisdiction, "
                        "never a file: choose a ruleset file with --ruleset, or map the jurisdiction to one in the "
                        "configuration (`jurisdictions`)")
    return load(jurisdiction)


def unknown_game(kind: str) -> str:
    return f"game_kind: unknown game {kind!r} (known: {', '.join(registry.PACKAGES)})"


def _bind(layers: list[_Layer], *, allow_abstract: bool) -> Ruleset:
    registry.load_checks()
    top = layers[-1]
    sources: dict = {}
    game_raw: dict = {}
    methods = None
    # id -> (rule data, defining layer, its path there, (layer, path) of its params)
    rules: dict[str, tuple[dict, _Layer, tuple, tuple]] = {}
    order: list[str] = []
    for layer in layers:
        m = layer.model
        sources.update(m.sources)
        if m.dealing_methods is not None:
            methods = m.dealing_methods
        if m.casino:  # a house ruleset sets house parameters (and spots the regulation leaves open) only
            _house_only(layer, game_raw, rules)
        if m.game:
            game_raw = merge_keeping_house(game_raw, m.game, m.id)
        for oid, override in m.overrides.items():
            if oid not in rules:
                raise UserError(
                    f"override of rule {oid!r}, which no ruleset it extends defines (unreachable override)",
                    layer.doc.where(("overrides", oid)),
                )
            data, origin, at, params_at = rules[oid]
            changes = {k: v for k, v in override.model_dump(exclude_unset=True).items() if v is not None}
            if "params" in changes:
                changes["params"] = merge_keeping_house(data.get("params", {}), changes["params"], m.id)
                params_at = (layer, ("overrides", oid, "params"))
            rules[oid] = ({**data, **changes}, origin, at, params_at)
        for i, rule in enumerate(m.rules):
            if rule.id in rules:
                raise UserError(
                    f"rule {rule.id!r} is already defined by {rules[rule.id][1].model.id!r}: change it under `overrides`",
                    layer.doc.where(("rules", i, "id")),
                )
            rules[rule.id] = (rule.model_dump(exclude_unset=True), layer, ("rules", i), (layer, ("rules", i, "params")))
            order.append(rule.id)

    abstract = top.model.abstract
    if abstract and not allow_abstract:
        raise UserError(f"ruleset {top.model.id!r} is abstract: extend it, or name a jurisdiction", top.doc.display)

    # the game the rules check (table.game of the transcripts), and the model of its `game` section, if it has one
    game_kind = next((layer.model.game_kind for layer in reversed(layers) if layer.model.game_kind), registry.BACCARAT)
    section = registry.get(game_kind).section
    if section is None and game_raw:
        layer = next(layer for layer in reversed(layers) if layer.model.game)
        raise UserError(f"`game` has no place in a {game_kind} ruleset: the rulesets of "
                        f"{registry.get(game_kind).title} have no game section (its payouts are its rules' parameters)",
                        layer.doc.where(("game",)))
    game_plain, game_house = unwrap_house(game_raw, "game")
    try:
        game = section.model_validate(game_plain) if section is not None else None
    except ValidationError as e:
        # point at the file of the top layer that defines `game`
        layer = next((layer for layer in reversed(layers) if layer.model.game), None)
        if layer is None:
            bases = [rs.id for rs in bundled_rulesets(include_abstract=True) if rs.abstract and rs.game_kind == game_kind
                     and rs.game is not None]
            raise UserError(f"no `game` section in this ruleset or any it extends: a {registry.get(game_kind).title} "
                            "ruleset needs one" + (f"; extend {' or '.join(bases)}" if bases else ""),
                            top.doc.where(())) from None
        raise _pydantic_error(layer.doc, ("game",), e) from None

    bound: list[BoundRule] = []
    disabled: list[str] = []
    skeleton = Ruleset(
        id=top.model.id, title=top.model.title, version=top.model.version, description=top.model.description,
        casino=top.model.casino,
        lineage=[layer.model.id for layer in reversed(layers)], path=top.doc.display, abstract=abstract,
        sources=sources, dealing_methods=methods, game_kind=game_kind, game=game, game_house=game_house, rules=[],
    )
    for rid in order:
        data, layer, at, (params_layer, params_at) = rules[rid]
        if not data.get("enabled", True):
            disabled.append(rid)
            continue
        kind = REGISTRY.get(data["check"])
        if kind is None:
            raise UserError(
                f"rule {rid!r}: unknown check kind {data['check']!r} (see `baccarat-audit rules kinds`)",
                layer.doc.where(at + ("check",)),
            )
        if kind.game is not None and kind.game != game_kind:
            raise UserError(f"rule {rid!r}: check kind {kind.name!r} judges {kind.game} coups, but the ruleset's "
                            f"game_kind is {game_kind}", layer.doc.where(at + ("check",)))
        plain, house = unwrap_house(data.get("params", {}), "params")
        try:
            params = kind.params.model_validate(plain, context={"game": game})  # the game section, to check against
        except ValidationError as e:
            raise _pydantic_error(params_layer.doc, params_at, e) from None
        citation = data.get("citation")
        if citation is None and not abstract:
            raise UserError(f"rule {rid!r} has no citation: every rule must cite its regulation paragraph",
                            layer.doc.where(at))
        cit = None
        if citation is not None:
            cit = Citation.model_validate(citation)
            if cit.source not in sources:
                raise UserError(f"rule {rid!r} cites unknown source {cit.source!r}", layer.doc.where(at + ("citation",)))
        by_game = _citations_by_game(data.get("citation_by_game") or {}, rid, sources, game, layer.doc.where(at))
        line, col = layer.doc.positions.get(at, (1, 1))
        bound.append(BoundRule(
            id=rid, title=data["title"], check=kind.name, category=kind.category,
            severity=data.get("severity", "error"), citation=cit, citation_text=skeleton.cite(cit),
            citation_by_game=by_game, citation_text_by_game={g: skeleton.cite(list(c)) for g, c in by_game.items()},
            summary=data.get("summary"), params=params, house=house,
            dealing_methods=frozenset(data["dealing_methods"]) if data.get("dealing_methods") else None,
            defined_in=layer.model.id, location=f"{layer.doc.display}:{line}",
        ))
    return skeleton.model_copy(update={"rules": bound, "disabled": disabled,
                                       "redirects": _redirects(layers, set(order), bound)})


# ------------------------------------------------------------------ history: amendments, options, selections


def _next_day(day: str) -> str:
    return (datetime.date.fromisoformat(day) + datetime.timedelta(days=1)).isoformat()


def _day_before(day: str) -> str:
    return (datetime.date.fromisoformat(day) - datetime.timedelta(days=1)).isoformat()


def _in_force(start: str, end: str | None, day: str) -> bool:
    return start <= day and (end is None or day <= end)


def _changes_of(game: dict | None, overrides: dict, rules: list, sources: dict) -> list[str]:
    """What an amendment or an option changes, one item a spot, variant, rule or source."""
    out = []
    for _path, key_path in leaves(game or {}, "game"):
        head = ".".join(str(k) for k in key_path[:3 if key_path[:1] == ("variants",) else 2])
        item = f"game.{head}" if head else "game"
        if item not in out:
            out.append(item)
    out += [f"rule {r.id} added" for r in rules]
    out += [f"rule {oid}: " + ", ".join(k for k, v in o.model_dump(exclude_unset=True).items() if v is not None)
            for oid, o in overrides.items()]
    out += [f"source {k}" for k in sources]
    return out


def _history_of(layers: list[_Layer]) -> tuple[list, dict, list]:
    """The chain's amendments [(layer, index, amendment)], its options {key: (layer, option)} and its selections
    [(layer, index, selection, the option's layer, option)], each checked as lint checks them: amendments in the
    order they took effect, a selection of an option the chain permits, from a day it is permitted."""
    amendments, options, selections = [], {}, []
    for layer in layers:
        m = layer.model
        last = None
        for i, a in enumerate(m.amendments):
            if last is not None and a.effective < last:
                raise UserError(f"amendment {a.id!r} takes effect {a.effective}, before the one listed above it "
                                f"({last}): list amendments in the order they took effect",
                                layer.doc.where(("amendments", i, "effective")))
            last = a.effective
            amendments.append((layer, i, a))
        for key, option in m.options.items():
            options[key] = (layer, option)
        for i, sel in enumerate(m.selections):
            where = layer.doc.where(("selections", i))
            found = options.get(sel.option)
            if found is None or found[0] is layer:
                listed = ", ".join(k for k, (lay, _) in options.items() if lay is not layer) or "none"
                raise UserError(f"selection of option {sel.option!r}, which the ruleset it extends does not permit "
                                f"(options: {listed})", layer.doc.where(("selections", i, "option")))
            olayer, option = found
            if option.since is not None and sel.since < option.since:
                raise UserError(f"selection of option {sel.option!r} from {sel.since}, before the jurisdiction "
                                f"permits it ({option.since})", layer.doc.where(("selections", i, "since")))
            if option.until is not None and (sel.until is None or sel.until > option.until):
                raise UserError(f"selection of option {sel.option!r} runs past {option.until}, the last day the "
                                f"jurisdiction permits it: give its `until`", where)
            selections.append((layer, i, sel, olayer, option))
    return amendments, options, selections


def _overlaps(amendments: list) -> list[tuple]:
    """Amendments of one file in force on a common day that change the same thing: (layer, index, message)."""
    out = []
    for n, (layer, i, a) in enumerate(amendments):
        mine = set(_changes_of(a.game, a.overrides, a.rules, a.sources))
        for other_layer, _j, b in amendments[:n]:
            if other_layer is not layer or b.ends is None or b.ends < a.effective:
                continue  # a permanent change is replaced by a later one, never overlapped
            common = mine & set(_changes_of(b.game, b.overrides, b.rules, b.sources))
            if common:
                out.append((layer, i, f"amendment {a.id!r} takes effect {a.effective}, while {b.id!r} (to {b.ends}) "
                                      f"is still in force, and both change {', '.join(sorted(common))}"))
    return out


def _merge_overrides(base: dict, over: dict, layer_id: str) -> dict:
    out = dict(base)
    for oid, o in over.items():
        if oid in out:
            old, new = out[oid].model_dump(exclude_unset=True), o.model_dump(exclude_unset=True)
            if "params" in old and "params" in new:
                new["params"] = merge_keeping_house(old["params"], new["params"], layer_id)
            out[oid] = type(o).model_validate({**old, **new})
        else:
            out[oid] = o
    return out


def _drop_removed(game: dict) -> dict:
    """A spot or variant an amendment writes null is removed (a variant's own null spots are the section's)."""
    out = dict(game)
    for key in ("spots", "variants"):
        if isinstance(out.get(key), dict):
            out[key] = {k: v for k, v in out[key].items() if v is not None}
    return out


def _layers_on(layers: list[_Layer], day: str | None, amendments: list, selections: list) -> list[_Layer]:
    """The chain as it stood on ``day``: each file with its amendments in force then, and the options selected
    then applied in the file that permits them (None: as first made)."""
    if day is None:
        return layers
    out = []
    for layer in layers:
        m = layer.model
        game, overrides, rules, sources = m.game, dict(m.overrides), list(m.rules), dict(m.sources)
        changes = [(a.game, a.overrides, a.rules, a.sources) for lay, _, a in amendments
                   if lay is layer and _in_force(a.effective, a.ends, day)]
        changes += [(o.game, o.overrides, [], {}) for _, _, sel, olay, o in selections
                    if olay is layer and _in_force(sel.since, sel.until, day)]
        if not changes:
            out.append(layer)
            continue
        for g, o, r, src in changes:
            if g:
                game = _drop_removed(merge_keeping_house(game or {}, g, m.id))
            own = {rule.id: i for i, rule in enumerate(rules)}
            for oid, change in o.items():  # a change to a rule of this same file is made to the rule itself
                if oid in own:
                    rule = rules[own[oid]]
                    old, new = rule.model_dump(exclude_unset=True), change.model_dump(exclude_unset=True)
                    if "params" in new:
                        new["params"] = merge_keeping_house(old.get("params", {}), new["params"], m.id)
                    rules[own[oid]] = type(rule).model_validate({**old, **{k: v for k, v in new.items()
                                                                           if v is not None}})
            overrides = _merge_overrides(overrides, {k: v for k, v in o.items() if k not in own}, m.id)
            rules += r
            sources.update(src)
        model = m.model_copy(update={"game": game, "overrides": overrides, "rules": rules, "sources": sources})
        out.append(_Layer(layer.doc, model, layer.path))
    return out


def _notes(layers: list[_Layer], amendments: list, selections: list, options: dict) -> list[AmendmentNote]:
    out = []
    for layer, _, a in amendments:
        out.append(AmendmentNote(id=a.id, kind="amendment", defined_in=layer.model.id, title=a.title, cite=a.cite,
                                 effective=a.effective, ends=a.ends,
                                 changes=_changes_of(a.game, a.overrides, a.rules, a.sources)))
    for layer, _, sel, _olayer, o in selections:
        cite = _cite_in(layers, o.citation) + (f"; {sel.submission}" if sel.submission else "")
        out.append(AmendmentNote(id=f"option:{sel.option}", kind="selection", defined_in=layer.model.id,
                                 title=o.title, cite=cite, effective=sel.since, ends=sel.until,
                                 changes=_changes_of(o.game, o.overrides, [], {})))
    return out


def _cite_in(layers: list[_Layer], c: Citation) -> str:
    sources = {}
    for layer in layers:
        sources.update(layer.model.sources)
    src = sources.get(c.source)
    return (src.cite_as if src else f"{c.source} ") + ", ".join(c.at)


def _spot_notes(day: str | None, amendments: list, selections: list, options: dict, layers) -> dict[str, dict]:
    """``spot_notes`` and ``spot_cites`` of the version of ``day``: why it lacks a spot its history has (the
    amendment that adds it not yet, or no longer, in force, or removing it; an option that adds it not selected
    by the house then), and what a wager on it cites (the register notice; the option's paragraph and the
    house's submission)."""
    notes: dict[str, list[str]] = {}
    cites: dict[str, list[str]] = {}

    def names(game):  # (what lint reports of a game written wrong is lint's: here such parts are passed over)
        g = game if isinstance(game, dict) else {}
        spots, variants = g.get("spots"), g.get("variants")
        yield from (spots.items() if isinstance(spots, dict) else ())
        for changes in (variants.values() if isinstance(variants, dict) else ()):
            yield from (changes.items() if isinstance(changes, dict) else ())

    for _, _, a in amendments:
        now = day is not None and _in_force(a.effective, a.ends, day)
        for name, value in names(a.game):
            days = f"in force from {a.effective}" + (f" to {a.ends}" if a.ends else "")
            if value is None and now:
                notes.setdefault(name, []).append(f"removed by amendment {a.id} ({a.cite}), {days}")
                cites.setdefault(name, []).append(a.cite)
            elif value is not None and not now:
                notes.setdefault(name, []).append(f"added by amendment {a.id} ({a.cite}), {days}")
                cites.setdefault(name, []).append(a.cite)
    chosen = {sel.option for _, _, sel, _, _ in selections if day is not None and _in_force(sel.since, sel.until, day)}
    for key, (_, o) in options.items():
        if key in chosen:
            continue
        made = [sel for _, _, sel, _, _ in selections if sel.option == key]
        chosen_when = "; ".join(f"selected from {sel.since}" + (f" to {sel.until}" if sel.until else "")
                                + (f" ({sel.submission})" if sel.submission else "") for sel in made)
        submitted = "; ".join(dict.fromkeys(sel.submission for sel in made if sel.submission)) \
            or (f"the submission of {layers[-1].model.id}" if layers[-1].model.casino else "no house's submission")
        for name, value in names(o.game):
            if value is not None:
                cites.setdefault(name, []).append(f"{_cite_in(layers, o.citation)}; {submitted}")
                notes.setdefault(name, []).append(
                    f"offered under the option {key} the jurisdiction permits ({_cite_in(layers, o.citation)}), "
                    f"which the submission of {layers[-1].model.id} does not select on this day"
                    + (f" ({chosen_when})" if chosen_when else ""))
    return {"spot_notes": {k: "; ".join(dict.fromkeys(v)) for k, v in notes.items()},
            "spot_cites": {k: "; ".join(dict.fromkeys(v)) for k, v in cites.items()}}


def _bind_history(layers: list[_Layer], *, allow_abstract: bool) -> Ruleset:
    """The ruleset as it stands now, with each version of its history (:attr:`Ruleset.versions`): the chain bound
    once for each stretch of days between the dates its amendments and selections take effect or end."""
    amendments, options, selections = _history_of(layers)
    for layer, i, message in _overlaps(amendments):
        raise UserError(message, layer.doc.where(("amendments", i)))
    option_notes = [OptionNote(key=k, title=o.title, citation=_cite_in(layers, o.citation), since=o.since,
                               until=o.until) for k, (_, o) in options.items()]
    if not amendments and not selections:
        ruleset = _bind(layers, allow_abstract=allow_abstract)
        return ruleset.model_copy(update={"options": option_notes, **_spot_notes(None, [], [], options, layers)}) \
            if option_notes else ruleset
    bounds: set[str] = set()
    for _, _, a in amendments:
        bounds.add(a.effective)
        if a.ends:
            bounds.add(_next_day(a.ends))
    for _, _, sel, _, _ in selections:
        bounds.add(sel.since)
        if sel.until:
            bounds.add(_next_day(sel.until))
    starts = [None, *sorted(bounds)]
    history = _notes(layers, amendments, selections, options)
    versions = []
    for n, start in enumerate(starts):
        end = _day_before(starts[n + 1]) if n + 1 < len(starts) else None
        in_force = [h for h in history if start is not None and _in_force(h.effective, h.ends, start)]
        try:
            bound = _bind(_layers_on(layers, start, amendments, selections), allow_abstract=allow_abstract)
        except UserError as e:
            raise UserError(f"the version in force from {start or 'the start'}"
                            + (f" ({', '.join(h.id for h in in_force)})" if in_force else "") + f": {e.message}",
                            e.where) from None
        base = next((layer.model for layer in layers if layer.model.cite or layer.model.effective), None)
        first = {"known_from": base.effective, "cite": base.cite} if base is not None and n == 0 else {}
        versions.append(bound.model_copy(update={
            "period": Period(start=start, end=end, in_force=in_force, **first), "options": option_notes,
            **_spot_notes(start, amendments, selections, options, layers)}))
    return versions[-1].model_copy(update={"history": history, "versions": versions})


def _redirects(layers: list[_Layer], ids: set[str], rules: list[BoundRule]) -> dict[str, str]:
    """The renamed rule ids of the chain (each file's over its parent's): old id -> the id of a rule it has now.

    An old id is a rule id of its own: never a category, a prefix of ids or categories, or a glob, which a
    selector already reads as naming other rules (``--select settlement`` must keep selecting the category)."""
    from compliance.categories import CATEGORIES
    from compliance.selection import names

    known = [(r.id, r.category) for r in rules] + [("", c) for c in CATEGORIES]
    out: dict[str, str] = {}
    for layer in layers:
        for old, new in layer.model.redirects.items():
            where = layer.doc.where(("redirects", old))
            if old in ids:
                raise UserError(f"redirect of {old!r}, which is the id of a rule: a renamed id names no rule",
                                where)
            named = next(((r, c) for r, c in known if names(old, r, c)), None)
            if named is not None:
                what = named[0] if named[0] and names(old, named[0], "") else named[1]
                raise UserError(f"redirect of {old!r}, which --select and --ignore read as a category or a prefix "
                                f"(it names {what}): an old id is a renamed rule's own id", where)
            if new not in ids:
                close = difflib.get_close_matches(new, sorted(ids), n=1)
                raise UserError(f"{old!r} redirects to {new!r}, which is no rule of the ruleset"
                                + (f" (did you mean {close[0]!r}?)" if close else ""), where)
            out[old] = new
    return out


def _house_only(layer: _Layer, game_raw: dict, rules: dict) -> None:
    """Refuse what a casino's house ruleset may not set, as ``ruleset lint`` reports it: lint and check agree."""
    m, doc = layer.model, layer.doc
    if m.rules:
        raise UserError(f"rule {m.rules[0].id!r}: a casino's house ruleset sets house parameters only; it defines "
                        "no rules", doc.where(("rules", 0, "id")))
    house = {n.path for n in unwrap_house(game_raw, "game")[1]}
    for key_path, message in house_overreach(m.game, house, _raw_spots_of(game_raw)) if m.game else ():
        raise UserError(message, doc.where(("game",) + key_path))
    for oid in m.overrides:
        if oid not in rules:
            continue  # an unreachable override: refused below
        data = rules[oid][0]
        paths = {n.path for n in unwrap_house(data.get("params", {}), "params")[1]}
        raw = (doc.data.get("overrides") or {}).get(oid) or {}
        for key_path, message in house_rule_overreach(oid, raw, paths):
            raise UserError(message, doc.where(("overrides", oid) + key_path))


def _citations_by_game(raw: dict, rid: str, sources: dict, game: Any, where: str) -> dict[str, tuple]:
    """A rule's ``citation_by_game``, validated: each game one the ruleset plays, each source one it declares."""
    out = {}
    for name, value in raw.items():
        if game is None or name not in game.variants:
            known = ", ".join(game.variants) if game is not None else "none"
            raise UserError(f"rule {rid!r}: citation_by_game names {name!r}, which is not a game of the ruleset "
                            f"(games: {known})", where)
        cits = citations(_as_citations(value))  # the rule as dumped: plain mappings
        for c in cits:
            if c.source not in sources:
                raise UserError(f"rule {rid!r}: citation_by_game {name!r} cites unknown source {c.source!r}", where)
        out[name] = cits
    return out


def _as_citations(value) -> list[Citation] | Citation:
    return [Citation.model_validate(v) for v in value] if isinstance(value, list) else Citation.model_validate(value)


def ruleset_json_schema() -> dict:
    """The JSON Schema of a ruleset file, for editors (yaml-language-server) and validators.

    Generated from :class:`RulesetFile`, with what the models alone cannot say:
    a rule's ``check`` is one of the registered check kinds, and its ``params``
    are that kind's parameters, each of which may be written as a house value
    ``{house: X, note: ...}``.
    """
    registry.load_checks()
    doc = RulesetFile.model_json_schema()
    doc["properties"]["game_kind"]["anyOf"][0] = {"enum": list(registry.PACKAGES), "type": "string"}  # the registry's
    defs = doc.setdefault("$defs", {})
    defs["HouseValue"] = HOUSE_VALUE_SCHEMA
    rule = defs["Rule"]
    rule["properties"]["check"]["enum"] = sorted(REGISTRY)
    branches = []
    for name in sorted(REGISTRY):
        ps = documented(REGISTRY[name].params).model_json_schema(ref_template="#/$defs/{model}")
        for k, v in ps.pop("$defs", {}).items():
            defs.setdefault(k, v)
        props = {
            key: {"anyOf": [value, {"$ref": "#/$defs/HouseValue"}], **(
                {"description": value["description"]} if "description" in value else {})}
            for key, value in ps.get("properties", {}).items()
        }
        params = {"type": "object", "properties": props, "additionalProperties": False}
        if ps.get("required"):
            params["required"] = ps["required"]
        branches.append({"if": {"properties": {"check": {"const": name}}, "required": ["check"]},
                         "then": {"properties": {"params": params}}})
    rule["allOf"] = branches
    doc["title"] = "baccarat-audit ruleset"
    doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return doc
