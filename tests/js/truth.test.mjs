// The table tells what the engine knows: the Convert treasure chosen on the ship tokens (only
// listed conversions), what is switched on for a placement and its Undo, the wording that
// follows the listed actions, seat badges once the game is over.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as st from "../../static/js/lib/state.mjs";
import * as dec from "../../static/js/lib/decisions.mjs";
import { phaseText } from "../../static/js/lib/cards.mjs";
import { seatBadges } from "../../static/js/lib/seats.mjs";

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const content = load("content.json");

function table(name) {
  const doc = load(name);
  const s = st.createState({ gameId: 1, content });
  s.seat = doc.view.viewer;
  st.setDocument(s, doc, 10, 0);
  return s;
}

test("Convert: a ship held, then a colour listed for it; the action sent is the listed one", () => {
  const s = table("convert.json");
  const legal = st.legalOf(s);
  const [card] = dec.convertCards(legal);
  assert.ok(card, "the fixture offers a conversion");
  assert.ok(dec.openConvert(s, card));
  const held = Object.entries(s.doc.view.players[s.seat].ships).filter(([, n]) => n > 0).map(([c]) => c);
  assert.deepEqual(new Set(dec.convertColours(s, "from")), new Set(held));
  assert.equal(dec.convertToSend(s), null); // nothing chosen yet (or only the ship)
  const from = dec.convertColours(s, "from")[0];
  assert.ok(dec.convertPick(s, "from", from));
  const tos = dec.convertColours(s, "to");
  assert.ok(!tos.includes(from) && tos.length > 0);
  assert.ok(!dec.convertPick(s, "to", from)); // a ship never converts to its own colour
  assert.ok(dec.convertPick(s, "to", tos[0]));
  const a = dec.convertToSend(s);
  assert.ok(legal.includes(a));
  assert.deepEqual(a.convert, [from, tos[0]]);
  assert.ok(!dec.convertPick(s, "from", "no-such-colour"));
  // A new document without conversions closes the chooser.
  st.setDocument(s, { ...s.doc, legal_actions: legal.filter((x) => !x.convert) }, 11, 0);
  dec.reconcileDecision(s);
  assert.equal(s.decision, null);
});

test("what is switched on comes from the view's turn; Undo only while the view offers take_back", () => {
  const s = table("ancestral.json");
  const v = s.doc.view;
  // Straight after "Use the Ancestral head" the engine's view offers the take-back.
  assert.deepEqual(v.turn.take_back, { kind: "ancestral" });
  assert.deepEqual(st.takeBackAction(s), { type: "take_back" });
  assert.ok(!st.legalOf(s).some((a) => a.type === "take_back")); // an undo, not a listed move
  const turn = { ...v.turn, ancestral: true, effects: ["triple_gold"], take_back: null };
  st.setDocument(s, { ...s.doc, view: { ...v, turn } }, 11, 0);
  assert.deepEqual(st.activeNow(s).map((x) => x.key), ["ancestral", "triple_gold"]);
  assert.ok(st.activeNow(s).every((x) => x.short && x.text));
  assert.equal(st.takeBackAction(s), null); // the view's turn offers no take-back here
  // The engine's view says what a take-back would undo (it is not in legal_actions).
  const open = { ...turn, take_back: { kind: "ancestral" } };
  st.setDocument(s, { view: { ...v, turn: open }, legal_actions: s.doc.legal_actions }, 12, 0);
  assert.deepEqual(st.takeBackAction(s), { type: "take_back" });
  const other = { ...open, seat: (s.seat + 1) % v.players.length };
  st.setDocument(s, { view: { ...v, turn: other }, legal_actions: [] }, 12, 0);
  assert.equal(st.takeBackAction(s), null); // not my turn: no Undo
  st.setDocument(s, { view: { ...v, turn: open }, legal_actions: s.doc.legal_actions }, 12, 0);
  s.seat = null; // a spectator sees what is on, never an Undo
  assert.equal(st.activeNow(s).length, 2);
  assert.equal(st.takeBackAction(s), null);
  st.setDocument(s, { view: { ...v, turn: { ...turn, ancestral: false, effects: [] } }, legal_actions: [] }, 13, 0);
  assert.deepEqual(st.activeNow(s), []);
});

test("the mission phase says draw when no mission can be completed", () => {
  // Unknown (a spectator: the view cannot say, R-60): no claim that a Mission is possible.
  assert.equal(phaseText("mission"), "a Mission if they can pay for one, then a draw");
  assert.equal(phaseText("mission", true), "complete a mission or draw");
  assert.equal(phaseText("mission", false), "draw a Pattern card");
  assert.equal(phaseText("place", false), "place a Dragon or pass");
});

test("a stand-in bot plays while the game runs and played once it is over", () => {
  const info = { bot: "greedy", standIn: true };
  assert.equal(seatBadges(info)[0].text, "bot (casual) plays");
  assert.equal(seatBadges(info, true)[0].text, "bot (casual) played");
  assert.equal(seatBadges({ bot: "random", standIn: false }, true)[0].text, "bot · beginner");
});
