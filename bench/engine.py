"""Engine benchmarks: (a) legal placements of a full hand on mid-game boards, (b) random games.

Run: .venv/bin/python bench/engine.py [--positions 200] [--games 40]
Prints one JSON object; docs/benchmarks.md records the figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

from app.engine import GameOptions, apply, legal_actions, new_game, to_act
from app.engine.legal import placement_actions, placement_masks


def mid_game_positions(count: int, seed: int) -> list:
    """Positions from random games, halfway through, at the start of a turn."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        players = rng.randint(2, 5)
        s = new_game(GameOptions(players=players), rng.getrandbits(32))
        target = rng.randint(12, 22)  # about half of a game's turns
        while not s.over and not (
            s.turn.number >= target and s.turn.phase == "place" and not s.pending
        ):
            seat = to_act(s)
            s, _ = apply(s, rng.choice(legal_actions(s, seat)), seat)
        if not s.over and len(s.players[s.turn.seat].hand) == 2:
            positions.append(s)
    return positions


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def bench_placements(positions: list) -> dict:
    """Median and p90 time to enumerate every legal placement of the hand (masks / actions)."""
    masks_t, actions_t, counts = [], [], []
    for s in positions:
        hand = s.players[s.turn.seat].hand
        t0 = time.perf_counter()
        n = sum(len(placement_masks(s, c)) for c in hand)
        t1 = time.perf_counter()
        placement_actions(s)
        t2 = time.perf_counter()
        masks_t.append(t1 - t0)
        actions_t.append(t2 - t1)
        counts.append(n)
    q = lambda xs: statistics.quantiles(xs, n=10)[-1]  # noqa: E731
    return {
        "positions": len(positions),
        "median_placements": statistics.median(counts),
        "masks_median_ms": _ms(statistics.median(masks_t)),
        "masks_p90_ms": _ms(q(masks_t)),
        "actions_median_ms": _ms(statistics.median(actions_t)),
        "actions_p90_ms": _ms(q(actions_t)),
    }


def bench_games(players: int, games: int, seed: int, expansion: bool = False) -> dict:
    """Median seconds per random full game (legal_actions + apply every step)."""
    rng = random.Random(seed)
    times, steps = [], []
    for _ in range(games):
        s = new_game(GameOptions(players=players, expansion=expansion), rng.getrandbits(32))
        n = 0
        t0 = time.perf_counter()
        while not s.over:
            seat = to_act(s)
            s, _ = apply(s, rng.choice(legal_actions(s, seat)), seat)
            n += 1
        times.append(time.perf_counter() - t0)
        steps.append(n)
    med = statistics.median(times)
    return {
        "players": players,
        "expansion": expansion,
        "games": games,
        "median_game_ms": _ms(med),
        "games_per_s": round(1 / med, 1),
        "median_actions": statistics.median(steps),
        "median_action_us": round(med / statistics.median(steps) * 1e6, 1),
    }


def main() -> None:
    """Run both benchmarks and print a JSON report."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    report = {
        "python": platform.python_version(),
        "placements": bench_placements(mid_game_positions(args.positions, args.seed)),
        "games": [bench_games(p, args.games, args.seed) for p in (2, 3, 4, 5)]
        + [bench_games(4, args.games, args.seed, expansion=True)],
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
