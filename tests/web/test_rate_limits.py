"""Creation and chat limits shared by every instance through Redis."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from app.settings import Settings
from app.shared.errors import ServiceError
from app.web.throttle import Throttles
from tests.ops.private_services import private_redis


def _settings(tmp_path: Path, redis_url: str | None, **limits: object) -> Settings:
    # A database URL of its own: counters are namespaced by it, so runs sharing Redis differ.
    db = f"sqlite:///{tmp_path / secrets.token_hex(4)}.db"
    return Settings(
        database_url=db, data_dir=tmp_path, secret_key="x", redis_url=redis_url, **limits
    )


def test_chat_lines_are_limited_per_user(tmp_path: Path) -> None:
    chat = Throttles.from_settings(
        _settings(tmp_path, None, chat_limits_per_user="3/10seconds")
    ).chat
    assert [chat.allow(7) for _ in range(3)] == [None, None, None]
    wait = chat.allow(7)
    assert wait is not None and 0 < wait <= 10
    assert chat.allow(8) is None  # another user is not affected


def test_instances_sharing_redis_share_chat_and_creation_limits(
    tmp_path: Path, redis_url: str
) -> None:
    settings = _settings(
        tmp_path, redis_url, chat_limits_per_user="4/minute", guest_limits_per_address="2/minute"
    )
    one, two = Throttles.from_settings(settings), Throttles.from_settings(settings)
    for throttles in (one, two, one, two):
        assert throttles.chat.allow(42) is None
    assert one.chat.allow(42) is not None and two.chat.allow(42) is not None
    one.admit_guest("203.0.113.50")
    two.admit_guest("203.0.113.50")
    with pytest.raises(ServiceError) as err:
        one.admit_guest("203.0.113.50")
    assert err.value.code == "too_many_guests" and err.value.retry_after
    # Another deployment (another database) on the same Redis counts on its own.
    other = Throttles.from_settings(_settings(tmp_path, redis_url, chat_limits_per_user="4/minute"))
    assert other.chat.allow(42) is None


@pytest.mark.server
def test_chat_limiter_fails_open_when_redis_is_down(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with private_redis() as redis:
        chat = Throttles.from_settings(
            _settings(tmp_path, redis.url, chat_limits_per_user="1/minute")
        ).chat
        assert chat.allow(1) is None
        assert chat.allow(1) is not None
        redis.stop()
        assert chat.allow(1) is None  # allowed, and logged
    assert any("letting it through" in r.getMessage() for r in caplog.records)
