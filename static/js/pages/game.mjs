// The game page controller: loads the table, keeps it live (lib/connection.mjs), turns input
// (pointer, keyboard, buttons) into state changes, and batches redraws with requestAnimationFrame.

import { api, errorText } from "../lib/api.mjs";
import { formatDateTime, t, tn, tParts } from "../lib/i18n.mjs";
import { renderLine } from "../lib/logline.mjs";
import { Connection } from "../lib/connection.mjs";
import { cellsKey } from "../lib/geometry.mjs";
import { outcomeKey } from "../lib/outcomes.mjs";
import * as dec from "../lib/decisions.mjs";
import * as st from "../lib/state.mjs";
import { Board } from "../ui/board.mjs";
import { renderActions, updatePlacement } from "../ui/actions.mjs";
import { $, fill, h } from "../ui/dom.mjs";
import { renderHand, renderMarkets, renderPlayers } from "../ui/panels.mjs";
import { renderRealms } from "../ui/realms.mjs";
import { renderReward } from "../ui/reward.mjs";
import { renderScores } from "../ui/scores.mjs";
import { renderProfileLinks } from "../ui/ratinglinks.mjs";
import { connLabel, seatInfo, seatLabel, titleFor } from "../lib/seats.mjs";
import { logText, renderWaiting } from "../ui/seats.mjs";
import { followInputKind, initSheet, keysToggle, maxBoardSide, oneColumn, watchBars } from "../ui/layout.mjs";
import { installCardPeek } from "../ui/cards.mjs";
import { ClockPanel, TurnNotifier } from "../ui/clock.mjs"; // clocks, notifications
import { RematchPanel } from "../ui/rematch.mjs"; // rematch
import { ReasonTip } from "../ui/reason.mjs"; // why not here, under an illegal ghost
import { HintPanel } from "../ui/hint.mjs"; // the expert's move, at unrated tables
import { BoardText } from "../ui/boardtext.mjs"; // the board as a table, for screen readers
import { Announcer } from "../ui/announce.mjs"; // live regions: moves and the ghost
import { paletteToggle } from "../ui/palette.mjs"; // the colour-blind palette
import { ghostSentence, moveSentences, squareName } from "../lib/speech.mjs";
import { decisionControls, installPlacementKeys, placementControls } from "../ui/placementkeys.mjs"; // the placement keys and buttons
import { Sound } from "../ui/sound.mjs"; // the table's sounds and their switch
import { TableCues } from "../ui/tablecues.mjs"; // sounds, favicon, unread chat
import { resultFirst } from "../ui/resultfirst.mjs"; // at the end, the result at the top
import { goOnWhenForced } from "../ui/forcedstep.mjs"; // no click without a choice
import { pushOffer } from "../ui/pushoffer.mjs"; // "Notify me": pushes with the tab closed

const gameId = Number(document.body.dataset.gameId);
const inviteCode = new URLSearchParams(location.search).get("code");
const state = st.createState({ gameId });
const baseTitle = document.title;
let me = null; // the signed-in user, or null
let conn = null; // the live Connection once the game has started
let frame = 0; // pending requestAnimationFrame id (0 = none)
let panelsDirty = true; // whether the DOM panels need rebuilding on the next frame
let logSince = 0; // next move seq to fetch from the log API (polling mode)
let revealPlacing = false; // on one column, scroll the sheet to the placing buttons after the next render
let revealChooser = false; // scroll the decision's chooser into view after the next render
// deadlines are the server's, so the countdown uses the server's time as the socket
// measured it (the browser's own clock until then).
const clockPanel = new ClockPanel($("clock"), () => (conn ? conn.serverNow() : Date.now()), async () => {
  const r = await api(`/api/games/${gameId}/clock/extend`, { method: "POST" });
  return r.clock;
}, () => conn?.refresh(true).catch(() => {}));
let turnNotifier = null; // set for seated players once the game is live
let rematchPanel = null; // shown once the game is over
let cues = null; // the table's cues (TableCues), once the game is live and my seat known

const board = new Board($("board"), state, { redraw: () => schedule(false), onLock: () => schedule(true), maxSide: maxBoardSide });
watchBars(() => board.resize());
const reasonTip = new ReasonTip($("actions"), { gameId, redraw: () => schedule(false) });
const boardText = new BoardText($("board-text"), $("board-text-btn"));
const announcer = new Announcer($("said"), $("said-ghost"));
paletteToggle($("palette-btn"), () => {
  shown.clear(); // every panel shows the seats' colours: draw them all again
  schedule(true);
});
const hintPanel = new HintPanel(document.querySelector(".board-bar"), $("actions"), { gameId, state, redraw: () => schedule(true) });
// Read-only handles for debugging and the browser tests (they read the state, never drive it).
window.seadragons = { state, board, st, ghostKey: () => cellsKey(st.ghostCells(state)) };

/** Ask for a redraw on the next animation frame; `panels` also rebuilds the DOM panels. */
function schedule(panels = true) {
  panelsDirty ||= panels;
  if (!frame) frame = requestAnimationFrame(render);
}

function render() {
  frame = 0;
  ensureOutcomes();
  board.draw();
  reasonTip.update(state);
  hintPanel.update();
  // The placement bar (and the board's label) describe the ghost under the pointer on every
  // frame: moving the pointer changes nothing else.
  updatePlacement($("actions"), state, controls.touch());
  markBusy($("actions"), state.pending);
  const view = st.viewOf(state);
  if (view) {
    const label = boardLabel(view);
    if ($("board").getAttribute("aria-label") !== label) $("board").setAttribute("aria-label", label);
    // The text board and the ghost's sentence follow the same state as the canvas.
    const ghost = state.selected ? { cells: st.ghostCells(state), head: state.locked ? st.headCell(state) : null, legal: !!st.currentAction(state), look: st.lookingOnly(state) } : null;
    boardText.update(view, state.names, state.seat, ghost);
    announcer.ghost(ghost ? ghostSentence({ card: state.selected, ...ghost, locked: state.locked, outcome: st.currentOutcome(state) }, state.names) : "");
  }
  if (!panelsDirty || !view) return;
  panelsDirty = false;
  const colours = view.players.map((p) => p.colour);
  const legal = st.legalOf(state);
  const s = state;
  const mine = s.seat === null ? null : view.players[s.seat];
  // Each panel is rebuilt only when what it shows changed: a rebuild under the pointer between
  // press and release would swallow the click (and costs DOM work on every patch).
  keyed("players", [view.players, view.turn, view.over, s.seat, s.seats, s.names, s.presence], () => renderPlayers($("players"), s));
  const missionPick = s.decision?.kind === "mission" ? s.decision.mission : null;
  keyed("markets", [view.market, view.deck_sizes, legal, missionPick, s.pending], () => renderMarkets($("markets"), s, controls));
  keyed("hand", [mine, legal, s.selected, s.seat, s.decision, s.pending], () => renderHand($("hand"), s, pick, act));
  renderActions($("actions"), s, controls); // keyed per part inside (ui/actions.mjs)
  // While a tail is to be chosen, the decision panel shows the Reward Board (with clickable
  // tracks) beside the decision; the copy under the other panels steps aside meanwhile.
  const tailChoice = legal.some((a) => a.type === "choose_tail");
  keyed("reward", [view.reward, view.players.map((p) => p.tails), s.names, tailChoice], () => renderReward($("reward"), view, s.names, s.content, { hidden: tailChoice, seat: s.seat }));
  keyed("realms", [view.realms, s.names, view.over], () =>
    renderRealms($("realms"), view.realms, s.names, view.over ? { subtitle: t("game.realms_final_subtitle"), hiddenNote: t("game.realms_final_note") } : {}),
  );
  keyed("scores", [view.over, view.scores, s.names], () => renderScores($("scores"), view.over ? view.scores : null, s.names, colours));
  // Once over: each player's profile, where the game's result now shows.
  keyed("profiles", [view.over], () => view.over && loadGame().then((g) => renderProfileLinks($("profile-links"), g)).catch(() => {}));
  keyed("log", [s.log.length, s.log.at(-1), s.names], renderLog);
  keyed("conn", [s.status, view.over], () => showStatus(view.over));
  updateTurnAlert();
  if (view.over && !sheetFoldedAtEnd) {
    sheetFoldedAtEnd = true;
    if (oneColumn()) sheet.setFolded(true);
  }
  if (view.over) resultFirst({ table: $("table"), side: document.querySelector(".side-col"), parts: [$("scores"), $("rematch")] }, oneColumn());
  if (revealPlacing) {
    revealPlacing = false;
    $("actions").querySelector(".placing-buttons")?.scrollIntoView({ block: "nearest" });
  }
  if (revealChooser) {
    revealChooser = false;
    $("actions").querySelector(".chooser")?.scrollIntoView({ block: "nearest" });
  }
  document.body.classList.toggle("spectator", state.seat === null);
}

/**
 * The decision panel is busy (aria-busy) from an action sent until the server's answer is
 * shown: until then what it offers is the turn before, and its buttons wait.
 */
function markBusy(el, busy) {
  if (el.getAttribute("aria-busy") !== String(busy)) el.setAttribute("aria-busy", String(busy));
}

const shown = new Map(); // panel id -> the JSON of what it last showed

/** Run `draw` unless `inputs` are what the panel `id` already shows. */
function keyed(id, inputs, draw) {
  const key = JSON.stringify(inputs);
  if (shown.get(id) === key) return;
  shown.set(id, key);
  draw();
}

function boardLabel(view) {
  // The square named as everywhere else: column letter and row from 1 ("D8").
  const dragons = tn("game.board.dragons_placed", view.board.dragons.length);
  if (!state.selected) return t("game.board.label", { dragons });
  const at = state.anchor ? squareName(state.anchor) : t("game.board.nowhere");
  const key = st.lookingOnly(state) ? "game.board.label_looking" : st.currentAction(state) ? "game.board.label_legal" : "game.board.label_illegal";
  return t(key, { dragons, card: state.selected, at });
}

/** The banner and the tab title say when the game waits for me (a background tab shows it). */
function updateTurnAlert() {
  const mine = st.isMyTurn(state);
  $("turn-banner").hidden = !mine;
  const title = titleFor(baseTitle, mine);
  if (document.title !== title) document.title = title;
}

function setStatus(status) {
  state.status = status;
  showStatus(!!st.viewOf(state)?.over);
}

/** The connection badge: "Live" while the game runs, "Game over" once it has ended. */
function showStatus(over) {
  const el = $("conn");
  const { status, text } = connLabel(state.status, over);
  el.dataset.status = status;
  el.textContent = text;
}

const outcomeCache = new Map(); // outcomeKey -> {key, list, error}: this version's outcomes per card

/**
 * Fetch the engine's outcomes of the selected card's placements once per version and card (the
 * preview's numbers): only the seat to act, while it places.
 */
function ensureOutcomes() {
  const s = state;
  if (!s.selected || !conn || s.seat === null || !st.placeActions(s).length) return;
  const key = outcomeKey(s.version, s.selected);
  if (s.outcomes?.key === key) return;
  for (const k of outcomeCache.keys()) if (!k.startsWith(`${s.version}|`)) outcomeCache.delete(k);
  const cached = outcomeCache.get(key);
  if (cached) {
    s.outcomes = cached;
    return;
  }
  const entry = { key, list: null, error: null };
  outcomeCache.set(key, entry);
  s.outcomes = entry;
  const q = new URLSearchParams({ card: s.selected, version: String(s.version) });
  api(`/api/games/${gameId}/outcomes?${q}`)
    .then((r) => (entry.list = r.outcomes))
    .catch((e) => {
      // A newer version makes this answer useless (stale_version): the next render asks again.
      if (e?.code === "stale_version") outcomeCache.delete(key);
      else entry.error = errorText(e);
    })
    .finally(() => schedule(false));
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

// A step with nothing to choose is sent without a click (ui/forcedstep.mjs).
const goOnIfForced = goOnWhenForced(state, act);

/** A hand card was clicked: the discard while passing, else the card to place. */
function pick(card) {
  if (state.decision?.kind === "pass") dec.passDiscard(state, card);
  else if (state.selected === card) st.clearSelection(state);
  else if (st.selectCard(state, card)) {
    dec.closeDecision(state);
    revealPlacing = oneColumn(); // the sheet is small: bring the placing buttons into it
  }
  schedule();
}

/** Send the open decision's action (the chosen payment, or the pass): always a listed one. */
function sendDecision() {
  const a = dec.missionToSend(state) ?? dec.passToSend(state) ?? dec.convertToSend(state);
  if (!a) return;
  act(a).then(() => {
    if (!state.error) dec.closeDecision(state);
    schedule();
  });
}

/** Hand my seat to a bot, or take it back; then re-read seats and my actions. */
async function seatChange(what, body) {
  try {
    await api(`/api/games/${gameId}/seats/${state.seat}/${what}`, { method: "POST", body });
    await Promise.all([loadGame(), conn?.refresh(true)]);
    // A turn whose time ran out is finished by the bot; the seat comes back when it ends.
    if (what === "reclaim" && state.seats[state.seat]?.bot) {
      state.error = t("game.time_ran_out");
    }
  } catch (e) {
    state.error = errorText(e);
  }
  schedule();
}

const controls = {
  act,
  goesOnByItself: true, // a step with nothing to choose is sent without a click (goOnIfForced)
  touch: () => board.pointerType === "touch",
  // A chooser opened from the market far below, or on a phone below the sheet's fold.
  ...decisionControls(state, schedule, () => (revealChooser = true)),
  sendDecision,
  ...placementControls(state, schedule, act),
  reclaim: () => seatChange("reclaim"),
  handOver: () => seatChange("bot", { level: "greedy" }),
};

installPlacementKeys({ state, controls, pick, toggleOverlay, schedule, board: $("board"), decisions: $("actions"), hand: $("hand") });

/** Show or hide the realm majorities drawn on the board (the "Majorities" button, or M). */
function toggleOverlay() {
  board.overlay = !board.overlay;
  $("overlay-btn").setAttribute("aria-pressed", String(board.overlay));
  schedule(false);
}
$("overlay-btn").addEventListener("click", toggleOverlay);
// The placement help speaks of taps or of the mouse and keys after the last input anywhere.
board.pointerType = window.matchMedia("(pointer: coarse)").matches ? "touch" : "mouse";
followInputKind(board.pointerType, (kind) => {
  board.pointerType = kind;
  schedule();
});
keysToggle($("keys-btn"), $("keys"), () => board.resize());
const sheet = initSheet($("sheet"), $("sheet-handle"), () => board.resize());
let sheetFoldedAtEnd = false; // on one column, the sheet folds once at the end: the scores show
installCardPeek(() => state.content);

// --- log, chat, presence --------------------------------------------------------------------

function renderLog() {
  const el = $("log");
  const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
  fill(el, state.log.map((e) => h("li", {}, logText(e.text, state.names, state.content))));
  if (atEnd) el.scrollTop = el.scrollHeight;
}

/**
 * The lines of one log entry (GET /log's, or a socket's log frame: the same fields), in the
 * reader's language: each event's pieces worded from the catalogue (lib/logline.mjs); an older
 * server's English `text` when there are none.
 */
function logLines(m) {
  const lines = [];
  // A move a bot made because the clock ran out.
  if (m.timeout) lines.push({ seq: m.seq, text: t("game.log.timeout_note", { name: m.player ?? state.names[m.seat] ?? seatLabel(m.seat) }) });
  else if (m.note) lines.push({ seq: m.seq, text: m.note });
  const texts = Array.isArray(m.pieces) ? m.pieces.map(renderLine) : m.text ?? [];
  for (const text of texts) lines.push({ seq: m.seq, text });
  logSince = Math.max(logSince, m.seq + 1);
  return lines;
}

async function fetchLog() {
  try {
    const q = new URLSearchParams({ since: String(logSince) });
    if (inviteCode) q.set("invite_code", inviteCode);
    const data = await api(`/api/games/${gameId}/log?${q}`);
    st.addLog(state, (data.moves ?? []).flatMap(logLines));
    schedule();
  } catch {
    // the log is a nicety: the board is the truth, so a failed fetch is retried next move
  }
}

function onMessage(msg) {
  if (msg.type === "chat" || msg.type === "chat_history") {
    for (const m of msg.type === "chat" ? [msg] : msg.messages ?? []) {
      const fresh = msg.type === "chat" && !state.chat.some((x) => x.id === m.id);
      st.addChat(state, { id: m.id, name: m.name ?? "?", text: String(m.text ?? ""), at: m.at });
      if (fresh) cues?.chatLine(m, me?.id);
    }
    renderChat();
  } else if (msg.type === "log") {
    st.addLog(state, logLines(msg).filter((line) => line.text));
    for (const text of moveSentences(msg, state.names, state.seat)) announcer.say(text);
    cues?.move(msg, state.seat);
    schedule();
  } else if (msg.type === "presence") {
    // Presence also changes when a bot takes or gives back a seat: re-read who sits where.
    const bots = (p) => JSON.stringify((p?.seats ?? []).map((x) => !!x.bot));
    if (bots(msg) !== bots(state.presence)) refreshSeats();
    state.presence = msg;
    const n = msg.spectators ?? 0;
    $("presence").textContent = tn("game.watching", n);
    schedule();
  } else if (msg.type === "error") {
    state.error = msg.message ?? msg.code;
    schedule();
  }
}

function renderChat() {
  const el = $("chat-lines");
  // When each line was said, the reader's way, on hover (nothing for a time it cannot read).
  const when = (at) => (at && !Number.isNaN(Date.parse(at)) ? formatDateTime(at) : null);
  fill(el, state.chat.map((m) => h("li", { title: when(m.at) }, h("b", {}, `${m.name}: `), m.text)));
  el.scrollTop = el.scrollHeight;
}

$("chat-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim(); // at most the server's limit: the input's maxlength
  if (!text) return;
  if (conn?.chat(text)) input.value = "";
  else $("chat-note").textContent = t("game.chat_needs_connection");
});

// --- start-up -------------------------------------------------------------------------------

async function loadGame() {
  const q = inviteCode ? `?invite_code=${encodeURIComponent(inviteCode)}` : "";
  const game = await api(`/api/games/${gameId}${q}`);
  state.seats = game.seats.map(seatInfo);
  state.names = state.seats.map((x) => x.name);
  return game;
}

let seatsTimer = 0;
/** Re-read the seats soon (a bot took or left a seat); calls in a burst share one request. */
function refreshSeats() {
  if (seatsTimer) return;
  seatsTimer = setTimeout(async () => {
    seatsTimer = 0;
    try {
      await loadGame();
      schedule();
    } catch {
      // the panels keep the last names; the next presence change tries again
    }
  }, 300);
}

async function startLive(game) {
  if (inviteCode) $("replay-link").search = `?code=${encodeURIComponent(inviteCode)}`;
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
      dec.reconcileDecision(state);
      // A whole document (the first, a resync, polling) may follow moves this page has no log
      // lines for: read them once. Patches come with their moves' log frames.
      if (version !== before && meta && "seat" in meta) fetchLog();
      if (doc.view?.over) $("replay-link").hidden = false;
      clockPanel.update(doc.clock, state.names, state.seat);
      if (st.isMyTurn(state)) turnNotifier?.yourTurn(doc.view?.turn?.number ?? version); // once a turn
      if (doc.view?.over && !rematchPanel) (rematchPanel = new RematchPanel($("rematch"), gameId, me)).show();
      goOnIfForced();
      cues?.document({ myTurn: st.isMyTurn(state), over: doc.view?.over });
      schedule();
    },
  });
  state.seat = game.your_seat ?? null;
  if (state.seat !== null) turnNotifier = new TurnNotifier($("notify-offer"), gameId);
  if (state.seat !== null) pushOffer($("push-offer"));
  // A spectator's table is a watch page: its sounds are off until switched on.
  const sound = new Sound($("sound-btn"), { watching: state.seat === null });
  cues = new TableCues({ sound, chat: $("chat-lines"), input: $("chat-input"), badge: $("chat-unread"), jump: $("chat-jump"), announcer });
  window.seadragons.sound = sound;
  await conn.start();
}

async function main() {
  try {
    // GET /api/session answers 200 signed in or not: a signed-out page logs no failed request.
    let session;
    [state.content, session] = await Promise.all([api("/content.json"), api("/api/session").catch(() => null)]);
    me = session?.user ?? null;
    $("me").textContent = me ? me.display_name : t("common.not_signed_in");
    if (!me) {
      // The server refuses chat from sockets without a session (not_signed_in): say so up front.
      $("chat-form").hidden = true;
      fill($("chat-note"), ...tParts("game.chat_sign_in", { lobby: h("a", { href: "/" }, t("game.chat_sign_in_lobby")) }));
    }
    let game = await loadGame();
    // The waiting room: re-read the table every 1.5 s, or at once after one of our own changes.
    let wake = null;
    let shown = ""; // the table last drawn: redrawing an unchanged one would reset the controls
    const reload = () => wake?.();
    while (game.status === "open") {
      if (JSON.stringify(game) !== shown) renderWaiting($("waiting"), game, me, reload);
      shown = JSON.stringify(game);
      $("waiting").hidden = false;
      await new Promise((r) => {
        wake = r;
        setTimeout(r, 1500);
      });
      game = await loadGame();
    }
    if (game.status === "cancelled") {
      fill($("waiting"), h("h2", {}, t("common.table", { id: gameId })), h("p", {}, t("game.cancelled")), h("a", { href: "/" }, t("common.back_to_lobby")));
      return;
    }
    await startLive(game);
  } catch (e) {
    fill($("waiting"), h("p.error", { role: "alert" }, errorText(e)), h("a", { href: "/" }, t("common.back_to_lobby")));
    $("waiting").hidden = false;
  }
}

main();
