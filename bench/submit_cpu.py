"""CPU of one socket move's commit alone: the one road's `commit_in` on a real database.

Whole random 4-player games, every move through the live store's SQL road as a socket's move
takes it (the room's state passed along, no clock): the engine's apply, the move's statements
and their commit, in this process (a Postgres server's own work is not counted). What the
fan-out costs is bench/core_cpu.py's; what the whole server costs is bench/load.py's.

`--root DIR` measures another checkout's code (its `app` package first on the path), so a
before and after run the same games.

Run: .venv/bin/python bench/submit_cpu.py [--games 6] [--sqlite] [--root DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    """Play the games, print CPU per move (JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--sqlite", action="store_true", help="SQLite instead of Postgres")
    parser.add_argument("--root", default=None, help="another checkout to measure")
    args = parser.parse_args()
    # The code measured first on the path, and imported before bench/load.py (which imports
    # this checkout's `app` otherwise).
    sys.path.insert(0, str(Path(args.root).resolve() if args.root else ROOT))
    import app.engine as rules
    from app.context import road_for
    from app.db.migrate import upgrade_to_head
    from app.db.session import make_engine, make_sessionmaker
    from app.services.accounts import users
    from app.services.play import games
    from app.services.tables import lobby
    from app.shared.moves import Known, MoveCommand

    sys.path.insert(1, str(ROOT / "bench"))
    import load

    dbs = None
    workdir = tempfile.mkdtemp(prefix="seadragons-submit-")
    if args.sqlite:
        url = f"sqlite:///{workdir}/submit.db"
    else:
        dbs = load.Databases()
        url = dbs.create("submit")
    engine = make_engine(url)
    try:
        upgrade_to_head(engine=engine)
        sessions = make_sessionmaker(engine)
        road = road_for(sessions)
        cpu, moves = 0.0, 0
        for g in range(args.games):
            with sessions() as db:
                seated = [users.start_guest(db, f"P{i}", None, None)[0] for i in range(4)]
                game = lobby.create_game(db, seated[0], 4, extra_options={"first_player": 0})
                for user in seated[1:]:
                    lobby.join_game(db, game.id, user)
                game = lobby.start_game(db, game.id, seated[0])
                game_id, owners = game.id, [u.id for u in seated]
                state = games.load_state(db, game)
            rng, version = random.Random(g), 0
            while not rules.is_over(state):
                seat = rules.to_act(state)
                action = rules.parse_action(rng.choice(rules.legal_actions(state, seat)))
                known = Known(state, seat, (None,) * 4, False)
                command = MoveCommand(game_id, version, action, user_id=owners[seat], known=known)
                began = time.process_time()
                with sessions() as db:
                    committed = road.commit_in(db, command)
                cpu += time.process_time() - began
                moves += 1
                state, version = committed.state, committed.version
        print(
            json.dumps(
                {
                    "database": "sqlite" if args.sqlite else "postgres",
                    "code": str(Path(rules.__file__).resolve().parents[2]),
                    "moves": moves,
                    "submit_cpu_ms_per_move": round(cpu * 1000 / moves, 3),
                    "load_average": [round(x, 2) for x in os.getloadavg()],
                }
            )
        )
    finally:
        engine.dispose()
        if dbs is not None:
            dbs.drop_all()


if __name__ == "__main__":
    main()
