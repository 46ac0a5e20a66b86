"""A stand-in for the game API backed by the real engine in memory (no database, no accounts).

It serves the client's real pages and static files and answers the endpoints the game page
uses, so the browser tests can drive placement, every kind of decision and the end of a game
without the full server. The viewer is the seat to act ("hot seat"); `?invite_code=watch` makes
the caller a spectator.
"""

from __future__ import annotations

import json
import random
from typing import Any

from fastapi import FastAPI, HTTPException
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from app.engine import (
    EngineError,
    GameOptions,
    apply,
    describe,
    event_for,
    explain,
    legal_actions,
    new_game,
    preview,
    to_act,
    view_for,
)
from app.i18n.middleware import LanguageMiddleware
from app.services.tables.names import bot_name
from app.settings import Settings
from app.web import pages, pages_install
from app.web.deps import get_db, optional_user

CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:"


class Table:
    """One engine game and its move log."""

    def __init__(self, players: int, seed: int, expansion: bool = False) -> None:
        self.state = new_game(GameOptions(players=players, expansion=expansion), seed)
        self.version = 0
        self.log: list[dict[str, Any]] = []
        # Extra actions appended to legal_actions, to check that unknown types still get a button.
        self.extra_actions: list[dict[str, Any]] = []
        # Bot seats: seat -> {"level", "stand_in" (the owner is still named), "left"}.
        self.bots: dict[int, dict[str, Any]] = {}
        self.actions: list[tuple[int, dict[str, Any]]] = []  # (seat, action) as received
        self.outcome_requests: list[tuple[int, str]] = []  # (version, card) previews asked for

    @classmethod
    def find(
        cls, players: int, want: Any, expansion: bool = False, seeds: int = 400, start: int = 1
    ) -> Table:
        """A table at the first position of seeded random games where `want(state, legal)`,
        trying the seeds from `start` on, then those below it. `start`: a seed known to give
        such a position, for a rare one (the games before it are seconds of CPU); if the engine
        changes, the search still finds one, only later."""
        for seed in [*range(start, seeds), *range(1, min(start, seeds))]:
            t = cls(players, seed, expansion)
            rng = random.Random(seed)
            while not t.state.over:
                seat = to_act(t.state)
                acts = legal_actions(t.state, seat)
                if want(t.state, acts):
                    t.log.clear()
                    t.version = 0
                    return t
                places = [a for a in acts if a["type"] == "place"]
                missions = [a for a in acts if a["type"] == "mission"]
                pool = places if places and rng.random() < 0.9 else (missions or acts)
                t.state, _ = apply(t.state, rng.choice(pool), seat)
        raise AssertionError("no such position")

    def seat_json(self, seat: int, name: str) -> dict[str, Any]:
        """A seat as the real server's GameOut has it (bot level, stand-in, left)."""
        bot = self.bots.get(seat)
        owner = {"id": seat + 1, "display_name": name}
        if bot is None:
            return {"seat": seat, "player": owner, "bot_level": None, "left": False}
        return {
            "seat": seat,
            "player": owner if bot["stand_in"] else None,
            "bot_level": bot["level"],
            "bot_name": bot_name(1, seat),
            "stand_in_for": name if bot["stand_in"] else None,
            "left": bot.get("left", False),
        }

    def act(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply an action for `seat` and log it."""
        self.state, events = apply(self.state, action, seat)
        self.actions.append((seat, action))
        self.version += 1
        # The public log, as the real server's: secrets stripped for everyone.
        text = [describe(event_for(e, None)) for e in events]
        self.log.append({"seq": self.version, "seat": seat, "text": text})
        return events

    def advance(self, moves: int, rng: random.Random) -> None:
        """Play `moves` random actions (placements first) to reach a mid-game position."""
        for _ in range(moves):
            if self.state.over:
                return
            seat = to_act(self.state)
            acts = legal_actions(self.state, seat)
            places = [a for a in acts if a["type"] == "place"]
            self.act(seat, rng.choice(places or [a for a in acts if a["type"] != "pass"] or acts))
        while not self.state.over and (self.state.turn.phase != "place" or self.state.pending):
            seat = to_act(self.state)
            self.act(seat, next(a for a in legal_actions(self.state, seat) if a["type"] != "pass"))


def make_app(tables: dict[int, Table]) -> FastAPI:
    """The stub app: pages + static + the game endpoints for `tables`."""
    app = FastAPI()
    # The lobby page asks the database whether the reader has games (a returning player's come
    # first) and the settings for the quick-match words: the stub has no accounts (nobody is
    # signed in to the pages) and the default settings.
    app.state.settings = Settings()
    app.dependency_overrides[get_db] = lambda: None
    app.dependency_overrides[optional_user] = lambda: None
    # Pages in the reader's language, as the real server serves them.
    app.add_middleware(LanguageMiddleware)
    app.include_router(pages.router)
    app.include_router(pages_install.router)  # the manifest and the service worker every page links
    app.mount("/static", StaticFiles(directory=pages.STATIC_DIR), name="static")

    def table(game_id: int) -> Table:
        if game_id not in tables:
            raise HTTPException(404)
        return tables[game_id]

    # The Content-Security-Policy the real server is getting: a page that needs an inline
    # script, an inline handler or a style attribute breaks here, and the console says so.
    @app.middleware("http")
    async def csp(request: Any, call_next: Any) -> Any:
        response = await call_next(request)
        response.headers["content-security-policy"] = CSP
        return response

    @app.get("/api/me")
    def me() -> dict[str, Any]:
        return {"id": 1, "display_name": "Tester", "username": None, "guest": True}

    @app.get("/api/session")
    def session() -> dict[str, Any]:
        return {"user": me()}

    @app.get("/api/games/{game_id}")
    def game(game_id: int) -> dict[str, Any]:
        t = table(game_id)
        n = len(t.state.players)
        return {
            "id": game_id,
            "status": "finished" if t.state.over else "live",
            "visibility": "public",
            "players": n,
            "expansion": t.state.options.expansion,
            "host_id": 1,
            "invite_code": "x",
            "seats": [
                t.seat_json(i, name) for i, name in enumerate(["Ann", "Bo", "Cy", "Di", "Ed"][:n])
            ],
            "your_seat": None,
            "version": t.version,
            "to_act": to_act(t.state),
        }

    @app.get("/api/games/{game_id}/state")
    def state(game_id: int, invite_code: str | None = None) -> dict[str, Any]:
        t = table(game_id)
        seat = None if invite_code == "watch" or t.state.over else to_act(t.state)
        if t.state.over and invite_code != "watch":
            seat = 0
        return {
            "game_id": game_id,
            "version": t.version,
            "status": "live",
            "seat": seat,
            "to_act": to_act(t.state),
            "view": view_for(t.state, seat),
            # As on the real server: no decisions for a seat a bot is playing.
            "legal_actions": (legal_actions(t.state, seat) + t.extra_actions)
            if seat is not None and seat not in t.bots
            else [],
        }

    @app.post("/api/games/{game_id}/actions")
    def actions(game_id: int, body: dict[str, Any]) -> JSONResponse:
        t = table(game_id)
        if body.get("version") != t.version:
            return JSONResponse({"error": {"code": "stale_version", "message": "stale"}}, 409)
        try:
            events = t.act(to_act(t.state), body["action"])
        except EngineError as e:
            return JSONResponse({"error": {"code": e.code, "message": e.message}}, 400)
        return JSONResponse({"version": t.version, "events": events})

    @app.get("/api/games/{game_id}/outcomes")
    def outcomes(game_id: int, card: str, version: int) -> JSONResponse:
        """As the real server answers the seat to act (app/services/play/previews.py)."""
        t = table(game_id)
        if version != t.version:
            return JSONResponse({"error": {"code": "stale_version", "message": "stale"}}, 409)
        t.outcome_requests.append((version, card))
        try:
            found = preview.outcomes(t.state, to_act(t.state), card)
        except EngineError as e:
            return JSONResponse({"error": {"code": e.code, "message": e.message}}, 422)
        return JSONResponse({"version": t.version, "card": card, "outcomes": found})

    @app.get("/api/games/{game_id}/explain")
    def explain_action(game_id: int, version: int, action: str) -> JSONResponse:
        """As the real server answers the seat to act (app/services/play/previews.py)."""
        t = table(game_id)
        if version != t.version:
            return JSONResponse({"error": {"code": "stale_version", "message": "stale"}}, 409)
        why = explain(t.state, to_act(t.state), json.loads(action))
        reason = why.to_json() if why is not None else None
        return JSONResponse({"version": t.version, "legal": why is None, "reason": reason})

    @app.post("/api/games/{game_id}/seats/{seat}/reclaim")
    def reclaim(game_id: int, seat: int) -> dict[str, Any]:
        table(game_id).bots.pop(seat, None)
        return game(game_id)

    @app.get("/api/games/{game_id}/rematch")
    def rematch(game_id: int) -> dict[str, Any]:
        """As the real server answers while nobody offered a rematch."""
        table(game_id)
        return {"game_id": game_id, "rematch_id": None, "status": None, "seats": []}

    @app.get("/api/games/{game_id}/log")
    def log(game_id: int, since: int = 0) -> dict[str, Any]:
        t = table(game_id)
        return {
            "game_id": game_id,
            "version": t.version,
            "moves": [m for m in t.log if m["seq"] >= since],
        }

    return app
