// A step with nothing to choose goes on by itself: dec.forcedStep names the one listed action
// only for a lone `decline` (R-58's neutral step) or a lone `choose_tail`, never for a real choice.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as st from "../../static/js/lib/state.mjs";
import * as dec from "../../static/js/lib/decisions.mjs";

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));

/** A real engine document (the tail choice) with its legal actions replaced by `legal`. */
function tableWith(legal, seat = 0) {
  const doc = { ...load("tail.json"), legal_actions: legal };
  const s = st.createState({ gameId: 1 });
  s.seat = seat;
  st.setDocument(s, doc, 10, 0);
  return s;
}

test("a lone decline (the neutral step) is forced, and it is the listed object", () => {
  const s = tableWith([{ type: "decline" }]);
  assert.equal(dec.forcedStep(s), st.legalOf(s)[0]);
});

test("one track to move is forced; several are a choice", () => {
  assert.deepEqual(dec.forcedStep(tableWith([{ type: "choose_tail", track: "red" }])), { type: "choose_tail", track: "red" });
  const s = tableWith(load("tail.json").legal_actions);
  assert.ok(st.legalOf(s).length > 1);
  assert.equal(dec.forcedStep(s), null);
});

test("a treasure that may answer makes the step a choice", () => {
  assert.equal(dec.forcedStep(tableWith([{ type: "use_treasure", card: "HT05" }, { type: "decline" }])), null);
});

test("a lone action of another kind stays the player's to make", () => {
  for (const a of [{ type: "end_turn" }, { type: "keep_treasure", card: "HT01" }, { type: "draw", source: { deck: "S" } }]) {
    assert.equal(dec.forcedStep(tableWith([a])), null, a.type);
  }
});

test("nothing is forced for a spectator or when it is not my turn", () => {
  const spectator = tableWith([{ type: "decline" }]);
  spectator.seat = null;
  assert.equal(dec.forcedStep(spectator), null);
  assert.equal(dec.forcedStep(tableWith([])), null);
});
