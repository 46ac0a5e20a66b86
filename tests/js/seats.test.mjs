// Seat labels, invite links and the tab title.
import { test } from "node:test";
import assert from "node:assert/strict";
import { inviteBase, inviteUrl, logPieces, seatBadges, seatInfo, seatName, titleFor } from "../../static/js/lib/seats.mjs";

const person = { seat: 0, player: { id: 1, display_name: "Nessie" }, bot_level: null, stand_in_for: null, left: false };
const bot = { seat: 1, player: null, bot_level: "greedy", bot_name: "Marina", stand_in_for: null, left: false };
const standIn = { seat: 2, player: { id: 3, display_name: "Kraken" }, bot_level: "random", stand_in_for: "Kraken", left: true };
const empty = { seat: 3, player: null, bot_level: null };

test("a bot seat has a name of its own and a badge with its level", () => {
  assert.equal(seatName(bot), "Marina");
  assert.equal(seatName({ ...bot, bot_name: undefined }), "Casual bot"); // an older server
  assert.deepEqual(seatBadges(seatInfo(bot)), [{ kind: "bot", text: "bot · casual" }]);
});

test("a stand-in keeps the owner's name and says a bot plays; a left owner is marked", () => {
  const info = seatInfo(standIn);
  assert.equal(info.name, "Kraken");
  assert.ok(info.standIn && info.left);
  assert.deepEqual(seatBadges(info).map((b) => b.text), ["bot (beginner) plays", "left"]);
});

test("people have no badges; empty seats have no name", () => {
  assert.deepEqual(seatBadges(seatInfo(person)), []);
  assert.equal(seatName(person), "Nessie");
  assert.equal(seatName(empty), null);
  assert.ok(seatInfo(empty).empty && !seatInfo(bot).empty);
});

test("invite links carry the code alone, escaped", () => {
  assert.equal(inviteUrl("http://h:1", "Ab-_9"), "http://h:1/join/Ab-_9");
  assert.equal(inviteUrl("http://h", "a/b?c"), "http://h/join/a%2Fb%3Fc");
});

test("invite links use the server's public URL, not the address the host opened", () => {
  assert.equal(inviteBase("https://dragons.example.org/", "http://127.0.0.1:8000"), "https://dragons.example.org");
  assert.equal(inviteBase("", "http://127.0.0.1:8000"), "http://127.0.0.1:8000");
  assert.equal(inviteBase(undefined, "http://h"), "http://h");
  assert.equal(inviteBase("javascript:alert(1)", "http://h"), "http://h");
});

test("the tab title is marked on my turn and restored after", () => {
  assert.equal(titleFor("Game 3 · Sea Dragons Online", true), "● Your turn · Game 3 · Sea Dragons Online");
  assert.equal(titleFor("Game 3 · Sea Dragons Online", false), "Game 3 · Sea Dragons Online");
});

test("log lines name players instead of seat colours; ship colours stay", () => {
  const names = ["Nessie", "Random bot"];
  const pieces = logPieces("Green placed S16 (3 squares), took green ship; Orange +1 Gold", names);
  assert.deepEqual(pieces, [
    { seat: 1, name: "Random bot" },
    " placed S16 (3 squares), took green ship; ",
    { seat: 0, name: "Nessie" },
    " +1 Gold",
  ]);
  // Colours of seats not in this game, or without a name yet, are left alone.
  assert.deepEqual(logPieces("Purple to play", names), ["Purple to play"]);
  assert.deepEqual(logPieces("Orange to play", [null, "X"]), ["Orange to play"]);
  assert.deepEqual(logPieces("The game is over", names), ["The game is over"]);
});

test("the connection badge says the game is over instead of Live", async () => {
  const { connLabel } = await import("../../static/js/lib/seats.mjs");
  assert.deepEqual(connLabel("live", false), { status: "live", text: "Live" });
  assert.deepEqual(connLabel("polling", false), { status: "polling", text: "Live (polling)" });
  assert.deepEqual(connLabel("live", true), { status: "over", text: "Game over" });
  assert.deepEqual(connLabel("polling", true), { status: "over", text: "Game over" });
  // A dropped connection still says so, even after the end.
  assert.deepEqual(connLabel("offline", true), { status: "offline", text: "Offline, retrying…" });
});

test("a finished game's result: winners by name, then each name beside its total, best first", async () => {
  const { resultText } = await import("../../static/js/lib/seats.mjs");
  const scores = { winners: [1], players: [{ seat: 0, total: 64 }, { seat: 1, total: 87 }, { seat: 2, total: 51 }] };
  assert.equal(resultText(scores, ["Ann", "Marina", "Cy"]), "Marina won · Marina 87, Ann 64, Cy 51");
  const shared = { winners: [0, 2], players: [{ seat: 0, total: 70 }, { seat: 1, total: 60 }, { seat: 2, total: 70 }] };
  assert.equal(resultText(shared, ["Ann", "Bo", "Cy"]), "Ann and Cy shared the win · Ann 70, Cy 70, Bo 60");
  assert.equal(resultText(null, []), "");
});

test("an empty seat a rematch keeps says for whom", () => {
  const kept = { seat: 1, player: null, bot_level: null, reserved_for: { id: 2, display_name: "Bob" } };
  const info = seatInfo(kept);
  assert.ok(info.empty);
  assert.deepEqual(seatBadges(info), [{ kind: "reserved", text: "kept for Bob" }]);
  assert.equal(seatInfo(empty).reservedFor, null);
});
