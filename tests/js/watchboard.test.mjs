// The /watch page's logic: applying the channel's frames, the filters, the texts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyWatchFrame, cellOf, keep, seatsText, statusText } from "../../static/js/lib/watchboard.mjs";

const game = (id, v, extra = {}) => ({
  id,
  v,
  players: 2,
  expansion: false,
  clock: "none",
  rated: false,
  delay: null,
  seats: [
    { name: "Ann", user: "ann", bot: null, rating: 1043 },
    { name: "Marina (greedy bot)", user: null, bot: "greedy", bot_name: "Marina", rating: null },
  ],
  spectators: 3,
  turn: 7,
  to_act: 1,
  gold: [4, 2],
  board: { rows: ".".repeat(225), ships: "", dragons: [] },
  ...extra,
});

test("a full frame replaces the picture; an update changes only what it carries", () => {
  const pic = { games: new Map(), order: [], featured: null };
  applyWatchFrame(pic, { type: "watch", full: true, games: [game(1, 3), game(2, 5)], gone: [], order: [2, 1], featured: 2 });
  assert.deepEqual(pic.order, [2, 1]);
  assert.equal(pic.featured, 2);
  applyWatchFrame(pic, { type: "watch", full: false, games: [game(1, 4)], gone: [2], order: [1], featured: 1 });
  assert.deepEqual([...pic.games.keys()], [1]);
  assert.equal(pic.games.get(1).v, 4);
  assert.deepEqual(pic.order, [1]);
  applyWatchFrame(pic, { type: "watch", full: true, games: [game(9, 0)], gone: [], order: [9], featured: 9 });
  assert.deepEqual([...pic.games.keys()], [9]);
});

test("filters keep what matches, and 'any' keeps everything", () => {
  const g = game(1, 0, { players: 3, expansion: true, clock: "live" });
  assert.equal(keep(g, {}), true);
  assert.equal(keep(g, { players: "3", expansion: "true", clock: "live" }), true);
  assert.equal(keep(g, { players: "2" }), false);
  assert.equal(keep(g, { expansion: "false" }), false);
  assert.equal(keep(g, { clock: "daily" }), false);
});

test("texts: ratings once they exist, whose turn, spectators and the delay", () => {
  assert.equal(seatsText(game(1, 0)), "Ann (1043), Marina (casual bot)");
  assert.equal(statusText(game(1, 0)), "turn 7 · Marina (casual bot) to play · 3 watching");
  assert.equal(statusText(game(1, 0, { delay: { moves: 2 } })), "turn 7 · Marina (casual bot) to play · 3 watching · 2 moves behind");
  assert.equal(statusText(game(1, 0, { delay: { seconds: 30 } })).endsWith("30 s behind"), true);
});

test("squares are two base-36 characters of r * 15 + c", () => {
  assert.deepEqual(cellOf("00"), [0, 0]);
  assert.deepEqual(cellOf("0e"), [0, 14]);
  assert.deepEqual(cellOf("0f"), [1, 0]);
  assert.deepEqual(cellOf("68"), [14, 14]);
});
