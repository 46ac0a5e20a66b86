"""`seadragons simulate`: play whole games between bots and summarise them as one JSON object."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from app.bots import make_bot
from app.engine import (
    GameOptions,
    State,
    apply,
    final_scores,
    is_over,
    legal_actions,
    new_game,
    to_act,
    view_for,
)

# What a benchmark or a test may watch: (seat, legal actions, action chosen, seconds to choose).
Observer = Callable[[int, list[dict[str, Any]], dict[str, Any], float], None]


def play_out(
    options: GameOptions,
    seed: int,
    bots: list[Any],
    observe: Observer | None = None,
    before: Callable[[State], None] | None = None,
) -> tuple[State, list[list[Any]]]:
    """Play a game to the end, each seat's bot choosing from its own view and the legal actions.

    Returns the final state and the moves as [seat, action]. A bot whose `needs_view` is false
    (the random one) is not given a view: building one costs about a third of a random step.
    `before` sees the state before each decision (what a training script records).
    """
    state = new_game(options, seed)
    moves: list[list[Any]] = []
    while not is_over(state):
        if before is not None:
            before(state)
        seat = to_act(state)
        bot = bots[seat]
        legal = legal_actions(state, seat)
        view = view_for(state, seat) if getattr(bot, "needs_view", True) else None
        started = time.perf_counter()
        action = bot.choose(view, legal)
        if observe is not None:
            observe(seat, legal, action, time.perf_counter() - started)
        state, _ = apply(state, action, seat)
        moves.append([seat, action])
    return state, moves


def play_game(
    options: GameOptions, seed: int, levels: list[str]
) -> tuple[dict[str, Any], list[list[Any]], int]:
    """Play one game; returns its final scores, its moves as [seat, action], and turns played."""
    rng = random.Random(seed ^ 0x5EAD)
    bots = [make_bot(level, random.Random(rng.random())) for level in levels]
    state, moves = play_out(options, seed, bots)
    return final_scores(state), moves, state.turn.number


def simulate(
    players: int,
    games: int,
    seed: int,
    expansion: bool = False,
    levels: list[str] | None = None,
    record: Any = None,
) -> dict[str, Any]:
    """Play `games` games and return the summary (timing keys contain 'seconds' or 'per_s')."""
    levels = levels or ["random"] * players
    if len(levels) != players:
        raise ValueError(f"--bots names {len(levels)} levels for {players} players")
    options = GameOptions(players=players, expansion=expansion)
    seeds = random.Random(seed)
    turns = 0
    totals: Counter[str] = Counter()
    wins = [0.0] * players
    level_wins: Counter[str] = Counter()
    level_seats: Counter[str] = Counter(levels)
    started = time.perf_counter()
    for _ in range(games):
        game_seed = seeds.getrandbits(32)
        scores, moves, game_turns = play_game(options, game_seed, levels)
        turns += game_turns
        for p in scores["players"]:
            totals.update(p["categories"])
            totals["total"] += p["total"]
        share = 1 / len(scores["winners"])
        for seat in scores["winners"]:
            wins[seat] += share
            level_wins[levels[seat]] += share
        if record is not None:
            line = {
                "options": options.to_dict(),
                "seed": game_seed,
                "bots": levels,
                "actions": moves,
                "scores": scores,
            }
            record.write(json.dumps(line) + "\n")
    elapsed = time.perf_counter() - started
    n = games * players
    summary: dict[str, Any] = {
        "games": games,
        "players": players,
        "expansion": expansion,
        "bots": levels,
        "mean_turns": round(turns / games, 3) if games else 0,
        "mean_scores": {k: round(v / n, 3) for k, v in sorted(totals.items())} if n else {},
        "win_share_by_seat": [round(w / games, 4) for w in wins] if games else [],
        "win_rate": {lvl: round(level_wins[lvl] / games, 4) for lvl in sorted(level_seats)}
        if games
        else {},
        "elapsed_seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 2) if elapsed else None,
    }
    return summary


def run_from_args(args: argparse.Namespace) -> int:
    """The `simulate` subcommand."""
    levels = args.bots.split(",") if args.bots else None
    record = open(args.record, "w") if args.record else None  # noqa: SIM115
    try:
        summary = simulate(args.players, args.games, args.seed, args.expansion, levels, record)
    except ValueError as exc:
        print(f"seadragons simulate: {exc}", file=sys.stderr)
        return 2
    finally:
        if record is not None:
            record.close()
    print(json.dumps(summary, sort_keys=True))
    return 0
