// The preview's numbers are the engine's outcomes (GET .../outcomes): the client only matches
// the ghost's squares to one of them. And the ghost takes any squares when the listed
// placements allow it (extra-body and free-shape treasures): added and removed one by one, or
// "Next spot" onto each listed placement, every one of them reachable.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as st from "../../static/js/lib/state.mjs";
import { cellsKey } from "../../static/js/lib/geometry.mjs";
import { matchOutcome, outcomeBits, outcomeKey } from "../../static/js/lib/outcomes.mjs";

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const content = load("content.json");

function table(name, version = 10) {
  const doc = load(name);
  const s = st.createState({ gameId: 1, content });
  s.seat = doc.view.viewer;
  st.setDocument(s, { view: doc.view, legal_actions: doc.legal_actions }, version, 0);
  return { s, doc };
}

test("each listed placement has its outcome; the ghost's squares pick it", () => {
  const { s } = table("mid.json");
  const answer = load("outcomes_mid.json");
  st.selectCard(s, answer.card);
  const places = st.placeActions(s);
  assert.equal(answer.outcomes.length, places.length);
  s.outcomes = { key: outcomeKey(s.version, answer.card), list: answer.outcomes, error: null };
  for (let i = 0; i < Math.min(places.length, 40); i++) {
    st.cycleLegal(s);
    const a = st.currentAction(s);
    const o = st.currentOutcome(s);
    assert.ok(a && o);
    assert.equal(cellsKey(o.action.cells), cellsKey(a.cells));
  }
  // Outcomes of another version (or card) are never shown.
  s.outcomes = { ...s.outcomes, key: outcomeKey(s.version - 1, answer.card) };
  assert.equal(st.currentOutcome(s), null);
});

test("matching: exact squares only; with several entries the head's realm decides", () => {
  const o = (cells, head, cost) => ({ action: { type: "place", cells, head }, cost });
  const two = [o([[6, 6], [6, 7], [6, 8]], [6, 6], 1), o([[6, 6], [6, 7], [6, 8]], [6, 8], 2)];
  assert.equal(matchOutcome(two, [[6, 8], [6, 7], [6, 6]]).cost, 1);
  assert.equal(matchOutcome(two, [[6, 6], [6, 7], [6, 8]], [6, 8]).cost, 2);
  assert.equal(matchOutcome(two, [[6, 6], [6, 7]]), null);
  assert.equal(matchOutcome([], [[1, 1]]), null);
  assert.equal(matchOutcome(null, [[1, 1]]), null);
});

test("the bits say every number of the outcome, Reward Board Gold and tails included", () => {
  const bits = outcomeBits(
    {
      cost: 2, cashed: ["RF21"], gold: { squares: 1, treasures: 2, rewards: 2, total: 5 }, gold_after: 7, gold_change: 3,
      neighbours_gold: [{ seat: 2, gold: 1 }], ships: 1, ship_colours: ["purple"], reef_draws: 2, treasure_draws: 1,
      tails: [{ track: "purple", from: 5, to: 6, gold: 2, treasure: false }], notes: ["tails move at the next step"],
    },
    ["Ann", "Bo", "Cy"],
  );
  const text = bits.map((b) => b.text);
  assert.deepEqual(text, [
    "Cost 2 Gold",
    "+5 Gold (1 from squares, 2 from the treasure, 2 from the Reward Board)",
    "Gold 4 → 7",
    "cashes RF21",
    "1 ship",
    "+2 Reef draws",
    "+1 Hidden Treasure draw",
    "purple tail 5→6 (+2 Gold)",
    "Cy +1 Gold",
    "tails move at the next step",
  ]);
  assert.deepEqual(outcomeBits({ cost: 0, gold: { squares: 1, treasures: 0, rewards: 0, total: 1 } }).map((b) => b.text), ["No cost", "+1 Gold"]);
});

for (const name of ["extra_body.json", "free_shape.json"]) {
  test(`${name}: Next spot reaches every listed placement, each with its outcome`, () => {
    const { s, doc } = table(name);
    const answer = doc.outcomes;
    assert.ok(st.selectCard(s, answer.card));
    assert.ok(st.shapeIsFree(s), "the listed placements include other squares than the card's shape");
    s.outcomes = { key: outcomeKey(s.version, answer.card), list: answer.outcomes, error: null };
    const seen = new Set();
    const n = st.placeActions(s).length;
    for (let i = 0; i < n + 5; i++) {
      assert.ok(st.cycleLegal(s));
      const a = st.currentAction(s);
      assert.ok(a, `step ${i} is on a listed placement`);
      assert.ok(st.currentOutcome(s));
      seen.add(cellsKey(a.cells));
    }
    assert.equal(seen.size, new Set(st.placeActions(s).map((a) => cellsKey(a.cells))).size);
  });
}

test("extra body: a fifth square added by hand makes a listed placement; removing it undoes it", () => {
  const { s, doc } = table("extra_body.json");
  st.selectCard(s, doc.outcomes.card);
  const five = st.placeActions(s).find((a) => a.cells.length === 5);
  const four = st.placeActions(s).find((a) => a.cells.length === 4 && five.cells.filter((c) => a.cells.some((d) => cellsKey([c]) === cellsKey([d]))).length === 4);
  assert.ok(five && four, "a 5-square placement extending a 4-square one");
  // Put the ghost on the 4 squares, then add the fifth.
  while (cellsKey(st.ghostCells(s)) !== cellsKey(four.cells)) st.cycleLegal(s);
  const extra = five.cells.find((c) => !four.cells.some((d) => d[0] === c[0] && d[1] === c[1]));
  assert.ok(st.toggleSquare(s, extra));
  assert.equal(st.ghostCells(s).length, 5);
  assert.equal(cellsKey(st.currentAction(s).cells), cellsKey(five.cells));
  assert.ok(st.lockGhost(s));
  assert.equal(st.placementToSend(s).cells.length, 5);
  st.unlockGhost(s);
  assert.ok(st.toggleSquare(s, extra));
  assert.equal(cellsKey(st.currentAction(s).cells), cellsKey(four.cells));
  // Arrows move every square; the pointer leaves them put; the card's shape comes back.
  const before = cellsKey(st.ghostCells(s));
  st.moveGhostTo(s, [0, 0]);
  assert.equal(cellsKey(st.ghostCells(s)), before);
  st.moveGhostBy(s, 0, 0);
  assert.ok(st.shapeAgain(s));
  assert.equal(s.freeCells, null);
  assert.ok(!st.toggleSquare(s, [-1, 3])); // off the board
});

test("a base-game card is not free: its ghost keeps the card's shape", () => {
  const { s } = table("mid.json");
  st.selectCard(s, st.placeActions(s, load("outcomes_mid.json").card)[0].card);
  assert.ok(!st.shapeIsFree(s));
});
