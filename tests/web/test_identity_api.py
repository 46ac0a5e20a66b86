"""Guests, accounts, login, logout and the session cookie."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

Factory = Callable[..., TestClient]


def test_guest_session_sets_httponly_lax_cookie(client_factory: Factory) -> None:
    client = client_factory()
    r = client.post("/api/session/guest", json={"name": "  Nessie   the  Great "})
    assert r.status_code == 200
    assert r.json()["display_name"] == "Nessie the Great"
    assert r.json()["guest"] is True
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    assert client.get("/api/me").json()["id"] == r.json()["id"]


def test_me_without_session_is_401_json(client_factory: Factory) -> None:
    r = client_factory().get("/api/me")
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "not_signed_in"


def test_names_with_markup_or_bad_length_are_refused(client_factory: Factory) -> None:
    client = client_factory()
    for name in ["", " ", "<script>", "a" * 25, "x\u0000y", "-dash", 'quote"']:
        r = client.post("/api/session/guest", json={"name": name})
        assert r.status_code == 422, name
        assert r.json()["error"]["code"] == "invalid_name"
    assert client.post("/api/session/guest", json={"name": "Zoë O'Neil"}).status_code == 200


def test_tampered_cookie_is_ignored(client_factory: Factory) -> None:
    client = client_factory("Ann")
    value = client.cookies.get("sd_session")
    client.cookies.set("sd_session", value[:-2] + ("AA" if not value.endswith("AA") else "BB"))
    assert client.get("/api/me").status_code == 401


def test_register_login_logout(client_factory: Factory) -> None:
    alice = client_factory()
    r = alice.post("/api/users", json={"username": "Alice_1", "password": "sea dragons!"})
    assert r.status_code == 201, r.text
    assert r.json() == {
        "id": r.json()["id"],
        "display_name": "alice_1",
        "username": "alice_1",
        "guest": False,
    }
    old_cookie = alice.cookies.get("sd_session")
    assert alice.post("/api/session/logout").json() == {"ok": True}
    assert alice.get("/api/me").status_code == 401
    # The revoked session stays dead even if the cookie is replayed.
    replay = client_factory()
    replay.cookies.set("sd_session", old_cookie)
    assert replay.get("/api/me").status_code == 401

    bad = alice.post("/api/session/login", json={"username": "alice_1", "password": "wrong pass"})
    assert bad.status_code == 401 and bad.json()["error"]["code"] == "bad_credentials"
    nobody = alice.post("/api/session/login", json={"username": "nobody", "password": "whatever1"})
    assert nobody.json()["error"]["code"] == "bad_credentials"
    ok = alice.post("/api/session/login", json={"username": "ALICE_1", "password": "sea dragons!"})
    assert ok.status_code == 200
    assert alice.get("/api/me").json()["username"] == "alice_1"


def test_username_taken_and_validation(client_factory: Factory) -> None:
    a, b = client_factory(), client_factory()
    assert a.post("/api/users", json={"username": "bob", "password": "12345678"}).status_code == 201
    r = b.post("/api/users", json={"username": "BOB", "password": "12345678"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "username_taken"
    r = b.post("/api/users", json={"username": "b<b", "password": "12345678"})
    assert r.json()["error"]["code"] == "invalid_username"
    r = b.post("/api/users", json={"username": "bobby", "password": "short"})
    assert r.json()["error"]["code"] == "invalid_password"
    r = a.post("/api/users", json={"username": "bob2", "password": "12345678"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_signed_in"


def test_a_refused_sign_up_is_worded_for_people_in_their_language(
    client_factory: Factory,
) -> None:
    """The schema's refusal of a short password or a long name reads as the rule, in the
    reader's language, not as "body.password: String should have at least 8 characters"."""
    client = client_factory()
    r = client.post("/api/users", json={"username": "bobby", "password": "short"})
    error = r.json()["error"]
    assert (r.status_code, error["code"]) == (422, "invalid_password")
    assert error["message"] == "a password has 8 to 128 characters"
    assert error["details"][0]["loc"] == ["body", "password"]  # the schema's words, for code
    es = {"accept-language": "es"}
    r = client.post("/api/users", json={"username": "bobby", "password": "short"}, headers=es)
    assert r.json()["error"]["message"] == "una contraseña tiene de 8 a 128 caracteres"
    r = client.post("/api/users", json={"username": "b" * 30, "password": "long enough"})
    assert r.json()["error"]["code"] == "invalid_username"
    assert r.json()["error"]["message"] == "a username is 3 to 24 of a-z, 0-9, _ . -"
    r = client.post("/api/session/guest", json={"name": "N" * 30}, headers=es)
    assert r.json()["error"]["code"] == "invalid_name"
    assert "body." not in r.json()["error"]["message"]
    assert r.json()["error"]["message"].startswith("un nombre")


def test_guest_who_registers_keeps_their_games(client_factory: Factory) -> None:
    guest = client_factory("Wanderer")
    me = guest.get("/api/me").json()
    game = guest.post("/api/games", json={"players": 2}).json()
    r = guest.post("/api/users", json={"username": "wanderer", "password": "long enough"})
    assert r.status_code == 201
    assert r.json()["id"] == me["id"]
    assert r.json()["display_name"] == "Wanderer" and r.json()["guest"] is False
    mine = guest.get("/api/me/games").json()["games"]
    assert [g["id"] for g in mine] == [game["id"]]
    # And from a fresh browser after logging in.
    other = client_factory()
    other.post("/api/session/login", json={"username": "wanderer", "password": "long enough"})
    assert [g["id"] for g in other.get("/api/me/games").json()["games"]] == [game["id"]]


def test_guest_again_renames_and_keeps_identity(client_factory: Factory) -> None:
    client = client_factory("First")
    uid = client.get("/api/me").json()["id"]
    r = client.post("/api/session/guest", json={"name": "Second"})
    assert r.json()["id"] == uid and r.json()["display_name"] == "Second"


def test_session_answers_200_signed_in_or_not(client_factory: Factory) -> None:
    """GET /api/session never fails: {"user": null} signed out, the user object signed in."""
    anon = client_factory()
    r = anon.get("/api/session")
    assert r.status_code == 200 and r.json() == {"user": None}
    ann = client_factory("Ann")
    me = ann.get("/api/me").json()
    r = ann.get("/api/session")
    assert r.status_code == 200 and r.json() == {"user": me}
    assert ann.post("/api/session/logout").status_code == 200
    assert ann.get("/api/session").json() == {"user": None}
    # A tampered cookie is nobody, not an error.
    anon.cookies.set("sd_session", "garbage")
    assert anon.get("/api/session").json() == {"user": None}
