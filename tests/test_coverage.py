"""Regulation coverage: the map in rulesets/coverage.yaml, its paragraph index, the texts and the rulesets.

The map is the paragraph index of every bundled text (its paragraphs, in the
text's order, what each is about in our words) and says how each is covered.
Coverage, lint's citation check and docs/coverage.md rest on it alone; where
the regulation texts are at hand they verify it: every paragraph id of the
map is a paragraph of its text, in the text's order, and every paragraph of
every text is in the map.  Every rule cites a paragraph that is in the map (or
a text that is not bundled); a paragraph counts as covered only when an
enabled rule checks it.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import compliance.paragraphs
from compliance.cli import app
from compliance.coverage import citing, coverage, render_markdown, render_text, texts_of
from compliance.errors import UserError
from compliance.paragraphs import (
    index_problems,
    load_map,
    paragraph_index,
    paragraphs,
    regulations_dir,
    text_paragraphs,
)
from compliance.ruleset.loader import bundled_rulesets, load_ruleset

REGULATIONS = regulations_dir()
with_the_texts = pytest.mark.skipif(REGULATIONS is None, reason="the regulation texts ($BACCARAT_AUDIT_REGULATIONS "
                                    "or ../shared/regulations) are not here to verify the paragraph index with")

NSW = "rules-of-baccarat-casino-control-act-1992.txt"
NJ = "new-jersey-njac-13-69f-3-7.txt"


# ------------------------------------------------------------------ the paragraph index, verified by the texts


@with_the_texts
def test_every_bundled_text_is_in_the_map_and_every_other_text_of_the_map_is_an_index():
    cmap = load_map()
    bundled = {p.name for p in REGULATIONS.glob("*.txt")}
    assert set(cmap.texts) - set(cmap.not_bundled) == bundled
    assert not set(cmap.not_bundled) & bundled, "a text marked not_bundled is bundled: drop not_bundled"


def test_a_text_that_is_not_bundled_is_indexed_and_says_why():
    cmap = load_map()
    pa = "pennsylvania-58-pa-code-627a-minibaccarat.txt"
    assert "not bundled" in cmap.not_bundled[pa]
    assert list(paragraph_index(pa))[:3] == ["627a.1", "627a.2", "627a.3"] and "627a.8(c)(2)" in paragraph_index(pa)
    [rows] = [t for t in coverage().texts if t.text == pa]
    assert rows.ruleset == "us-pa" and rows.not_bundled
    assert {r.paragraph: r.status for r in rows.rows}["627a.8(c)(2)"] == "covered"


def test_texts_not_reached_are_said_in_the_notes_and_in_every_rendering_of_the_whole_map(tmp_path):
    """A text looked for and not reached rests under no ruleset: the map's notes say what was read and what was
    not, and the whole map's coverage prints them (a coverage restricted to some rulesets leaves them out)."""
    cov = coverage()
    titles = list(cov.notes)
    assert any(t.startswith("New York, 9 NYCRR Part 5324") and t.endswith("not reached") for t in titles)
    assert any(t.startswith("Macau") and t.endswith("not reached") for t in titles)
    markdown = render_markdown(cov)
    assert "## Notes" in markdown and all(f"### {t}" in markdown for t in titles)
    assert all(f"note: {t}: " in render_text(cov) for t in titles) and cov.as_dict()["notes"] == cov.notes
    assert coverage([load_ruleset("us-pa")]).notes == {}
    bad = tmp_path / "map.yaml"
    bad.write_text("texts: {}\nnotes: [one]\n", encoding="utf-8")
    with pytest.raises(UserError, match="`notes` is a mapping"):
        load_map(bad)
    bad.write_text("texts: {}\nnote: {a: b}\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"unknown key\(s\) note"):
        load_map(bad)


def test_a_code_of_many_sections_is_read_section_by_section():
    """A made-up text (our words) numbered as Pennsylvania's code is."""
    text = ("§ 627a.7. Made up.\n(a) One.\n(b) Two.\n(1) Two one.\n\n§ 627a.8. Also made up.\n"
            "(a) Three.\n(c) Four.\n(1) Four one.\n(2) Four two.\n")
    assert list(paragraphs(text)) == ["627a.7", "627a.7(a)", "627a.7(b)", "627a.7(b)(1)", "627a.8", "627a.8(a)",
                                      "627a.8(c)", "627a.8(c)(1)", "627a.8(c)(2)"]


@with_the_texts
@pytest.mark.parametrize("text", sorted(set(load_map().texts) - set(load_map().not_bundled)))
def test_map_has_exactly_the_paragraphs_of_its_text_in_its_order(text):
    in_text = text_paragraphs(text)
    in_map = load_map().texts[text]
    assert sorted(set(in_map) - set(in_text)) == [], "paragraph ids in the map that the text does not have"
    assert sorted(set(in_text) - set(in_map)) == [], "paragraphs of the text missing from the map"
    assert list(in_map) == list(in_text), "the map lists the paragraphs in another order than the text"


@with_the_texts
def test_the_index_agrees_with_the_texts():
    assert index_problems() == []


def test_index_problems_name_a_paragraph_missing_made_up_or_out_of_order(tmp_path):
    """Verified against a made-up text (our words) numbered like New Jersey's: (b), (a), (q)."""
    (tmp_path / NJ).write_text("Section 13:69F-3.7 - Made up\n\n(b) One.\n\n(a) Two.\n\n(q) Three.\n", encoding="utf-8")
    problems = [p.split(": ", 1)[1] for p in index_problems(directory=tmp_path) if NJ in p]
    assert f"{NJ} paragraph 3.7(q) is not in the map" in problems
    assert f"{NJ} has no paragraph '3.7(c)'" in problems
    assert f"{NJ}: paragraph 3.7(a) is out of the text's order" in problems
    assert f"{NSW} is not a regulation text in {tmp_path}" in [p.split(": ", 1)[1] for p in index_problems(
        directory=tmp_path)]


def test_the_index_is_the_maps_paragraphs_with_what_each_is_about():
    index = paragraph_index(NSW)
    assert list(index) == list(load_map().texts[NSW])
    assert "8.8.2" in index and "10.6.1.1" in index and index["14.4.1"]
    assert "12(g)(5)" in paragraph_index("indiana-68-iac-10-12-deal-and-play-of-baccarat.txt")
    assert "3.7(d)(6)" in paragraph_index(NJ)
    assert list(paragraph_index("new-zealand-gazette-1994-no-112-baccarat-rules-11-12.txt"))[:2] == ["11.1", "11.2"]
    assert paragraph_index("house-copy.pdf") is None


def test_coverage_reads_no_regulation_text(monkeypatch):
    expected = CliRunner().invoke(app, ["coverage"]).output

    def unreadable(*args, **kwargs):
        raise AssertionError("coverage read a regulation text")

    monkeypatch.setattr(compliance.paragraphs, "regulations_dir", lambda: None)
    monkeypatch.setattr(compliance.paragraphs, "text_paragraphs", unreadable)
    result = CliRunner().invoke(app, ["coverage"])
    assert result.exit_code == 0, result.output
    assert result.output == expected
    assert "not a bundled text" not in result.output


# ------------------------------------------------------------------ the map and the rulesets


def test_every_rule_cites_a_paragraph_in_the_map_or_a_text_not_bundled():
    cmap = load_map()
    for rs in bundled_rulesets():
        for r in rs.rules:
            assert r.citation is not None, f"{rs.id} {r.id} cites nothing"
            for c in r.all_citations():  # its own, and what it cites at the tables of each game
                src = rs.sources[c.source]
                if src.text is None:
                    continue  # rests on a text outside the bundle: listed by `coverage`, not verifiable here
                missing = [p for p in c.at if p not in cmap.texts[src.text]]
                assert not missing, f"{rs.id} {r.id} cites {missing}, not paragraphs of {src.text} in the map"


@pytest.mark.parametrize("chapter", ["627a", "629a", "629b", "631a"])
def test_pennsylvania_is_indexed_chapter_by_chapter_with_what_checks_each_section(chapter):
    [text] = [t for t in load_map().texts if f"-{chapter}-" in t]
    [rows] = [t for t in coverage().texts if t.text == text]
    assert rows.ruleset == "us-pa" and rows.rows
    for row in rows.rows:  # each section: the rules that check it, why none can, or the gap
        assert row.rules or row.reason, f"{chapter} {row.paragraph} says nothing of its checking"


def test_map_lists_every_rule_that_cites_a_paragraph():
    assert coverage().problems == []


def test_every_rule_the_map_names_is_a_rule_of_a_ruleset_resting_on_the_text():
    rulesets = bundled_rulesets()
    for text, entries in load_map().texts.items():
        ids = {r.id for rs in rulesets if text in texts_of(rs) for r in rs.rules}
        for e in entries.values():
            unknown = [r for r in e.rules if r not in ids]
            assert not unknown, f"{text} {e.paragraph}: {unknown} are not rules (write a `gap` for a rule not built)"


def test_every_not_checkable_paragraph_says_why():
    for entries in load_map().texts.values():
        for e in entries.values():
            assert e.about and (e.rules or (e.not_checkable or e.gap)), e.paragraph
    civil_commotion = load_map().texts[NSW]["14.4.1"]
    assert "not recorded" in civil_commotion.not_checkable


# ------------------------------------------------------------------ how paragraphs are read


def test_decimal_rules_with_bullets_headings_and_sub_sub_paragraphs():
    text = "13. Irregularities\n\n• 13.1 First.\n  • 13.1.1 Sub.\n12.0 Heading\n• 8.15 offered counter\n• clockwise on.\n"
    assert list(paragraphs(text)) == ["13.1", "13.1.1", "8.15"]


def test_text_that_begins_mid_paragraph_holds_the_end_of_the_one_before():
    assert list(paragraphs("Heading\ntable. The end of it.\n11.2 Next.\n12.1 Later.\n")) == ["11.1", "11.2", "12.1"]


def test_lettered_sections_indiana_and_new_jersey():
    indiana = "Sec. 12.\n\n(a) One.\n\n(g) Deal:\n\n(1) First.\n\n(5) Fifth.\n\n(h) Last.\n"
    assert list(paragraphs(indiana)) == ["12(a)", "12(g)", "12(g)(1)", "12(g)(5)", "12(h)"]
    nj = "Section 13:69F-3.7 - Hands\n\n(d) In lieu:\n\n5. If two or more.\n"
    assert list(paragraphs(nj)) == ["3.7(d)", "3.7(d)(5)"]


@with_the_texts
def test_the_bundled_texts_read_as_expected():
    assert "8.8.2" in text_paragraphs(NSW) and "10.6.1.1" in text_paragraphs(NSW)
    assert "12(g)(5)" in text_paragraphs("indiana-68-iac-10-12-deal-and-play-of-baccarat.txt")
    assert "3.7(d)(6)" in text_paragraphs(NJ)
    assert list(text_paragraphs("new-zealand-gazette-1994-no-112-baccarat-rules-11-12.txt"))[:2] == ["11.1", "11.2"]


# ------------------------------------------------------------------ the matrix


def test_covered_only_by_an_enabled_rule(tmp_path):
    nsw = load_ruleset("au-nsw")
    rule = citing(nsw, NSW)["10.7"][0]
    p = tmp_path / "off.yaml"
    p.write_text(f"id: off\ntitle: off\nversion: '1'\nextends: au-nsw\noverrides:\n  {rule}: {{enabled: false}}\n",
                 encoding="utf-8")
    row = {r.paragraph: r for r in coverage([load_ruleset(str(p))]).texts[0].rows}["10.7"]
    assert row.status == "missing" and f"{rule} is disabled in off" in row.reason
    before = {r.paragraph: r for r in coverage([nsw]).texts[0].rows}["10.7"]
    assert before.status == "covered" and rule in before.rules


def test_coverage_command_prints_the_matrix_and_the_share():
    result = CliRunner().invoke(app, ["coverage", "--ruleset", "au-nsw"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{NSW}  [au-nsw]\n")
    assert "14.4.1" in result.output and "n/a" in result.output
    assert "checkable paragraphs covered (" in result.output.splitlines()[-1]
    assert "indiana" not in result.output


def test_coverage_names_what_is_missing():
    cov = coverage()
    missing = [(t.text, r.paragraph, r.reason) for t in cov.texts for r in t.missing]
    out = CliRunner().invoke(app, ["coverage"]).output
    for text, para, reason in missing:
        assert reason, f"{text} {para} is missing without a reason"
        assert f"{text} {para}: {reason}" in out
    assert cov.covered + len(missing) == cov.checkable
