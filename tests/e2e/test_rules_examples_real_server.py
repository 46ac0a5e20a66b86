"""The rules page's examples in the browser, against the real server: every example board is
drawn by the table's board code (its canvas is not blank), and every figure and text on the
page is the engine's."""

from __future__ import annotations

from typing import Any

import pytest

from app.tutorial import examples
from tests.e2e.helpers import shot, watch_console

pytestmark = pytest.mark.e2e

# Distinct colours among the canvas's pixels (a blank or single-colour canvas has one or two).
CANVAS_FACTS = """(el) => {
  const ctx = el.getContext('2d');
  const { data } = ctx.getImageData(0, 0, el.width, el.height);
  const seen = new Set();
  for (let i = 0; i < data.length; i += 28) {
    seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  }
  return { colours: seen.size, width: el.width, height: el.height };
}"""


def test_the_example_boards_render_with_the_engines_figures(browser: Any, real_server: str) -> None:
    ctx = browser.new_context(viewport={"width": 1300, "height": 950})
    page = ctx.new_page()
    errors = watch_console(page)
    page.goto(real_server + "/rules")
    expected = {x["id"]: x for x in examples.all_examples()["examples"]}
    page.wait_for_function(
        f"() => document.querySelectorAll('figure.example canvas[data-drawn=true]').length"
        f" === {len(expected)}",
        timeout=30000,
    )
    figures = page.query_selector_all("figure.example")
    assert [f.get_attribute("data-example") for f in figures] == list(expected)
    for fig in figures:
        ex = expected[fig.get_attribute("data-example")]
        canvas = fig.query_selector("canvas")
        facts = canvas.evaluate(CANVAS_FACTS)
        assert facts["width"] > 100 and facts["colours"] > 50, (ex["id"], facts)
        shown = [
            (row.query_selector("th").inner_text(), row.query_selector("td").inner_text())
            for row in fig.query_selector_all("table.figures tr")
        ]
        assert shown == [(f["label"], str(f["value"])) for f in ex["figures"]], ex["id"]
        assert ex["text"] in fig.inner_text()
    # The rulebook's two examples, as the rulebook prints them (R-22..R-24, R-43).
    smaug = dict(
        (r.query_selector("th").inner_text(), r.query_selector("td").inner_text())
        for r in page.query_selector_all("[data-example=smaug] table.figures tr")
    )
    assert smaug["cost"] == "2" and smaug["ships taken"] == "2" and smaug["Haku gets"] == "1"
    starfish = page.inner_text("[data-example=starfish]")
    assert "21" in starfish and "10" in starfish
    page.query_selector("[data-example=smaug]").scroll_into_view_if_needed()
    shot(page, "rules-example-smaug", full_page=False)
    page.query_selector("[data-example=starfish]").scroll_into_view_if_needed()
    shot(page, "rules-example-starfish", full_page=False)
    page.query_selector("[data-example=treasure-no_cost]").scroll_into_view_if_needed()
    shot(page, "rules-example-treasures", full_page=False)
    assert errors == []
    ctx.close()
