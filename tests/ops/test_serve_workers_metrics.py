"""`seadragons serve --workers N` shares the workers' metrics: /metrics adds every process up."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from app import main


def test_several_workers_get_a_shared_metrics_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    monkeypatch.setenv("SEADRAGONS_DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite'}")
    monkeypatch.setenv("SEADRAGONS_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("SEADRAGONS_REDIS_URL", "redis://127.0.0.1:6379/15")
    monkeypatch.setenv("SEADRAGONS_SECRET_KEY", "test")
    # serve() hands its workers these through the environment: set here first, so the test's
    # teardown restores them (left behind, every later app in this process skips its migrations).
    monkeypatch.setenv("SEADRAGONS_MIGRATE_ON_START", "true")
    started: list[dict[str, Any]] = []
    monkeypatch.setattr("uvicorn.run", lambda *a, **kw: started.append(kw))
    try:
        assert main.serve("127.0.0.1", 0, workers=2) == 0
        shared = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
        assert started and started[0]["workers"] == 2
        assert shared and Path(shared).is_dir() and not any(Path(shared).iterdir())
        assert os.environ["SEADRAGONS_MIGRATE_ON_START"] == "false"  # migrated once, here
    finally:
        shared = os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
        if shared:
            Path(shared).rmdir()
