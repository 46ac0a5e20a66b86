"""The service layer's error: a stable code and a message; web and socket layers map codes."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A refused request; nothing was changed. `code` is stable, `message` is for people.

    `retry_after` (seconds) is set when waiting helps (rate limits); HTTP sends it as Retry-After.
    `reason` (`{code, facts, text}`) says which rule refused an action (app/engine/explain.py).
    """

    def __init__(
        self,
        code: str,
        message: str,
        retry_after: float | None = None,
        reason: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retry_after = retry_after
        self.reason = reason
