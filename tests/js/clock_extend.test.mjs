// Extra time on request: when the table offers it and the page shows the button, and the lobby
// form's choice with an extension.
import { test } from "node:test";
import assert from "node:assert/strict";
import { canExtend, clockLabel, clockSpec } from "../../static/js/lib/clock.mjs";

const now = Date.parse("2026-12-01T12:00:00Z");
const running = {
  mode: "daily", per_turn: 600, extension: 120, extended: null, turn: 3, seat: 1,
  started_at: "2026-12-01T11:55:00Z", deadline: "2026-12-01T12:05:00Z", remaining: [600, 600], timeouts: [0, 0],
};

test("only the seat to act, with time left, once a turn, at a table that offers it", () => {
  assert.equal(canExtend(running, 1, now), true);
  assert.equal(canExtend(running, 0, now), false); // not my turn
  assert.equal(canExtend(running, null, now), false); // a spectator
  assert.equal(canExtend({ ...running, extended: 3 }, 1, now), false); // had it this turn
  assert.equal(canExtend({ ...running, extended: 2 }, 1, now), true); // an earlier turn's
  assert.equal(canExtend({ ...running, extension: 0 }, 1, now), false);
  assert.equal(canExtend(running, 1, Date.parse("2026-12-01T12:06:00Z")), false); // ran out
});

test("the label says so, and the form's choice carries it", () => {
  assert.equal(clockLabel(running), "10 min per turn · 2 min more on request, once a turn");
  assert.deepEqual(clockSpec("live:300:5:120"), { mode: "live", initial: 300, per_turn: 5, extension: 120 });
  assert.deepEqual(clockSpec("live:300:5"), { mode: "live", initial: 300, per_turn: 5 });
  assert.deepEqual(clockSpec("daily:86400:3600"), { mode: "daily", per_turn: 86400, extension: 3600 });
});
