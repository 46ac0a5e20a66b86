"""Two instances on a private Redis that is stopped and started: nothing said is lost.

During the outage a chat line still reaches the sockets on its sender's instance (local delivery
first) and a sign-out still closes the user's sockets on both instances (here at once, there by
the session sweep); the lines said while another instance's subscription was down reach it after
the bus returns (rooms catch up on stored lines when their subscription comes back).
"""

from __future__ import annotations

from typing import Any

import pytest

from app.realtime.hub import Hub
from app.realtime.redis_bus import RedisBus
from app.shared.notify import Notifier
from tests.ops.private_services import PrivateRedis
from tests.realtime.memory_store import MemoryStore
from tests.realtime.test_core_in_process import GAME, inline, join, sock, until

# A private redis-server, stopped and started under the test.
pytestmark = [pytest.mark.anyio, pytest.mark.server]


@pytest.fixture
def redis_server() -> Any:
    server = PrivateRedis()
    server.start()
    yield server
    server.stop()


async def test_chat_and_sign_outs_survive_a_redis_outage(redis_server: PrivateRedis) -> None:
    notifiers = [Notifier(), Notifier()]
    store = MemoryStore(notifiers[0])
    store.add_game(GAME, [10, 20])
    store.sign_in("t10", 10, "Ann")
    store.sign_in("t20", 20, "Bob")
    hubs = [
        Hub(
            RedisBus(redis_server.url, client_name=f"outage-{i}"),
            store,
            store,
            notifier,
            "o:",
            check_s=3600,
            heartbeat_s=3600,
            session_recheck_s=0.2,
            run=inline,
        )
        for i, notifier in enumerate(notifiers)
    ]
    for hub in hubs:
        await hub.start()
    try:
        ann, room_a = await join(hubs[0], store, "t10")
        spectator, _ = await join(hubs[0], store, None)
        bob, _ = await join(hubs[1], store, "t20")
        ann_there, _ = await join(hubs[1], store, "t10")
        await hubs[0].chat.say(room_a, ann, "before")
        await until(lambda: bool(sock(bob).of("chat")), "a line over the bus")

        redis_server.stop()
        await hubs[0].chat.say(room_a, ann, "during")
        await until(lambda: len(sock(spectator).of("chat")) == 2, "the line on its own instance")
        # Sign-out during the outage: closed here at once, there by the session sweep.
        notifiers[0].sessions_revoked(10, frozenset({ann.viewer.token_hash or ""}))
        del store.tokens["t10"]
        await until(lambda: sock(ann).closed == 1008, "the socket here closed")
        await until(lambda: sock(ann_there).closed == 1008, "the socket on the other instance")
        assert sock(ann_there).of("error")[-1]["code"] == "not_signed_in"

        redis_server.start()
        # The other instance's room catches up on what it missed once its subscription is back.
        await until(
            lambda: [f["text"] for f in sock(bob).of("chat")] == ["before", "during"],
            "the line said during the outage",
        )
        assert [f["text"] for f in sock(spectator).of("chat")] == ["before", "during"]
    finally:
        for hub in hubs:
            await hub.stop()
