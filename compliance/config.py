"""Project configuration: ``[tool.baccarat-audit]`` or ``.baccarat-audit.yaml``.

:func:`discover` finds the file upward from the working directory, :func:`read_file` and
:func:`load` read it into :class:`Settings` (relative paths made the file's own; a file
found upward may not set ``output``: exit 2), and :func:`apply_flags` lays the command
line over it.  :data:`FORMATS`, :data:`SUFFIX_FORMAT` and :func:`output_format` say
which report format an ``-o`` names.

The keys and how the file is found: docs/reports.md, "Configuration"; why a file found
upward may not write: docs/security.md, "Configuration files found on the way up".
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from compliance import limits
from compliance.categories import SEVERITIES
from compliance.errors import UserError

if TYPE_CHECKING:
    from compliance.yamlread import YamlDoc

YAML_NAME = ".baccarat-audit.yaml"
PYPROJECT = "pyproject.toml"
TABLE = "tool.baccarat-audit"
#: the report formats, one module of compliance.report each
FORMATS = ("text", "json", "sarif", "junit", "markdown", "html", "github", "gitlab")
#: a report file's format, from its name, when nothing else gives it (longest suffix first)
SUFFIX_FORMAT = {".sarif.json": "sarif", ".junit.xml": "junit", ".json": "json", ".sarif": "sarif",
                 ".xml": "junit", ".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html",
                 ".txt": "text", ".log": "text"}
#: how JUnit reports group their test cases: a case per transcript and rule, or per coup
JUNIT_CASES = ("rule", "coup")
#: other names a report format goes by in ``FORMAT=FILE`` (its file extension)
FORMAT_ALIASES = {"md": "markdown", "htm": "html", "txt": "text"}
_FORMAT_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


@functools.cache
def config_model():
    """The pydantic model of a configuration file, built when a file is read (not on every start-up)."""
    from pydantic import BaseModel, ConfigDict, Field, field_validator

    class ConfigFile(BaseModel):
        """What a configuration file may set (keys in kebab-case, as in pyproject.toml)."""

        model_config = ConfigDict(extra="forbid", populate_by_name=True)

        ruleset: str | None = Field(default=None, description="ruleset id or YAML path for every transcript")
        format: Literal[FORMATS] | None = Field(  # type: ignore[valid-type]
            default=None, description="report format on standard output")
        output: list[str] = Field(default=[], description="reports to write: FILE or FORMAT=FILE")
        fail_on: Literal[SEVERITIES] | None = Field(  # type: ignore[valid-type]
            default=None, alias="fail-on", description="lowest severity that makes the run fail (exit 1)")
        waivers: str | None = Field(default=None, description="YAML file of approved deviations")
        baseline: str | None = Field(default=None, description="baseline file: report only findings not in it")
        paths: list[str] = Field(default=[], description="what to check when the command line names nothing")
        jurisdictions: dict[str, str] = Field(
            default={}, description="table.jurisdiction values this project uses, each mapped to a ruleset id or "
            "YAML file; a transcript may name only these and the bundled ruleset ids")
        exclude: list[str] = Field(default=[], description="globs of files and directories not to check")
        select: list[str] = Field(default=[], description="rules to run: rule ids or categories, globs allowed "
                                  "(default: every rule)")
        ignore: list[str] = Field(default=[], description="rules not to run: rule ids or categories, globs allowed")
        junit_cases: Literal[JUNIT_CASES] | None = Field(  # type: ignore[valid-type]
            default=None, alias="junit-cases", description="JUnit test cases: one per transcript and rule, or per coup")
        limits: dict[str, Annotated[int, Field(ge=1, le=1 << 20)]] = Field(
            default={}, description="size limits to raise, in megabytes, by kind of file: "
            + ", ".join(f"{k} ({limits.megabytes(getattr(limits.DEFAULTS, k))})" for k in limits.CONFIGURABLE))
        cache: bool | None = Field(default=None, description="keep validated rulesets in the user's cache directory "
                                   "between runs (default true)")
        require_evidence: list[str] = Field(
            default=[], alias="require-evidence", description="evidence every coup's record must hold (names of the "
            "transcript format's `recorded`, or `all`): a coup lacking it is an error (record.evidence-missing)")
        shifts: list[str] = Field(
            default=[], description="the times the shifts start, HH:MM on a quarter hour (06:00, 14:00, 22:00): "
            "the hold test's shifts (integrity.hold); a gaming day starts with its first shift (default: none, the "
            "day from midnight)")
        time_zone: str | None = Field(
            default=None, alias="time-zone", description="the IANA time zone (America/New_York) the shifts and "
            "days are told in (default: each time at the offset it was recorded with)")

        @field_validator("shifts")
        @classmethod
        def _shift_starts(cls, v):
            return check_shifts(v)

        @field_validator("time_zone")
        @classmethod
        def _zone(cls, v):
            return check_time_zone(v)

        @field_validator("output", "paths", "exclude", "select", "ignore", "require_evidence", "shifts", mode="before")
        @classmethod
        def _listify(cls, v):
            return [v] if isinstance(v, str) else v

        @field_validator("require_evidence")
        @classmethod
        def _evidence(cls, v):
            from compliance.evidence import required

            required(v)  # a ValueError names an unknown one
            return v

        @field_validator("format", "fail_on", "junit_cases", mode="before")
        @classmethod
        def _lower(cls, v):
            return v.lower() if isinstance(v, str) else v

        @field_validator("output")
        @classmethod
        def _known_formats(cls, v):
            for spec in v:
                try:
                    split_output(spec)  # an unknown FORMAT= is an error here, at the file's place
                except UserError as e:
                    raise ValueError(e.message) from None
            return v

        @field_validator("limits")
        @classmethod
        def _kinds(cls, v: dict[str, int]):
            unknown = sorted(set(v) - set(limits.CONFIGURABLE))
            if unknown:
                raise ValueError(f"no limit {unknown[0]!r}; the limits are {', '.join(limits.CONFIGURABLE)}")
            return v

    return ConfigFile


#: the settings `check` uses, with their defaults
DEFAULTS: dict[str, Any] = {
    "ruleset": None,
    "format": None,  # text on a terminal
    "output": [],
    "fail-on": "error",
    "waivers": None,
    "baseline": None,
    "paths": [],
    "jurisdictions": {},
    "exclude": [],
    "select": [],
    "ignore": [],
    "junit-cases": "rule",
    "cache": True,  # validated rulesets kept between runs (compliance.ruleset.cache)
    "require-evidence": [],  # evidence every coup must hold (compliance.evidence.required)
    "shifts": [],  # the hold test's shift starts (HH:MM)
    "time-zone": None,  # the zone shifts and days are told in
}
_CLOCK = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")


def check_shifts(starts: list[str]) -> list[str]:
    """Shift starts as given, each HH:MM on a quarter hour and each once (a ValueError says which is not)."""
    seen = set()
    for text in starts:
        m = _CLOCK.fullmatch(text) if isinstance(text, str) else None
        if m is None:
            raise ValueError(f"a shift starts at a time of day written HH:MM (06:00), not {text!r}")
        if int(m.group(2)) % 15:
            raise ValueError(f"a shift starts on the hour or a quarter past, half past or a quarter to it, not {text}")
        if text in seen:
            raise ValueError(f"the shift starting at {text} is given twice")
        seen.add(text)
    return list(starts)


def check_time_zone(name: str | None) -> str | None:
    """An IANA time zone name known to this machine (a ValueError names one that is not)."""
    if name is None:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"no time zone {name!r} is known here (an IANA name: Europe/London, "
                         "America/New_York)") from None
    return name
_PATH_KEYS = ("waivers", "baseline")
#: settings that write files: refused in a configuration found by searching upward (only --config may name them)
WRITING_KEYS = ("output",)


@dataclass
class Settings:
    """Effective settings and where each one came from."""

    values: dict[str, Any] = field(default_factory=lambda: dict(DEFAULTS))
    origin: dict[str, str] = field(default_factory=lambda: {k: "default" for k in DEFAULTS})
    file: Path | None = None
    sha256: str | None = None  # of the configuration file's bytes
    isolated: bool = False  # --isolated: no configuration file was looked for or read
    discovered: bool = False  # the file was found by searching upward, not named with --config

    def source(self):
        """The configuration file the settings came from, for the run context and the reports (None: none)."""
        from compliance.context import ConfigSource

        if self.file is None:
            return None
        mine = [k for k in ("ignore", "select") if self.origin.get(k) == os.path.relpath(self.file)]
        return ConfigSource(str(self.file), self.sha256 or "",
                            ignore=tuple(self.values["ignore"]) if "ignore" in mine else (),
                            select=tuple(self.values["select"]) if "select" in mine else ())

    def __getitem__(self, key: str):
        return self.values[key]

    def set(self, key: str, value, origin: str) -> None:
        self.values[key] = value
        self.origin[key] = origin


#: a ``[tool.baccarat-audit]`` table, or a ``tool.baccarat-audit`` dotted key, in a TOML text
_OUR_TABLE = re.compile(r"""^\s*(\[\s*tool\s*\.\s*["']?baccarat-audit["']?\s*[\].]|tool\s*\.\s*["']?baccarat-audit["']?\s*[.=])""",
                        re.MULTILINE)


def _mentions_our_table(path: Path) -> bool:
    """Does this file, which cannot be parsed, show a [tool.baccarat-audit] table (so that it is ours)?
    Only its first bytes, up to the configuration's size limit, are looked at."""
    try:
        with open(path, "rb") as f:
            head = f.read(limits.limit("config"))
    except OSError:
        return False
    return _OUR_TABLE.search(head.decode("utf-8", "replace")) is not None


def _pyproject_table(path: Path, discovering: bool = False) -> dict | None:
    """The [tool.baccarat-audit] table of a pyproject.toml, or None.  ``discovering``: the file was found
    on the way up, not named: one that cannot be read or parsed is passed over unless it is ours.

    Bounded (compliance.limits): the configuration's size limit, UTF-8 (a bad byte: its line and column),
    TOML nested too deeply, a number of more than figures.MAX_INT_DIGITS digits."""
    from compliance import figures, fileread  # read only where there is a file: not at start-up

    try:
        doc = tomllib.loads(fileread.read_text(path, "config", str(path)))
    except (UserError, RecursionError, ValueError) as e:  # tomllib.TOMLDecodeError is a ValueError
        if discovering and not _mentions_our_table(path):
            return None
        if isinstance(e, UserError):
            raise
        if isinstance(e, RecursionError):
            raise UserError("not valid TOML here: nested too deeply", str(path)) from None
        if not isinstance(e, tomllib.TOMLDecodeError):
            raise UserError(f"not valid TOML here: {figures.value_error(e)}", str(path)) from None
        raise UserError(f"not valid TOML: {e}", str(path)) from None
    table = doc.get("tool", {}).get("baccarat-audit")
    if table is not None and not isinstance(table, dict):
        raise UserError("[tool.baccarat-audit] must be a table", str(path))
    return table


def _yaml_mapping(path: Path) -> tuple[dict, YamlDoc]:
    from compliance.yamlread import read_yaml

    doc = read_yaml(path, what="configuration file", kind="config")  # bounded (compliance.limits)
    if doc.data is None:
        return {}, doc
    if not isinstance(doc.data, dict):
        raise UserError("the configuration must be a mapping of settings", doc.where())
    return doc.data, doc


def _find(start: Path | None) -> tuple[Path, dict | None] | None:
    """The configuration file that applies in ``start``, with its ``pyproject.toml`` table once read."""
    here = (start or Path.cwd()).resolve()
    for d in (here, *here.parents):
        candidate = d / YAML_NAME
        if candidate.is_file():
            return candidate, None
        candidate = d / PYPROJECT
        if candidate.is_file():
            table = _pyproject_table(candidate, discovering=True)
            if table is not None:
                return candidate, table
    return None


def discover(start: Path | None = None) -> Path | None:
    """The configuration file that applies in ``start`` (default: the working directory), if any."""
    found = _find(start)
    return found[0] if found else None


def read_file(path: Path, table: dict | None = None, discovered: bool = False):
    """Read and validate one configuration file (``table``: its pyproject table, when already read);
    unknown keys are errors (they catch typos). ``discovered``: found by searching upward, so a setting
    that writes a file (:data:`WRITING_KEYS`) is refused."""
    doc = None
    if path.name == PYPROJECT:
        raw = table if table is not None else _pyproject_table(path)
    else:
        raw, doc = _yaml_mapping(path)
    if raw is None:
        raise UserError("has no [tool.baccarat-audit] table", str(path))
    from pydantic import ValidationError

    writes = [k for k in WRITING_KEYS if isinstance(raw, dict) and k in raw] if discovered else []
    if writes:
        where = doc.where((writes[0],)) if doc is not None else f"{path} [{TABLE}]"
        raise UserError(f"setting {writes[0]}: a configuration found by searching upward (it may have come with "
                        "the evidence) may not name files to write; give the reports with -o on the command line, "
                        "or name this file with --config", where)
    try:
        return config_model().model_validate(raw)
    except ValidationError as e:
        first = e.errors()[0]
        key = ".".join(str(p) for p in first["loc"]) or "(top)"
        where = doc.where(tuple(first["loc"])) if doc is not None else f"{path} [{TABLE}]"
        raise UserError(f"setting {key}: {first['msg'].removeprefix('Value error, ')}", where) from None


def _relative(base: Path, value: str) -> str:
    """A path written in a configuration file, as seen from the working directory."""
    p = Path(value)
    if not p.is_absolute():
        p = base / p
    try:
        return os.path.relpath(p)
    except ValueError:  # another drive (Windows)
        return str(p)


def _ruleset_ref(base: Path, value: str) -> str:
    """A ruleset named in a configuration file: a bundled id as it is, a file relative to the file's directory."""
    from compliance.ruleset.loader import looks_like_path

    return _relative(base, value) if looks_like_path(value) else value


def split_output(spec: str) -> tuple[str | None, str]:
    """A report to write, ``FORMAT=FILE`` or ``FILE``, as (FORMAT, FILE); FORMAT is None for a bare ``FILE``.

    FORMAT is case-insensitive (``SARIF=a.sarif``), and may be a format's extension (``md=x.md``).
    Something before ``=`` that looks like a format name but is not one (``pdf=x.pdf``) is an error listing
    the known formats; a file whose name holds ``=`` after such a word is written ``./out=1.json``.
    """
    fmt, sep, file = spec.partition("=")
    if not sep or not _FORMAT_WORD.fullmatch(fmt):
        return None, spec
    fmt = FORMAT_ALIASES.get(fmt.lower(), fmt)
    if fmt.lower() not in FORMATS:
        raise UserError(f"unknown report format {fmt!r} in {spec!r}; known formats: {', '.join(FORMATS)} "
                        f"(a file whose name holds '=': write ./{spec})", "--output")
    if not file:
        raise UserError(f"{spec!r} names no file: write FORMAT=FILE, or FORMAT=- for standard output", "--output")
    return fmt.lower(), file


def suffix_format(file: str) -> str | None:
    """The report format a file name's extension stands for (``a.sarif.json``: sarif), if any."""
    name = Path(file).name.lower()
    return next((fmt for suffix, fmt in SUFFIX_FORMAT.items() if name.endswith(suffix)), None)


def output_format(spec: str, default: str | None) -> tuple[str, str]:
    """(format, file) of one ``--output``: ``FORMAT=FILE``; else --format (``default``); else the format of
    the file's extension; else text for a name without one. An extension no format has is an error."""
    fmt, file = split_output(spec)
    if fmt or default:
        return fmt or default, file
    by_name = suffix_format(file)
    if by_name:
        return by_name, file
    if file != "-" and Path(file).suffix:
        known = ", ".join(sorted(SUFFIX_FORMAT))
        raise UserError(f"cannot tell the report format of {file!r} from its extension (known: {known}): write "
                        f"FORMAT=FILE, one of {', '.join(FORMATS)}", "--output")
    return "text", file


def _relative_output(base: Path, spec: str) -> str:
    fmt, file = split_output(spec)
    return f"{fmt}={_relative(base, file)}" if fmt else _relative(base, file)


def load(explicit: Path | None = None, start: Path | None = None, isolated: bool = False) -> Settings:
    """Defaults overlaid with the configuration file (``explicit``, or the one discovered); ``isolated``
    (``--isolated``): the defaults alone, no file looked for or read."""
    settings = Settings(isolated=isolated)
    if isolated:
        if explicit is not None:
            raise UserError("--isolated reads no configuration file: give --config or --isolated, not both",
                            "--config")
        return settings
    found = (explicit, None) if explicit is not None else _find(start)
    if found is None:
        return settings
    from compliance import fileread  # read only where there is a file: not at start-up

    path, table = found
    if not path.exists():
        raise UserError("no such configuration file", str(path))
    cfg = read_file(path, table, discovered=explicit is None)
    base = path.resolve().parent
    origin = os.path.relpath(path)
    settings.file = path
    settings.discovered = explicit is None
    settings.sha256 = hashlib.sha256(fileread.read_input(path, "config", str(path))).hexdigest()
    given = cfg.model_dump(by_alias=True, exclude_unset=True)
    for key, value in given.items():
        if key in _PATH_KEYS and value is not None:
            value = _relative(base, value)
        elif key == "ruleset" and value is not None:
            value = _ruleset_ref(base, value)
        elif key == "jurisdictions":
            value = {k: _ruleset_ref(base, v) for k, v in value.items()}
        elif key == "paths":
            value = [_relative(base, v) for v in value]
        elif key == "exclude":  # a glob with a directory in it is relative to the file, as paths are
            value = [_relative(base, v) if "/" in v.rstrip("/") else v for v in value]
        elif key == "output":
            value = [_relative_output(base, v) for v in value]
        settings.set(key, value, origin)
    return settings


def apply_flags(settings: Settings, flags: dict[str, Any]) -> Settings:
    """Overlay the options given on the command line (``None`` or empty: not given)."""
    for key, value in flags.items():
        if value is None or value == [] or value == ():
            continue
        settings.set(key, value, "command line")
    return settings
