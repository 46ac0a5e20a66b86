// Realm majorities for display: the engine's figures, read from the view (no copy of R-43).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { realmSummary, realmsOf } from "../../static/js/lib/realms.mjs";

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));

test("realmsOf reads the engine's figures; the summary names the leader", () => {
  const { view } = load("mid.json");
  assert.equal(realmsOf(view), view.realms);
  assert.deepEqual(realmsOf(null), []);
  // A replay's view carries them too, with every Hidden Dragon counted (the game is over).
  const replay = load("replay_expansion.json");
  assert.equal(replay.start.realms.length, 4);
  const names = ["Ann", "Bo", "Cy", "Di"];
  const line = realmSummary(view.realms[0], names);
  assert.match(line, /^Starfish: /);
  const r = view.realms.find((x) => x.leaders.length === 1);
  if (r) assert.match(realmSummary(r, names), new RegExp(`${names[r.leaders[0]]} leads`));
});
