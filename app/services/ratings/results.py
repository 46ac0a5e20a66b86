"""Results and ratings of finished games: written once per game, rebuilt on demand.

The move that finishes a game enqueues a `game_results` job keyed on the game id in its own
transaction (games.py), so the job exists exactly when the finish commits. The job (any
instance, any time later: a crash in between only delays it) writes one `game_results` row per
seat and, for a rated table, moves the accounts' ratings, and is marked done in that same
transaction (app/infra/jobs.py); the unique (game_id, seat) is a second guard. Ratings rows
are locked (Postgres: FOR UPDATE, in user id order) before the results are inserted, so games
sharing a player are rated one after the other, in the order of their result ids: `recompute`
replays them in that order and gets the same numbers.

Rules (docs/ratings.md): places from the engine's final scores (`rating_model.placings`); a
seat whose owner did not play it to the end (left the table, or a bot held it at the end: two
timeouts in a row, or handed over) ranks last; a bot's own seat plays at its level's fixed
anchor rating and is never updated; a rated table where no owner played to the end is
abandoned: its results are kept, unrated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import bindparam, delete, exists, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from app.db.models.accounts import User
from app.db.models.games import Game, Seat
from app.db.models.ratings import GameResult, Rating
from app.i18n import t_
from app.infra import jobs
from app.services.ratings import model as rm
from app.services.ratings import summaries as profile_summaries
from app.shared.clock import now_in
from app.shared.errors import ServiceError

KIND = "game_results"
CATEGORIES = ("gold", "ships", "missions", "most_missions", "realms", "tails")


def enqueue_results(db: Session, game_id: int) -> None:
    """In the finishing move's transaction: the one job that records this game's results."""
    jobs.enqueue(db, KIND, f"game:{game_id}", {"game_id": game_id})


def quitters(seats: Sequence[Any]) -> list[bool]:
    """Per seat (`Seat`s or rows with their `user_id`, `bot_level`, `left_at`): its owner did
    not play it to the end (left, or a bot held it at the end)."""
    return [
        s.user_id is not None and (s.bot_level is not None or s.left_at is not None) for s in seats
    ]


# The update is a handful of statements built once here and run as plain rows (no ORM objects):
# loading the game with its seats through the ORM, flushing result objects and rating objects
# cost more CPU than the database took to answer (docs/benchmarks.md, "One statement on Postgres,
# and the rating update without the ORM").
GAME_TO_RECORD = select(
    Game.status,
    Game.final_scores,
    Game.options,
    Game.rated,
    Game.players,
    Game.visibility,
    Game.finished_at,
    exists().where(GameResult.game_id == Game.id).label("recorded"),
).where(Game.id == bindparam("game_id"))
# A seat's owner is an account (rated) when it has a username; a guest has none.
SEATS_TO_RECORD = (
    select(Seat.seat, Seat.user_id, Seat.bot_level, Seat.left_at, User.username)
    .outerjoin(User, User.id == Seat.user_id)
    .where(Seat.game_id == bindparam("game_id"))
    .order_by(Seat.seat)
)
# Postgres: row locks in user id order, so two games never deadlock (SQLite has no FOR UPDATE:
# the missing rows' insert before it takes the database's write lock).
LOCK_RATINGS = (
    select(Rating.user_id, Rating.mu, Rating.sigma)
    .where(
        Rating.user_id.in_(bindparam("user_ids", expanding=True)),
        Rating.variant == bindparam("variant"),
    )
    .order_by(Rating.user_id)
    .with_for_update()
)
INSERT_RESULTS = insert(GameResult.__table__)
UPDATE_RATING = (
    update(Rating.__table__)
    .where(Rating.user_id == bindparam("b_user_id"), Rating.variant == bindparam("b_variant"))
    .values(
        mu=bindparam("b_mu"),
        sigma=bindparam("b_sigma"),
        display=bindparam("b_display"),
        games=Rating.games + 1,
        updated_at=bindparam("b_updated_at"),
    )
)
_CREATE_MISSING: dict[str, Any] = {}


def _create_missing(dialect: str) -> Any:
    """INSERT a rating row unless it exists, built once per dialect."""
    if dialect not in _CREATE_MISSING:
        insert_ = pg_insert if dialect == "postgresql" else sqlite_insert
        _CREATE_MISSING[dialect] = insert_(Rating.__table__).on_conflict_do_nothing(
            index_elements=["user_id", "variant"]
        )
    return _CREATE_MISSING[dialect]


def _lock_ratings(db: Session, user_ids: list[int], variant: str) -> dict[int, rm.Skill]:
    """The accounts' skills, their rating rows created at the newcomer's rating if missing and
    locked for this transaction (Postgres: row locks in user id order, so two games never
    deadlock; SQLite: the insert takes the database's write lock)."""
    if not user_ids:
        return {}
    now = now_in(db)
    rows = [
        {
            "user_id": uid,
            "variant": variant,
            "mu": rm.NEW.mu,
            "sigma": rm.NEW.sigma,
            "display": rm.NEW.display,
            "games": 0,
            "updated_at": now,
        }
        for uid in sorted(user_ids)
    ]
    conn = db.connection()
    # One prebuilt statement run per row (a fresh multi-row statement per game was compiled
    # every time, which cost more than the rest of the update).
    conn.execute(_create_missing(db.get_bind().dialect.name), rows)
    locked = conn.execute(LOCK_RATINGS, {"user_ids": sorted(user_ids), "variant": variant})
    return {uid: rm.Skill(mu, sigma) for uid, mu, sigma in locked}


def _forget_ratings(db: Session, user_ids: list[int], variant: str) -> None:
    """Expire rating objects this session may hold for these rows, which were updated beside
    the ORM (the sessions keep objects across commits)."""
    for uid in user_ids:
        held = db.identity_map.get(db.identity_key(Rating, (uid, variant)))
        if held is not None:
            db.expire(held)


def record_results(db: Session, game_id: int) -> bool:
    """Write a finished game's results (and ratings, if rated); not committed here.

    False if there is nothing to do: not finished, or recorded already.
    """
    conn = db.connection()
    game = conn.execute(GAME_TO_RECORD, {"game_id": game_id}).one_or_none()
    if game is None:
        raise ServiceError("not_found", t_("there is no game {game_id}", game_id=game_id))
    if game.status != "finished" or game.final_scores is None or game.recorded:
        return False
    seats = conn.execute(SEATS_TO_RECORD, {"game_id": game_id}).all()
    quit = quitters(seats)
    places = rm.placings(game.final_scores, quit)
    variant = rm.variant_of(game.options)
    played_to_end = any(s.user_id is not None and not q for s, q in zip(seats, quit, strict=True))
    rated = game.rated and played_to_end
    accounts = {s.user_id for s in seats if s.username is not None} if rated else set()
    locked = _lock_ratings(db, sorted(accounts), variant)
    priors: list[rm.Skill] = []
    for s in seats:
        if s.user_id in locked:
            priors.append(locked[s.user_id])
        elif s.user_id is None and s.bot_level is not None:
            priors.append(rm.anchor(s.bot_level))
        else:
            priors.append(rm.NEW)  # a guest (an unrated table has no ratings to move anyway)
    after = rm.rate(priors, places) if rated else priors
    finished = game.finished_at or now_in(db)
    scores = {p["seat"]: p for p in game.final_scores["players"]}
    results: list[dict[str, Any]] = []
    moved: list[dict[str, Any]] = []
    now = now_in(db)
    for s, place, q, before, new in zip(seats, places, quit, priors, after, strict=True):
        cats = scores[s.seat]["categories"]
        own = s.user_id in locked
        results.append(
            {
                "game_id": game_id,
                "seat": s.seat,
                "user_id": s.user_id,
                "bot_level": s.bot_level if s.user_id is None else None,
                "variant": variant,
                "players": game.players,
                "rated": rated,
                "place": place,
                "quit": q,
                "total": scores[s.seat]["total"],
                **{c: cats.get(c, 0) for c in CATEGORIES[:-1]},
                "tails": cats.get("tails"),
                "mu_before": before.mu if own else None,
                "sigma_before": before.sigma if own else None,
                "mu_after": new.mu if own else None,
                "sigma_after": new.sigma if own else None,
                "display_after": new.display if own else None,
                "finished_at": finished,
            }
        )
        if own:
            moved.append(
                {
                    "b_user_id": s.user_id,
                    "b_variant": variant,
                    "b_mu": new.mu,
                    "b_sigma": new.sigma,
                    "b_display": new.display,
                    "b_updated_at": now,
                }
            )
    # In seat order, after the locks: the result ids give the order ratings were applied in.
    conn.execute(INSERT_RESULTS, results)
    if moved:
        conn.execute(UPDATE_RATING, moved)
        _forget_ratings(db, sorted(locked), variant)
    profile_summaries.add_game(db, game.visibility, results)
    return True


def results_job(db: Session, ctx: jobs.JobContext) -> None:
    """The `game_results` job handler (the runner commits it with the job's "done")."""
    assert ctx.payload is not None
    record_results(db, int(ctx.payload["game_id"]))


def recompute(db: Session) -> dict[str, int]:
    """Rebuild every rating from the stored results, in the order they were first rated, and
    rewrite each result's before/after, and the profiles' sums (app/services/ratings/summaries.py);
    commits. The same rules give the same numbers."""
    rows = list(db.scalars(select(GameResult).where(GameResult.rated).order_by(GameResult.id)))
    by_game: dict[int, list[GameResult]] = {}
    for row in rows:
        by_game.setdefault(row.game_id, []).append(row)
    skills: dict[tuple[int, str], rm.Skill] = {}
    games: dict[tuple[int, str], int] = {}
    for seats in by_game.values():
        seats.sort(key=lambda r: r.seat)
        priors = []
        for r in seats:
            tracked = r.user_id is not None and r.mu_before is not None
            if tracked:
                priors.append(skills.get((r.user_id, r.variant), rm.NEW))  # type: ignore[arg-type]
            elif r.bot_level is not None:
                priors.append(rm.anchor(r.bot_level))
            else:
                priors.append(rm.NEW)
        after = rm.rate(priors, [r.place for r in seats])
        for r, before, new in zip(seats, priors, after, strict=True):
            if r.user_id is None or r.mu_before is None:
                continue
            key = (r.user_id, r.variant)
            skills[key] = new
            games[key] = games.get(key, 0) + 1
            r.mu_before, r.sigma_before = before.mu, before.sigma
            r.mu_after, r.sigma_after, r.display_after = new.mu, new.sigma, new.display
    db.execute(delete(Rating))
    now = now_in(db)
    for (user_id, variant), s in skills.items():
        db.add(
            Rating(
                user_id=user_id,
                variant=variant,
                mu=s.mu,
                sigma=s.sigma,
                display=s.display,
                games=games[(user_id, variant)],
                updated_at=now,
            )
        )
    summaries = profile_summaries.rebuild(db)
    db.commit()
    return {"games": len(by_game), "ratings": len(skills), "profile_summaries": summaries}


def skill_of(db: Session, user_id: int, variant: str) -> rm.Skill:
    """An account's current skill in a variant (the newcomer's if it has none yet)."""
    row = db.get(Rating, (user_id, variant))
    return rm.Skill(row.mu, row.sigma) if row is not None else rm.NEW


def prediction(db: Session, game: Game) -> list[dict[str, Any]]:
    """Expected places and chances to win of the seats taken so far (a rated table's waiting
    room): accounts at their rating, bots at their anchor; empty seats are left out."""
    variant = rm.variant_of(game.options)
    seated: list[tuple[Seat, rm.Skill]] = []
    for s in game.seats:
        if s.user_id is not None:
            seated.append((s, skill_of(db, s.user_id, variant)))
        elif s.bot_level is not None:
            seated.append((s, rm.anchor(s.bot_level)))
    if len(seated) < 2:
        return [{"seat": s.seat, "win": 1.0, "place": 1} for s, _ in seated]
    guesses = rm.predict([skill for _, skill in seated])
    return [{"seat": s.seat, **guess} for (s, _), guess in zip(seated, guesses, strict=True)]
