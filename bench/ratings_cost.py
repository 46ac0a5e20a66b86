"""What ratings cost at scale: a rating update and a profile read with 10,000 stored games.

Fills a fresh database (SQLite file, or Postgres with --postgres URL) with finished rated games
between `--users` accounts (and some bots), recording each one's results and ratings through the
server's own `ratings.record_results` (one transaction per game, as the job does); times the
updates of the last `--tail` games, then profile reads, leaderboard pages and history pages,
and prints the query plans of the profile's and leaderboard's queries.

    nice -n 10 .venv/bin/python bench/ratings_cost.py --games 10000
    nice -n 10 .venv/bin/python bench/ratings_cost.py --games 10000 --postgres postgresql://root@127.0.0.1/test
"""

from __future__ import annotations

import argparse
import json
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
from app.db.models import Game, Seat, User, utcnow
from app.db.session import make_engine, make_sessionmaker
from app.engine.scoring import winners
from app.services import profiles, ratings
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


def fill(sessions, games: int, users: int, seed: int, tail: int) -> list[float]:
    """Store `games` finished rated games and record each; the last `tail` update times (s)."""
    rng = random.Random(seed)
    with sessions() as db:
        ids = list(
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
    times: list[float] = []
    start = utcnow() - timedelta(days=365)
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
            began = time.perf_counter()
            ratings.record_results(db, gid)
            db.commit()
            if n >= games - tail:
                times.append(time.perf_counter() - began)
    return times


def _ms(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {
        "median_ms": round(statistics.median(values) * 1000, 2),
        "p95_ms": round(values[int(len(values) * 0.95) - 1] * 1000, 2),
        "max_ms": round(values[-1] * 1000, 2),
        "n": len(values),
    }


def reads(sessions, settings: Settings, users: int, seed: int, n: int) -> dict[str, object]:
    rng = random.Random(seed + 1)
    out: dict[str, list[float]] = {
        "profile": [],
        "profile_vs": [],
        "leaderboard": [],
        "history": [],
    }
    with sessions() as db:
        for _ in range(n):
            name = f"p{rng.randrange(users)}"
            began = time.perf_counter()
            profiles.profile(db, name, settings)
            out["profile"].append(time.perf_counter() - began)
            began = time.perf_counter()
            profiles.profile(db, name, settings, vs=f"p{rng.randrange(users)}")
            out["profile_vs"].append(time.perf_counter() - began)
            began = time.perf_counter()
            profiles.leaderboard(db, rng.choice(["base", "expansion"]), rng.randint(1, 4), settings)
            out["leaderboard"].append(time.perf_counter() - began)
            user = db.scalar(select(User).where(User.username == name))
            began = time.perf_counter()
            profiles.history(db, user, rng.randint(1, 3), settings)
            out["history"].append(time.perf_counter() - began)
            db.rollback()
    return {k: _ms(v) for k, v in out.items()}


def plans(engine, user_id: int) -> dict[str, list[str]]:
    pg = engine.dialect.name == "postgresql"
    explain = "EXPLAIN " if pg else "EXPLAIN QUERY PLAN "
    queries = {
        "history points": (
            "SELECT r.game_id, r.display_after FROM game_results r "
            "JOIN games g ON g.id = r.game_id "
            "WHERE r.user_id = :u AND r.variant = 'base' AND r.rated "
            "AND r.display_after IS NOT NULL "
            "ORDER BY r.id DESC LIMIT 200"
        ),
        "averages, own and opponents'": (
            "SELECT count(DISTINCT m.game_id), avg(CASE WHEN o.seat = m.seat THEN o.gold END), "
            "avg(CASE WHEN o.seat != m.seat THEN o.gold END) FROM game_results m "
            "JOIN games g ON g.id = m.game_id AND g.visibility = 'public' "
            "JOIN game_results o ON o.game_id = m.game_id WHERE m.user_id = :u"
        ),
        "rank": (
            "SELECT count(*) FROM ratings WHERE variant = 'base' AND display > 1500 AND sigma <= 5"
        ),
        "leaderboard page": (
            "SELECT r.user_id FROM ratings r JOIN users u ON u.id = r.user_id "
            "WHERE r.variant = 'base' AND r.sigma <= 5 ORDER BY r.display DESC, r.user_id "
            "LIMIT 50 OFFSET 50"
        ),
    }
    out = {}
    with engine.connect() as conn:
        if pg:
            conn.execute(text("ANALYZE"))
        for name, sql in queries.items():
            rows = conn.execute(text(explain + sql), {"u": user_id}).all()
            out[name] = [" ".join(str(c) for c in row) for row in rows]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--users", type=int, default=400)
    parser.add_argument("--tail", type=int, default=500)
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--postgres", default=None, help="a Postgres URL (a schema is made)")
    args = parser.parse_args()
    if args.postgres:
        import psycopg

        schema = f"bench_{secrets.token_hex(4)}"
        with psycopg.connect(args.postgres, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        url = f"{args.postgres}?options=-csearch_path%3D{schema}"
    else:
        url = f"sqlite:///{tempfile.mkdtemp()}/bench.db"
    engine = make_engine(url)
    try:
        upgrade_to_head(engine=engine)
        sessions = make_sessionmaker(engine)
        settings = Settings(database_url=url, secret_key="bench")
        began = time.perf_counter()
        update = fill(sessions, args.games, args.users, args.seed, args.tail)
        filled = time.perf_counter() - began
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
            "rating_update_last_games": _ms(update),
            "reads": reads(sessions, settings, args.users, args.seed, args.reads),
            "plans": plans(engine, 1),
        }
        print(json.dumps(result, indent=2))
    finally:
        engine.dispose()
        if args.postgres:
            with psycopg.connect(args.postgres, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    return 0


if __name__ == "__main__":
    sys.exit(main())
