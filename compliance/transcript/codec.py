"""Fast decoding of transcripts: msgspec structs derived from the pydantic models.

The pydantic models of each game (``compliance.games.<game>.models``) are the one source
of truth.  This module walks their fields once, at import, and builds the
equivalent ``msgspec.Struct`` types (same names, same fields, same
constraints, unknown fields forbidden, the event union tagged by ``type``).
The hot path decodes straight into those structs, which is several times
faster than building pydantic objects; tests check that both decoders accept
and reject the same documents.
"""

from __future__ import annotations

import types
import typing
from decimal import Decimal

import annotated_types as at
import msgspec
from pydantic import AfterValidator, BaseModel
from pydantic.fields import FieldInfo

from compliance.transcript import fields

_structs: dict[type, type] = {}
_SHARED = fields.__name__  # the models every game's format shares


def _meta(metadata) -> msgspec.Meta | None:
    kw = {}
    for m in metadata:
        if isinstance(m, at.Ge):
            kw["ge"] = m.ge
        elif isinstance(m, at.Gt):
            kw["gt"] = m.gt
        elif isinstance(m, at.Le):
            kw["le"] = m.le
        elif isinstance(m, at.Lt):
            kw["lt"] = m.lt
        elif isinstance(m, at.MinLen):
            kw["min_length"] = m.min_length
        elif isinstance(m, at.MaxLen):
            kw["max_length"] = m.max_length
        elif getattr(m, "pattern", None):
            kw["pattern"] = m.pattern
    return msgspec.Meta(**kw) if kw else None


def _convert(tp, metadata=(), prefix: str = ""):
    """msgspec type for a pydantic annotation (only the forms the models use); ``prefix``: see :func:`_struct`."""
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        base, *extra = typing.get_args(tp)
        flat = []
        for e in extra:
            flat.extend(e.metadata if isinstance(e, FieldInfo) else [e])
        discriminator = next((e.discriminator for e in extra if isinstance(e, FieldInfo) and e.discriminator), None)
        if discriminator:
            return _convert(base, prefix=prefix)
        return _convert(base, tuple(metadata) + tuple(flat), prefix)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return _struct(tp, prefix)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        return typing.Union[tuple(  # noqa: UP007 (a union of types known only at run time)
            _convert(a, metadata if a is not type(None) else (), prefix) for a in args)]
    if origin is list:
        (item,) = typing.get_args(tp)
        inner = list[_convert(item, prefix=prefix)]
        meta = _meta(metadata)
        return typing.Annotated[inner, meta] if meta else inner
    if origin is dict:
        k, v = typing.get_args(tp)
        if k == fields.SeatKey:  # msgspec reads a key of digits into int itself (no regex, no int() later)
            return dict[typing.Annotated[int, msgspec.Meta(ge=0)], _convert(v, prefix=prefix)]
        return dict[_convert(k, prefix=prefix), _convert(v, prefix=prefix)]
    if tp is Decimal:
        # msgspec has no numeric constraints on Decimal: _struct checks them in __post_init__
        return Decimal
    if origin is typing.Literal or tp in (int, str, bool, type(None)):
        meta = _meta(metadata)
        return typing.Annotated[tp, meta] if meta else tp
    raise TypeError(f"no msgspec form for {tp!r}")


def _decimal_bounds(annotation, metadata) -> list:
    """The annotated_types bounds on a Decimal field (possibly Optional)."""
    found = list(metadata)
    stack = [annotation]
    while stack:
        tp = stack.pop()
        if typing.get_origin(tp) is typing.Annotated:
            base, *extra = typing.get_args(tp)
            if base is Decimal:
                for e in extra:
                    found.extend(e.metadata if isinstance(e, FieldInfo) else [e])
            stack.append(base)
        elif typing.get_origin(tp) in (typing.Union, types.UnionType):
            stack.extend(typing.get_args(tp))
    return [m for m in found if isinstance(m, (at.Ge, at.Gt, at.Le, at.Lt, AfterValidator))]


_COMPARISONS = (("ge", ">=", ">="), ("gt", ">", ">"), ("le", "<=", "<="), ("lt", "<", "<"))  # bound, operator, word


def _check_decimals(bounded):
    """``__post_init__`` checking the Decimal fields' bounds (msgspec has none for Decimal), and running their
    ``AfterValidator`` checks (which raise ValueError: a commission rate of 1e-999999999).

    This runs for every amount read, so the comparisons are written out once, here, as the body of
    the function (a field at a time: None passes, then finite, then each bound in order; the messages
    are those the pydantic models give).
    """
    lines, constants = ["def __post_init__(self):"], {}
    for name, bounds in bounded:
        lines += [f"    v = self.{name}", "    if v is not None:",
                  "        if not v.is_finite():",
                  f"            raise ValueError('`{name}` must be a finite number')"]
        for b in bounds:
            if isinstance(b, AfterValidator):  # the model's own check of the value (a rate's places): run as is
                constant = f"_b{len(constants)}"
                constants[constant] = b.func
                lines += [f"        {constant}(v)"]
                continue
            for op, symbol, word in _COMPARISONS:
                bound = getattr(b, op, None)
                if bound is None:
                    continue
                constant = f"_b{len(constants)}"
                constants[constant] = bound
                lines += [f"        if not v {symbol} {constant}:",
                          f"            raise ValueError(f'`{name}` must be {word} {{{constant}}}, got {{v}}')"]
    namespace: dict = {}
    exec("\n".join(lines), constants, namespace)  # noqa: S102  (our own text, from the models' bounds)
    return namespace["__post_init__"]


def _flat_types(tp) -> set:
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return _flat_types(typing.get_args(tp)[0])
    if origin in (typing.Union, types.UnionType):
        return set().union(*(_flat_types(a) for a in typing.get_args(tp)))
    return {tp}


def _struct(model: type[BaseModel], prefix: str = "") -> type:
    """The struct of ``model``, named ``prefix`` + the model's name: games whose models share names (Wager,
    Settle) give their codecs different prefixes.  The shared pieces of :mod:`compliance.transcript.fields`
    (one struct for every game) keep their bare names."""
    if model in _structs:
        return _structs[model]
    if model.__module__ == _SHARED:
        prefix = ""
    fields = []
    bounded = []
    for name, info in model.model_fields.items():
        if Decimal in _flat_types(info.annotation):
            bounds = _decimal_bounds(info.annotation, info.metadata)
            bounded.append((name, bounds))
        tp = _convert(info.annotation, info.metadata, prefix)
        if info.is_required():
            fields.append((name, tp))
        else:
            fields.append((name, tp, info.default))
    tag = None
    type_field = model.model_fields.get("type")
    if type_field is not None:
        (tag,) = typing.get_args(type_field.annotation)
        fields = [f for f in fields if f[0] != "type"]
    struct = msgspec.defstruct(
        prefix + model.__name__,
        fields,
        kw_only=True,
        forbid_unknown_fields=True,
        frozen=True,
        omit_defaults=True,  # encoded, a struct holds only the text's pairs (reading.duplicates counts on it)
        gc=False,  # scalars and lists only: no reference cycles, so the collector need not track them
        tag_field="type" if tag else None,
        tag=tag,
        module=__name__,
        namespace={"__post_init__": _check_decimals(bounded)} if bounded else None,
    )
    struct.type = tag  # the event type, readable on every instance
    globals()[struct.__name__] = struct  # importable by name, so decoded coups pickle (parallel workers send them)
    _structs[model] = struct
    return struct


CARD_WORDS = "rank (A 2-9 T J Q K) then suit (S H D C)"  # what a card code is, unless a game says otherwise


class _Version(msgspec.Struct):
    version: object = None


_version_decoder = msgspec.json.Decoder(_Version)


class Codec:
    """The msgspec structs and decoders of one transcript format, derived from its pydantic models.

    ``header`` and ``coup`` are the models of a header and of one coup (with
    its events).  ``prefix`` goes in front of the name of each struct (a game's models may share names with
    another's: its codec gives them its own prefix; baccarat's keep the bare names of the first format).  Every game's format is
    derived by this one walk, so each stays identical to its models.

    ``frozen`` gives the models of an earlier version of the format that a
    document of that version is read by instead (``{1: (HeaderV1, CoupV1)}``):
    a later version adds to the format, and a document of the earlier one reads
    exactly as it always did, errors included.  :meth:`for_document` picks the
    codec by the header's ``version``: a revision written as a string (``"1.1"``)
    is this codec's to read or refuse; anything else (``1``, ``2``, an
    unreadable header) goes to the earlier codec, which reads or refuses it as
    it always did.
    """

    def __init__(self, header: type[BaseModel], coup: type[BaseModel], card_words: str = CARD_WORDS,
                 frozen: tuple[type[BaseModel], type[BaseModel]] | None = None, prefix: str = ""):
        self.card_words = card_words  # what a card code is, for the reader's "bad card code" message
        self.Header = _struct(header, prefix)
        self.Coup = _struct(coup, prefix)  # its events' structs too, through the tagged union of its `events` field
        self.header_decoder = msgspec.json.Decoder(self.Header)
        self.coup_decoder = msgspec.json.Decoder(self.Coup)
        self.earlier = Codec(*frozen, card_words=card_words, prefix=prefix) if frozen else None

    def for_document(self, header: bytes) -> Codec:
        """The codec of the version a header names (read before the header is validated)."""
        if self.earlier is None:
            return self
        try:
            version = _version_decoder.decode(header).version
        except (msgspec.DecodeError, RecursionError):
            return self.earlier
        # a version written as a string is a revision ("1.1", or one this reader does not know: it says which)
        return self if isinstance(version, str) else self.earlier


strip_vendor_keys = fields.strip_vendor_keys  # one definition for both decoders


def keys_at(struct: type, path: list[str | int]) -> list[str]:
    """The keys an object at ``path`` (keys and indexes, from the root ``struct``) may have, for "did you mean":
    a union (the events) gives the keys of each of its structs."""
    here: set = {struct}
    for part in path:
        nxt: set = set()
        for tp in here:
            for t in _flat_types(tp):
                if isinstance(part, str) and isinstance(t, type) and issubclass(t, msgspec.Struct):
                    field = next((f for f in msgspec.structs.fields(t) if f.encode_name == part), None)
                    if field is not None:
                        nxt |= _flat_types(field.type)
                elif isinstance(part, int) and typing.get_origin(t) is list:
                    nxt |= _flat_types(typing.get_args(t)[0])
                elif typing.get_origin(t) is dict:  # keyed by seat or spot: any key
                    nxt |= _flat_types(typing.get_args(t)[1])
        here = nxt
    keys: set[str] = set()
    for tp in here:
        for t in _flat_types(tp):
            if isinstance(t, type) and issubclass(t, msgspec.Struct):
                keys |= {f.encode_name for f in msgspec.structs.fields(t)}
                if t.__struct_config__.tag_field:
                    keys.add(t.__struct_config__.tag_field)
    return sorted(keys)
