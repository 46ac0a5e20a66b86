"""The browser client in Spanish, against the real server: a reader whose browser asks for
Spanish (Accept-Language: es) gets `<html lang="es">`, and the client's modules word the lobby
and the table from es.json: the game log (from the events' pieces), the connection badge, the
Reward Board, the clock; no catalogue key is ever shown bare. A screenshot of the table in
Spanish is saved to test-artifacts/."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.helpers import shot, watch_console

pytestmark = pytest.mark.e2e

# A text that is a catalogue key ("log.placed", "cards.action.place"), shown as it is.
RAW_KEY = re.compile(r"^[a-z]+\.[a-z_.]+$")

# Every visible text node and every title / aria-label / placeholder of the page.
TEXTS = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (el && el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden') {
      out.push(n.textContent.trim());
    }
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    for (const a of ['title', 'aria-label', 'placeholder']) {
      if (el.hasAttribute(a)) out.push(el.getAttribute(a).trim());
    }
  }
  return out.filter(Boolean);
}"""


def _raw_keys(page: Any) -> list[str]:
    return [t for t in page.evaluate(TEXTS) if RAW_KEY.match(t)]


def _my_turn(page: Any) -> None:
    page.wait_for_function("() => window.seadragons.st.isMyTurn(window.seadragons.state)")


def test_lobby_and_table_in_spanish(browser: Any, real_server: str) -> None:
    url = real_server
    ctx = browser.new_context(locale="es-ES", viewport={"width": 1400, "height": 950})
    page = ctx.new_page()
    errors = watch_console(page)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))

    # The lobby, signed out: the page is Spanish and "Your games" says so in Spanish.
    page.goto(url + "/")
    assert page.get_attribute("html", "lang") == "es"
    page.wait_for_selector("text=Inicia sesión para ver tus partidas.")
    assert any(r.endswith("/static/i18n/es.json") for r in requests), "es.json never loaded"
    assert _raw_keys(page) == []

    # A guest's table with a bot, with the expansion (the Reward Board) and a daily clock.
    assert page.request.post(url + "/api/session/guest", data={"name": "Nessie"}).ok
    game = page.request.post(
        url + "/api/games",
        data={
            "players": 2,
            "first_player": 0,
            "expansion": True,
            "clock": {"mode": "daily", "per_turn": 86400},
        },
    ).json()
    game_id = game["id"]
    assert page.request.post(url + f"/api/games/{game_id}/bots", data={"level": "random"}).ok
    assert page.request.post(url + f"/api/games/{game_id}/start").ok
    page.goto(url + f"/games/{game_id}")
    page.wait_for_selector("#hand .card.pattern", timeout=20_000)
    page.wait_for_selector("#conn[data-status=live]")
    assert page.inner_text("#conn") == "En vivo"

    # Two of my moves through the API; the bot answers: the log fills with Spanish lines.
    for _ in range(2):
        _my_turn(page)
        state = page.request.get(url + f"/api/games/{game_id}/state").json()
        legal = [a for a in state["legal_actions"] if a["type"] != "pass"] or state["legal_actions"]
        body = {"version": state["version"], "action": legal[0]}
        assert page.request.post(url + f"/api/games/{game_id}/actions", data=body).ok
        page.wait_for_function("v => window.seadragons.state.version > v", arg=state["version"])
    _my_turn(page)
    page.wait_for_selector("#log li:has-text('colocó')")
    log = page.inner_text("#log")
    assert "Nessie colocó" in log, log  # the seat's colour became the player's name
    assert " placed " not in log and "to play" not in log, log
    # The panels of the modules worded from the catalogue.
    assert page.text_content("#reward h3") == "Tablero de Recompensas"
    assert page.text_content("#clock h3") == "Reloj"
    assert "por turno" in page.inner_text("#clock .clock-label")
    assert page.title().startswith("● Tu turno · ")

    # Pick a card: the board's label and the placement's words are Spanish too.
    # A placement must be legal now, or picking a card only looks (the label says so): play on
    # through the API until this turn's decision is a placement.
    for _ in range(20):
        _my_turn(page)
        state = page.request.get(url + f"/api/games/{game_id}/state").json()
        if any(a["type"] == "place" for a in state["legal_actions"]):
            break
        legal = [a for a in state["legal_actions"] if a["type"] != "pass"] or state["legal_actions"]
        body = {"version": state["version"], "action": legal[0]}
        assert page.request.post(url + f"/api/games/{game_id}/actions", data=body).ok
        page.wait_for_function("v => window.seadragons.state.version > v", arg=state["version"])
    page.wait_for_function("v => window.seadragons.state.version >= v", arg=state["version"])
    page.click("#hand .card.pattern >> nth=0")
    page.wait_for_function(
        "() => (document.getElementById('board').getAttribute('aria-label') || '')"
        ".includes('colocando')"
    )
    assert page.get_attribute("#board", "aria-label").startswith("Tablero de Sea Dragons, ")
    # The decision panel, the hand and the players' panels.
    assert page.text_content("#actions button[data-key=confirm]") == "Colocar Dragón"
    assert page.text_content("#actions .turn-line b") == "Tu turno"
    assert page.text_content("#hand h3") == "Mi mano"
    assert "cabezas" in page.inner_text("#players")

    assert _raw_keys(page) == []
    shot(page, "table-spanish", full_page=False)
    assert not errors, errors
    ctx.close()
