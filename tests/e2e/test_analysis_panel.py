"""The analysis panel (static/js/ui/analysis.mjs) in a real browser, under the pages' CSP: the
graph is drawn in the seats' colours, the summary lists every player, "Next mistake" and a click
on the graph select moves. Mounted on a served page as the replay page will mount it."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.review.analysis_fixture import FIXTURE

pytestmark = pytest.mark.e2e

COLOURS = ["#ff0000", "#00c000", "#0000ff"]


def _analysis() -> dict[str, Any]:
    """The real analysis with exactly a mistake and a blunder marked (known button stops)."""
    doc = copy.deepcopy(json.loads(FIXTURE.read_text()))
    judged = [m for m in doc["moves"] if not m["forced"]]
    for m in judged:
        m["label"] = None
    judged[10]["label"], judged[30]["label"] = "mistake", "blunder"
    return doc


MOUNT = """async ([analysis, colours]) => {
  const ui = await import("/static/js/ui/analysis.mjs");
  const el = document.createElement("section");
  document.body.prepend(el);
  window.selected = [];
  window.panel = ui.mountAnalysis(el, analysis, {
    names: ["Ann", "Bob", "Cy"], colours, width: 480, height: 140,
    onSelect: (move) => { window.selected.push(move); window.panel.show(move); },
  });
  return true;
}"""

COUNT_COLOURS = """(colours) => {
  const c = document.querySelector("canvas.analysis-graph");
  const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  const want = colours.map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));
  const counts = want.map(() => 0);
  for (let i = 0; i < data.length; i += 4) {
    want.forEach(([r, g, b], k) => {
      if (Math.abs(data[i] - r) < 40 && Math.abs(data[i + 1] - g) < 40
          && Math.abs(data[i + 2] - b) < 40 && data[i + 3] > 200) counts[k]++;
    });
  }
  return counts;
}"""


def test_the_panel_draws_lists_and_selects(browser: Any, stub_url: str) -> None:
    analysis = _analysis()
    judged = [m for m in analysis["moves"] if not m["forced"]]
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(stub_url + "/rules")
    assert page.evaluate(MOUNT, [analysis, COLOURS])

    counts = page.evaluate(COUNT_COLOURS, COLOURS)
    assert all(n > 50 for n in counts), counts  # every seat's line is on the canvas
    rows = page.locator("table.analysis-players tr")
    assert rows.count() == 1 + len(analysis["players"])
    first = analysis["players"][0]
    assert rows.nth(1).inner_text().split("\t")[:2] == ["Ann", f"{first['accuracy']:g}%"]

    page.click("button.analysis-next")
    page.click("button.analysis-next")
    assert page.evaluate("window.selected") == [judged[10]["move"], judged[30]["move"]]
    assert page.locator("button.analysis-next").is_disabled()  # no mistake after the last
    detail = page.locator("p.analysis-move").inner_text()
    assert "blunder" in detail and f"{judged[30]['win']['played']:g}%" in detail
    # A drop is said in percentage points, not bare "points" that read like VP.
    assert "percentage points of chance to win lost" in detail
    # The chart's key: each player by name, the marks, what the axes are.
    legend = page.locator(".analysis-legend").inner_text()
    assert "Ann" in legend and "?! inaccuracy" in legend and "Up: each player's chance" in legend

    box = page.locator("canvas.analysis-graph").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    middle = page.evaluate("window.selected.at(-1)")
    assert abs(middle - len(analysis["moves"]) / 2) <= 3
    assert errors == []
    page.close()
