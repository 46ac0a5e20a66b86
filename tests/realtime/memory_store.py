"""An in-memory LiveStore for in-process tests of the live core (no database, no threads).

It is also the live core's move committer: it decides moves as the one road does in what
matters here (version, seat owner, a bot on the seat, the engine), on the "loop" or in a
"worker thread", so the authority and the rooms can be driven through every case without a
server. `fail` makes the next calls of a method raise (the database away, say).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import app.engine as rules
from app.shared.errors import ServiceError
from app.shared.moves import Committed, MoveCommand
from app.shared.notify import Notifier, notify
from app.shared.snapshots import GameSnap, Mark, MoveInfo, SeatInfo, Viewer, marks_of


@dataclass
class MemoryGame:
    snap: GameSnap
    log: list[MoveInfo] = field(default_factory=list)


class MemoryStore:
    """Games, sessions and chat lines in dicts; counts the calls made of it."""

    def __init__(self, notifier: Notifier | None = None) -> None:
        self.notifier = notifier
        self.games: dict[int, MemoryGame] = {}
        self.tokens: dict[str, tuple[int, str]] = {}  # token -> (user id, name)
        self.chat: dict[int, list[dict[str, Any]]] = {}
        self.calls: list[str] = []
        self.fail: dict[str, Exception] = {}
        self.seen: list[tuple[int, int]] = []
        self.loop_road = True  # `commit` writes what it may on the loop (False: as SQLite, never)

    # --- set-up ----------------------------------------------------------------------------

    def add_game(self, game_id: int, owners: list[int | None], seed: int = 7) -> GameSnap:
        """A live game of len(owners) seats (None: a bot's seat), first player seat 0."""
        options = rules.GameOptions.from_dict({"players": len(owners), "first_player": 0})
        state = rules.new_game(options, seed)
        seats = tuple(
            SeatInfo(i, u, None if u is not None else "random", f"P{i}")
            for i, u in enumerate(owners)
        )
        snap = GameSnap(game_id, "live", 0, rules.to_act(state), seats, state)
        self.games[game_id] = MemoryGame(snap)
        self.chat[game_id] = []
        return snap

    def sign_in(self, token: str, user_id: int, name: str) -> Viewer:
        self.tokens[token] = (user_id, name)
        return Viewer(user_id, name, token)

    def _call(self, name: str) -> None:
        self.calls.append(name)
        if name in self.fail:
            raise self.fail[name]

    # --- LiveStore -------------------------------------------------------------------------

    def authorise(self, game_id: int, token: str | None, invite_code: str | None) -> Viewer:
        self._call("authorise")
        if game_id not in self.games:
            raise ServiceError("not_found", f"there is no game {game_id}")
        if token in self.tokens:
            user_id, name = self.tokens[token]
            return Viewer(user_id, name, token)
        return Viewer(None, None)

    def check_session(self, viewer: Viewer) -> None:
        self._call("check_session")
        if viewer.token not in self.tokens or self.tokens[viewer.token][0] != viewer.user_id:
            raise ServiceError("not_signed_in", "your session has ended")

    def live_sessions(self, token_hashes: list[str]) -> set[str]:
        self._call("live_sessions")
        live = {Viewer(0, None, t).token_hash for t in self.tokens}
        return {h for h in token_hashes if h in live}

    def load_game(self, game_id: int, since: int | None) -> GameSnap:
        self._call("load_game")
        game = self.games.get(game_id)
        if game is None:
            raise ServiceError("not_found", f"there is no game {game_id}")
        moves = [m for m in game.log if since is not None and m.seq > since]
        return replace(game.snap, moves=moves)

    def current_marks(self, game_ids: list[int]) -> dict[int, Mark]:
        self._call("current_marks")
        return {g: marks_of(self.games[g].snap) for g in game_ids if g in self.games}

    async def commit(self, command: MoveCommand) -> Committed:
        # As the one road: on the loop only what needs no more than its own write; the rest
        # (and every move, with `loop_road` off, as on SQLite) in a "worker thread".
        self._call("commit")
        known = command.known
        if self.loop_road and known is not None and not known.clocked and not command.back:
            try:
                state, _ = rules.apply(known.state, command.action, known.seat)
            except rules.EngineError as exc:
                raise ServiceError(exc.code, exc.message) from None
            if not rules.is_over(state):
                return self._decided(command)
        return self.commit_in(command)

    def commit_in(self, command: MoveCommand) -> Committed:
        self._call("commit_in")
        return self._decided(command)

    def _decided(self, request: MoveCommand) -> Committed:
        game = self.games[request.game_id]
        snap = game.snap
        seat = snap.seat_of(request.user_id)
        if seat is None:
            raise ServiceError("not_seated", "no seat")
        if seat.bot_level is not None:
            raise ServiceError("seat_has_bot", "a bot plays it")
        if request.version != snap.version or snap.status != "live":
            raise ServiceError("stale_version", f"the game is at version {snap.version}")
        try:
            state, events = rules.apply(snap.state, request.action, seat.seat)
        except rules.EngineError as exc:
            raise ServiceError(exc.code, exc.message) from None
        committed = Committed(
            request.game_id,
            snap.version + 1,
            seat.seat,
            state,
            events,
            "finished" if rules.is_over(state) else "live",
            rules.to_act(state),
            snap.bots(),
            {"mode": "none"},
            False,
            rules.canonical_action(request.action),
            "2026-12-01T12:00:00+00:00",
            request.user_id,
            request.action_id,
        )
        self.record(committed)
        return committed

    def record(self, committed: Committed) -> None:
        """Store a committed move (also how a test plays one "over HTTP") and notify."""
        game = self.games[committed.game_id]
        game.log.append(_info(game, committed))
        game.snap = replace(game.snap.after(committed), moves=[])
        notify(self.notifier, committed.game_id, committed.version, committed)

    def say(self, game_id: int, viewer: Viewer, text: str, seat: int | None) -> dict[str, Any]:
        self._call("say")
        lines = self.chat[game_id]
        line = {
            "id": sum(len(v) for v in self.chat.values()) + 1,
            "user_id": viewer.user_id,
            "name": viewer.name,
            "seat": seat,
            "text": text,
            "at": "2026-12-01T12:00:00+00:00",
        }
        lines.append(line)
        return line

    def chat_since(self, game_id: int, seats: dict[int, int], after: int = 0) -> list[dict]:
        self._call("chat_since")
        return [m for m in self.chat.get(game_id, []) if m["id"] > after][-50:]

    def mark_seen_many(self, seen: dict[int, list[int]], socket_ttl_s: float | None = None) -> None:
        self._call("mark_seen_many")
        self.seen.extend((g, u) for g, users in seen.items() for u in users)

    def socket_closed(self, game_id: int, user_id: int) -> None:
        self._call("socket_closed")

    def cache_state(self, game_id: int, version: int, state: Any) -> None:
        self.calls.append("cache_state")


def _info(game: MemoryGame, committed: Committed) -> MoveInfo:
    name = game.snap.seats[committed.seat].name
    return MoveInfo(
        committed.version,
        committed.seat,
        name,
        committed.events,
        committed.timeout,
        committed.at,
        committed.action,
    )
