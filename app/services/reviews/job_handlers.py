"""The background job kinds this server runs (app/infra/jobs.py): kind -> handler.

One line per kind; the handler's module owns the work and the key it enqueues with.
"""

from __future__ import annotations

from typing import Any

from app.infra.jobs import Handler
from app.services.notices import push
from app.services.ratings import results as ratings


def job_handlers(settings: Any = None, vapid: Any = None) -> dict[str, Handler]:
    """Every job kind the app's runner claims. Pushes need the settings (their timeout, the
    VAPID key: `vapid`, else the settings' own); without them (the ratings' tests) none."""
    handlers: dict[str, Handler] = {ratings.KIND: ratings.results_job}
    if settings is not None:
        handlers[push.KIND] = push.push_job(settings, push.PushSender(settings, vapid))
    return handlers
