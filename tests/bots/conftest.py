"""Helpers for the bot tests: positions reached by play, and whole games between bots."""

from __future__ import annotations

import random
from typing import Any

from app.bots import make_bot
from app.engine import GameOptions, State, apply, is_over, legal_actions, new_game, to_act, view_for

Json = dict[str, Any]


def expert(seed: int, rounds: int | None = 1, budget_s: float = 30.0) -> Any:
    """A small expert: `rounds` bounds the search so its choices are reproducible."""
    from app.bots.expert import ExpertBot

    return ExpertBot(random.Random(seed), budget_s=budget_s, rounds=rounds)


def learned(seed: int, rounds: int = 2, budget_s: float = 30.0) -> Any:
    """A small learned expert: `rounds` bounds the search so its choices are reproducible."""
    from app.bots.expert_learned import LearnedExpertBot

    return LearnedExpertBot(random.Random(seed), budget_s=budget_s, rounds=rounds)


def searcher(level: str, seed: int) -> Any:
    """The bot of `level` for the view-only tests: the experts with a small fixed search."""
    if level in ("expert", "expert_v1"):
        return expert(seed, rounds=2)
    if level == "expert_learned":
        return learned(seed, rounds=2)
    return make_bot(level, random.Random(seed))


def mid_game(
    players: int, seed: int, moves: int, level: str = "greedy", expansion: bool = False
) -> State:
    """The state after `moves` actions of a game played by `level` bots."""
    state = new_game(GameOptions(players=players, expansion=expansion), seed)
    bots = [make_bot(level, random.Random(seed * 7 + s)) for s in range(players)]
    for _ in range(moves):
        if is_over(state):
            break
        seat = to_act(state)
        action = bots[seat].choose(view_for(state, seat), legal_actions(state, seat))
        state, _ = apply(state, action, seat)
    return state


def play_out(state: State, bots: list[Any], check: bool = True) -> State:
    """Play to the end; with `check`, every choice must be an element of the legal list."""
    while not is_over(state):
        seat = to_act(state)
        legal = legal_actions(state, seat)
        action = bots[seat].choose(view_for(state, seat), legal)
        if check:
            assert action in legal, f"seat {seat} chose an illegal action {action}"
        state, _ = apply(state, action, seat)
    return state
