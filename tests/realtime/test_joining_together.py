"""Sockets that open together share their reads and their presence writes (shared_reads.py,
seen_marks.py), in one process: no server, no database, no threads."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.realtime.bus import MemoryBus
from app.realtime.connection import Connection
from app.realtime.hub import Hub
from app.realtime.seen_marks import SeenMarks
from app.realtime.shared_reads import SharedReads
from app.shared.notify import Notifier
from tests.realtime.memory_store import MemoryStore
from tests.realtime.test_core_in_process import GAME, FakeSocket, until

pytestmark = pytest.mark.anyio


async def test_overlapping_reads_of_one_key_are_one_read_and_share_its_answer() -> None:
    reads = SharedReads()
    gate = asyncio.Event()
    fetched: list[str] = []

    async def fetch(key: str) -> list[str]:
        fetched.append(key)
        await gate.wait()
        return [key]

    readers = [asyncio.ensure_future(reads.read("a", lambda: fetch("a"))) for _ in range(5)]
    other = asyncio.ensure_future(reads.read("b", lambda: fetch("b")))
    await until(lambda: len(fetched) == 2, "the two keys' reads")
    assert reads.in_flight("a") and reads.in_flight("b")
    gate.set()
    assert await asyncio.gather(*readers) == [["a"]] * 5
    assert await other == ["b"]
    assert sorted(fetched) == ["a", "b"]  # one read per key
    assert not reads.in_flight("a")
    # Once answered, the next caller reads again (keeping the answer is the caller's business).
    assert await reads.read("a", lambda: fetch("a")) == ["a"] and fetched.count("a") == 2


async def test_a_failed_read_fails_its_waiters_and_a_cancelled_reader_leaves_them_reading() -> None:
    reads = SharedReads()
    gate = asyncio.Event()

    async def broken() -> str:
        await gate.wait()
        raise OSError("the database is away")

    first = asyncio.ensure_future(reads.read("k", broken))
    await until(lambda: reads.in_flight("k"))
    waiter = asyncio.ensure_future(reads.read("k", broken))
    await asyncio.sleep(0)  # the waiter starts waiting on the first read
    gate.set()
    for task in (first, waiter):
        with pytest.raises(OSError):
            await task

    hold = asyncio.Event()

    async def slow() -> str:
        await hold.wait()
        return "late"

    reader = asyncio.ensure_future(reads.read("k", slow))
    await until(lambda: reads.in_flight("k"))
    calls: list[int] = []

    async def quick() -> str:
        calls.append(1)
        return "read again"

    waiter = asyncio.ensure_future(reads.read("k", quick))
    await asyncio.sleep(0)
    reader.cancel()  # the first socket closed while it read
    assert await waiter == "read again" and calls == [1]
    with pytest.raises(asyncio.CancelledError):
        await reader


async def test_marks_that_arrive_during_a_write_go_together_in_the_next() -> None:
    writes: list[dict[int, list[int]]] = []
    gates: list[asyncio.Event] = []

    async def write(seen: dict[int, list[int]]) -> None:
        writes.append(seen)
        gate = asyncio.Event()
        gates.append(gate)
        await gate.wait()

    tasks: set[asyncio.Task[Any]] = set()

    def spawn(coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    marks = SeenMarks(write, spawn)
    first = asyncio.ensure_future(marks.mark(1, 10))
    await until(lambda: len(writes) == 1, "a mark alone is written at once")
    later = [asyncio.ensure_future(marks.mark(g, u)) for g, u in ((1, 20), (1, 30), (2, 40))]
    await asyncio.sleep(0)
    assert writes == [{1: [10]}] and not first.done()
    gates[0].set()
    await first
    await until(lambda: len(writes) == 2, "the next write")
    assert writes[1] == {1: [20, 30], 2: [40]}  # everything that arrived meanwhile, at once
    assert not any(t.done() for t in later)  # each returns only once its own mark is in
    gates[1].set()
    await asyncio.gather(*later)
    assert marks.writes == 2 and not tasks


async def test_a_failed_mark_write_reaches_its_markers_and_the_next_marks_still_go() -> None:
    failing = True

    async def write(seen: dict[int, list[int]]) -> None:
        if failing:
            raise OSError("the database is away")

    tasks: set[asyncio.Future[Any]] = set()
    marks = SeenMarks(write, lambda coro: tasks.add(asyncio.ensure_future(coro)))
    with pytest.raises(OSError):
        await marks.mark(1, 10)
    failing = False
    await marks.mark(1, 10)
    assert marks.writes == 2


async def test_a_mark_whose_writer_is_cancelled_fails_like_a_failed_write() -> None:
    """The hub stopping cancels the writer: its markers see an error they handle (the endpoint
    logs it), not a cancellation of their own."""
    gate = asyncio.Event()

    async def write(seen: dict[int, list[int]]) -> None:
        await gate.wait()

    tasks: list[asyncio.Future[Any]] = []
    marks = SeenMarks(write, lambda coro: tasks.append(asyncio.ensure_future(coro)))
    first = asyncio.ensure_future(marks.mark(1, 10))
    await until(lambda: marks.writes == 1, "the write in flight")
    later = asyncio.ensure_future(marks.mark(1, 20))  # waits for the next write
    await asyncio.sleep(0)
    tasks[0].cancel()
    for marker in (first, later):
        with pytest.raises(RuntimeError):
            await marker
    mine = asyncio.ensure_future(marks.mark(2, 30))  # a new writer for new marks
    await until(lambda: marks.writes == 2, "the next writer")
    mine.cancel()  # a caller's own cancellation stays one
    with pytest.raises(asyncio.CancelledError):
        await mine
    gate.set()


@pytest.fixture
def store() -> MemoryStore:
    s = MemoryStore(Notifier())
    s.add_game(GAME, [10, 20])
    s.sign_in("t10", 10, "Ann")
    s.sign_in("t20", 20, "Bob")
    return s


async def test_a_tables_sockets_opening_together_read_its_chat_history_once(
    store: MemoryStore,
) -> None:
    """Two seats and spectators arrive at once: one chat history read and one presence write
    for both seats, and every socket still gets its state and its history."""
    history = asyncio.Event()

    async def run(fn: Any, *args: Any) -> Any:
        if fn == store.chat_since:
            await history.wait()  # a read that takes a while: the others arrive meanwhile
        return fn(*args)

    hub = Hub(
        MemoryBus(), store, store, store.notifier or Notifier(), "t:", check_s=3600,
        heartbeat_s=3600,
        session_recheck_s=3600, run=run, retry_after_s=5,
    )  # fmt: skip
    await hub.start()
    try:
        viewers = [store.authorise(GAME, t, None) for t in ("t10", "t20", None, None, None)]
        socks = [FakeSocket() for _ in viewers]
        conns = [Connection(s, v) for s, v in zip(socks, viewers, strict=True)]
        joins = [asyncio.ensure_future(hub.registry.join(GAME, c)) for c in conns]
        await until(lambda: GAME in hub.rooms and len(hub.rooms[GAME].conns) == 5, "all in")
        history.set()
        assert all(room is not None for room in await asyncio.gather(*joins))
        for s in socks:
            assert s.of("state") and s.of("chat_history")
        assert store.calls.count("chat_since") == 1
        await asyncio.gather(hub.seen_marks.mark(GAME, 10), hub.seen_marks.mark(GAME, 20))
        assert sorted(store.seen) == [(GAME, 10), (GAME, 20)]
        assert store.calls.count("mark_seen_many") == hub.seen_marks.writes == 1
    finally:
        await hub.stop()


async def test_a_tables_sockets_opening_together_ask_once_whether_it_delays_spectators(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.realtime.delayed_rooms import DelayedRooms, DelayedStore

    asked = asyncio.Event()
    answer = asyncio.Event()
    questions: list[int] = []

    def has_delay(self: DelayedStore, game_id: int) -> bool:
        questions.append(game_id)
        return False

    async def run(fn: Any, *args: Any) -> Any:
        asked.set()
        await answer.wait()  # the read takes a while: the other sockets arrive meanwhile
        return fn(*args)

    monkeypatch.setattr(DelayedStore, "has_delay", has_delay)
    hub = Hub(
        MemoryBus(), store, store, Notifier(), "t:", check_s=3600, heartbeat_s=3600,
        session_recheck_s=3600, run=run, retry_after_s=5,
    )  # fmt: skip
    delayed = DelayedRooms(hub, None, tick_s=3600)
    viewers = [store.authorise(GAME, t, None) for t in ("t10", None, None, None)]
    asking = [asyncio.ensure_future(delayed.registry_for(GAME, v)) for v in viewers]
    await asked.wait()
    await asyncio.sleep(0)  # every socket has asked by now
    answer.set()
    assert all(r is hub.registry for r in await asyncio.gather(*asking))  # no delay: live rooms
    assert questions == [GAME]
    assert await delayed.registry_for(GAME, viewers[1]) is hub.registry and questions == [GAME]
