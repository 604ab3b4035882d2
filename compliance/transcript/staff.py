"""Who ran the table in each coup: a header's stretches of staff (format 1.1), resolved role by role.

Every coup a stretch covers keeps the names it gives, however the stretches
overlap (two stretches giving one name are one; a stretch without ``to_coup``
runs to the coup before the next stretch that does not repeat its name, or to
the end).  Where two
stretches give one role different names over the same coups, or a stretch ends
before it starts, the record contradicts itself: those coups name nobody in
that role (the dealer-level rules do not judge them, and accuse no one there),
and each contradiction is said (``record.staff``).  A coup's own ``staff``
overrides the stretches, name by name.  Names are kept whole: a report shortens
them, identity never.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

ROLES = ("dealer", "inspector", "supervisor")
_END = float("inf")


@dataclass(frozen=True, slots=True)
class Contradiction:
    """Stretches of the header's ``staff`` that cannot all be true."""

    role: str
    first: int  # the coups in doubt
    last: int | None  # None: to the end
    stretches: tuple[int, ...]  # their places in the header's list
    names: tuple[str, ...]  # the names they give (one for a stretch that ends before it starts)
    reversed: bool = False  # a stretch that ends before it starts

    @property
    def message(self) -> str:
        which = " and ".join(f"staff[{i}]" for i in self.stretches)
        coups = (f"coup {self.first}" if self.first == self.last else
                 f"coups {self.first} to {'the end' if self.last is None else self.last}")
        if self.reversed:
            return (f"{which} ({self.role} {self.names[0]!r}) ends before it starts (from coup {self.last} to coup "
                    f"{self.first}): who was {self.role} in {coups} is in doubt, and no {self.role}-level rule judges "
                    "those coups")
        names = ", ".join(repr(n) for n in self.names)
        return (f"{which} name different {self.role}s ({names}) for {coups}: who was {self.role} there is in doubt, "
                f"and no {self.role}-level rule judges those coups")


def _open_end(stretches: list, order: list, role: str, place: int) -> float:
    """Where a stretch without ``to_coup`` ends in ``role``: the coup before the first stretch starting after it that
    does not give the same name (a true stretch repeating it does not cut it short), or the end."""
    s = stretches[place]
    name = getattr(s, role, None)
    for other in order[bisect.bisect_right(order, (s.from_coup, len(stretches))):]:
        if getattr(stretches[other[1]], role, None) != name:
            return other[0] - 1
    return _END


def _resolve(stretches: list, role: str, order: list) -> tuple[list, list, list, list[Contradiction]]:
    """(starts, ends, names, contradictions) of ``role``: disjoint segments in order, a name or None (in doubt)."""
    spans = []  # (first, last, name, place)
    doubts = []
    for place, s in enumerate(stretches):
        name = getattr(s, role, None)
        if not name:
            continue
        first = s.from_coup
        last = s.to_coup if s.to_coup is not None else _open_end(stretches, order, role, place)
        if last < first:
            doubts.append(Contradiction(role, last, first, (place,), (name,), True))
            spans.append((last, first, None, place))
            continue
        spans.append((first, last, name, place))
    if not spans:
        return [], [], [], []
    points = sorted({first for first, *_ in spans} | {last + 1 for _, last, *_ in spans if last != _END})
    starts, ends, names, found = [], [], [], []
    by_first = sorted(spans, key=lambda sp: (sp[0], sp[3]))
    active: list = []
    k = 0
    for i, at in enumerate(points):
        while k < len(by_first) and by_first[k][0] <= at:
            active.append(by_first[k])
            k += 1
        active = [sp for sp in active if sp[1] >= at]
        if not active:
            continue
        end = points[i + 1] - 1 if i + 1 < len(points) else _END
        given = {sp[2] for sp in active}
        real = given - {None}
        name = next(iter(real)) if len(real) == 1 and None not in given else None
        if len(real) > 1:  # two stretches, two names, the same coups
            ordered = sorted((sp for sp in active if sp[2] is not None), key=lambda sp: sp[3])
            places, told = tuple(sp[3] for sp in ordered), tuple(dict.fromkeys(sp[2] for sp in ordered))
            last = None if end == _END else end
            if found and found[-1].stretches == places and found[-1].last is not None and found[-1].last + 1 == at:
                found[-1] = Contradiction(role, found[-1].first, last, places, told)
            else:
                found.append(Contradiction(role, at, last, places, told))
        if names and names[-1] == name and ends[-1] + 1 == at:
            ends[-1] = end
        else:
            starts.append(at)
            ends.append(end)
            names.append(name)
    return starts, ends, names, doubts + found


class Staffing:
    """Who ran the table in each coup: the header's stretches of coups, a coup's own ``staff`` over them."""

    ROLES = ROLES

    def __init__(self, stretches):
        self.stretches = list(stretches or ())
        order = sorted((s.from_coup, place) for place, s in enumerate(self.stretches))
        self.roles = {}
        self.contradictions: list[Contradiction] = []
        for role in ROLES:
            starts, ends, names, found = _resolve(self.stretches, role, order)
            if starts:
                self.roles[role] = (starts, ends, names)
            self.contradictions.extend(found)

    def of(self, number: int | None, own) -> tuple[tuple[str, str], ...]:
        """(role, name) of each role named in coup ``number``, names whole."""
        found: dict[str, str] = {}
        if number is not None:
            for role, (starts, ends, names) in self.roles.items():
                k = bisect.bisect_right(starts, number) - 1
                if k >= 0 and number <= ends[k] and names[k] is not None:
                    found[role] = names[k]
        if own is not None:
            found |= {r: getattr(own, r) for r in ROLES if getattr(own, r)}
        return tuple((r, found[r]) for r in ROLES if r in found)
