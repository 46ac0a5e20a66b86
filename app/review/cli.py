"""`seadragons analyse`: the analysis of finished games, as the JSON the API serves."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any

from app.shared.errors import ServiceError

from .game import NotFinished, analyse_game


def add_parser(sub: Any) -> None:
    """The `analyse` subcommand's arguments."""
    cmd = sub.add_parser("analyse", help="analyse finished games and print the JSON the API serves")
    cmd.add_argument("game_id", nargs="?", type=int, help="a finished game in the database")
    cmd.add_argument(
        "--recorded", default=None, help="a JSON-lines file from `seadragons simulate --record`"
    )
    cmd.add_argument("--rounds", type=int, default=None, help="override SEADRAGONS_REVIEW_ROUNDS")


def run_from_args(args: argparse.Namespace) -> int:
    """Print one JSON document per game (one line each); 2 on bad input, nothing printed."""
    from app.settings import get_settings

    from .source import review_settings

    if (args.game_id is None) == (args.recorded is None):
        print("seadragons analyse: give a GAME_ID or --recorded FILE", file=sys.stderr)
        return 2
    try:
        settings = review_settings(get_settings())
        if args.rounds is not None:
            settings = dataclasses.replace(settings, rounds=args.rounds)
        records = _recorded(args.recorded) if args.recorded else [_from_db(args.game_id)]
        for record in records:
            print(json.dumps(analyse_game(record, settings), sort_keys=True), flush=True)
    except (ValueError, OSError, ServiceError) as exc:  # NotFinished is a ValueError
        kind = "not finished" if isinstance(exc, NotFinished) else "error"
        print(f"seadragons analyse: {kind}: {exc}", file=sys.stderr)
        return 2
    return 0


def _recorded(path: str) -> list[Any]:
    from .source import records_from_lines

    with open(path) as f:
        return list(records_from_lines(f))


def _from_db(game_id: int) -> Any:
    from app.db.session import make_engine, make_sessionmaker
    from app.settings import get_settings

    from .source import record_from_db

    engine = make_engine(get_settings().resolved_database_url())
    try:
        with make_sessionmaker(engine)() as db:
            return record_from_db(db, game_id)
    finally:
        engine.dispose()
