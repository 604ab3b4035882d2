"""``check -j N`` and ``check --dask ADDRESS``: the same check, on every core or on a cluster.

The output is byte for byte the output of ``-j 1``: the work is cut into
units, the units run anywhere, and their results are put back together in
the order ``-j 1`` would have produced them.

Units
-----
* every transcript is a unit of its own;
* a large ``.jsonl`` is cut into chunks of lines.  A coup's state depends on
  the coups before it (the shoe's cards so far, the curator, the Banker
  marker, a card set aside, the previous coup: :class:`~compliance.games.baccarat.replay.Replayer`),
  so a chunk must start its replay from the state the coups before it left.

Chunks, exactly
---------------
A chunk starts where a shoe changes: the line of the first coup of a new
shoe.  Almost everything the replay carries is then reset or belongs to the
shoe that just ended, so the worker rebuilds it by replaying that previous
shoe (its *lookback*, checked but not reported) before it checks its own
lines.  The start state so rebuilt is a guess that is checked, not trusted:
each chunk reports a fingerprint of the replay state it started from and of
the state it ended in, and the shoes it used.  The chunks are accepted, in
order, only if each one started from exactly the state the one before it
ended in and used no shoe already used before it (other than the shoe its
lookback replayed).  Anything else — a shoe brought back after another, a
curator or Banker marker set before the previous shoe and still held, coup
numbers that go back across a boundary — makes the file be checked again
from the start in one piece.  So the chunks are a way to go faster, never a
way to get a different answer.

Line numbers in findings are absolute: the newlines before each chunk are
counted first (in parallel) so every chunk knows the number of its first line.

Shoe and table integrity
------------------------
Each unit gathers what the integrity stage needs of its coups (a few bytes a
coup, shoe by shoe) and judges nothing; the parent joins a file's chunks (a
shoe cut between two chunks joined again, in order) and, once every unit is
back, judges the run's shoes, tables and dealers in one place
(:func:`compliance.engine.judge_run`), as ``-j 1`` does.
"""

from __future__ import annotations

import hashlib
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

import msgspec

from compliance.context import RunContext
from compliance.engine import Checker, TranscriptResult, finish_record, judge_run
from compliance.errors import UserError
from compliance.findings import Finding
from compliance.limits import DEFAULTS, Limits
from compliance.progress import Tally, shared_counts

#: a .jsonl smaller than this is one unit; a larger one is cut into chunks of at least this size
CHUNK_BYTES = 8 << 20
#: inputs smaller than this in all are checked in this process: a pool costs more than it saves
POOL_BYTES = 4 << 20
#: how far past a chunk's nominal start to look for two shoe changes before giving up on that cut
SCAN_BYTES = 16 << 20


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


# ------------------------------------------------------------------ worker side

_CHECKERS: dict[RunContext, Checker] = {}


def _checker(context: RunContext, cls=Checker) -> Checker:
    """A checker that judges no run: the parent judges the run's shoes once every unit is back (judge_run)."""
    return cls(context, judge=False)


def _shared_checker(context: RunContext) -> Checker:
    """One checker per worker process and run context (it caches the loaded rulesets)."""
    if context not in _CHECKERS:
        _CHECKERS[context] = _checker(context)
    return _CHECKERS[context]


#: the counters of checked coups and bytes this worker adds to, shared with the parent's progress bar
_COUNTS = None


def _worker_init(counts=None) -> None:
    """Ctrl-C goes to the whole process group: the parent handles it and stops the workers (with SIGTERM)."""
    global _COUNTS
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _COUNTS = counts


def _tally() -> Tally | None:
    return Tally(_COUNTS) if _COUNTS is not None else None


def check_input(inp, context: RunContext, on_coup=None) -> TranscriptResult | UserError:
    """Check one whole transcript (an :class:`compliance.inputs.Input`); a UserError is returned, not raised.

    ``on_coup``: the progress of a check run in this process; a worker adds to the parent's counters."""
    tally = None if on_coup is not None else _tally()
    try:
        result = inp.check(_shared_checker(context), on_coup or tally)
        if tally is not None:
            tally.add(result.coups, max(inp.size, 1))
        return result
    except UserError as e:
        return e


class _Chunk:
    """The lines ``start`` to ``end`` of a ``.jsonl`` transcript, seen by the engine as a transcript."""

    def __init__(self, source, start: int, end: int | None, line: int, judges_header: bool = True):
        self.source, self.start, self.end, self.line = source, start, end, line
        self.judges_header = judges_header  # the engine judges the header's rules (rejected rows) in one chunk
        self.header, self.display = source.header, source.display
        self.shoes: set[str] = set()
        self.digest = hashlib.sha256()  # of the bytes of the region, as they were read

    def __getattr__(self, name):  # everything else is the transcript's
        return getattr(self.source, name)

    def records(self):
        shoes = self.shoes
        for record in self.source._jsonl_records(self.start, self.end, self.line, self.digest):
            if record.coup is not None:
                shoes.add(getattr(record.coup, "shoe", None))
            yield record

    def sha256(self) -> str:
        return ""  # the file's digest is put together by the parent (_Chunked.result)


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
    states: list | None  # the game's CoupCards: the cards of the coups with findings, when a report draws them
    start_key: str | None  # fingerprint of the replay state the chunk started from (None: the file's start)
    end_key: str
    start_shoe: str | None  # the shoe the lookback replayed
    shoes: set[str]
    header_sha256: str = ""  # of the bytes before the first coup, as this chunk read them
    region_sha256: str = ""  # of the bytes of its region, as it read them
    not_judged: dict | None = None  # (rule id, evidence missing) -> coups of the chunk not judged by the rule
    integrity: object | None = None  # what the game's integrity stage gathered from the chunk's coups
    dealt: dict | None = None  # dealer -> coups of the chunk they dealt
    result: TranscriptResult | None = None  # the first chunk carries the transcript's result (ruleset, table)
    record_tally: dict | None = None  # the record's findings to come: key -> [finding at its first coup, coups]


def check_chunk(inp, context: RunContext, lookback: tuple[int, int, int] | None,
                region: tuple[int, int | None, int]) -> ChunkResult | UserError:
    """Check the lines of ``region`` (start, end, first line) after replaying ``lookback`` unreported."""
    try:
        base = _shared_checker(context)
        checker = _checker(context, _ChunkChecker)
        checker.rulesets = base.rulesets
        source = inp.open(context.limits)
        start_key = start_shoe = None
        if lookback is not None:
            checker.check_source(_Chunk(source, *lookback, judges_header=False))
            checker.carry = checker.current
            start_key, start_shoe = carry_key(checker.carry), getattr(checker.carry, "current_shoe", None)
        chunk = _Chunk(source, *region, judges_header=lookback is None)  # the header judged once, in the first
        tally = _tally()
        result = checker.check_source(chunk, tally)
        if tally is not None:  # the bytes of the file this chunk covers (the first, the header too)
            start, end, _ = region
            tally.add(result.coups, (inp.size if end is None else end) - (start if lookback is not None else 0))
        result.transcript = inp.name
        out = ChunkResult(result.findings, result.coups, result.unreadable, result.coup_numbers, result.states,
                          start_key, carry_key(checker.current), start_shoe, chunk.shoes, source.header_sha256,
                          chunk.digest.hexdigest(), not_judged=result.not_judged, integrity=result.integrity,
                          dealt=result.dealt, record_tally=result.record_tally)
        if lookback is None:
            out.result = result
        return out
    except UserError as e:
        return e


def file_digests(path: str, marks: list[int]) -> tuple[str, list[str]]:
    """SHA-256 of the whole file and of each region between ``marks`` (byte offsets, sorted, the first 0;
    the last region runs to the end), in one read."""
    whole = hashlib.sha256()
    parts = []
    with open(path, "rb") as f:
        for start, end in zip(marks, [*marks[1:], None]):
            part = hashlib.sha256()
            left = None if end is None else end - start
            while left is None or left > 0:
                block = f.read(1 << 22 if left is None else min(left, 1 << 22))
                if not block:
                    break
                whole.update(block)
                part.update(block)
                if left is not None:
                    left -= len(block)
            parts.append(part.hexdigest())
    return whole.hexdigest(), parts


def count_newlines(path: str, start: int, end: int) -> int:
    n = 0
    with open(path, "rb") as f:
        f.seek(start)
        left = end - start
        while left > 0:
            block = f.read(min(left, 1 << 22))
            if not block:
                break
            n += block.count(b"\n")
            left -= len(block)
    return n


# ------------------------------------------------------------------ the replay state, fingerprinted

_SKIP = ("table", "shoe_counts", "shoe_totals")


def carry_key(r) -> str:
    """A fingerprint of everything the replayer carries to the next coup.

    The shoe counts are those of the current shoe only: :func:`_accept`
    makes sure no other shoe used before a chunk is used in it.
    """
    names = list(vars(r)) if hasattr(r, "__dict__") else []
    names += [n for n in getattr(type(r), "__slots__", ()) if n not in names]
    state = [(n, _canon(getattr(r, n, None))) for n in sorted(names) if n not in _SKIP]
    shoe = getattr(r, "current_shoe", None)
    counts, totals = getattr(r, "shoe_counts", {}), getattr(r, "shoe_totals", {})
    state.append(("shoe", _canon((counts.get(shoe), totals.get(shoe)))))
    return hashlib.sha256(repr(state).encode()).hexdigest()


def _canon(x):
    """A repr-able, process-independent form of a replay value (sets sorted, dict order kept)."""
    if x is None or isinstance(x, (bool, int, float, str, bytes, Decimal)):
        return x
    slots = getattr(type(x), "__slots__", None)
    if slots and not isinstance(x, (tuple, msgspec.Struct)):  # a game's coup state (baccarat's CoupState)
        return (type(x).__name__,) + tuple(_canon(getattr(x, n, None)) for n in slots)
    if isinstance(x, dict):
        return ("dict",) + tuple((_canon(k), _canon(v)) for k, v in x.items())
    if isinstance(x, (set, frozenset)):
        return ("set",) + tuple(sorted((_canon(v) for v in x), key=repr))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__,) + tuple(_canon(v) for v in x)
    if isinstance(x, msgspec.Struct):
        return (type(x).__name__,) + tuple(_canon(getattr(x, f)) for f in x.__struct_fields__)
    return repr(x)


# ------------------------------------------------------------------ planning (parent side)


class _ShoeOnly(msgspec.Struct):
    """A coup line read for its shoe only: the decoder skips the events instead of building them."""

    shoe: object = None


_shoe_decoder = msgspec.json.Decoder(_ShoeOnly)


def _shoe_of(line: bytes) -> str | None:
    try:
        shoe = _shoe_decoder.decode(line).shoe
    except msgspec.DecodeError:  # also a line that is not an object
        return None
    return shoe if isinstance(shoe, str) else None


def _next_cut(f, at: int, limit: int) -> tuple[int, int] | None:
    """From byte ``at``: the start of the next shoe (lookback) and of the shoe after it (the cut)."""
    f.seek(at)
    pos = at
    if at:
        pos += len(f.readline())  # to the start of a line
    previous = lookback = None
    while pos < limit:
        line = f.readline()
        if not line:
            return None
        shoe = _shoe_of(line) if line.strip() else None
        if shoe is not None:
            if previous is not None and shoe != previous:
                if lookback is None:
                    lookback = pos
                else:
                    return lookback, pos
            previous = shoe
        pos += len(line)
    return None


def plan_chunks(inp, parts: int, chunk_bytes: int = CHUNK_BYTES,
                bounds: Limits = DEFAULTS) -> list[tuple[int, int]] | None:
    """Byte offsets (lookback, cut) of the cuts of a ``.jsonl`` input into at most ``parts`` chunks."""
    if inp.block is not None or not inp.path.lower().endswith(".jsonl") or parts < 2:
        return None
    try:
        size = os.path.getsize(inp.path)
    except OSError:
        return None  # checked whole, which reports why it cannot be read
    if size // max(chunk_bytes, 1) < 2:
        return None  # too small to cut; a pipe or a device (size 0) is read once, by the one unit
    source = inp.open(bounds)  # reads only the header; UserError if the file is unusable
    source.close()
    body = source._body_offset
    parts = min(parts, (size - body) // max(chunk_bytes, 1))
    if parts < 2:
        return None
    cuts: list[tuple[int, int]] = []
    floor = body
    with open(inp.path, "rb") as f:
        for k in range(1, parts):
            target = max(body + (size - body) * k // parts, floor)
            cut = _next_cut(f, target, min(size, target + SCAN_BYTES))
            if cut is None:
                continue
            cuts.append(cut)
            floor = cut[1] + 1
    return cuts or None


def _line_numbers(submit, inp, body: int, first_line: int, marks: list[int]) -> list[int]:
    """The line number at each byte offset of ``marks`` (sorted), counting newlines in parallel."""
    edges = [body] + marks
    counts = [submit(count_newlines, inp.path, a, b) for a, b in zip(edges, edges[1:])]
    lines, n = [], first_line
    for fut in counts:
        n += fut.result()
        lines.append(n)
    return lines


def _accept(chunks: list[ChunkResult]) -> bool:
    """Did every chunk start from exactly the state the chunks before it left?"""
    seen = set(chunks[0].shoes)
    for before, chunk in zip(chunks, chunks[1:]):
        if chunk.start_key != before.end_key:
            return False
        if (chunk.shoes & seen) - {chunk.start_shoe}:
            return False
        seen |= chunk.shoes
    return True


def _merge(chunks: list[ChunkResult], sha256: str) -> TranscriptResult:
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
        if result.integrity is not None:
            result.integrity.extend(c.integrity)  # a shoe cut between two chunks is joined again
        for key, (f, n) in (c.record_tally or {}).items():  # the first coup of the earliest chunk, the coups of all
            found = result.record_tally.setdefault(key, [f, 0])
            found[1] += n
    finish_record(result)
    result.findings.sort(key=Finding.sort_key)  # as one pass would have: chunks are in coup order
    result.sha256 = sha256
    return result


# ------------------------------------------------------------------ running


class _Whole:
    def __init__(self, future):
        self.future = future

    def result(self, context: RunContext):
        return self.future.result()


class _Chunked:
    def __init__(self, inp, futures, digests_future):
        self.inp, self.futures, self.digests = inp, futures, digests_future

    def result(self, context: RunContext):
        chunks = [f.result() for f in self.futures]
        error = next((c for c in chunks if isinstance(c, UserError)), None)
        if error is not None:
            return error
        whole, (header, *regions) = self.digests.result()
        same_bytes = all(c.header_sha256 == header for c in chunks) and [c.region_sha256 for c in chunks] == regions
        # the guessed start of a chunk was wrong, or the file changed while it was read: check it in one piece
        if not same_bytes or not _accept(chunks):
            return check_input(self.inp, context)
        return _merge(chunks, whole)


def plan(inputs, jobs: int, chunk_bytes: int, bounds: Limits = DEFAULTS) -> list[list[tuple[int, int]] | None]:
    """The cuts of each input into chunks (None: one unit), for ``jobs`` processes."""
    plans = []
    for inp in inputs:
        try:
            # a few chunks a worker, so that they end together; each costs only the replay of one shoe more
            plans.append(plan_chunks(inp, jobs * 4, chunk_bytes, bounds))
        except UserError:
            plans.append(None)  # the whole-file unit reports it, exactly as -j 1 would
    return plans


def units(plans) -> int:
    """How many units of work the plans make: the most processes that can be kept busy."""
    return sum(len(cuts) + 1 if cuts else 1 for cuts in plans)


def _schedule(submit, inputs, context: RunContext, plans):
    """Submit every unit of work; yield, per input, something whose ``result()`` is its outcome."""
    pending = []
    for inp, cuts in zip(inputs, plans):
        if not cuts:
            pending.append(_Whole(submit(check_input, inp, context)))
            continue
        source = inp.open(context.limits)
        source.close()
        body, first_line = source._body_offset, source._header_line + 1
        starts = [body] + [cut[1] for cut in cuts]
        # first: it reads the whole file, the chunks then share out the rest
        digests = submit(file_digests, inp.path, [0, *starts])
        marks = [m for cut in cuts for m in cut]
        lines = _line_numbers(submit, inp, body, first_line, marks)
        at = dict(zip(marks, lines))
        firsts = [(body, first_line)] + [(cut[1], at[cut[1]]) for cut in cuts]
        ends = [cut[1] for cut in cuts] + [None]
        futures = []
        for k, ((start, line), end) in enumerate(zip(firsts, ends)):
            lookback = None if k == 0 else (cuts[k - 1][0], cuts[k - 1][1], at[cuts[k - 1][0]])
            futures.append(submit(check_chunk, inp, context, lookback, (start, end, line)))
        pending.append(_Chunked(inp, futures, digests))
    return pending


def check_parallel(inputs: list, context: RunContext, jobs: int, on_error: Callable[[UserError], None],
                   progress=None, dask: str | None = None, chunk_bytes: int = CHUNK_BYTES) -> list[TranscriptResult]:
    """Check ``inputs`` on ``jobs`` processes (or a Dask cluster); results and errors in input order."""
    _CHECKERS.clear()  # a run reads its rulesets afresh: a ruleset file may have changed since the last run here
    if dask:
        return _run_dask(dask, inputs, context, on_error, progress, chunk_bytes)
    total = sum(getattr(i, "size", 0) for i in inputs)
    plans = plan(inputs, jobs, chunk_bytes, context.limits) if jobs > 1 and total >= POOL_BYTES else None
    # never more processes than units of work: -j 400 on six chunks starts six
    jobs = min(jobs, units(plans)) if plans is not None else 1
    shown = progress is not None and progress.bar is not None
    if jobs <= 1:
        local = [_Local(check_input, inp, context, progress.on_coup if shown else None) for inp in inputs]
        results = _collect(inputs, local, context, on_error, progress)
        judge_run(results, context)
        return results
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # fork: workers start at once with everything imported (spawn would re-import the program)
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    mp = multiprocessing.get_context(method)
    counts = shared_counts(mp) if shown else None  # the workers' checked coups and bytes, for the bar
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=mp, initializer=_worker_init, initargs=(counts,))
    if counts is not None:
        progress.follow(counts)
    try:
        pending = _schedule(pool.submit, inputs, context, plans)
        results = _collect(inputs, pending, context, on_error, progress)
    except BaseException:  # Ctrl-C, SIGTERM: stop the workers now, not when they finish
        _stop(pool)
        raise
    pool.shutdown()
    judge_run(results, context)
    return results


class _Local:
    """A unit run in this process when asked for its result."""

    def __init__(self, fn, *args):
        self.fn, self.args = fn, args

    def result(self, context: RunContext):
        return self.fn(*self.args)


def _collect(inputs, pending, context: RunContext, on_error, progress) -> list[TranscriptResult]:
    results = []
    for inp, unit in zip(inputs, pending):
        if progress is not None:
            progress.start(inp)
        outcome = unit.result(context)
        if isinstance(outcome, UserError):
            on_error(outcome)
            continue
        results.append(outcome)
        if progress is not None:
            progress.finished(inp, outcome.coups)
    return results


def _stop(pool) -> None:
    """Terminate the workers now (shutdown forgets them, so take them first), then drop what is queued."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # (shutdown forgets it too)
    for p in workers:
        try:
            p.terminate()
        except Exception:  # already gone
            pass
    pool.shutdown(wait=False, cancel_futures=True)
    # Let the pool's manager thread see its workers gone and close its wake-up pipe before the interpreter
    # exits: CPython 3.11's exit hook for process pools wakes that thread through the pipe, and one closing it
    # at the same moment prints "Exception ignored ... Bad file descriptor" under the interrupted message.
    if manager is not None:
        manager.join(timeout=2)


# ------------------------------------------------------------------ Dask


def absolute(inputs, context: RunContext):
    """The inputs and context with every path made absolute, for workers that run in another directory
    (or on another machine that mounts the files at the same place).  The names reports give stay as they are."""
    from dataclasses import replace

    from compliance.ruleset.loader import looks_like_path

    def ref(r):
        return os.path.abspath(r) if r and looks_like_path(r) else r

    return ([replace(i, path=os.path.abspath(i.path)) for i in inputs],
            replace(context, ruleset=ref(context.ruleset),
                    jurisdictions=tuple((k, ref(v)) for k, v in context.jurisdictions)))


def _run_dask(address: str, inputs, context: RunContext, on_error, progress, chunk_bytes: int):
    """The same units on a Dask distributed cluster (the transcripts must be readable at the same absolute
    paths there: see :func:`absolute`)."""
    try:
        from distributed import Client
    except ImportError:
        raise UserError("--dask needs the optional extra: pip install 'baccarat-audit[dask]'") from None
    try:
        client = Client(address, timeout="10s")
    except Exception as e:  # noqa: BLE001 - an address distributed cannot use fails in many ways (TypeError for ucx://)
        raise UserError(f"cannot reach the Dask scheduler ({type(e).__name__}: {str(e)[:200]}): give its address "
                        "as tcp://HOST:PORT, or install the backend its protocol needs", address) from None
    try:
        workers = sum(w.get("nthreads", 1) for w in client.scheduler_info().get("workers", {}).values()) or 1

        def submit(fn, *args):
            return client.submit(fn, *args, pure=False)

        pending = _schedule(submit, inputs, context, plan(inputs, max(2, workers), chunk_bytes, context.limits))
        results = _collect(inputs, pending, context, on_error, progress)
        judge_run(results, context)
        return results
    finally:
        client.close()


__all__ = ["check_parallel", "default_jobs", "plan_chunks", "carry_key", "absolute", "CHUNK_BYTES"]
