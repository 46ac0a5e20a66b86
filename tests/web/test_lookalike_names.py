"""Lookalike names over HTTP: the codes a client sees (tests/services/test_lookalikes.py has
the rules)."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

CYRILLIC_A = "\u0410"  # looks like the Latin A


def test_the_http_answers_name_the_codes(client_factory: Callable[..., TestClient]) -> None:
    gus = client_factory()
    r = gus.post("/api/session/guest", json={"name": CYRILLIC_A + "nn"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "mixed_scripts", r.text
    r = gus.post("/api/session/guest", json={"name": "An\u200bn"})
    assert r.status_code == 422, r.text
    host = client_factory("mary")
    game = host.post("/api/games", json={"players": 2}).json()
    alike = client_factory("rnary")  # "rn" reads as "m"
    r = alike.post(f"/api/games/{game['id']}/join", json={"invite_code": game["invite_code"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "lookalike_name", r.text
    same = client_factory("Mary")  # the same name, letter case aside: said as such
    r = same.post(f"/api/games/{game['id']}/join", json={"invite_code": game["invite_code"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", r.text
    other = client_factory("Bob")
    r = other.post(f"/api/games/{game['id']}/join", json={"invite_code": game["invite_code"]})
    assert r.status_code == 200, r.text


def test_the_refusal_reads_in_spanish(client_factory: Callable[..., TestClient]) -> None:
    gus = client_factory()
    r = gus.post(
        "/api/session/guest",
        json={"name": CYRILLIC_A + "nn"},
        headers={"Accept-Language": "es"},
    )
    assert r.json()["error"]["code"] == "mixed_scripts"
    assert r.json()["error"]["message"].startswith("un nombre se escribe en un solo alfabeto")
