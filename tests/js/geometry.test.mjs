// Shape transforms and canvas hit-testing.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as g from "../../static/js/lib/geometry.mjs";

const L4 = [[0, 0], [1, 0], [2, 0], [2, 1]];
const T4 = [[0, 0], [0, 1], [0, 2], [1, 1]];
const key = (cells) => g.cellsKey(g.normalise(cells));

test("normalise moves to the origin and sorts", () => {
  assert.deepEqual(g.normalise([[5, 7], [4, 8], [4, 7]]), [[0, 0], [0, 1], [1, 0]]);
});

test("four rotations come back to the start; a rotation of L is not L", () => {
  let s = g.normalise(L4);
  const seen = new Set();
  for (let i = 0; i < 4; i++) {
    seen.add(g.cellsKey(s));
    s = g.rotate(s);
  }
  assert.equal(g.cellsKey(s), g.cellsKey(g.normalise(L4)));
  assert.equal(seen.size, 4);
});

test("mirror twice is the identity; L has 8 orientations, T 4, O 1", () => {
  assert.equal(key(g.mirror(g.mirror(L4))), key(L4));
  const count = (shape) => {
    const set = new Set();
    for (const m of [false, true]) for (let r = 0; r < 4; r++) set.add(g.cellsKey(g.orient(shape, r, m)));
    return set.size;
  };
  assert.equal(count(L4), 8);
  assert.equal(count(T4), 4);
  assert.equal(count([[0, 0], [0, 1], [1, 0], [1, 1]]), 1);
});

test("rotate turns clockwise: a horizontal I becomes vertical", () => {
  assert.deepEqual(g.rotate([[0, 0], [0, 1], [0, 2]]), [[0, 0], [1, 0], [2, 0]]);
  // The L's foot points right; after a clockwise quarter turn the long arm lies along the top.
  assert.deepEqual(g.rotate(L4), [[0, 0], [0, 1], [0, 2], [1, 0]]);
});

test("cellsKey ignores order", () => {
  assert.equal(g.cellsKey([[1, 2], [0, 3]]), g.cellsKey([[0, 3], [1, 2]]));
});

test("placeAt puts the pivot on the anchor and keeps the shape", () => {
  const cells = g.placeAt(g.orient(T4, 0, false), [5, 5]);
  assert.ok(cells.some(([r, c]) => r === 5 && c === 5));
  assert.equal(key(cells), key(T4));
});

test("orientationFor reproduces any target placement of a shape", () => {
  for (const m of [false, true]) {
    for (let r = 0; r < 4; r++) {
      const target = g.orient(L4, r, m).map(([a, b]) => [a + 3, b + 9]);
      const o = g.orientationFor(L4, target);
      assert.ok(o);
      assert.equal(g.cellsKey(g.placeAt(g.orient(L4, o.rot, o.mirrored), o.anchor)), g.cellsKey(target));
    }
  }
  assert.equal(g.orientationFor(L4, T4), null);
});

test("board layout is square, whole-pixel, centred; hit-testing inverts cellRect", () => {
  const lay = g.boardLayout(640, 500);
  assert.equal(lay.cell, Math.floor((500 - 44) / 15));
  assert.equal(lay.size, lay.cell * 15);
  for (const [r, c] of [[0, 0], [7, 7], [14, 14], [3, 11]]) {
    const rect = g.cellRect(lay, r, c);
    assert.deepEqual(g.hitTest(lay, rect.x + rect.w / 2, rect.y + rect.h / 2), [r, c]);
    assert.deepEqual(g.hitTest(lay, rect.x, rect.y), [r, c]);
  }
  assert.equal(g.hitTest(lay, lay.x0 - 1, lay.y0 + 5), null);
  assert.equal(g.hitTest(lay, lay.x0 + lay.size, lay.y0 + 5), null);
});

test("realms by quadrant (R-04); currents and island belong to none", () => {
  assert.equal(g.realmOf(0, 0), "starfish");
  assert.equal(g.realmOf(0, 14), "conch");
  assert.equal(g.realmOf(14, 14), "seahorse");
  assert.equal(g.realmOf(14, 0), "turtle");
  assert.equal(g.realmOf(7, 3), null);
  assert.equal(g.realmOf(2, 7), null);
});

test("step clamps to the board", () => {
  assert.deepEqual(g.step([0, 0], -1, -1), [0, 0]);
  assert.deepEqual(g.step([14, 13], 1, 1), [14, 14]);
  assert.equal(g.onBoard([[0, 0], [14, 14]]), true);
  assert.equal(g.onBoard([[0, -1]]), false);
});
