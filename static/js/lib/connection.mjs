// Keeps a game document in sync with the server and sends actions.
// Prefers the WebSocket (state + RFC 6902 patches, ack/error by action id, docs/protocol.md);
// when the socket cannot be opened it polls GET /api/games/{id}/state and sends actions over
// REST, and keeps retrying the socket with exponential backoff. It converges by itself: a gap in
// versions, a `stale_version` refusal and an action left without an answer all ask the server to
// resync. No DOM: the environment (fetch, WebSocket, timers, location) is injected, so the logic
// runs under Node's test runner.

import { applyPatch } from "./patch.mjs";
import { api, ApiError } from "./api.mjs";
import { expandLegal, looseLegal } from "./legal.mjs";

const ACK_TIMEOUT_MS = 10000; // an action unanswered this long: resync and report it
const RESTART_CLOSE = 1012; // the server restarts: reconnect at once (maybe to another instance)

/** The document in an HTTP state reply: view, legal actions (as the compact form's `other`
 * list) and the turn clock, in the shape socket patches apply to. */
function docOf(data) {
  const doc = { view: data.view, legal: looseLegal(data.legal_actions) };
  if (data.clock !== undefined) doc.clock = data.clock;
  return doc;
}

export class Connection {
  /**
   * @param {object} o
   * @param {number|string} o.gameId
   * @param {(doc: object, version: number, meta: object) => void} o.onDocument new {view, legal_actions}
   *   (the legal actions expanded from the socket's compact form: the full list, as over HTTP)
   * @param {(status: string) => void} [o.onStatus] connecting | live | polling | reconnecting | offline
   * @param {(msg: object) => void} [o.onMessage] other socket messages (log, chat, presence, your_turn)
   * @param {string} [o.inviteCode] for private games
   */
  constructor(o) {
    this.gameId = o.gameId;
    this.inviteCode = o.inviteCode ?? null;
    this.onDocument = o.onDocument;
    this.onStatus = o.onStatus ?? (() => {});
    this.onMessage = o.onMessage ?? (() => {});
    this.fetch = o.fetch ?? globalThis.fetch?.bind(globalThis);
    this.WebSocket = o.WebSocket === undefined ? globalThis.WebSocket : o.WebSocket;
    this.setTimeout = o.setTimeout ?? globalThis.setTimeout.bind(globalThis);
    this.clearTimeout = o.clearTimeout ?? globalThis.clearTimeout.bind(globalThis);
    this.wsUrl = o.wsUrl ?? null; // full ws:// URL; computed from location when null
    this.pollMs = o.pollMs ?? 1500;
    this.random = o.random ?? Math.random;
    this.now = o.now ?? (() => Date.now());
    // Server time minus this browser's time (ms), from the ping with the shortest round trip:
    // turn clocks count down to the server's deadlines, so a browser clock that is off by a
    // minute must not show a minute more or less.
    this.clockOffsetMs = 0;
    this.bestRttMs = Infinity;
    this.pingSentAt = null;
    this.doc = null; // the last document as the socket sends it ({view, legal}), patched in place
    this.ackTimeoutMs = o.ackTimeoutMs ?? ACK_TIMEOUT_MS;
    this.version = -1; // version of `doc`
    this.status = "connecting";
    this.ws = null; // the open (or opening) socket, or null
    this.attempt = 0; // failed socket attempts in a row (for the backoff)
    this.pollTimer = null;
    this.retryTimer = null;
    this.nextId = 1; // action ids: the server applies the same id once
    this.waiting = new Map(); // action id -> {resolve, reject} until ack/error
    this.closed = false;
  }

  get statePath() {
    const q = this.inviteCode ? `?invite_code=${encodeURIComponent(this.inviteCode)}` : "";
    return `/api/games/${this.gameId}/state${q}`;
  }

  setStatus(s) {
    if (s !== this.status) {
      this.status = s;
      this.onStatus(s);
    }
  }

  /** Load the state over HTTP, then try the socket. Resolves after the first state. */
  async start() {
    await this.refresh();
    this.openSocket();
  }

  stop() {
    this.closed = true;
    this.clearTimeout(this.pollTimer);
    this.clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close();
  }

  /**
   * Fetch the full state over HTTP (first load, polling, or after a refused action). `force`
   * takes it even at the same version: a role change (a bot took or gave back my seat) changes
   * my legal actions without a move.
   */
  async refresh(force = false) {
    const data = await api(this.statePath, { fetchImpl: this.fetch });
    // Same version but other legal actions: my role changed (polling sees it this way only).
    const legal = looseLegal(data.legal_actions);
    const roleChanged = this.doc !== null && JSON.stringify(expandLegal(legal)) !== JSON.stringify(expandLegal(this.doc.legal));
    if (force || roleChanged || data.version !== this.version || this.doc === null) {
      this.accept(docOf(data), data.version, data);
    }
    return data;
  }

  accept(doc, version, meta = {}) {
    this.doc = doc;
    this.version = version;
    const { legal, ...rest } = doc;
    this.onDocument({ ...rest, legal_actions: expandLegal(legal) }, version, meta);
    for (const [id, w] of this.waiting) {
      if (w.version !== undefined && version >= w.version) this.settle(id, null, w.ack);
    }
  }

  backoffMs() {
    // 0.5 s, 1 s, 2 s ... capped at 30 s, with jitter so many clients do not retry in step.
    const base = Math.min(30000, 500 * 2 ** Math.min(this.attempt, 6));
    return Math.round(base * (0.75 + 0.5 * this.random()));
  }

  openSocket() {
    if (this.closed) return;
    if (!this.WebSocket) {
      this.setStatus("polling");
      return this.startPolling();
    }
    let url = this.wsUrl;
    if (!url) {
      const loc = globalThis.location;
      url = `${loc.protocol === "https:" ? "wss" : "ws"}://${loc.host}/ws/games/${this.gameId}`;
      if (this.inviteCode) url += `?invite_code=${encodeURIComponent(this.inviteCode)}`;
    }
    let opened = false;
    let ws;
    try {
      ws = new this.WebSocket(url);
    } catch {
      return this.socketFailed(false);
    }
    this.ws = ws;
    ws.onopen = () => {
      opened = true;
      this.attempt = 0;
      this.stopPolling();
      this.setStatus("live");
      // Ask for whatever we missed while away; the server answers with patches or a state.
      if (this.version >= 0) this.send({ type: "resync", version: this.version });
      this.pingSentAt = this.now();
      this.send({ type: "ping" });
    };
    ws.onmessage = (ev) => this.handle(ev.data);
    ws.onclose = (ev) => {
      if (this.ws === ws) this.ws = null;
      this.failWaiting("network", "connection lost");
      if (!this.closed) this.socketFailed(opened, ev?.code === RESTART_CLOSE);
    };
    ws.onerror = () => {}; // onclose follows and does the work
  }

  socketFailed(wasOpen, restarting = false) {
    this.attempt += 1;
    // Poll meanwhile so the table keeps moving even if the socket never comes back.
    this.startPolling();
    this.setStatus(wasOpen ? "reconnecting" : "polling");
    this.clearTimeout(this.retryTimer);
    // A restarting server asks to reconnect at once (another instance may answer); spread a
    // little so a whole room does not arrive in the same millisecond.
    const wait = restarting ? Math.round(100 + 400 * this.random()) : this.backoffMs();
    this.retryTimer = this.setTimeout(() => this.openSocket(), wait);
  }

  startPolling() {
    if (this.pollTimer !== null || this.closed) return;
    const tick = async () => {
      try {
        await this.refresh();
        if (this.status === "offline") this.setStatus(this.ws ? "live" : "polling");
      } catch {
        this.setStatus("offline");
      }
      if (this.pollTimer !== null) this.pollTimer = this.setTimeout(tick, this.pollMs);
    };
    this.pollTimer = this.setTimeout(tick, this.pollMs);
  }

  stopPolling() {
    if (this.pollTimer !== null) this.clearTimeout(this.pollTimer);
    this.pollTimer = null;
  }

  send(msg) {
    if (this.ws && this.ws.readyState === 1) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Handle one socket frame; malformed or unexpected frames trigger a resync, never a crash. */
  handle(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    // The frames of one change come as one `frames` frame: handled in their order.
    if (msg.type === "frames" && Array.isArray(msg.frames)) msg.frames.forEach((f) => this.handleFrame(f));
    else this.handleFrame(msg);
  }

  handleFrame(msg) {
    if (msg === null || typeof msg !== "object") return;
    if (msg.type === "state") {
      const { type, game_id, version, status, seat, to_act, ...doc } = msg;
      this.accept(doc, version, msg);
    } else if (msg.type === "patch") {
      if (msg.version <= this.version) return; // already have it (a resync overlap)
      if (this.doc === null || (typeof msg.base === "number" && msg.base !== this.version)) {
        return this.resync();
      }
      try {
        this.accept(applyPatch(this.doc, msg.ops), msg.version, msg);
      } catch {
        this.resync();
      }
    } else if (msg.type === "ack") {
      // The patch comes before the ack; should it not have (lost), wait for it or resync.
      const w = this.waiting.get(msg.id);
      if (!w || msg.version <= this.version) this.settle(msg.id, null, msg);
      else {
        w.version = msg.version;
        w.ack = msg;
        this.resync();
      }
    } else if (msg.type === "pong") {
      this.measureClock(msg.now);
    } else if (msg.type === "error") {
      const err = new ApiError(400, msg.code ?? "error", msg.message, msg.reason ?? null);
      if (msg.id != null && this.waiting.has(msg.id)) this.settle(msg.id, err);
      else this.onMessage(msg);
      if (msg.code === "stale_version") this.resync();
    } else {
      this.onMessage(msg);
    }
  }

  /** A pong's server time against the ping's round trip: keep the sample with the shortest one. */
  measureClock(serverMs) {
    if (typeof serverMs !== "number" || this.pingSentAt === null) return;
    const received = this.now();
    const rtt = received - this.pingSentAt;
    this.pingSentAt = null;
    if (rtt < 0 || rtt > this.bestRttMs) return;
    this.bestRttMs = rtt;
    this.clockOffsetMs = serverMs + rtt / 2 - received;
  }

  /** The server's time now (ms since the epoch), as best this connection knows it. */
  serverNow() {
    return this.now() + this.clockOffsetMs;
  }

  resync() {
    if (!this.send({ type: "resync", version: this.version })) this.refresh().catch(() => {});
  }

  settle(id, err, value) {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    this.clearTimeout(w.timer);
    if (err) w.reject(err);
    else w.resolve(value);
  }

  failWaiting(code, message) {
    for (const id of [...this.waiting.keys()]) this.settle(id, new ApiError(0, code, message));
  }

  /** Send an action made against the current version; resolves once the server accepted it. */
  async act(action) {
    const version = this.version;
    if (this.ws && this.ws.readyState === 1) {
      const id = `a${this.nextId++}`;
      const p = new Promise((resolve, reject) => {
        // No answer in time (a lost frame, a stuck server): ask where the game is, and let the
        // player decide again from there rather than wait forever.
        const timer = this.setTimeout(() => {
          this.settle(id, new ApiError(0, "timeout", "no answer from the server; the table was refreshed"));
          this.resync();
        }, this.ackTimeoutMs);
        this.waiting.set(id, { resolve, reject, timer });
      });
      this.send({ type: "action", id, version, action });
      return p;
    }
    try {
      const res = await api(`/api/games/${this.gameId}/actions`, {
        method: "POST",
        body: { version, action },
        fetchImpl: this.fetch,
      });
      await this.refresh();
      return res;
    } catch (e) {
      this.refresh().catch(() => {}); // whatever went wrong, show the server's truth
      throw e;
    }
  }

  /** Send a chat line (socket only). */
  chat(text) {
    return this.send({ type: "chat", text });
  }
}
