// The compact legal actions of the socket expand to exactly the listed actions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { expandLegal, looseLegal } from "../../static/js/lib/legal.mjs";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/legal_wire.json", import.meta.url)));
const sorted = (list) => list.map((a) => JSON.stringify(a, Object.keys(a).sort())).sort();

test("a packed list made by the server expands to the engine's list", () => {
  assert.ok(fixture.cases.length >= 3);
  for (const { packed, actions } of fixture.cases) {
    assert.ok(packed.place.length > 0 || packed.other.length > 0);
    assert.deepEqual(sorted(expandLegal(packed)), sorted(actions));
  }
});

test("heads: the first square unless the anchor names another", () => {
  const packed = { place: [{ base: { type: "place", card: "M1" }, cells: [[0, 0], [0, 1], [1, 1]], at: [[3, 4], [5, 1, 2]] }], other: [] };
  assert.deepEqual(expandLegal(packed), [
    { type: "place", card: "M1", cells: [[3, 4], [3, 5], [4, 5]], head: [3, 4] },
    { type: "place", card: "M1", cells: [[5, 1], [5, 2], [6, 2]], head: [6, 2] },
  ]);
});

test("nothing, a plain list, and a list from the HTTP API", () => {
  assert.deepEqual(expandLegal(null), []);
  const list = [{ type: "pass", discard: "M1", draw: "S" }];
  assert.equal(expandLegal(list), list);
  assert.deepEqual(expandLegal(looseLegal(list)), list);
  assert.equal(looseLegal([]), null);
});
