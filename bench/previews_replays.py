"""What placement previews and replays cost the server: the engine work behind
GET /api/games/{id}/outcomes and GET /api/games/{id}/replay, without HTTP.

Random seeded games; at every placement step every hand card is previewed
(`engine.preview.outcomes`: one `apply` per legal placement). Then each game's replay is built
as app/services/watching/replays.py builds it (`replay_view` per position, diffed).

    nice -n 10 .venv/bin/python bench/previews_replays.py --games 3
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine import GameOptions, apply, legal_actions, new_game, replay_view, to_act
from app.engine.preview import outcomes
from app.shared.diff import diff


def one_game(players: int, expansion: bool, seed: int) -> tuple[list[float], list[int], float, int]:
    rng = random.Random(seed)
    options = GameOptions(players=players, expansion=expansion)
    s = new_game(options, seed)
    times, counts, moves = [], [], []
    while not s.over:
        seat = to_act(s)
        if s.turn.phase == "place" and not s.pending:
            for card in dict.fromkeys(s.players[seat].hand):
                began = time.perf_counter()
                counts.append(len(outcomes(s, seat, card)))
                times.append(time.perf_counter() - began)
        action = rng.choice(legal_actions(s, seat))
        moves.append((seat, action))
        s, _ = apply(s, action, seat)
    began = time.perf_counter()
    state = new_game(options, seed)
    doc = replay_view(state)
    for seat, action in moves:
        state, _ = apply(state, action, seat)
        new = replay_view(state)
        diff(doc, new)
        doc = new
    return times, counts, time.perf_counter() - began, len(moves)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for players, expansion in ((3, False), (4, True)):
        times, counts, builds = [], [], []
        for seed in range(args.games):
            t, c, build, moves = one_game(players, expansion, seed)
            times += t
            counts += c
            builds.append((build, moves))
        times.sort()
        p95 = times[int(0.95 * (len(times) - 1))]
        print(
            f"{players}p {'expansion' if expansion else 'base'}: {len(times)} previews, "
            f"placements median {statistics.median(counts):.0f} max {max(counts)}; "
            f"ms median {1000 * statistics.median(times):.1f} p95 {1000 * p95:.1f} "
            f"max {1000 * times[-1]:.1f}; replay build ms "
            + ", ".join(f"{1000 * b:.0f} ({m} moves)" for b, m in builds)
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
