"""A seeded history of finished games for profile tests: the same rows on every database.

Accounts, a guest and bots at 2-5 seat tables; public and private, rated and unrated, base and
expansion games; seats whose owner left or handed over (quitters), ties on points. Each game's
results are recorded by the server's own `ratings.record_results`, one transaction a game, as
the results job does. Times and ids are fixed, so a fresh database gives the same documents.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session, sessionmaker

from app.db.models.accounts import User
from app.db.models.games import Game, Seat
from app.engine.scoring import winners
from app.services.ratings import results as ratings

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
ACCOUNTS = ("ann", "bob", "cat", "dan", "eve", "fay")


def _scores(rng: random.Random, players: int, expansion: bool) -> dict:
    out = []
    for seat in range(players):
        cats = {
            "gold": rng.randint(0, 6),  # narrow ranges: ties happen
            "ships": rng.randint(0, 3),
            "missions": rng.randint(5, 12),
            "most_missions": rng.choice([0, 0, 5]),
            "realms": rng.randint(0, 10),
        }
        if expansion:
            cats["tails"] = rng.randint(0, 4)
        out.append(
            {
                "seat": seat,
                "categories": cats,
                "total": sum(cats.values()),
                "missions_completed": rng.randint(0, 2),
            }
        )
    return {"players": out, "winners": winners(out)}


def seed_history(sessions: sessionmaker[Session], games: int = 60, seed: int = 5) -> None:
    rng = random.Random(seed)
    with sessions() as db:
        people = [
            User(display_name=name.title(), username=name, password_hash="x", created_at=START)
            for name in ACCOUNTS
        ]
        guest = User(display_name="Guest Gil", created_at=START)
        db.add_all([*people, guest])
        db.commit()
        accounts = [u.id for u in people]
        guest_id = guest.id
    for n in range(games):
        players = rng.choice([2, 3, 3, 4, 5])
        bots = rng.choice([0, 0, 1]) if players > 2 else 0
        humans = rng.sample(accounts, players - bots)
        with_guest = rng.random() < 0.15
        if with_guest:
            humans[-1] = guest_id
        expansion = rng.random() < 0.4
        at = START + timedelta(hours=n)
        with sessions() as db:
            game = Game(
                host_id=humans[0],
                status="finished",
                visibility="public" if rng.random() < 0.8 else "private",
                invite_code=f"code{n}",
                players=players,
                options={"players": players, "expansion": expansion},
                version=100,
                final_scores=_scores(rng, players, expansion),
                rated=not with_guest and rng.random() < 0.8,
                created_at=at,
                started_at=at,
                finished_at=at + timedelta(minutes=40),
            )
            game.seats = []
            for s in range(players):
                human = humans[s] if s < len(humans) else None
                quit = human is not None and rng.random() < 0.1
                game.seats.append(
                    Seat(
                        seat=s,
                        user_id=human,
                        # an owner's seat a bot kept to the end, or a bot's own seat
                        bot_level=("greedy" if quit else None)
                        if human is not None
                        else rng.choice(["random", "greedy", "expert"]),
                    )
                )
            db.add(game)
            db.commit()
            ratings.record_results(db, game.id)
            db.commit()
