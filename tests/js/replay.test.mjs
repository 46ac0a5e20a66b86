// Replays rebuilt from a real engine game: the final frame's public board must equal the
// engine's own final view (fixture replay.json from make_fixtures.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { buildFrames, clampStep } from "../../static/js/lib/replay.mjs";

const data = JSON.parse(readFileSync(new URL("./fixtures/replay.json", import.meta.url)));

test("frames: setup first, one per move, the final board equals the engine's", () => {
  const frames = buildFrames(data.setup, data.moves, data.final.scores);
  assert.equal(frames.length, data.moves.length + 1);
  const last = frames.at(-1).view;
  const want = data.final;
  assert.deepEqual(last.board.dragons, want.board.dragons);
  assert.deepEqual(last.board.ships, want.board.ships);
  for (const [i, p] of want.players.entries()) {
    assert.equal(last.players[i].gold, p.gold, `gold of seat ${i}`);
    assert.equal(last.players[i].heads, p.heads, `heads of seat ${i}`);
    assert.deepEqual(last.players[i].ships, p.ships, `ships of seat ${i}`);
    assert.deepEqual(last.players[i].missions, p.missions);
    assert.deepEqual(last.players[i].played, p.played);
  }
  assert.equal(last.over, true);
  assert.deepEqual(last.scores, want.scores);
});

test("frames do not share state, and the step is clamped", () => {
  const frames = buildFrames(data.setup, data.moves.slice(0, 3));
  assert.equal(frames[0].view.board.dragons.length, 0);
  assert.notEqual(frames[1].view, frames[2].view);
  assert.equal(clampStep(-4, frames), 0);
  assert.equal(clampStep(99, frames), 3);
});
