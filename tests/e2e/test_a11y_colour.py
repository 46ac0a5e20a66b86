"""Colour is never alone: the board drawn by the real page, read back pixel by pixel, then seen
through the Machado, Oliveira & Fernandes (2009) simulations of protanopia and deuteranopia
(severity 1, applied to linear RGB). In both palettes every seat's Dragons carry a mark whose
shape differs from every other seat's, and stays visible against the Dragon's own colour under
both simulations; in the colour-blind palette the seats' colours themselves stay apart (CIELAB
distance) from each other and from the water. Screenshots of the table under a CSS/SVG filter
with the same matrices go to test-artifacts/."""

from __future__ import annotations

import itertools
import json
import math
import random
import re
from typing import Any

import pytest

from app.engine import to_act, view_for
from tests.e2e.conftest import ROOT
from tests.e2e.helpers import ARTIFACTS, shot, watch_console
from tests.e2e.stub_server import Table

pytestmark = pytest.mark.e2e

PROTANOPIA = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)
DEUTERANOPIA = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
SIMULATIONS = {"protanopia": PROTANOPIA, "deuteranopia": DEUTERANOPIA}
MIN_COLOUR_DE = 20.0  # CIELAB units between seats' fills (colour-blind palette), and vs. the water
MAX_SHAPE_IOU = 0.8  # two seats' marks, as pixel masks on their squares, overlap less than this
MIN_MARK_SHARE = (
    0.04  # the mark covers at least this share of the square's middle, seen through CVD
)

# Every seat's Dragon squares, and the canvas pixels of given squares (device pixels).
DRAGONS = "() => window.seadragons.state.doc?.view.board.dragons ?? []"
READ_SQUARES = """(squares) => {
  const b = window.seadragons.board;
  const ctx = b.canvas.getContext('2d');
  return squares.map(([r, c]) => {
    const rc = b.rect(r, c);
    const x = Math.round(rc.x * b.dpr), y = Math.round(rc.y * b.dpr), w = Math.floor(rc.w * b.dpr);
    return {w, data: Array.from(ctx.getImageData(x, y, w, w).data)};
  });
}"""
FILTER = """([name, m]) => {
  const ns = 'http://www.w3.org/2000/svg';
  let svg = document.getElementById('cvd-filters');
  if (!svg) {
    svg = document.createElementNS(ns, 'svg');
    svg.id = 'cvd-filters';
    svg.setAttribute('width', '0'); svg.setAttribute('height', '0');
    document.body.append(svg);
  }
  const f = document.createElementNS(ns, 'filter');
  f.id = name;
  f.setAttribute('color-interpolation-filters', 'linearRGB');
  const cm = document.createElementNS(ns, 'feColorMatrix');
  cm.setAttribute('type', 'matrix');
  cm.setAttribute('values', m.map((row) => [...row, 0, 0].join(' ')).join(' ') + ' 0 0 0 1 0');
  f.append(cm); svg.append(f);
  document.documentElement.style.filter = `url(#${name})`;
}"""


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


LINEAR = [_linear(i) for i in range(256)]


def simulate(rgb: tuple[int, int, int], m: Any) -> tuple[float, float, float]:
    lin = [LINEAR[v] for v in rgb]
    out = [max(0.0, min(1.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3)]
    return out[0], out[1], out[2]


def lab(lin: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = lin
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def pixels(block: dict[str, Any]) -> list[list[tuple[int, int, int]]]:
    w, d = block["w"], block["data"]
    return [
        [(d[(y * w + x) * 4], d[(y * w + x) * 4 + 1], d[(y * w + x) * 4 + 2]) for x in range(w)]
        for y in range(w)
    ]


def fill_colour(px: list[list[tuple[int, int, int]]]) -> tuple[int, int, int]:
    """The Dragon's fill: the median pixel of a band beside the mark (inside the body's pad)."""
    w = len(px)
    band = [
        px[y][x]
        for y in range(int(w * 0.42), int(w * 0.58))
        for x in range(int(w * 0.16), int(w * 0.26))
    ]
    return tuple(sorted(band, key=sum)[len(band) // 2])  # type: ignore[return-value]


def mark_mask(px: list[list[tuple[int, int, int]]], m: Any) -> list[bool]:
    """The mark as seen through the simulation: middle pixels whose lightness differs from the
    fill's by more than 15 L* (a contrast anyone with that vision can see)."""
    w = len(px)
    fill_l = lab(simulate(fill_colour(px), m))[0]
    lo, hi = int(w * 0.25), int(w * 0.75)
    return [
        abs(lab(simulate(px[y][x], m))[0] - fill_l) > 15
        for y in range(lo, hi)
        for x in range(lo, hi)
    ]


def iou(a: list[bool], b: list[bool]) -> float:
    both = sum(1 for x, y in zip(a, b, strict=True) if x and y)
    either = sum(1 for x, y in zip(a, b, strict=True) if x or y)
    return both / either if either else 1.0


def five_seat_table() -> Table:
    """A 5-player game where every seat has a Dragon with a body square besides its head."""
    for seed in range(1, 60):
        t = Table(5, seed)
        t.advance(12, random.Random(seed))
        owners = {d["owner"] for d in view_for(t.state, to_act(t.state))["board"]["dragons"]}
        if owners == set(range(5)):
            return t
    raise AssertionError("no seed gave every seat a Dragon")


@pytest.mark.parametrize("palette", ["standard", "colourblind"])
def test_seats_stay_apart_under_colour_blindness(
    browser: Any, stub_url: str, stub_tables: dict[int, Any], palette: str
) -> None:
    stub_tables[1] = five_seat_table()
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, device_scale_factor=2)
    ctx.add_init_script(f"localStorage.setItem('seadragons.palette', '{palette}')")
    page = ctx.new_page()
    errors = watch_console(page)
    page.goto(f"{stub_url}/games/1")
    page.wait_for_function(
        "() => (window.seadragons?.state?.doc?.view.board.dragons ?? []).length >= 5"
    )
    assert (
        page.get_attribute("#palette-btn", "aria-pressed") == str(palette == "colourblind").lower()
    )
    # Two frames, so the board is drawn with the document in.
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    squares: dict[int, list[int]] = {}
    for d in page.evaluate(DRAGONS):
        body = [c for c in d["cells"] if c != d["head"]]
        if d["owner"] not in squares and body:
            squares[d["owner"]] = body[0]
    assert sorted(squares) == [0, 1, 2, 3, 4]
    seats = sorted(squares)
    blocks = dict(zip(seats, page.evaluate(READ_SQUARES, [squares[s] for s in seats]), strict=True))
    px = {s: pixels(b) for s, b in blocks.items()}
    water = (0x1F, 0x6F, 0x96)
    report: dict[str, Any] = {
        "palette": palette,
        "fills": {s: "#{:02x}{:02x}{:02x}".format(*fill_colour(px[s])) for s in seats},
    }
    for name, m in SIMULATIONS.items():
        masks = {s: mark_mask(px[s], m) for s in seats}
        shares = {s: sum(masks[s]) / len(masks[s]) for s in seats}
        overlaps = {
            f"{a}-{b}": round(iou(masks[a], masks[b]), 3)
            for a, b in itertools.combinations(seats, 2)
        }
        fills = {s: lab(simulate(fill_colour(px[s]), m)) for s in seats}
        colour_de = {
            f"{a}-{b}": round(math.dist(fills[a], fills[b]), 1)
            for a, b in itertools.combinations(seats, 2)
        }
        water_de = {s: round(math.dist(fills[s], lab(simulate(water, m))), 1) for s in seats}
        report[name] = {
            "mark_share": shares,
            "mark_iou": overlaps,
            "fill_de": colour_de,
            "water_de": water_de,
        }
        # Shape: each seat's mark is visible on its own Dragon and differs from every other's.
        assert min(shares.values()) >= MIN_MARK_SHARE, (name, shares)
        assert max(overlaps.values()) < MAX_SHAPE_IOU, (name, overlaps)
        if palette == "colourblind":
            assert min(colour_de.values()) >= MIN_COLOUR_DE, (name, colour_de)
            assert min(water_de.values()) >= MIN_COLOUR_DE, (name, water_de)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"a11y-colour-{palette}.json").write_text(json.dumps(report, indent=1))
    shot(page, f"table-{palette}-palette", full_page=False)
    for name, m in SIMULATIONS.items():
        page.evaluate(FILTER, [f"{name}-{palette}", [list(r) for r in m]])
        shot(page, f"table-{palette}-palette-as-{name}", full_page=False)
    assert not errors, errors
    ctx.close()


def test_printed_colours_need_the_marks() -> None:
    """Why the marks matter: under deuteranopia two seats' printed colours come closer than
    MIN_COLOUR_DE, the colour-blind palette's never do (read from lib/marks.mjs itself)."""
    src = (ROOT / "static/js/lib/marks.mjs").read_text()

    def players(name: str) -> list[str]:
        block = re.search(name + r": \{\s*players: \[([^\]]*)\]", src)
        assert block, name
        return re.findall(r'"(#[0-9a-f]{6})"', block.group(1))

    def worst(pal: list[str]) -> float:
        rgb = [(int(h[1:3], 16), int(h[3:5], 16), int(h[5:7], 16)) for h in pal]
        labs = [lab(simulate(c, DEUTERANOPIA)) for c in rgb]
        return min(math.dist(a, b) for a, b in itertools.combinations(labs, 2))

    printed, chosen = players("standard"), players("colourblind")
    assert len(printed) == len(chosen) == 5
    assert worst(printed) < MIN_COLOUR_DE <= worst(chosen)
