"""The two decoders of the transcript format agree (spec: the format; the models are its one source of truth).

The pydantic models (:mod:`compliance.games.baccarat.models`) publish the JSON
Schema; the msgspec structs derived from them (:mod:`compliance.transcript.codec`)
read transcripts on the hot path.  Whatever one accepts the other accepts,
with the same content; whatever one refuses the other refuses.  Hypothesis
breaks valid documents one value, key or type at a time.
"""

from __future__ import annotations

import copy
import json
from decimal import Decimal

import msgspec
import pytest
from builders import coup, dumps, header
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from compliance.games.baccarat import GAME, models
from compliance.reading.reader import _decode, decode_coup

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _every_event_type() -> dict:
    """One coup holding every event type of the format, each with its optional fields."""
    c = coup(7, ["4H", "TD", "3S"], ["KS", "6C"], [(1, "player", 100), (2, "banker", "250.50")])
    c["dealing_method"] = "A"
    c["no_bet"] = False
    c["seated"] = {"1": "P-1", "2": "P-2"}
    c["events"] += [
        {"type": "offer", "item": "shoe", "seat": 1, "accepted": True, "at": "2026-11-29T20:00:00Z"},
        {"type": "shoe_return"},
        {"type": "wager", "patron": "P-9", "spot": "tie", "amount": 5},
        {"type": "wager_adjust", "seat": 1, "spot": "player", "amount": 50, "reason": "table_differential"},
        {"type": "card", "card": "10H", "to": "discard", "face": "down", "found_face_up": True, "carried_over": False},
        {"type": "card_move", "card": "3S", "to": "next_coup"},
        {"type": "reconstruct", "player": ["4H", "TD"], "banker": ["KS", "6C"]},
        {"type": "hand_pass", "hand": "banker", "seat": 2, "accepted": False, "cards": "third"},
        {"type": "hand_return", "hand": "banker"},
        {"type": "commission", "seat": 2, "amount": 12.5},
        {"type": "void", "reason": "other", "note": "camera fault"},
    ]
    return c


VALID_COUP = _every_event_type()
VALID_HEADER = header("au-nsw", commission=0.04, seat_order=[1, 2, 3, 5, 6, 7, 8], currency="AUD") | {
    "shoes": [{"id": "S1", "decks": 8}, {"id": "S2", "decks": 6}]}

REPLACEMENTS = st.sampled_from([
    None, True, False, 0, 1, -1, 7, 10, 17, 1.5, 1.0, 1e300, 1e-7, "", "x", "7", "1.5", "AS", "10C", "ZZ", "player",
    "banker", "tie", "up", "shoe", "initial", "no_more_bets", [], ["AS"], [1], {}, {"a": 1}, {"x-a": 1}, {"1": "P"},
    "NaN", "Infinity", "-5",
])
KEYS = st.sampled_from(["x-vendor", "x-", "amout", "type", "coup", "Card", "note", "seat", "patron", "X-upper"])


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


@st.composite
def broken(draw, valid):
    doc = copy.deepcopy(json.loads(dumps(valid)))
    paths = list(_paths(doc))
    for _ in range(draw(st.integers(1, 2))):
        path = draw(st.sampled_from(paths))
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        how = draw(st.sampled_from(["replace", "delete", "add key"]))
        if how == "replace" and path:
            parent[path[-1]] = copy.deepcopy(draw(REPLACEMENTS))
        elif how == "delete" and path and isinstance(parent, (dict, list)):
            del parent[path[-1]]
        else:
            target = parent[path[-1]] if path else doc
            if isinstance(target, dict):
                target[draw(KEYS)] = copy.deepcopy(draw(REPLACEMENTS))
        paths = list(_paths(doc))
    return json.dumps(doc).encode()


def _pydantic(model, raw: bytes):
    try:
        return model.model_validate_json(raw).model_dump(mode="json")
    except ValidationError:
        return None


def _msgspec_coup(raw: bytes):
    record = decode_coup(raw, 1, 1, "$")
    return None if record.error else _plain(record.coup)


def _msgspec_header(raw: bytes):
    try:
        return _plain(_decode(raw, GAME.codec.header_decoder))
    except msgspec.ValidationError:
        return None


def _plain(struct) -> dict:
    """The struct as JSON-like builtins, every field (those at their default too: the structs leave them out
    when encoded), amounts as text, so both decoders compare like for like."""
    if isinstance(struct, msgspec.Struct):
        config = type(struct).__struct_config__
        fields = {f: _plain(getattr(struct, f)) for f in struct.__struct_fields__}
        return {config.tag_field: config.tag, **fields} if config.tag_field else fields
    if isinstance(struct, list):
        return [_plain(x) for x in struct]
    if isinstance(struct, dict):
        return {str(k): _plain(v) for k, v in struct.items()}
    return str(struct) if isinstance(struct, Decimal) else struct


def _same(a, b):
    """Same content; numbers compared as exact decimals (pydantic writes 250.5 as "250.5", msgspec too)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, str) and isinstance(b, str) and a != b:
        try:
            return Decimal(a) == Decimal(b)
        except ArithmeticError:
            return False
    return a == b


def test_the_valid_documents_are_valid_for_both():
    raw_coup, raw_header = dumps(VALID_COUP).encode(), dumps(VALID_HEADER).encode()
    assert _pydantic(models.Coup, raw_coup) is not None
    assert _same(_pydantic(models.Coup, raw_coup), _msgspec_coup(raw_coup))
    assert _pydantic(models.Header, raw_header) is not None
    assert _same(_pydantic(models.Header, raw_header), _msgspec_header(raw_header))


@SETTINGS
@given(raw=broken(VALID_COUP))
def test_both_decoders_judge_a_coup_alike(raw):
    by_models, by_structs = _pydantic(models.Coup, raw), _msgspec_coup(raw)
    assert (by_models is None) == (by_structs is None), raw
    if by_models is not None:
        assert _same(by_models, by_structs), raw


@SETTINGS
@given(raw=broken(VALID_HEADER))
def test_both_decoders_judge_a_header_alike(raw):
    by_models, by_structs = _pydantic(models.Header, raw), _msgspec_header(raw)
    assert (by_models is None) == (by_structs is None), raw
    if by_models is not None:
        assert _same(by_models, by_structs), raw


@pytest.mark.parametrize("raw", [
    b'{"coup": 1, "shoe": "S1", "events": [], "x-a": {"anything": [1, 2]}}',
    b'{"coup": 1, "shoe": "S1", "events": [{"type": "shoe_return", "x-by": "pit"}]}',
    b'{"coup": 1, "shoe": "S1", "events": [], "seated": {"1": "P-1", "x-note": "vip"}}',
])
def test_vendor_keys_are_ignored_by_both(raw):
    assert _pydantic(models.Coup, raw) is not None
    assert _msgspec_coup(raw) is not None


@pytest.mark.parametrize("raw", [
    b'{"coup": "1", "shoe": "S1", "events": []}',
    b'{"coup": 1.0, "shoe": "S1", "events": []}',
    b'{"coup": true, "shoe": "S1", "events": []}',
    b'{"coup": 1, "shoe": "S1", "events": [], "no_bet": 0}',
    b'{"coup": 1, "shoe": "S1", "events": [{"type": "card", "card": "as", "to": "player"}]}',
    b'{"coup": 1, "shoe": "S1", "events": [{"type": "wager", "seat": 1, "spot": "player", "amount": -5}]}',
    b'{"coup": 1, "shoe": "S1", "events": [{"type": "wager", "seat": 1, "spot": "player", "amount": "NaN"}]}',
    b'{"coup": 1, "shoe": "S1", "events": [{"type": "result", "player_points": 10, "banker_points": 0, "winner": "tie"}]}',
    b'{"coup": 1, "shoe": "S1", "events": [], "seated": {"one": "P-1"}}',
    b'{"coup": 1, "shoe": "S1", "events": [], "seated": {"03": "P-1"}}',
    b'{"coup": 1, "shoe": "S1", "events": [], "seated": {"-3": "P-1"}}',
    b'{"coup": 1, "shoe": "S1", "events": [], "seated": {"+3": "P-1"}}',
    b'{"coup": 1, "shoe": "S1", "events": [], "seated": {"3": 4}}',
])
def test_refused_by_both(raw):
    assert _pydantic(models.Coup, raw) is None
    assert _msgspec_coup(raw) is None


def test_seat_keys_are_read_as_seat_numbers():
    raw = b'{"coup": 1, "shoe": "S1", "events": [], "seated": {"0": "P-0", "12": "P-12"}}'
    assert decode_coup(raw, 1, 1, "$").coup.seated == {0: "P-0", 12: "P-12"}
    with_vendor = raw.replace(b'"0"', b'"x-vip": true, "0"')
    assert decode_coup(with_vendor, 1, 1, "$").coup.seated == {0: "P-0", 12: "P-12"}


def test_amounts_are_exact_decimals_on_the_hot_path():
    raw = b'{"coup": 1, "shoe": "S1", "events": [{"type": "wager", "seat": 1, "spot": "player", "amount": 0.30000000000000001}]}'
    assert decode_coup(raw, 1, 1, "$").coup.events[0].amount == Decimal("0.30000000000000001")
    with_vendor = raw.replace(b'"seat"', b'"x-chip": "red", "seat"')
    assert decode_coup(with_vendor, 1, 1, "$").coup.events[0].amount == Decimal("0.30000000000000001")


# ------------------------------------------------------------------ format version 1, as frozen

V1 = GAME.codec.earlier  # the decoders a document of version 1 is read by


def _msgspec_v1_coup(raw: bytes):
    record = decode_coup(raw, 1, 1, "$", V1)
    return None if record.error else _plain(record.coup)


@SETTINGS
@given(raw=broken(VALID_COUP))
def test_both_decoders_judge_a_version_1_coup_alike(raw):
    by_models, by_structs = _pydantic(models.CoupV1, raw), _msgspec_v1_coup(raw)
    assert (by_models is None) == (by_structs is None), raw
    if by_models is not None:
        assert _same(by_models, by_structs), raw


def test_version_1_knows_three_spots_and_1_1_any_the_table_declares():
    side = b'{"coup": 1, "shoe": "S1", "events": [{"type": "wager", "seat": 1, "spot": "dragon_7", "amount": 5}]}'
    assert _pydantic(models.Coup, side) is not None and _msgspec_coup(side) is not None
    assert _pydantic(models.CoupV1, side) is None
    assert decode_coup(side, 1, 1, "$", V1).error == "Invalid enum value 'dragon_7' - at `$.events[0].spot`"
    head = dumps(VALID_HEADER | {"version": "1.1"}).encode()
    assert GAME.codec.for_document(head) is GAME.codec
    assert GAME.codec.for_document(dumps(VALID_HEADER).encode()) is V1
    assert GAME.codec.for_document(b"not json") is V1
