"""Where bots think: worker processes at a lower CPU priority, a bounded number at once.

A bot's choice is pure CPU in Python (the expert searches for up to its budget). In a thread of
the server process it would hold the interpreter lock against the event loop and every request,
so one guest's bot games could slow everybody's moves. Here decisions run in worker processes
(`SEADRAGONS_BOT_PROCESSES`, niced by `SEADRAGONS_BOT_NICE`), so the operating system gives
people's requests the CPU first, and a runner sends at most one decision per worker at a time:
more bot games make each bot slower, never the people's moves. The worker processes of a server
(`WorkerProcesses`) are built once with the app's context, shared by the bot runner and the
hints, and replaced if a worker dies.

`decide` is what a worker runs: the bot's choice, or a random legal action if the bot fails or
answers something outside the legal list (with the reason, for the runner's log).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import threading
import time
import traceback
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from app.bots import make_bot

Json = dict[str, Any]


@dataclass(frozen=True)
class Decision:
    """A bot's action, how long it thought, and why it fell back to a random action (if so)."""

    action: Json
    think_s: float
    error: str | None = None


def decide(
    level: str, view: Json, legal: list[Json], budget_s: float | None, seed: int
) -> Decision:
    """Let a bot of `level` choose among `legal` from `view` (runs in a worker)."""
    rng = random.Random(seed)
    began = time.perf_counter()
    error = None
    try:
        action = make_bot(level, rng, budget_s=budget_s).choose(view, legal)
        if action not in legal:
            error = f"bot {level} chose an action that is not legal: {str(action)[:200]}"
    except Exception:
        error = traceback.format_exc(limit=8)
    if error is not None:
        action = rng.choice(legal)
    return Decision(action, time.perf_counter() - began, error)


PARENT_CHECK_S = 1.0


def start_niced_worker(nice: int) -> None:
    """Worker initializer, for bots and analyses (app/review/pool.py): people's requests
    get the CPU first, and the worker ends with the server process (even a killed one, which
    cannot tell its workers to stop)."""
    if nice > 0:
        os.nice(nice)
    parent = os.getppid()

    def orphaned() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=orphaned, name="parent-watch", daemon=True).start()


def default_processes() -> int:
    """Half the machine's cores, at least one: the other half stays for people."""
    return max(1, (os.cpu_count() or 2) // 2)


class WorkerProcesses:
    """Niced worker processes, started on first use and replaced if one dies; with 0
    processes, none (callers then run the work in threads of this process)."""

    def __init__(self, processes: int, nice: int = 10) -> None:
        self.processes = processes
        self.nice = nice
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def executor(self) -> ProcessPoolExecutor:
        """The current pool (made now if there is none)."""
        assert self.processes > 0, "no worker processes configured"
        with self._lock:
            if self._pool is None:
                # Spawned, not forked: the server process has threads (and connections) a fork
                # would copy in whatever state they were.
                self._pool = ProcessPoolExecutor(
                    self.processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=start_niced_worker,
                    initargs=(self.nice,),
                )
            return self._pool

    def replace_broken(self, broken: Executor) -> None:
        """A worker died: the next call starts a new pool."""
        with self._lock:
            if self._pool is broken:
                self._pool = None
        broken.shutdown(wait=False, cancel_futures=True)

    def warm(self) -> None:
        """Start the workers now, not at the first call."""
        if self.processes:
            pool = self.executor()
            for _ in range(self.processes):
                pool.submit(os.getpid)

    def run(self, timeout_s: float | None, fn: Any, *args: Any) -> Any:
        """`fn(*args)` in a worker, waited for by the calling thread (never the event loop) for
        at most `timeout_s` (None: until it ends); with 0 processes, in this thread. `fn` must
        be importable (a module-level function) and its arguments picklable."""
        if not self.processes:
            return fn(*args)
        pool = self.executor()
        try:
            return pool.submit(fn, *args).result(timeout=timeout_s)
        except BrokenProcessPool:
            self.replace_broken(pool)
            raise

    def shutdown(self) -> None:
        """Stop the workers (at shutdown)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


class DecisionPool:
    """Runs `decide` for one runner: in `processes` worker processes at `nice`, or, with 0
    processes, in two threads of this process (tests that substitute bots; tiny deployments)."""

    def __init__(self, workers: WorkerProcesses) -> None:
        self.workers = workers
        processes = workers.processes
        self.slots = max(1, processes) if processes else 2
        self._threads: ThreadPoolExecutor | None = None
        self._slots: asyncio.Semaphore | None = None

    def start(self) -> None:
        """Get ready on the running loop (workers start on first use, in the background)."""
        self._slots = asyncio.Semaphore(self.slots)
        if not self.workers.processes:
            self._threads = ThreadPoolExecutor(self.slots, thread_name_prefix="bot")
        else:
            self.workers.warm()  # the workers start now, not at the first bot turn

    def stop(self) -> None:
        """Let go of this runner's threads (the worker processes are the context's to stop)."""
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None

    def slot(self) -> asyncio.Semaphore:
        """Held while a decision is prepared and made: waiting runs first come, first served."""
        assert self._slots is not None, "start() first"
        return self._slots

    async def decide(
        self, level: str, view: Json, legal: list[Json], budget_s: float | None, seed: int
    ) -> Decision:
        """`decide` in a worker; a worker that died is replaced and the error raised."""
        loop = asyncio.get_running_loop()
        if self._threads is not None:
            return await loop.run_in_executor(
                self._threads, decide, level, view, legal, budget_s, seed
            )
        pool = self.workers.executor()
        try:
            return await asyncio.wrap_future(
                pool.submit(decide, level, view, legal, budget_s, seed)
            )
        except BrokenProcessPool:
            self.workers.replace_broken(pool)
            raise
