"""What ratings cost at scale: a rating update and a profile read with 10,000 stored games.

Fills a fresh database (SQLite file, or Postgres with --postgres URL) with finished rated games
between `--users` accounts (and some bots), recording each one's results and ratings through the
server's own `ratings.record_results` (one transaction per game, as the job does); times the
updates of the last `--tail` games, then profile reads, leaderboard pages and history pages,
and prints the query plans of the profile's and leaderboard's queries.

`--split` says where a profile read's time goes: waiting on the database (the driver's execute
and fetch, timed by SQLAlchemy's cursor events), building the document in Python (statements,
rows, this code), and the API's validation and JSON encoding (`ProfileOut`); and the functions
that take the most CPU (yappi, CPU clock). `--keep NAME` keeps the filled database (a SQLite
file path, or a Postgres schema name) and reuses it on the next run, skipping the fill.

    nice -n 10 .venv/bin/python bench/ratings_cost.py --games 10000
    nice -n 10 .venv/bin/python bench/ratings_cost.py --games 10000 --postgres postgresql://root@127.0.0.1/test
    nice -n 10 .venv/bin/python bench/ratings_cost.py --keep /tmp/r10k.db --split

`--more N` records N more games on a kept database (timing every update): the update's cost at
the kept size, with this code, without filling again.

`--baseline FILE` reads with another version of app/services/ratings/profiles.py (say, `git show
4f30ce9:app/services/ratings/profiles.py > /tmp/profiles_before.py`), on the same database: before
and
after a change, side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert, select, text

from app.db.migrate import upgrade_to_head
from app.db.models.accounts import User
from app.db.models.base import utcnow
from app.db.models.games import Game, Seat
from app.db.session import make_engine, make_sessionmaker
from app.engine.scoring import winners
from app.services.ratings import history, leaderboard, profiles
from app.services.ratings import results as ratings
from app.services.ratings import summaries as profile_summaries
from app.settings import Settings


def _scores(rng: random.Random, players: int) -> dict:
    out = []
    for seat in range(players):
        cats = {
            "gold": rng.randint(0, 25),
            "ships": rng.randint(0, 6),
            "missions": rng.randint(5, 45),
            "most_missions": rng.choice([0, 0, 5]),
            "realms": rng.randint(0, 60),
        }
        out.append(
            {
                "seat": seat,
                "categories": cats,
                "total": sum(cats.values()),
                "missions_completed": rng.randint(0, 8),
            }
        )
    return {"players": out, "winners": winners(out)}


def fill(
    sessions, games: int, users: int, seed: int, tail: int, *, more: bool = False
) -> dict[str, list[float]]:
    """Store `games` finished rated games and record each; the last `tail` update times (s):
    wall clock, this process's CPU and the Postgres backend's. `more`: on top of a filled
    database, its accounts."""
    rng = random.Random(seed)
    with sessions() as db:
        ids = list(db.scalars(select(User.id).order_by(User.id))) if more else []
    with sessions() as db:
        ids = ids or list(
            db.scalars(
                insert(User)
                .returning(User.id)
                .values(
                    [
                        {"display_name": f"P{i}", "username": f"p{i}", "created_at": utcnow()}
                        for i in range(users)
                    ]
                )
            )
        )
        db.commit()
    # wall, this process's CPU, the Postgres backend's CPU (s; only its mean means much: /proc
    # counts it in 10 ms ticks)
    times: dict[str, list[float]] = {"wall": [], "cpu": [], "server_cpu": []}
    start = utcnow() - timedelta(days=365 if not more else 30)
    for n in range(games):
        players = rng.choice([2, 3, 3, 4, 5])
        people = rng.sample(ids, players - (1 if rng.random() < 0.3 else 0))
        with sessions() as db:
            game = Game(
                host_id=people[0],
                status="finished",
                visibility="public" if rng.random() < 0.9 else "private",
                invite_code=secrets.token_urlsafe(9),
                players=players,
                options={"players": players, "expansion": rng.random() < 0.3},
                version=200,
                final_scores=_scores(rng, players),
                rated=True,
                created_at=start + timedelta(minutes=n * 50),
                started_at=start + timedelta(minutes=n * 50),
                finished_at=start + timedelta(minutes=n * 50 + 40),
            )
            game.seats = [
                Seat(
                    seat=s,
                    user_id=people[s] if s < len(people) else None,
                    bot_level=None if s < len(people) else rng.choice(["random", "greedy"]),
                )
                for s in range(players)
            ]
            db.add(game)
            db.commit()
            gid = game.id
        with sessions() as db:
            server = _server_cpu(db)
            began, cpu = time.perf_counter(), time.process_time()
            ratings.record_results(db, gid)
            db.commit()
            if n >= games - tail:
                times["wall"].append(time.perf_counter() - began)
                times["cpu"].append(time.process_time() - cpu)
                times["server_cpu"].append(_server_cpu(db) - server)
    return times


def _ms(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {
        "median_ms": round(statistics.median(values) * 1000, 2),
        "p95_ms": round(values[int(len(values) * 0.95) - 1] * 1000, 2),
        "max_ms": round(values[-1] * 1000, 2),
        "n": len(values),
    }


def _update_times(update: dict[str, list[float]]) -> dict[str, object]:
    out: dict[str, object] = {k: _ms(update[k]) for k in ("wall", "cpu")}
    out["server_cpu_mean_ms"] = round(statistics.fmean(update["server_cpu"]) * 1000, 2)
    return out


def _server_cpu(db) -> float:
    """CPU seconds so far of the Postgres backend serving this session (it runs on this
    machine: /proc), or 0 on SQLite (its work is this process's)."""
    raw = db.connection().connection.dbapi_connection
    info = getattr(raw, "info", None)
    if info is None or not hasattr(info, "backend_pid"):
        return 0.0
    fields = Path(f"/proc/{info.backend_pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reads(
    sessions, settings: Settings, users: int, seed: int, n: int, rollback: bool = False
) -> dict[str, object]:
    """Wall and CPU (this process: on SQLite the database's work too) of profile reads, with
    head-to-head, leaderboard pages and pages of finished games; on Postgres also the server
    backend's CPU, as a mean (/proc counts it in clock ticks, 10 ms: only sums mean much)."""
    rng = random.Random(seed + 1)
    kinds = ("profile", "profile_vs", "leaderboard", "history")
    wall: dict[str, list[float]] = {k: [] for k in kinds}
    cpu: dict[str, list[float]] = {k: [] for k in kinds}
    server: dict[str, float] = dict.fromkeys(kinds, 0.0)

    def timed(kind: str, read, *args, **kwargs) -> None:
        before = _server_cpu(args[0])
        began, used = time.perf_counter(), time.process_time()
        read(*args, **kwargs)
        wall[kind].append(time.perf_counter() - began)
        cpu[kind].append(time.process_time() - used)
        server[kind] += _server_cpu(args[0]) - before

    with sessions() as db:
        for _ in range(n):
            name = f"p{rng.randrange(users)}"
            timed("profile", profiles.profile, db, name, settings)
            timed("profile_vs", profiles.profile, db, name, settings, vs=f"p{rng.randrange(users)}")
            variant, page = rng.choice(["base", "expansion"]), rng.randint(1, 4)
            timed("leaderboard", leaderboard.leaderboard, db, variant, page, settings)
            user = db.scalar(select(User).where(User.username == name))
            timed("history", history.history, db, user, rng.randint(1, 3), settings)
            # As a request ends: with COMMIT (app.db.session.read_session), which keeps the
            # connection's prepared statements; `--rollback` ends reads as requests used to.
            if rollback:
                db.rollback()
            else:
                db.commit()
    return {
        k: {
            "wall": _ms(wall[k]),
            "cpu": _ms(cpu[k]),
            "server_cpu_mean_ms": round(server[k] / n * 1000, 2),
        }
        for k in kinds
    }


def split(sessions, engine, settings: Settings, users: int, seed: int, n: int) -> dict:
    """Where a profile read's time goes (module doc), and yappi's top functions."""
    import yappi
    from sqlalchemy import event

    from app.web.api_ratings import ProfileOut

    waited = [0.0, 0]
    began_at: list[float] = []

    def before(*_args) -> None:
        began_at.append(time.perf_counter())

    def after(*_args) -> None:
        waited[0] += time.perf_counter() - began_at.pop()
        waited[1] += 1

    event.listen(engine, "before_cursor_execute", before)
    event.listen(engine, "after_cursor_execute", after)
    rng = random.Random(seed + 2)
    names = [f"p{rng.randrange(users)}" for _ in range(n)]
    totals = {"whole": 0.0, "whole_cpu": 0.0, "database": 0.0, "api_json": 0.0}
    try:
        with sessions() as db:
            for name in names:
                waited[0] = 0.0
                began, used = time.perf_counter(), time.process_time()
                doc = profiles.profile(db, name, settings)
                totals["whole"] += time.perf_counter() - began
                totals["whole_cpu"] += time.process_time() - used
                totals["database"] += waited[0]
                began = time.perf_counter()
                ProfileOut(**doc).model_dump_json()
                totals["api_json"] += time.perf_counter() - began
                db.rollback()
    finally:
        event.remove(engine, "before_cursor_execute", before)
        event.remove(engine, "after_cursor_execute", after)
    # Then the same reads again under yappi (its overhead would inflate the split above).
    yappi.set_clock_type("cpu")
    yappi.start()
    try:
        with sessions() as db:
            for name in names:
                ProfileOut(**profiles.profile(db, name, settings)).model_dump_json()
                db.rollback()
    finally:
        yappi.stop()
    stats = yappi.get_func_stats()
    stats.sort("ttot", "desc")
    top = [
        f"{f.ttot / n * 1000:7.3f} ms tot {f.tsub / n * 1000:7.3f} ms own  {f.ncall // n:5d}x "
        f"{f.module.split('site-packages/')[-1]}:{f.name}"
        for f in list(stats)[:40]
    ]
    yappi.clear_stats()
    per = {k: round(v / n * 1000, 2) for k, v in totals.items()}
    # Wall time outside the driver's calls: building statements and rows in Python (and, on a
    # loaded machine, waiting for a core).
    per["python_building"] = round(per["whole"] - per["database"], 2)
    per["statements_per_read"] = round(waited[1] / n, 1)
    return {"per_read_ms": per, "yappi_cpu_top": top}


def plans(engine, sessions, settings: Settings, username: str) -> dict[str, list[str]]:
    """The query plan of every statement a profile read and a leaderboard page run (the very
    statements, caught as they are sent, EXPLAINed with their parameters)."""
    from sqlalchemy import event

    caught: list[tuple[str, str, object]] = []
    label = ["profile"]

    def catch(_conn, _cursor, statement, parameters, _context, _many) -> None:
        caught.append((label[0], statement, parameters))

    event.listen(engine, "before_cursor_execute", catch)
    try:
        with sessions() as db:
            profiles.profile(db, username, settings)
            label[0] = "leaderboard page 2"
            leaderboard.leaderboard(db, "base", 2, settings)
    finally:
        event.remove(engine, "before_cursor_execute", catch)
    pg = engine.dialect.name == "postgresql"
    explain = "EXPLAIN " if pg else "EXPLAIN QUERY PLAN "
    out: dict[str, list[str]] = {}
    with engine.connect() as conn:
        for n, (what, statement, parameters) in enumerate(caught, start=1):
            rows = conn.exec_driver_sql(explain + statement, parameters).all()
            first = " ".join(statement.split())[:90]
            out[f"{what} {n}: {first}"] = [" ".join(str(c) for c in row) for row in rows]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--users", type=int, default=400)
    parser.add_argument("--tail", type=int, default=500)
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--postgres", default=None, help="a Postgres URL (a schema is made)")
    parser.add_argument("--keep", default=None, help="keep and reuse: SQLite path / PG schema")
    parser.add_argument("--split", action="store_true", help="where a profile read's time goes")
    parser.add_argument(
        "--rollback", action="store_true", help="end each read with ROLLBACK (as requests did)"
    )
    parser.add_argument("--baseline", default=None, help="read with this profiles.py instead")
    parser.add_argument(
        "--more", type=int, default=0, help="on a kept database: record (and time) N more games"
    )
    args = parser.parse_args()
    if args.baseline:
        import importlib.util

        global profiles
        spec = importlib.util.spec_from_file_location("profiles_baseline", args.baseline)
        assert spec is not None and spec.loader is not None
        profiles = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(profiles)
    reused = False
    if args.postgres:
        import psycopg

        schema = args.keep or f"bench_{secrets.token_hex(4)}"
        with psycopg.connect(args.postgres, autocommit=True) as conn:
            found = conn.execute(
                "SELECT 1 FROM information_schema.tables WHERE table_schema = %s "
                "AND table_name = 'game_results'",
                (schema,),
            ).fetchone()
            reused = found is not None
            conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
        url = f"{args.postgres}?options=-csearch_path%3D{schema}"
    else:
        path = Path(args.keep) if args.keep else Path(tempfile.mkdtemp()) / "bench.db"
        reused = path.exists()
        url = f"sqlite:///{path}"
    engine = make_engine(url)
    try:
        upgrade_to_head(engine=engine)
        sessions = make_sessionmaker(engine)
        settings = Settings(database_url=url, secret_key="bench")
        began = time.perf_counter()
        update = {} if reused else fill(sessions, args.games, args.users, args.seed, args.tail)
        filled = time.perf_counter() - began
        if reused:  # filled by another version of this code, maybe one without the sums
            with sessions() as db:
                profile_summaries.rebuild(db)
                db.commit()
            if args.more:
                update = fill(sessions, args.more, 0, args.seed + 7, args.more, more=True)
        if engine.dialect.name == "postgresql":
            # What autovacuum does to a live database; right after a bulk fill it may not have yet.
            with engine.connect() as conn:
                conn.execute(text("ANALYZE"))
                conn.commit()
        result = {
            "database": engine.dialect.name,
            "games": args.games,
            "users": args.users,
            "fill_seconds": round(filled, 1),
            "reused": reused,
            "rating_update_last_games": _update_times(update) if update else None,
            "reads": reads(
                sessions, settings, args.users, args.seed, args.reads, rollback=args.rollback
            ),
            "plans": plans(engine, sessions, settings, "p1"),
        }
        if args.split:
            result["split"] = split(sessions, engine, settings, args.users, args.seed, args.reads)
        print(json.dumps(result, indent=2))
    finally:
        engine.dispose()
        if args.postgres and not args.keep:
            with psycopg.connect(args.postgres, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    return 0


if __name__ == "__main__":
    sys.exit(main())
