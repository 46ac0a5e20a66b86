// Daily tables: each seat's time bank and its player's vacation, shown as the server sends them
// (the client never works a bank out itself).
import { test } from "node:test";
import assert from "node:assert/strict";
import { bankOf, vacationUntil } from "../../static/js/lib/clock.mjs";

const daily = {
  mode: "daily", per_turn: 86400, grace: 3600, bank_cap: 7200, turn: 4, seat: 0,
  started_at: "2026-12-01T11:55:00Z", deadline: "2026-12-04T11:55:00Z",
  remaining: [86400, 93600], timeouts: [0, 0], banks: [0, 7200],
  vacation_until: ["2026-12-03T11:55:00+00:00", null],
};

test("a seat's bank is the server's number; none without a cap or outside daily tables", () => {
  assert.equal(bankOf(daily, 1), 7200);
  assert.equal(bankOf(daily, 0), 0);
  assert.equal(bankOf({ ...daily, bank_cap: 0 }, 1), null);
  assert.equal(bankOf({ mode: "live", banks: [5, 5], bank_cap: 10 }, 0), null);
  assert.equal(bankOf({ mode: "none" }, 0), null);
});

test("vacation until: the server's time for that seat, else null, and null once it passed", () => {
  const now = Date.parse("2026-12-02T00:00:00Z");
  assert.equal(vacationUntil(daily, 0, now), "2026-12-03T11:55:00+00:00");
  assert.equal(vacationUntil(daily, 1, now), null);
  assert.equal(vacationUntil(daily, 0, Date.parse("2026-12-03T11:55:01Z")), null);
  assert.equal(vacationUntil({ mode: "live" }, 0, now), null);
  assert.equal(vacationUntil(null, 0, now), null);
});
