"""The reader's language over HTTP: pages, the switch, the account's choice, error messages."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

# SQLite alone: nothing checked here differs by dialect (docs/testing.md, Postgres).
pytestmark = pytest.mark.one_database

FORM = {"content-type": "application/x-www-form-urlencoded"}


def _lang(html: str) -> str:
    found = re.search(r'<html lang="(\w+)"', html)
    assert found, html[:200]
    return found.group(1)


def test_pages_follow_accept_language(client_factory: Callable[..., TestClient]) -> None:
    client = client_factory()
    assert _lang(client.get("/").text) == "en"
    page = client.get("/", headers={"accept-language": "es-CL,es;q=0.9"}).text
    assert _lang(page) == "es"
    # The header's switch offers the other language, in its own name.
    assert 'value="en" lang="en">English</button>' in page


def test_the_switch_keeps_the_choice_and_goes_back(
    client_factory: Callable[..., TestClient],
) -> None:
    client = client_factory()
    r = client.post(
        "/language", content="language=es&next=/rules", headers=FORM, follow_redirects=False
    )
    assert r.status_code == 303 and r.headers["location"] == "/rules"
    assert _lang(client.get("/rules", headers={"accept-language": "en"}).text) == "es"


def test_the_switch_refuses_other_languages_and_foreign_targets(
    client_factory: Callable[..., TestClient],
) -> None:
    client = client_factory()
    r = client.post("/language", content="language=xx", headers=FORM)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
    assert "sd_lang" not in client.cookies
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example"):
        r = client.post(
            "/language", content=f"language=es&next={target}", headers=FORM, follow_redirects=False
        )
        assert r.headers["location"] == "/"
    r = client.post("/language", content="language=es&next=" + "a" * 3000, headers=FORM)
    assert r.status_code == 400


def test_an_account_keeps_its_language_on_a_new_device(
    client_factory: Callable[..., TestClient],
) -> None:
    first = client_factory()
    body = {"username": "lucia", "password": "correct horse battery"}
    assert first.post("/api/users", json=body).status_code == 201
    first.post("/language", content="language=es", headers=FORM, follow_redirects=False)
    second = client_factory()
    r = second.post("/api/session/login", json=body)
    assert r.status_code == 200, r.text
    assert second.cookies.get("sd_lang") == "es"
    assert _lang(second.get("/", headers={"accept-language": "en"}).text) == "es"


def test_error_messages_are_translated_and_codes_stay(
    client_factory: Callable[..., TestClient],
) -> None:
    client = client_factory("Ana")
    english = client.post("/api/games/999999/start").json()["error"]
    spanish = client.post("/api/games/999999/start", headers={"accept-language": "es"}).json()[
        "error"
    ]
    assert english["code"] == spanish["code"]
    assert english["message"] != spanish["message"]


def test_a_refusal_reason_is_in_the_readers_language_R21(
    start_game: Callable[..., tuple[int, list[TestClient]]],
) -> None:
    gid, clients = start_game(2)
    seat = clients[0].get(f"/api/games/{gid}/state").json()["to_act"]
    me = clients[seat]
    state = me.get(f"/api/games/{gid}/state").json()
    legal = next(a for a in state["legal_actions"] if a["type"] == "place")
    r0 = min(r for r, _ in legal["cells"])
    c0 = min(c for _, c in legal["cells"])
    corner = {
        "type": "place",
        "card": legal["card"],
        "cells": [[r - r0, c - c0] for r, c in legal["cells"]],
        "head": [legal["head"][0] - r0, legal["head"][1] - c0],
    }
    body = {"version": state["version"], "action": corner}
    english = me.post(f"/api/games/{gid}/actions", json=body).json()["error"]
    spanish = me.post(
        f"/api/games/{gid}/actions", json=body, headers={"accept-language": "es"}
    ).json()["error"]
    assert english["reason"]["code"] == spanish["reason"]["code"] == "not_touching"
    assert english["reason"]["facts"] == spanish["reason"]["facts"]
    assert spanish["reason"]["text"].startswith("No toca la Isla Central")
    assert spanish["message"] != english["message"]
    assert "colocar" in spanish["message"]  # the action's own description is translated too


def test_an_account_reads_the_language_it_signed_up_in(
    client_factory: Callable[..., TestClient],
) -> None:
    client = client_factory()
    body = {"username": "mateo", "password": "correct horse battery"}
    r = client.post("/api/users", json=body, headers={"accept-language": "es-AR"})
    assert r.status_code == 201, r.text
    assert client.cookies.get("sd_lang") == "es"
