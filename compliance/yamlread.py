"""The one way YAML is read: plain values, the position of every node, and one wording of errors.

Rulesets, rule-test sidecars, the coverage map, waivers and the configuration file all
come through :func:`read_yaml` (:func:`parse_yaml` for bytes at hand).  It returns a
:class:`YamlDoc`: plain Python values (an exact ``Decimal`` for a YAML float, a date kept
as its text) and every node's place, so later complaints say ``file:line:col: message``
(:meth:`YamlDoc.where`).  The input is bounded before it is parsed and before a value is
built (size, UTF-8, nesting, aliases expanded: :func:`measure` refuses a document nested too deep or
holding too much once its aliases are expanded, before a single object is built).

The bounds and what each refuses: docs/reliability.md, "The bounds"; docs/architecture.md,
"Reading YAML".
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from compliance import fileread, limits
from compliance.errors import UserError, Where
from compliance.figures import exact_float, value_error

#: how deep a YAML document may nest
MAX_DEPTH = 40
#: a YAML document's aliases may expand it to this many times its size (values and characters) ...
EXPANSION = 4
#: ... and a small document's to this many
MIN_EXPANSION = 100_000
MAX_NODES = 100_000  # values a document may hold, at least (expansion_allowed: more for a larger text)
#: documents parsed in this process, by (SHA-256 of their bytes, kind, bounds, the limits above): the same
#: bytes read again (a base ruleset under each of its rulesets, the rule tests' sidecars) are not parsed again
_PARSED: dict[tuple, tuple[object, dict]] = {}
_PARSED_MAX = 1024


@dataclass
class YamlDoc:
    """A YAML document as plain Python values plus the position (line, column; 1-based) of every node."""

    display: str  # the name errors carry
    data: object = None
    positions: dict[tuple, tuple[int, int]] = field(default_factory=dict)
    sha256: str = ""  # of the bytes parsed (a ruleset's content hash is made of its files')

    def position(self, path: tuple) -> tuple[int, int]:
        """Line and column of the node at ``path``, or of its nearest ancestor that has one."""
        path = tuple(path)
        while path and path not in self.positions:
            path = path[:-1]
        return self.positions.get(path, (1, 1))

    def where(self, path: tuple = ()) -> Where:
        return Where(self.display, *self.position(path))


def read_yaml(path: Path, display: str | None = None, *, what: str = "YAML file", kind: str = "ruleset",
              bounds: limits.Limits = limits.DEFAULTS) -> YamlDoc:
    """Read and parse ``path`` within the limits of ``kind`` (compliance.limits: ``ruleset`` for rulesets,
    sidecars and the coverage map, ``waivers``, ``config``; ``bounds``: the run's); ``what`` names the file
    in messages."""
    display = str(path) if display is None else display
    return parse_yaml(fileread.read_input(path, kind, display, missing=f"no such {what}", bounds=bounds), display,
                      what=what, kind=kind, bounds=bounds)


def parse_yaml(text: bytes, display: str, *, what: str = "YAML file", kind: str = "ruleset",
               bounds: limits.Limits = limits.DEFAULTS) -> YamlDoc:
    """Parse YAML bytes into a :class:`YamlDoc` (every error a :class:`UserError` at ``file:line:col``)."""
    if len(text) > limits.limit(kind, bounds):
        raise UserError(limits.too_large(kind, len(text), bounds), display)
    sha256 = hashlib.sha256(text).hexdigest()
    key = (sha256, kind, bounds, MAX_DEPTH, MAX_NODES, EXPANSION, MIN_EXPANSION)
    if key in _PARSED:
        data, positions = _PARSED[key]
        return YamlDoc(display, _copy(data), dict(positions), sha256)
    doc = _parse(text, display, what, bounds, sha256)
    if len(_PARSED) >= _PARSED_MAX:
        _PARSED.clear()
    _PARSED[key] = (_copy(doc.data), dict(doc.positions))
    return doc


def _copy(value):
    """A parsed document's values anew (its leaves, strings, numbers and dates as text, never change)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _parse(text: bytes, display: str, what: str, bounds: limits.Limits, sha256: str) -> YamlDoc:
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    source = fileread.decode_text(text, display)
    if flow_depth(source) > MAX_DEPTH:
        raise UserError(f"{what} is nested more than {MAX_DEPTH} levels deep", Where(display, 1))
    allowed = expansion_allowed(source)
    try:
        node = bounded_yaml(allowed, "rt").load(source)
    except YamlBound as e:
        raise UserError(e.message, Where(display, e.line or 1, e.column or 1)) from None
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = Where(display, mark.line + 1, mark.column + 1) if mark else Where(display, 1)
        raise UserError(f"invalid YAML: {e.problem or e.context}", where) from None
    except RecursionError:
        raise UserError(f"invalid YAML: nested more than {MAX_DEPTH} levels deep", Where(display, 1)) from None
    except ValueError as e:  # a number of more than figures.MAX_INT_DIGITS digits
        raise UserError(f"invalid YAML: {value_error(e)}", Where(display, 1)) from None
    except YAMLError as e:
        raise UserError(f"invalid YAML: {type(e).__name__}: {str(e)[:200]}", Where(display, 1)) from None
    doc = YamlDoc(display, sha256=sha256)
    doc.data = _Plain(doc, max(MAX_NODES, allowed)).value(node, (), 0)
    return doc


SURROGATE = "text holds a lone surrogate (\\ud800 to \\udfff alone), which is not a character"


class _Plain:
    """ruamel's round-trip nodes as plain values, recording positions as it goes."""

    def __init__(self, doc: YamlDoc, max_nodes: int):
        self.doc, self.max_nodes, self.nodes = doc, max_nodes, 0

    def value(self, node, path: tuple, depth: int):
        from ruamel.yaml.comments import CommentedMap, CommentedSeq

        self.nodes += 1
        if depth > MAX_DEPTH or self.nodes > self.max_nodes:
            raise UserError("nested too deeply or too large (aliases?)", self.doc.where(path[:-1] or ()))
        positions = self.doc.positions
        if isinstance(node, CommentedMap):
            positions.setdefault(path, (node.lc.line + 1, node.lc.col + 1))
            out = {}
            for k, v in node.items():
                if not isinstance(k, (str, int)) or isinstance(k, bool):
                    raise UserError(f"keys must be strings or numbers, not {type(k).__name__}", self.doc.where(path))
                if isinstance(k, str) and fileread.lone_surrogate(k) is not None:
                    raise UserError(SURROGATE, self.doc.where(path + (k,)))
                try:
                    line, col = node.lc.key(k)
                    positions[path + (k,)] = (line + 1, col + 1)
                except (KeyError, TypeError):
                    pass
                out[k] = self.value(v, path + (k,), depth + 1)
            return out
        if isinstance(node, CommentedSeq):
            positions.setdefault(path, (node.lc.line + 1, node.lc.col + 1))
            out = []
            for i, v in enumerate(node):
                try:
                    line, col = node.lc.item(i)
                    positions[path + (i,)] = (line + 1, col + 1)
                except (KeyError, TypeError, IndexError):
                    pass
                out.append(self.value(v, path + (i,), depth + 1))
            return out
        if isinstance(node, bool) or node is None:
            return node
        if isinstance(node, Decimal):  # a YAML float, read exactly from its text (exact_float)
            return node
        if isinstance(node, float):
            return Decimal(repr(float(node)))
        if isinstance(node, int):
            return int(node)
        if isinstance(node, str):
            if fileread.lone_surrogate(node) is not None:
                raise UserError(SURROGATE, self.doc.where(path))
            return str(node)
        raise UserError(f"unsupported YAML value of type {type(node).__name__} (tags are not allowed)",
                        self.doc.where(path))


# ------------------------------------------------------------------ bounds, before a value is built


class YamlBound(Exception):
    """A YAML document over one of the bounds; ``line``/``column`` are 1-based, 0 when unknown."""

    def __init__(self, message: str, line: int = 0, column: int = 0):
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


def _mark(node) -> tuple[int, int]:
    m = getattr(node, "start_mark", None)
    return (m.line + 1, m.column + 1) if m is not None else (0, 0)


def measure(root, allowed: int, max_depth: int = MAX_DEPTH) -> None:
    """Refuse (:class:`YamlBound`) a composed YAML node graph nested too deep, or holding more than
    ``allowed`` values or ``allowed`` characters once its aliases are expanded.

    Aliases are the same node object reached twice, so each node's expanded
    size is worked out once (memoised): linear in the document, never in its
    expansion.  Merge keys (``<<: *a``) are mapping values like any other.
    """
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

    size: dict[int, tuple[int, int]] = {}  # id(node) -> (values, characters) it stands for, expanded
    on_path: set[int] = set()
    stack: list[tuple[object, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            children = node.value if isinstance(node, SequenceNode) else [c for kv in node.value for c in kv]
            values, chars = 1, 0
            for c in children:
                v, n = size[id(c)]
                values += v
                chars += n
            if values > allowed or chars > allowed:
                raise YamlBound(f"too large once its aliases are expanded: more than {allowed:,} values or "
                                "characters (an alias bomb?)", *_mark(node))
            size[key] = (values, chars)
            continue
        if key in size:
            continue
        if isinstance(node, ScalarNode):
            size[key] = (1, len(node.value))
            continue
        if not isinstance(node, (SequenceNode, MappingNode)):
            size[key] = (1, 0)
            continue
        if depth > max_depth:
            raise YamlBound(f"nested more than {max_depth} levels deep", *_mark(node))
        on_path.add(key)
        stack.append((node, depth, True))
        children = node.value if isinstance(node, SequenceNode) else [c for kv in node.value for c in kv]
        for child in children:
            if id(child) in on_path:
                raise YamlBound("an alias refers to the node that holds it (a recursive document)", *_mark(child))
            if id(child) not in size:
                stack.append((child, depth + 1, False))


def expansion_allowed(text: str) -> int:
    """Values (and characters) a document may hold once its aliases are expanded: four times its size, and
    never less than :data:`MIN_EXPANSION`."""
    return max(MIN_EXPANSION, EXPANSION * len(text))


def bounded_yaml(allowed: int, typ: str = "rt"):
    """A ruamel.yaml loader that measures each document (:func:`measure`) before it builds a single object
    from it; dates are left as text (an impossible date is then a bad value in its place, not a crash), and
    duplicate keys and anchors set twice are errors."""
    from ruamel.yaml import YAML
    from ruamel.yaml.composer import Composer, ComposerError
    from ruamel.yaml.constructor import RoundTripConstructor, SafeConstructor
    from ruamel.yaml.events import AliasEvent

    base = RoundTripConstructor if typ == "rt" else SafeConstructor

    class Bounded(base):
        def construct_document(self, node):
            measure(node, allowed)
            return super().construct_document(node)

        def construct_yaml_timestamp(self, node, values=None):
            return str(self.construct_scalar(node))

        def construct_yaml_float(self, node):
            return exact_float(str(self.construct_scalar(node)))

    Bounded.add_constructor("tag:yaml.org,2002:timestamp", Bounded.construct_yaml_timestamp)
    Bounded.add_constructor("tag:yaml.org,2002:float", Bounded.construct_yaml_float)
    class Once(Composer):
        """An anchor named again is refused: an alias to it would take whichever came last, silently."""

        def compose_node(self, parent, index):
            event = self.parser.peek_event()
            anchor = None if isinstance(event, AliasEvent) else getattr(event, "anchor", None)
            if anchor is not None and anchor in self.anchors:
                first = self.anchors[anchor].start_mark
                raise ComposerError(None, None, f"the anchor &{anchor} is set again (first on line {first.line + 1}): "
                                    "an alias to it would be ambiguous", event.start_mark)
            return super().compose_node(parent, index)

    loader = YAML(typ=typ, pure=True)
    loader.Constructor = Bounded
    loader.Composer = Once
    loader.allow_duplicate_keys = False
    return loader


def flow_depth(text: str | bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` (brackets inside strings count too: a bound, not a parse)."""
    import re

    pattern = re.compile(rb"[\[\]{}]" if isinstance(text, bytes) else r"[\[\]{}]")
    opening = (b"[", b"{") if isinstance(text, bytes) else ("[", "{")
    depth = deepest = 0
    for m in pattern.finditer(text):
        if m.group() in opening:
            depth += 1
            if depth > deepest:
                deepest = depth
        elif depth:
            depth -= 1
    return deepest
