"""The size limit of each kind of file the tool reads.

:class:`Limits` holds one limit in bytes a kind (``transcript``, ``line``, ``stream``, ``markdown``,
``ruleset``, ``mapping``, ``waivers``, ``baseline``, ``config``): :data:`DEFAULTS`, raised by the
configuration, handed down in a run's context; :func:`too_large` says a file is over its limit.  Reading
a file within it is :mod:`compliance.fileread`; the bounds of YAML, :mod:`compliance.yamlread`; of the
figures read, :mod:`compliance.figures`.

Every bound, its default, and what each hostile input costs: docs/reliability.md, "The bounds".
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

MB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """Size limits in bytes, by kind of file (see the module's table)."""

    transcript: int = 256 * MB
    line: int = 16 * MB
    stream: int = 64 * MB
    markdown: int = 64 * MB
    ruleset: int = 256 * 1024
    mapping: int = 256 * 1024
    waivers: int = 32 * MB
    baseline: int = 64 * MB
    config: int = 1 * MB

    @classmethod
    def raised(cls, megabytes: dict[str, int] | None = None) -> Limits:
        """The defaults, with the kinds the configuration raises (``{kind: megabytes}``)."""
        return replace(cls(), **{kind: mb * MB for kind, mb in (megabytes or {}).items()})


#: the kinds the configuration may raise (``limits:``, in megabytes)
CONFIGURABLE = tuple(f.name for f in fields(Limits) if f.name != "config")
DEFAULTS = Limits()

#: what each kind is called in messages
NOUN = {"transcript": "a .json transcript", "line": "a .jsonl line", "stream": "an input that is not a regular file",
        "markdown": "a Markdown document", "ruleset": "a ruleset",
        "mapping": "a mapping or an import's header file", "waivers": "a waivers file",
        "baseline": "a baseline file", "config": "a configuration file"}


def limit(kind: str, bounds: Limits = DEFAULTS) -> int:
    return getattr(bounds, kind)


def megabytes(n: int) -> str:
    """``64 MB``, ``256 KB``: a limit as people say it."""
    if n >= MB:
        return f"{n / MB:,.0f} MB" if n % MB == 0 or n >= 10 * MB else f"{n / MB:,.1f} MB"
    return f"{n // 1024:,} KB" if n % 1024 == 0 else f"{n:,} bytes"


def too_large(kind: str, size: int | None = None, bounds: Limits = DEFAULTS) -> str:
    """The message for a file over its kind's limit: the limit, and how to raise it."""
    n = limit(kind, bounds)
    said = f"{megabytes(size)}: " if size is not None else ""
    how = ("" if kind not in CONFIGURABLE else
           f"; raise it with `limits: {{{kind}: MEGABYTES}}` in the configuration")
    return f"{said}larger than the limit of {megabytes(n)} for {NOUN[kind]}{how}"
