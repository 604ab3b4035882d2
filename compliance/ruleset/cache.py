"""Validated rulesets kept between runs: a check need not parse YAML and validate every rule each time.

:func:`load` is :func:`compliance.ruleset.loader.load_ruleset` through the cache: an entry
made from the same files, version and code is used (:func:`read`); otherwise the YAML is
loaded and the entry written anew (:func:`write`).  :func:`encode` and :func:`decode` are
the JSON form of the ruleset's models, directed by their field types.  The entries live in
the user's cache directory (:mod:`compliance.cachedir`).

What an entry holds, when it is used, and why its body is decoded rather than trusted:
docs/reports.md, "The ruleset cache"; docs/security.md, "The user's cache".
"""

from __future__ import annotations

import hashlib
import types
import typing
from decimal import Decimal
from pathlib import Path

import msgspec
from pydantic import BaseModel

import compliance
from compliance import cachedir, registry
from compliance.checks import REGISTRY
from compliance.conditions import CONDITIONS
from compliance.limits import DEFAULTS, Limits
from compliance.ruleset.loader import chain_sha256, load_ruleset, resolve_ref
from compliance.ruleset.models import BoundRule, Condition, Ruleset

FORMAT = 1  # of the files; another format is a stale file


class Header(msgspec.Struct, forbid_unknown_fields=True):
    """The first line of a cached ruleset: what it was made from, and the digest of the body."""

    format: int
    version: str
    code: str
    ref: str
    top: str
    abstract: bool
    game_kind: str
    files: list[str]  # each file of the extends chain, the base first
    chain: str  # the content hash of those files, as the load read them (Ruleset.sha256)
    digest: str  # SHA-256 of the body


def load(ref: str, *, allow_abstract: bool = False, enabled: bool = True, bounds: Limits = DEFAULTS) -> Ruleset:
    """The ruleset ``ref`` (a bundled id or a path), from the cache when it is there and still valid;
    ``enabled`` and ``bounds``: the run context's cache use and limits."""
    root = cachedir.root(enabled)
    if root is None:
        return load_ruleset(ref, allow_abstract=allow_abstract, bounds=bounds)
    top = str(resolve_ref(ref, None)[0].resolve())  # an unknown bundled id fails here as it would when loading
    name = "rulesets/" + hashlib.sha256(f"{ref}\0{top}\0{allow_abstract}".encode()).hexdigest()[:32] + ".json"
    found = read(root, name, ref, top, allow_abstract)
    if found is not None:
        return found
    ruleset = load_ruleset(ref, allow_abstract=allow_abstract, bounds=bounds)
    write(root, name, ref, top, allow_abstract, ruleset)
    return ruleset


#: entries decoded in this process, by (digest of the body, content hash of the files): an entry read again
#: is checked as above, then not decoded again (a Ruleset is frozen)
_DECODED: dict[tuple[str, str], Ruleset] = {}


def read(root: Path, name: str, ref: str, top: str, allow_abstract: bool) -> Ruleset | None:
    """The ruleset in the entry ``name`` if it is the user's own (:func:`compliance.cachedir.read`: owned,
    authenticated), whole, and made by this code from these files as they are now.  Its hash is the one worked
    out now from the files' bytes, never the one the entry holds."""
    data = cachedir.read(root, name)
    if data is None:
        return None
    try:
        head, _, body = data.partition(b"\n")
        h = msgspec.json.decode(head, type=Header)
        if (h.format, h.version, h.code, h.ref, h.top, h.abstract) != (
                FORMAT, compliance.__version__, cachedir.code_fingerprint(), ref, top, allow_abstract):
            return None
        if hashlib.sha256(body).hexdigest() != h.digest or h.game_kind not in registry.PACKAGES:
            return None
        digests = []
        for path in h.files:
            with open(path, "rb") as f:
                digests.append(hashlib.sha256(f.read()).hexdigest())
        chain = chain_sha256(digests)  # of the files as they are now: what the report names
        if chain != h.chain:
            return None
        registry.load_checks(h.game_kind)
        key = (h.digest, chain)
        ruleset = _DECODED.get(key) or decode(msgspec.json.decode(body))
        if (ruleset.files, ruleset.sha256) != (h.files, chain):
            return None
        if len(_DECODED) >= 64:
            _DECODED.clear()
        _DECODED[key] = ruleset
        return ruleset
    except (OSError, ValueError, TypeError, KeyError, IndexError, ArithmeticError, RecursionError):
        return None  # missing, unreadable, corrupt, or not of this code's shape: load the YAML again


def write(root: Path, name: str, ref: str, top: str, allow_abstract: bool, ruleset: Ruleset) -> None:
    """Keep ``ruleset`` as the entry ``name`` (:func:`compliance.cachedir.write`), if its JSON gives it back
    whole; any failure: skip."""
    try:
        plain = encode(ruleset)
        body = msgspec.json.encode(plain)
        if decode(msgspec.json.decode(body)) != ruleset:
            return
        header = Header(FORMAT, compliance.__version__, cachedir.code_fingerprint(), ref, top, allow_abstract,
                        ruleset.game_kind, list(ruleset.files), ruleset.sha256, hashlib.sha256(body).hexdigest())
        cachedir.write(root, name, msgspec.json.encode(header) + b"\n" + body)
    except (OSError, TypeError, ValueError, KeyError, ArithmeticError, RecursionError):
        return


# ------------------------------------------------------------------ the JSON form of the models
#
# Directed by the models' field types, so that each value comes back as the type it had: a Decimal as
# the same Decimal (its digits and exponent), a dict with int keys as such, a frozenset as a frozenset.
# A value the field's type does not describe exactly is a TypeError (not cached / not read).


def _params_type(data: dict) -> type:
    """A bound rule's parameters are its check kind's model."""
    return REGISTRY[data["check"]].params


def _condition_type(data: dict) -> type:
    """A spot's condition keeps its parameters, validated, as its condition kind's model."""
    return CONDITIONS[data["kind"]].params


def _section_type(data: dict):
    """A ruleset's `game` section is its game's model (from the registry of games), or None where the game has
    none (``game_kind`` comes before ``game`` in the ruleset, so it is known when the section is written)."""
    section = registry.get(data["game_kind"]).section
    return typing.Optional[section] if section is not None else typing.Literal[None]  # noqa: UP045


#: fields typed Any whose values are models: the model, from the JSON of the object holding them
FIELD_TYPES = {(BoundRule, "params"): _params_type, (Ruleset, "game"): _section_type}
#: private attributes of models written flat (their extra keys are their data) that hold the validated data
PRIVATE_TYPES = {(Condition, "_params"): _condition_type}


def encode(ruleset: Ruleset):
    return _encode(ruleset, Ruleset)


def decode(plain) -> Ruleset:
    return _decode(plain, Ruleset)


def _strip(tp):
    while typing.get_origin(tp) is typing.Annotated:  # the constraints were checked when the value was validated
        tp = typing.get_args(tp)[0]
    return tp


def _arms(tp) -> tuple | None:
    return typing.get_args(tp) if typing.get_origin(tp) in (typing.Union, types.UnionType) else None


def _fits(value, tp) -> bool:
    tp = _strip(tp)
    if tp is typing.Any:
        return True
    arms = _arms(tp)
    if arms is not None:
        return any(_fits(value, a) for a in arms)
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return any(type(value) is type(a) and value == a for a in typing.get_args(tp))
    if origin is not None:
        return isinstance(value, origin)
    if tp is type(None):
        return value is None
    return type(value) is tp


def _encode(value, tp):
    tp = _strip(tp)
    if tp is typing.Any:
        return _encode_any(value)
    arms = _arms(tp)
    if arms is not None:
        if value is None and type(None) in arms:
            return None
        options = [a for a in arms if a is not type(None)]
        if len(options) == 1:
            return _encode(value, options[0])
        i = next(i for i, a in enumerate(options) if _fits(value, a))  # StopIteration: no arm
        return [i, _encode(value, options[i])]
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        if not _fits(value, tp):
            raise TypeError(f"{value!r} is not one of {typing.get_args(tp)}")
        return value
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        if type(value) is not tp:
            raise TypeError(f"{type(value).__name__} where the field holds {tp.__name__}")
        out = {}
        for name, info in tp.model_fields.items():
            field_type = FIELD_TYPES.get((tp, name))
            out[name] = _encode(getattr(value, name), field_type(out) if field_type else info.annotation)
        unset = set(tp.model_fields) - value.model_fields_set
        if unset:
            out["$unset"] = sorted(unset)
        if tp.model_config.get("extra") == "allow":  # written flat (a spot's condition): its extra keys are its data
            out["$extra"] = _encode_any(dict(value.model_extra or {}))
            out["$private"] = {name: _encode(getattr(value, name), kind(out))
                               for (model, name), kind in PRIVATE_TYPES.items() if model is tp}
        return out
    if origin in (list, tuple, set, frozenset):
        if not isinstance(value, origin):
            raise TypeError(f"{type(value).__name__} where the field holds a {origin.__name__}")
        args = typing.get_args(tp)
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            if len(args) != len(value):
                raise TypeError("a tuple of another length")
            return [_encode(v, a) for v, a in zip(value, args)]
        item = args[0] if args else typing.Any
        items = sorted(value) if origin in (set, frozenset) else value
        return [_encode(v, item) for v in items]
    if origin is dict:
        if not isinstance(value, dict):
            raise TypeError(f"{type(value).__name__} where the field holds a dict")
        k, v = typing.get_args(tp) or (typing.Any, typing.Any)
        return [[_encode(key, k), _encode(item, v)] for key, item in value.items()]
    if tp is Decimal:
        if type(value) is not Decimal:
            raise TypeError(f"{type(value).__name__} where the field holds a Decimal")
        return str(value)  # exactly its digits and exponent
    if tp in (str, int, float, bool, type(None)):  # a float: a statistical level, never money
        if type(value) is not tp:
            raise TypeError(f"{type(value).__name__} where the field holds {tp.__name__}")
        return value
    raise TypeError(f"no JSON form for {tp!r}")


def _decode(data, tp):
    tp = _strip(tp)
    if tp is typing.Any:
        return _decode_any(data)
    arms = _arms(tp)
    if arms is not None:
        if data is None and type(None) in arms:
            return None
        options = [a for a in arms if a is not type(None)]
        if len(options) == 1:
            return _decode(data, options[0])
        i, inner = _list(data)
        if type(i) is not int or not 0 <= i < len(options):
            raise TypeError("no such arm of the union")
        return _decode(inner, options[i])
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        if not _fits(data, tp):
            raise TypeError(f"{data!r} is not one of {typing.get_args(tp)}")
        return data
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        if type(data) is not dict:
            raise TypeError(f"{tp.__name__}: not an object")
        unset = data.get("$unset", [])
        flat = tp.model_config.get("extra") == "allow"
        if set(data) - {"$unset", "$extra", "$private"} != set(tp.model_fields) \
                or not set(unset) <= set(tp.model_fields) or ("$extra" in data) != flat or ("$private" in data) != flat:
            raise TypeError(f"{tp.__name__}: other fields")
        values = {}
        for name, info in tp.model_fields.items():
            field_type = FIELD_TYPES.get((tp, name))
            values[name] = _decode(data[name], field_type(data) if field_type else info.annotation)
        if not flat:
            return tp.model_construct(_fields_set=set(tp.model_fields) - set(unset), **values)
        # written flat (a spot's condition): its extra keys as the YAML gave them, and what it validated them into
        extra = _decode_any(data["$extra"])
        private = data["$private"]
        names = {name: kind for (model, name), kind in PRIVATE_TYPES.items() if model is tp}
        if type(extra) is not dict or set(extra) & set(values) or type(private) is not dict or set(private) != set(names):
            raise TypeError(f"{tp.__name__}: other extra keys")
        made = tp.model_construct(_fields_set=(set(tp.model_fields) - set(unset)) | set(extra), **values, **extra)
        for name, kind in names.items():
            setattr(made, name, _decode(private[name], kind(data)))
        return made
    if origin in (list, tuple, set, frozenset):
        items = _list(data)
        args = typing.get_args(tp)
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            if len(args) != len(items):
                raise TypeError("a tuple of another length")
            return tuple(_decode(v, a) for v, a in zip(items, args))
        item = args[0] if args else typing.Any
        return origin(_decode(v, item) for v in items)
    if origin is dict:
        k, v = typing.get_args(tp) or (typing.Any, typing.Any)
        out = {}
        for pair in _list(data):
            key, item = _list(pair)
            out[_decode(key, k)] = _decode(item, v)
        return out
    if tp is Decimal:
        if type(data) is not str:
            raise TypeError("a Decimal is written as a string")
        return Decimal(data)  # InvalidOperation (an ArithmeticError) if it is not a number
    if tp in (str, int, float, bool, type(None)):  # a float: a statistical level, never money
        if type(data) is not tp:
            raise TypeError(f"{type(data).__name__} where the field holds {tp.__name__}")
        return data
    raise TypeError(f"no JSON form for {tp!r}")


def _list(data) -> list:
    if type(data) is not list:
        raise TypeError("not an array")
    return data


# A value typed Any (a house parameter's value, a game variant's changes) is plain YAML data: null, true,
# an int, a string as they are; a Decimal, a list and a mapping (its keys strings or ints) tagged.


def _encode_any(value):
    if value is None or type(value) in (bool, int, str):
        return value
    if type(value) is Decimal:
        return ["decimal", str(value)]
    if type(value) is list:
        return ["list", [_encode_any(v) for v in value]]
    if type(value) is dict:
        if not all(type(k) in (str, int) for k in value):
            raise TypeError("a mapping's keys are strings or numbers")
        return ["map", [[k, _encode_any(v)] for k, v in value.items()]]
    raise TypeError(f"no JSON form for a {type(value).__name__}")


def _decode_any(data):
    if data is None or type(data) in (bool, int, str):
        return data
    tag, inner = _list(data)
    if tag == "decimal" and type(inner) is str:
        return Decimal(inner)
    if tag == "list":
        return [_decode_any(v) for v in _list(inner)]
    if tag == "map":
        out = {}
        for pair in _list(inner):
            k, v = _list(pair)
            if type(k) not in (str, int):
                raise TypeError("a mapping's keys are strings or numbers")
            out[k] = _decode_any(v)
        return out
    raise TypeError(f"unknown tag {tag!r}")
