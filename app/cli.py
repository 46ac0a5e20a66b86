"""The `seadragons` command: simulate games, run the server or a worker, apply migrations,
analyse games."""

from __future__ import annotations

import argparse
import sys


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="seadragons", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play games between bots and print a JSON summary")
    sim.add_argument("--players", type=int, default=4, choices=range(2, 6))
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--expansion", action="store_true", help="play with Treasures of the Deep")
    sim.add_argument("--bots", default=None, help="comma-separated bot level per seat")
    sim.add_argument("--record", default=None, help="write one JSON line per game to this file")

    serve = sub.add_parser("serve", help="run the web server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--workers", type=int, default=1, help="processes sharing the port (needs Redis if > 1)"
    )

    sub.add_parser(
        "worker",
        help="run the background work (bots, deadlines, mail, jobs, analyses) without HTTP",
    )

    sub.add_parser("migrate", help="apply pending database migrations")

    rating = sub.add_parser("ratings", help="ratings maintenance")
    rating_sub = rating.add_subparsers(dest="ratings_command", required=True)
    rating_sub.add_parser(
        "recompute",
        help="rebuild every rating from the stored game results (same rules, same numbers)",
    )
    job = sub.add_parser("jobs", help="background jobs")
    job_sub = job.add_subparsers(dest="jobs_command", required=True)
    job_sub.add_parser("run", help="run every due background job once, then exit")
    from app.review.cli import add_parser as add_analyse

    add_analyse(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    args = _parser().parse_args(argv)
    if args.command == "simulate":
        from app.simulate import run_from_args

        return run_from_args(args)
    if args.command == "serve":
        from app.main import serve

        return serve(args.host, args.port, args.workers)
    if args.command == "worker":
        from app.worker import main as worker

        return worker()
    if args.command == "analyse":
        from app.review.cli import run_from_args as analyse

        return analyse(args)
    if args.command == "migrate":
        from app.db.migrate import upgrade_to_head

        upgrade_to_head()
        return 0
    if args.command in ("ratings", "jobs"):
        return _maintenance(args)
    return 2


def _maintenance(args: argparse.Namespace) -> int:
    """`seadragons ratings recompute` and `seadragons jobs run`, on the configured database."""
    import json

    from app.db.migrate import upgrade_to_head
    from app.db.session import make_engine, make_sessionmaker
    from app.infra import jobs
    from app.services.ratings import results as ratings
    from app.services.reviews.job_handlers import job_handlers
    from app.settings import get_settings

    settings = get_settings()
    engine = make_engine(settings.resolved_database_url())
    try:
        upgrade_to_head(engine=engine)
        sessions = make_sessionmaker(engine)
        if args.command == "ratings":
            with sessions() as db:
                print(json.dumps(ratings.recompute(db)))
            return 0
        runner = jobs.runner_for(sessions, settings, job_handlers(settings))
        print(json.dumps({"ran": runner.run_due(), **runner.finished}))
        return 0
    finally:
        engine.dispose()


if __name__ == "__main__":
    sys.exit(main())
