// The replay page steps through the server's replay (the engine's views and the ops between
// them): forward by applying ops, back by reading a kept document; the documents equal the
// engine's own views at the checkpoints (made by replaying the moves in the engine).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ReplaySteps } from "../../static/js/lib/replaysteps.mjs";

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));

test("stepping forward through the ops gives the engine's view at every checkpoint", () => {
  const replay = load("replay_expansion.json");
  const views = load("replay_expansion_views.json");
  const steps = new ReplaySteps(replay);
  assert.equal(steps.length, replay.frames.length + 1);
  for (const [k, view] of Object.entries(views)) assert.deepEqual(steps.viewAt(Number(k)), view, `step ${k}`);
  const last = steps.viewAt(steps.length - 1);
  assert.ok(last.over);
  assert.deepEqual(last.scores, replay.final_scores);
  // Every hand is in the views once the game is over, Reef cards and treasures too.
  assert.ok(last.players.every((p) => Array.isArray(p.hand) && Array.isArray(p.reefs) && Array.isArray(p.treasures)));
});

test("stepping back reads the kept documents: the same views in any order", () => {
  const replay = load("replay.json");
  const forward = new ReplaySteps(replay);
  const seen = [];
  for (let i = 0; i < forward.length; i++) seen.push(JSON.stringify(forward.viewAt(i)));
  const jumping = new ReplaySteps(replay);
  for (let i = jumping.length - 1; i >= 0; i -= 7) assert.equal(JSON.stringify(jumping.viewAt(i)), seen[i]);
  assert.equal(JSON.stringify(jumping.viewAt(3)), seen[3]);
  // Reading a step never changes an earlier one (each document is a copy).
  assert.equal(JSON.stringify(forward.viewAt(0)), JSON.stringify(replay.start));
});

test("steps are clamped; each move and the Dragon it placed", () => {
  const replay = load("replay.json");
  const steps = new ReplaySteps(replay);
  assert.equal(steps.clamp(-5), 0);
  assert.equal(steps.clamp(1e9), steps.length - 1);
  assert.equal(steps.clamp(Number.NaN), 0);
  assert.equal(steps.moveAt(0), null);
  assert.equal(steps.placedAt(0), null);
  const i = replay.frames.findIndex((f) => f.action.type === "place") + 1;
  assert.equal(steps.moveAt(i).action.type, "place");
  assert.deepEqual([...steps.placedAt(i)].sort(), [...steps.moveAt(i).action.cells].sort());
  const j = replay.frames.findIndex((f) => f.action.type !== "place") + 1;
  assert.equal(steps.placedAt(j), null);
});
