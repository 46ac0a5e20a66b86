// The headless table state against real engine documents (fixtures from make_fixtures.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as st from "../../static/js/lib/state.mjs";
import { cellsKey, orient } from "../../static/js/lib/geometry.mjs";

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const content = load("content.json");

function table(name = "mid.json") {
  const doc = load(name);
  const s = st.createState({ gameId: 1, content });
  s.seat = doc.view.viewer;
  st.setDocument(s, doc, 10, 0);
  return s;
}

test("my hand, my turn and the action split come from the document", () => {
  const s = table();
  assert.equal(st.myHand(s).length, 2);
  assert.ok(st.isMyTurn(s));
  assert.ok(st.allPlaceActions(s).length > 0);
  assert.ok(st.otherActions(s).every((a) => a.type !== "place"));
});

test("a spectator has no hand, no actions, and cannot select", () => {
  const s = table("mid_spectator.json");
  s.seat = null;
  assert.deepEqual(st.myHand(s), []);
  assert.deepEqual(st.legalOf(s), []);
  assert.equal(st.selectCard(s, "M01"), false);
});

test("the ghost is legal exactly on the squares of a listed place action", () => {
  const s = table();
  const action = st.allPlaceActions(s)[0];
  st.selectCard(s, action.card);
  assert.ok(st.cycleLegal(s));
  const cur = st.currentAction(s);
  assert.ok(cur);
  assert.equal(cellsKey(st.ghostCells(s)), cellsKey(cur.cells));
  // Move the ghost one square at a time until it matches no listed action.
  let moved = 0;
  while (st.currentAction(s) && moved < 15) {
    st.moveGhostBy(s, 0, 1);
    moved++;
  }
  const key = cellsKey(st.ghostCells(s));
  assert.equal(st.placeActions(s).some((a) => cellsKey(a.cells) === key), !!st.currentAction(s));
});

test("cycleLegal visits every listed placement of the card", () => {
  const s = table();
  const card = st.myHand(s)[0];
  st.selectCard(s, card);
  const want = new Set(st.placeActions(s).map((a) => cellsKey(a.cells)));
  const seen = new Set();
  for (let i = 0; i < want.size; i++) {
    st.cycleLegal(s);
    seen.add(cellsKey(st.ghostCells(s)));
  }
  assert.deepEqual(seen, want);
});

test("R rotates, F mirrors the displayed shape, and both are ignored when locked", () => {
  const s = table();
  st.selectCard(s, st.myHand(s)[0]);
  st.moveGhostTo(s, [3, 3]);
  const before = st.ghostCells(s);
  st.rotateGhost(s);
  assert.equal(s.rot, 1);
  for (let i = 0; i < 3; i++) st.rotateGhost(s);
  assert.equal(cellsKey(st.ghostCells(s)), cellsKey(before));
  // F after a rotation flips what is shown left-right.
  st.rotateGhost(s);
  const shown = orient(content.shapes[content.pattern_shape[s.selected]], s.rot, s.mirrored);
  st.mirrorGhost(s);
  const flipped = orient(content.shapes[content.pattern_shape[s.selected]], s.rot, s.mirrored);
  const w = Math.max(...shown.map(([, c]) => c));
  assert.equal(cellsKey(flipped), cellsKey(shown.map(([r, c]) => [r, w - c])));
  st.cycleLegal(s);
  assert.ok(st.lockGhost(s));
  const rot = s.rot;
  st.rotateGhost(s);
  st.moveGhostBy(s, 1, 0);
  assert.equal(s.rot, rot);
});

test("lock only on a legal spot; head defaults to the action's head; choose and cycle head", () => {
  const s = table();
  st.selectCard(s, st.myHand(s)[0]);
  st.moveGhostTo(s, [7, 7]); // the pivot on the island is never legal
  assert.equal(st.lockGhost(s), false);
  st.cycleLegal(s);
  assert.ok(st.lockGhost(s));
  const a = st.currentAction(s);
  assert.deepEqual(st.headCell(s), a.head);
  const other = st.ghostCells(s).find(([r, c]) => r !== a.head[0] || c !== a.head[1]);
  assert.ok(st.chooseHead(s, other));
  assert.deepEqual(st.placementToSend(s).head, other);
  assert.equal(st.chooseHead(s, [-5, -5]), false);
  const i = s.headIndex;
  st.chooseHead(s);
  assert.equal(s.headIndex, (i + 1) % st.ghostCells(s).length);
  const sent = st.placementToSend(s);
  assert.equal(sent.type, "place");
  assert.equal(cellsKey(sent.cells), cellsKey(a.cells));
});

test("a new dragon in a later document is highlighted for a while", () => {
  const s = table();
  const doc = structuredClone(s.doc);
  doc.view.board.dragons.push({ owner: 1, cells: [[0, 0], [0, 1]], head: [0, 0], card: "S01", ancestral: false });
  st.setDocument(s, doc, 11, 1000);
  assert.deepEqual(s.lastPlaced.cells, [[0, 0], [0, 1]]);
  assert.ok(st.highlightActive(s, 2000));
  assert.ok(!st.highlightActive(s, 9000));
});

test("selection survives other players' moves but ends once my placement is done", () => {
  const s = table();
  const card = st.myHand(s)[0];
  st.selectCard(s, card);
  const doc = structuredClone(s.doc);
  doc.legal_actions = doc.legal_actions.filter((a) => a.type !== "place");
  st.setDocument(s, doc, 11);
  assert.equal(s.selected, null);
  const off = table("mid.json");
  off.doc.legal_actions = [];
  st.selectCard(off, card);
  st.setDocument(off, structuredClone(off.doc), 12);
  assert.equal(off.selected, card);
});

test("log and chat append without duplicates and stay bounded", () => {
  const s = st.createState();
  st.addLog(s, [{ seq: 1, text: "a" }, { seq: 2, text: "b" }]);
  st.addLog(s, [{ seq: 2, text: "b" }, { seq: 3, text: "c" }], 2);
  assert.deepEqual(s.log.map((e) => e.text), ["b", "c"]);
  for (let i = 0; i < 5; i++) st.addChat(s, { name: "x", text: String(i) }, 3);
  assert.deepEqual(s.chat.map((m) => m.text), ["2", "3", "4"]);
});

test("chat lines replayed by chat_history after a reconnect are not shown twice", () => {
  const s = st.createState();
  st.addChat(s, { id: 1, name: "Ann", text: "hi" });
  st.addChat(s, { id: 2, name: "Bo", text: "hello" });
  st.addChat(s, { id: 1, name: "Ann", text: "hi" });
  st.addChat(s, { name: "old server", text: "no id" });
  assert.deepEqual(s.chat.map((m) => m.text), ["hi", "hello", "no id"]);
});

test("Ancestral head: a spot listed once per realm is cycled once, and the head key picks the realm (R-56)", () => {
  const s = table("ancestral.json");
  const groups = new Map();
  for (const a of st.allPlaceActions(s)) {
    const key = `${a.card}|${cellsKey(a.cells)}`;
    groups.set(key, [...(groups.get(key) ?? []), a]);
  }
  const twice = [...groups.values()].find((g) => g.length > 1);
  assert.ok(twice, "the fixture lists some spot once per realm of the head");
  const [first, second] = twice;
  st.selectCard(s, first.card);
  // Cycling visits every distinct spot of the card once: a spot listed twice never holds it up.
  const want = new Set(st.placeActions(s).map((a) => cellsKey(a.cells)));
  const seen = new Set();
  for (let i = 0; i < want.size; i++) {
    assert.ok(st.cycleLegal(s));
    seen.add(cellsKey(st.ghostCells(s)));
  }
  assert.equal(seen.size, want.size);
  while (cellsKey(st.ghostCells(s)) !== cellsKey(first.cells)) st.cycleLegal(s);
  assert.ok(st.lockGhost(s));
  assert.deepEqual(st.headCell(s), first.head);
  assert.deepEqual(st.placementToSend(s), first);
  // The head key moves the head into the other realm: what is sent is the other listed action.
  assert.ok(st.chooseHead(s, second.head));
  assert.deepEqual(st.placementToSend(s), second);
});
