"""Where a run's units of work run: in this process, on a pool of processes, or on a Dask cluster.

The driver (:mod:`compliance._internal.driver`) plans a run and hands its units (functions
of plain, picklable arguments) to a runner: :class:`SequentialRunner` (this process, ``-j
1`` or a run too small for a pool), :class:`ProcessPoolRunner` (``-j N`` worker processes,
forked where the system can) or :class:`DaskRunner` (``--dask ADDRESS``; its workers read
the transcripts at the same absolute paths).  A runner is a context manager; leaving it
stops its workers.

Every runner gives the same results: docs/architecture.md (the opening); the figures:
docs/performance.md.
"""

from __future__ import annotations

import os
import signal
from dataclasses import replace

from compliance.context import RunContext
from compliance.errors import UserError
from compliance.progress import Tally, shared_counts

#: inputs smaller than this in all are checked in this process: a pool costs more than it saves
POOL_BYTES = 4 << 20


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class Runner:
    """Runs the units of work of one run (the base of the three runners)."""

    #: passed to a unit run in this process: it reports each coup to the progress bar (None: a worker's unit
    #: adds to the counters the bar follows, see :func:`tally`)
    on_coup = None

    def parts(self, total_bytes: int) -> int:
        """Into how many parts a run of ``total_bytes`` is worth cutting (1: each transcript whole)."""
        return 1

    def for_units(self, units: int, total_bytes: int) -> Runner:
        """The runner for a run of ``units`` units of work and ``total_bytes`` (a pool never starts more processes
        than there are units; a run too small for a pool to pay runs in this process)."""
        return self

    def prepare(self, inputs: list, context: RunContext) -> tuple[list, RunContext]:
        """The inputs and context as the workers are to read them."""
        return inputs, context

    def submit(self, fn, *args):
        """Run ``fn(*args)``: something whose ``result()`` is what it returned."""
        raise NotImplementedError

    def share(self, obj):
        """A handle on ``obj`` to pass to every unit instead of ``obj`` itself, sent to each worker once (not with
        every unit); a unit gets ``obj`` back with :func:`shared`.  Called before the first unit is submitted."""
        return obj

    def start(self, progress=None) -> Runner:
        """Start the workers (``progress``: the bar of the run, or None); returns the runner."""
        return self

    def stop(self, at_once: bool = False) -> None:
        """Stop the workers: once they are done, or ``at_once`` (an error, Ctrl-C)."""

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, kind, value, traceback) -> None:
        self.stop(at_once=kind is not None)


class _Deferred:
    """A unit run in this process when its result is asked for (in the order of the inputs)."""

    __slots__ = ("fn", "args")

    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def result(self):
        return self.fn(*self.args)


class SequentialRunner(Runner):
    """Each unit in this process, when its result is asked for; ``on_coup(coups, nbytes)``, if given, is called as
    each coup is read (a bar shown by the run's progress takes its place)."""

    def __init__(self, on_coup=None):
        self.on_coup = on_coup

    def start(self, progress=None) -> Runner:
        if progress is not None and progress.bar is not None:
            self.on_coup = progress.on_coup
        return self

    def submit(self, fn, *args):
        return _Deferred(fn, args)


#: the counters of checked coups and bytes this worker process adds to, shared with the parent's progress bar
_COUNTS = None
#: what the parent shared with this worker process (ProcessPoolRunner.share): token -> object
_SHARED: dict[str, object] = {}


class _Handle:
    """A worker's handle on what its pool was started with (:meth:`ProcessPoolRunner.share`)."""

    __slots__ = ("token",)

    def __init__(self, token: str):
        self.token = token

    def __getstate__(self):
        return self.token

    def __setstate__(self, token):
        self.token = token


def shared(handle):
    """What a unit was handed through :meth:`Runner.share`."""
    return _SHARED[handle.token] if isinstance(handle, _Handle) else handle


def _worker_init(counts=None, shared_objects=None) -> None:
    """Ctrl-C goes to the whole process group: the parent handles it and stops the workers (with SIGTERM)."""
    global _COUNTS
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _COUNTS = counts
    _SHARED.clear()
    _SHARED.update(shared_objects or {})


def tally() -> Tally | None:
    """In a worker process of a :class:`ProcessPoolRunner` whose run shows a bar: the counters to add to."""
    return Tally(_COUNTS) if _COUNTS is not None else None


#: what a run says when a worker process of its pool ended without giving its result
WORKER_LOST = ("a worker process ended before it gave its result (killed by a signal, or by the system for want of "
               "memory): the run is incomplete, so nothing is reported; run it again, or with -j 1")


class _PoolUnit:
    """A unit on a worker process: its result, or a UserError when its worker was lost (no traceback)."""

    __slots__ = ("future",)

    def __init__(self, future):
        self.future = future

    def result(self):
        from concurrent.futures.process import BrokenProcessPool

        try:
            return self.future.result()
        except BrokenProcessPool:
            raise UserError(WORKER_LOST) from None


class ProcessPoolRunner(Runner):
    """The units on ``jobs`` worker processes of this machine."""

    def __init__(self, jobs: int):
        self.jobs = jobs
        self.pool = None
        self.progress = None
        self.before: set = set()
        self.objects: dict[str, object] = {}  # shared with the workers as they start (forked: not even pickled)

    def parts(self, total_bytes: int) -> int:
        return self.jobs if total_bytes >= POOL_BYTES else 1

    def for_units(self, units: int, total_bytes: int) -> Runner:
        self.jobs = min(self.jobs, units)
        if self.jobs <= 1 or total_bytes < POOL_BYTES:
            return SequentialRunner().start(self.progress)
        return self

    def start(self, progress=None) -> Runner:
        self.progress = progress  # the pool starts with the first unit, once the run is planned (for_units)
        return self

    def _pool(self):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # fork: workers start at once with everything imported (spawn would re-import the program)
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        mp = multiprocessing.get_context(method)
        progress = self.progress
        shown = progress is not None and progress.bar is not None
        counts = shared_counts(mp) if shown else None  # the workers' checked coups and bytes, for the bar
        self.before = set(multiprocessing.active_children())  # children that are not the pool's workers
        self.pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=mp, initializer=_worker_init,
                                        initargs=(counts, self.objects))
        if counts is not None:
            progress.follow(counts)
        return self.pool

    def submit(self, fn, *args):
        return _PoolUnit((self.pool or self._pool()).submit(fn, *args))

    def share(self, obj):
        if self.pool is not None:
            raise RuntimeError("share() after the pool started: its workers would not have it")
        token = f"{id(obj):x}-{len(self.objects)}"
        self.objects[token] = obj
        return _Handle(token)

    def stop(self, at_once: bool = False) -> None:
        pool, self.pool = self.pool, None
        if pool is None:
            return
        if not at_once:
            pool.shutdown()
            return
        import multiprocessing

        # terminate the workers now (this process's children the pool started), then drop what is queued; the
        # pool's manager thread sees them gone and ends, so waiting for it is brief (and it closes its wake-up
        # pipe before the interpreter's exit hook for process pools would use it)
        for p in multiprocessing.active_children():
            if p not in self.before:
                p.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


class DaskRunner(Runner):
    """The units on a Dask distributed cluster at ``address`` (the transcripts must be readable at the same
    absolute paths there: :meth:`prepare` makes every path absolute)."""

    def __init__(self, address: str):
        self.address = address
        self.client = None
        self.workers = 1

    def start(self, progress=None) -> Runner:
        try:
            from distributed import Client
        except ImportError:
            raise UserError("--dask needs the optional extra: pip install 'baccarat-audit[dask]'") from None
        try:
            self.client = Client(self.address, timeout="10s")
        except Exception as e:  # noqa: BLE001 - an address distributed cannot use fails in many ways (TypeError for ucx://)
            raise UserError(f"cannot reach the Dask scheduler ({type(e).__name__}: {str(e)[:200]}): give its address "
                            "as tcp://HOST:PORT, or install the backend its protocol needs", self.address) from None
        info = self.client.scheduler_info().get("workers", {})
        self.workers = sum(w.get("nthreads", 1) for w in info.values()) or 1
        return self

    def parts(self, total_bytes: int) -> int:
        return max(2, self.workers)

    def prepare(self, inputs: list, context: RunContext) -> tuple[list, RunContext]:
        return absolute(inputs, context)

    def submit(self, fn, *args):
        return self.client.submit(fn, *args, pure=False)

    def share(self, obj):
        return self.client.scatter(obj, broadcast=True)  # a future: each worker gets the object, once

    def stop(self, at_once: bool = False) -> None:
        client, self.client = self.client, None
        if client is not None:
            client.close()


def absolute(inputs: list, context: RunContext) -> tuple[list, RunContext]:
    """The inputs and context with every path made absolute, for workers that run in another directory
    (or on another machine that mounts the files at the same place).  The names reports give stay as they are."""
    from compliance.ruleset.loader import looks_like_path

    def ref(r):
        return os.path.abspath(r) if r and looks_like_path(r) else r

    return ([replace(i, path=os.path.abspath(i.path)) for i in inputs],
            replace(context, ruleset=ref(context.ruleset),
                    jurisdictions=tuple((k, ref(v)) for k, v in context.jurisdictions)))


def runner(jobs: int = 1, dask: str | None = None) -> Runner:
    """The runner of ``-j jobs`` (0: every core) or ``--dask ADDRESS``."""
    if dask:
        return DaskRunner(dask)
    jobs = jobs or default_jobs()
    return ProcessPoolRunner(jobs) if jobs > 1 else SequentialRunner()


__all__ = ["DaskRunner", "POOL_BYTES", "ProcessPoolRunner", "Runner", "SequentialRunner", "absolute", "default_jobs",
           "runner", "shared", "tally"]
