"""The tutorials and the rules page's examples in Spanish, in a browser against the real server:
the lesson index, a lesson's panel (the step's words from the server, the page's own from
es.json), a move refused in Spanish, the next step's words with the engine's figures, and the
rules page's live examples. No catalogue key is shown bare. A screenshot of a lesson in Spanish
is saved to test-artifacts/."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.e2e.helpers import shot, watch_console

pytestmark = pytest.mark.e2e

RAW_KEY = re.compile(r"^(learn|rules)\.[a-z_.]+$")
TEXTS = """() => [...document.querySelectorAll('body *')]
  .filter((el) => el.children.length === 0 && el.getClientRects().length)
  .map((el) => el.textContent.trim()).filter(Boolean)"""


def _raw_keys(page: Any) -> list[str]:
    return [t for t in page.evaluate(TEXTS) if RAW_KEY.match(t)]


def test_the_tutorials_and_the_rules_examples_in_spanish(browser: Any, real_server: str) -> None:
    url = real_server
    ctx = browser.new_context(locale="es-ES", viewport={"width": 1400, "height": 950})
    page = ctx.new_page()
    errors = watch_console(page)

    # The index: the page's words and the lessons' titles, in Spanish.
    page.goto(url + "/learn")
    page.wait_for_selector("#lessons h1")
    assert page.text_content("#lessons h1") == "Aprende a jugar"
    page.wait_for_selector("[data-lesson=base]")
    assert page.text_content("[data-lesson=base]") == "Tus primeros turnos"
    assert page.text_content("[data-lesson=deep]") == "Tesoros de las Profundidades"
    assert re.search(r"· \d+ pasos", page.inner_text("#lessons"))
    assert _raw_keys(page) == []

    # A lesson's first step: the server's words for it, the page's around them.
    page.goto(url + "/learn?lesson=base")
    page.wait_for_selector("#lesson .lesson-title")
    assert page.text_content("#lesson .lesson-title") == "Juega una carta, coloca un Dragón"
    assert page.text_content("#lesson .lesson-step").startswith("Paso 1 de ")
    assert page.inner_text("#lesson .lesson-do").startswith("Haz: Elige la carta ")
    assert page.text_content("#lesson-progress").startswith("paso 1/")

    # A move to try: refused by the engine, the refusal in the lesson panel.
    tries = page.locator("#lesson-more .lesson-tries button.try")
    assert tries.count() >= 1 and tries.first.inner_text().startswith("Prueba ")
    tries.first.click()
    page.wait_for_selector("#lesson .lesson-refusal")
    assert page.inner_text("#lesson .lesson-refusal").startswith("Rechazada: ")

    # The step's move (the lesson's target) played: the next step says the engine's deck.
    first = page.request.post(url + "/api/learn/base/position", data={"answers": []}).json()
    page.evaluate(
        "a => sessionStorage.setItem('seadragons.learn.base', a)",
        json.dumps([first["target"]["action"]]),
    )
    page.reload()
    page.wait_for_function("() => document.body.dataset.step === '1'")
    page.wait_for_selector("#lesson .lesson-title")
    assert page.text_content("#lesson .lesson-title") == "Roba de otro mazo"
    do = page.inner_text("#lesson .lesson-do")
    assert re.search(r"del mazo (Pequeño|Mediano|Grande)", do), do
    # The learner's own lines in the log speak to the learner: "Colocaste", never "Tú colocó".
    page.wait_for_selector("#log li")
    log = page.inner_text("#log")
    assert "Colocaste " in log and "Tú colocó" not in log, log
    assert _raw_keys(page) == []
    shot(page, "learn-spanish", full_page=False)

    # The rules page's live examples: the engine's figures with Spanish words.
    page.goto(url + "/rules")
    page.wait_for_selector("figure[data-example=smaug] canvas[data-drawn=true]", timeout=30_000)
    smaug = page.locator("figure[data-example=smaug]")
    assert smaug.locator("h3").text_content() == "La colocación de Smaug"
    assert smaug.locator("canvas").get_attribute("aria-label") == "Tablero: La colocación de Smaug"
    labels = smaug.locator("table.figures th").all_inner_texts()
    assert labels[:3] == ["barcos tomados", "Oro de los símbolos", "coste"], labels
    assert "paga 2 de Oro por el Remolino" in smaug.locator("figcaption p").inner_text()
    star = page.locator("figure[data-example=starfish] figcaption p").inner_text()
    assert "Haku: 4 Dragones" in star and "21 PV" in star, star
    assert _raw_keys(page) == []
    # The refused try is a 422 answer, which the browser logs: expected, nothing else is.
    assert [e for e in errors if "status of 422" not in e] == [], errors
    ctx.close()
