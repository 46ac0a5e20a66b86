// The tutorial page's matching of a control to the step's action (ui/lesson.mjs): a placement by
// its card and squares, anything else by its fields, whatever the order of the keys.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sameAction } from "../../static/js/ui/lesson.mjs";

test("a placement matches by card and squares, in any order, whatever its head", () => {
  const a = { type: "place", card: "M35", cells: [[8, 8], [8, 9], [8, 10], [9, 8]], head: [8, 8] };
  assert.ok(sameAction(a, { ...a, cells: [[9, 8], [8, 10], [8, 9], [8, 8]], head: [9, 8] }));
  assert.ok(!sameAction(a, { ...a, card: "M07" }));
  assert.ok(!sameAction(a, { ...a, cells: [[8, 8], [8, 9], [8, 10], [9, 9]] }));
});

test("other actions match by their fields, nested ones too, in any key order", () => {
  const pass = { type: "pass", discard: "S02", draw: { source: "market", card: "S14" } };
  assert.ok(sameAction(pass, { draw: { card: "S14", source: "market" }, discard: "S02", type: "pass" }));
  assert.ok(!sameAction(pass, { ...pass, draw: { source: "deck", deck: "S" } }));
  const mission = { type: "mission", mission: "MS31", tokens: { red: 2, blue: 1 }, cards: [] };
  assert.ok(sameAction(mission, { type: "mission", mission: "MS31", cards: [], tokens: { blue: 1, red: 2 } }));
  assert.ok(!sameAction(mission, { ...mission, tokens: { red: 1, blue: 2 } }));
  assert.ok(!sameAction(null, mission));
});
