"""Unit tests: message parsing, limits, documents and diffs, the slow-consumer rule, the buses."""

from __future__ import annotations

import asyncio
import json
import operator
import random
import uuid
from pathlib import Path

import jsonpatch
import pytest

import app.engine as rules
from app.engine import expand_legal
from app.realtime.bus import MemoryBus
from app.realtime.bus_url import channel_prefix, create_bus
from app.realtime.connection import Connection, SocketLimits, TokenBucket
from app.realtime.documents import SPECTATOR, LogMemo, ViewerKey, document, log_frame
from app.realtime.protocol import (
    ACTION_ID_MAX,
    ACTION_ID_MAX_CHARS,
    ACTION_ID_MIN,
    MAX_FRAME_BYTES,
    ActionMsg,
    ChatMsg,
    ProtocolError,
    ResyncMsg,
    ack_frame,
    error_frame,
    parse_client,
)
from app.realtime.storage import Viewer
from app.services.live.store import MoveInfo
from app.services.tables.chat import clean as clean_chat_
from app.settings import Settings
from app.shared.diff import diff
from tests.realtime.helpers import canonical

ROOT = Path(__file__).resolve().parents[2]


def test_client_messages_parse_into_their_types() -> None:
    msg = parse_client('{"type":"action","id":"a1","version":3,"action":{"type":"end_turn"}}')
    assert msg == ActionMsg(type="action", id="a1", version=3, action={"type": "end_turn"})
    assert parse_client('{"type":"resync","version":-1}') == ResyncMsg(type="resync", version=-1)
    assert isinstance(parse_client('{"type":"chat","text":"hi"}'), ChatMsg)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "bad_json"),
        ("nan", "bad_json"),
        ("{" * 20000, "frame_too_large"),
        ("[" * 4000, "bad_json"),
        ('"just a string"', "bad_message"),
        ('{"type": 7}', "unknown_type"),
        ('{"type": "action", "id": true, "version": 0, "action": {}}', "bad_message"),
        ('{"type": "action", "id": "' + "x" * 65 + '", "version": 0, "action": {}}', "bad_message"),
        ('{"type": "action", "id": 1, "version": -1, "action": {}}', "bad_message"),
        ('{"type": "action", "id": 1, "version": 0, "action": []}', "bad_message"),
        ('{"type": "chat", "text": 5}', "bad_message"),
        ('{"type": "ping", "extra": 1}', "bad_message"),
    ],
)
def test_bad_input_is_an_error_value_never_an_exception(text: str, code: str) -> None:
    err = parse_client(text)
    assert isinstance(err, ProtocolError) and err.code == code, err


def test_frames_over_the_cap_are_refused_before_parsing() -> None:
    # Multi-byte characters count in bytes: 4000 emoji are ~16 KB even though len() is 4000.
    big = '{"type":"chat","text":"' + "\U0001f409" * 4100 + '"}'
    assert len(big) < MAX_FRAME_BYTES < len(big.encode())
    err = parse_client(big)
    assert isinstance(err, ProtocolError) and err.code == "frame_too_large" and err.close is None
    absurd = parse_client("x" * 300_000)
    assert isinstance(absurd, ProtocolError) and absurd.close == 1009
    msg = parse_client('{"type":"action","id":9,"version":0,"action":[]}')
    assert isinstance(msg, ProtocolError) and msg.id == 9  # the error names the action it answers


@pytest.mark.parametrize("msg_id", [ACTION_ID_MIN, ACTION_ID_MAX, "x" * ACTION_ID_MAX_CHARS, 0, -1])
def test_every_action_id_accepted_can_be_echoed(msg_id: int | str) -> None:
    msg = parse_client(json.dumps({"type": "action", "id": msg_id, "version": 0, "action": {}}))
    assert isinstance(msg, ActionMsg) and msg.id == msg_id
    assert json.loads(ack_frame(msg.id, 1, []))["id"] == msg_id
    assert json.loads(error_frame("stale_version", "no", msg.id))["id"] == msg_id


@pytest.mark.parametrize("msg_id", [ACTION_ID_MAX + 1, 2**64, ACTION_ID_MIN - 1, 10**40, 1.0])
def test_an_action_id_no_answer_could_echo_is_refused_and_not_echoed(msg_id: object) -> None:
    frame = {"type": "action", "id": msg_id, "version": 0, "action": {"type": "end_turn"}}
    err = parse_client(json.dumps(frame))
    assert isinstance(err, ProtocolError) and err.code == "bad_message" and err.id is None, err
    del frame["version"]  # malformed otherwise as well: the error still cannot carry the id
    err = parse_client(json.dumps(frame))
    assert isinstance(err, ProtocolError) and err.id is None
    assert json.loads(error_frame(err.code, err.message, err.id))["id"] is None


def test_docs_protocol_md_states_the_action_id_range() -> None:
    text = " ".join((ROOT / "docs" / "protocol.md").read_text().split())
    assert f"a string (1\u2013{ACTION_ID_MAX_CHARS} characters) or an integer from" in text
    assert f"from {ACTION_ID_MIN} to {ACTION_ID_MAX} (signed 64 bits)" in text


def test_token_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=2, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] = 0.5
    assert bucket.take() and not bucket.take()
    now[0] = 100
    assert sum(bucket.take() for _ in range(10)) == 3


def test_chat_text_is_trimmed_and_limited() -> None:
    assert clean_chat_("  hi\tthere \n") == "hi there"
    assert clean_chat_("<b>&amp;</b>") == "<b>&amp;</b>"  # kept as typed: escaping is on display
    assert clean_chat_("a\u202eevil") == "a evil"  # bidi overrides could disguise a line
    assert clean_chat_("\U0001f409\u200d\U0001f525") == "\U0001f409\u200d\U0001f525"
    assert clean_chat_(" \n ") is None
    assert clean_chat_("x" * 500) is not None and clean_chat_("x" * 501) is None


@pytest.mark.parametrize(
    ("players", "expansion", "seed"), [(2, True, 11), (3, False, 4), (4, True, 7), (5, False, 2)]
)
def test_patches_rebuild_each_viewers_document_over_a_whole_game(
    players: int, expansion: bool, seed: int
) -> None:
    """The key-by-key diff is exact: applying it with a standard RFC 6902 library rebuilds every
    viewer's document after every move; and the compact legal actions expand to the engine's."""
    rng = random.Random(seed)
    state = rules.new_game(rules.GameOptions(players=players, expansion=expansion), seed)
    keys = [ViewerKey(s, True) for s in range(players)] + [ViewerKey(1, False), SPECTATOR]
    docs = {k: document(state, k) for k in keys}
    held = {k: json.loads(json.dumps(d)) for k, d in docs.items()}
    while not state.over:
        seat = rules.to_act(state)
        state, _ = rules.apply(state, rng.choice(rules.legal_actions(state, seat)), seat)
        for k in keys:
            new = document(state, k)
            ops = json.loads(json.dumps(diff(docs[k], new)))  # as it travels
            held[k] = jsonpatch.apply_patch(held[k], ops)
            assert held[k] == json.loads(json.dumps(new))
            legal = rules.legal_actions(state, k.seat) if k.acting else []
            assert canonical(expand_legal(held[k]["legal"])) == canonical(legal)
            docs[k] = new
    assert docs[ViewerKey(1, False)]["legal"] is None
    assert docs[SPECTATOR]["legal"] is None


@pytest.mark.parametrize(("players", "expansion", "seed"), [(3, True, 5), (4, False, 9)])
def test_shared_public_parts_and_the_diff_memo_change_nothing(
    players: int, expansion: bool, seed: int
) -> None:
    """As the room fans out (engine `shared_view` once per change, one diff memo for all viewer
    kinds): every document equals the one view_for builds alone (so the shared parts carry no
    secret, R-60), and every patch equals the one diffed without the memo."""
    rng = random.Random(seed)
    state = rules.new_game(rules.GameOptions(players=players, expansion=expansion), seed)
    keys = [ViewerKey(s, True) for s in range(players)] + [SPECTATOR]
    shared = rules.shared_view(state)
    docs = {k: document(state, k, None, shared) for k in keys}
    memo_hits = 0
    while not state.over:
        seat = rules.to_act(state)
        state, _ = rules.apply(state, rng.choice(rules.legal_actions(state, seat)), seat)
        shared = rules.shared_view(state)
        memo: dict = {}  # type: ignore[type-arg]
        turn_ops = []
        for k in keys:
            new = document(state, k, None, shared)
            assert new == document(state, k)  # alone, nothing shared
            ops = diff(docs[k], new, memo=memo)
            assert ops == diff(docs[k], new)
            turn_ops.append([op for op in ops if op["path"].startswith("/view/turn/")])
            docs[k] = new
        # The later viewer kinds reused the first one's ops for the shared turn (same objects).
        if turn_ops[0]:
            assert all(all(map(operator.is_, o, turn_ops[0])) for o in turn_ops[1:])
            assert all(len(o) == len(turn_ops[0]) for o in turn_ops[1:])
            memo_hits += 1
    assert memo_hits > 0


@pytest.mark.parametrize(("players", "expansion", "seed"), [(3, True, 5), (4, True, 8)])
def test_log_frames_built_once_per_change_equal_each_viewers_own(
    players: int, expansion: bool, seed: int
) -> None:
    """One change's viewers share a log entry where they see it alike; each still gets exactly
    the entry built for them alone (an event's secret only to its seat, R-60)."""
    options = rules.GameOptions.from_dict({"players": players, "expansion": expansion})
    state = rules.new_game(options, seed)
    keys = [SPECTATOR, *(ViewerKey(s, True) for s in range(players))]
    rng = random.Random(seed)
    secrets_seen = 0
    for seq in range(1, 400):
        if rules.is_over(state):
            break
        seat = rules.to_act(state)
        state, events = rules.apply(state, rng.choice(rules.legal_actions(state, seat)), seat)
        move = MoveInfo(seq, seat, f"P{seat}", events, at="2026-12-03T00:00:00+00:00")
        over = rules.is_over(state)
        memo: LogMemo = {}
        shared = [log_frame(move, key, over, memo) for key in keys]
        alone = [log_frame(move, key, over) for key in keys]
        assert shared == alone
        secrets_seen += any("secret" in ev for ev in events)
        # Viewers who see the same entry hold the same text object: built once.
        assert len({id(text) for text in shared}) == len(set(alone))
    assert secrets_seen > 5


def test_the_diff_only_touches_what_changed() -> None:
    old = {"a": 1, "b": {"c": [1, 2], "d": "x"}, "l": [{"n": 1}, {"n": 2}], "gone": True}
    new = {"a": 1, "b": {"c": [1, 2, 3], "d": "y"}, "l": [{"n": 1}, {"n": 5}], "e/~": 0}
    assert diff(old, new) == [
        {"op": "add", "path": "/b/c/2", "value": 3},
        {"op": "replace", "path": "/b/d", "value": "y"},
        {"op": "replace", "path": "/l/1/n", "value": 5},
        {"op": "add", "path": "/e~1~0", "value": 0},
        {"op": "remove", "path": "/gone"},
    ]
    assert jsonpatch.apply_patch(old, diff(old, new)) == new
    # A shrinking or reordered list is replaced whole; so is a value of another type.
    assert diff({"h": [1, 2, 3]}, {"h": [1, 3]}) == [
        {"op": "replace", "path": "/h", "value": [1, 3]}
    ]
    assert diff({"f": [1]}, {"f": {"x": 1}}) == [{"op": "replace", "path": "/f", "value": {"x": 1}}]
    assert diff(old, old) == []


class _StuckSocket:
    """A peer that never reads: every send blocks."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed_with: int | None = None
        self.block = asyncio.Event()

    async def send_text(self, data: str) -> None:
        self.sent.append(data)
        await self.block.wait()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed_with = code


@pytest.mark.anyio
async def test_a_slow_consumer_is_dropped_without_delaying_others() -> None:
    stuck, fine = _StuckSocket(), _StuckSocket()
    fine.block.set()
    dropped: list[Connection] = []
    slow = Connection(stuck, Viewer(1, "slow"), SocketLimits(queue_frames=8))
    fast = Connection(fine, Viewer(2, "fast"), SocketLimits(queue_frames=8))
    slow.on_drop = fast.on_drop = dropped.append
    for i in range(50):  # fan-out never awaits a socket: this loop cannot block
        slow.send(f"frame {i}")
        fast.send(f"frame {i}")
        await asyncio.sleep(0)
    # The drop happens on the slow connection's writer task: wait for it (bounded).
    deadline = asyncio.get_running_loop().time() + 10
    while not (dropped and stuck.closed_with is not None and len(fine.sent) == 50):
        assert asyncio.get_running_loop().time() < deadline, "the slow consumer was not dropped"
        await asyncio.sleep(0.001)
    assert dropped == [slow] and slow.closed and stuck.closed_with == 1013
    assert len(stuck.sent) == 1  # stuck on the first frame, then dropped
    assert fine.sent == [f"frame {i}" for i in range(50)] and not fast.closed
    await slow.shutdown()
    await fast.shutdown()


@pytest.mark.anyio
async def test_frames_are_written_at_once_and_queue_in_order_only_behind_a_waiting_write() -> None:
    sock = _StuckSocket()
    sock.block.set()
    conn = Connection(sock, Viewer(None, None), SocketLimits(queue_frames=8))
    for i in range(3):
        conn.send(f"now {i}")
    # Written by the send itself: no await happened, no writer task, no queue.
    assert sock.sent == ["now 0", "now 1", "now 2"] and conn._writer is None
    sock.block.clear()
    for frame in ("waits", "after 1", "after 2"):
        conn.send(frame)
    assert sock.sent[-1] == "waits" and conn.queued() == 2 and conn._writer is not None
    sock.block.set()
    for _ in range(100):
        if conn._writer is None:
            break
        await asyncio.sleep(0.01)
    assert sock.sent[3:] == ["waits", "after 1", "after 2"] and conn.queued() == 0
    assert not conn.closed and conn._writer is None
    conn.send("direct again")
    assert sock.sent[-1] == "direct again" and conn._writer is None
    await conn.shutdown()


@pytest.mark.anyio
async def test_a_write_that_fails_at_once_marks_the_socket_closed() -> None:
    class Gone:
        async def send_text(self, data: str) -> None:
            raise RuntimeError("the peer went away")

        async def close(self, code: int = 1000, reason: str | None = None) -> None:
            pass

    conn = Connection(Gone(), Viewer(None, None))
    assert conn.send("x") is False and conn.closed
    assert conn.send("y") is False


def test_one_reading_of_the_redis_url_serves_the_bus_the_limits_and_readiness() -> None:
    from pydantic import ValidationError

    from app.main import _redis_client
    from app.web.throttle import make_storage

    for alone in (None, "memory://", " "):
        settings = Settings(redis_url=alone)
        assert settings.shared_redis_url is None
        assert isinstance(create_bus(settings.shared_redis_url), MemoryBus)
        assert _redis_client(settings.shared_redis_url) is None  # /readyz checks no Redis
        assert type(make_storage(settings.shared_redis_url)).__name__ == "MemoryStorage"
    for shared in ("redis://localhost:6379/0", "rediss://h:6380/1", "unix:///run/redis.sock"):
        settings = Settings(redis_url=shared)
        assert settings.shared_redis_url == shared
        assert type(create_bus(settings.shared_redis_url)).__name__ == "RedisBus"
        assert _redis_client(settings.shared_redis_url) is not None
        assert type(make_storage(settings.shared_redis_url)).__name__ == "RedisStorage"
    with pytest.raises(ValidationError, match="Redis URL"):
        Settings(redis_url="kafka://x")
    assert channel_prefix("redis://h:6379/15") != channel_prefix("redis://h:6379/0")


@pytest.fixture(params=["memory", "redis"])
def bus_url_param(request: pytest.FixtureRequest) -> str:
    """Each backend's URL (Redis: the shared fixture, which skips or fails when absent)."""
    return "" if request.param == "memory" else request.getfixturevalue("redis_url")


async def _subscribed(url: str, *channels: str) -> None:
    """Wait until Redis counts a subscriber on each channel (PUBSUB NUMSUB), bounded."""
    import redis.asyncio as redis

    client = redis.from_url(url)
    try:
        deadline = asyncio.get_running_loop().time() + 10
        while not all(count for _, count in await client.pubsub_numsub(*channels)):
            assert asyncio.get_running_loop().time() < deadline, "SUBSCRIBE never took effect"
            await asyncio.sleep(0.005)
    finally:
        await client.aclose()


@pytest.mark.anyio
async def test_bus_delivers_in_order_to_every_subscriber_of_a_channel(bus_url_param: str) -> None:
    publisher, listener = create_bus(bus_url_param), create_bus(bus_url_param)
    if isinstance(publisher, MemoryBus):
        listener = publisher  # one process: one bus
    await publisher.connect()
    if listener is not publisher:
        await listener.connect()
    channel, other = f"t:{uuid.uuid4().hex}", f"t:{uuid.uuid4().hex}"
    try:
        async with (
            listener.subscribe(channel) as a,
            listener.subscribe(channel) as b,
            listener.subscribe(other) as c,
        ):
            if bus_url_param:  # Redis: publish only once the server has every SUBSCRIBE
                await _subscribed(bus_url_param, channel, other)
            for i in range(20):
                await publisher.publish(channel, f"m{i}")
            got_a = [await asyncio.wait_for(a.__anext__(), 5) for _ in range(20)]
            got_b = [await asyncio.wait_for(b.__anext__(), 5) for _ in range(20)]
            assert got_a == got_b == [f"m{i}" for i in range(20)]
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(c.__anext__(), 0.2)
    finally:
        await publisher.disconnect()
        if listener is not publisher:
            await listener.disconnect()


@pytest.mark.anyio
async def test_redis_bus_reconnects_and_warns_subscribers(redis_url: str) -> None:
    import redis.asyncio as redis

    from app.realtime.bus import RECONNECTED
    from app.realtime.redis_bus import RedisBus

    name = f"sd-test-{uuid.uuid4().hex[:8]}"
    bus = RedisBus(redis_url, client_name=name)
    await bus.connect()
    admin = redis.from_url(redis_url, decode_responses=True)
    channel = f"t:{uuid.uuid4().hex}"
    try:
        async with bus.subscribe(channel) as sub:
            clients = await admin.client_list()
            pubsub_ids = [c["id"] for c in clients if c["name"] == name and int(c["sub"]) > 0]
            assert pubsub_ids
            for cid in pubsub_ids:  # only our own connection: other users of this Redis stay
                await admin.client_kill_filter(_id=cid)
            assert await asyncio.wait_for(sub.__anext__(), 10) == RECONNECTED
            await bus.publish(channel, "after")
            assert await asyncio.wait_for(sub.__anext__(), 5) == "after"
    finally:
        await admin.aclose()
        await bus.disconnect()


@pytest.mark.anyio
async def test_redis_bus_tells_channels_whose_messages_it_lost_once_publishing_works(
    redis_url: str,
) -> None:
    from app.realtime.bus import RECONNECTED
    from app.realtime.redis_bus import RedisBus

    sender, listener = RedisBus(redis_url), RedisBus(redis_url)
    await sender.connect()
    await listener.connect()
    lost, other = f"t:{uuid.uuid4().hex}", f"t:{uuid.uuid4().hex}"
    try:
        async with listener.subscribe(lost) as sub:
            await _subscribed(redis_url, lost)  # the SUBSCRIBE took effect
            working = sender._redis.publish

            async def away(channel: str, message: str) -> None:
                raise ConnectionError("the bus is away")

            sender._redis.publish = away  # only the sender's side fails
            with pytest.raises(ConnectionError):
                await sender.publish(lost, "lost line")
            sender._redis.publish = working
            await sender.publish(other, "the bus is back")  # any success tells the lost channels
            assert await asyncio.wait_for(sub.__anext__(), 5) == RECONNECTED
            await sender.publish(lost, "next")  # told once only
            assert await asyncio.wait_for(sub.__anext__(), 5) == "next"
    finally:
        await sender.disconnect()
        await listener.disconnect()
