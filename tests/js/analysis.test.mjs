// The analysis panel's logic and drawing (static/js/ui/analysis.mjs), on a real analysis
// (tests/js/fixtures/analysis.json, pinned to app/review by tests/review/test_analysis_fixture.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  bestMoveOf,
  drawGraph,
  forcedText,
  graphGeometry,
  markersOf,
  moveEntry,
  nextMistake,
  seriesOf,
  statusText,
} from "../../static/js/ui/analysis.mjs";

const real = JSON.parse(readFileSync(new URL("./fixtures/analysis.json", import.meta.url)));

/** The real analysis with labels set on some moves (the logic under test reads only labels). */
function labelled(labels) {
  const copy = structuredClone(real);
  for (const m of copy.moves) if (!m.forced) m.label = labels[m.move] ?? null;
  return copy;
}

const judged = real.moves.filter((m) => !m.forced);

test("each seat's line follows its own decisions and ends at the result", () => {
  const series = seriesOf(real);
  assert.equal(series.length, real.players.length);
  for (let s = 0; s < series.length; s++) {
    const own = judged.filter((m) => m.seat === s);
    assert.deepEqual(series[s].slice(0, -1), own.map((m) => ({ move: m.move, win: m.win.played })));
    const end = series[s].at(-1);
    assert.equal(end.move, real.moves.length);
    assert.equal(end.win, real.winners.includes(s) ? 100 / real.winners.length : 0);
  }
});

test("markers are the labelled moves, with lichess's signs", () => {
  const fromServer = markersOf(real);
  assert.ok(fromServer.length > 0);
  assert.deepEqual(fromServer.map((k) => k.move), judged.filter((m) => m.label).map((m) => m.move));
  const [a, b, c] = judged.slice(3, 6).map((m) => m.move);
  const marks = markersOf(labelled({ [a]: "inaccuracy", [b]: "mistake", [c]: "blunder" }));
  assert.deepEqual(marks.map((k) => [k.move, k.mark]), [[a, "?!"], [b, "?"], [c, "??"]]);
});

test("next mistake skips inaccuracies and earlier moves, and may keep to one seat", () => {
  const [a, b, c] = judged.slice(2, 5);
  const analysis = labelled({ [a.move]: "mistake", [b.move]: "inaccuracy", [c.move]: "blunder" });
  assert.equal(nextMistake(analysis, 0), a.move);
  assert.equal(nextMistake(analysis, a.move), c.move);
  assert.equal(nextMistake(analysis, 0, { atLeast: "inaccuracy" }), a.move);
  assert.equal(nextMistake(analysis, a.move, { atLeast: "inaccuracy" }), b.move);
  assert.equal(nextMistake(analysis, c.move), null);
  assert.equal(nextMistake(analysis, 0, { seat: c.seat }), a.seat === c.seat ? a.move : c.move);
  assert.equal(nextMistake(labelled({}), 0), null);
});

test("the best move is offered only where it differs from the one played", () => {
  const differs = judged.find((m) => JSON.stringify(m.best) !== JSON.stringify(m.played));
  const same = judged.find((m) => JSON.stringify(m.best) === JSON.stringify(m.played));
  assert.deepEqual(bestMoveOf(real, differs.move).best, differs.best);
  assert.equal(bestMoveOf(real, same.move), null);
  assert.equal(bestMoveOf(real, 0), null);
  assert.equal(moveEntry(real, real.moves.length).move, real.moves.length);
});

test("status lines for an analysis under way", () => {
  assert.equal(statusText({ status: "running", percent: 40 }), "analysing: 40%");
  assert.equal(statusText({ status: "pending", percent: 0 }), "analysis queued");
  assert.equal(
    statusText({ status: "pending", percent: 0, position: 3, wait_seconds: 180 }),
    "analysis queued: number 3 in line, ready in about 3 min",
  );
  assert.match(statusText({ status: "failed", percent: 30 }), /retry/);
  assert.equal(statusText(undefined), "");
});

test("the geometry keeps every point inside the plot, 100% at the top", () => {
  const g = graphGeometry(real, 400, 120);
  for (const line of g.lines) {
    for (const [x, y] of line) {
      assert.ok(x >= g.plot.left - 1e-9 && x <= g.plot.left + g.plot.width + 1e-9);
      assert.ok(y >= g.plot.top - 1e-9 && y <= g.plot.top + g.plot.height + 1e-9);
    }
  }
  assert.ok(g.y(100) < g.y(0));
  assert.equal(g.moveAt(g.x(17)), 17);
  assert.equal(g.moveAt(-50), 1);
  assert.equal(g.moveAt(10_000), real.moves.length);
});

test("drawing strokes one line per seat in its colour and a dot per marker", () => {
  const calls = [];
  const ctx = new Proxy({}, {
    get: (target, key) => (key in target ? target[key] : (...args) => calls.push([key, ...args])),
    set: (target, key, value) => { calls.push(["set", key, value]); return true; },
  });
  const analysis = labelled({ [judged[4].move]: "blunder" });
  drawGraph(ctx, analysis, { width: 400, height: 120, colours: ["#a00", "#0a0", "#00a"], current: 10 });
  const strokes = calls.filter((c) => c[0] === "set" && c[1] === "strokeStyle").map((c) => c[2]);
  for (const colour of ["#a00", "#0a0", "#00a"]) assert.ok(strokes.includes(colour));
  assert.equal(calls.filter((c) => c[0] === "arc").length, 1);
  assert.ok(calls.some((c) => c[0] === "fillText" && c[1] === "??"));
});

test("a forced step says what was done, never a bare \"Forced move\"", () => {
  // As app/review writes a move with one legal action: its seat, turn and the action played.
  const forced = { seat: 0, turn: 25, played: { type: "decline" }, forced: true };
  assert.equal(forcedText(forced, "Ann"), "Ann: Decline (use no treasure) (the only move there was).");
  const drawn = { seat: 1, turn: 26, played: { type: "draw", source: "deck", deck: "M" }, forced: true };
  assert.match(forcedText(drawn, "Bo"), /^Bo: Draw .+ \(the only move there was\)\.$/);
  assert.equal(forcedText({ forced: true, taken_back: true, played: { type: "take_back" } }, "Bo"), "Bo took back a switch (a correction, not judged).");
});
