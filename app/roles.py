"""Which process runs what: the web role (HTTP pages and API, game sockets) and the background
work that is neither a socket nor a page.

`seadragons serve` is role "all" by default (everything in one process: the embedded one-command
set-up) or "web" (`SEADRAGONS_ROLE=web`: HTTP and sockets only). `seadragons worker`
(app/worker.py) runs the background work and no HTTP. Both build the same parts from the same
context, here, so the lifespan of `serve` and the worker start one list:

- bots: plays bot seats (app/services/botseats/runner.py);
- deadlines: turns whose clock ran out (app/services/play/deadlines.py);
- mailer: the email outbox (app/services/notices/mailer.py);
- jobs: the durable job queue, e.g. results and ratings, "your turn" pushes (app/infra/jobs.py);
- push_relay: moves due "your turn" push notices from the outbox to the job queue
  (app/services/notices/push.py);
- analysis_jobs: game analyses, with their niced processes (app/services/reviews/analysis.py).

Every part is safe to run in any number of processes at once: bot moves are committed against
a version and a held seat (one wins), deadlines, mail and jobs are claimed with leases (a dead
process's claim runs out and another takes it over).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from app.infra.jobs import JobRunner
from app.infra.jobs import runner_for as job_runner_for
from app.review.pool import AnalysisPool
from app.services.botseats.runner import BotRunner
from app.services.botseats.runner import runner_for as bot_runner_for
from app.services.notices import push
from app.services.notices.mailer import MailSender, sender_for
from app.services.notices.vapid import vapid_keys
from app.services.play.deadlines import DeadlineSweeper, sweeper_for
from app.services.reviews import analysis
from app.services.reviews.job_handlers import job_handlers

ROLES = ("all", "web", "worker")
# The background parts each role starts, in start order (stopped in reverse).
PARTS = ("bot_runner", "deadlines", "mailer", "jobs", "push_relay", "analysis_jobs")
STARTS: dict[str, tuple[str, ...]] = {"all": PARTS, "web": (), "worker": PARTS}


def serves_http(role: str) -> bool:
    """Whether a process of this role answers HTTP and sockets."""
    return role in ("all", "web")


@dataclass
class Background:
    """One process's background parts (built whatever the role; only the role's are started)."""

    bot_runner: BotRunner
    deadlines: DeadlineSweeper
    mailer: MailSender
    jobs: JobRunner
    push_relay: push.PushRelay
    analysis_jobs: JobRunner
    analysis_pool: AnalysisPool
    started: tuple[str, ...] = ()

    async def start(self, role: str) -> None:
        """Start the parts `role` runs."""
        if role not in STARTS:
            raise ValueError(f"unknown role {role!r}: one of {', '.join(ROLES)}")
        for name in STARTS[role]:
            await getattr(self, name).start()
            self.started = (*self.started, name)

    async def stop(self) -> None:
        """Stop what was started, last first; the analysis processes are closed in any case."""
        for name in reversed(self.started):
            await getattr(self, name).stop()
        self.started = ()
        self.analysis_pool.close()

    def wake_jobs(self) -> None:
        """Look for jobs now (a game finished: its results job is due)."""
        self.jobs.wake()
        self.analysis_jobs.wake()


def build_background(
    context: Any,
    turn_lease: Callable[[int, int], Awaitable[bool]] | None = None,
    vapid: Any = None,
) -> Background:
    """The background parts of a process, from its context (app/context.py). `turn_lease`:
    asked before a bot decides a turn (workers share one, so a turn is thought about once).
    `vapid`: the Web Push key the push jobs sign with (else read or made from the settings)."""
    settings = context.settings
    jobs = job_runner_for(
        context.sessions, settings, job_handlers(settings, vapid or vapid_keys(settings))
    )
    runner = bot_runner_for(context, settings)
    runner.turn_lease = turn_lease
    analysis_jobs, pool = analysis.runner_for(context.sessions, settings)
    background = Background(
        bot_runner=runner,
        deadlines=sweeper_for(context.sessions, context.notifier, settings),
        mailer=sender_for(context.sessions, settings),
        jobs=jobs,
        push_relay=push.PushRelay(context.sessions, settings, jobs.wake),
        analysis_jobs=analysis_jobs,
        analysis_pool=pool,
    )
    # A game's end enqueued its results job: run it now rather than at the next poll.
    context.notifier.on_game_changed.append(
        lambda _gid, _v, move: (
            background.wake_jobs() if move is not None and move.status == "finished" else None
        )
    )
    return background
