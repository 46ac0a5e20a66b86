// The service worker (static/sw.js) run in a fake worker scope: a "your turn" push shows one
// notice per game with the server's words, a push that is not ours shows nothing, and a click
// focuses the game's tab if open, else opens it, never a page of another origin.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import vm from "node:vm";

const source = readFileSync(new URL("../../static/sw.js", import.meta.url), "utf8");
const ORIGIN = "https://dragons.example";

function worker({ windows = [] } = {}) {
  const listeners = {};
  const shown = [];
  const opened = [];
  const focused = [];
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type, fn) => (listeners[type] = fn),
    skipWaiting: () => {},
    registration: { showNotification: async (title, options) => shown.push({ title, options }) },
    clients: {
      claim: async () => {},
      matchAll: async () => windows.map((url) => ({ url, focus: async () => focused.push(url) })),
      openWindow: async (url) => opened.push(url),
    },
  };
  vm.runInNewContext(source, { self, URL, String, Number, JSON });
  const dispatch = async (type, event) => {
    const waits = [];
    listeners[type]({ ...event, waitUntil: (p) => waits.push(p) });
    await Promise.all(waits);
  };
  return { dispatch, shown, opened, focused };
}

const pushOf = (data) => ({ data: { json: () => (typeof data === "string" ? JSON.parse(data) : data) } });

test("a turn push shows the server's words, one notice per game", async () => {
  const w = worker();
  await w.dispatch("push", pushOf({ type: "turn", game: 12, turn: 3, seat: 0, url: "/games/12", title: "Te toca en la partida 12", body: "Sea Dragons Online, con Bob", lang: "es" }));
  assert.equal(w.shown.length, 1);
  const [{ title, options }] = w.shown;
  assert.equal(title, "Te toca en la partida 12");
  assert.equal(options.body, "Sea Dragons Online, con Bob");
  assert.equal(options.lang, "es");
  assert.equal(options.tag, "turn-12");
  assert.deepEqual({ ...options.data }, { url: "/games/12" });
});

test("a push that is not a turn, or not JSON, shows nothing", async () => {
  const w = worker();
  await w.dispatch("push", pushOf({ type: "chat", game: 1 }));
  await w.dispatch("push", pushOf({ type: "turn", game: "1; evil" }));
  await w.dispatch("push", { data: { json: () => { throw new SyntaxError("x"); } } });
  await w.dispatch("push", { data: null });
  assert.equal(w.shown.length, 0);
});

test("a click opens the game's table, or focuses it when a tab has it open", async () => {
  let closed = 0;
  const note = (data) => ({ notification: { data, close: () => closed++ } });
  const w = worker({ windows: [`${ORIGIN}/games/7`] });
  await w.dispatch("notificationclick", note({ url: "/games/12" }));
  assert.deepEqual(w.opened, [`${ORIGIN}/games/12`]);
  await w.dispatch("notificationclick", note({ url: "/games/7" }));
  assert.deepEqual(w.focused, [`${ORIGIN}/games/7`]);
  assert.equal(closed, 2);
});

test("a click never leaves the site, whatever the notice's data says", async () => {
  const w = worker();
  await w.dispatch("notificationclick", { notification: { data: { url: "https://evil.example/x" }, close: () => {} } });
  await w.dispatch("notificationclick", { notification: { data: { url: "//evil.example/x" }, close: () => {} } });
  await w.dispatch("notificationclick", { notification: { data: null, close: () => {} } });
  assert.deepEqual(w.opened, [`${ORIGIN}/`, `${ORIGIN}/`, `${ORIGIN}/`]);
});
