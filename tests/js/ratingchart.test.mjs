// The rating chart's geometry: ordered left to right, the best rating highest.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chartGeometry } from "../../static/js/lib/ratingchart.mjs";

test("points go left to right and a higher rating is drawn higher", () => {
  const g = chartGeometry([1000, 1100, 1050], 100, 50, 0);
  assert.deepEqual(g.coords, [[0, 50], [50, 0], [100, 25]]);
  assert.equal(g.points, "0,50 50,0 100,25");
  assert.equal(g.min, 1000);
  assert.equal(g.max, 1100);
});

test("one point sits in the middle; a flat line in the middle height", () => {
  assert.deepEqual(chartGeometry([1200], 100, 50, 0).coords, [[50, 25]]);
  assert.deepEqual(chartGeometry([900, 900], 100, 50, 0).coords.map(([, y]) => y), [25, 25]);
});

test("no history: nothing to draw", () => {
  assert.equal(chartGeometry([], 100, 50).points, "");
});
