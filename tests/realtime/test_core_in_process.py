"""The live core's parts in one process: an in-memory store, a memory bus, fake sockets.

No server, no database, no threads: the authority, rooms, registry, session index, chat relay
and bus codec are driven directly, and what each socket was sent is read back.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import jsonpatch
import pytest
from sqlalchemy.exc import OperationalError

import app.engine as rules
from app.infra.threads import thread_runner
from app.metrics import ERRORS
from app.realtime import endpoint, memory
from app.realtime.bus import RECONNECTED, MemoryBus
from app.realtime.codec import (
    Changed,
    ChatLine,
    Codec,
    MoveNotice,
    Presence,
    Received,
    Reconnected,
    Revoked,
)
from app.realtime.connection import Connection
from app.realtime.documents import SPECTATOR, document
from app.realtime.hub import Hub
from app.realtime.protocol import ActionMsg, unbundled
from app.realtime.room import Room
from app.realtime.sessions import SessionIndex
from app.realtime.storage import Viewer
from app.shared.moves import Committed
from app.shared.notify import Notifier
from tests.realtime.memory_store import MemoryStore

pytestmark = pytest.mark.anyio
GAME = 1


class FakeSocket:
    """What a Connection writes to: frames kept as decoded JSON, the close code."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []  # the very objects written, in order
        self.closed: int | None = None

    async def send_text(self, data: str) -> None:
        self.raw.append(data)
        self.frames.extend(unbundled(json.loads(data)))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = code

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == kind]


class SharedBus(MemoryBus):
    """One memory bus for several hubs ("instances"); `broken` makes publishing fail, and
    `published` records each message with what `watch` said at that moment."""

    def __init__(self) -> None:
        super().__init__()
        self.broken = False
        self.published: list[tuple[str, Any]] = []
        self.watch: Callable[[], Any] = lambda: None

    async def publish(self, channel: str, message: str) -> None:
        if self.broken:
            raise ConnectionError("the bus is away")
        self.published.append((message, self.watch()))
        await super().publish(channel, message)


async def inline(fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)


async def until(pred: Callable[[], bool], what: str = "condition") -> None:
    """Let the loop run until `pred()` holds (the writer tasks and bus readers are tasks)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while not pred():
        assert loop.time() < deadline, f"never: {what}"
        await asyncio.sleep(0.001)


@pytest.fixture
def notifier() -> Notifier:
    return Notifier()


@pytest.fixture
def store(notifier: Notifier) -> MemoryStore:
    s = MemoryStore(notifier)
    s.add_game(GAME, [10, 20])
    s.sign_in("t10", 10, "Ann")
    s.sign_in("t20", 20, "Bob")
    s.sign_in("t30", 30, "Cy")
    return s


@pytest.fixture
def bus() -> SharedBus:
    return SharedBus()


@pytest.fixture
async def hubs(store: MemoryStore, bus: SharedBus, notifier: Notifier) -> Any:
    """Two instances on one bus and one store (the store's commits are heard by the first, as
    each process hears its own); their timers never fire during a test."""
    made = [
        Hub(
            bus,
            store,
            store,
            each,
            "t:",
            check_s=3600,
            heartbeat_s=3600,
            session_recheck_s=3600,
            run=inline,
            retry_after_s=5,
        )
        for each in (notifier, Notifier())
    ]
    for hub in made:
        await hub.start()
    yield made
    for hub in made:
        await hub.stop()


async def join(hub: Hub, store: MemoryStore, token: str | None) -> tuple[Connection, Room]:
    viewer = store.authorise(GAME, token, None)
    sock = FakeSocket()
    conn = Connection(sock, viewer)
    room = await hub.registry.join(GAME, conn)
    assert room is not None
    hub.opened(conn)
    await until(lambda: bool(sock.of("state")), "the first state")
    return conn, room


def sock(conn: Connection) -> FakeSocket:
    return conn.socket  # type: ignore[return-value]


def first_legal(store: MemoryStore, seat: int = 0) -> dict[str, Any]:
    return rules.legal_actions(store.games[GAME].snap.state, seat)[0]


def action(msg_id: Any, version: int, act: dict[str, Any]) -> ActionMsg:
    return ActionMsg(type="action", id=msg_id, version=version, action=act)


# --- the authority and the rooms ---------------------------------------------------------------


async def test_a_move_reaches_every_viewer_and_the_mover_hears_its_ack_after_its_patch(
    hubs: list[Hub], store: MemoryStore, bus: SharedBus
) -> None:
    hub = hubs[0]
    ann, room = await join(hub, store, "t10")
    bob, _ = await join(hub, store, "t20")
    spectator, _ = await join(hub, store, None)
    loads = store.calls.count("load_game")
    await hub.authority.act(room, ann, action("a1", 0, first_legal(store)))
    await until(lambda: bool(sock(ann).of("ack")), "the ack")
    kinds = [f["type"] for f in sock(ann).frames]
    assert kinds.index("patch") < kinds.index("ack"), kinds  # the document is new at the ack
    [ack] = sock(ann).of("ack")
    assert ack["id"] == "a1" and ack["version"] == 1
    for other in (bob, spectator):
        await until(lambda o=other: bool(sock(o).of("patch")), "the others' patches")  # type: ignore[misc]
        assert sock(other).of("patch")[-1]["version"] == 1
        assert sock(other).of("log")[-1]["seq"] == 1
    assert store.calls.count("load_game") == loads, "a move made here is fanned out unread"
    # Then one `changed` message with the move on the bus, for the other instances.
    received = Codec("elsewhere").decode(bus.published[-1][0])
    assert received is not None and isinstance(received.message, Changed)
    assert received.message.version == 1 and received.message.move is not None


async def test_spectators_share_one_set_of_frames_equal_to_the_per_socket_documents(
    hubs: list[Hub], store: MemoryStore
) -> None:
    """Every spectator holding the previous version gets the very same frame objects (built
    once per game and version), and the document they rebuild is, at every version, the one a
    per-socket state would carry and GET /state's view (R-60: no seat's secrets)."""
    hub = hubs[0]
    ann, room = await join(hub, store, "t10")
    bob, _ = await join(hub, store, "t20")
    early = [(await join(hub, store, token))[0] for token in (None, "t30", None)]
    late: Connection | None = None
    seats = {0: ann, 1: bob}
    states: dict[int, Any] = {0: store.games[GAME].snap.state}
    rng = random.Random(3)
    while store.games[GAME].snap.status == "live" and len(states) < 80:
        snap = store.games[GAME].snap
        mover = seats[snap.to_act]
        choice = rng.choice(rules.legal_actions(snap.state, snap.to_act))
        await hub.authority.act(room, mover, action(f"m{snap.version}", snap.version, choice))
        states[store.games[GAME].snap.version] = store.games[GAME].snap.state
        if len(states) == 6:
            late = (await join(hub, store, None))[0]
    assert late is not None and len(states) > 10
    final = store.games[GAME].snap.version
    await until(lambda: all(c.version == final for c in [*early, late]), "every spectator")
    raw = [sock(c).raw for c in early]
    start = [next(i for i, t in enumerate(r) if t.startswith('{"type":"state"')) for r in raw]
    changes = [
        [t for t in r[i + 1 :] if t.startswith(('{"type":"frames"', '{"type":"patch"'))]
        for r, i in zip(raw, start, strict=True)
    ]
    assert changes[0] and all(len(c) == len(changes[0]) for c in changes)
    for frames in zip(*changes, strict=True):
        assert all(f is frames[0] for f in frames), "one frame object for every spectator"
    # One write per change: its patch and log lines in one frame.
    assert all(json.loads(t)["type"] == "frames" for t in changes[0])
    for conn in early:  # each move's log entry, once, in order
        assert [f["seq"] for f in sock(conn).of("log")] == list(range(1, final + 1))
    for conn in (*early, late):
        texts = sock(conn).raw
        held: dict[str, Any] | None = None
        for frame in (f for text in texts for f in unbundled(json.loads(text))):
            if frame["type"] == "state":
                version = frame["version"]
                held = {k: frame[k] for k in ("view", "legal", "clock")}
            elif frame["type"] == "patch":
                assert held is not None and frame["base"] == version
                held = jsonpatch.apply_patch(held, frame["ops"])
                version = frame["version"]
            else:
                continue
            state = states[version]
            per_socket = document(state, SPECTATOR, store.games[GAME].snap.clock)
            assert held == json.loads(json.dumps(per_socket))
            assert held["view"] == json.loads(json.dumps(rules.view_for(state, None)))
            if not state.over:
                assert all(p["hand"] is None for p in held["view"]["players"])


async def test_refused_actions_answer_with_their_id_and_leave_nothing_behind(
    hubs: list[Hub], store: MemoryStore
) -> None:
    hub = hubs[0]
    ann, room = await join(hub, store, "t10")
    bob, _ = await join(hub, store, "t20")
    cy, _ = await join(hub, store, "t30")
    await hub.authority.act(room, bob, action("b1", 0, first_legal(store)))
    await hub.authority.act(room, ann, action("a1", 0, {"type": "fly"}))
    await hub.authority.act(room, cy, action(7, 0, first_legal(store)))
    await until(
        lambda: bool(sock(bob).of("error") and sock(ann).of("error") and sock(cy).of("error"))
    )
    assert (sock(bob).of("error")[0]["id"], sock(bob).of("error")[0]["code"]) == (
        "b1",
        "not_your_turn",
    )
    assert (sock(ann).of("error")[0]["id"], sock(ann).of("error")[0]["code"]) == (
        "a1",
        "bad_action",
    )
    assert (sock(cy).of("error")[0]["id"], sock(cy).of("error")[0]["code"]) == (7, "not_seated")
    assert store.games[GAME].snap.version == 0
    # An action that is not one (bad shape) or from a non-player is not remembered at all.
    assert len(hub.authority.recent) == 1  # only Bob's, a seated player's real action


async def test_a_retried_id_gets_the_first_answer_and_makes_one_move(
    hubs: list[Hub], store: MemoryStore
) -> None:
    hub = hubs[0]
    ann, room = await join(hub, store, "t10")
    act = first_legal(store)
    await asyncio.gather(
        hub.authority.act(room, ann, action("x", 0, act)),
        hub.authority.act(room, ann, action("x", 0, act)),
    )
    await until(lambda: len(sock(ann).of("ack")) == 2, "two answers")
    assert sock(ann).of("ack")[0] == sock(ann).of("ack")[1]
    assert store.calls.count("commit") == 1 and store.games[GAME].snap.version == 1
    assert "commit_in" not in store.calls  # decided on the loop: no worker thread


@pytest.mark.parametrize(
    ("failing", "loop_road"),
    [("commit", True), ("commit_in", False), ("check_session", True)],
)
async def test_every_answer_carries_its_id_when_the_database_is_away(
    hubs: list[Hub], store: MemoryStore, failing: str, loop_road: bool
) -> None:
    hub = hubs[0]
    store.loop_road = loop_road
    ann, room = await join(hub, store, "t10")
    ann.session_checked_at = float("-inf")  # due for its re-check
    store.fail[failing] = OperationalError("SELECT 1", {}, Exception("connection refused"))
    await hub.authority.act(room, ann, action("u1", 0, first_legal(store)))
    await until(lambda: bool(sock(ann).of("error")))
    [err] = sock(ann).of("error")
    assert (err["id"], err["code"], err["retry_after"]) == ("u1", "unavailable", 5)
    # Nothing applied: the same id may run again once the database is back.
    del store.fail[failing]
    await hub.authority.act(room, ann, action("u1", 0, first_legal(store)))
    await until(lambda: bool(sock(ann).of("ack")))
    assert sock(ann).of("ack")[0]["id"] == "u1"


def _internal_errors() -> float:
    return ERRORS.labels(code="internal", transport="ws")._value.get()


async def test_an_acknowledged_action_counts_no_error(hubs: list[Hub], store: MemoryStore) -> None:
    hub = hubs[0]
    ann, room = await join(hub, store, "t10")
    before = _internal_errors()
    await hub.authority.act(room, ann, action("ok", 0, first_legal(store)))
    await until(lambda: bool(sock(ann).of("ack")))
    assert _internal_errors() == before


# --- two instances -----------------------------------------------------------------------------


async def test_another_instance_replays_the_move_without_reading_the_game(
    hubs: list[Hub], store: MemoryStore
) -> None:
    ann, room = await join(hubs[0], store, "t10")
    bob, _ = await join(hubs[1], store, "t20")
    loads = store.calls.count("load_game")
    await hubs[0].authority.act(room, ann, action("a1", 0, first_legal(store)))
    await until(lambda: bool(sock(bob).of("patch")), "the patch on the other instance")
    assert sock(bob).of("patch")[0]["version"] == 1
    log = sock(bob).of("log")[0]
    assert log["seq"] == 1 and log["at"] and log["text"]
    assert store.calls.count("load_game") == loads, "replayed from the bus message"
    assert "cache_state" in store.calls


async def test_a_table_not_started_tells_its_sockets_when_its_status_changes(
    hubs: list[Hub], store: MemoryStore
) -> None:
    """Before the game starts the room holds no state: a reload that finds the table changed
    (cancelled, say) sends each socket the new status, and the room stays current."""
    game = store.games[GAME]
    game.snap = replace(game.snap, status="open", state=None, to_act=None)
    fake = FakeSocket()
    conn = Connection(fake, store.authorise(GAME, "t10", None))
    room = await hubs[0].registry.join(GAME, conn)
    assert room is not None
    await until(lambda: bool(fake.of("status")), "the table's status")
    assert fake.of("status")[-1]["status"] == "open"
    game.snap = replace(game.snap, status="cancelled")
    await room.refresh_safely()
    assert not room.stale, "the reload failed"
    await until(lambda: fake.of("status")[-1]["status"] == "cancelled", "the new status")


async def test_a_move_made_elsewhere_in_the_process_reaches_local_sockets_before_the_bus(
    hubs: list[Hub], store: MemoryStore, bus: SharedBus
) -> None:
    ann, _ = await join(hubs[0], store, "t10")
    snap = store.games[GAME].snap
    act = first_legal(store)
    state, events = rules.apply(snap.state, act, 0)
    move = Committed(
        GAME, 1, 0, state, events, "live", rules.to_act(state), snap.bots(), {"mode": "none"},
        action=rules.canonical_action(act), at="2026-12-01T12:00:00+00:00",
    )  # fmt: skip
    bus.watch = lambda: [f["type"] for f in sock(ann).frames] + ["queued"] * ann.queued()
    store.record(move)  # as the HTTP road or a bot does: the after-commit hook hears it
    await until(lambda: any(Codec("x").decode(m) for m, _ in bus.published if '"changed"' in m))
    [(_, seen_at_publish)] = [(m, w) for m, w in bus.published if '"changed"' in m]
    assert "patch" in seen_at_publish or "queued" in seen_at_publish, seen_at_publish


async def test_chat_goes_to_local_sockets_first_and_others_catch_up_after_the_bus_returns(
    hubs: list[Hub], store: MemoryStore, bus: SharedBus
) -> None:
    ann, room = await join(hubs[0], store, "t10")
    spectator, _ = await join(hubs[0], store, None)
    bob, _ = await join(hubs[1], store, "t20")
    bus.broken = True
    await hubs[0].chat.say(room, ann, "hello")
    await until(lambda: bool(sock(spectator).of("chat")), "the line on the sender's instance")
    assert sock(ann).of("chat")[0]["text"] == "hello"
    assert not sock(bob).of("chat")  # the bus refused it
    bus.broken = False
    bus._dispatch(room.channel, RECONNECTED)  # both instances' subscriptions are back
    await until(lambda: bool(sock(bob).of("chat")), "the stored line after the bus returned")
    # One history read per room (the second socket on the first instance got the kept copy),
    # then one catch-up in each room.
    await until(lambda: store.calls.count("chat_since") >= 4)
    assert [f["text"] for f in sock(bob).of("chat")] == ["hello"]
    assert len(sock(ann).of("chat")) == 1 and len(sock(spectator).of("chat")) == 1  # no repeats


async def test_a_crowd_joining_reads_the_chat_history_once_and_it_stays_current(
    hubs: list[Hub], store: MemoryStore
) -> None:
    ann, room = await join(hubs[0], store, "t10")
    assert store.calls.count("chat_since") == 1  # the room's one read
    await hubs[0].chat.say(room, ann, "before")
    await until(lambda: bool(sock(ann).of("chat")))
    crowd = [await join(hubs[0], store, None) for _ in range(20)]
    for conn, _ in crowd:
        [history] = sock(conn).of("chat_history")
        assert [m["text"] for m in history["messages"]] == ["before"]
    await hubs[0].chat.say(room, ann, "during")
    await until(lambda: all(sock(c).of("chat") for c, _ in crowd), "the new line to the crowd")
    late, _ = await join(hubs[0], store, None)
    [history] = sock(late).of("chat_history")
    assert [m["text"] for m in history["messages"]] == ["before", "during"]
    assert store.calls.count("chat_since") == 1  # the kept copy, with the lines said since
    assert not sock(late).of("chat")  # the line came once, in the history


async def test_a_sign_out_closes_sockets_here_at_once_elsewhere_by_bus_or_else_by_the_sweep(
    hubs: list[Hub], store: MemoryStore, notifier: Notifier, bus: SharedBus
) -> None:
    here, _ = await join(hubs[0], store, "t10")
    there, _ = await join(hubs[1], store, "t10")
    notifier.sessions_revoked(10, frozenset({here.viewer.token_hash or ""}))
    await until(lambda: sock(here).closed == 1008 and sock(there).closed == 1008)
    assert sock(here).of("error")[-1]["code"] == "not_signed_in"
    # The bus away and the revocation never published: the sweep finds the ended session.
    bus.broken = True
    other, _ = await join(hubs[1], store, "t20")
    del store.tokens["t20"]
    assert await hubs[1].sessions.sweep() == 1
    await until(lambda: sock(other).closed == 1008)


# --- the session index -------------------------------------------------------------------------


async def test_a_session_is_read_again_only_after_the_recheck_period(store: MemoryStore) -> None:
    now = [100.0]
    index = SessionIndex(store, inline, recheck_s=5, clock=lambda: now[0])
    conn = Connection(FakeSocket(), Viewer(10, "Ann", "t10"))
    conn.session_checked_at = 100.0
    now[0] = 104.9
    assert await index.still_valid(conn) and "check_session" not in store.calls
    now[0] = 105.0
    assert await index.still_valid(conn) and store.calls.count("check_session") == 1
    del store.tokens["t10"]
    now[0] = 111.0
    assert not await index.still_valid(conn)


async def test_a_sweep_that_finds_a_session_valid_spares_its_actions_the_read(
    store: MemoryStore,
) -> None:
    now = [100.0]
    index = SessionIndex(store, inline, recheck_s=5, clock=lambda: now[0])
    ann = Connection(FakeSocket(), Viewer(10, "Ann", "t10"))
    bob = Connection(FakeSocket(), Viewer(20, "Bob", "t20"))
    for conn in (ann, bob):
        conn.session_checked_at = 90.0
        index.add(conn)
    del store.tokens["t20"]
    assert await index.sweep() == 1  # Bob's ended: closed
    now[0] = 104.0
    assert await index.still_valid(ann) and "check_session" not in store.calls
    now[0] = 105.0  # the sweep's answer is as old as the period: read again
    assert await index.still_valid(ann) and store.calls.count("check_session") == 1


# --- the bus codec ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        Changed(
            3, 12, MoveNotice(1, {"type": "draw"}, (None, "greedy"), {"mode": "none"}, True, "t")
        ),
        Changed(3, 12),
        ChatLine({"id": 4, "text": "hi"}),
        Presence({0: 2, 3: 1}, 4, hello=True),
        Revoked(("a" * 64, "b" * 64)),
    ],
)
def test_bus_messages_decode_to_what_was_encoded(message: Any) -> None:
    text = Codec("instance-a").encode(message)
    assert Codec("instance-b").decode(text) == Received("instance-a", message)


def test_an_instance_drops_its_own_messages_before_decoding_them(
    caplog: pytest.LogCaptureFixture,
) -> None:
    codec = Codec("me")
    own = codec.encode(Changed(1, 2))
    assert codec.is_own(own) and codec.decode(own) is None
    # Told by the first bytes alone: what follows is never parsed.
    assert codec.decode(own.split(",")[0] + ", not json at all") is None
    assert not caplog.records
    assert codec.decode(RECONNECTED) == Received(None, Reconnected())


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"from":"x","kind":"changed","game_id":"1","version":2}',
        '{"from":"x","kind":"changed","game_id":1,"version":true}',
        '{"from":"x","kind":"nope"}',
        '{"from":7,"kind":"reconnected"}',
        '{"from":"x","kind":"presence","seats":[1]}',
    ],
)
def test_unreadable_bus_messages_are_dropped(text: str) -> None:
    assert Codec("me").decode(text) is None


# --- the registry and presence ------------------------------------------------------------------


class ScriptedSocket(FakeSocket):
    """A socket for the endpoint's message loop: the test puts the client's messages in."""

    def __init__(self) -> None:
        super().__init__()
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    def says(self, frame: dict[str, Any]) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "text": json.dumps(frame)})


async def test_a_seat_acts_while_its_presence_mark_is_being_written_and_closing_waits_for_it(
    store: MemoryStore, bus: SharedBus, notifier: Notifier
) -> None:
    """The mark of a socket's opening is written beside its reading: a move sent as soon as the
    state arrives is answered without waiting for it; the closing mark comes after it."""
    gate = asyncio.Event()

    async def run(fn: Callable[..., Any], *args: Any) -> Any:
        if fn == store.mark_seen_many:
            await gate.wait()  # a slow presence write
        return fn(*args)

    hub = Hub(
        bus, store, store, notifier, "t:", check_s=3600, heartbeat_s=3600, session_recheck_s=3600,
        run=run, retry_after_s=5,
    )  # fmt: skip
    await hub.start()
    try:
        ws = ScriptedSocket()
        viewer = store.authorise(GAME, "t10", None)
        follow = asyncio.ensure_future(endpoint._follow(hub, GAME, viewer, ws))  # type: ignore[arg-type]
        await until(lambda: bool(ws.of("state")), "the first state")
        ws.says({"type": "action", "id": "a1", "version": 0, "action": first_legal(store)})
        await until(lambda: bool(ws.of("ack")), "the ack, while the presence mark waits")
        assert ws.of("ack")[0]["version"] == 1
        assert "mark_seen_many" not in store.calls
        ws.inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})
        room = hub.rooms[GAME]
        await until(lambda: not room.conns, "the socket to leave its room")
        with pytest.raises(asyncio.TimeoutError):  # it ends only once the opening mark is in
            await asyncio.wait_for(asyncio.shield(follow), 0.05)
        assert "socket_closed" not in store.calls, "the closing mark waits for the opening one"
        gate.set()
        await asyncio.wait_for(follow, 10)
        marks = [c for c in store.calls if c in ("mark_seen_many", "socket_closed")]
        assert marks == ["mark_seen_many", "socket_closed"]
    finally:
        await hub.stop()


async def test_an_empty_room_closes_after_its_grace_and_a_newcomer_gets_a_fresh_one(
    hubs: list[Hub], store: MemoryStore, bus: SharedBus
) -> None:
    hub = hubs[0]
    hub.registry.grace_s = 0.01
    ann, room = await join(hub, store, "t10")
    bob, same = await join(hub, store, "t20")
    assert same is room  # one room per game and instance
    room.leave(ann)
    room.leave(bob)
    await until(lambda: room.closed and GAME not in hub.rooms, "the empty room to close")
    # Closing tells the other instances this one holds nobody any more.
    empty = Received(hub.instance, Presence({}, 0))
    await until(lambda: any(Codec("x").decode(m) == empty for m, _ in bus.published), "goodbye")
    _, fresh = await join(hub, store, "t10")
    assert fresh is not room and not fresh.closed


async def test_presence_is_merged_across_instances_and_each_picture_sent_once(
    hubs: list[Hub], store: MemoryStore
) -> None:
    ann, _ = await join(hubs[0], store, "t10")
    spectators = [await join(hubs[0], store, None) for _ in range(3)]
    bob, _ = await join(hubs[1], store, "t20")

    def latest(conn: Connection) -> dict[str, Any] | None:
        frames = sock(conn).of("presence")
        return frames[-1] if frames else None

    def settled(conn: Connection) -> bool:
        p = latest(conn)
        return p is not None and p["spectators"] == 3 and all(s["connected"] for s in p["seats"])

    # Both instances' sockets end up with the merged picture: both seats connected, 3 watching.
    await until(lambda: settled(ann) and settled(bob), "the merged presence picture")
    assert [s["name"] for s in latest(bob)["seats"]] == ["P0", "P1"]  # type: ignore[index]
    # Each socket hears each picture once (coalesced; how many pictures depends on timing).
    for conn in [ann, bob, *(c for c, _ in spectators)]:
        frames = sock(conn).of("presence")
        assert all(a != b for a, b in itertools.pairwise(frames)), frames


async def test_the_heap_is_frozen_after_bursts_of_opens_and_thawed_once_a_crowd_left(
    hubs: list[Hub], monkeypatch: pytest.MonkeyPatch
) -> None:
    """From 1,000 open sockets on, their objects are kept out of the collector's full passes
    (frozen every 100 opens); a full pass (thaw, collect, freeze) comes after as many closes as
    were open at most since the last one, so a crowd leaving costs one pass, not one per 200."""
    calls: list[str] = []
    monkeypatch.setattr(memory, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(memory, "release", lambda thaw: calls.append(f"release {thaw}") or True)
    hub = hubs[0]
    crowd = [Connection(FakeSocket(), Viewer(None, None)) for _ in range(1500)]
    for conn in crowd:
        hub.opened(conn)
    assert calls == ["freeze"] * 6, "at the thousandth socket, then every 100 more"
    calls.clear()
    for conn in crowd[:1499]:
        hub.closed(conn)
    assert calls == [], "fewer closes than the crowd: no full pass yet"
    hub.closed(crowd[1499])
    assert calls == ["release True"]
    # A small room afterwards: nothing frozen, a pass over the unfrozen heap after 200 closes.
    calls.clear()
    few = [Connection(FakeSocket(), Viewer(None, None)) for _ in range(250)]
    for conn in few:
        hub.opened(conn)
    for conn in few:
        hub.closed(conn)
    assert calls == ["release False"]


async def test_storage_calls_run_at_most_the_pools_size_at_once() -> None:
    """The live core's storage calls share the database pool: never more at once than it holds
    (more would make the pool open and close extra connections)."""
    run = thread_runner(3)
    lock, gate = threading.Lock(), threading.Event()
    active, most = [0], [0]

    def call() -> int:
        with lock:
            active[0] += 1
            most[0] = max(most[0], active[0])
        gate.wait(10)
        with lock:
            active[0] -= 1
        return 1

    calls = [asyncio.ensure_future(run(call)) for _ in range(8)]
    await until(lambda: active[0] == 3, "three calls running")
    for _ in range(50):  # every other call has had its chance to start
        await asyncio.sleep(0)
    assert active[0] == 3
    gate.set()
    assert sum(await asyncio.gather(*calls)) == 8
    assert most[0] == 3
