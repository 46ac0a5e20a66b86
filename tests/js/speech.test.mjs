// The table in words (lib/speech.mjs) and the seats' marks (lib/marks.mjs): square names, each
// square's content, the ghost's sentence from the engine's outcome, and moves worded from the
// server's log frames.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ghostSentence, moveSentences, squareName, squaresText, squareWords } from "../../static/js/lib/speech.mjs";
import { MARK_GLYPH, PALETTES, SEAT_MARKS, SHIP_LETTER, glyphOf, inkOn } from "../../static/js/lib/marks.mjs";

const rows = Array.from({ length: 15 }, () => ".".repeat(15));
rows[0] = "GRSW~" + ".".repeat(10);
rows[7] = "~".repeat(15);
const view = {
  board: {
    rows,
    ships: [[0, 2, "red"]],
    dragons: [{ owner: 1, cells: [[6, 3], [7, 3], [8, 3], [8, 4]], head: [8, 4], ancestral: false }],
  },
};

test("squares are named by column letter and row number, listed in reading order", () => {
  assert.equal(squareName([6, 3]), "D7");
  assert.equal(squareName([14, 14]), "O15");
  assert.equal(squaresText([[8, 4], [6, 3], [7, 3]]), "D7, D8 and E9");
  assert.equal(squaresText([[0, 0]]), "A1");
});

test("every square says what it holds: board symbols, ships, Dragons by owner, the ghost", () => {
  const words = squareWords(view, ["Nessie", "Moray"], 0, { cells: [[1, 1], [1, 2]], head: [1, 2], legal: true });
  assert.deepEqual(words[0].slice(0, 5), ["Gold space", "Reef space", "red ship", "Whirlpool", "Sea Current"]);
  assert.equal(words[6][3], "Moray's Dragon");
  assert.equal(words[8][4], "Moray's Dragon head");
  assert.equal(words[1][1], "your ghost (legal) over water");
  assert.equal(words[1][2], "your ghost's head (legal) over water");
  // My own Dragons are "your".
  assert.equal(squareWords(view, ["Nessie", "Moray"], 1)[6][3], "your Dragon");
});

test("the ghost's sentence carries the engine's outcome, and waits for it", () => {
  const outcome = { cost: 1, gold: { total: 2, squares: 2 }, ships: 1, ship_colours: ["red"] };
  const g = { card: "S16", cells: [[0, 0], [0, 1]], legal: true, locked: false, head: null, outcome };
  const said = ghostSentence(g);
  assert.match(said, /^S16 on A1 and B1\. Legal here\. Cost 1 Gold, \+2 Gold, 1 ship \(red\)\.$/);
  assert.match(ghostSentence({ ...g, outcome: null }), /Working out the outcome/);
  assert.match(ghostSentence({ ...g, legal: false }), /Not legal here\.$/);
  assert.match(ghostSentence({ ...g, locked: true, head: [0, 1] }), /head on B1/);
  assert.match(ghostSentence({ ...g, cells: [[0, -1], [0, 0]] }), /partly off the board/);
});

test("a move is worded from its log frame: names, 'you', the squares of a placement", () => {
  const frame = {
    seq: 4,
    text: ["Green placed S16 (4 squares), took red ship, paid 1 Gold; Orange +1 Gold", "Orange to play", "Orange's green tail advanced to space 2"],
    events: [{ type: "placed", cells: [[6, 3], [7, 3], [8, 3], [8, 4]], head: [8, 4] }, { type: "turn_started" }, { type: "tail_advanced" }],
  };
  const said = moveSentences(frame, ["Nessie", "Moray"], 0);
  assert.equal(said[0], "Moray placed S16 (4 squares), took red ship, paid 1 Gold; you gained 1 Gold. The Dragon covers D7, D8, D9 and E9, head on E9.");
  assert.equal(said[1], "Your turn");
  assert.equal(said[2], "Your green tail advanced to space 2");
  // A spectator hears names only.
  assert.match(moveSentences(frame, ["Nessie", "Moray"], null)[0], /; Nessie \+1 Gold\./);
  assert.deepEqual(moveSentences({ note: "Moray ran out of time", text: [] }, ["Nessie", "Moray"], 0), ["Moray ran out of time"]);
});

test("each seat has its own mark and each ship colour its own letter", () => {
  assert.equal(new Set(SEAT_MARKS).size, 5);
  assert.equal(new Set(SEAT_MARKS.map((m) => MARK_GLYPH[m])).size, 5);
  assert.equal(glyphOf(4), "★");
  assert.equal(new Set(["green", "purple", "red", "blue"].map((c) => SHIP_LETTER[c])).size, 4);
  for (const p of Object.values(PALETTES)) assert.equal(p.players.length, 5);
  assert.equal(inkOn("#f7d503"), "rgba(0,0,0,0.72)"); // dark ink on yellow
  assert.equal(inkOn("#5605a0"), "rgba(255,255,255,0.9)"); // white on deep violet
});
