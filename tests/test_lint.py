"""`baccarat-audit ruleset lint`: every broken ruleset gives its message at its place.

The table below is the contract: one file under fixtures/rulesets/broken/ per
kind of mistake a rule author makes, the code and words of the message, and
the line and column it points at.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from compliance.cli import app
from compliance.coverage import lint_map
from compliance.errors import UserError
from compliance.games.baccarat.analyze import STANDARD_TABLEAU
from compliance.games.baccarat.lint import tableau_differences, tableau_problems
from compliance.ruleset.lint import lint_file
from compliance.ruleset.loader import bundled_dir, bundled_ids, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "fixtures" / "rulesets" / "broken"

# file, code, words in the message, line, column
CASES = [
    ("bad-yaml.yaml", "schema", "invalid YAML", 7, 1),
    ("unknown-key.yaml", "schema", "unknown key 'titel'", 2, 1),
    ("unknown-key.yaml", "schema", "missing required key 'title'", 1, 1),
    ("wrong-severity.yaml", "schema", "overrides.BAC-CALLS.severity", 7, 5),
    ("unknown-check.yaml", "unknown-check", "did you mean 'third-card.banker.illegal'", 8, 5),
    ("duplicate-id.yaml", "duplicate-id", "duplicate rule id 'NJ-CALLS-TWICE' (first at line 6)", 10, 5),
    ("missing-citation.yaml", "missing-citation", "rule 'NJ-UNCITED' has no citation", 6, 5),
    ("unreachable-override.yaml", "unreachable-override", "did you mean 'BAC-DRAW-BANKER-ILLEGAL'", 6, 3),
    ("extends-cycle-a.yaml", "extends-cycle", "extends-cycle-a -> extends-cycle-b.yaml -> extends-cycle-a.yaml", 4, 1),
    ("extends-missing.yaml", "extends-missing", "no ruleset 'us-ny'", 4, 1),
    ("bad-params.yaml", "bad-params", "overrides.BAC-CALLS.params.calls.1", 8, 29),
    ("unknown-source.yaml", "unknown-source", "source 'njac-3-8'", 7, 16),
    ("tableau-incomplete.yaml", "tableau-incomplete", "missing the decision for Player third card 9", 8, 7),
    ("tableau-incomplete.yaml", "tableau-incomplete", "no row for Banker total 6", 9, 7),
    ("tableau-natural-row.yaml", "tableau-incomplete", "Banker total 8 is a natural", 8, 7),
    ("house-sets-regulation.yaml", "house-sets-regulation", "game.spots.player.odds is fixed by the regulation", 8, 14),
    ("house-sets-regulation.yaml", "house-sets-regulation", "`severity` is the regulation's", 11, 5),
    ("house-sets-regulation.yaml", "house-sets-regulation", "params.calls is fixed by the regulation", 12, 14),
    ("citation-not-in-text.yaml", "citation-not-in-text", "'3.7(e)', which is not a paragraph", 7, 35),
    ("unknown-text.yaml", "unknown-text", "names text 'new-jersey-njac-13-69f-3-7.pdf', which is not a bundled "
     "regulation text (did you mean 'new-jersey-njac-13-69f-3-7.txt'?)", 9, 5),
    ("unknown-dealing-method.yaml", "unknown-dealing-method", "dealing method 'F', which the ruleset does not define",
     7, 26),
    ("override-of-own-rule.yaml", "unreachable-override", "which this file defines itself", 11, 3),
    ("inherits-uncited.yaml", "missing-citation", "rule 'BAC-CALLS' (from punto-banco) has no citation here", 7, 1),
    ("bundled-id.yaml", "bundled-id", "takes the id 'us-nj' of a bundled ruleset", 1, 1),
    ("spot-never-wins.yaml", "spot-never-wins", "spot natural_nine_on_three wins in no deal", 9, 5),
    ("odds-zero.yaml", "odds-zero", "spot tie_for_nothing pays 0 to 1 on a tie", 9, 5),
    ("odds-beyond-any-table.yaml", "schema", "odds of 1E+100 to 1 are more than any table pays", 9, 11),
    ("amendment-order.yaml", "amendment-order", "'earlier' takes effect 2019-01-01, before the one listed above", 7,
     55),
    ("amendment-overlap.yaml", "amendment-overlap", "while 'temporary' (to 2019-12-31) is still in force, and both "
     "change game.spots.tie", 7, 5),
    ("amendment-citation.yaml", "amendment-citation", "amendment 'uncited' cites no register notice", 8, 5),
    ("option-not-permitted.yaml", "option-not-permitted", "option 'commission_free_bankers', which the jurisdiction "
     "does not permit (options: commission_free_banker) (did you mean 'commission_free_banker'?)", 7, 6),
    ("option-date.yaml", "option-date", "from 2018-12-31, before the jurisdiction permits it (2019-01-01", 7, 31),
]
WARNINGS_ONLY = {"citation-not-in-text.yaml", "unknown-dealing-method.yaml", "unknown-text.yaml", "bundled-id.yaml",
                 "spot-never-wins.yaml", "odds-zero.yaml"}


@pytest.mark.parametrize("name,code,words,line,column", CASES, ids=[f"{c[0]}:{c[1]}:{c[3]}" for c in CASES])
def test_broken_ruleset_gives_its_message_at_its_place(name, code, words, line, column):
    found = lint_file(BROKEN / name)
    hits = [d for d in found if d.code == code and words in d.message]
    assert hits, f"no {code} diagnostic with {words!r}; got:\n" + "\n".join(map(str, found))
    assert (hits[0].line, hits[0].column) == (line, column), str(hits[0])
    assert hits[0].path.endswith(name)


def test_every_broken_fixture_is_in_the_table():
    covered = {c[0] for c in CASES} | {"extends-cycle-b.yaml"}
    assert {p.name for p in BROKEN.glob("*.yaml")} == covered


def test_every_broken_error_fixture_fails_lint_through_the_cli():
    runner = CliRunner()
    for path in sorted(BROKEN.glob("*.yaml")):
        result = runner.invoke(app, ["ruleset", "lint", str(path)])
        want = 0 if path.name in WARNINGS_ONLY else 1  # a warning does not fail without --strict
        assert result.exit_code == want, f"{path.name}: {result.output}"
    strict = runner.invoke(app, ["ruleset", "lint", "--strict", str(BROKEN / "citation-not-in-text.yaml")])
    assert strict.exit_code == 1


def test_diagnostic_reads_file_line_column_severity_code_message():
    d = [d for d in lint_file(BROKEN / "duplicate-id.yaml") if d.code == "duplicate-id"][0]
    assert str(d) == (f"{BROKEN / 'duplicate-id.yaml'}:10:5: error [duplicate-id] "
                      "duplicate rule id 'NJ-CALLS-TWICE' (first at line 6)")


def test_bundled_rulesets_have_no_lint_error():
    for rid in bundled_ids():
        errors = [d for d in lint_file(bundled_dir() / f"{rid}.yaml") if d.severity == "error"]
        assert not errors, "\n".join(map(str, errors))


def test_lint_never_passes_what_the_loader_refuses(tmp_path):
    """A ruleset that lints without error loads (the loader is the last pass of lint)."""
    p = tmp_path / "abstract-only.yaml"
    p.write_text("id: x\ntitle: t\nversion: '1'\nextends: punto-banco\nabstract: true\n", encoding="utf-8")
    assert not [d for d in lint_file(p) if d.severity == "error"]
    load_ruleset(str(p), allow_abstract=True)


def test_standard_tableau_is_the_one_punto_banco_carries():
    base = load_ruleset("punto-banco", allow_abstract=True)
    assert base.game.tableau.model_dump() == STANDARD_TABLEAU
    notes = [d for d in lint_file(bundled_dir() / "punto-banco.yaml") if d.code.startswith("tableau")]
    assert [d.code for d in notes] == ["tableau-standard"]


def test_lint_names_each_case_a_variant_tableau_changes():
    found = lint_file(ROOT / "fixtures" / "rulesets" / "banker-stands-on-six.yaml")
    differs = [d.message for d in found if d.code == "tableau-differs"]
    assert differs == ["Banker total 6, Player's third card 6: stands (standard: draws)",
                       "Banker total 6, Player's third card 7: stands (standard: draws)"]
    assert not [d for d in found if d.severity == "error"]


def test_lint_says_how_far_a_variant_tableau_moves_the_house_edge():
    """The exact analysis (issue 6) measures the variant against the standard tableau."""
    from compliance.games.baccarat.analyze import edge_shift
    from compliance.games.baccarat.section import Tableau

    variant = load_ruleset(str(ROOT / "fixtures" / "rulesets" / "banker-stands-on-six.yaml"))
    shift = edge_shift(variant.game.tableau, variant.game.spots, 8, standard=Tableau.model_validate(STANDARD_TABLEAU))
    assert shift and shift["player"] < 0  # the Banker standing where it should draw helps the Player
    [edge] = [d.message for d in lint_file(ROOT / "fixtures" / "rulesets" / "banker-stands-on-six.yaml")
              if d.code == "tableau-edge"]
    assert edge.startswith("house edge against the standard tableau, 8 decks, ties as pushes: player ")
    assert not [d for d in lint_file(bundled_dir() / "punto-banco.yaml") if d.code == "tableau-edge"]


def test_tableau_completeness_one_decision_per_total_and_third_card():
    complete = {k: (dict(v) if isinstance(v, dict) else list(v)) for k, v in STANDARD_TABLEAU.items()}
    assert tableau_problems(complete) == []
    broken = {**complete, "banker_draws_on_player_third_card": {**complete["banker_draws_on_player_third_card"],
                                                                3: "DDDDDDDDSDD", 4: "SSDXDDDDSS"}}
    messages = [m for _, m in tableau_problems(broken)]
    assert "row for Banker total 3 has 11 decisions, needs 10: 1 decision(s) too many" in messages
    assert "row for Banker total 4: 'X' is not a decision (D draws, S stands)" in messages
    on_natural = {**complete, "player_draws": [0, 1, 2, 3, 4, 5, 8]}
    assert any("a natural" in m for _, m in tableau_problems(on_natural))


def test_tableau_differences_in_player_and_stood_rules():
    tab = {**STANDARD_TABLEAU, "player_draws": [0, 1, 2, 3, 4, 5, 6],
           "banker_draws_when_player_stood": [0, 1, 2, 3, 4]}
    assert [m for _, m in tableau_differences(tab, STANDARD_TABLEAU)] == [
        "the Player's Hand draws on 6 (standard: stands)",
        "the Banker's Hand, when the Player's Hand stood, stands on 5 (standard: draws)",
    ]


def test_coverage_map_is_linted_against_the_paragraph_index_and_rulesets(tmp_path):
    assert not lint_map(bundled_dir() / "coverage.yaml")
    broken = tmp_path / "coverage.yaml"
    broken.write_text("texts:\n  new-jersey-njac-13-69f-3-7.txt:\n    paragraphs:\n"
                      "      \"3.7(a)\": {about: two hands}\n", encoding="utf-8")
    (d,) = lint_map(broken)
    assert (d.code, d.line, d.message) == ("coverage-map", 4, "paragraph '3.7(a)': give exactly one of rules, "
                                                              "not_checkable, gap")
    broken.write_text("texts:\n  new-jersey-njac-13-69f-3-7.txt:\n    paragraphs:\n"
                      "      \"3.7(z)\": {about: nothing, not_checkable: made up}\n", encoding="utf-8")
    found = [(d.line, d.message) for d in lint_map(broken) if d.code == "coverage-map"]
    assert (4, "new-jersey-njac-13-69f-3-7.txt has no paragraph '3.7(z)'") in found
    assert (1, "new-jersey-njac-13-69f-3-7.txt paragraph 3.7(b) is not in the map") in found


@given(st.sets(st.tuples(st.integers(0, 7), st.integers(0, 9)), max_size=12))
def test_a_tableau_with_any_cells_flipped_is_complete_and_differs_in_exactly_those_cells(flips):
    rows = dict(STANDARD_TABLEAU["banker_draws_on_player_third_card"])
    for total, card in flips:
        row = rows[total]
        rows[total] = row[:card] + ("S" if row[card] == "D" else "D") + row[card + 1:]
    tab = {**STANDARD_TABLEAU, "banker_draws_on_player_third_card": rows}
    assert tableau_problems(tab) == []
    named = {(int(m.split()[2].rstrip(",")), int(m.split("card ")[1].split(":")[0]))
             for _, m in tableau_differences(tab, STANDARD_TABLEAU)}
    assert named == flips


def test_pre_commit_hook_lints_the_rulesets():
    import re

    from ruamel.yaml import YAML

    hooks = YAML(typ="safe", pure=True).load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = [h for h in hooks if h["id"] == "baccarat-audit-lint-rulesets"]
    assert hook["entry"].split()[:3] == ["baccarat-audit", "ruleset", "lint"]
    files = re.compile(hook["files"])
    assert files.search("rulesets/us-nj.yaml") and files.search("casino/rulesets/house.yml")
    assert files.search("rulesets/coverage.yaml")  # the map is linted too
    assert not files.search("fixtures/rules/us-nj/clean.expected.yaml") and not files.search("rulesets/__init__.py")


def test_lint_json_report():
    import json

    result = CliRunner().invoke(app, ["ruleset", "lint", "--format", "json", str(BROKEN / "duplicate-id.yaml")])
    doc = json.loads(result.output)
    assert result.exit_code == 1 and doc["errors"] == 1 and doc["warnings"] == 0
    assert {"path", "line", "column", "severity", "code", "message"} == set(doc["diagnostics"][0])


_EDIT_VALUES = ["null", "[]", "{}", '"x"', "1", "-1", "true", "[1, 2]", "{house: 1}", "{house: 1, note: true}",
                "BAC-CALLS", "DDDDD", "12.5", "[A, {x: 1}]", "{source: 1, at: [x]}"]


@st.composite
def _edited_ruleset(draw):
    """A bundled ruleset with a few lines deleted, duplicated, or given another value."""
    sources = sorted(p for p in bundled_dir().glob("*.yaml") if p.stem != "coverage")
    lines = draw(st.sampled_from(sources)).read_text(encoding="utf-8").splitlines()
    for _ in range(draw(st.integers(1, 3))):
        j = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "value"]))
        if op == "delete":
            del lines[j]
        elif op == "duplicate":
            lines.insert(j, lines[draw(st.integers(0, len(lines) - 1))])
        elif ":" in lines[j]:
            key = lines[j].partition(":")[0]
            lines[j] = f"{key}: {draw(st.sampled_from(_EDIT_VALUES))}"
    return "\n".join(lines) + "\n"


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(_edited_ruleset())
def test_lint_never_crashes_and_never_passes_what_the_loader_refuses(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("edited") / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    found = lint_file(path)  # never an exception: every problem is a diagnostic
    if not [d for d in found if d.severity == "error"]:
        load_ruleset(str(path), allow_abstract=True)


def test_lint_gives_the_house_edge_of_every_spot_game_by_game():
    found = [d.message for d in lint_file(bundled_dir() / "us-pa.yaml") if d.code == "spot-edge"]
    assert "spot dragon_7: house edge 7.6113% in ez_baccarat (8 decks, pushes counted as coups)" in found
    assert "spot panda_8: house edge 10.1876% in ez_baccarat (8 decks, pushes counted as coups)" in found
    banker = next(m for m in found if m.startswith("spot banker:"))
    assert "1.0579% in punto_banco, mini_baccarat, midi_baccarat" in banker and "1.0183% in ez_baccarat" in banker
    assert not [d for d in lint_file(bundled_dir() / "us-pa.yaml") if d.code == "spot-patron-edge"]


def test_lint_warns_when_a_house_paytable_gives_the_patron_an_edge(tmp_path):
    house = tmp_path / "generous.yaml"
    house.write_text(f"""id: generous
title: A house that pays ties at 10 to 1
version: "1"
extends: {bundled_dir() / 'us-nj.yaml'}
casino: Generous Casino
game:
  spots:
    tie: {{odds: 10}}
""", encoding="utf-8")
    [warning] = [d for d in lint_file(house) if d.code == "spot-patron-edge"]
    assert warning.severity == "warning" and (warning.line, warning.column) == (8, 5)
    assert warning.message.startswith("spot tie gives the patron an edge of 4.6716% in punto_banco, mini_baccarat (8 decks)")
    assert "game.spots.tie.odds = 10, set by generous" in warning.message


# ------------------------------------------------------------------ the codes: registered, each explained


def _code_arguments() -> list:
    """The code argument of each diagnostic the linters' source makes, resolved in its module (a string if it
    is written as one)."""
    import ast

    from compliance import coverage
    from compliance.games.baccarat import lint as baccarat_lint
    from compliance.ruleset import lint as shared_lint

    def resolve(node, module):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Attribute) and node.attr == "code":
            return resolve(node.value, module)  # a constant's name (``lintcodes.COVERAGE_MAP.code``)
        if isinstance(node, ast.Name) and node.id not in vars(module):
            return None  # a parameter passed on (``code``)
        return eval(compile(ast.Expression(node), "<code>", "eval"), vars(module))  # a name: SCHEMA, lintcodes.LOAD

    found = []
    for module in (shared_lint, baccarat_lint, coverage):  # coverage: the lint of the coverage map
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                args = node.args
                if node.func.attr in ("add", "diagnostic") and len(args) >= 4:
                    found.append(resolve(args[-2], module))  # (..., severity, code, message)
                elif node.func.attr == "add_user_error" and len(args) >= 2:
                    found.append(resolve(args[1], module))
                elif node.func.attr == "add_validation" and len(args) >= 3:
                    found.append(resolve(args[2], module))
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Diagnostic":
                found.append(resolve(node.args[4], module))
    return [c for c in found if c is not None]


def _codes_in_source() -> set[str]:
    """The codes the linters' source reports."""
    from compliance.lintcodes import LintCode

    return {c.code if isinstance(c, LintCode) else c for c in _code_arguments()}


def test_every_call_site_names_a_code_constant_not_a_string():
    assert [c for c in _code_arguments() if isinstance(c, str)] == []


def test_every_code_the_linter_reports_is_registered_and_every_registered_code_is_reported():
    from compliance.ruleset.lint import registered

    assert _codes_in_source() == set(registered())


def test_every_code_has_a_summary_and_an_explanation():
    from compliance.ruleset.lint import registered

    for code in registered().values():
        assert code.summary and len(code.explanation.split()) >= 15, code.code


def test_a_diagnostic_of_an_unregistered_code_or_severity_is_a_bug(tmp_path):
    from compliance.games.baccarat.lint import TABLEAU_STANDARD
    from compliance.lintcodes import LintCode
    from compliance.ruleset.lint import _Linter

    linter = _Linter(tmp_path / "x.yaml", "x.yaml")
    with pytest.raises(ValueError, match="not registered"):
        linter.diagnostic("x.yaml", 1, 1, "error", LintCode("no-such-code", ("error",), "", ""), "message")
    with pytest.raises(ValueError, match="not registered"):
        linter.diagnostic("x.yaml", 1, 1, "error", TABLEAU_STANDARD, "a note is never an error")


def test_explain_prints_a_codes_explanation():
    result = CliRunner().invoke(app, ["ruleset", "lint", "--explain", "spot-patron-edge"])
    assert result.exit_code == 0
    assert result.stdout.startswith("spot-patron-edge (warning)\n") and "house parameters" in result.stdout


def test_explain_all_prints_every_code():
    from compliance.ruleset.lint import registered

    result = CliRunner().invoke(app, ["ruleset", "lint", "--explain", "all"])
    assert result.exit_code == 0
    assert [line.split(" ")[0] for line in result.stdout.splitlines() if line.endswith(")") and "(" in line
            and line.split(" ")[0] in registered()] == list(registered())


def test_explain_of_an_unknown_code_names_the_nearest():
    result = CliRunner().invoke(app, ["ruleset", "lint", "--explain", "tableau-edges"])
    assert result.exit_code == 2 and "did you mean 'tableau-edge'" in result.stderr


def house_file(tmp_path, body: str, *, casino: bool = True, extends: str = "us-nj") -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(f"id: house\ntitle: t\nversion: '1'\nextends: {bundled_dir() / (extends + '.yaml')}\n"
                    + ("casino: A Casino\n" if casino else "") + body, encoding="utf-8")
    return path


def test_a_spot_that_can_never_win_is_a_warning(tmp_path):
    """A Banker natural 9 on three cards: a natural is two cards, so the spot wins in no deal."""
    path = house_file(tmp_path, "game:\n  spots:\n    nine:\n      wins: {kind: win, hand: banker, total: 9, "
                                "cards: 3, natural: true}\n      odds: 50\n")
    [never] = [d for d in lint_file(path) if d.code == "spot-never-wins"]
    assert never.severity == "warning" and never.message.startswith("spot nine wins in no deal of punto_banco")


def test_odds_of_nought_are_a_warning(tmp_path):
    path = house_file(tmp_path, "game:\n  spots:\n    naught:\n      wins: {kind: tie}\n      odds: 0\n")
    [zero] = [d for d in lint_file(path) if d.code == "odds-zero"]
    assert zero.severity == "warning" and zero.message.startswith("spot naught pays 0 to 1 on a tie in punto_banco")


def test_a_house_may_add_a_side_wager_the_regulation_leaves_open_and_lint_and_check_agree(tmp_path):
    path = house_file(tmp_path, "game:\n  spots:\n    player_pair:\n      wins: {kind: pair, hand: player}\n"
                                "      odds: 11\n")
    assert not [d for d in lint_file(path) if d.severity == "error"]
    assert load_ruleset(str(path)).game.spots_for("punto_banco")["player_pair"].odds == 11


@pytest.mark.parametrize("body", [
    "game:\n  spots:\n    player: {odds: 2}\n",  # the regulation's payout of a spot it fixes
    "overrides:\n  BAC-RESULT: {severity: warning}\n",  # the regulation's severity
    "game:\n  variants:\n    chemin_de_fer: {}\n",  # a game the regulation does not allow
])
def test_what_a_house_may_not_set_is_refused_by_lint_and_check_alike(tmp_path, body):
    path = house_file(tmp_path, body)
    [error] = [d for d in lint_file(path) if d.severity == "error"]
    assert error.code == "house-sets-regulation"
    with pytest.raises(UserError) as refused:
        load_ruleset(str(path))
    assert refused.value.message == error.message and refused.value.where.line == error.line


@pytest.mark.parametrize(("odds", "words"), [
    ("1e100", "odds of 1E+100 to 1 are more than any table pays"),
    ("1e-999999999", "odds of 1E-999999999 to 1 are finer than money is kept: at most 28 decimal places"),
    ("123456789.012345678901234567891", "odds are exact to at most 28 significant digits; these have 30")])
def test_extreme_odds_are_a_clear_error_never_a_traceback(tmp_path, odds, words):
    path = house_file(tmp_path, f"game:\n  spots:\n    tie: {{odds: {odds}}}\n")
    [error] = [d for d in lint_file(path) if d.severity == "error"]
    assert words in error.message and error.line == 8
    with pytest.raises(UserError, match="game.spots.tie.odds: Value error, " + words.replace("+", r"\+")):
        load_ruleset(str(path))
    result = CliRunner().invoke(app, ["analyze", "-r", str(path)])
    assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output
