// Turn clocks, "Your games" lines and notification rules.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  clockLabel,
  clockSpec,
  formatSeconds,
  formatSetting,
  homeLine,
  isFull,
  isRunning,
  remainingFor,
  shouldNotify,
  shouldOfferNotifications,
  titleWithCount,
  urgency,
} from "../../static/js/lib/clock.mjs";

const T0 = Date.parse("2026-11-30T12:00:00+00:00");
const live = {
  mode: "live", initial: 600, per_turn: 10, turn: 7, seat: 1,
  started_at: "2026-11-30T12:00:00+00:00", deadline: "2026-11-30T12:05:00+00:00",
  remaining: [420.5, 300], timeouts: [0, 1],
};

test("durations read like clocks, settings like people say them", () => {
  assert.equal(formatSeconds(7.9), "0:07");
  assert.equal(formatSeconds(245), "4:05");
  assert.equal(formatSeconds(3723), "1:02:03");
  assert.equal(formatSeconds(2 * 86400 + 3 * 3600 + 5), "2 d 3 h");
  assert.equal(formatSeconds(-3), "0:00");
  assert.deepEqual([600, 90, 86400, 259200, 5].map(formatSetting), ["10 min", "90 s", "24 h", "3 days", "5 s"]);
});

test("labels: live and daily clocks, nothing for none", () => {
  assert.equal(clockLabel(live), "Live clock · 10 min + 10 s a turn");
  assert.equal(clockLabel({ mode: "daily", per_turn: 86400 }), "24 h per turn");
  assert.equal(clockLabel({ mode: "none" }), "");
  assert.equal(clockLabel(undefined), "");
});

test("the running seat counts down to the deadline; the others show their bank", () => {
  assert.ok(isRunning(live, 1) && !isRunning(live, 0));
  assert.equal(remainingFor(live, 1, T0 + 60_000), 240);
  assert.equal(remainingFor(live, 1, T0 + 400_000), 0);
  assert.equal(remainingFor(live, 0, T0 + 60_000), 420.5);
  assert.equal(remainingFor({ mode: "none" }, 0, T0), null);
  assert.equal(remainingFor({ ...live, remaining: null }, 0, T0), null); // not started
});

test("urgency: low in the last tenth (at least 30 s), out at zero, only for the running seat", () => {
  assert.equal(urgency(live, 1, T0), "ok");
  assert.equal(urgency(live, 1, T0 + 271_000), "low");
  assert.equal(urgency(live, 1, T0 + 300_000), "out");
  assert.equal(urgency(live, 0, T0 + 300_000), "ok");
});

test("the lobby title counts games waiting for me", () => {
  assert.equal(titleWithCount("Lobby · Sea Dragons Online", 0), "Lobby · Sea Dragons Online");
  assert.equal(titleWithCount("Lobby · Sea Dragons Online", 3), "(3) Lobby · Sea Dragons Online");
});

test("a notification only while hidden, with permission, once per version", () => {
  const base = { hidden: true, permission: "granted", version: 4, lastNotified: 3 };
  assert.ok(shouldNotify(base));
  assert.ok(!shouldNotify({ ...base, hidden: false }));
  assert.ok(!shouldNotify({ ...base, permission: "default" }));
  assert.ok(!shouldNotify({ ...base, lastNotified: 4 }));
  assert.ok(!shouldNotify({ ...base, muted: true })); // the page's own "off" switch
  assert.ok(shouldOfferNotifications({ supported: true, permission: "default", asked: false }));
  assert.ok(!shouldOfferNotifications({ supported: true, permission: "default", asked: true }));
  assert.ok(!shouldOfferNotifications({ supported: true, permission: "denied", asked: false }));
  assert.ok(!shouldOfferNotifications({ supported: false, permission: "default", asked: false }));
});

test("a Your games line names the others, the clock and the time left, or the winners", () => {
  const seats = [
    { seat: 0, player: { id: 1, display_name: "Ann" } },
    { seat: 1, player: { id: 2, display_name: "Bob" } },
    { seat: 2, player: null, bot_level: "greedy", bot_name: "Marina" },
  ];
  const game = { status: "live", seats, your_seat: 1, clock: live };
  assert.equal(homeLine(game, 2, T0 + 60_000), "with Ann, Marina · Live clock · 10 min + 10 s a turn · 4:00 left");
  const done = { status: "finished", seats, winners: ["Ann", "Marina"], clock: { mode: "none" } };
  assert.equal(homeLine(done, 2, T0), "with Ann, Marina · won by Ann and Marina");
  // A waiting table with every seat taken waits for its host, not for players (the server's
  // `full` when it sends one, else counted from the seats).
  assert.equal(homeLine({ status: "open", seats, clock: { mode: "none" } }, 1, T0), "with Bob, Marina · full, waiting for the host to start");
  assert.equal(homeLine({ status: "open", seats, full: false, clock: { mode: "none" } }, 1, T0), "with Bob, Marina · waiting for players");
  const gap = [seats[0], { seat: 1, player: null, bot_level: null }, seats[2]];
  assert.equal(homeLine({ status: "open", seats: gap, clock: { mode: "none" } }, 1, T0), "with open seat, Marina · waiting for players");
  assert.ok(isFull({ seats }) && !isFull({ seats: gap }) && isFull({ seats: gap, full: true }));
});

test("the lobby form's clock choice becomes the API's clock", () => {
  assert.deepEqual(clockSpec("live:300:5"), { mode: "live", initial: 300, per_turn: 5 });
  assert.deepEqual(clockSpec("daily:86400"), { mode: "daily", per_turn: 86400 });
  assert.deepEqual(clockSpec("none"), { mode: "none" });
  assert.deepEqual(clockSpec(null), { mode: "none" });
});
