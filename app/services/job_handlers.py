"""The background job kinds this server runs (app/services/jobs.py): kind -> handler.

One line per kind; the handler's module owns the work and the key it enqueues with.
"""

from __future__ import annotations

from app.services import ratings
from app.services.jobs import Handler


def job_handlers() -> dict[str, Handler]:
    """Every job kind the app's runner claims."""
    return {ratings.KIND: ratings.results_job}
