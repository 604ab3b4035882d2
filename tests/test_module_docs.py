"""A module's docstring is a map: what the module is, its entry points, and where its reasoning lives in docs/.

It is at most 20 lines (every module's is 12 or fewer today), and every pointer it gives
(``docs/integrity.md, "How it runs"``) names a page that exists and, where it quotes a section, a heading
of that page, so the reasoning a docstring leaves out can be found.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "compliance"
MODULES = sorted(PACKAGE.rglob("*.py"))
POINTER = re.compile(r"docs/([\w.-]+\.md)")
QUOTED = re.compile(r'"([^"]+)"')


def docstring(path: Path) -> str:
    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""


def headings(page: Path) -> list[str]:
    return [line.lstrip("#").strip() for line in page.read_text(encoding="utf-8").splitlines()
            if line.startswith("#")]


def pointers(text: str):
    """Each page a docstring names, with the sections it quotes after the name (up to the next page or ``;``)."""
    text = " ".join(text.split())
    found = list(POINTER.finditer(text))
    for i, m in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(text)
        tail = text[m.end():end].split(";")[0]
        yield m.group(1), QUOTED.findall(tail) if tail.startswith(",") else []


def broken(text: str) -> list[str]:
    """The pointers of ``text`` to a page or a section that is not there."""
    problems = []
    for page, sections in pointers(text):
        if not (ROOT / "docs" / page).is_file():
            problems.append(f"docs/{page}")
            continue
        titles = headings(ROOT / "docs" / page)
        problems += [f'docs/{page}, "{s}"' for s in sections if not any(t.startswith(s) for t in titles)]
    return problems


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_docs_a_module_docstring_points_to_exist(path):
    assert broken(docstring(path)) == [], f"{path.name} points to what docs/ does not hold"


def test_a_pointer_to_a_missing_page_or_section_is_caught():
    assert list(pointers('See docs/security.md, "The user\'s cache" and "Limits"; docs/x.md.')) == \
        [("security.md", ["The user's cache", "Limits"]), ("x.md", [])]
    assert broken('docs/security.md, "The user\'s cache" and "Limits".') == []
    assert broken('docs/security.md, "No such section".') == ['docs/security.md, "No such section"']
    assert broken("docs/no-such-page.md") == ["docs/no-such-page.md"]


MAX_LINES = 20  # a map of the module; the reasoning goes in docs/ (docs/architecture.md)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_module_docstring_is_at_most_twenty_lines(path):
    lines = len(docstring(path).splitlines())
    assert lines <= MAX_LINES, \
        f"{path.name}: a docstring of {lines} lines; keep what a reader needs to find their way, the why in docs/"
