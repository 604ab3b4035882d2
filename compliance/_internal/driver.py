"""The one driver of a check: plan the run's units of work, run them through a runner, merge, judge the run.

:func:`check` (or :func:`run`, given a runner) plans the run (:func:`plan`: every transcript a unit of its
own, a large ``.jsonl`` cut into chunks at shoe boundaries, :mod:`compliance.reading.chunks`), hands the
units (:func:`check_input`, :func:`check_chunk`) to a runner (:mod:`compliance._internal.runners`), puts a file's
chunks back together (:func:`accept`, :func:`merge`) and has the game's integrity stage judge the run
(:func:`compliance.engine.judge_run`).  Whichever runner runs them, the results are those of one pass over
each transcript in the order given, byte for byte.

Why a chunk's start state is checked, not trusted, and when a file is checked again in one piece:
docs/architecture.md, "A run cut into chunks".
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from compliance._internal import runners
from compliance.context import RunContext
from compliance.engine import Checker, RulesetCache, TranscriptResult, finish_record, judge_run
from compliance.errors import UserError
from compliance.findings import Finding
from compliance.limits import DEFAULTS, Limits
from compliance.reading.chunks import Chunk, Cut, count_newlines, file_digests, plan_cuts

#: a .jsonl smaller than this is one unit; a larger one is cut into chunks of at least this size
CHUNK_BYTES = 8 << 20

# ------------------------------------------------------------------ the units (run by a runner, anywhere)


@dataclass(frozen=True)
class Run:
    """What every unit of a run is handed (once a worker, through its runner: :meth:`runners.Runner.share`): the
    run's context and its rulesets, each loaded once, in the parent, before any unit runs."""

    context: RunContext
    rulesets: RulesetCache
    token: str = field(default_factory=lambda: uuid.uuid4().hex)  # tells one run from another in a worker


#: this process's checker of the run it works for (a worker's units of one run share it): run token -> checker
_CHECKERS: dict[str, Checker] = {}


def _checker(run) -> Checker:
    """The checker of ``run`` (its handle, see :meth:`runners.Runner.share`) in this process: one a run, with the
    run's rulesets; it judges no run: the driver judges the run's shoes once every unit is back (judge_run)."""
    run = runners.shared(run)
    checker = _CHECKERS.get(run.token)
    if checker is None:
        _CHECKERS.clear()  # a worker that served another run lets go of its checker
        checker = _CHECKERS[run.token] = Checker(run.context, judge=False, rulesets=run.rulesets)
    return checker


def _forget(run: Run) -> None:
    """Let go of the checker of a run that has ended (in the process that ran it)."""
    _CHECKERS.pop(run.token, None)


def check_input(inp, run, on_coup=None) -> TranscriptResult | UserError:
    """The unit of one whole transcript (an :class:`compliance._internal.inputs.Input`) of ``run`` (a :class:`Run`, or its
    handle); a UserError is returned, not raised.

    ``on_coup``: the progress of a unit run in this process; a worker's adds to the bar's counters instead."""
    tally = None if on_coup is not None else runners.tally()
    try:
        result = inp.check(_checker(run), on_coup or tally)
        if tally is not None:
            tally.add(result.coups, max(inp.size, 1))
        return result
    except UserError as e:
        return e


class _ChunkChecker(Checker):
    """A checker whose replayer can continue from a warmed-up one."""

    carry: object | None = None  # the game's replayer
    current: object | None = None
    chunked = True

    def replayer(self, game, table):
        r, self.carry = self.carry or super().replayer(game, table), None
        self.current = r
        return r


@dataclass
class ChunkResult:
    findings: list[Finding]
    coups: int
    unreadable: int
    coup_numbers: list[int] | None
    states: list | None  # the game's CoupPicture of each coup with findings, when a report draws them
    start_key: str | None  # fingerprint of the replay state the chunk started from (None: the file's start)
    end_key: str
    start_shoes: set[str]  # the shoes its lookback replayed
    shoes: set[str]
    header_sha256: str = ""  # of the bytes before the first coup, as this chunk read them
    region_sha256: str = ""  # of the bytes of its region, as it read them
    not_judged: dict | None = None  # (rule id, evidence missing) -> coups of the chunk not judged by the rule
    integrity: object | None = None  # what the game's integrity stage gathered from the chunk's coups
    dealt: dict | None = None  # dealer -> coups of the chunk they dealt
    result: TranscriptResult | None = None  # the first chunk carries the transcript's result (ruleset, table)
    record_tally: dict | None = None  # the record's findings to come: key -> [finding at its first coup, coups]
    versions: list | None = None  # the versions of the ruleset's history that judged the chunk's coups (VersionUse)


def check_chunk(inp, run, lookback: tuple[int, int, int] | None,
                region: tuple[int, int | None, int]) -> ChunkResult | UserError:
    """The unit of the lines of ``region`` (start, end, first line) of a ``.jsonl`` of ``run`` (a :class:`Run`, or
    its handle), after replaying ``lookback`` (the same) unreported."""
    try:
        base = _checker(run)
        checker = _ChunkChecker(base.context, judge=False, rulesets=base.rulesets)
        source = inp.open(base.context.limits)
        start_key, start_shoes = None, set()
        if lookback is not None:
            before = Chunk(source, *lookback, judges_header=False)
            checker.check_source(before)
            checker.carry = checker.current
            start_key, start_shoes = source.game.replay_key(checker.carry), before.shoes
        chunk = Chunk(source, *region, judges_header=lookback is None)  # the header judged once, in the first
        tally = runners.tally()
        result = checker.check_source(chunk, tally)
        if tally is not None:  # the bytes of the file this chunk covers (the first, the header too)
            start, end, _ = region
            tally.add(result.coups, (inp.size if end is None else end) - (start if lookback is not None else 0))
        result.transcript = inp.name
        out = ChunkResult(result.findings, result.coups, result.unreadable, result.coup_numbers, result.states,
                          start_key, source.game.replay_key(checker.current), start_shoes, chunk.shoes,
                          source.header_sha256, chunk.digest.hexdigest(), not_judged=result.not_judged,
                          integrity=result.integrity, dealt=result.dealt, record_tally=result.record_tally,
                          versions=result.versions)
        if lookback is None:
            out.result = result
        return out
    except UserError as e:
        return e


# ------------------------------------------------------------------ planning


@dataclass(frozen=True)
class Plan:
    """The cuts of one ``.jsonl`` input into chunks: where its coups start (byte, line) and each cut."""

    body: int
    first_line: int
    cuts: list[Cut]


def plan_chunks(inp, parts: int, chunk_bytes: int = CHUNK_BYTES, bounds: Limits = DEFAULTS) -> Plan | None:
    """How to cut a ``.jsonl`` input into at most ``parts`` chunks; None: it is checked whole."""
    if inp.block is not None or not inp.path.lower().endswith(".jsonl") or parts < 2:
        return None
    if inp.size // max(chunk_bytes, 1) < 2:
        return None  # too small to cut; a pipe or a device (size 0) is read once, by the one unit
    source = inp.open(bounds)  # reads only the header; UserError if the file is unusable
    source.close()
    cuts = plan_cuts(inp.path, source.body_offset, parts, chunk_bytes)
    return Plan(source.body_offset, source.header_line + 1, cuts) if cuts else None


def plan(inputs, parts: int, chunk_bytes: int, bounds: Limits = DEFAULTS) -> list[Plan | None]:
    """The cuts of each input into chunks (None: one unit), for ``parts`` processes."""
    plans = []
    for inp in inputs:
        try:
            # a few chunks a process, so that they end together; each costs only the replay of one shoe more
            plans.append(plan_chunks(inp, parts * 4, chunk_bytes, bounds))
        except UserError:
            plans.append(None)  # the whole-file unit reports it, exactly as one pass would
    return plans


def units(plans) -> int:
    """How many units of work the plans make: the most processes that can be kept busy."""
    return sum(len(p.cuts) + 1 if p else 1 for p in plans)


# ------------------------------------------------------------------ merging


def accept(chunks: list[ChunkResult]) -> bool:
    """Did every chunk start from exactly the state the chunks before it left?"""
    seen = set(chunks[0].shoes)
    for before, chunk in zip(chunks, chunks[1:]):
        if chunk.start_key != before.end_key:
            return False
        if (chunk.shoes & seen) - chunk.start_shoes:
            return False
        seen |= chunk.shoes
    return True


def merge(chunks: list[ChunkResult], sha256: str) -> TranscriptResult:
    """A file's accepted chunks as the result of one pass over it."""
    result = chunks[0].result
    for c in chunks[1:]:
        result.findings.extend(c.findings)
        result.coups += c.coups
        result.unreadable += c.unreadable
        if result.coup_numbers is not None:
            result.coup_numbers.extend(c.coup_numbers or ())
        if result.states is not None:
            result.states.extend(c.states or ())
        for key, n in (c.not_judged or {}).items():
            result.not_judged[key] = result.not_judged.get(key, 0) + n
        for dealer, n in (c.dealt or {}).items():
            result.dealt[dealer] = result.dealt.get(dealer, 0) + n
        for use in c.versions or ():  # a version that judged coups of several chunks: counted once, all its coups
            mine = next((u for u in result.versions if u.ruleset.period == use.ruleset.period), None)
            if mine is None:
                result.versions.append(use)
            else:
                mine.merge(use)
        if result.integrity is not None:
            result.integrity.extend(c.integrity)  # a shoe cut between two chunks is joined again
        for key, (f, n) in (c.record_tally or {}).items():  # the first coup of the earliest chunk, the coups of all
            found = result.record_tally.setdefault(key, [f, 0])
            found[1] += n
    finish_record(result)
    result.findings.sort(key=Finding.sort_key)  # as one pass would have: chunks are in coup order
    result.sha256 = sha256
    return result


class _Whole:
    def __init__(self, future):
        self.future = future

    def result(self):
        return self.future.result()


class _Chunked:
    def __init__(self, inp, run, futures, digests_future):
        self.inp, self.run, self.futures, self.digests = inp, run, futures, digests_future

    def result(self):
        chunks = [f.result() for f in self.futures]
        error = next((c for c in chunks if isinstance(c, UserError)), None)
        if error is not None:
            return error
        whole, (header, *regions) = self.digests.result()
        same_bytes = all(c.header_sha256 == header for c in chunks) and [c.region_sha256 for c in chunks] == regions
        # the guessed start of a chunk was wrong, or the file changed while it was read: check it in one piece
        if not same_bytes or not accept(chunks):
            return check_input(self.inp, self.run)
        return merge(chunks, whole)


def _line_numbers(submit, inp, body: int, first_line: int, marks: list[int]) -> list[int]:
    """The line number at each byte offset of ``marks`` (sorted), counting newlines as units of their own."""
    edges = [body] + marks
    counts = [submit(count_newlines, inp.path, a, b) for a, b in zip(edges, edges[1:])]
    lines, n = [], first_line
    for fut in counts:
        n += fut.result()
        lines.append(n)
    return lines


def _schedule(runner: runners.Runner, inputs, run: Run, plans):
    """Submit every unit of work; per input, something whose ``result()`` is its outcome."""
    submit = runner.submit
    handle = runner.share(run)
    pending = []
    for inp, p in zip(inputs, plans):
        if not p:
            pending.append(_Whole(submit(check_input, inp, handle, runner.on_coup)))
            continue
        cuts, body = p.cuts, p.body
        starts = [body] + [cut.start for cut in cuts]
        # first: it reads the whole file, the chunks then share out the rest
        digests = submit(file_digests, inp.path, [0, *starts])
        marks = [m for cut in cuts for m in cut]
        lines = _line_numbers(submit, inp, body, p.first_line, marks)
        at = dict(zip(marks, lines))
        firsts = [(body, p.first_line)] + [(cut.start, at[cut.start]) for cut in cuts]
        ends = [cut.start for cut in cuts] + [None]
        futures = []
        for k, ((start, line), end) in enumerate(zip(firsts, ends)):
            lookback = None if k == 0 else (cuts[k - 1].lookback, cuts[k - 1].start, at[cuts[k - 1].lookback])
            futures.append(submit(check_chunk, inp, handle, lookback, (start, end, line)))
        pending.append(_Chunked(inp, run, futures, digests))  # (checked again here, in one piece, if refused)
    return pending


# ------------------------------------------------------------------ the run


def resolve(inputs: list, rulesets: RulesetCache) -> None:
    """Load the ruleset of each input into the run's ``rulesets`` before any unit runs, so that it is loaded once
    (not once a worker) and the command knows every file the run reads before it writes anything.  The
    operator's ruleset is every input's; else each header's ``table.jurisdiction`` is read (the header only, of
    a regular file: a pipe is read once, by its unit).  An input whose header cannot be read, or whose
    jurisdiction names no usable ruleset, is left to its unit, which says so in its place in the run."""
    if rulesets.override:
        rulesets.chosen()
        return
    bounds = rulesets.context.limits
    for inp in inputs:
        if inp.block is None and not os.path.isfile(inp.path):
            continue
        try:
            source = inp.open(bounds)
        except UserError:
            continue
        source.close()
        try:
            rulesets.for_jurisdiction(source.header.table.jurisdiction, source.display)
        except UserError:
            continue  # kept: said by the unit, in its place


def run(inputs: list, context: RunContext, runner: runners.Runner | None = None,
        on_error: Callable[[UserError], None] | None = None, progress=None,
        chunk_bytes: int = CHUNK_BYTES, rulesets: RulesetCache | None = None) -> list[TranscriptResult]:
    """Check ``inputs`` (:class:`compliance._internal.inputs.Input`) as one run, on ``runner`` (default: in this process):
    their results in the order given, the run judged as a whole.  An input that cannot be checked goes to
    ``on_error`` (raised without one) and the others still run.  ``progress``: the run's bar
    (:class:`compliance._internal.run.Progress`), told as each input starts and ends.  ``rulesets``: the run's
    (:func:`resolve` fills it; by default a new one, filled here)."""
    runner = runner or runners.SequentialRunner()
    if rulesets is None:
        rulesets = RulesetCache(context)
        resolve(inputs, rulesets)
    with runner.start(progress) as started:
        inputs, context = started.prepare(inputs, context)
        total = sum(getattr(i, "size", 0) for i in inputs)
        parts = started.parts(total)
        plans = plan(inputs, parts, chunk_bytes, context.limits) if parts > 1 else [None] * len(inputs)
        # a pool of no more processes than units of work; a run too small for one: in this process
        sized = started.for_units(units(plans), total)
        this = Run(context, rulesets)
        try:
            results = _collect(inputs, _schedule(sized, inputs, this, plans), on_error, progress)
        finally:
            _forget(this)
    judge_run(results, context)  # the run's shoes, tables and dealers as a whole
    return results


def _collect(inputs, pending, on_error, progress) -> list[TranscriptResult]:
    results = []
    for inp, unit in zip(inputs, pending):
        if progress is not None:
            progress.start(inp)
        outcome = unit.result()
        if isinstance(outcome, UserError):
            if on_error is None:
                raise outcome
            on_error(outcome)
            continue
        results.append(outcome)
        if progress is not None:
            progress.finished(inp, outcome.coups)
    return results


def check(inputs: list, context: RunContext = RunContext(), *, jobs: int = 1, dask: str | None = None,
          on_error: Callable[[UserError], None] | None = None, progress=None,
          chunk_bytes: int = CHUNK_BYTES, rulesets: RulesetCache | None = None) -> list[TranscriptResult]:
    """:func:`run` on the runner of ``-j jobs`` (0: every core) or ``--dask ADDRESS``."""
    return run(inputs, context, runners.runner(jobs, dask), on_error, progress, chunk_bytes, rulesets)


__all__ = ["CHUNK_BYTES", "Run", "accept", "check", "check_chunk", "check_input", "merge", "plan", "plan_chunks",
           "resolve", "run", "units"]
