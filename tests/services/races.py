"""Threads at once, for the tests of races: `in_threads` runs any work side by side; `race`
submits one move from several threads against one version, each held inside the engine until
all have passed the early version check, so the optimistic UPDATE, not the early check, must
pick the single winner."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

import app.engine as rules
from app.shared.errors import ServiceError


def race(monkeypatch: pytest.MonkeyPatch, contenders: int, submit: Callable[[], int]) -> list[Any]:
    """Run `submit` (returns the new version) in `contenders` threads at once; each thread's
    version, or the code of the ServiceError it raised."""
    barrier = threading.Barrier(contenders)
    real_apply = rules.apply

    def held_apply(*args: Any) -> Any:
        result = real_apply(*args)
        barrier.wait(timeout=10)
        return result

    monkeypatch.setattr(rules, "apply", held_apply)
    return in_threads(contenders, lambda _i: submit())


def in_threads(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run `work(i)` for i in range(count), each in its own thread at once; each one's result,
    or the code of the ServiceError it raised, by index."""
    outcomes: list[Any] = [None] * count

    def run(i: int) -> None:
        try:
            outcomes[i] = work(i)
        except ServiceError as exc:
            outcomes[i] = exc.code

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return outcomes
