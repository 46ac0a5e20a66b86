"""Live public games at a glance: compact summaries built from the spectator's view (R-60).

A summary is what /watch, /tv and the home page's featured game show of a game: its players
(with their ratings), whose turn it is, the spectator count and a small board. It is built from
`engine.view_for(state, None)`, the spectator's view, at the version spectators may see (the
spectator delay, app/services/watching/spectator_delay.py), and nothing else about the state: a
hand, a
Reef card or a card drawn for a choice can never be in one. The board is packed (a string of
the 225 squares' symbols, two base-36 characters per square elsewhere) to keep a game's update
far below 2 KB (tests/services/test_watch_summaries.py measures it).

Interest (the order of /watch, and which game is featured): the mean rating of the table's
rated accounts, then the spectator count, then the newest game first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

import app.engine as rules
from app.db.models.accounts import User
from app.db.models.games import Game, Seat
from app.db.models.ratings import Rating
from app.services.ratings import model as rm
from app.services.tables.names import bot_name, display_seat_name
from app.services.watching import spectator_delay
from app.shared.state_cache import states_of

ClockKind = Literal["none", "live", "daily"]
CLOCK_KINDS = ("none", "live", "daily")
SHIP_LETTER = {"green": "g", "purple": "p", "red": "r", "blue": "b"}
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
# Candidates read per refresh, as a multiple of the games listed: the most interesting are
# chosen among the newest this many (the list query stays bounded however many games run).
CANDIDATES_PER_GAME = 5


def cell_code(r: int, c: int) -> str:
    """A square as two base-36 characters (r * 15 + c)."""
    n = r * 15 + c
    return DIGITS[n // 36] + DIGITS[n % 36]


def pack_board(board: dict[str, Any]) -> dict[str, Any]:
    """The view's board, packed: `rows` one 225-character string, `ships` 3 characters each
    (square, colour letter), each Dragon one string: owner digit, `a` if Ancestral else `-`,
    its head's square, then its squares. static/js/lib/watchboard.mjs unpacks it."""
    ships = "".join(cell_code(r, c) + SHIP_LETTER.get(col, "?") for r, c, col in board["ships"])
    dragons = [
        f"{d['owner']}{'a' if d.get('ancestral') else '-'}{cell_code(*d['head'])}"
        + "".join(cell_code(r, c) for r, c in d["cells"])
        for d in board["dragons"]
    ]
    return {"rows": "".join(board["rows"]), "ships": ships, "dragons": dragons}


@dataclass(frozen=True)
class Filters:
    """What a list of live games is narrowed to (None: any)."""

    players: int | None = None
    expansion: bool | None = None
    clock: ClockKind | None = None

    def keep(self, summary: dict[str, Any]) -> bool:
        """Whether a summary passes."""
        return (
            (self.players is None or summary["players"] == self.players)
            and (self.expansion is None or summary["expansion"] == self.expansion)
            and (self.clock is None or summary["clock"] == self.clock)
        )


@dataclass(frozen=True)
class LiveGame:
    """The columns of a live public game a summary needs."""

    id: int
    version: int
    options: dict[str, Any]
    players: int
    rated: bool
    clock: str
    names_key: int
    seed: int | None


class BoardCache:
    """(game, version) -> the packed board and turn facts, per process: a version names one
    state for ever, so a game's board is built once per version however many sockets watch."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, int], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[int, int]) -> dict[str, Any] | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: tuple[int, int], item: dict[str, Any]) -> None:
        with self._lock:
            self._items[key] = item
            while len(self._items) > self.size:
                self._items.popitem(last=False)


def _position(db: Session, game: LiveGame, version: int, boards: BoardCache) -> dict[str, Any]:
    """The public facts of the position at `version`, from the spectator's view only."""
    key = (game.id, version)
    known = boards.get(key)
    if known is not None:
        return known
    state = states_of(db).get(game.id, version)
    if state is None:
        row = db.get(Game, game.id)
        if row is None:
            raise LookupError(game.id)
        if row.version == version and row.snapshot is not None:
            state = rules.state_from_json(row.snapshot)
            states_of(db).put(game.id, version, state)
        else:
            state = spectator_delay.state_at(db, row, version)
    item = position_of(state)
    boards.put(key, item)
    return item


def position_of(state: Any) -> dict[str, Any]:
    """A summary's position: the packed board, the turn, who acts, each seat's Gold; read
    off the spectator's view only (R-60)."""
    view = rules.view_for(state, None)
    return {
        "board": pack_board(view["board"]),
        "turn": view["turn"]["number"],
        "to_act": view["turn"]["seat"],
        "gold": [p["gold"] for p in view["players"]],
    }


def summary_of(
    game: LiveGame,
    seen: int,
    seats: list[dict[str, Any]],
    spectators: int,
    position: dict[str, Any],
) -> dict[str, Any]:
    """One game's summary at version `seen` (what its spectators may see)."""
    policy = spectator_delay.policy_of(game.options)
    return {
        "id": game.id,
        "v": seen,
        "players": game.players,
        "expansion": bool(game.options.get("expansion")),
        "clock": game.clock,
        "rated": game.rated,
        "delay": policy.to_json() if policy is not None else None,
        "seats": seats,
        "spectators": spectators,
        **position,
    }


def _live_games(db: Session, limit: int) -> list[LiveGame]:
    rows = db.execute(
        select(
            Game.id,
            Game.version,
            Game.options,
            Game.players,
            Game.rated,
            Game.clock,
            Game.bot_names_of,
            Game.seed,
        )
        .where(Game.status == "live", Game.visibility == "public")
        .order_by(Game.id.desc())
        .limit(limit)
    )
    return [
        LiveGame(
            r.id,
            r.version,
            r.options or {},
            r.players,
            bool(r.rated),
            (r.clock or {}).get("mode", "none"),
            r.bot_names_of or r.id,
            r.seed,
        )
        for r in rows
    ]


def _seats(db: Session, games: list[LiveGame]) -> dict[int, list[dict[str, Any]]]:
    """Per game, its seats: name, username (accounts), bot level, rating (rated accounts)."""
    if not games:
        return {}
    keys = {g.id: g for g in games}
    rows = db.execute(
        select(
            Seat.game_id,
            Seat.seat,
            Seat.user_id,
            Seat.bot_level,
            User.display_name,
            User.username,
        )
        .outerjoin(User, User.id == Seat.user_id)
        .where(Seat.game_id.in_(list(keys)))
        .order_by(Seat.game_id, Seat.seat)
    ).all()
    wanted = {(r.user_id, rm.variant_of(keys[r.game_id].options)) for r in rows if r.username}
    ratings: dict[tuple[int, str], int] = {}
    if wanted:
        user_ids = sorted({u for u, _ in wanted})
        for rating in db.scalars(select(Rating).where(Rating.user_id.in_(user_ids))):
            ratings[(rating.user_id, rating.variant)] = rating.display
    out: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        game = keys[r.game_id]
        variant = rm.variant_of(game.options)
        out.setdefault(r.game_id, []).append(
            {
                "name": display_seat_name(game.names_key, r.seat, r.display_name, r.bot_level),
                "user": r.username,
                "bot": r.bot_level,
                # A bot's own name, so a page words its level in its reader's language.
                "bot_name": bot_name(game.names_key, r.seat)
                if r.bot_level and r.display_name is None
                else None,
                "rating": ratings.get((r.user_id, variant)) if r.username else None,
            }
        )
    return out


def interest(summary: dict[str, Any]) -> tuple[float, int, int]:
    """The sort key, most interesting first when sorted descending."""
    rated = [s["rating"] for s in summary["seats"] if s["rating"] is not None]
    return (sum(rated) / len(rated) if rated else 0.0, summary["spectators"], summary["id"])


def summaries(
    db: Session, spectators: dict[int, int], max_games: int, boards: BoardCache
) -> list[dict[str, Any]]:
    """The `max_games` most interesting live public games' summaries, most interesting first.

    `spectators`: game id -> spectators this process knows of (its rooms' presence).
    """
    games = _live_games(db, max_games * CANDIDATES_PER_GAME)
    seats = _seats(db, games)
    out = []
    for game in games:
        seen = spectator_delay.spectator_version_of(db, game.id, game.options, "live", game.version)
        try:
            position = _position(db, game, seen, boards)
        except LookupError:
            continue  # gone between the two reads
        out.append(
            summary_of(game, seen, seats.get(game.id, []), spectators.get(game.id, 0), position)
        )
    out.sort(key=interest, reverse=True)
    return out[:max_games]


def followed(db: Session, usernames: list[str]) -> dict[str, int]:
    """Per followed account (by username), its newest live public game, if it plays one."""
    if not usernames:
        return {}
    rows = db.execute(
        select(User.username, Game.id)
        .join(Seat, Seat.user_id == User.id)
        .join(Game, Game.id == Seat.game_id)
        .where(
            User.username.in_(usernames),
            Game.status == "live",
            Game.visibility == "public",
        )
        .order_by(Game.id)
    )
    return {username: game_id for username, game_id in rows}  # the newest wins (ordered)
