"""Analyses think in niced worker processes; a worker that dies is replaced (the job retries)."""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool

import pytest

from app.review import ReviewSettings
from app.review.pool import AnalysisPool, timed_part

from .conftest import greedy_game

# What is checked here holds for any search: the smallest that still judges each move.
FAST = ReviewSettings(rounds=1, plies=8, sample=4)


def _workers(pool: AnalysisPool) -> list[int]:
    processes = pool.workers._pool
    assert processes is not None
    return list(processes._processes)  # type: ignore[attr-defined]


@pytest.mark.timeout(240)
def test_a_part_in_a_niced_worker_is_the_same_part_and_a_dead_worker_is_replaced() -> None:
    record = greedy_game()
    pool = AnalysisPool(1, 5)
    try:
        entries, cpu = pool.run_part(record, FAST, 0, 6)
        assert entries == timed_part(record, FAST, 0, 6)[0]
        assert cpu > 0
        [pid] = _workers(pool)
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(
            19, os.getpriority(os.PRIO_PROCESS, 0) + 5
        )

        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while True:  # the pool notices the death when it is next used
            try:
                pool.run_part(record, FAST, 0, 1)
            except BrokenProcessPool:
                break
            assert time.monotonic() < deadline, "the dead worker was not noticed"
        again, _ = pool.run_part(record, FAST, 0, 6)  # a new worker
        assert again == entries
        assert _workers(pool) != [pid]
    finally:
        pool.close()
