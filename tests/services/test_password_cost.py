"""Passwords are hashed at the cost the settings give (SEADRAGONS_PASSWORD_HASH_TIME_COST,
_MEMORY_KIB), a hash of another cost still signs in and is hashed again at this one, and an
unknown username costs a verification at the same cost as a known one."""

from __future__ import annotations

import pytest
from argon2 import extract_parameters
from sqlalchemy import create_engine, select

from app.db.migrate import upgrade_to_head
from app.db.models.accounts import User
from app.db.session import make_sessionmaker
from app.services.accounts import users
from app.settings import Settings
from app.shared.errors import ServiceError
from app.shared.passwords import MEMORY_KIB, TIME_COST, Passwords


def test_the_default_cost_is_argon2_cffis_own() -> None:
    fields = Settings.model_fields
    assert fields["password_hash_time_cost"].default == TIME_COST == 3
    assert fields["password_hash_memory_kib"].default == MEMORY_KIB == 65536
    params = extract_parameters(Passwords().dummy_hash)
    assert (params.time_cost, params.memory_cost) == (3, 65536)


def test_a_hash_of_another_cost_signs_in_and_is_hashed_again(sqlite_url: str) -> None:
    engine = create_engine(sqlite_url)
    upgrade_to_head(engine=engine)
    old = make_sessionmaker(engine, passwords=Passwords(1, 1024))
    new = make_sessionmaker(engine, passwords=Passwords(2, 2048))
    with old() as db:
        users.register(db, "ann", "correct horse", None, None)

    def stored() -> tuple[int, int]:
        with new() as db:
            found = extract_parameters(db.scalar(select(User.password_hash)))
            return found.time_cost, found.memory_cost

    assert stored() == (1, 1024)
    with new() as db:
        users.login(db, "ann", "correct horse", None)
    assert stored() == (2, 2048)
    with new() as db, pytest.raises(ServiceError) as wrong:
        users.login(db, "ann", "wrong horse", None)
    assert wrong.value.code == "bad_credentials"
    # The dummy an unknown username is checked against has the same cost as a real hash.
    with new() as db:
        dummy = extract_parameters(db.info["passwords"].dummy_hash)
    assert (dummy.time_cost, dummy.memory_cost) == (2, 2048)
    engine.dispose()
