"""The background job kinds this server runs (app/infra/jobs.py): kind -> handler.

One line per kind; the handler's module owns the work and the key it enqueues with.
"""

from __future__ import annotations

from app.infra.jobs import Handler
from app.services.ratings import results as ratings


def job_handlers() -> dict[str, Handler]:
    """Every job kind the app's runner claims."""
    return {ratings.KIND: ratings.results_job}
