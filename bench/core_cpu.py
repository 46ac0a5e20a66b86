"""CPU per move of the live core alone: no database, no network, no other process.

The hub, authority and room of app/realtime driven in one process over the in-memory store of
the in-process tests (tests/realtime/memory_store.py) and sockets that drop what they are sent:
whole random games of 4 seats with N spectators, every move through `GameAuthority.act`, as
over a socket. What it measures is the core's own work per move (engine apply, documents,
diffs, frames, bookkeeping), which load on the machine inflates far less than latency.

`--against DIR` runs the same games on another checkout (its own app and tests packages, in a
child process) first, for a before/after in one run.

Run: .venv/bin/python bench/core_cpu.py [--games 6] [--spectators 2,100] [--against DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


class _Drop:
    """A socket that takes every frame at once."""

    async def send_text(self, data: str) -> None:
        pass

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


async def _inline(fn: Any, *args: Any) -> Any:
    return fn(*args)


async def measure(spectators: int, games: int) -> dict[str, Any]:
    """CPU ms per move over `games` random games (imports from whatever checkout is first on
    sys.path)."""
    import app.engine as rules
    from app.realtime.bus import MemoryBus
    from app.realtime.connection import Connection
    from app.realtime.hub import Hub
    from app.realtime.protocol import ActionMsg
    from app.shared.notify import Notifier
    from tests.realtime.memory_store import MemoryStore

    moves, cpu = 0, 0.0
    users = (10, 20, 30, 40)
    for g in range(games):
        notifier = Notifier()
        store = MemoryStore(notifier)
        store.add_game(1, list(users), seed=g + 1)
        for u in users:
            store.sign_in(f"t{u}", u, f"U{u}")
        # The memory store is also the move committer where the checkout's hub takes one (its
        # `road`); an older checkout's hub took the store's own submit methods.
        road = (store,) if "road" in inspect.signature(Hub).parameters else ()
        hub = Hub(
            MemoryBus(),
            store,
            *road,
            notifier,
            "bench:",
            check_s=3600,
            heartbeat_s=3600,
            session_recheck_s=3600,
            run=_inline,
            retry_after_s=5,
        )
        await hub.start()
        seats, room = {}, None
        for u in users:
            conn = Connection(_Drop(), store.authorise(1, f"t{u}", None))
            room = await hub.registry.join(1, conn)
            seats[users.index(u)] = conn
        for _ in range(spectators):
            await hub.registry.join(1, Connection(_Drop(), store.authorise(1, None, None)))
        assert room is not None
        rng = random.Random(g)
        began = time.process_time()
        while store.games[1].snap.status == "live":
            snap = store.games[1].snap
            action = rng.choice(rules.legal_actions(snap.state, snap.to_act))
            msg = ActionMsg(
                type="action", id=f"m{snap.version}", version=snap.version, action=action
            )
            await hub.authority.act(room, seats[snap.to_act], msg)
            moves += 1
        # The chooser's own legal_actions call above is the client's work, not the server's,
        # but it is small beside a move (and the same on both sides of a comparison).
        cpu += time.process_time() - began
        await hub.stop()
    return {
        "spectators": spectators,
        "moves": moves,
        "cpu_ms_per_move": round(cpu * 1000 / moves, 3),
    }


def main() -> None:
    """Parse arguments, run (and the other checkout first), print JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--spectators", default="2,100")
    parser.add_argument("--against", default=None, help="another checkout, measured first")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    counts = [int(x) for x in args.spectators.split(",") if x]
    if args.child:
        out = [asyncio.run(measure(n, args.games)) for n in counts]
        print(json.dumps(out))
        return
    result: dict[str, Any] = {"load_average_start": [round(x, 2) for x in os.getloadavg()]}
    for label, root in (("before", args.against), ("now", str(ROOT))):
        if root is None:
            continue
        env = {**os.environ, "PYTHONPATH": str(Path(root).resolve())}
        cmd = [sys.executable, __file__, "--child", "--games", str(args.games)]
        cmd += ["--spectators", args.spectators]
        done = subprocess.run(cmd, env=env, cwd=root, capture_output=True, text=True, check=True)
        result[label] = json.loads(done.stdout.strip().splitlines()[-1])
        print(label, result[label], file=sys.stderr)
    result["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
