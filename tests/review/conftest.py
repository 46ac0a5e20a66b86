"""Finished games to analyse, played quickly by greedy bots."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from app.bots import make_bot
from app.engine import GameOptions, apply, legal_actions, new_game, to_act, view_for
from app.review import GameRecord
from tests.services.conftest import db, engine, live_game, make_user, sessions

__all__ = ["db", "engine", "live_game", "make_user", "sessions"]  # fixtures, shared


@cache
def greedy_game(players: int = 2, seed: int = 5, expansion: bool = False) -> GameRecord:
    """A whole game between greedy bots, as a record the review replays."""
    options = GameOptions(players=players, expansion=expansion)
    state = new_game(options, seed)
    bots = [make_bot("greedy", random.Random(seed * 10 + s)) for s in range(players)]
    moves = []
    while not state.over:
        seat = to_act(state)
        action = bots[seat].choose(view_for(state, seat), legal_actions(state, seat))
        moves.append((seat, action))
        state, _ = apply(state, action, seat)
    return GameRecord(f"test-{players}-{seed}-{int(expansion)}", options, seed, moves)


def play_to_the_end(db: Any, game_id: int, stop_before: int | None = None) -> None:
    """Play a started game's seats with greedy bots through the service (its version checks),
    to the end or until `stop_before` moves are in."""
    from app.db.models.games import Game
    from app.services.play.games import load_state
    from tests.moves import play_seat

    bots = [make_bot("greedy", random.Random(s)) for s in range(5)]
    while True:
        db.expire_all()
        game = db.get(Game, game_id)
        state = load_state(db, game)
        if state.over or (stop_before is not None and game.version >= stop_before):
            return
        seat = to_act(state)
        action = bots[seat].choose(view_for(state, seat), legal_actions(state, seat))
        play_seat(db, game_id, seat, game.version, action)
