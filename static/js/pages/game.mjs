// The game page controller: loads the table, keeps it live (lib/connection.mjs), turns input
// (pointer, keyboard, buttons) into state changes, and batches redraws with requestAnimationFrame.

import { api, errorText } from "../lib/api.mjs";
import { Connection } from "../lib/connection.mjs";
import * as st from "../lib/state.mjs";
import { Board } from "../ui/board.mjs";
import { renderActions } from "../ui/actions.mjs";
import { $, fill, h } from "../ui/dom.mjs";
import { renderHand, renderMarkets, renderPlayers } from "../ui/panels.mjs";
import { renderReward } from "../ui/reward.mjs";
import { renderScores } from "../ui/scores.mjs";
import { renderWaiting, seatName } from "../ui/seats.mjs";

const gameId = Number(document.body.dataset.gameId);
const inviteCode = new URLSearchParams(location.search).get("code");
const state = st.createState({ gameId });
const baseTitle = document.title;
let me = null; // the signed-in user, or null
let conn = null; // the live Connection once the game has started
let frame = 0; // pending requestAnimationFrame id (0 = none)
let panelsDirty = true; // whether the DOM panels need rebuilding on the next frame
let wasMyTurn = false;
let logSince = 0; // next move seq to fetch from the log API (polling mode)

const board = new Board($("board"), state, { redraw: () => schedule(false), onLock: () => schedule(true) });
// Read-only handles for debugging and the browser tests (they read the state, never drive it).
window.seadragons = { state, board, st };

/** Ask for a redraw on the next animation frame; `panels` also rebuilds the DOM panels. */
function schedule(panels = true) {
  panelsDirty ||= panels;
  if (!frame) frame = requestAnimationFrame(render);
}

function render(now) {
  frame = 0;
  board.draw(now);
  if (!panelsDirty) return;
  panelsDirty = false;
  const view = st.viewOf(state);
  if (!view) return;
  const colours = view.players.map((p) => p.colour);
  renderPlayers($("players"), state);
  renderMarkets($("markets"), state, act);
  renderHand($("hand"), state, pick);
  renderActions($("actions"), state, controls);
  renderReward($("reward"), view, state.names, state.content);
  renderScores($("scores"), view.over ? view.scores : null, state.names, colours);
  renderLog();
  updateTurnAlert();
  document.body.classList.toggle("spectator", state.seat === null);
  $("board").setAttribute("aria-label", boardLabel(view));
}

function boardLabel(view) {
  const ghost = state.selected ? `; placing ${state.selected} at row ${state.anchor?.[0]}, column ${state.anchor?.[1]}, ${st.currentAction(state) ? "legal" : "not legal"}` : "";
  return `Sea Dragons board, ${view.board.dragons.length} Dragons placed${ghost}`;
}

function updateTurnAlert() {
  const mine = st.isMyTurn(state);
  $("turn-banner").hidden = !mine;
  if (mine && !wasMyTurn && document.hidden) document.title = `● Your turn · ${baseTitle}`;
  if (!mine) document.title = baseTitle;
  wasMyTurn = mine;
}
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) document.title = st.isMyTurn(state) ? `Your turn · ${baseTitle}` : baseTitle;
});

function setStatus(status) {
  state.status = status;
  const el = $("conn");
  el.dataset.status = status;
  el.textContent = { connecting: "Connecting…", live: "Live", polling: "Live (polling)", reconnecting: "Reconnecting…", offline: "Offline, retrying…" }[status] ?? status;
}

/** Send an action; input pauses until the server answers, errors are shown, not thrown. */
async function act(action) {
  if (state.pending || !conn) return;
  state.pending = true;
  state.error = null;
  schedule();
  try {
    await conn.act(action);
    if (action.type === "place") st.clearSelection(state);
  } catch (e) {
    state.error = errorText(e);
  } finally {
    state.pending = false;
    schedule();
  }
}

function pick(card) {
  if (state.selected === card) st.clearSelection(state);
  else st.selectCard(state, card);
  schedule();
}

const controls = {
  act,
  rotate: () => (st.rotateGhost(state), schedule()),
  mirror: () => (st.mirrorGhost(state), schedule()),
  nextLegal: () => (st.cycleLegal(state), schedule()),
  lock: () => (st.lockGhost(state), schedule()),
  cycleHead: () => (st.chooseHead(state), schedule()),
  cancel: () => (st.clearSelection(state), schedule()),
  confirm: () => {
    const a = state.locked && st.placementToSend(state);
    if (a) act(a);
  },
};

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/** Keyboard play: 1-9 pick a card, arrows move, R/F turn, N next legal, H head, Enter fix/confirm. */
function onKey(e) {
  if (e.target.closest("input, textarea, select") || e.altKey || e.ctrlKey || e.metaKey) return;
  const k = e.key;
  const hand = st.myHand(state);
  if (/^[1-9]$/.test(k) && hand[Number(k) - 1]) pick(hand[Number(k) - 1]);
  else if (!state.selected) return;
  else if (ARROWS[k]) {
    if (state.locked) st.unlockGhost(state);
    st.moveGhostBy(state, ...ARROWS[k]);
  } else if (k === "r" || k === "R") controls.rotate();
  else if (k === "f" || k === "F") controls.mirror();
  else if (k === "n" || k === "N") st.cycleLegal(state, e.shiftKey ? -1 : 1);
  else if (k === "h" || k === "H") st.chooseHead(state);
  else if (k === "Escape") state.locked ? st.unlockGhost(state) : st.clearSelection(state);
  else if (k === "Enter" && e.target.tagName !== "BUTTON") state.locked ? controls.confirm() : st.lockGhost(state);
  else return;
  e.preventDefault();
  schedule();
}
document.addEventListener("keydown", onKey);

// --- log, chat, presence --------------------------------------------------------------------

function renderLog() {
  const el = $("log");
  const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
  fill(el, state.log.map((e) => h("li", {}, e.text)));
  if (atEnd) el.scrollTop = el.scrollHeight;
}

async function fetchLog() {
  try {
    const q = new URLSearchParams({ since: String(logSince) });
    if (inviteCode) q.set("invite_code", inviteCode);
    const data = await api(`/api/games/${gameId}/log?${q}`);
    const lines = [];
    for (const m of data.moves ?? []) {
      for (const text of m.text ?? []) lines.push({ seq: m.seq, text });
      logSince = Math.max(logSince, m.seq + 1);
    }
    st.addLog(state, lines);
    schedule();
  } catch {
    // the log is a nicety: the board is the truth, so a failed fetch is retried next move
  }
}

function onMessage(msg) {
  if (msg.type === "chat") {
    st.addChat(state, { name: msg.name ?? msg.from ?? "?", text: String(msg.text ?? ""), at: msg.at });
    renderChat();
  } else if (msg.type === "log") {
    const texts = msg.entries ?? (Array.isArray(msg.text) ? msg.text.map((t) => ({ seq: msg.seq, text: t })) : [{ seq: msg.seq, text: msg.text }]);
    st.addLog(state, texts.filter((t) => t.text));
    schedule();
  } else if (msg.type === "presence") {
    state.presence = msg;
    const n = msg.spectators ?? 0;
    $("presence").textContent = `${n} watching`;
    schedule();
  } else if (msg.type === "error") {
    state.error = msg.message ?? msg.code;
    schedule();
  }
}

function renderChat() {
  const el = $("chat-lines");
  fill(el, state.chat.map((m) => h("li", {}, h("b", {}, `${m.name}: `), m.text)));
  el.scrollTop = el.scrollHeight;
}

$("chat-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim().slice(0, 300);
  if (!text) return;
  if (conn?.chat(text)) input.value = "";
  else $("chat-note").textContent = "Chat needs the live connection; it will come back shortly.";
});

// --- start-up -------------------------------------------------------------------------------

async function loadGame() {
  const q = inviteCode ? `?invite_code=${encodeURIComponent(inviteCode)}` : "";
  const game = await api(`/api/games/${gameId}${q}`);
  state.names = game.seats.map(seatName);
  return game;
}

async function startLive(game) {
  $("waiting").hidden = true;
  $("table").hidden = false;
  if (game.status === "finished") $("replay-link").hidden = false;
  conn = new Connection({
    gameId,
    inviteCode,
    onStatus: setStatus,
    onMessage,
    onDocument: (doc, version, meta) => {
      if (meta && "seat" in meta) state.seat = meta.seat;
      else if (state.seat === null && game.your_seat !== undefined) state.seat = game.your_seat;
      const before = state.version;
      st.setDocument(state, doc, version);
      if (version !== before) fetchLog();
      if (doc.view?.over) $("replay-link").hidden = false;
      schedule();
    },
  });
  state.seat = game.your_seat ?? null;
  await conn.start();
}

async function main() {
  try {
    [state.content, me] = await Promise.all([
      api("/content.json"),
      api("/api/me").catch(() => null),
    ]);
    $("me").textContent = me ? me.display_name : "not signed in";
    let game = await loadGame();
    while (game.status === "open") {
      renderWaiting($("waiting"), game, me, () => {});
      $("waiting").hidden = false;
      await new Promise((r) => setTimeout(r, 1500));
      game = await loadGame();
    }
    await startLive(game);
  } catch (e) {
    fill($("waiting"), h("p.error", { role: "alert" }, errorText(e)), h("a", { href: "/" }, "Back to the lobby"));
    $("waiting").hidden = false;
  }
}

main();
