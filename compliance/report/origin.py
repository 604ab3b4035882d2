"""A ruleset loaded from a file, against the bundled one: the rules it turns off, changes and adds, and the
game's parameters it changes (:func:`ruleset_origin`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from compliance.report.wording import listed, plural

if TYPE_CHECKING:
    from compliance.ruleset.models import Ruleset


@dataclass(frozen=True)
class RulesetOrigin:
    """A ruleset loaded from a file (``-r path``, the configuration), against the bundled ruleset whose id it
    takes or, failing that, the nearest bundled one it extends: the rules it turns off, changes and adds."""

    path: str  # the file asked for (the top of its extends chain)
    base: str | None  # the bundled ruleset it is compared with
    takes_bundled_id: bool  # its id is a bundled ruleset's (a look-alike, or a house copy)
    disabled: list[str]
    changed: list[str]
    added: list[str]
    parameters: list[str] = field(default_factory=list)  # the game's parameters it changes: "PATH from A to B"

    def words(self) -> str:
        out = f"loaded from the file {self.path}"
        if self.base is None:
            return out
        how = "the bundled ruleset of the same id" if self.takes_bundled_id else f"the bundled ruleset {self.base}"
        parts = [f"{plural(len(self.disabled), 'rule')} turned off" + (f" ({listed(self.disabled)})"
                                                                         if self.disabled else ""),
                 f"{len(self.changed):,} changed" + (f" ({listed(self.changed)})" if self.changed else "")]
        if self.added:
            parts.append(f"{len(self.added):,} added ({listed(self.added)})")
        if self.parameters:
            parts.append(f"{plural(len(self.parameters), 'parameter')} of the game changed "
                         f"({listed(self.parameters)})")
        return f"{out}; against {how}: " + ", ".join(parts)

    def as_dict(self) -> dict:
        return {"file": self.path, "base": self.base, "takes_bundled_id": self.takes_bundled_id,
                "disabled": self.disabled, "changed": self.changed, "added": self.added,
                "parameters": self.parameters}


def _shown(path: str) -> str:
    """A ruleset file's path as reports give it: relative to the working directory when it is under it (--dask
    sends the workers absolute paths; the report is the same as -j 1's)."""
    import os

    if os.path.isabs(path):
        try:
            rel = os.path.relpath(path)
        except ValueError:  # another drive (Windows)
            return path
        if not rel.startswith(os.pardir):
            return rel
    return path


def ruleset_origin(rs: Ruleset) -> RulesetOrigin | None:
    """None for a bundled ruleset; else where it was loaded from and what it changes (bundled rulesets are
    loaded here to compare, only for a run judged by a ruleset file)."""
    from pathlib import Path

    from compliance.ruleset.loader import bundled_dir, bundled_ids, load_ruleset

    if not rs.files or Path(rs.files[-1]).resolve().parent == bundled_dir().resolve():
        return None
    path = _shown(rs.path)
    known = bundled_ids()
    base = rs.id if rs.id in known else next((i for i in rs.lineage[1:] if i in known), None)
    if base is None:
        return RulesetOrigin(path, None, False, [], [], [])
    bundled = load_ruleset(base)
    theirs = {r.id: r for r in bundled.rules}
    mine = {r.id: r for r in rs.rules}
    return RulesetOrigin(path, base, rs.id in known,
                         disabled=sorted(set(theirs) - set(mine)),
                         changed=sorted(i for i in theirs if i in mine and mine[i] != theirs[i]),
                         added=sorted(set(mine) - set(theirs)),
                         parameters=_changed_parameters(bundled, rs))


def _changed_parameters(bundled: Ruleset, rs: Ruleset) -> list[str]:
    """The game's parameters (odds, commission, tableau, spots, dealing methods) ``rs`` sets otherwise than
    ``bundled``: ``PATH from OLD to NEW``, by path."""
    def flat(value, path: str):
        if isinstance(value, dict):
            for k, v in value.items():
                yield from flat(v, f"{path}.{k}" if path else str(k))
        elif isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
            for i, v in enumerate(value):
                yield from flat(v, f"{path}[{i}]")
        else:
            yield path, value

    def parameters(r: Ruleset) -> dict:
        doc = {"game": r.game.model_dump(mode="json") if r.game is not None else None,
               "dealing_methods": list(r.dealing_methods) if r.dealing_methods is not None else None}
        return dict(flat(doc, ""))

    before, after = parameters(bundled), parameters(rs)

    def shown(v) -> str:
        return "(none)" if v is None else str(v)

    return [f"{k} from {shown(before.get(k))} to {shown(after.get(k))}" for k in sorted(set(before) | set(after))
            if before.get(k) != after.get(k)]
