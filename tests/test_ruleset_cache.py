"""Validated rulesets kept between runs (issue 17): used again only while nothing they were made from has changed.

A cached ruleset is the ruleset its YAML gives, to the digit; a ruleset file
edited since (the ruleset itself or any it extends) is loaded again; a cache
file that is corrupt, from another version or installation, or whose body does
not decode into the models' types is rebuilt, never trusted; ``--no-cache``
(or ``BACCARAT_AUDIT_NO_CACHE``, or ``cache = false``) gives the same findings
and leaves the cache alone.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from pydantic import BaseModel

from compliance import cachedir
from compliance.ruleset import cache
from compliance.ruleset.loader import bundled_rulesets, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "fixtures" / "rulesets" / "harbour-casino.yaml"
SAMPLE = ROOT / "fixtures" / "samples" / "night-shift.json"
RULE_TESTS = ROOT / "fixtures" / "rules"


@pytest.fixture
def yaml_loads(monkeypatch):
    """Counts the loads that go to the YAML (the others came from the cache)."""
    calls = []

    def counting(*args, **kwargs):
        calls.append(args[0])
        return load_ruleset(*args, **kwargs)

    monkeypatch.setattr(cache, "load_ruleset", counting)
    return calls


def entries(d: Path) -> list[Path]:
    return sorted((d / "rulesets").glob("*.json"))


def shape(x):
    """Everything a value is, to the type, the digits of each Decimal and the fields set of each model."""
    if isinstance(x, BaseModel):
        return (type(x).__qualname__, sorted(x.model_fields_set), {k: shape(getattr(x, k)) for k in type(x).model_fields})
    if isinstance(x, Decimal):
        return ("Decimal", str(x))
    if isinstance(x, (set, frozenset)):
        return (type(x).__name__, sorted(repr(shape(v)) for v in x))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [shape(v) for v in x])
    if isinstance(x, dict):
        return ("dict", [(shape(k), shape(v)) for k, v in x.items()])
    return (type(x).__name__, x)


REFS = [rs.path.removeprefix("rulesets/").removesuffix(".yaml") for rs in bundled_rulesets(include_abstract=True)]


@pytest.mark.parametrize("ref", [*REFS, str(HOUSE)])
def test_a_cached_ruleset_is_exactly_the_ruleset_its_yaml_gives(cache_dir, yaml_loads, ref):
    first = cache.load(ref, allow_abstract=True)
    assert len(entries(cache_dir)) == 1
    again = cache.load(ref, allow_abstract=True)
    assert yaml_loads == [ref]  # the second came from the cache
    assert again == first == load_ruleset(ref, allow_abstract=True)
    assert shape(again) == shape(load_ruleset(ref, allow_abstract=True))


def test_the_cache_directory_follows_xdg_and_is_tagged(tmp_path, monkeypatch):
    monkeypatch.delenv("BACCARAT_AUDIT_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    cache.load("us-nj")
    assert len(entries(tmp_path / "xdg" / "baccarat-audit")) == 1
    assert (tmp_path / "xdg" / "baccarat-audit" / "CACHEDIR.TAG").read_text().startswith(
        "Signature: 8a477f597d28d172789f06886806bc55")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")  # a relative XDG_CACHE_HOME is ignored (the spec)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cachedir.directory() == tmp_path / "home" / ".cache" / "baccarat-audit"


# ------------------------------------------------------------------ stale


def chain(tmp_path: Path, severity: str = "warning", unit: int = 5) -> tuple[Path, Path]:
    """house.yaml extends middle.yaml, which extends the bundled au-nsw."""
    middle = tmp_path / "middle.yaml"
    middle.write_text(f"id: middle\ntitle: middle\nversion: '1'\nextends: au-nsw\n"
                      f"overrides:\n  NSW-DIFFERENTIAL-REDUCTION: {{severity: {severity}}}\n", encoding="utf-8")
    house = tmp_path / "house.yaml"
    house.write_text(f"id: house\ntitle: house\nversion: '1'\nextends: middle.yaml\ncasino: Test\n"
                     f"overrides:\n  NSW-DIFFERENTIAL-REDUCTION: {{params: {{unit: {unit}}}}}\n", encoding="utf-8")
    return house, middle


def rule(rs, rid):
    return next(r for r in rs.rules if r.id == rid)


def test_a_ruleset_extended_by_the_one_asked_for_edited_since_is_loaded_again(tmp_path, cache_dir, yaml_loads):
    house, _ = chain(tmp_path)
    assert rule(cache.load(str(house)), "NSW-DIFFERENTIAL-REDUCTION").severity == "warning"
    chain(tmp_path, severity="info")  # the parent changes, the file asked for does not
    changed = cache.load(str(house))
    assert rule(changed, "NSW-DIFFERENTIAL-REDUCTION").severity == "info"
    assert changed == load_ruleset(str(house))
    assert cache.load(str(house)) == changed
    assert len(yaml_loads) == 2  # first load, the load after the edit; the third came from the cache again
    assert len(entries(cache_dir)) == 1  # rewritten in place


def test_the_ruleset_asked_for_edited_since_is_loaded_again(tmp_path, cache_dir, yaml_loads):
    house, _ = chain(tmp_path)
    assert rule(cache.load(str(house)), "NSW-DIFFERENTIAL-REDUCTION").params.unit == Decimal(5)
    chain(tmp_path, unit=25)
    assert rule(cache.load(str(house)), "NSW-DIFFERENTIAL-REDUCTION").params.unit == Decimal(25)
    assert len(yaml_loads) == 2


def test_a_parent_that_disappeared_is_an_error_not_a_cached_answer(tmp_path, cache_dir):
    house, middle = chain(tmp_path)
    cache.load(str(house))
    middle.unlink()
    with pytest.raises(Exception, match="middle.yaml"):
        cache.load(str(house))


def test_a_ruleset_that_does_not_load_is_never_cached(tmp_path, cache_dir):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ntitle: bad\nversion: '1'\nextends: us-nj\noverrides:\n  NO-SUCH-RULE: {enabled: false}\n")
    for _ in range(2):
        with pytest.raises(Exception, match="NO-SUCH-RULE"):
            cache.load(str(bad))
    assert entries(cache_dir) == []


# ------------------------------------------------------------------ corrupt, foreign, forged


def entry_parts(path: Path) -> tuple[dict, bytes]:
    """An entry's header and body (after the line of its authentication code)."""
    _, _, content = path.read_bytes().partition(b"\n")
    head, _, body = content.partition(b"\n")
    return json.loads(head), body


def signed(path: Path, content: bytes) -> None:
    """Write ``content`` as the entry ``path``, authenticated with this user's key: as if the user's own tool had
    written it (by another version, or a bug), so that what is tested is what comes after the authentication
    (``tests/test_cache_security.py`` tests entries planted without the key)."""
    name = path.relative_to(path.parent.parent).as_posix()
    path.write_bytes(cachedir._mac(cachedir._key(create=False), name, content) + b"\n" + content)


def write_entry(path: Path, header: dict, body: bytes, digest: bool = True) -> None:
    if digest:
        header = {**header, "digest": hashlib.sha256(body).hexdigest()}
    signed(path, json.dumps(header).encode() + b"\n" + body)


CORRUPTIONS = {
    "empty": lambda h, b: b"",
    "not JSON": lambda h, b: b"\x00\xff garbage",
    "header only": lambda h, b: json.dumps(h).encode(),
    "cut short": lambda h, b: json.dumps(h).encode() + b"\n" + b[: len(b) // 2],
    "a byte changed": lambda h, b: json.dumps(h).encode() + b"\n" + b.replace(b'"error"', b'"info!"', 1),
    "a header key missing": lambda h, b: json.dumps({k: v for k, v in h.items() if k != "files"}).encode() + b"\n" + b,
    "an unknown header key": lambda h, b: json.dumps({**h, "trusted": True}).encode() + b"\n" + b,
}


@pytest.mark.parametrize("corruption", CORRUPTIONS)
def test_a_corrupt_cache_file_is_rebuilt(cache_dir, yaml_loads, corruption):
    expected = cache.load("au-nsw")
    (path,) = entries(cache_dir)
    header, body = entry_parts(path)
    signed(path, CORRUPTIONS[corruption](header, body))
    assert shape(cache.load("au-nsw")) == shape(expected)
    assert yaml_loads == ["au-nsw", "au-nsw"]
    assert entry_parts(path) == (header, body)  # written anew
    cache.load("au-nsw")
    assert len(yaml_loads) == 2


FOREIGN = {
    "another version": {"version": "0.0.1"},
    "another build of the code": {"code": "0" * 64},
    "another cache format": {"format": cache.FORMAT + 1},
    "another installation's ruleset": {"top": "/elsewhere/rulesets/au-nsw.yaml"},
    "another reference": {"ref": "us-nj"},
    "made from other files": {"files": ["/elsewhere/au-nsw.yaml"]},
    "made from other contents of the same files": {"chain": "0" * 64},
}


@pytest.mark.parametrize("origin", FOREIGN)
def test_a_cache_file_from_elsewhere_is_rebuilt(cache_dir, yaml_loads, origin):
    cache.load("au-nsw")
    (path,) = entries(cache_dir)
    header, body = entry_parts(path)
    write_entry(path, {**header, **FOREIGN[origin]}, body)
    cache.load("au-nsw")
    assert yaml_loads == ["au-nsw", "au-nsw"]
    assert entry_parts(path) == (header, body)


def forge(body: bytes, edit) -> bytes:
    doc = json.loads(body)
    edit(doc)
    return json.dumps(doc).encode()


def first_rule(doc):
    return doc["rules"][0]


FORGERIES = {  # signed, with the digest of each forged body: only decoding against the models' types can refuse it
    "a Decimal as a binary float": lambda d: dict(d["game"]["spots"])["banker"].update(commission=0.05),
    "an unknown field": lambda d: first_rule(d).update(trusted=True),
    "a field missing": lambda d: first_rule(d).pop("citation_text"),
    "a severity no rule may have": lambda d: first_rule(d).update(severity="fatal"),
    "a check kind that does not exist": lambda d: first_rule(d).update(check="no.such.kind"),
    "a parameter of another kind": lambda d: first_rule(d)["params"].update(unit="5"),
    "a list where a set of methods is": lambda d: first_rule(d).update(dealing_methods=7),
    "a pickled object": lambda d: d.update(title={"py/object": "os.system"}),
    "a spot's condition with a parameter of another type": lambda d: dict(d["game"]["spots"])["banker"]["wins"][
        "$private"]["_params"].update(hand=7),
    "a spot's condition of a kind that does not exist": lambda d: dict(d["game"]["spots"])["banker"]["wins"].update(
        kind="no.such.condition"),
}


@pytest.mark.parametrize("forgery", FORGERIES)
def test_a_cache_file_whose_body_is_not_of_the_models_types_is_rebuilt(cache_dir, yaml_loads, forgery):
    expected = cache.load("au-nsw")
    (path,) = entries(cache_dir)
    header, body = entry_parts(path)
    write_entry(path, header, forge(body, FORGERIES[forgery]))
    assert shape(cache.load("au-nsw")) == shape(expected)
    assert yaml_loads == ["au-nsw", "au-nsw"]
    assert entry_parts(path) == (header, body)


def test_a_cache_that_cannot_be_written_is_skipped(tmp_path, monkeypatch, yaml_loads):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("BACCARAT_AUDIT_CACHE_DIR", str(blocker / "cache"))
    assert cache.load("us-nj") == cache.load("us-nj") == load_ruleset("us-nj")
    assert yaml_loads == ["us-nj", "us-nj"]


def test_the_cache_is_off_when_the_environment_says_so(cache_dir, monkeypatch, yaml_loads):
    monkeypatch.setenv("BACCARAT_AUDIT_NO_CACHE", "1")
    cache.load("us-nj")
    cache.load("us-nj")
    assert yaml_loads == ["us-nj", "us-nj"] and not cache_dir.exists()
    monkeypatch.setenv("BACCARAT_AUDIT_NO_CACHE", "0")
    cache.load("us-nj")
    assert len(entries(cache_dir)) == 1


# ------------------------------------------------------------------ the command


def audit(*args: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    r = subprocess.run([sys.executable, "-m", "compliance", *args], cwd=cwd, capture_output=True, text=True,
                       timeout=300, env=env)
    assert "Traceback" not in r.stderr, r.stderr
    return r


CHECKED = [str(SAMPLE), str(RULE_TESTS / "au-nsw"), str(RULE_TESTS / "us-nj"), str(RULE_TESTS / "us-in-pai-gow")]


@pytest.mark.slow
def test_no_cache_gives_the_same_findings_and_leaves_the_cache_alone(tmp_path):
    env = dict(os.environ, BACCARAT_AUDIT_CACHE_DIR=str(tmp_path / "cache"))
    args = ("check", *CHECKED, "--format", "json", "--timestamp", "2026-11-29T00:00:00Z", "-j", "1")
    uncached = audit(*args, "--no-cache", cwd=tmp_path, env=env)
    assert not (tmp_path / "cache").exists()
    filling = audit(*args, cwd=tmp_path, env=env)
    assert len(entries(tmp_path / "cache")) == 3  # us-nj, au-nsw, us-in-pai-gow
    cached = audit(*args, cwd=tmp_path, env=env)
    assert uncached.returncode == filling.returncode == cached.returncode == 1
    assert uncached.stdout == filling.stdout == cached.stdout
    assert len(json.loads(cached.stdout)["findings"]) > 10
    house = audit("check", str(SAMPLE), "--ruleset", str(HOUSE), "-j", "1", cwd=tmp_path, env=env)
    assert house.stdout == audit("check", str(SAMPLE), "--ruleset", str(HOUSE), "-j", "1", "--no-cache",
                                 cwd=tmp_path, env=env).stdout


@pytest.mark.slow
def test_the_configuration_and_the_environment_turn_the_cache_off(tmp_path):
    env = dict(os.environ, BACCARAT_AUDIT_CACHE_DIR=str(tmp_path / "cache"))
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / ".baccarat-audit.yaml").write_text("cache: false\n")
    r = audit("check", str(SAMPLE), cwd=tmp_path / "project", env=env)
    assert r.returncode == 1 and not (tmp_path / "cache").exists()
    r = audit("check", str(SAMPLE), cwd=tmp_path, env={**env, "BACCARAT_AUDIT_NO_CACHE": "1"})
    assert r.returncode == 1 and not (tmp_path / "cache").exists()
    r = audit("check", str(SAMPLE), cwd=tmp_path, env=env)
    assert r.returncode == 1 and len(entries(tmp_path / "cache")) == 1

