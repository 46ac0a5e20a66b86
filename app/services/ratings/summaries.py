"""Per account, variant and player count: the sums a profile's statistics are read from.

A profile shows games played and won by player count and mean points per scoring category,
the player's and their opponents', over the player's public finished games. Summed from
`game_results` on every read, that is every seat of every such game (hundreds of rows for a
regular player, growing with each game); kept as sums in `profile_summaries` it is a few rows.

- `add_game`: the results job adds a game's seats in the transaction that records its results
  (app/services/ratings/results.py), so exactly once per game, like the results themselves.
- `rebuild`: everything again from `game_results` (`seadragons ratings recompute`), with
  `from_results`, the from-scratch sums the tests compare the kept ones with.
- `statistics`: the profile's `by_players` and `averages` from a player's rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Select, and_, case, delete, func, insert, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session, aliased

from app.db.models.games import Game
from app.db.models.ratings import GameResult, ProfileSummary

CATEGORIES = ("gold", "ships", "missions", "most_missions", "realms", "tails")
KEY = ("user_id", "variant", "players")
SUMS = (
    "played",
    "won",
    *(f"own_{c}" for c in CATEGORIES),
    "own_tails_n",
    "opp_seats",
    *(f"opp_{c}" for c in CATEGORIES),
    "opp_tails_n",
)
COLUMNS = (*KEY, *SUMS)
# Built once: an alias proxies every column, and building one per call shows in its cost.
MINE = aliased(GameResult, name="mine")


def _won(place: int, quit: bool) -> bool:
    return place == 1 and not quit


def add_game(db: Session, visibility: str, results: Sequence[Mapping[str, Any]]) -> None:
    """Add one recorded game's seats (its results' columns, every seat) to their owners' sums
    (public games only: a private game is known to its players only, and profiles are public).
    Not committed here."""
    if visibility != "public":
        return
    rows = []
    for me in results:
        if me["user_id"] is None:
            continue
        others = [r for r in results if r["seat"] != me["seat"]]
        row: dict[str, Any] = {
            "user_id": me["user_id"],
            "variant": me["variant"],
            "players": me["players"],
            "played": 1,
            "won": int(_won(me["place"], me["quit"])),
            "own_tails_n": int(me["tails"] is not None),
            "opp_seats": len(others),
            "opp_tails_n": sum(r["tails"] is not None for r in others),
        }
        for c in CATEGORIES:
            row[f"own_{c}"] = me[c] or 0
            row[f"opp_{c}"] = sum(r[c] or 0 for r in others)
        rows.append(row)
    if not rows:
        return
    # In user id order: the rows are locked in this order (Postgres), as the ratings are, so
    # two games sharing players never wait on each other in a cycle.
    rows.sort(key=lambda r: r["user_id"])
    db.connection().execute(_upsert(db.get_bind().dialect.name), rows)


_UPSERTS: dict[str, Any] = {}


def _upsert(dialect: str) -> Any:
    """The statement that adds one row of sums (run once per seat, in order), built once per
    dialect: compiling a fresh multi-row statement per game cost more than the rest of it."""
    if dialect not in _UPSERTS:
        table = ProfileSummary.__table__
        stmt = (pg_insert if dialect == "postgresql" else sqlite_insert)(table)
        _UPSERTS[dialect] = stmt.on_conflict_do_update(
            index_elements=list(KEY), set_={c: table.c[c] + stmt.excluded[c] for c in SUMS}
        )
    return _UPSERTS[dialect]


def from_results() -> Select[Any]:
    """The sums from scratch: every seat of every public game of each account, grouped."""
    mine, seat = MINE, GameResult  # `seat`: every seat of those games, the player's included
    own = seat.seat == mine.seat

    def total(column: str, of_own: bool) -> Any:
        return func.coalesce(func.sum(case((own if of_own else ~own, getattr(seat, column)))), 0)

    return (
        select(
            mine.user_id,
            mine.variant,
            mine.players,
            func.count(func.distinct(mine.game_id)),
            func.count(func.distinct(case((and_(mine.place == 1, ~mine.quit), mine.game_id)))),
            *(total(c, True) for c in CATEGORIES),
            func.count(case((own, seat.tails))),
            func.count(case((~own, 1))),
            *(total(c, False) for c in CATEGORIES),
            func.count(case((~own, seat.tails))),
        )
        .select_from(mine)
        .join(Game, and_(Game.id == mine.game_id, Game.visibility == "public"))
        .join(seat, seat.game_id == mine.game_id)
        .where(mine.user_id.is_not(None))
        .group_by(mine.user_id, mine.variant, mine.players)
    )


def rebuild(db: Session) -> int:
    """Replace every summary by the sums from scratch; the number of rows. Not committed."""
    db.execute(delete(ProfileSummary))
    db.execute(
        insert(ProfileSummary).from_select(
            [getattr(ProfileSummary, c) for c in COLUMNS], from_results()
        )
    )
    return int(db.scalar(select(func.count()).select_from(ProfileSummary)) or 0)


def statistics(rows: Sequence[Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """(`by_players`, `averages`) of a profile from one player's summary rows (any variants)."""
    by_players: dict[int, list[int]] = {}
    totals = dict.fromkeys(SUMS, 0)
    for r in rows:
        counts = by_players.setdefault(r.players, [0, 0])
        counts[0] += r.played
        counts[1] += r.won
        for c in SUMS:
            totals[c] += getattr(r, c)
    played = [{"players": n, "played": p, "won": w} for n, (p, w) in sorted(by_players.items())]

    def mean(side: str, c: str) -> float | None:
        if side == "own":
            count = totals["own_tails_n"] if c == "tails" else totals["played"]
        else:
            count = totals["opp_tails_n"] if c == "tails" else totals["opp_seats"]
        return round(totals[f"{side}_{c}"] / count, 2) if count else None

    averages = {
        "games": totals["played"],
        "you": {c: mean("own", c) for c in CATEGORIES},
        "opponents": {c: mean("opp", c) for c in CATEGORIES},
    }
    return played, averages
