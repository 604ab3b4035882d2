"""The integrity stage: every shoe of a run, and the run as a whole, judged after the per-coup replay.

:func:`prepare` works out what each shoe gives on its own, in the unit of work that read it;
:func:`judge` takes the run's :class:`~compliance.games.baccarat.integrity.collect.IntegrityData`, runs
the tests of the run-scope rules each transcript's ruleset enables, adds their findings (each at the
first coup at which its evidence was decisive, with each test's :class:`~compliance.findings.Statistic`)
and leaves a view of each shoe for the reports.

Shoes in the run's order, "the same table", and a finding's statistics: docs/integrity.md, "How it runs".
"""

from __future__ import annotations

import bisect
from array import array
from collections import Counter, defaultdict
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from operator import itemgetter

from compliance.context import RunContext
from compliance.findings import Finding, Money, Statistic
from compliance.games import shuffle as order
from compliance.games.baccarat.edges import PairReturns, removal_count
from compliance.games.baccarat.integrity import advantage, outcomes, patrons
from compliance.games.baccarat.integrity import drift as drift_tests
from compliance.games.baccarat.integrity import hold as hold_tests
from compliance.games.baccarat.integrity.collect import _POINTS, CODES, NO_TIME, counted_outcomes
from compliance.games.baccarat.odds import coup_odds
from compliance.games.baccarat.pictures import Shoe
from compliance.games.common import money
from compliance.printable import bounded_name, bounded_staff
from compliance.stats import benjamini_hochberg, longest_run_tail, probability_text

SHUFFLE, OUTCOMES, DRIFT = "integrity.unshuffled", "integrity.outcomes", "integrity.settlement-drift"
COLLUSION = "integrity.collusion"
ADVANTAGE = "integrity.advantage-play"
HOLD = hold_tests.HOLD
KINDS = (SHUFFLE, OUTCOMES, DRIFT, COLLUSION, ADVANTAGE, HOLD)


@dataclass(eq=False, slots=True)
class ShoeRun:
    """One shoe of the run: the transcript it is in, its record, and its view for the reports."""

    result: object  # TranscriptResult
    record: object  # ShoeRecord
    label: int  # its place in the run
    rules: dict  # check kind -> the rule of the ruleset's version in force at the shoe's first coup
    view: Shoe = None
    counted: bytes = b""  # the outcome letters the counts take (collect.counted_outcomes)
    cache: bool = True  # the run context's: the exact odds may come from (and go to) the user's cache
    judged_as: str | None = None  # the table its shoes are judged with, where not its own id (see _tables)
    odds: dict | None = None  # one coup's chances for its tableau and decks, once worked out (_odds)

    @property
    def table(self) -> str:
        return self.judged_as or self.result.table

    @property
    def tableau(self):
        """The drawing tableau of the version of the ruleset in force at the shoe's first coup."""
        return self.record.tableau or self.result.ruleset.game.tableau

    @property
    def name(self) -> str:
        return f"shoe {self.record.shoe} (table {self.table})"

    def coup(self, index: int) -> int:
        return self.record.numbers[index]

    def cards(self) -> bytes:
        """The cards a fair shoe could have dealt: no more than it holds (more is shoe.integrity's finding)."""
        return bytes(self.record.cards[:52 * self.record.decks])


def rules_by_kind(ruleset) -> dict:
    out = {}
    for rule in ruleset.rules:
        if rule.check in KINDS and rule.check not in out:
            out[rule.check] = rule
    return out


def prepare(data, ruleset, context: RunContext | None = None) -> None:
    """What each shoe of one transcript, or of one chunk of it, gives on its own (the shuffle tests within the shoe,
    its counted outcomes, their bands, longest streak and tests), worked out where its coups were collected: in a worker
    process under -j (a file is cut into chunks at shoe boundaries, so a chunk's shoes are whole).  Kept on the
    shoe's record, so that :func:`judge`, in one process, works out only what spans shoes; a shoe joined again
    from two chunks is worked out again there."""
    cache = context.cache if context is not None else True
    for record in data.shoes.values():
        if len(record):
            _own(record, record.rules or data.rules, record.tableau or ruleset.game.tableau, cache)


def _own(record, rules: dict, tableau, cache: bool) -> dict:
    """The record's own results (see :func:`prepare`), worked out the first time they are asked for."""
    own = record.own
    if own is not None:
        return own
    own = record.own = {}
    rule = rules.get(SHUFFLE)
    if rule is not None:
        own[SHUFFLE] = _shuffle_within(record, rule.params)
    if OUTCOMES in rules:
        counted = counted_outcomes(record, tableau)
        odds = coup_odds(tableau, record.decks, cache).chances
        side, length, _, m = outcomes.streak(counted)
        streak = (side, length, longest_run_tail(length, m, odds["banker"] / (odds["banker"] + odds["player"]))) \
            if m else None
        # the shoe's own tests too, as the judge would work them out (their Benjamini-Hochberg is the run's)
        tests = outcomes.statistics_of([counted], [odds], True, rules[OUTCOMES].params.statistics)
        own[OUTCOMES] = (counted, outcomes.bands(counted, odds), streak, tests)
    return own


def _shuffle_within(record, p) -> tuple:
    """The shuffle tests of one shoe alone: (the level its cards are compared at, the cards compared, their places
    among those recorded (None: all), what the repeat-within and manufacturer's-order tests found)."""
    decks = record.decks
    recorded = bytes(record.cards[:52 * decks])
    level = order.level_of(recorded)  # the whole cards; where too many were read in part, ranks or values
    cards, places = order.project(recorded, level)
    found = []
    if p.within_shoe and order.COPIES[level] * decks >= 2:
        k = order.threshold("within", decks, p.false_alarm, p.min_cards, 0, level)
        if k is not None:
            found.append(order.detect("within", order.repeats_within(cards, k), k, decks, 0, level))
    if p.manufacturer_order:
        k = order.threshold("order", decks, p.false_alarm, p.min_cards, 0, level)
        if k is not None:
            found.append(order.detect("order", order.runs_in_order(cards, k, level), k, decks, 0, level))
    return level, cards, places, tuple(found)


def judge(results: list, context: RunContext | None = None) -> None:
    """Judge the shoes and runs of ``results`` (a run's transcript results, in order); add the findings.
    ``context``: the run's (:class:`compliance.context.RunContext`; whether the user's cache keeps the odds)."""
    cache = context.cache if context is not None else True
    shoes: list[ShoeRun] = []
    apart = _tables(results)
    for r in results:
        data = getattr(r, "integrity", None)
        if data is None:
            continue
        rules = data.rules
        for record in data.shoes.values():
            if len(record):
                run = ShoeRun(r, record, len(shoes), record.rules or rules, cache=cache, judged_as=apart.get(id(r)))
                run.view = Shoe(record.shoe, r.table, record.decks, record.numbers[0], record.numbers[-1],
                                outcomes=record.outcomes.decode("ascii").replace("?", "-"))
                shoes.append(run)
    if not shoes:
        return
    added: dict[int, list[Finding]] = defaultdict(list)
    for f in _shuffle(shoes) + _outcomes(shoes) + _drift(shoes) + _collusion(results, shoes) \
            + _advantage(results, shoes):
        added[id(f.result)].append(f.finding)
    for result, finding in hold_tests.judge(results, context):
        added[id(result)].append(finding)
    for r in results:
        if getattr(r, "integrity", None) is None:
            continue
        new = added.get(id(r))
        if new:
            r.findings.extend(new)
            r.findings.sort(key=Finding.sort_key)
        r.integrity.view = [s.view for s in shoes if s.result is r]


def _tables(results: list) -> dict[int, str]:
    """The files of one table id joined as one table's record only when their shoes follow each other.

    Several transcripts of a run may name the same table.  They are one table's
    record, judged together by the tests of runs of shoes (the earlier-shoe
    comparison, the table's drift), only when their shoes follow each other in
    the order given: no shoe in two of them, and, where times are recorded, each
    starting after the one before it ends.  Otherwise they are different tables
    (or the same one recorded twice): each file's shoes are judged as a table of
    its own, named ``<table> [<file>]``.  Each result's ``shared_table`` says
    which ("joined" or "apart") for the report's warning.  Returns id(result) ->
    the table its shoes are judged with, for those judged apart."""
    by_table: dict[str, list] = defaultdict(list)
    for r in results:  # a table's record: not an example in a Markdown document, nor a file without a coup
        if getattr(r, "integrity", None) is not None and r.coups and "#L" not in r.transcript:
            by_table[r.table].append(r)
    out: dict[int, str] = {}
    for table, mine in by_table.items():
        if len(mine) < 2:
            continue
        seen: set[str] = set()
        follow, last = True, None
        for r in mine:
            shoes = set(r.integrity.shoes)
            times = [t for rec in r.integrity.shoes.values() if rec.times is not None
                     for t in rec.times if t != NO_TIME]
            if shoes & seen or (times and last is not None and min(times) < last):
                follow = False
            seen |= shoes
            if times:
                last = max(times)
        for r in mine:
            r.shared_table = "joined" if follow else "apart"
            if not follow:
                out[id(r)] = f"{table} [{r.transcript}]"
    return out


@dataclass
class _Made:
    result: object
    finding: Finding


def stepped(rule, p_value, bound: bool = False) -> tuple[str, str]:
    """The severity of a finding whose strongest test has ``p_value`` (or a bound on it): an error at or below
    the rule's ``error_at``, else the rule's own; and the words that say so in its message ("" if not stepped)."""
    level = rule.params.error_at
    if level is not None and p_value <= Fraction(level) and rule.severity != "error":
        p = probability_text(p_value, bound=True) if bound else f"= {probability_text(p_value)}"
        return "error", f"; an error, as p {p} is at or below {probability_text(level)}"
    return rule.severity, ""


def _finding(rule, shoe: ShoeRun, index: int, message: str, tests: list[Statistic], p_value=1.0,
             bound: bool = False, money: Money | None = None, dealer: bool = True, spanning: bool = False) -> _Made:
    """The finding, at the coup ``index`` of ``shoe`` (its place, who ran the table and when, where recorded);
    ``p_value``: its strongest test's p-value or bound, which steps its severity (:func:`stepped`); ``dealer``
    False: the finding is a patron's own, and carries no one who ran the table; ``spanning``: a test that spans
    shoes, whose finding cites the rule as the version in force at its coup has it (a shoe's own tests cite the
    version at the shoe's first coup, ``rule``)."""
    r, rec = shoe.result, shoe.record
    number = rec.numbers[index]
    severity, words = stepped(rule, p_value, bound)
    message += words
    cited = (rec.rules_at(index) or {}).get(rule.check) if spanning else None
    f = Finding(rule=rule.id, category=rule.category, severity=severity, transcript=r.transcript,
                coup=number, event=None, message=message, citation=(cited or rule).cite_for(r.game),
                line=rec.lines[index] or None, column=rec.columns[index] or None, table=r.table,
                staff=bounded_staff(r.integrity.timeline.at(number)) if dealer else (), at=rec.time_of(index),
                statistics=tuple(tests), money=money)
    shoe.view.flagged.append(f"{rule.id}: {message}")
    return _Made(r, f)


# ------------------------------------------------------------------ 1. unshuffled shoes


_TEST_WORDS = {"within": "repeat within the shoe", "order": "run in the manufacturer's order",
               "earlier": "repeat of an earlier shoe"}


_LEVEL_WORDS = {"rank": "rank", "value": "point value"}


def _shuffle(shoes: list[ShoeRun]) -> list[_Made]:
    made = []
    windows: dict[tuple[str, int, str], order.EarlierShoes] = {}  # (table, decks, level) -> its earlier shoes
    by_label = {s.label: s for s in shoes}
    for shoe in shoes:
        rule = shoe.rules.get(SHUFFLE)
        if rule is None:
            continue
        p = rule.params
        decks = shoe.record.decks
        recorded = shoe.cards()
        # the tests within the shoe, worked out where it was collected (prepare); the earlier shoes' here
        level, cards, places, within = _own(shoe.record, shoe.rules, shoe.tableau,
                                            shoe.cache)[SHUFFLE]
        _not_judged(shoe, rule, places)
        found = list(within)
        if p.earlier_shoes:
            held = (p.earlier_shoes + order.BLOCK) * 52 * decks  # the most cards the earlier shoes compared hold
            k = order.threshold("earlier", decks, p.false_alarm, p.min_cards, held, level)
            if k is not None:
                window = windows.get((shoe.table, decks, level))
                if window is None:
                    window = windows[(shoe.table, decks, level)] = order.EarlierShoes(p.earlier_shoes, k)
                # a shoe of the same id at the same table, in another transcript of the run, is the same shoe
                # recorded twice (two files of one night overlapping), not a shoe dealt again: not compared
                stretches = [st for st in window.repeats(cards, shoe.label)
                             if by_label[int(st.source_shoe)].record.shoe != shoe.record.shoe]
                found.append(order.detect("earlier", stretches, k, decks, held, level))
        found = [d for d in found if d is not None]
        if not found:
            continue
        found.sort(key=lambda d: d.decisive_card)

        def coup_of(card: int, shoe=shoe, places=places) -> int:  # the index of the coup that drew card ``card`` of the cards compared
            return shoe.record.coup_of_card(card if places is None else places[card])

        decisive = coup_of(found[0].decisive_card)
        parts, tests = [], []
        for d in found:
            parts.append(_describe(d, shoe, by_label, rule.params.false_alarm, found[0], coup_of))
            tests.append(Statistic(
                shoe.name, _TEST_WORDS[d.test], "longest stretch, cards", _stretch_words(d.longest, by_label),
                probability_text(d.bound_longest, bound=True),
                f"{probability_text(rule.params.false_alarm)} ({d.threshold} cards: "
                f"{probability_text(d.bound_first, bound=True)})",
                shoe.coup(coup_of(d.decisive_card))))
            shoe.view.stretches.extend(d.stretches)
        kept = recorded if places is None else bytes(recorded[i] for i in places)
        shoe.view.cards = tuple(CODES[b] for b in kept)
        shoe.view.decisive_card = found[0].decisive_card
        read = ""
        if level != "card" or places is not None:
            read = (f" (compared by {_LEVEL_WORDS.get(level, 'card')}: the {len(cards)} cards read"
                    + (f" by {_LEVEL_WORDS[level]} or better" if level != "card" else " in full")
                    + (f" of {len(recorded)} recorded, the cards counted among them alone" if places else "") + ")")
        if shoe.record.implied:
            read += (f" (the dealing order of {shoe.record.implied} of its {len(shoe.record)} coups implied by the rules"
                     " of the game: Player, Banker, Player, Banker, then the Player's third card and the Banker's)")
        message = (f"{shoe.name} was not shuffled{read}: " + "; ".join(parts)
                   + f"; decisive at coup {shoe.coup(decisive)}, where card {found[0].decisive_card + 1} "
                   + f"completed the first {found[0].threshold}")
        made.append(_finding(rule, shoe, decisive, message, tests, min(d.bound_longest for d in found), True))
    return made


def _not_judged(shoe: ShoeRun, rule, places) -> None:
    """Count, as not judged by the shuffle test, the coups of the shoe that gave it no card: their order neither
    recorded nor implied, none of their cards read (``??``), or all read too coarsely for the level the shoe is
    compared at (places: those of the cards compared, None for all)."""
    rec = shoe.record
    unread = rec.unread
    if places is not None:
        kept = set(places)
        start = 0
        for end in rec.ends:
            if end > start and not any(i in kept for i in range(start, min(end, 52 * rec.decks))) \
                    and start < 52 * rec.decks:
                unread += 1
            start = end
    counts = shoe.result.not_judged
    for lacking, n in ((("order",), rec.unordered), (("values",), unread)):
        if n:
            counts[(rule.id, lacking)] = counts.get((rule.id, lacking), 0) + n


def _stretch_words(s, by_label) -> str:
    if s.source is None:
        return f"{s.length} (cards {s.start + 1} to {s.end})"
    where = "" if s.source_shoe is None else f" of {by_label[int(s.source_shoe)].name}"
    return (f"{s.length} (cards {s.start + 1} to {s.end} = cards {s.source + 1} to {s.source + s.length}"
            f"{where})")


def _describe(d, shoe: ShoeRun, by_label, alpha: float, earliest, coup_of) -> str:
    s = d.longest
    decks = shoe.record.decks
    chance = (f"a shuffled {decks}-deck shoe holds one as long with a chance "
              f"{probability_text(d.bound_longest, bound=True)}")
    first = (f"{d.threshold} such cards are decisive ({probability_text(d.bound_first, bound=True)} against "
             f"{probability_text(alpha)})")
    if d is not earliest:
        first += f", from coup {shoe.coup(coup_of(d.decisive_card))}"
    if d.test == "within":
        lag = s.start - s.source
        deck = " (its decks came in the same order)" if lag % 52 == 0 else ""
        return (f"cards {s.start + 1} to {s.end} repeat cards {s.source + 1} to {s.source + s.length} card for card, "
                f"{lag} cards apart{deck}; {chance}; {first}")
    if d.test == "order":
        return (f"cards {s.start + 1} to {s.end} run in one suit's rank order, as a new deck is sorted"
                f"{'' if len(d.stretches) == 1 else f' ({len(d.stretches)} such runs)'}; {chance}; {first}")
    other = by_label[int(s.source_shoe)]
    return (f"cards {s.start + 1} to {s.end} repeat cards {s.source + 1} to {s.source + s.length} of {other.name}"
            f"{'' if other.result is shoe.result else ' in ' + other.result.transcript} card for card "
            f"(a shoe dealt again, or a stacked slug); {chance}; {first}")


# ------------------------------------------------------------------ 2. outcomes no fair shoe gives


def _odds(shoe: ShoeRun) -> dict[str, float]:
    """One coup's chances for this shoe's tableau and decks (worked out once a tableau and deck count, and looked
    up once a shoe)."""
    if shoe.odds is None:
        shoe.odds = coup_odds(shoe.tableau, shoe.record.decks, shoe.cache).chances
    return shoe.odds


def _outcomes(shoes: list[ShoeRun]) -> list[_Made]:
    """Every group's p-values (a shoe's are worked out and dropped as it goes: only the p-values are kept for
    Benjamini-Hochberg, whatever the number of shoes), then the findings of the groups with a test at or below
    the threshold, worked out again."""
    judged = [s for s in shoes if OUTCOMES in s.rules]
    if not judged:
        return []
    for s in judged:  # each shoe's own counts, worked out where it was collected (prepare)
        s.counted, s.view.counts, streak, _ = _own(s.record, s.rules, s.tableau, s.cache)[OUTCOMES]
        if streak is not None:
            s.view.streak = streak
        for lacking, n in (s.record.uncounted or {}).items():  # coups the counts could not take (collect.py)
            key = (s.rules[OUTCOMES].id, lacking)
            s.result.not_judged[key] = s.result.not_judged.get(key, 0) + n

    def whole(s: ShoeRun) -> outcomes.Segment:
        return outcomes.Segment(s, 0, len(s.record), _odds(s))

    groups: list = []  # a ShoeRun (its own group, made when needed) or a Group of several segments
    seen: set = set()

    def add(kind: str, name: str, segments: list[outcomes.Segment]) -> None:
        key = tuple((s.shoe.label, s.start, s.end) for s in segments)
        if not segments or kind not in segments[0].shoe.rules[OUTCOMES].params.groups or key in seen:
            return
        seen.add(key)
        groups.append(outcomes.Group(kind, name, segments[0].shoe.rules[OUTCOMES], segments))

    for s in judged:
        if "shoe" in s.rules[OUTCOMES].params.groups:
            seen.add(((s.label, 0, len(s.record)),))
            groups.append(s)
    tables: dict[str, list] = defaultdict(list)
    for s in judged:
        tables[s.table].append(whole(s))
    for table, segments in tables.items():
        add("table", f"table {table}", segments)
    dealers: dict[str, list] = defaultdict(list)
    named: dict[int, bool] = {}  # id(timeline) -> it names a dealer (asked once a transcript, not once a shoe)
    for s in judged:
        timeline = s.result.integrity.timeline
        names = named.get(id(timeline))
        if names is None:
            names = named[id(timeline)] = bool(timeline.dealers)
        if not names:
            continue
        start, current = 0, None
        for i, dealer in enumerate(timeline.dealers_of(s.record.numbers)):
            if i and dealer != current:
                if current is not None:
                    dealers[current].append(outcomes.Segment(s, start, i, _odds(s)))
                start = i
            current = dealer
        if current is not None:
            dealers[current].append(outcomes.Segment(s, start, len(s.record), _odds(s)))
    for dealer in sorted(dealers):
        add("dealer", f"dealer {bounded_name(dealer)}", dealers[dealer])
    add("run", "the run", [whole(s) for s in judged])

    def group_of(g) -> outcomes.Group:
        return g if isinstance(g, outcomes.Group) else outcomes.Group("shoe", g.name, g.rules[OUTCOMES], [whole(g)])

    families: dict[tuple, list] = defaultdict(list)  # (ruleset, rule) -> [(group, its smallest p), ...]
    pvalues: dict[tuple, array] = defaultdict(lambda: array("d"))
    rules: dict[tuple, object] = {}
    for g in groups:
        group = group_of(g)
        key = (group.segments[0].shoe.result.ruleset.id, group.rule.id)
        rules[key] = group.rule
        if isinstance(g, outcomes.Group):
            tests = outcomes.tests_of(group, group.rule.params.statistics)
        else:  # a shoe's own, worked out where it was collected
            tests = [outcomes.Test(group, *t) for t in g.record.own[OUTCOMES][3]]
        if tests:
            pvalues[key].extend(t.p_value for t in tests)
            families[key].append((g, min(t.p_value for t in tests)))
    made = []
    for key, family in families.items():
        rule = rules[key]
        cut = benjamini_hochberg(pvalues[key], rule.params.false_discovery_rate)
        if cut <= 0:
            continue
        for g, smallest in family:
            if smallest > cut:
                continue
            group = group_of(g)
            rejected = [t for t in outcomes.tests_of(group, rule.params.statistics) if t.p_value <= cut]
            made.append(_outcome_finding(group, rejected, cut, len(pvalues[key])))
    return made


def _outcome_finding(g: outcomes.Group, rejected: list, cut: float, m: int) -> _Made:
    rule = g.rule
    places = []
    for t in rejected:
        seg, index = outcomes.decisive(t, cut)
        places.append(((seg.shoe.label, index), seg.shoe, index, t))
    places.sort(key=lambda x: x[0])
    _, shoe, index, _ = places[0]
    decks = sorted({s.shoe.record.decks for s in g.segments})
    deck_words = "/".join(map(str, decks)) + "-deck"
    q = rule.params.false_discovery_rate
    parts = [f"{t.words} {t.value}, p = {probability_text(t.p_value)}" for t in rejected]
    message = (f"{g.name}: outcomes a fair {deck_words} shoe gives too rarely: " + "; ".join(parts)
               + f" (Benjamini-Hochberg over {m} tests at {probability_text(q)}: decisive at p <= "
               + f"{probability_text(cut)}); decisive at coup {shoe.coup(index)}")
    tests = [Statistic(g.name, "binomial test" if t.statistic != "streak" else "longest-streak test",
                         t.words, t.value, probability_text(t.p_value),
                         f"{probability_text(cut)} (Benjamini-Hochberg, {m} tests at {probability_text(q)})",
                         s.coup(i)) for _, s, i, t in places]
    return _finding(rule, shoe, index, message, tests, min(t.p_value for t in rejected))


# ------------------------------------------------------------------ 3. settlement drift


def _drift(shoes: list[ShoeRun]) -> list[_Made]:
    groups: dict[tuple, drift_tests.DriftGroup] = {}
    for s in shoes:
        rule = s.rules.get(DRIFT)
        if rule is None or not s.record.errors:
            continue
        timeline = s.result.integrity.timeline
        for index, gain, kind, expected in s.record.errors:
            error = drift_tests.Error((s, index), gain, kind, expected)
            keys = []
            if "table" in rule.params.groups:
                keys.append(("table", s.table))
            dealer = timeline.dealer(s.coup(index))
            if dealer is not None and "dealer" in rule.params.groups:
                keys.append(("dealer", dealer))
            for kind_, name in keys:
                g = groups.get((kind_, name))
                if g is None:
                    g = groups[(kind_, name)] = drift_tests.DriftGroup(kind_, name, rule)
                g.errors.append(error)
    made = []
    for (kind, name), g in groups.items():
        p = g.rule.params
        g.errors.sort(key=lambda e: (e.place[0].label, e.place[1]))
        judged = g.judge(p.false_alarm, p.min_errors)
        if judged is None:
            continue
        pvalue, at = judged
        shoe, index = at.place
        up, down, neither = g.counts()
        net = g.net
        main, main_n = g.main_kind()
        way = "the patrons'" if up > down else "the house's"
        label = f"{kind} {bounded_name(name)}"
        net_words = (f"net {money(net)} more paid to patrons than due" if net > 0 else
                     f"net {money(-net)} more kept by the house than due" if net < 0 else "net nothing either way")
        message = (f"{label}: {len(g.errors)} wrong settlements over the run, {max(up, down)} of them in {way} "
                   f"favour and {min(up, down)} in the other's"
                   + (f", {neither} neither" if neither else "")
                   + f" (sign test: p = {probability_text(pvalue)} if errors fell either way alike, decisive at "
                   + f"{probability_text(p.false_alarm)}); {main_n} of them {drift_tests.KIND_WORDS[main]}; "
                   + f"{net_words}; decisive at coup {shoe.coup(index)}")
        tests = [Statistic(label, "sign test", "wrong settlements in the patrons' favour, of those either way",
                             f"{up} of {up + down} (net {money(net)})", probability_text(pvalue),
                             probability_text(p.false_alarm), shoe.coup(index))]
        currencies = {e.place[0].result.integrity.currency for e in g.errors}
        worth = Money(g.expected, g.expected + net, currencies.pop() if len(currencies) == 1 else None,
                      sums=len(g.errors))
        made.append(_finding(g.rule, shoe, index, message, tests, pvalue, money=worth))
    return made


# ------------------------------------------------------------------ 4. collusion: a dealer who favours a patron


def _listed(places, most: int = 12) -> str:
    """The coups at ``places`` ((shoe, coup index)) in the run's order, the first ``most`` of them: their numbers,
    each transcript's named before its coups where they span more than one ("a.jsonl: 3, 9; b.jsonl: 4")."""
    ordered = sorted(places, key=lambda place: (place[0].label, place[1]))
    files = {place[0].result.transcript for place in ordered}
    parts, last = [], None
    for shoe, index in ordered[:most]:
        number = str(shoe.coup(index))
        if len(files) > 1 and shoe.result.transcript != last:
            last = shoe.result.transcript
            number = f"{last}: {number}"
            if parts:
                parts[-1] += ";"
        parts.append(number)
    more = len(ordered) - most
    return ", ".join(parts).replace(";,", ";") + (f" and {more} more" if more > 0 else "")


def _bh_level(cut: float, m: int, q: float) -> str:
    """A Benjamini-Hochberg threshold as a test's level: '1.2e-6 (Benjamini-Hochberg, 40 tests at 0.001)'."""
    return f"{probability_text(cut)} (Benjamini-Hochberg, {m} tests at {probability_text(q)})"


#: each test of a pair (patrons.Part), in a finding's words
_PART_WORDS = {
    "dealer": "{x} of the dealer's {n} {words} went to this patron, who placed {share:.1%} of the wagers settled at "
              "the dealer's coups (p = {p})",
    "patron": "{x} of the patron's {n} {words} came at this dealer's coups, where the patron placed {share:.1%} of "
              "their wagers (p = {p})",
    "floor": "the patron wagered with this dealer alone: {x} of the floor's {n} {words}, against the pair's "
             "{share:.1%} of every wager settled (p = {p})",
}
_PART_TESTS = {"dealer": "the pair's share of the dealer's", "patron": "the pair's share of the patron's",
               "floor": "the pair's share of the floor's"}


def _collusion(results: list, shoes: list[ShoeRun]) -> list[_Made]:
    """Every (dealer, patron) pair of the run: its overpayments and late wagers against the dealer's rate with the
    other patrons and the patron's with the other dealers (exact binomial tails, each required), Benjamini-Hochberg
    over every pair's p-values (patrons.py)."""
    judged = [r for r in results if r.integrity.patrons is not None and COLLUSION in r.integrity.rules]
    if not judged:
        return []
    runs = {(id(s.result), s.record.shoe): s for s in shoes}
    wagers = Counter()
    events = []
    rule = judged[0].integrity.rules[COLLUSION]
    for r in judged:
        data = r.integrity.patrons
        wagers.update(data.wagers)
        for kind, shoe, index, dealer, patron, amount, expected in data.events:
            run = runs.get((id(r), shoe))
            if run is not None:
                events.append(patrons.Event(kind, (run, index), dealer, patron, amount, expected))
        counts = r.not_judged
        for lacking, n in ((("dealers",), data.no_dealer), (("patrons",), data.no_patron)):
            if n:
                key = (r.integrity.rules[COLLUSION].id, lacking)
                counts[key] = counts.get(key, 0) + n
    pairs, by_kind = patrons.pairs_of(wagers, events)
    run_tests = patrons.tests_of(wagers, pairs, by_kind)
    tests, m, margins = run_tests.tests, run_tests.m, run_tests.margins
    p = rule.params
    cut = benjamini_hochberg([t.p_value for t in tests], p.false_discovery_rate, m)
    if cut <= 0:
        return []
    made = []
    rejected: dict[tuple, list] = defaultdict(list)
    for t in tests:
        if t.p_value <= cut and t.x >= p.min_events:
            rejected[(t.pair.dealer, t.pair.patron)].append(t)
    for key in sorted(rejected):
        found = rejected[key]
        pair = found[0].pair
        firsts = {t.kind: patrons.decisive(t, by_kind, cut, margins) for t in found}
        at = min(firsts.values(), key=lambda e: (e.place[0].label, e.place[1]))
        shoe, index = at.place
        label = f"dealer {bounded_name(pair.dealer)}, patron {bounded_name(pair.patron)}"
        parts, stats = [], []
        for t in found:
            words, what = patrons.TESTS[t.kind]
            first = firsts[t.kind]
            less = f" net ({t.x}, less the pair's {t.under} in the house's favour)" if t.under else ""
            for part in t.parts:
                parts.append(_PART_WORDS[part.name].format(x=f"{part.x}{less}", n=part.n, share=float(part.share),
                                                           words=words, p=probability_text(part.p_value)))
                stats.append(Statistic(label, f"{_PART_TESTS[part.name]} {words} (binomial tail)", what,
                                       f"{part.x} of {part.n} (by chance {float(part.share):.1%}: "
                                       f"{part.n * float(part.share):.1f})",
                                       probability_text(part.p_value),
                                       _bh_level(cut, m, p.false_discovery_rate),
                                       first.place[0].coup(first.place[1])))
        net = sum((e.gain for e in pair.events["over"]), Decimal(0))
        listed = _listed({e.place for k in ("over", "late") for e in pair.events[k]})
        net_words = (f"net {money(net)} paid to this patron over what was due" if net > 0 else
                     f"net {money(-net)} kept from this patron" if net < 0 else "no net amount")
        message = (f"{label}: the dealer favours this patron, beyond the patron's rate with the other dealers and "
                   f"the dealer's with the other patrons: " + "; ".join(parts)
                   + f" (Benjamini-Hochberg over {m} tests at {probability_text(p.false_discovery_rate)}: "
                   + f"decisive at p <= {probability_text(cut)}); {net_words}; in coups {listed}; decisive at coup "
                   + f"{shoe.coup(index)}")
        due = sum((e.expected for e in pair.events["over"] if e.expected is not None), Decimal(0))
        currencies = {e.place[0].result.integrity.currency for e in pair.events["over"]}
        worth = Money(due, due + net, currencies.pop() if len(currencies) == 1 else None, bounded_name(pair.patron),
                      sums=len(pair.events["over"])) if pair.events["over"] else None
        made.append(_finding(rule, shoe, index, message, stats, min(t.p_value for t in found), money=worth,
                             spanning=True))
    return made


# ------------------------------------------------------------------ 5. advantage play: side wagers that follow the cards


def _shoe_left(run: ShoeRun, gaps: set[int], spots: dict, counts: dict) -> tuple:
    """(the shoe; the shoe left before each of its coups, None where not known; each spot's shoe left, by point
    value or, for a spot settled by the first two cards, by card; each spot's favourable coups; each coup's depth
    band; the first coup whose shoe left is not known, None: none).  A result's
    spot reads the count (for its version's tableau); a pair's, its exact edge.  ``spots``: the keys of
    :attr:`~compliance.games.baccarat.integrity.collect.Chances.spots`; ``counts``: (spot key, decks) -> the
    spot's count, kept across the run's shoes."""
    decks = run.record.decks
    if not any(isinstance(back, PairReturns) for back, *_ in spots.values()):  # every spot reads the count
        for spot, (back, _, tableau, _) in spots.items():
            if (spot, decks) not in counts:
                counts[(spot, decks)] = removal_count(tableau, back, decks)
        lefts, goods, bands = advantage.walk(run.record, gaps, _POINTS, [counts[(spot, decks)] for spot in spots])
        cut = next((i for i, left in enumerate(lefts) if left is None), None)  # (unknown to the shoe's end)
        return run, lefts, dict(zip(spots, goods, strict=True)), dict.fromkeys(spots, lefts), bands, cut
    lefts = advantage.lefts(run.record, gaps, _POINTS)
    kinds = None
    good, left_of = {}, {}
    for spot, (back, _, tableau, _) in spots.items():
        if isinstance(back, PairReturns):
            if kinds is None:
                kinds = advantage.kinds_left(run.record, gaps)
            good[spot], left_of[spot] = advantage.favourable_pairs(back, run.record, kinds), kinds
            continue
        count = counts.get((spot, decks))
        if count is None:
            count = counts[(spot, decks)] = removal_count(tableau, back, decks)
        good[spot], left_of[spot] = advantage.favourable(count, lefts), lefts
    if kinds is not None:  # a card without its suit: the shoe left is not known to a pair's spot, nor judged
        lefts = [None if k is None else left for left, k in zip(lefts, kinds, strict=True)]
    full = 52 * decks  # each coup's depth band: the cards dealt from the shoe before it
    bands = [0 if left is None else min(255, (full - sum(left)) // advantage.BAND) for left in lefts]
    cut = next((i for i, left in enumerate(lefts) if left is None), None)  # (unknown from there to the shoe's end)
    return run, lefts, good, left_of, bands, cut


def _add_chances(pending: dict, got: tuple, lines: dict, lines_of: dict, spots: dict) -> None:
    """Add each patron's chances gathered in one stretch of a shoe (``pending``: patron -> [the spots it could be
    placed on, the coups' indices, (place among them, the side wagers placed) of those with any]) to the patron's
    lines, in the order they came; ``got``: the shoe's :func:`_shoe_left`.  Empties ``pending``."""
    run, _, good, left_of, bands, _ = got
    for patron, (could, indices, wagered) in pending.items():
        these = lines_of.get((patron, could))
        if these is None:
            these = lines_of[(patron, could)] = tuple(
                lines.get((patron, spot)) or lines.setdefault((patron, spot), advantage.Line(
                    patron, spots[spot][3], spots[spot][0], tableau=spots[spot][2])) for spot in could)
        pick = itemgetter(*indices) if len(indices) > 1 else lambda seq, i=indices[0]: (seq[i],)
        depth = bytes(pick(bands))
        at = {}  # spot -> (its line, where this stretch starts in the line)
        for line, spot in zip(these, could, strict=True):
            at[spot] = (line, len(line.flags))
            line.bands += depth
            line.flags += bytes(pick(good[spot]))
        for place, placed in wagered:
            index = indices[place]
            for spot, amount in placed:
                line, base = at[spot]
                line.flags[base + place] |= advantage.WAGERED
                line.wagers.append(advantage.Wager((run, index), bool(good[spot][index]), amount,
                                                   left_of[spot][index], bands[index]))
    pending.clear()


def _advantage(results: list, shoes: list[ShoeRun]) -> list[_Made]:
    """Every (patron, side wager) of the run: its wagers (and its large wagers) at the coups the cards left favour
    the patron, against its chances there (exact hypergeometric tails), Benjamini-Hochberg over every test."""
    judged = [r for r in results if r.integrity.chances is not None and ADVANTAGE in r.integrity.rules]
    if not judged:
        return []
    runs = {(id(s.result), s.record.shoe): s for s in shoes}
    rule = judged[0].integrity.rules[ADVANTAGE]
    # (patron, spot key) -> the line: a spot whose payouts or tableau a version of the ruleset changes is a line of
    # its own (Chances.spots)
    lines: dict[tuple[str, str], advantage.Line] = {}
    counts: dict[tuple[str, int], object] = {}  # (spot key, decks) -> its count
    for r in judged:
        data = r.integrity.chances
        gaps: dict[str, set[int]] = defaultdict(set)
        for shoe, index in data.gaps:
            gaps[shoe].add(index)
        # per shoe: the shoe left before each coup, and each spot's favourable coups by the count (worked out once
        # a shoe); per (patron, spots it could be placed on): the patron's lines at them.  A patron's chances in one
        # run (a stretch of a shoe under one version) are added to the lines at once (_add_chances), but those from
        # the first coup whose shoe left is not known (to the shoe's end: the chances come in order within a run)
        known: dict[str, tuple | None] = {}
        unknown: set[tuple[str, int]] = set()
        lines_of: dict[tuple, tuple] = {}
        for shoe, could, present in data.runs:
            if not present:
                continue
            if shoe in known:
                got = known[shoe]
            else:
                run = runs.get((id(r), shoe))
                got = known[shoe] = None if run is None else _shoe_left(run, gaps[shoe], data.spots, counts)
            if got is None:
                continue
            cut = got[5]
            pending = {}
            for patron, (indices, wagered) in present.items():
                if cut is not None and indices[-1] >= cut:
                    k = bisect.bisect_left(indices, cut)
                    unknown.update((shoe, i) for i in indices[k:])
                    if not k:
                        continue
                    indices, wagered = indices[:k], [w for w in wagered if w[0] < k]
                pending[patron] = (could, indices, wagered)
            if pending:
                _add_chances(pending, got, lines, lines_of, data.spots)
        for lacking, n in ((("patrons",), data.no_patron), (("cards",), len(unknown))):
            if n:
                key = (r.integrity.rules[ADVANTAGE].id, lacking)
                r.not_judged[key] = r.not_judged.get(key, 0) + n
    tests = [t for line in lines.values() for t in advantage.tests_of(line)]
    p = rule.params
    cut = benjamini_hochberg([t.p_value for t in tests], p.false_discovery_rate)
    if cut <= 0:
        return []
    rejected: dict[str, list] = defaultdict(list)
    for t in tests:
        if t.p_value <= cut and t.x >= p.min_wagers:
            rejected[t.line.patron].append(t)
    made = []
    for patron in sorted(rejected):
        found = rejected[patron]
        # the money first: a patron whose side wagers had no positive expected value given the cards left gained
        # nothing from them, whatever their placement (a habit tied to the shoe, not a count): not named
        spots = {id(t.line): t.line for t in found}
        blind = counted = Decimal(0)
        wagers = 0
        coups = set()
        for line in spots.values():
            b, c = advantage.worth(line, line.tableau)
            blind, counted = blind + b, counted + c
            wagers += len(line.wagers)
            coups |= {w.place for w in line.wagers if w.favourable}
        if counted <= 0:
            continue
        firsts = [advantage.decisive(t, cut) for t in found]
        at = min(firsts, key=lambda c: (c.place[0].label, c.place[1]))
        shoe, index = at.place
        label = f"patron {bounded_name(patron)}"
        parts, stats = [], []
        for t, first in zip(found, firsts, strict=True):
            spot = t.line.spot
            if t.kind == "placement":
                parts.append(f"{t.x} of the patron's {t.n} {spot} wagers fell at the {t.marked} of the patron's "
                             f"{t.population} chances at it where the cards left favoured the patron "
                             f"({t.marked / t.population:.1%}), more than the patron's own placement at each shoe "
                             f"depth explains (hypergeometric tail, by depth: p = {probability_text(t.p_value)})")
                what = f"{spot} wagers at favourable coups, of the patron's wagers"
            else:
                parts.append(f"{t.x} of the patron's {t.n} larger {spot} wagers fell at favourable coups, against "
                             f"{t.marked} of all {t.population}, more than the patron's own wagers at each shoe "
                             f"depth explain (hypergeometric tail, by depth: p = {probability_text(t.p_value)})")
                what = f"larger {spot} wagers at favourable coups, of the patron's larger wagers"
            stats.append(Statistic(label, f"{advantage.TESTS[t.kind]} (hypergeometric tail, by depth)", what,
                                   f"{t.x} of {t.n} (favourable: {t.marked} of {t.population})",
                                   probability_text(t.p_value),
                                   _bh_level(cut, len(tests), p.false_discovery_rate),
                                   first.place[0].coup(first.place[1])))
        listed = _listed(coups)
        currencies = {w.place[0].result.integrity.currency for line in spots.values() for w in line.wagers}
        gain = counted - blind
        message = (f"{label}: side wagers that follow the cards left in the shoe: " + "; ".join(parts)
                   + f" (Benjamini-Hochberg over {len(tests)} tests at {probability_text(p.false_discovery_rate)}: "
                   + f"decisive at p <= {probability_text(cut)}); the patron's expected value of these {wagers} "
                   + f"wagers, given the cards left, {money(counted)}, against {money(blind)} at a full shoe's "
                   + f"odds: an expected gain of {money(gain)} from the cards; favourable wagers in coups {listed}; "
                   + f"decisive at coup {shoe.coup(index)}")
        worth = Money(blind, counted, currencies.pop() if len(currencies) == 1 else None, bounded_name(patron),
                      sums=wagers)
        made.append(_finding(rule, shoe, index, message, stats, min(t.p_value for t in found), money=worth,
                             dealer=False, spanning=True))
    return made
