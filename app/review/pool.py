"""Where analyses think: niced worker processes, so people's moves never wait for them.

An analysis is a minute of pure-Python CPU. In the server process it would hold the interpreter
lock against the event loop; in a worker process at a lower priority (`SEADRAGONS_REVIEW_NICE`)
the operating system serves people's requests first. `run` blocks its caller (a job worker's
thread) while the part runs; a worker that dies is replaced and the error raised, so the job is
retried. With 0 processes the parts run in the caller's thread (tests, tiny deployments).
"""

from __future__ import annotations

import time
from typing import Any

from app.infra.bot_pool import WorkerProcesses

from .game import GameRecord, ReviewSettings, analyse_moves

Json = dict[str, Any]


def timed_part(
    record: GameRecord, settings: ReviewSettings, start: int, stop: int
) -> tuple[list[Json], float]:
    """One part of an analysis and the CPU seconds it took (runs in a worker)."""
    began = time.process_time()
    entries = analyse_moves(record, settings, start, stop)
    return entries, time.process_time() - began


class AnalysisPool:
    """`processes` niced workers shared by this process's analysis jobs (started on first use,
    replaced when one dies: app/infra/bot_pool.py's `WorkerProcesses`, a set apart from the
    bots', so an analysis never holds up a bot's turn)."""

    def __init__(self, processes: int, nice: int) -> None:
        self.processes = processes
        self.nice = nice
        self.workers = WorkerProcesses(max(0, processes), nice)

    def run_part(
        self, record: GameRecord, settings: ReviewSettings, start: int, stop: int
    ) -> tuple[list[Json], float]:
        """`timed_part` in a worker (or here, with 0 processes)."""
        if self.processes <= 0:
            return timed_part(record, settings, start, stop)
        return self.workers.run(None, timed_part, record, settings, start, stop)

    def close(self) -> None:
        """Stop the workers (at shutdown)."""
        self.workers.shutdown()
