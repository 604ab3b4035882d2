"""The one way YAML is read: plain values, the position of every node, and one wording of errors.

Rulesets, rule-test sidecars, the coverage map, waivers and the configuration
file all come through :func:`read_yaml`.  What it returns is plain Python
(``dict``, ``list``, ``str``, ``int``, exact ``Decimal`` for a YAML float,
``bool``, ``None``, and dates where the caller takes them), so the validators
downstream never see ruamel's round-trip types; every node's place is kept,
so each later complaint can say ``file:line:col: message`` too
(:meth:`YamlDoc.where`).

The input is bounded before and while it is parsed: its size, the depth of
its flow brackets (the parser slows down with them before it gives up), the
depth of its nesting and the number of nodes, aliases expanded (an alias bomb
stops at the count, not at the machine's memory).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from compliance.errors import UserError, Where

MAX_BYTES = 1_000_000  # a ruleset, map or waivers file is pages of YAML, not a data set
MAX_DEPTH = 40
MAX_NODES = 100_000

_BRACKETS = re.compile(rb"[\[\]{}]")


def flow_depth(text: bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` in the text (brackets inside strings count too: a bound, not a parse)."""
    depth = deepest = 0
    for m in _BRACKETS.finditer(text):
        if m.group() in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(depth - 1, 0)
    return deepest


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


def read_yaml(path: Path, display: str | None = None, *, what: str = "YAML file", max_bytes: int = MAX_BYTES,
              dates: bool = False) -> YamlDoc:
    """Read and parse ``path``; ``what`` names the file in messages ("ruleset", "waivers file", ...)."""
    display = str(path) if display is None else display
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        raise UserError(f"no such {what}", display) from None
    except IsADirectoryError:
        raise UserError(f"is a directory, not a {what}", display) from None
    except OSError as e:
        raise UserError(f"cannot read {what}: {e.strerror}", display) from None
    return parse_yaml(text, display, what=what, max_bytes=max_bytes, dates=dates)


def parse_yaml(text: bytes, display: str, *, what: str = "YAML file", max_bytes: int = MAX_BYTES,
               dates: bool = False) -> YamlDoc:
    """Parse YAML bytes into a :class:`YamlDoc` (every error a :class:`UserError` at ``file:line:col``)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    if len(text) > max_bytes:
        raise UserError(f"{what} is larger than {max_bytes:,} bytes", display)
    if flow_depth(text) > MAX_DEPTH:
        raise UserError(f"{what} is nested more than {MAX_DEPTH} levels deep", Where(display, 1))
    yaml = YAML(typ="rt", pure=True)
    yaml.allow_duplicate_keys = False
    try:
        node = yaml.load(io.BytesIO(text))
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = Where(display, mark.line + 1, mark.column + 1) if mark else Where(display, 1)
        raise UserError(f"invalid YAML: {e.problem or e.context}", where) from None
    except (YAMLError, RecursionError, UnicodeDecodeError, ValueError) as e:
        raise UserError(f"invalid YAML: {type(e).__name__}: {str(e)[:200]}", Where(display, 1)) from None
    doc = YamlDoc(display, sha256=hashlib.sha256(text).hexdigest())
    doc.data = _Plain(doc, dates).value(node, (), 0)
    return doc


class _Plain:
    """ruamel's round-trip nodes as plain values, recording positions as it goes."""

    def __init__(self, doc: YamlDoc, dates: bool):
        self.doc, self.dates, self.nodes = doc, dates, 0

    def value(self, node, path: tuple, depth: int):
        from ruamel.yaml.comments import CommentedMap, CommentedSeq

        self.nodes += 1
        if depth > MAX_DEPTH or self.nodes > MAX_NODES:
            raise UserError("nested too deeply or too large (aliases?)", self.doc.where(path[:-1] or ()))
        positions = self.doc.positions
        if isinstance(node, CommentedMap):
            positions.setdefault(path, (node.lc.line + 1, node.lc.col + 1))
            out = {}
            for k, v in node.items():
                if not isinstance(k, (str, int)) or isinstance(k, bool):
                    raise UserError(f"keys must be strings or numbers, not {type(k).__name__}", self.doc.where(path))
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
        if isinstance(node, float):
            return Decimal(repr(float(node)))
        if isinstance(node, int):
            return int(node)
        if isinstance(node, str):
            return str(node)
        if self.dates and isinstance(node, dt.date):
            return node
        raise UserError(f"unsupported YAML value of type {type(node).__name__} (tags are not allowed)",
                        self.doc.where(path))
