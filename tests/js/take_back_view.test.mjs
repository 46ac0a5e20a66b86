// The Undo of a switched-on head or treasure follows the view's turn.take_back (the engine does
// not list take_back among the legal actions), for the seat that acts only.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as st from "../../static/js/lib/state.mjs";

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));

test("Undo while the view's turn.take_back is set, for the acting seat only", () => {
  const doc = load("ancestral.json");
  const s = st.createState({ gameId: 1, content: load("content.json") });
  s.seat = doc.view.viewer;
  const v = doc.view;
  st.setDocument(s, { ...doc, view: { ...v, turn: { ...v.turn, take_back: null } } }, 10, 0);
  assert.equal(st.takeBackAction(s), null);
  const turn = { ...v.turn, ancestral: true, take_back: { kind: "ancestral" } };
  st.setDocument(s, { ...doc, view: { ...v, turn } }, 11, 0);
  assert.deepEqual(st.takeBackAction(s), { type: "take_back" });
  st.setDocument(s, { ...doc, view: { ...v, turn }, legal_actions: [] }, 12, 0);
  assert.equal(st.takeBackAction(s), null); // not deciding now (a bot plays, or not its turn)
  s.seat = null;
  st.setDocument(s, { ...doc, view: { ...v, turn } }, 13, 0);
  assert.equal(st.takeBackAction(s), null); // a spectator never gets an Undo
});
