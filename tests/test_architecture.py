"""The package's layout: imports run downward only, and every game has the same shape.

The layers, top to bottom (docs/architecture.md):

    cli -> api -> the run (_internal), coverage -> engine -> games -> rulesets (loading)
        -> ruleset models / transcript vocabulary -> base

Every import is counted, the ones inside functions too: a lazy import is
still a dependency, and a cycle through one is still a cycle.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from pathlib import Path

import pytest

from compliance import games, registry

PACKAGE = Path(__file__).resolve().parent.parent / "compliance"

# the layer of each module, by the longest prefix that names it (0 is the bottom)
LAYERS: dict[str, int] = {
    "compliance": 0,  # __version__ and the package docstring
    "compliance.errors": 0,
    "compliance.categories": 0,
    "compliance.cards": 0,
    "compliance.findings": 0,
    "compliance.checks": 0,  # the registry of check kinds (each game's kinds register in it)
    "compliance.evidence": 0,  # what a recording may hold, and what each check kind needs of it
    "compliance.conditions": 0,  # the registry of condition kinds (what wager spots are settled on)
    "compliance.limits": 0,  # the size limit of each kind of file
    "compliance.fileread": 0,  # a file's bytes or text, within its kind's limit
    "compliance.figures": 0,  # figures read exact, and within the digits money is kept to
    "compliance.yamlread": 0,  # YAML read bounded (nesting, aliases) into plain values and places
    "compliance.cachedir": 0,
    "compliance.lintcodes": 0,  # the codes of `ruleset lint` (each game registers those of its own section)
    "compliance.stats": 0,  # probability tails and Benjamini-Hochberg for the integrity tests
    "compliance.selection": 0,  # --select/--ignore (the run context holds one)
    "compliance.context": 0,  # the run context: handed from the command to the engine, runners and games
    "compliance.printable": 0,  # strings from the evidence, safe to print and bounded (names)
    "compliance.registry": 0,  # the registry of games: below the rulesets and the games, which both ask it
    "compliance.paragraphs": 0,  # the paragraph index of the regulation texts: below the rulesets' lint
    "compliance.transcript": 1,  # the transcript vocabulary every game's format is built from
    "compliance.ruleset.models": 1,
    "compliance.ruleset": 2,  # loading and caching rulesets: below the games, whose sections they validate
    "compliance.games": 3,
    "compliance.ruleset.lint": 4,  # the engine's lint, which hands a game's lint its section
    "compliance.reading": 4,
    "compliance.engine": 4,
    "compliance._internal.driver": 4,  # plans a run, hands its units to a runner, merges and judges them
    "compliance._internal.runners": 4,  # the runners of a run's units: in this process, a process pool, Dask
    "compliance.coverage": 5,  # joins the paragraph index with the loaded rulesets (and lints the map with both)
    "compliance._internal": 5,  # the run's steps behind the public API (configuration, outputs, reports)
    "compliance.api": 6,  # the public API: one check
    "compliance.cli": 7,
    "compliance.__main__": 7,
}
ENGINE = 4


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _imports(name: str, source: str | None = None) -> set[str]:
    """The package's modules that ``name`` imports (its file, or ``source``), anywhere in its body: at the
    top, inside a function, under ``if TYPE_CHECKING``."""
    path = MODULES.get(name, PACKAGE / "_.py")
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source if source is not None else path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("compliance")}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            if not base.startswith("compliance"):
                continue
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in MODULES else base)
    return {m for m in found if m in MODULES and m != name}


@functools.cache
def graph() -> dict[str, set[str]]:
    """Each module of the package -> the package's modules it imports (built on first use, not at collection)."""
    return {name: _imports(name) for name in MODULES}


def layer(name: str) -> int:
    best = max((p for p in LAYERS if name == p or (p != "compliance" and name.startswith(p + "."))),
               key=len, default=None)
    return LAYERS[best] if best is not None else ENGINE  # engine modules at the top of the package


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_package_has_no_import_cycle():
    assert _cycles(graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_imports_run_downward_only():
    upward = [f"{m} (layer {layer(m)}) imports {t} (layer {layer(t)})"
              for m, targets in sorted(graph().items()) for t in sorted(targets) if layer(t) > layer(m)]
    assert upward == []


def test_an_import_inside_a_function_is_held_to_the_layers():
    """Putting an import inside a function (to keep it off start-up, or to dodge a cycle) does not take it out
    of the layering: the ruleset lint reaching up into coverage that way fails."""
    source = "def citations():\n    from compliance.coverage import paragraph_index\n    return paragraph_index\n"
    targets = _imports("compliance.ruleset.lint", source)
    assert targets == {"compliance.coverage"}
    assert [t for t in targets if layer(t) > layer("compliance.ruleset.lint")] == ["compliance.coverage"]


def test_the_registry_and_the_paragraph_index_are_below_the_rulesets_and_the_games():
    """The rulesets (loading, caching, lint) ask ``compliance.registry`` for the games and ``compliance.paragraphs``
    for the paragraph index: both sit in the base layer, importing neither the rulesets nor the games; the
    rulesets' loading and cache import no module of the games at all, and nothing reads the registry off
    ``compliance.games`` (it lives in one module)."""
    for low in ("compliance.registry", "compliance.paragraphs"):
        assert layer(low) < layer("compliance.ruleset.loader") < layer("compliance.games"), low
        assert not [t for t in graph()[low] if t.startswith(("compliance.ruleset", "compliance.games"))], low
    loading = [f"{m} imports {t}" for m in sorted(graph()) if m.startswith("compliance.ruleset.")
               and m != "compliance.ruleset.lint" for t in sorted(graph()[m]) if t.startswith("compliance.games")]
    assert loading == []
    names = {n for n in vars(registry) if not n.startswith("_") and n not in ("annotations", "functools",
                                                                             "importlib", "msgspec", "Any")}
    assert names >= {"PACKAGES", "get", "BACCARAT", "for_table_game", "of_document", "load_checks"}
    assert not names & set(vars(games))
    read_off_games = []
    for m, path in sorted(MODULES.items()):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "games"
                    and node.attr in names) or (isinstance(node, ast.ImportFrom) and node.module == "compliance.games"
                                                and {a.name for a in node.names} & names):
                read_off_games.append(f"{m}:{node.lineno}")
    assert read_off_games == []


def _game_packages() -> list[str]:
    return sorted(p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").exists())


def test_the_engine_knows_a_game_only_through_its_interface():
    """Below the CLI, nothing outside ``compliance/games`` names a game's package."""
    named = [f"{m} imports {t}" for m, targets in sorted(graph().items()) if layer(m) == ENGINE
             for t in sorted(targets) if any(t.startswith(f"compliance.games.{g}") for g in _game_packages())]
    assert named == []


#: the layers every game shares, which know a game only through compliance.games (issue 29): these folders and modules
SHARED_FOLDERS = ("ruleset", "reading", "report", "transcript", "importing", "_internal")
SHARED_MODULES = ("api", "engine", "limits", "fileread", "figures", "yamlread", "conditions", "checks",
                  "cachedir")


def _shared(name: str) -> bool:
    parts = name.split(".")
    return len(parts) > 1 and (parts[1] in SHARED_FOLDERS or (len(parts) == 2 and parts[1] in SHARED_MODULES))


def test_the_shared_layers_are_the_ones_named():
    for folder in SHARED_FOLDERS:
        assert (PACKAGE / folder / "__init__.py").exists(), folder
    for module in SHARED_MODULES:
        assert (PACKAGE / f"{module}.py").exists(), module


def _game_names(name: str) -> list[str]:
    """The string constants of a module, docstrings aside, that name a game's package (an import by name)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
            and any(f"compliance.games.{g}" in node.value for g in _game_packages())]


def test_the_shared_layers_import_no_game_package():
    """The shared folders and modules know a game only through ``compliance.games`` (the interface and the
    registry): they import no game's package, by an import statement or by name."""
    shared = [m for m in MODULES if _shared(m)]
    assert "compliance.engine" in shared and "compliance.ruleset.models" in shared and "compliance.checks" in shared
    named = [f"{m} imports {t}" for m in sorted(shared) for t in sorted(graph()[m])
             if any(t == f"compliance.games.{g}" or t.startswith(f"compliance.games.{g}.") for g in _game_packages())]
    named += [f"{m} names {s!r}" for m in sorted(shared) for s in _game_names(m)]
    assert named == []


def test_the_ruleset_models_list_no_game():
    """The games a ruleset may name in ``game_kind`` are the registry's, not a list in the ruleset models."""
    tree = ast.parse(MODULES["compliance.ruleset.models"].read_text(encoding="utf-8"))
    kinds = set(registry.PACKAGES)
    named = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and node.value in kinds]
    assert named == []


def test_a_games_ruleset_section_is_its_own_and_the_ruleset_holds_it_as_any_model():
    """The model of a ruleset's ``game`` section is in its game's package (baccarat's tableau and spots are not the
    shared ruleset models'), and a ruleset holds whichever model its game hands the loader."""
    import typing

    from compliance.ruleset.models import Ruleset

    for kind, package in registry.PACKAGES.items():
        section = registry.get(kind).section
        assert section is None or section.__module__.startswith(package + "."), (kind, section)
    assert Ruleset.model_fields["game"].annotation is typing.Any


def test_no_game_imports_another():
    games = _game_packages()
    crossing = [f"{m} imports {t}" for m, targets in sorted(graph().items()) for g in games
                if m.startswith(f"compliance.games.{g}") for t in sorted(targets)
                for other in games if other != g and t.startswith(f"compliance.games.{other}")]
    assert crossing == []


@pytest.mark.parametrize("game", _game_packages())
def test_every_game_is_a_package_of_the_same_shape(game):

    names = {p.stem for p in (PACKAGE / "games" / game).iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()}
    assert {"__init__", "models", "table", "replay", "checks", "simulate"} <= names
    assert f"compliance.games.{game}" in registry.PACKAGES.values()
    kind = next(k for k, v in registry.PACKAGES.items() if v == f"compliance.games.{game}")
    g = registry.get(kind)
    assert g.kind == kind and g.table_games and g.transcript_model is not None


@pytest.mark.parametrize("kind", list(registry.PACKAGES))
def test_every_game_keeps_the_contract_of_the_interface(kind):
    """``GAME`` of each package is a :class:`compliance.games.Game`: every member of the protocol, its methods
    taking the protocol's parameters, and what it gives (a replayer, an importer, a lint, an integrity stage) each
    keeping the protocol of its own."""
    import inspect

    from compliance.categories import SHARED, Category
    from compliance.transcript.codec import Codec

    g = registry.get(kind)
    assert isinstance(g, games.Game)
    for name in ("build_table", "replayer"):
        want = list(inspect.signature(getattr(games.Game, name)).parameters)[1:]
        assert list(inspect.signature(getattr(g, name)).parameters) == want, name
    assert isinstance(g.codec, Codec) and isinstance(g.table_games, tuple) and g.kind == kind
    assert (g.section is None) == (g.lint is None)  # a game section is linted by its game, and only then
    assert all(isinstance(c, Category) and c.name not in SHARED for c in g.categories)  # its own, none shared
    assert g.transcript_schema()["title"] and g.schema_name not in ("ruleset", "report")
    for member, protocol in (("importer", games.Importer), ("lint", games.GameLint), ("integrity", games.Integrity)):
        value = getattr(g, member)
        assert value is None or isinstance(value, protocol), member


def test_each_game_names_its_transcript_schema_alone():
    names = [g.schema_name for g in registry.every()]
    assert len(set(names)) == len(names)


#: what the package may import outside the standard library: its declared dependencies (pyproject.toml), by
#: the name they are imported under, and the optional extra that `check --dask` names
DECLARED = {"typer", "rich", "pydantic", "ruamel", "msgspec"}
OPTIONAL = {"distributed", "dask"}  # pip install 'baccarat-audit[dask]'; imported only by check --dask
#: a dependency's own required dependency, read where it is part of that dependency's interface
THROUGH = {"annotated_types": "pydantic (a Field's constraints are annotated_types objects)"}


def test_the_package_imports_only_its_declared_dependencies():
    """A fresh `make run` installs the dependencies alone: a module a dependency brings only by chance (click,
    with an older typer, or with the test extras) would be missing there."""
    import tomllib

    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["project"]
    declared = {re.split(r"[<>=!~\[ ;.]", d, maxsplit=1)[0].lower() for d in project["dependencies"]}
    assert declared == DECLARED, f"pyproject.toml declares {sorted(declared)}: say here what they are imported as"
    outside = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top == "compliance" or top in DECLARED | OPTIONAL | set(THROUGH):
                    continue
                outside.setdefault(top, []).append(str(path.relative_to(PACKAGE.parent)))
    assert not outside, f"imported but not a declared dependency: {outside}"
