"""What "why not here" and hints cost the server: the engine work behind
GET /api/games/{id}/explain and POST /api/games/{id}/hint, without HTTP.

Seeded random games; at every placement step the ghost is put on random squares of each hand
card's shape (mostly illegal, as a ghost moving over the board is) and `engine.explain` asked;
every few placement steps a hint is computed as app/services/play/hints.py does, in this process.

    nice -n 10 .venv/bin/python bench/explain_hint.py --games 2
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

from app.engine import GameOptions, apply, explain, legal_actions, new_game, to_act
from app.engine.board import squares_of
from app.engine.content import content
from app.engine.shapes import placements
from app.infra.bot_pool import WorkerProcesses
from app.services.play.hints import hint_for
from app.settings import Settings


def one_game(players: int, expansion: bool, seed: int, settings: Settings):
    rng = random.Random(seed)
    s = new_game(GameOptions(players=players, expansion=expansion), seed)
    explains, hints, placing = [], [], 0
    while not s.over:
        seat = to_act(s)
        if s.turn.phase == "place" and not s.pending:
            placing += 1
            for card in dict.fromkeys(s.players[seat].hand):
                for m in rng.sample(placements(content().pattern_shape[card]), 20):
                    cells = [list(sq) for sq in squares_of(m)]
                    action = {"type": "place", "card": card, "cells": cells, "head": cells[0]}
                    began = time.perf_counter()
                    explain(s, seat, action)
                    explains.append(time.perf_counter() - began)
            if placing % 6 == 1:
                began = time.perf_counter()
                hint_for(s, seat, seed, placing, settings, WorkerProcesses(0))
                hints.append(time.perf_counter() - began)
        s, _ = apply(s, rng.choice(legal_actions(s, seat)), seat)
    return explains, hints


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    settings = Settings(database_url="sqlite://", secret_key="bench", bot_processes=0)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for players, expansion in ((3, False), (4, True)):
        explains, hints = [], []
        for g in range(args.games):
            e, h = one_game(players, expansion, 100 + g, settings)
            explains += e
            hints += h
        ms = sorted(x * 1000 for x in explains)
        hs = sorted(x * 1000 for x in hints)
        print(
            f"{players} players, {'expansion' if expansion else 'base'}: "
            f"{len(ms)} explains, ms median {statistics.median(ms):.2f} "
            f"p95 {ms[int(len(ms) * 0.95)]:.2f} max {ms[-1]:.2f}; "
            f"{len(hs)} hints, ms median {statistics.median(hs):.0f} max {hs[-1]:.0f}"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
