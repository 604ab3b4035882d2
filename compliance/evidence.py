"""What a recording holds: the evidence a rule needs, and how a report says it was not recorded.

:data:`EVIDENCE` names the evidence a recording may hold.  A transcript declares what it
holds (``recorded``, format 1.1), a coup holds that and whatever its content shows
(:func:`held`, :func:`with_shown`), and a check kind that ``needs`` evidence a coup lacks is
not judged there (:func:`missing`, :func:`reason`: "calls not recorded").  The names in
:data:`DERIVED` are never declared; they follow from the others.  :class:`View` is the coup seen
through its evidence for a kind judged ``partly``; a fact it lacks raises :class:`Unknown`.

The evidence names, why a declaration never exempts what is present, and "not judged":
docs/transcript.md, "Format 1.1: what a recording holds, who ran the table".
"""

from __future__ import annotations

#: every evidence name, in the order reports list them, with the words a report uses for it
EVIDENCE: dict[str, str] = {
    "cards": "the cards taken from the shoe, each as read",
    "hands": "the hand (or the burn, the discard) each card went to",
    "order": "the order the cards were dealt in, each to its hand",
    "values": "the point value of every card in the hands",
    "faces": "whether each card was dealt face up or face down, and cards found face up",
    "results": "the result announced (or the coup declared void)",
    "calls": "the dealer's calls",
    "wagers": "every wager as placed or changed, in its place among the coup's events",
    "stakes": "the wagers as they stood when the cards were dealt",
    "settlements": "how each wager was settled, and commission collected",
    "offers": "offers of the shoe and of the Banker marker, and the shoe's return",
    "passes": "the hands passed to patrons to turn, and their return",
    "coups": "every coup of each shoe, each once, numbered in order",
    "dealers": "who dealt each coup",
    "patrons": "which patron placed each wager",
}

#: names worked out from what a coup records, never written in ``recorded``: ``values`` (above); the dealer and
#: the patrons, named in the record or not (format 1.1 ``staff``; a wager's patron, or the patron at its seat)
DERIVED: frozenset[str] = frozenset({"values", "dealers", "patrons"})

#: the names a recording may state in ``recorded`` (``values`` is worked out coup by coup)
DECLARABLE: tuple[str, ...] = tuple(name for name in EVIDENCE if name not in DERIVED)

#: what a transcript without ``recorded`` holds: everything a v1 transcript records.  A v1 transcript
#: never claimed to hold every coup of a shoe (its coup numbers may leave gaps), so ``coups`` is not in it.
V1: frozenset[str] = frozenset(EVIDENCE) - {"coups"}

#: a report's short name for each piece of evidence: "<noun> not recorded"
NOUN: dict[str, str] = {
    "cards": "cards",
    "hands": "the hand each card went to",
    "order": "the dealing order",
    "values": "card values",
    "faces": "card faces",
    "results": "results",
    "calls": "calls",
    "wagers": "wagers as placed",
    "stakes": "wagers",
    "settlements": "settlements",
    "offers": "offers",
    "passes": "hand passes",
    "coups": "every coup of the shoe",
    "dealers": "the dealer",
    "patrons": "patrons",
}


def held(recorded) -> frozenset[str]:
    """The evidence a ``recorded`` list gives (``None``: a v1 transcript's), before any card is read."""
    if recorded is None:
        return V1
    have = set(recorded)
    if "wagers" in have:
        have.add("stakes")
    if "cards" in have and "hands" in have:
        have.add("values")  # until a coup shows an unreadable card in a hand
    return frozenset(have)


#: what a coup's content can show it holds (see ``CoupState.shows``): every declarable name but ``coups``
SHOWABLE: frozenset[str] = frozenset(DECLARABLE) - {"coups"}


def with_shown(have: frozenset[str], shown: frozenset[str]) -> frozenset[str]:
    """The evidence of a coup whose declaration gives ``have`` and whose content shows ``shown``: both, with what
    follows from them (``stakes`` from ``wagers``, ``values`` from ``cards`` and ``hands``)."""
    both = set(have | shown)
    if "wagers" in both:
        both.add("stakes")
    if "cards" in both and "hands" in both:
        both.add("values")
    return frozenset(both)


def words(names) -> str:
    """Evidence names in a report's words: "calls, wagers as placed and settlements"."""
    nouns = [NOUN[n] for n in EVIDENCE if n in names]
    if not nouns:
        return "nothing"
    return nouns[0] if len(nouns) == 1 else ", ".join(nouns[:-1]) + " and " + nouns[-1]


def required(names) -> frozenset[str]:
    """The evidence a list of names requires (``--require-evidence``, ``require_evidence``, a ruleset's
    ``record.evidence-missing`` rule): names of :data:`DECLARABLE`, or ``all`` for every one of them.  Raises
    ValueError naming an unknown one."""
    out: set[str] = set()
    for name in names:
        name = name.strip()
        if name == "all":
            out.update(DECLARABLE)
        elif name in DECLARABLE:
            out.add(name)
        elif name:
            raise ValueError(f"{name!r} is not a kind of evidence (one of: {', '.join(DECLARABLE)}, or all)")
    return frozenset(out)


def missing(needs: tuple[str, ...], have: frozenset[str]) -> tuple[str, ...]:
    """The evidence of ``needs`` that ``have`` lacks, in the order of :data:`EVIDENCE`."""
    if not needs or have.issuperset(needs):
        return ()
    return tuple(n for n in EVIDENCE if n in needs and n not in have)


def reason(lacking: tuple[str, ...]) -> str:
    """Why a rule was not judged, in a report's words: "calls not recorded", "cards and results not recorded"."""
    if "values" in lacking and ("cards" in lacking or "hands" in lacking):
        lacking = tuple(n for n in lacking if n != "values")  # no values without the cards in their hands
    nouns = [NOUN[n] for n in lacking]
    said = nouns[0] if len(nouns) == 1 else ", ".join(nouns[:-1]) + " and " + nouns[-1]
    return f"{said} not recorded"


class Unknown(Exception):
    """A fact a check needs comes from evidence the coup's record lacks: raised where the check reads it.

    The engine then counts the coup as not judged by the check's rule, for want of ``names`` (the evidence
    the fact comes from), unless the check found a breach the recorded evidence proves whatever the unrecorded
    facts were.  A check that judges several things in a coup (each wager, each call) catches it for the one
    thing that needs the fact, goes on with the others, and raises it again at the end if it found nothing."""

    def __init__(self, *names: str):
        super().__init__(reason(tuple(names)) if names and all(n in EVIDENCE for n in names) else " ".join(names))
        self.names = tuple(n for n in names if n in EVIDENCE)


class View:
    """A coup state as a record lacking ``absent`` holds it: reading a fact that comes from absent evidence
    (its game's ``FACTS``: fact -> the evidence it comes from) raises :class:`Unknown`; every other fact, and
    every method (which reads the facts through the view), is the state's own.  The engine hands a check kind
    this view where the coup lacks some of the evidence the kind needs and the kind says it can judge
    something without it (``@check(..., partly=...)``)."""

    __slots__ = ("_absent", "_facts", "_state")

    def __init__(self, state, absent: frozenset[str]):
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "_absent", absent)
        object.__setattr__(self, "_facts", type(state).FACTS)

    def __getattr__(self, name: str):
        comes_from = self._facts.get(name)
        if comes_from is not None:
            lacking = [n for n in comes_from if n in self._absent]
            if lacking:
                raise Unknown(*lacking)
        method = getattr(type(self._state), name, None)
        if callable(method) and not isinstance(method, type):
            return method.__get__(self)  # the method reads the facts through the view
        return getattr(self._state, name)

    def __setattr__(self, name, value):
        raise AttributeError("a check never changes the coup state")
