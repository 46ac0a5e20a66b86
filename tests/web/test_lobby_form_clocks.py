"""Every clock the lobby's form offers is one the server accepts (the form's choices are
turned into a clock by static/js/lib/clock.mjs `clockSpec`, read the same way here)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

# SQLite alone: nothing checked here differs by dialect (docs/testing.md, Postgres).
pytestmark = pytest.mark.one_database


def _spec(choice: str) -> dict:
    mode, *numbers = choice.split(":")
    values = [int(n) for n in numbers]
    if mode == "live":
        spec = {"mode": "live", "initial": values[0], "per_turn": values[1]}
        extra = values[2:]
    elif mode == "daily":
        spec = {"mode": "daily", "per_turn": values[0]}
        extra = values[1:]
    else:
        return {"mode": "none"}
    if extra:
        spec["extension"] = extra[0]
    return spec


def test_every_offered_clock_is_accepted(client_factory: Callable[..., TestClient]) -> None:
    host = client_factory("Host")
    page = host.get("/").text
    select = re.search(r'<select name="clock">(.*?)</select>', page, re.S)
    assert select
    choices = re.findall(r'<option value="([^"]+)"', select.group(1))
    assert len(choices) >= 6 and any(c.count(":") == 3 for c in choices)
    for choice in choices:
        r = host.post("/api/games", json={"players": 2, "clock": _spec(choice)})
        assert r.status_code == 201, (choice, r.text)
        game = r.json()
        assert game["clock"]["mode"] == choice.split(":")[0]
        host.post(f"/api/games/{game['id']}/cancel")
