"""Hostile input never crashes the check, never runs away with time or memory.

Every input gives findings, a ``transcript.unreadable`` finding for the coup
that cannot be read (the coups after it still checked), or one clear error
with exit status 2 — never a traceback.  Hostile YAML (alias bombs, huge or
deeply nested documents, tags that would construct objects) is refused
quickly and in bounded memory.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import msgspec
import pytest
from builders import check, coup, dumps, header, jsonl, transcript
from command import audit
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.engine import Checker
from compliance.errors import UserError
from compliance.ruleset.loader import load_ruleset

RULESETS = Path(__file__).resolve().parents[1] / "rulesets"
CLEAN = coup(1, ["4H", "TD", "3S"], ["KS", "6C"], [(1, "player", 100), (2, "banker", 200)])
BANKER_DREW_ON_SIX = coup(3, ["KD", "4D", "3S"], ["KS", "6C", "8D"], [(1, "player", 100)])


_encode = msgspec.json.Encoder(decimal_format="number").encode


def _line(c: dict) -> str:
    """One coup as a .jsonl line (amounts as exact JSON numbers, e.g. ``"amount":100``)."""
    return _encode(c).decode()


def _coups(*middle: str) -> str:
    """A .jsonl: a clean coup 1, the given lines as coup 2, and coup 3 with a real breach."""
    doc = transcript([CLEAN])
    lines = jsonl(doc).splitlines()
    return "\n".join([*lines, *middle, _line(BANKER_DREW_ON_SIX)]) + "\n"


def _categories(findings) -> list[tuple[int | None, str]]:
    return sorted((f.coup if f.coup is not None else -1, f.category) for f in findings if f.severity != "info")


def _unreadable_then_checked(findings, why: str) -> None:
    """Coup 2 is unreadable, saying why; coup 3 after it is still checked."""
    unreadable = [f for f in findings if f.category == "transcript.unreadable"]
    assert len(unreadable) == 1 and why in unreadable[0].message, [f.message for f in findings]
    assert (3, "third-card.banker.illegal") in _categories(findings)


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return audit(*args, cwd=tmp_path)


# ------------------------------------------------------------------ numbers


@pytest.mark.parametrize("amount, why", [("9e999999", "amounts are kept exactly below 1E+40; this one is 9E+999999"),
                                         ("1e-999999999", "to 28 decimal places; this one is 1E-999999999")])
def test_an_amount_beyond_exact_money_is_refused_at_its_line_and_the_next_coup_judged(amount, why):
    """Within the bounds every sum of money is exact; beyond them (a sum with 1e-999999999 would have a billion
    digits) the amount is refused, at its line, never judged rounded."""
    c = coup(2, ["9H", "KH"], ["2C", "3C"], [(1, "player", 100)])
    text = _coups(_line(c).replace('"outcome":"win","amount":100', f'"outcome":"win","amount":{amount}', 1))
    started = time.monotonic()
    findings = check(text, suffix=".jsonl")
    assert time.monotonic() - started < 30
    [refused] = [f for f in findings if f.coup == 2]
    assert refused.category == "transcript.unreadable" and refused.line == 3 and why in refused.message
    assert (3, "third-card.banker.illegal") in _categories(findings)


@pytest.mark.parametrize("rate", ["1e-999999999", "0.00000000000000000000000000001"])
def test_a_commission_rate_finer_than_money_is_kept_is_refused_in_the_header(rate):
    text = dumps(transcript([CLEAN])).replace('"seats": 7', f'"seats": 7, "commission": {rate}')
    with pytest.raises(UserError, match="commission figures of .* are finer than money is kept"):
        check(text)


def test_amounts_too_large_to_add_exactly_make_the_coup_unreadable():
    c = coup(2, ["9H", "KH"], ["2C", "3C"], [(1, "player", 1), (1, "player", 1)])
    text = _coups(_line(c).replace('"amount":1}', '"amount":9e999999}'))
    _unreadable_then_checked(check(text, suffix=".jsonl"), "amounts are kept exactly below 1E+40")


def test_an_enormous_coup_number_is_only_a_number():
    findings = check(_coups(_line(coup(2, ["9H", "KH"], ["2C", "3C"])).replace('"coup":2', '"coup":2' + "0" * 40)),
                     suffix=".jsonl")
    assert any("coup numbers must increase" in f.message for f in findings if f.coup == 3)


@pytest.mark.parametrize("amount, why", [
    ("NaN", "not valid JSON"),  # not JSON at all
    ('"NaN"', "must be a finite number"),
    ('"Infinity"', "must be a finite number"),
    ('"-Infinity"', "must be a finite number"),
    ('"sNaN"', "must be a finite number"),
    ("-100", "must be >= 0"),
    ("-0.01", "must be >= 0"),
])
def test_nan_infinite_and_negative_amounts_make_the_coup_unreadable(amount, why):
    line = _line(coup(2, ["9H", "KH"], ["2C", "3C"], [(1, "player", 100)])).replace('"amount":100', f'"amount":{amount}', 1)
    _unreadable_then_checked(check(_coups(line), suffix=".jsonl"), why)


def test_a_negative_limit_in_the_header_is_refused():
    doc = transcript([CLEAN], limits={"min_wager": -5})
    with pytest.raises(UserError, match="min_wager"):
        check(doc)


# ------------------------------------------------------------------ encodings


def test_a_byte_order_mark_and_crlf_line_ends_read_as_plain_text():
    doc = transcript([CLEAN, BANKER_DREW_ON_SIX])
    expected = _categories(check(doc))
    assert expected == [(3, "third-card.banker.illegal")]
    bom = "\ufeff"
    assert _categories(check(bom + dumps(doc))) == expected
    assert _categories(check(bom + jsonl(doc), suffix=".jsonl")) == expected
    assert _categories(check(dumps(doc).replace("\n", "\r\n"))) == expected
    assert _categories(check(jsonl(doc).replace("\n", "\r\n"), suffix=".jsonl")) == expected


def test_a_byte_order_mark_inside_a_jsonl_is_one_unreadable_coup():
    line = "\ufeff" + _line(coup(2, ["9H", "KH"], ["2C", "3C"]))
    _unreadable_then_checked(check(_coups(line), suffix=".jsonl"), "not valid JSON")


@pytest.mark.parametrize("garbage", [bytes(range(256)) * 4, b"\x00" * 100, b"\xff\xfe" + "{}".encode("utf-16-le"),
                                     b"\x1f\x8b\x08\x00" + bytes(64)])  # gzip header
def test_binary_garbage_as_a_coup_is_unreadable_and_as_a_file_is_refused(tmp_path, garbage):
    path = tmp_path / "garbage.jsonl"
    lines = _coups("@@GARBAGE@@").encode().replace(b"@@GARBAGE@@", garbage.replace(b"\n", b" ").replace(b"\r", b" "))
    path.write_bytes(lines)
    findings = Checker().check_file(path).findings
    assert sum(f.category == "transcript.unreadable" for f in findings) >= 1
    assert (3, "third-card.banker.illegal") in _categories(findings)
    for suffix in (".json", ".jsonl"):
        whole = tmp_path / f"all-garbage{suffix}"
        whole.write_bytes(garbage)
        with pytest.raises(UserError):
            Checker().check_file(whole)


# ------------------------------------------------------------------ size and depth


def test_deeply_nested_json_is_unreadable_or_refused(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    _unreadable_then_checked(check(_coups('{"coup": 2, "shoe": "S1", "events": ' + deep + "}"), suffix=".jsonl"),
                             "Expected `object`")
    _unreadable_then_checked(check(_coups('{"coup": 2, "x-deep": ' + deep + "}"), suffix=".jsonl"),
                             "nested too deeply")
    with pytest.raises(UserError, match="nested too deeply"):
        check('{"format": ' + deep + "}\n", suffix=".jsonl")
    with pytest.raises(UserError, match="nested too deeply"):
        check(dumps(header())[:-2] + ', "coups": ' + deep + "}")


def test_an_overlong_line_is_an_unreadable_coup_and_is_never_held_whole(bounds):
    small = bounds(line=4096)
    long_line = json.dumps({"coup": 2, "shoe": "S1", "x-pad": "p" * 100_000, "events": []})
    _unreadable_then_checked(check(_coups(long_line), suffix=".jsonl", bounds=small), "larger than the limit of 4 KB")


def test_a_large_single_document_is_refused_with_a_pointer_to_jsonl(bounds):
    small = bounds(transcript=1000)
    doc = transcript([CLEAN, BANKER_DREW_ON_SIX])
    with pytest.raises(UserError, match=r"write it as \.jsonl"):
        check(doc, bounds=small)
    assert _categories(check(jsonl(doc), suffix=".jsonl", bounds=small)) == [(3, "third-card.banker.illegal")]


# ------------------------------------------------------------------ hostile YAML


def _ruleset(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "hostile.yaml"
    path.write_text(text)
    return path


def _refused_quickly(path: Path, match: str, seconds: float = 3.0, megabytes: int | None = None) -> None:
    """Refused within ``seconds`` of CPU time; with ``megabytes``, a second, traced run allocates no more than that."""
    start = time.process_time()
    with pytest.raises(UserError, match=match):
        load_ruleset(str(path))
    elapsed = time.process_time() - start
    assert elapsed < seconds, f"took {elapsed:.1f} s"
    if megabytes is None:
        return
    tracemalloc.start()
    try:
        with pytest.raises(UserError, match=match):
            load_ruleset(str(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < megabytes << 20, f"peak {peak >> 20} MB"


def test_an_alias_bomb_is_refused_quickly_in_bounded_memory(tmp_path):
    """Ten levels of ten aliases: 10**10 strings if expanded."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
    _refused_quickly(_ruleset(tmp_path, "\n".join(lines) + "\nid: bomb\n"), "too large", megabytes=64)


def test_an_alias_bomb_of_mappings_is_refused_too(tmp_path):
    lines = ["m0: &m0 {a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8}"]
    lines += [f"m{i}: &m{i} {{" + ", ".join(f"k{j}: *m{i - 1}" for j in range(8)) + "}" for i in range(1, 9)]
    _refused_quickly(_ruleset(tmp_path, "\n".join(lines) + "\n"), "too large", megabytes=64)


def test_a_huge_ruleset_is_refused_before_it_is_parsed(tmp_path):
    _refused_quickly(_ruleset(tmp_path, "id: x\ndescription: '" + "a" * 3_000_000 + "'\n"), "larger than", megabytes=16)


@pytest.mark.parametrize("text", [
    "id: " + "[" * 5000 + "]" * 5000 + "\n",  # flow nesting: the parser slows with depth before it gives up
    "id: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n",
    "id: x\nt:\n" + "".join(" " * i + "k:\n" for i in range(1, 1400)),  # block nesting
    "id: x\nt:\n" + "".join(" " * i + "-\n" for i in range(1, 1400)),
])
def test_deeply_nested_yaml_is_refused_quickly(tmp_path, text):
    _refused_quickly(_ruleset(tmp_path, text), "nested|invalid YAML|too deeply")


@pytest.mark.parametrize("tag", [
    "!!python/object/apply:os.system ['touch PWNED']",
    "!!python/object/new:os.system ['touch PWNED']",
    "!!python/name:os.system",
    "!!python/module:os",
    "!custom x",
    "!!binary aGVsbG8=",
    "!!set {a, b}",
])
def test_tags_never_construct_objects(tmp_path, monkeypatch, tag):
    monkeypatch.chdir(tmp_path)
    path = _ruleset(tmp_path, f"id: {tag}\ntitle: hostile\nversion: '1'\nrules: []\n")
    with pytest.raises(UserError):
        load_ruleset(str(path))
    assert not (tmp_path / "PWNED").exists()


def test_a_ruleset_with_a_bom_and_crlf_loads_like_the_original(tmp_path):
    base = (RULESETS / "us-nj.yaml").read_bytes().replace(b"extends: punto-banco",
                                                            f"extends: {RULESETS / 'punto-banco.yaml'}".encode())
    plain = load_ruleset(str(_write(tmp_path / "plain.yaml", base)))
    odd = load_ruleset(str(_write(tmp_path / "odd.yaml", b"\xef\xbb\xbf" + base.replace(b"\n", b"\r\n"))))
    assert [(r.id, r.params) for r in odd.rules] == [(r.id, r.params) for r in plain.rules]


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf", "1e999999", "-1"])
def test_nan_infinite_and_negative_payouts_are_refused(tmp_path, value):
    text = (RULESETS / "us-nj.yaml").read_text().replace(
        "extends: punto-banco", f"extends: {RULESETS / 'punto-banco.yaml'}\ngame: {{spots: {{tie: {{odds: {value}}}}}}}")
    with pytest.raises(UserError, match="game.spots.tie.odds"):
        load_ruleset(str(_ruleset(tmp_path, text)))


def test_binary_garbage_as_a_ruleset_is_refused(tmp_path):
    path = tmp_path / "garbage.yaml"
    path.write_bytes(bytes(range(256)) * 20)
    with pytest.raises(UserError):
        load_ruleset(str(path))


# ------------------------------------------------------------------ files that change under the check


def test_a_file_that_vanishes_before_its_turn_is_an_error_and_the_others_are_reported(tmp_path):
    first = tmp_path / "first.json"
    first.write_text(dumps(transcript([CLEAN, BANKER_DREW_ON_SIX])))
    second = tmp_path / "second.json"
    second.write_text(dumps(transcript([CLEAN])))
    errors = []

    def vanish(n, nbytes):
        second.unlink(missing_ok=True)

    from compliance._internal import driver, runners
    from compliance._internal.inputs import Input
    from compliance.context import RunContext

    results = driver.run([Input(str(first), "first.json"), Input(str(second), "second.json")], RunContext(),
                         runners.SequentialRunner(on_coup=vanish), on_error=errors.append)
    assert [str(e) for e in errors] == ["second.json: no such file"]
    assert _categories(results[0].findings) == [(3, "third-card.banker.illegal")]


def test_a_file_cut_short_while_it_is_read_ends_in_an_unreadable_coup(tmp_path):
    doc = transcript([coup(n, ["4H", "TD", "3S"], ["KS", "6C"], [(1, "player", 100)]) for n in range(1, 4001)])
    path = tmp_path / "cut.jsonl"
    path.write_text(jsonl(doc))
    size = path.stat().st_size
    assert size > 2 << 20  # larger than the reader's buffer, so the cut is seen

    def cut(n, nbytes):
        if n == 10:
            with path.open("r+b") as f:
                f.truncate(size // 2 + 17)  # in the middle of a line

    from compliance.reading.reader import open_transcript

    result = Checker().check_source(open_transcript(path), on_coup=cut)
    assert 10 < result.coups < 4000
    assert result.unreadable == 1
    assert [f.coup for f in result.findings if f.category == "transcript.unreadable"] == [result.coups]


def test_the_command_never_shows_a_traceback_for_any_of_it(tmp_path):
    """One run over a directory of hostile transcripts: findings and clear errors, exit 2."""
    hostile = {
        "bom.json": "\ufeff" + dumps(transcript([CLEAN])),
        "crlf.jsonl": jsonl(transcript([CLEAN])).replace("\n", "\r\n"),
        "nan.jsonl": _coups('{"coup": 2, "shoe": "S1", "events": [{"type": "wager", "seat": 1, "spot": "player", '
                            '"amount": NaN}]}'),
        "deep.json": '{"coups": ' + "[" * 50_000 + "]" * 50_000 + "}",
        "garbage.jsonl": "\x00\x01\x02 not json at all",
        "empty.jsonl": "",
        "enormous.jsonl": _coups(_line(coup(2, ["9H", "KH"], ["2C", "3C"], [(1, "player", 1), (1, "player", 1)]))
                                 .replace('"amount":1}', '"amount":9e999999}')),
    }
    folder = tmp_path / "in"
    folder.mkdir()
    for name, text in hostile.items():
        (folder / name).write_text(text, encoding="utf-8")
    r = _cli(tmp_path, "check", "in", "--format", "json", "-j", "2")
    assert r.returncode == 2
    report = json.loads(r.stdout)
    assert len(report["errors"]) == 3  # deep.json, garbage.jsonl, empty.jsonl
    assert {t["transcript"].split("/")[-1] for t in report["transcripts"]} == {"bom.json", "crlf.jsonl", "nan.jsonl",
                                                                               "enormous.jsonl"}


# ------------------------------------------------------------------ the attack run of issue 19: transcripts

BIG = "1" + "0" * 4999  # 5,000 digits: past Python's limit on turning text into a number


def test_a_number_of_5000_digits_in_a_coup_is_an_unreadable_coup():
    line = _line(coup(2, ["9H", "KH"], ["2C", "3C"])).replace('"coup":2', '"coup":' + BIG)
    _unreadable_then_checked(check(_coups(line), suffix=".jsonl"), "out of range")
    doc = dumps(transcript([CLEAN, coup(2, ["9H", "KH"], ["2C", "3C"]), BANKER_DREW_ON_SIX]))
    _unreadable_then_checked(check(doc.replace('"coup": 2', '"coup": ' + BIG)), "out of range")


def test_a_number_of_5000_digits_in_the_header_is_refused():
    with pytest.raises(UserError, match="out of range|digits"):
        check(dumps(transcript([CLEAN])).replace('"seats": 7', '"seats": ' + BIG))
    with pytest.raises(UserError, match="out of range|digits"):
        check(dumps(transcript([CLEAN])).replace('"seats": 7', '"seats": 7, "x-big": ' + BIG))


def _seats(n: int) -> str:
    return dumps(transcript([CLEAN, BANKER_DREW_ON_SIX])).replace('"seats": 7', f'"seats": {n}')


@pytest.mark.parametrize("seats", [10**18, 30_000_000])
def test_the_declared_number_of_seats_sizes_nothing(seats):
    """Memory grows with the recorded coups, not with table.seats (30,000,000 seats took 3.8 GB before)."""
    tracemalloc.start()
    try:
        findings = check(_seats(seats))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert _categories(findings) == [(3, "third-card.banker.illegal")]
    assert peak < 32 << 20, f"peak {peak >> 20} MB"


def test_offers_at_a_table_of_10_18_seats_are_judged_and_listed_short():
    """No one recorded as seated: every seat of the table is entitled, and the message names twenty of them."""
    from procedure import offer, procedure_coup

    declined = procedure_coup(1, ["4H", "2C"], ["KS", "7D"], [(1, "player", 100)],
                              before_calls=[offer(1, False)])
    del declined["seated"]  # the record does not say who is seated
    doc = dumps(transcript([declined], "us-in")).replace('"seats": 7', f'"seats": {10**18}')
    messages = [f.message for f in check(doc) if f.category == "curator.offer-order"]
    assert len(messages) == 1 and "seat 2, seat 3" in messages[0], messages
    assert "and 999,999,999,999,999,979 more" in messages[0] and len(messages[0]) < 500


def _old_ring(order: list[int], rank, seat: int, include: bool, among) -> list[int]:
    """The seats counter-clockwise as the checks listed them before: every seat of the table, then filtered."""
    if seat not in order:
        later = [s for s in order if rank(s) > rank(seat)]
        start = order.index(later[0]) if later else 0
    else:
        start = order.index(seat) + (0 if include else 1)
    ring = order[start:] + order[:start]
    return ring if among is None else [s for s in ring if s in among]


@settings(max_examples=200, deadline=None, database=None)
@given(seats=st.integers(1, 12), listed=st.booleans(), shuffle=st.randoms(use_true_random=False),
       start=st.integers(-3, 15), include=st.booleans(), among=st.none() | st.sets(st.integers(-2, 15)))
def test_the_seats_counter_clockwise_are_those_of_the_listed_table(seats, listed, shuffle, start, include, among):
    """A ring over a range of seats (table.seats) gives the seats a listed table order gave, in the same order."""
    from compliance.games.baccarat.table import TableContext

    order = list(range(1, seats + 1))
    if listed:
        shuffle.shuffle(order)
    t = TableContext(game="punto_banco", ruleset=None, tableau=None, spots={},
                     seat_order=tuple(order) if listed else range(1, seats + 1),
                     seat_rank={s: i for i, s in enumerate(order)} if listed else {}, decks={},
                     dealing_method=None, min_wager=None, max_wager=None, table_differential=None)
    assert list(t.counter_clockwise(among, start, include)) == _old_ring(order, t.rank, start, include, among)
    assert [t.rank(s) for s in range(-2, 15)] == [
        order.index(s) if s in order else len(order) + s for s in range(-2, 15)]


def test_a_symlink_loop_is_one_clear_error(tmp_path):
    (tmp_path / "loop.json").symlink_to("loop.json")
    folder = tmp_path / "recordings"
    folder.mkdir()
    (folder / "a.json").symlink_to("b.json")
    (folder / "b.json").symlink_to("a.json")
    (folder / "ok.json").write_text(dumps(transcript([CLEAN, BANKER_DREW_ON_SIX])))
    with pytest.raises(UserError, match="symbolic link loop"):
        Checker().check_file(tmp_path / "loop.json")
    r = _cli(tmp_path, "check", "loop.json", "recordings", "-j", "1", "-f", "json")
    assert r.returncode == 2
    assert r.stderr.count("symbolic link loop") == 3, r.stderr  # loop.json, a.json, b.json
    assert [t["transcript"] for t in json.loads(r.stdout)["transcripts"]] == ["recordings/ok.json"]


@pytest.mark.parametrize("name, words", [
    ("zero.json", "a .json transcript is read whole, and this one is larger than the limit of 1 MB for an input that "
                  "is not a regular file"),
    ("zero.jsonl", "header line is larger than the limit of 1 MB for a .jsonl line"),  # a .jsonl is streamed
])
def test_dev_zero_as_a_transcript_is_read_up_to_the_stream_limit(tmp_path, bounds, name, words):
    (tmp_path / name).symlink_to("/dev/zero")
    small = bounds(stream=1 << 20, line=1 << 20)
    with pytest.raises(UserError, match=re.escape(words)):
        Checker(limits=small).check_file(tmp_path / name)


def test_a_transcript_from_a_pipe_is_checked_like_the_file(tmp_path):
    """A FIFO (``<(zcat shift.jsonl.gz)``) is read once, within the stream limit, then checked as usual."""
    import os
    import threading

    fifo = tmp_path / "shift.jsonl"
    os.mkfifo(fifo)
    text = jsonl(transcript([CLEAN, BANKER_DREW_ON_SIX]))
    writer = threading.Thread(target=lambda: fifo.write_text(text))
    writer.start()
    result = Checker().check_file(fifo)
    writer.join()
    assert _categories(result.findings) == [(3, "third-card.banker.illegal")]
    assert result.sha256 == __import__("hashlib").sha256(text.encode()).hexdigest()


# ------------------------------------------------------------------ the attack run of issue 19: rulesets


def test_a_lone_surrogate_in_a_ruleset_is_refused_at_its_line(tmp_path):
    text = (RULESETS / "us-nj.yaml").read_text().replace("extends: punto-banco",
                                                         f"extends: {RULESETS / 'punto-banco.yaml'}")
    text = text.replace("title:", 'title: "N.J. \\ud800"\nx-old-title:', 1)
    with pytest.raises(UserError, match=r"hostile.yaml:\d+:\d+: text holds a lone surrogate"):
        load_ruleset(str(_ruleset(tmp_path, text)))


@pytest.mark.slow  # real processes or large inputs: make test-slow
def test_a_large_anchor_referenced_many_times_is_refused_quickly(tmp_path):
    """One 100 KB string, referenced 2,000 times: 200 MB of text if expanded (the attack's took 4.3 GB)."""
    text = "a: &a '" + "x" * 100_000 + "'\nb: [" + ", ".join(["*a"] * 2000) + "]\nid: bomb\n"
    _refused_quickly(_ruleset(tmp_path, text), "too large once its aliases are expanded", megabytes=64)


@pytest.mark.slow  # real processes or large inputs: make test-slow
def test_merge_keys_over_a_large_anchor_are_refused_quickly(tmp_path):
    keys = ", ".join(f"k{i}: v" for i in range(1000))
    text = "a: &a {" + keys + "}\nb: [" + ", ".join(["{<<: *a}"] * 500) + "]\nid: bomb\n"
    _refused_quickly(_ruleset(tmp_path, text), "too large once its aliases are expanded", megabytes=64)


def test_a_recursive_alias_is_refused(tmp_path):
    _refused_quickly(_ruleset(tmp_path, "id: &a [*a]\n"), "refers to the node that holds it")


@pytest.mark.parametrize("how", ["--ruleset", "jurisdiction"])
def test_dev_zero_as_a_ruleset_is_refused_at_the_ruleset_limit(tmp_path, how):
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    doc = transcript([CLEAN])
    if how == "jurisdiction":  # a jurisdiction the configuration maps to the file
        doc["table"]["jurisdiction"] = "zero-floor"
        (tmp_path / ".baccarat-audit.yaml").write_text("jurisdictions: {zero-floor: zero.yaml}\n")
    (tmp_path / "t.json").write_text(dumps(doc))
    args = ("--ruleset", str(zero)) if how == "--ruleset" else ()
    r = _cli(tmp_path, "check", "t.json", *args, "-j", "1")
    assert r.returncode == 2 and "larger than the limit of 256 KB for a ruleset" in r.stderr, r.stderr


# ------------------------------------------------------------------ the attack run of issue 19: Markdown


def test_a_markdown_document_of_nul_bytes_holds_no_transcript(tmp_path):
    (tmp_path / "nul.md").write_bytes(b"\x00" * (4 << 20))
    r = _cli(tmp_path, "check", "nul.md", "-j", "1", "-f", "json")
    assert r.returncode == 2 and json.loads(r.stdout)["transcripts"] == []  # named, yet no transcript: said
    assert r.stderr.count("nul.md: not a transcript") == 1


def test_dev_zero_as_a_markdown_document_is_refused_at_its_limit(tmp_path, bounds):
    from compliance._internal.inputs import collect

    (tmp_path / "zero.md").symlink_to("/dev/zero")
    small = bounds(markdown=1 << 20)
    errors = []
    assert collect([tmp_path / "zero.md"], errors.append, bounds=small) == []
    assert [e.message for e in errors] == ["larger than the limit of 1 MB for a Markdown document; raise it with "
                                           "`limits: {markdown: MEGABYTES}` in the configuration"]


@pytest.mark.slow
def test_a_markdown_document_of_2000_blocks_is_read_once(tmp_path, monkeypatch):
    """Opening each block no longer reads and splits the whole document again (2,000 blocks took 42 s)."""
    from compliance import fileread
    from compliance._internal.inputs import collect

    block = "```baccarat-transcript\n" + dumps(transcript([CLEAN])) + "\n```\n\n"
    (tmp_path / "manual.md").write_text("# Procedures\n\n" + block * 2000)
    reads = []
    real = fileread.read_input
    monkeypatch.setattr(fileread, "read_input", lambda *a, **k: reads.append(a[0]) or real(*a, **k))
    inputs = collect([tmp_path / "manual.md"], pytest.fail)
    checker = Checker()
    start = time.process_time()
    results = [i.check(checker) for i in inputs]
    assert len(results) == 2000 and all(r.coups == 1 for r in results)
    assert [p.name for p in reads if p.suffix == ".md"] == ["manual.md"]
    assert time.process_time() - start < 30


def test_dev_zero_on_standard_input_is_refused_at_the_stream_limit(tmp_path):
    """`check -` spools standard input to a file: it stops at the stream limit, not when the disk is full."""
    (tmp_path / ".baccarat-audit.yaml").write_text("limits: {stream: 2}\n")
    with open("/dev/zero", "rb") as zero:
        r = subprocess.run([sys.executable, "-m", "compliance", "check", "-", "-j", "1"], cwd=tmp_path, stdin=zero,
                           capture_output=True, text=True, timeout=120)
    assert "Traceback" not in r.stderr
    assert r.returncode == 2 and "standard input is larger than the limit of 2 MB for an input that is not a " \
                                 "regular file" in r.stderr, r.stderr
