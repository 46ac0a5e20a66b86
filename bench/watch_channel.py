"""The watch channel's cost with N live games: what one tick costs the server, and its frames.

In one process on a temporary SQLite database (no server, no sockets: the part that grows with
the games is the read and the summaries; the frame is then the same text for every socket):
N live 4-seat public games (one account and three bots each, the bots not running), then
- a cold tick (every position built from its snapshot: the first reader after a restart),
- a warm tick with nothing changed (one list query, seats, ratings: every board cached),
- a tick after every game moved once (N new positions, states from the process's cache),
and the sizes: the full list frame, the update frame after every game moved, and the
largest single game's summary. CPU time (process_time) per tick, and wall time.

Run: .venv/bin/python bench/watch_channel.py [--games 100]
Prints one JSON object; docs/benchmarks.md records it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app.engine as rules
from app.db.models.accounts import User
from app.main import create_app
from app.realtime.protocol import dumps
from app.services.play import games
from app.services.tables import lobby, seats
from app.services.watching import watch
from app.settings import Settings
from app.shared.moves import MoveCommand


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="watch-bench-"))
    app = create_app(
        Settings(database_url=f"sqlite:///{tmp / 'w.db'}", data_dir=tmp, secret_key="bench")
    )
    sessions = app.state.sessionmaker
    ids = []
    with sessions() as db:
        for i in range(args.games):
            user = User(display_name=f"Player {i:03d}", username=f"player{i:03d}")
            db.add(user)
            db.commit()
            game = lobby.create_game(db, user, 4, expansion=i % 2 == 1)
            for _ in range(3):
                seats.add_bot(db, game.id, user, "greedy")
            lobby.start_game(db, game.id, user)
            ids.append(game.id)

    def tick(boards: watch.BoardCache) -> tuple[list[dict], float, float]:
        cpu, wall = time.process_time(), time.perf_counter()
        with sessions() as db:
            out = watch.summaries(db, {}, args.games, boards)
        return out, time.process_time() - cpu, time.perf_counter() - wall

    def move_all() -> None:
        with sessions() as db:
            for game_id in ids:
                game = lobby.get_game(db, game_id)
                state = games.load_state(db, game)
                seat = rules.to_act(state)
                action = rules.legal_actions(state, seat)[0]
                command = MoveCommand(game_id, game.version, action, seat=seat)
                app.state.context.road.commit_in(db, command)

    from app.shared.state_cache import states_in

    states_in(app.state.context.sessions).clear()  # cold: every state from its snapshot
    boards = watch.BoardCache()
    cold, cold_cpu, cold_wall = tick(boards)
    _warm, warm_cpu, warm_wall = tick(boards)
    move_all()
    moved, moved_cpu, moved_wall = tick(boards)
    full = dumps({"type": "watch", "full": True, "games": cold})
    update = dumps({"type": "watch", "full": False, "games": moved})
    largest = max(len(dumps(g).encode()) for g in moved)
    print(
        json.dumps(
            {
                "games": args.games,
                "cold_tick": {
                    "cpu_ms": round(cold_cpu * 1000, 1),
                    "wall_ms": round(cold_wall * 1000, 1),
                },
                "warm_tick_nothing_changed": {
                    "cpu_ms": round(warm_cpu * 1000, 1),
                    "wall_ms": round(warm_wall * 1000, 1),
                },
                "tick_after_every_game_moved": {
                    "cpu_ms": round(moved_cpu * 1000, 1),
                    "wall_ms": round(moved_wall * 1000, 1),
                },
                "full_list_frame_bytes": len(full.encode()),
                "update_frame_all_moved_bytes": len(update.encode()),
                "largest_game_summary_bytes": largest,
            },
            indent=1,
        )
    )
    app.state.engine.dispose()


if __name__ == "__main__":
    main()
