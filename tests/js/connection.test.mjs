// The connection: socket first, polling fallback, patches, resync, backoff, actions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Connection } from "../../static/js/lib/connection.mjs";

// A manual clock: timers run only when the test advances time.
function clock() {
  let now = 0;
  let id = 0;
  const timers = new Map();
  return {
    setTimeout: (fn, ms) => (timers.set(++id, { fn, at: now + ms }), id),
    clearTimeout: (i) => timers.delete(i),
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        await due[1].fn();
        await new Promise((r) => setImmediate(r));
      }
      now = end;
    },
    pending: () => timers.size,
  };
}

function fakeServer() {
  const srv = { version: 3, doc: { view: { n: 3 }, legal_actions: [{ type: "pass" }] }, posts: [], gets: 0, down: false };
  srv.fetch = async (path, init = {}) => {
    if (srv.down) throw new Error("offline");
    if (init.method === "POST") {
      const body = JSON.parse(init.body);
      srv.posts.push(body);
      if (body.version !== srv.version) {
        return { ok: false, status: 409, json: async () => ({ error: { code: "stale_version", message: "stale" } }) };
      }
      srv.version += 1;
      srv.doc = { view: { n: srv.version }, legal_actions: [] };
      return { ok: true, status: 200, json: async () => ({ version: srv.version, events: [] }) };
    }
    srv.gets += 1;
    return { ok: true, status: 200, json: async () => ({ version: srv.version, ...structuredClone(srv.doc) }) };
  };
  return srv;
}

// A fake socket class whose instances the test drives.
function fakeSockets({ refuse = false } = {}) {
  const made = [];
  class FakeWS {
    constructor(url) {
      this.url = url;
      this.sent = [];
      this.readyState = 0;
      made.push(this);
      if (refuse) queueMicrotask(() => this.onclose?.());
    }
    open() {
      this.readyState = 1;
      this.onopen?.();
    }
    receive(msg) {
      this.onmessage?.({ data: JSON.stringify(msg) });
    }
    send(text) {
      this.sent.push(JSON.parse(text));
    }
    close() {
      this.readyState = 3;
      this.onclose?.();
    }
  }
  return { FakeWS, made };
}

function connect(opts) {
  const docs = [];
  const statuses = [];
  const c = new Connection({
    gameId: 5,
    wsUrl: "ws://test/ws/games/5",
    onDocument: (doc, version) => docs.push({ doc, version }),
    onStatus: (s) => statuses.push(s),
    random: () => 0.5,
    ...opts,
  });
  return { c, docs, statuses };
}

test("no socket endpoint: falls back to polling, then retries the socket with backoff", async () => {
  const t = clock();
  const srv = fakeServer();
  const { FakeWS, made } = fakeSockets({ refuse: true });
  const { c, docs, statuses } = connect({ fetch: srv.fetch, WebSocket: FakeWS, ...t });
  await c.start();
  await new Promise((r) => setImmediate(r));
  assert.equal(docs[0].version, 3);
  assert.equal(statuses.at(-1), "polling");
  srv.version = 4;
  srv.doc = { view: { n: 4 }, legal_actions: [] };
  await t.advance(1500);
  assert.equal(docs.at(-1).version, 4);
  assert.ok(made.length >= 2, "the socket was retried");
  const gaps = [c.backoffMs()];
  c.attempt += 1;
  gaps.push(c.backoffMs());
  assert.ok(gaps[1] > gaps[0]);
  c.attempt = 50;
  assert.ok(c.backoffMs() <= 30000);
  c.stop();
});

test("socket: state, in-order patches, stale patches ignored, gaps and bad patches resync", async () => {
  const t = clock();
  const srv = fakeServer();
  const { FakeWS, made } = fakeSockets();
  const { c, docs, statuses } = connect({ fetch: srv.fetch, WebSocket: FakeWS, ...t });
  await c.start();
  const ws = made[0];
  ws.open();
  assert.equal(statuses.at(-1), "live");
  assert.deepEqual(ws.sent[0], { type: "resync", version: 3 });
  ws.receive({ type: "state", version: 7, view: { n: 7, hand: ["M01"] }, legal: null });
  assert.equal(c.version, 7);
  ws.receive({ type: "patch", version: 8, ops: [{ op: "replace", path: "/view/n", value: 8 }] });
  assert.equal(docs.at(-1).doc.view.n, 8);
  ws.receive({ type: "patch", version: 8, ops: [{ op: "replace", path: "/view/n", value: 99 }] });
  assert.equal(c.doc.view.n, 8, "an old patch is ignored");
  ws.receive({ type: "patch", version: 9, ops: [{ op: "remove", path: "/view/nothing" }] });
  assert.equal(c.version, 8, "a failing patch changes nothing");
  assert.deepEqual(ws.sent.at(-1), { type: "resync", version: 8 });
  c.stop();
});

test("socket actions resolve on ack and reject on error with the code", async () => {
  const t = clock();
  const srv = fakeServer();
  const { FakeWS, made } = fakeSockets();
  const { c } = connect({ fetch: srv.fetch, WebSocket: FakeWS, ...t });
  await c.start();
  made[0].open();
  const p = c.act({ type: "pass" });
  const sent = made[0].sent.at(-1);
  assert.equal(sent.type, "action");
  assert.equal(sent.version, 3);
  made[0].receive({ type: "patch", base: 3, version: 4, ops: [{ op: "replace", path: "/view/n", value: 4 }] });
  made[0].receive({ type: "ack", id: sent.id, version: 4 });
  assert.equal((await p).version, 4);
  const q = c.act({ type: "end_turn" });
  const id = made[0].sent.at(-1).id;
  assert.notEqual(id, sent.id);
  made[0].receive({ type: "error", id, code: "not_your_turn", message: "wait" });
  await assert.rejects(q, (e) => e.code === "not_your_turn");
  // A lost connection fails what was waiting, so the UI never hangs.
  const r = c.act({ type: "pass" });
  made[0].close();
  await assert.rejects(r, (e) => e.code === "network");
  c.stop();
});

test("one change's frames in one `frames` frame: handled in order, the ack after its patch", async () => {
  const t = clock();
  const srv = fakeServer();
  const { FakeWS, made } = fakeSockets();
  const got = [];
  const { c, docs } = connect({
    fetch: srv.fetch,
    WebSocket: FakeWS,
    onMessage: (m) => got.push(m.type),
    ...t,
  });
  await c.start();
  made[0].open();
  const p = c.act({ type: "pass" });
  const sent = made[0].sent.at(-1);
  made[0].receive({
    type: "frames",
    frames: [
      { type: "patch", base: 3, version: 4, ops: [{ op: "replace", path: "/view/n", value: 4 }] },
      { type: "log", seq: 4, events: [] },
      { type: "your_turn", version: 4, seat: 0 },
      { type: "ack", id: sent.id, version: 4 },
    ],
  });
  assert.equal((await p).version, 4);
  assert.equal(docs.at(-1).version, 4);
  assert.deepEqual(got, ["log", "your_turn"]);
  // A bundle with a gap resyncs, as its frames would one by one.
  made[0].receive({ type: "frames", frames: [{ type: "patch", base: 9, version: 10, ops: [] }] });
  assert.equal(made[0].sent.at(-1).type, "resync");
  c.stop();
});

test("other socket messages go to onMessage", async () => {
  const t = clock();
  const { FakeWS, made } = fakeSockets();
  const got = [];
  const { c } = connect({ fetch: fakeServer().fetch, WebSocket: FakeWS, onMessage: (m) => got.push(m), ...t });
  await c.start();
  made[0].open();
  made[0].receive({ type: "chat", name: "Ann", text: "hi" });
  made[0].receive({ type: "presence", spectators: 2 });
  made[0].onmessage({ data: "not json" });
  assert.deepEqual(got.map((m) => m.type), ["chat", "presence"]);
  assert.ok(c.chat("hello"));
  assert.deepEqual(made[0].sent.at(-1), { type: "chat", text: "hello" });
  c.stop();
});

test("REST actions: POST with the version, then refresh; stale refusals refresh too", async () => {
  const t = clock();
  const srv = fakeServer();
  const { c, docs } = connect({ fetch: srv.fetch, WebSocket: null, ...t });
  await c.start();
  await c.act({ type: "pass" });
  assert.deepEqual(srv.posts[0], { version: 3, action: { type: "pass" } });
  assert.equal(docs.at(-1).version, 4);
  srv.version = 9; // someone else moved
  await assert.rejects(c.act({ type: "pass" }), (e) => e.code === "stale_version" && e.status === 409);
  await new Promise((r) => setImmediate(r));
  assert.equal(c.version, 9);
  c.stop();
});

test("polling shows offline while the server is unreachable and recovers", async () => {
  const t = clock();
  const srv = fakeServer();
  const { c, statuses } = connect({ fetch: srv.fetch, WebSocket: null, ...t });
  await c.start();
  srv.down = true;
  await t.advance(1600);
  assert.equal(statuses.at(-1), "offline");
  srv.down = false;
  await t.advance(1600);
  assert.equal(statuses.at(-1), "polling");
  c.stop();
  assert.equal(t.pending(), 0);
});

test("polling takes a new document when my actions change without a move (seat taken back)", async () => {
  const t = clock();
  const srv = fakeServer();
  srv.doc.legal_actions = []; // a bot plays my seat: nothing for me to do
  const { c, docs } = connect({ fetch: srv.fetch, WebSocket: null, ...t });
  await c.start();
  const seen = docs.length;
  await t.advance(1600);
  assert.equal(docs.length, seen, "an unchanged state is not taken again");
  srv.doc.legal_actions = [{ type: "pass" }]; // reclaimed: same version, my decisions are back
  await t.advance(1600);
  assert.equal(docs.length, seen + 1);
  assert.deepEqual(docs.at(-1).doc.legal_actions, [{ type: "pass" }]);
  assert.equal(docs.at(-1).version, 3);
  c.stop();
});

test("socket documents carry compact legal actions; the page gets them expanded", async () => {
  const t = clock();
  const { FakeWS, made } = fakeSockets();
  const { c, docs } = connect({ fetch: fakeServer().fetch, WebSocket: FakeWS, ...t });
  await c.start();
  assert.deepEqual(docs.at(-1).doc.legal_actions, [{ type: "pass" }], "over HTTP: the plain list");
  made[0].open();
  const place = { base: { type: "place", card: "M1" }, cells: [[0, 0], [0, 1]], at: [[2, 3], [4, 4, 1]] };
  made[0].receive({ type: "state", version: 3, seat: 0, view: { n: 3 }, legal: { place: [place], other: [{ type: "pass" }] } });
  assert.deepEqual(docs.at(-1).doc.legal_actions, [
    { type: "place", card: "M1", cells: [[2, 3], [2, 4]], head: [2, 3] },
    { type: "place", card: "M1", cells: [[4, 4], [4, 5]], head: [4, 5] },
    { type: "pass" },
  ]);
  made[0].receive({ type: "patch", base: 3, version: 4, ops: [{ op: "replace", path: "/legal", value: null }] });
  assert.deepEqual(docs.at(-1).doc.legal_actions, []);
  assert.equal(docs.at(-1).doc.legal, undefined, "the page never sees the compact form");
  c.stop();
});

test("an ack ahead of its patch waits for the patch (resyncing), so the act resolves on a new document", async () => {
  const t = clock();
  const { FakeWS, made } = fakeSockets();
  const { c } = connect({ fetch: fakeServer().fetch, WebSocket: FakeWS, ...t });
  await c.start();
  made[0].open();
  let done = false;
  const p = c.act({ type: "pass" }).then((v) => ((done = true), v));
  const id = made[0].sent.at(-1).id;
  made[0].receive({ type: "ack", id, version: 4 });
  await new Promise((r) => setImmediate(r));
  assert.equal(done, false, "the document is still at 3");
  assert.deepEqual(made[0].sent.at(-1), { type: "resync", version: 3 });
  made[0].receive({ type: "patch", base: 3, version: 4, ops: [{ op: "replace", path: "/view/n", value: 4 }] });
  assert.equal((await p).version, 4);
  assert.equal(c.version, 4);
  c.stop();
});

test("an action without an answer resyncs and fails after the timeout, instead of hanging", async () => {
  const t = clock();
  const { FakeWS, made } = fakeSockets();
  const { c } = connect({ fetch: fakeServer().fetch, WebSocket: FakeWS, ackTimeoutMs: 5000, ...t });
  await c.start();
  made[0].open();
  const p = c.act({ type: "pass" });
  const outcome = p.then(() => "resolved", (e) => e.code); // handled at once: it rejects mid-advance
  const sentBefore = made[0].sent.length;
  await t.advance(4999);
  assert.equal(made[0].sent.length, sentBefore, "still waiting");
  await t.advance(1);
  assert.equal(await outcome, "timeout");
  assert.deepEqual(made[0].sent.at(-1), { type: "resync", version: 3 });
  c.stop();
});

test("stale_version resyncs; a server restart (1012) reconnects at once", async () => {
  const t = clock();
  const { FakeWS, made } = fakeSockets();
  const { c } = connect({ fetch: fakeServer().fetch, WebSocket: FakeWS, ...t });
  await c.start();
  made[0].open();
  const p = c.act({ type: "pass" });
  const id = made[0].sent.at(-1).id;
  made[0].receive({ type: "error", id, code: "stale_version", message: "moved on" });
  await assert.rejects(p, (e) => e.code === "stale_version");
  assert.deepEqual(made[0].sent.at(-1), { type: "resync", version: 3 });
  made[0].readyState = 3;
  made[0].onclose({ code: 1012 });
  await t.advance(500);
  assert.equal(made.length, 2, "a new socket within half a second");
  c.stop();
});

test("the server's time: a ping on open, the pong's time corrected by half the round trip", async () => {
  const t = clock();
  const srv = fakeServer();
  const { FakeWS, made } = fakeSockets();
  let local = 1_000_000; // this browser's clock, 90 s behind the server's
  const { c } = connect({ fetch: srv.fetch, WebSocket: FakeWS, now: () => local, ...t });
  await c.start();
  assert.equal(c.serverNow(), local, "no measurement yet: the browser's own time");
  made[0].open();
  assert.deepEqual(made[0].sent.at(-1), { type: "ping" });
  local += 40; // 40 ms round trip; the server answered half-way
  made[0].receive({ type: "pong", now: 1_000_000 + 90_000 + 20 });
  assert.equal(c.serverNow(), local + 90_000);
  // A later sample with a longer round trip is less precise: it is not taken.
  c.pingSentAt = local;
  local += 400;
  made[0].receive({ type: "pong", now: local + 90_000 + 5000 });
  assert.equal(c.serverNow(), local + 90_000);
  // A pong nobody asked for (no ping in flight) changes nothing.
  made[0].receive({ type: "pong", now: 0 });
  assert.equal(c.serverNow(), local + 90_000);
  c.stop();
});
