// The table's cues: which sound a change makes, the switch's default and memory key, the
// gesture rule, unread chat; and the card only looked at when another seat is to play.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as cues from "../../static/js/lib/cues.mjs";
import * as st from "../../static/js/lib/state.mjs";
import { ghostSentence, squareWords } from "../../static/js/lib/speech.mjs";

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));

test("my turn and the end sound once, when they begin; the first document is no news", () => {
  const waiting = { myTurn: false, over: false };
  const mine = { myTurn: true, over: false };
  assert.deepEqual(cues.documentCues(null, mine), []);
  assert.deepEqual(cues.documentCues(waiting, mine), ["your_turn"]);
  assert.deepEqual(cues.documentCues(mine, mine), []);
  assert.deepEqual(cues.documentCues(mine, waiting), []);
  assert.deepEqual(cues.documentCues(mine, { myTurn: false, over: true }), ["end"]);
  assert.deepEqual(cues.documentCues({ myTurn: false, over: true }, { myTurn: false, over: true }), []);
});

test("a move sounds for another seat's move only; spectators hear every move", () => {
  assert.equal(cues.logCue({ seat: 1 }, 0), "move");
  assert.equal(cues.logCue({ seat: 0 }, 0), null);
  assert.equal(cues.logCue({ seat: 0 }, null), "move");
  assert.equal(cues.logCue({}, 0), null);
});

test("chat: only someone else's lines sound and count as unread while the chat is unseen", () => {
  assert.equal(cues.chatFromOther({ user_id: 7 }, 7), false);
  assert.equal(cues.chatFromOther({ user_id: 8 }, 7), true);
  assert.equal(cues.chatFromOther({ user_id: 8 }, null), true);
  assert.equal(cues.unreadAfter(0, { fromOther: true, chatSeen: false }), 1);
  assert.equal(cues.unreadAfter(1, { fromOther: true, chatSeen: true }), 1);
  assert.equal(cues.unreadAfter(1, { fromOther: false, chatSeen: false }), 1);
});

test("cues due together: the most important sounds", () => {
  assert.equal(cues.strongest(["move", "your_turn"]), "your_turn");
  assert.equal(cues.strongest(["move", "chat"]), "chat");
  assert.equal(cues.strongest(["your_turn", "end", "move"]), "end");
  assert.equal(cues.strongest([]), null);
  for (const c of cues.CUE_ORDER) assert.ok(cues.TONES[c].length > 0, c);
});

test("the switch: on at my table, off on the watch pages, a stored choice wins", () => {
  assert.equal(cues.soundOn(null, false), true);
  assert.equal(cues.soundOn(null, true), false);
  assert.equal(cues.soundOn("off", false), false);
  assert.equal(cues.soundOn("on", true), true);
  assert.notEqual(cues.soundKey(true), cues.soundKey(false));
});

test("no sound before a user gesture, nor when switched off", () => {
  assert.equal(cues.mayPlay({ on: true, gestured: false }), false);
  assert.equal(cues.mayPlay({ on: false, gestured: true }), false);
  assert.equal(cues.mayPlay({ on: true, gestured: true }), true);
});

/** A real mid-game document for seat 0 with no legal actions: another seat is to play. */
function othersTurn() {
  const doc = { ...load("mid.json"), legal_actions: [] };
  const s = st.createState({ gameId: 1, content: load("content.json") });
  s.seat = doc.view.viewer;
  st.setDocument(s, doc, 10, 0);
  return s;
}

test("a card picked while another seat is to play is only looked at: no verdict", () => {
  const s = othersTurn();
  const card = st.myHand(s)[0];
  assert.ok(st.selectCard(s, card));
  assert.equal(st.lookingOnly(s), true);
  assert.ok(st.ghostCells(s).length > 0);
  const ghost = { card, cells: st.ghostCells(s), legal: false, look: true };
  const said = ghostSentence(ghost);
  assert.match(said, /Only looking/);
  assert.doesNotMatch(said, /Not legal/);
  const words = squareWords(s.doc.view, [], s.seat, ghost).flat().join(" | ");
  assert.match(words, /only looking/);
  assert.doesNotMatch(words, /not legal/);
  st.clearSelection(s);
  assert.equal(st.lookingOnly(s), false);
});

test("with placements listed the card is placed, not looked at", () => {
  const s = st.createState({ gameId: 1, content: load("content.json") });
  const doc = load("mid.json");
  s.seat = doc.view.viewer;
  st.setDocument(s, doc, 10, 0);
  assert.ok(st.selectCard(s, st.allPlaceActions(s)[0].card));
  assert.equal(st.lookingOnly(s), false);
});
