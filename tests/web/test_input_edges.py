"""Text and types at the edge: control characters, strict JSON types, the schema's rules, 405s.

Run on SQLite and Postgres (the `database_url` fixture): Postgres cannot store U+0000 at all, so
there a NUL byte used to reach the driver and come back as a 500.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from app.services.accounts import users
from app.services.tables import lookalikes
from app.shared.errors import ServiceError
from app.web.inputs import CONTROL, has_control
from tests.tiers import examples

Factory = Callable[..., TestClient]


def _code(response: Any) -> str:
    return response.json()["error"]["code"]


def test_nul_bytes_are_refused_at_the_edge_not_500(client_factory: Factory) -> None:
    """The three probes of the report, and the same for every kind of text input."""
    anonymous = client_factory()
    r = anonymous.post("/api/session/login", json={"username": "a\u0000b", "password": "x" * 8})
    assert r.status_code == 422, r.text
    r = anonymous.get("/api/invites/a%00b")
    assert r.status_code == 422 and _code(r) == "invalid_request", r.text
    ann = client_factory()
    assert ann.post("/api/users", json={"username": "ann", "password": "sea dragons"}).is_success
    r = ann.post("/api/me/email", json={"email": "a\u0000b@example.org"})
    assert r.status_code == 422, r.text
    for path, body in [
        ("/api/session/guest", {"name": "Ne\u0000ssie"}),
        ("/api/session/guest", {"name": "Nessie\u001b"}),
        ("/api/users", {"username": "bob", "password": "pass\u0000word"}),
        ("/api/games", {"players": 2, "visibility": "pub\u0000lic"}),
        ("/api/games/1/join", {"invite_code": "ab\u0000"}),
        ("/api/games/1/bots", {"level": "greedy\u0000"}),
        # nested: the action's own strings and keys
        ("/api/games/1/actions", {"version": 0, "action": {"type": "pass\u0000"}}),
        ("/api/games/1/actions", {"version": 0, "action": {"type": "place", "c\u0000": 1}}),
        ("/api/games/1/actions", {"version": 0, "action": {"type": "x", "l": ["\u007f"]}}),
    ]:
        r = ann.post(path, json=body)
        assert r.status_code == 422, (path, body, r.text)
    for path in (
        "/api/games/1?invite_code=%00",
        "/api/games/1/state?invite_code=a%01b",
        "/api/games/1/log?since=0&x%00=1",
        "/api/invites/%7F",
        "/join/ab%00cd",
    ):
        r = ann.get(path)
        assert r.status_code == 422 and _code(r) == "invalid_request", (path, r.text)
    # Printable text that merely looks odd is not a control character.
    assert not has_control("Nessie · ü € 🐉") and has_control({"a": ["b", {"\u0085": 1}]})


def test_a_value_the_database_refuses_is_a_4xx(app: FastAPI) -> None:
    """Whatever slips past the edge checks: the driver's DataError is the request's fault."""
    if app.state.engine.dialect.name != "postgresql":
        pytest.skip("SQLite stores U+0000; only Postgres refuses it")

    @app.get("/test-only/store-nul")
    def store_nul() -> dict[str, str]:
        with app.state.engine.connect() as conn:
            conn.execute(text("SELECT CAST(:v AS text)"), {"v": "a\u0000b"})
        return {"stored": "yes"}

    r = TestClient(app).get("/test-only/store-nul")
    assert r.status_code == 422 and _code(r) == "invalid_request", r.text


def test_json_types_are_strict(client_factory: Factory) -> None:
    """`{"enabled": 0}` is no boolean, `"2"` no number: refused, nothing changes."""
    ann = client_factory()
    ann.post("/api/users", json={"username": "ann", "password": "sea dragons"})
    before = ann.get("/api/me/account").json()["notices"]
    for bad in (0, 1, "false", None):
        r = ann.post("/api/me/notices", json={"enabled": bad})
        assert r.status_code == 422, (bad, r.text)
    assert ann.get("/api/me/account").json()["notices"] == before
    assert ann.post("/api/games", json={"players": "2"}).status_code == 422
    assert ann.post("/api/games", json={"players": 2, "expansion": 1}).status_code == 422
    assert ann.post("/api/games", json={"players": 2.5}).status_code == 422
    # A whole number with a fraction is that integer, as JSON Schema reads it.
    assert ann.post("/api/games", json={"players": 2.0}).status_code == 201
    assert ann.post("/api/me/notices", json={"enabled": False}).json()["notices"] is False


def test_405_allows_every_method_of_the_path(client_factory: Factory) -> None:
    client = client_factory()
    r = client.request("OPTIONS", "/api/games")
    assert r.status_code == 405
    assert set(r.headers["allow"].split(", ")) == {"GET", "POST"}
    r = client.put("/api/games/1/bots/0")
    assert r.status_code == 405 and set(r.headers["allow"].split(", ")) == {"DELETE"}


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    import tempfile
    from pathlib import Path

    from app.main import create_app
    from app.settings import Settings

    tmp = Path(tempfile.mkdtemp())
    app = create_app(Settings(database_url=f"sqlite:///{tmp / 'o.db'}", data_dir=tmp))
    schema = TestClient(app).get("/openapi.json").json()
    app.state.engine.dispose()
    return schema


def test_the_schema_states_levels_names_layouts_and_seats(openapi: dict[str, Any]) -> None:
    schemas = openapi["components"]["schemas"]
    assert schemas["BotIn"]["properties"]["level"]["enum"] == ["random", "greedy", "expert"]
    assert schemas["GuestIn"]["properties"]["name"]["pattern"] == users.NAME_SCHEMA
    register = schemas["RegisterIn"]["properties"]
    assert register["username"]["pattern"] == users.USERNAME_INPUT
    assert register["password"]["minLength"] == users.PASSWORD_MIN
    layouts = schemas["CreateGameIn"]["properties"]["layouts"]
    assert [c["contains"]["pattern"] for c in layouts["allOf"]] == ["^1", "^2", "^3", "^4"]
    assert all(c["minContains"] == c["maxContains"] == 1 for c in layouts["allOf"])
    seats = {
        rule["if"]["properties"]["players"]["const"]: rule["then"]["properties"]["first_player"]
        for rule in schemas["CreateGameIn"]["allOf"]
        if "players" in rule["if"]["properties"]
    }
    assert seats == {n: {"maximum": n - 1} for n in range(2, 6)}


def test_schema_valid_create_requests_are_accepted(client_factory: Factory) -> None:
    """Every layout permutation the schema allows, every first seat below `players`."""
    host = client_factory("Host")
    r = host.post("/api/games", json={"players": 2, "layouts": ["4B", "1A", "3A", "2B"]})
    assert r.status_code == 201, r.text
    r = host.post("/api/games", json={"players": 2, "first_player": 1})
    assert r.status_code == 201, r.text
    # And what the schema refuses, the server refuses.
    for body in (
        {"players": 2, "layouts": ["1A", "1B", "3A", "4A"]},
        {"players": 2, "first_player": 2},
    ):
        assert host.post("/api/games", json=body).status_code == 422, body
    r = host.post(
        f"/api/games/{host.get('/api/me/games').json()['games'][0]['id']}/bots",
        json={"level": "grandmaster"},
    )
    assert r.status_code == 422 and _code(r) == "unknown_bot_level"


@settings(max_examples=examples(300), deadline=None)
@given(st.from_regex(users.NAME_INPUT, fullmatch=True).filter(lambda s: len(s) <= 24))
def test_every_name_the_schema_allows_is_a_valid_name(name: str) -> None:
    """The schema's name pattern (Python `re`, as schemathesis reads it) implies the service's
    own check: a schema-valid name is never refused, except one mixing scripts, a rule no
    pattern states (the schema's description says it: `mixed_scripts`)."""
    if CONTROL.search(name):  # \w never matches one, but say so if it ever did
        pytest.fail(f"the pattern let a control character through: {name!r}")
    if lookalikes.mixes_scripts(name):
        with pytest.raises(ServiceError) as refused:
            users.clean_display_name(name)
        assert refused.value.code == "mixed_scripts"
        return
    users.clean_display_name(name)


@settings(max_examples=examples(200), deadline=None)
@given(st.from_regex(users.USERNAME_INPUT, fullmatch=True))
def test_every_username_the_schema_allows_is_valid(username: str) -> None:
    users.clean_username(username)


@pytest.mark.parametrize("name", ["  Nessie", "Anne-Marie O'Neil", "李小龍", "x"])
def test_names_people_type_match_the_schema(name: str) -> None:
    assert re.fullmatch(users.NAME_INPUT, name)
    users.clean_display_name(name)


@pytest.mark.parametrize("name", ["_x", "-x", " ", "a<b", 'a"b'])
def test_names_the_service_refuses_do_not_match_the_schema(name: str) -> None:
    assert not re.fullmatch(users.NAME_INPUT, name)
    with pytest.raises(ServiceError):
        users.clean_display_name(name)
