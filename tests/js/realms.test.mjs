// Realm majorities for display: rebuilt from a board they must equal the engine's figures.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { majorityVp, realmSummary, realmsOf, standingsFromView } from "../../static/js/lib/realms.mjs";
import { buildFrames } from "../../static/js/lib/replay.mjs";

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const content = load("content.json");

/** Hidden Dragon cards per seat among the Reef cards a view shows (own, or all once over). */
function shownHidden(view) {
  return view.players.map((p) => {
    const out = {};
    for (const id of p.reefs ?? []) {
      const r = content.reefs[id];
      if (r.kind === "hidden_dragon") out[r.realm] = (out[r.realm] ?? 0) + 1;
    }
    return out;
  });
}

test("rebuilt from the board and the Reef cards a view shows, standings are the engine's", () => {
  for (const name of ["mid_spectator.json", "mid.json", "start.json", "over.json", "mission.json", "tail.json"]) {
    const { view } = load(name);
    assert.equal(view.realms.length, 4, name);
    assert.deepEqual(standingsFromView(view, shownHidden(view)), view.realms, name);
  }
});

test("a replay's frames count Hidden Dragons kept so far and end equal to final scoring", () => {
  for (const name of ["replay.json", "replay_expansion.json"]) {
    const data = load(name);
    const frames = buildFrames(data.setup, data.moves, data.final.scores, content);
    const last = frames.at(-1).view;
    // The engine's final view (everything revealed) and the final score breakdown agree.
    assert.deepEqual(last.realms, data.final.realms, name);
    for (const realm of last.realms) {
      assert.equal(realm.whirlpools, data.final.scores.realm_whirlpools[realm.realm]);
      for (const x of realm.seats) assert.equal(x.vp, data.final.scores.players[x.seat].realms[realm.realm], `${name} ${realm.realm}`);
    }
    assert.deepEqual(frames[0].view.realms.map((r) => r.leaders), [[], [], [], []]);
  }
  // replay.json has a Hidden Dragon (RF13, Starfish) kept by seat 2: it shows from then on.
  const data = load("replay.json");
  const frames = buildFrames(data.setup, data.moves, data.final.scores, content);
  const at = data.moves.findIndex((m) => m.events.some((e) => e.type === "reef_kept" && e.secret?.card === "RF13"));
  assert.ok(at >= 0);
  const starfish = (i) => frames[i].view.realms[0].seats[2].hidden;
  assert.equal(starfish(at), 0);
  assert.equal(starfish(at + 1), 1);
});

test("the Ancestral head counts twice where its head lies (R-56)", () => {
  const data = load("replay_expansion.json");
  const view = data.final;
  const anc = view.board.dragons.find((d) => d.ancestral);
  assert.ok(anc);
  const plain = { ...view, realms: undefined, board: { ...view.board, dragons: view.board.dragons.map((d) => ({ ...d, ancestral: false })) } };
  const a = standingsFromView({ ...view, realms: undefined });
  const b = standingsFromView(plain);
  const diff = a.flatMap((r, i) => r.seats.map((x, j) => x.dragons - b[i].seats[j].dragons)).reduce((x, y) => x + y, 0);
  assert.equal(diff, view.board.dragons.filter((d) => d.ancestral && !(d.head[0] === 7 || d.head[1] === 7)).length);
});

test("majority VP: first 3 per Whirlpool, second half, ties, and the 2-player variant (R-43)", () => {
  assert.deepEqual(majorityVp({ 0: [4, 8], 1: [4, 3], 2: [2, 2], 3: [2, 2] }, 7, 4), { 0: 21, 1: 10 });
  assert.deepEqual(majorityVp({ 0: [2, 2], 1: [2, 2], 2: [1, 1] }, 3, 3), { 0: 9, 1: 9 });
  assert.deepEqual(majorityVp({ 0: [2, 2], 1: [1, 1], 2: [1, 1] }, 3, 3), { 0: 9, 1: 4, 2: 4 });
  assert.deepEqual(majorityVp({ 0: [2, 2], 1: [1, 1] }, 4, 2), { 0: 8 });
  assert.deepEqual(majorityVp({ 0: [1, 1], 1: [1, 1] }, 4, 2), {});
  assert.deepEqual(majorityVp({}, 4, 3), {});
});

test("realmsOf prefers the engine's figures; the summary names the leader", () => {
  const { view } = load("mid.json");
  assert.equal(realmsOf(view), view.realms);
  const names = ["Ann", "Bo", "Cy", "Di"];
  const line = realmSummary(view.realms[0], names);
  assert.match(line, /^Starfish: /);
  const r = view.realms.find((x) => x.leaders.length === 1);
  if (r) assert.match(realmSummary(r, names), new RegExp(`${names[r.leaders[0]]} leads`));
});
