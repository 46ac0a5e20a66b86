"""Service tests on a FakeClock: a test module that imports `clock` and `sessions` from here
has its sessions (and the shared `db`, made from them) read the test's clock, which moves only
when the test moves it."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from app.db.session import make_sessionmaker
from app.shared.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    """The test's clock."""
    return FakeClock()


@pytest.fixture
def sessions(engine: Engine, clock: FakeClock) -> sessionmaker[Session]:
    """The app's session factory on the test's clock."""
    return make_sessionmaker(engine, clock=clock)
