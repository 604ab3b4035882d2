"""The simulator against the checker: clean play checks clean, every injected breach is found exactly.

The simulator decides for itself what each rule requires (from the ruleset's
parameters); the checker judges by its check functions.  Agreement on long
runs under every bundled jurisdiction is the evidence that both read the
rulesets the same way.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from compliance.cli import app
from compliance.engine import Checker
from compliance.errors import UserError
from compliance.games.baccarat.models import Coup, Header, Transcript
from compliance.games.baccarat.simulate import Simulator, parse_inject, write_transcript
from compliance.games.baccarat.simulate import injectable as can_inject
from compliance.games.baccarat.simulate.irregular import irregularities
from compliance.games.baccarat.simulate.procedure import Procedure
from compliance.ruleset.loader import bundled_ids, load_ruleset

JURISDICTIONS = [r for r in bundled_ids()
                 if not (rs := load_ruleset(r, allow_abstract=True)).abstract and rs.game is not None]  # baccarat


@pytest.fixture(scope="module")
def rulesets():
    return {r: load_ruleset(r) for r in JURISDICTIONS}


def simulate(ruleset, tmp_path: Path, fmt="jsonl", **kw) -> tuple[Path, Simulator]:
    sim = Simulator(ruleset, **kw)
    path = tmp_path / f"{ruleset.id}-{kw.get('seed', 0)}.{fmt}"
    with open(path, "wb") as f:
        write_transcript(sim, f, fmt)
    return path, sim


def findings(path: Path):
    return Checker().check_file(path).findings


def injectable(ruleset, method=None, irregular=False) -> list[str]:
    method = method if method is not None else next(iter(ruleset.dealing_methods or {None: None}))
    return can_inject(Procedure.of(ruleset), method, irregular)


def test_every_jurisdiction_is_simulated():
    assert set(JURISDICTIONS) >= {"us-nj", "us-in", "au-nsw", "nz"}


# ------------------------------------------------------------------ clean play


@pytest.mark.slow
@pytest.mark.parametrize("jurisdiction", JURISDICTIONS)
def test_ten_thousand_compliant_coups_check_without_a_finding(rulesets, tmp_path, jurisdiction):
    path, sim = simulate(rulesets[jurisdiction], tmp_path, coups=10_000, seed=1)
    found = findings(path)
    assert not found, f"{len(found)} findings, first: {found[0]}"
    assert len(sim.shoes) > 10  # many shoes: cut card, new shoe, opening burn all exercised


@pytest.mark.parametrize("jurisdiction", JURISDICTIONS)
@pytest.mark.parametrize("seed", [2, pytest.param(3, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow)])
def test_other_seeds_and_games_check_without_a_finding(rulesets, tmp_path, jurisdiction, seed):
    ruleset = rulesets[jurisdiction]
    game = sorted(ruleset.game.variants)[seed % len(ruleset.game.variants)]
    path, _ = simulate(ruleset, tmp_path, coups=600, seed=seed, decks=(8, 6, 1)[seed % 3], game=game,
                       seats=(7, 14, 3)[seed % 3])
    assert findings(path) == []


@pytest.mark.parametrize("jurisdiction", JURISDICTIONS)
def test_every_dealing_method_checks_without_a_finding(rulesets, tmp_path, jurisdiction):
    ruleset = rulesets[jurisdiction]
    for method in ruleset.dealing_methods or {}:
        path, _ = simulate(ruleset, tmp_path, coups=1_000, seed=5, dealing_method=method)
        found = findings(path)
        assert not found, f"method {method}: {len(found)} findings, first: {found[0]}"


# ------------------------------------------------------------------ injected breaches


def pairs(found) -> Counter:
    return Counter((f.coup, f.category) for f in found)


def methods_of(jurisdiction: str) -> list[str | None]:
    return list(load_ruleset(jurisdiction).dealing_methods or [None])


TABLES = [(j, m) for j in JURISDICTIONS for m in methods_of(j)]


def first_method_fast(tables) -> list:
    """The tables, each jurisdiction's first dealing method in ``make test``, its others marked slow."""
    first = {}
    for j, m in tables:
        first.setdefault(j, m)
    return [pytest.param(j, m, marks=() if first[j] == m else pytest.mark.slow) for j, m in tables]


@pytest.mark.parametrize("jurisdiction,method", first_method_fast(TABLES))
def test_injected_breaches_are_found_exactly(rulesets, tmp_path, jurisdiction, method):
    ruleset = rulesets[jurisdiction]
    irregular = 0.04 if irregularities(Procedure.of(ruleset), method) else 0.0
    kinds = injectable(ruleset, method, irregular > 0)
    path, sim = simulate(ruleset, tmp_path, coups=3_000, seed=11, dealing_method=method,
                         inject={k: 0.012 for k in kinds}, irregularities=irregular)
    found = findings(path)
    got = pairs(f for f in found if f.severity != "info")
    want = Counter((i.coup, i.category) for i in sim.injected)
    assert got - want == Counter(), "reported but not injected"
    assert want - got == Counter(), "injected but not reported"
    assert {i.category for i in sim.injected} == set(kinds), "every injectable category was injected"
    assert len({i.coup for i in sim.injected + sim.handled}) == len(sim.injected) + len(sim.handled), \
        "one breach or irregularity a coup"
    assert pairs(f for f in found if f.severity == "info") == Counter((i.coup, i.category) for i in sim.handled)


@pytest.mark.parametrize("jurisdiction,method", first_method_fast(
    [(j, m) for j, m in TABLES if irregularities(Procedure.of(load_ruleset(j)), m)]))
def test_irregularities_handled_as_required_are_info_findings_only(rulesets, tmp_path, jurisdiction, method):
    """NSW and NZ handle the same irregularities differently; each simulated by its own ruleset's rule
    checks as 'handled as the rules require', and nothing else is reported."""
    ruleset = rulesets[jurisdiction]
    path, sim = simulate(ruleset, tmp_path, coups=2_000, seed=21, dealing_method=method, irregularities=0.05)
    found = findings(path)
    assert {f.severity for f in found} == {"info"}
    assert pairs(found) == Counter((i.coup, "irregularity.mishandled") for i in sim.handled)
    made = " ".join(i.what for i in sim.handled)
    for words in ("reconstructed", "found face up", "unauthorised Player third card"):
        assert words in made


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), jurisdiction=st.sampled_from(JURISDICTIONS), data=st.data())
def test_any_seed_and_any_choice_of_breaches(rulesets, tmp_path, seed, jurisdiction, data):
    ruleset = rulesets[jurisdiction]
    method = data.draw(st.sampled_from(methods_of(jurisdiction)))
    irregular = data.draw(st.sampled_from([0.0, 0.05])) if irregularities(Procedure.of(ruleset), method) else 0.0
    kinds = data.draw(st.sets(st.sampled_from(injectable(ruleset, method, irregular > 0)), min_size=1, max_size=4))
    rate = data.draw(st.sampled_from([0.02, 0.1, 0.5]))
    path, sim = simulate(ruleset, tmp_path, coups=300, seed=seed, dealing_method=method,
                         inject={k: rate for k in kinds}, irregularities=irregular)
    assert pairs(findings(path)) == Counter((i.coup, i.category) for i in sim.injected + sim.handled)


def test_a_category_no_rule_reports_cannot_be_injected(rulesets):
    nz = rulesets["nz"]
    assert "procedure.call-missing" not in injectable(nz)  # NZ's bundled rules prescribe no calls
    with pytest.raises(UserError, match="no enabled rule of category 'procedure.call-missing'"):
        Simulator(nz, coups=10, inject={"procedure.call-missing": 0.1})


def test_inject_spec_names_a_category_and_a_rate():
    assert parse_inject("result.wrong") == ("result.wrong", 0.01)
    assert parse_inject("third-card.banker.missing@0.25") == ("third-card.banker.missing", 0.25)
    for bad in ("result.wrongly", "result.wrong@2", "result.wrong@x", "result.wrong@0"):
        with pytest.raises(UserError):
            parse_inject(bad)


# ------------------------------------------------------------------ the transcript written


def test_same_seed_same_bytes_other_seed_other_bytes(rulesets):
    def run(seed, fmt):
        out = io.BytesIO()
        write_transcript(Simulator(rulesets["au-nsw"], coups=200, seed=seed, inject={"result.wrong": 0.05}), out, fmt)
        return out.getvalue()

    for fmt in ("json", "jsonl"):
        assert run(9, fmt) == run(9, fmt)
        assert run(9, fmt) != run(10, fmt)


def test_written_transcripts_are_valid_by_the_transcript_models(rulesets):
    sim_args = dict(coups=150, seed=4, game="even_money")
    out = io.BytesIO()
    write_transcript(Simulator(rulesets["au-nsw"], **sim_args), out, "json")
    doc = Transcript.model_validate_json(out.getvalue())
    assert len(doc.coups) == 150 and {s.id for s in doc.shoes} == {c.shoe for c in doc.coups}
    out = io.BytesIO()
    write_transcript(Simulator(rulesets["au-nsw"], **sim_args), out, "jsonl")
    header, *coups = out.getvalue().splitlines()
    Header.model_validate_json(header)
    assert [Coup.model_validate_json(c).coup for c in coups] == list(range(1, 151))


def test_amounts_are_json_numbers_and_commission_is_exact(rulesets):
    out = io.BytesIO()
    write_transcript(Simulator(rulesets["us-nj"], coups=300, seed=2), out, "jsonl")
    events = [e for line in out.getvalue().splitlines()[1:] for e in json.loads(line)["events"]]
    settles = [e for e in events if e["type"] in ("settle", "commission", "wager")]
    assert settles and all(isinstance(e["amount"], (int, float)) for e in settles)
    assert any(e["type"] == "commission" for e in events)  # commission collected apart, sometimes
    assert any(e["type"] == "settle" and e["spot"] == "banker" and e["outcome"] == "win"
               and not float(e["amount"]).is_integer() for e in events)  # and sometimes deducted (19 to 20)


def test_cli_simulate_then_check(tmp_path):
    out = tmp_path / "shift.jsonl"
    run = CliRunner().invoke(app, ["simulate", "--ruleset", "us-nj", "--coups", "500", "--seed", "3",
                                   "--output", str(out), "--inject", "settlement.missing@0.02"])
    assert run.exit_code == 0, run.output
    listed = json.loads((tmp_path / "shift.jsonl.injected.json").read_text())
    assert listed["injected"] and all(i["category"] == "settlement.missing" for i in listed["injected"])
    report = CliRunner().invoke(app, ["check", str(out), "--format", "json"])
    assert report.exit_code == 1
    reported = sorted((f["coup"], f["category"]) for f in json.loads(report.stdout)["findings"])
    assert reported == sorted((i["coup"], i["category"]) for i in listed["injected"])

    clean = tmp_path / "clean.json"
    assert CliRunner().invoke(app, ["simulate", "-r", "nz", "-n", "300", "-o", str(clean)]).exit_code == 0
    assert CliRunner().invoke(app, ["check", str(clean)]).exit_code == 0


def test_cli_inject_needs_an_output_and_a_known_category():
    run = CliRunner().invoke(app, ["simulate", "-r", "us-nj", "-n", "5", "--inject", "result.wrong"])
    assert run.exit_code == 2 and "--output" in run.output
    run = CliRunner().invoke(app, ["simulate", "-r", "us-nj", "-n", "5", "-o", "x.json", "--inject", "nonsense"])
    assert run.exit_code == 2


def test_cli_simulate_makes_the_folder_of_its_output_as_check_does(tmp_path):
    out = tmp_path / "nights" / "2026-11" / "shift.jsonl"
    run = CliRunner().invoke(app, ["simulate", "-r", "us-nj", "-n", "50", "-o", str(out), "--inject",
                                   "wager.late@0.1"])
    assert run.exit_code == 0, run.output
    assert out.is_file() and (out.parent / "shift.jsonl.injected.json").is_file()
    (tmp_path / "file").write_text("")
    run = CliRunner().invoke(app, ["simulate", "-r", "us-nj", "-n", "5", "-o", str(tmp_path / "file" / "x.json")])
    assert run.exit_code == 2 and run.stderr.endswith("file/x.json: cannot write: Not a directory\n"), run.stderr


def test_inject_takes_a_category_prefix_as_select_does(rulesets, tmp_path):
    """`--inject third-card` is each third-card category the table can break, each at the rate given; a
    category given on its own keeps its own rate; a prefix that names no category is refused."""
    path, sim = simulate(rulesets["us-nj"], tmp_path, coups=1_500, seed=8,
                         inject=dict([parse_inject("third-card@0.03"), parse_inject("third-card.banker.missing@0.2")]))
    made = Counter(i.category for i in sim.injected)
    assert set(made) == {c for c in injectable(rulesets["us-nj"]) if c.startswith("third-card.")}
    assert made["third-card.banker.missing"] > 3 * made["third-card.player.missing"]
    assert pairs(findings(path)) == Counter((i.coup, i.category) for i in sim.injected)
    with pytest.raises(UserError, match="or a prefix of them"):
        parse_inject("third@0.1")
    whole = Simulator(rulesets["us-nj"], coups=10, inject=dict([parse_inject("integrity@0.5")]))
    assert whole.run_inject == {("integrity.unshuffled", "decks-alike"): 0.5, ("integrity.outcomes", "banker"): 0.5,
                                ("integrity.settlement-drift", "patrons"): 0.5, ("integrity.collusion", "patron"): 0.5}


def test_the_simulator_does_not_ask_the_checker_what_is_compliant():
    """It reads the rulesets' parameters, never a check function or the engine's verdict."""
    import ast

    package = Path(__file__).resolve().parents[1] / "compliance" / "simulate"
    for source in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text())):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            for name in names:
                assert not name.startswith(("compliance.checks", "compliance.engine")), f"{source.name} imports {name}"


def test_a_table_commission_replaces_the_rate_of_every_spot_that_takes_one_and_only_those(rulesets):
    from decimal import Decimal

    nj = rulesets["us-nj"]
    house = nj.game.spots_for("punto_banco")
    assert nj.game.spots_for("punto_banco", None) == house
    table = nj.game.spots_for("punto_banco", Decimal("0.04"))
    assert table["banker"].commission == Decimal("0.04")
    assert table["banker"].model_copy(update={"commission": house["banker"].commission}) == house["banker"]
    assert (table["player"], table["tie"]) == (house["player"], house["tie"])
    assert table["player"].commission is None  # the Player spot takes no commission, whatever the table's rate


def test_pai_gow_simulation_is_exact_money_and_settles_by_the_rulesets_commission(tmp_path):
    from decimal import Decimal

    from compliance.games.pai_gow.simulate import simulate as simulate_pai_gow
    from compliance.games.pai_gow.simulate import write as write_pai_gow
    from compliance.ruleset.loader import load_ruleset

    doc = simulate_pai_gow(load_ruleset("us-in-pai-gow"), 40, 3)
    amounts = [e["amount"] for r in doc["coups"] for e in r["events"] if "amount" in e]
    assert amounts and all(isinstance(a, Decimal) for a in amounts)
    for suffix in (".json", ".jsonl"):
        path = write_pai_gow(doc, tmp_path / f"pg{suffix}")
        lines = path.read_text().splitlines()
        read = [json.loads(line, parse_float=Decimal) for line in lines] if suffix == ".jsonl" \
            else [json.loads(path.read_text(), parse_float=Decimal)]
        coups = read[1:] if suffix == ".jsonl" else read[0]["coups"]
        assert [e["amount"] for r in coups for e in r["events"] if "amount" in e] == amounts

    house = tmp_path / "house.yaml"
    house.write_text("id: pg-four\ntitle: four per cent\nversion: '1'\nextends: us-in-pai-gow\n"
                     "overrides:\n  PG-SETTLE-AMOUNT:\n    params: {commission: 0.04}\n")
    doc = simulate_pai_gow(load_ruleset(str(house)), 40, 3)
    stakes, collected = {}, 0
    for r in doc["coups"]:
        for e in r["events"]:
            if e["type"] == "wager":
                stakes[e["box"]] = e["amount"]
            elif e["type"] == "commission":
                assert e["amount"] == stakes[e["box"]] * Decimal("0.04")
                collected += 1
            elif e["type"] == "settle" and e["outcome"] == "win":
                assert e["amount"] in (stakes[e["box"]], stakes[e["box"]] * Decimal("0.96"))
    assert collected


# ------------------------------------------------------------------ side wagers (EZ Baccarat)


@pytest.mark.slow
def test_ez_baccarat_with_its_side_wagers_ten_thousand_coups_check_clean(rulesets, tmp_path):
    path, _ = simulate(rulesets["us-pa"], tmp_path, coups=10_000, seed=21, game="ez_baccarat")
    assert findings(path) == []
    spots = Counter()
    for line in path.read_text().splitlines()[1:]:
        for ev in json.loads(line)["events"]:
            if ev["type"] == "settle":
                spots[(ev["spot"], ev["outcome"])] += 1
    assert json.loads(path.read_text().splitlines()[0])["version"] == "1.1"
    assert spots[("dragon_7", "win")] and spots[("panda_8", "win")] and spots[("banker", "push")]
    main = sum(n for (spot, _), n in spots.items() if spot in ("player", "banker", "tie"))
    side = sum(n for (spot, _), n in spots.items() if spot in ("dragon_7", "panda_8"))
    assert 0.1 < side / main < 0.35  # side wagers beside about a quarter of the Player and Banker wagers


@pytest.mark.slow
def test_ez_baccarat_wrong_side_wager_payouts_are_found_exactly(rulesets, tmp_path):
    path, sim = simulate(rulesets["us-pa"], tmp_path, coups=10_000, seed=22, game="ez_baccarat",
                         inject={"settlement.wrong-amount": 0.03})
    injected = pairs_of(sim)
    assert pairs(findings(path)) == injected
    side = [i for i in sim.injected if " dragon_7 " in i.what or " panda_8 " in i.what]
    assert len(side) > len(sim.injected) / 3  # a side wager is paid wrong wherever the coup has one
    assert any("paid at 25 to 1" in i.what for i in side) and any("paid at 40 to 1" in i.what for i in side)


def pairs_of(sim) -> Counter:
    return Counter((i.coup, i.category) for i in sim.injected)
