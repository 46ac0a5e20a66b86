"""Prometheus metrics of one server process, served at `/metrics` (see docs/operations.md).

The realtime layer sets the socket and room gauges; the services count moves and time bots;
the web layer counts error answers by code. With several worker processes, set
PROMETHEUS_MULTIPROC_DIR (an empty directory, before the process starts): every process then
writes its values there and `/metrics` adds them up.
"""

from __future__ import annotations

import os
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    start_http_server,
)

# Seconds; moves commit in milliseconds, bots think for up to their budget.
_MOVE_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_BOT_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)

MOVES_APPLIED = Counter(
    "seadragons_moves_applied", "Moves committed (by people and bots, over HTTP or sockets)"
)
MOVE_LATENCY = Histogram(
    "seadragons_move_seconds",
    "Time to apply one move with the engine and commit it",
    buckets=_MOVE_BUCKETS,
)
OPEN_SOCKETS = Gauge(
    "seadragons_open_sockets", "Game sockets open on this process", multiprocess_mode="livesum"
)
LIVE_ROOMS = Gauge(
    "seadragons_live_rooms",
    "Games with at least one socket on this process",
    multiprocess_mode="livesum",
)
ROOM_UPDATES = Counter(
    "seadragons_room_updates",
    "Game changes fanned out to sockets, by how the room learnt them: local (a commit in this "
    "process), replay (another instance's move replayed from the bus), reload (read back)",
    ["source"],
)
BUS_MESSAGES = Counter(
    "seadragons_bus_messages",
    "Messages on the Redis bus: published by this process, and received from it (its own "
    "included: a process subscribed to a game's channel hears its own moves too)",
    ["direction"],
)
ERRORS = Counter(
    "seadragons_errors",
    "Error answers by stable code; transport is http or ws",
    ["code", "transport"],
)
BOT_DECISION = Histogram(
    "seadragons_bot_decision_seconds",
    "Time a bot took to choose one action",
    ["level"],
    buckets=_BOT_BUCKETS,
)


def count_error(code: str, transport: str = "http") -> None:
    """Count one error answer with this stable code."""
    ERRORS.labels(code=code, transport=transport).inc()


def _registry() -> CollectorRegistry:
    """This process's metrics, or every process's in multiprocess mode."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return registry
    return REGISTRY


def render() -> tuple[bytes, str]:
    """The exposition text and its content type (see `_registry`)."""
    return generate_latest(_registry()), CONTENT_TYPE_LATEST


def serve_metrics(host: str, port: int) -> Any:
    """Serve /metrics on a listener of its own (a daemon thread) until the process ends.

    For `SEADRAGONS_METRICS_PORT`: a port the public proxy does not route to, so metrics need
    no token. With several worker processes it runs in the parent and adds theirs up
    (PROMETHEUS_MULTIPROC_DIR). Returns the HTTP server (tests shut it down).
    """
    server, _thread = start_http_server(port, addr=host, registry=_registry())
    return server
