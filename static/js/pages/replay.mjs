// The replay page: step through a finished game with a slider, buttons and arrow keys. The
// server replays the stored moves in the engine (GET /api/games/{id}/replay) and sends its view
// at the start and the ops from each move's view to the next (lib/replaysteps.mjs applies them),
// with every hand shown (the game is over, R-60): every number on the page is the engine's.

import { api, errorText } from "../lib/api.mjs";
import { formatPercent, t } from "../lib/i18n.mjs";
import { actionLabel } from "../lib/cards.mjs";
import { renderLine } from "../lib/logline.mjs";
import { ReplaySteps } from "../lib/replaysteps.mjs";
import * as st from "../lib/state.mjs";
import { Board } from "../ui/board.mjs";
import { $, fill, h } from "../ui/dom.mjs";
import { installCardPeek } from "../ui/cards.mjs";
import { maxBoardSide, watchBars } from "../ui/layout.mjs";
import { renderPlayers } from "../ui/panels.mjs";
import { renderRealms } from "../ui/realms.mjs";
import { renderScores } from "../ui/scores.mjs";
import { seatInfo, seatLabel } from "../lib/seats.mjs";
import { logText } from "../ui/seats.mjs";
import { BoardText } from "../ui/boardtext.mjs";
import { paletteToggle } from "../ui/palette.mjs";
import { bestMoveOf, mountAnalysis, seatColours, statusText } from "../ui/analysis.mjs";

const gameId = Number(document.body.dataset.gameId);
// Private games: the invite code (from the game page's link) lets a non-player watch it.
const code = new URLSearchParams(location.search).get("code");
const q = code ? `?invite_code=${encodeURIComponent(code)}` : "";
const state = st.createState({ gameId }); // seat stays null: a replay is read-only
let steps = null; // the ReplaySteps once loaded
let step = 0; // the step shown (0: the start)
let frame = 0; // pending animation frame id
let review = null; // the mounted analysis panel, once the game's analysis exists
let analysis = null;

/** A frame's log lines in the reader's language (an older replay's English `lines` without pieces). */
const logLinesOf = (f) => (Array.isArray(f?.pieces) ? f.pieces.map(renderLine) : f?.lines ?? []);
// A move the log has no line for (a step with nothing to choose: a tail that moves on, no
// treasure used) is said by its action, so no entry of the list is blank.
const linesOf = (f) => {
  const lines = logLinesOf(f);
  if (lines.length || !f?.action) return lines;
  return [t("replay.step_by", { name: state.names[f.seat] ?? seatLabel(f.seat), action: actionLabel(state.content, f.action) })];
};

const board = new Board($("board"), state, { redraw: () => (frame ||= requestAnimationFrame(draw)), maxSide: maxBoardSide });
watchBars(() => board.resize());
const boardText = new BoardText($("board-text"), $("board-text-btn"));
paletteToggle($("palette-btn"), () => show(step));
// Read-only handles for the browser tests (they read, never drive).
window.seadragons = { state, board, st, replay: () => ({ steps, step }), review: () => ({ analysis, best: state.bestMove }) };

function draw() {
  frame = 0;
  board.draw();
}

function show(i) {
  if (!steps) return;
  step = steps.clamp(i);
  const view = steps.viewAt(step);
  const move = steps.moveAt(step);
  state.doc = { view, legal_actions: [] };
  // Highlight what this move placed (kept on while the step is shown).
  const placed = steps.placedAt(step);
  state.lastPlaced = placed ? { cells: placed, at: Date.now() + 1e9, still: true } : null;
  $("slider").value = String(step);
  const last = steps.length - 1;
  $("step-label").textContent = step === 0 ? t("replay.setup") : t("replay.move_of", { n: step, last });
  const who = move ? state.names[move.seat] ?? "" : "";
  const title = step === 0 ? t("replay.setup") : who ? t("replay.move_by", { n: step, name: who }) : t("replay.move", { n: step });
  fill(
    $("move-text"),
    h("h3", {}, title),
    h("ul", {}, linesOf(move).map((line) => h("li", {}, logText(line, state.names, state.content)))),
  );
  renderPlayers($("players"), state);
  boardText.update(view, state.names, null, null);
  renderRealms($("realms"), view.realms, state.names, {
    subtitle: step === last ? t("replay.realms_final") : t("replay.realms_at_move"),
    hiddenNote: t("replay.realms_note"),
  });
  renderScores($("scores"), view.over ? view.scores : null, state.names, view.players.map((p) => p.colour));
  showReview();
  for (const li of $("moves").children) li.classList.toggle("current", Number(li.dataset.step) === step);
  // Scroll only the move list (scrollIntoView would scroll the whole page too).
  const cur = $("moves").querySelector(".current");
  const list = $("moves");
  if (cur) list.scrollTop = cur.offsetTop - list.clientHeight / 2;
  frame ||= requestAnimationFrame(draw);
}

// The expert's review of this move: the graph's cursor, the label, and the better placement
// outlined on the board beside the Dragon played (the server's analysis, never worked out here).
function showReview() {
  state.bestMove = null;
  if (!review) return;
  review.show(step);
  const best = bestMoveOf(analysis, step);
  const box = $("analysis-best");
  if (!best) {
    box.textContent = "";
    return;
  }
  if (best.best?.type === "place") state.bestMove = best.best;
  const chances = { best: formatPercent(best.win.best), played: formatPercent(best.win.played) };
  box.textContent = best.best?.type === "place"
    ? t("replay.best_place", { card: best.best.card, ...chances })
    : t("replay.best_action", { action: actionLabel(state.content, best.best ?? {}), ...chances });
}

// A finished game's analysis: shown when it exists; else its place in line or progress while
// it waits or runs (polled: the requester's polls keep their request first in line), or the
// "Analyse this game" button (analyses are made on request, docs/review.md).
async function loadAnalysis(replay) {
  const r = await fetch(`/api/games/${gameId}/analysis${q}`, { credentials: "same-origin" });
  const el = $("analysis");
  if (r.status === 200) {
    analysis = await r.json();
    el.hidden = false;
    const names = state.names;
    const holder = h("div");
    fill(el, h("h3", {}, t("replay.review")), holder, h("p#analysis-best.analysis-best", { "aria-live": "polite" }));
    review = mountAnalysis(holder, analysis, {
      names,
      content: state.content,
      colours: seatColours(replay.start.players.map((p) => p.colour)),
      onSelect: (move) => show(move),
    });
    show(step);
  } else if (r.status === 202) {
    showAnalysisStatus(replay, await r.json());
  }
}

/** A 202 answer: the button when nobody asked (or the analysis failed), else its status, asked
 *  again in a while. */
function showAnalysisStatus(replay, status, note = null) {
  const el = $("analysis");
  el.hidden = false;
  const waiting = status.status === "pending" || status.status === "running";
  const button = waiting ? null : h("button#analyse.button", { type: "button", onclick: () => askForAnalysis(replay) }, t("analysis.request"));
  fill(el, h("h3", {}, t("replay.review")), h("p.muted", { role: "status" }, note ?? statusText(status)), button);
  if (waiting) setTimeout(() => loadAnalysis(replay).catch(() => {}), 5000);
}

async function askForAnalysis(replay) {
  try {
    showAnalysisStatus(replay, await api(`/api/games/${gameId}/analysis${q}`, { method: "POST" }));
  } catch (e) {
    // Busy (503) or the reader's own bound (429): the server's words say how long to wait.
    showAnalysisStatus(replay, { status: "none" }, errorText(e));
  }
}

/** A game still being played has no replay yet: the page says so instead of an empty board,
 * slider and move list. */
function notOver() {
  fill(document.querySelector(".table.replay"), h("section.panel.replay-not-over", {}, h("p", {}, t("replay.not_over")), h("a.button", { href: `/games/${gameId}${location.search}` }, t("replay.back_to_game"))));
}

async function main() {
  try {
    const [content, game] = await Promise.all([
      api("/content.json"),
      api(`/api/games/${gameId}${q}`).catch(() => null), // seats: bot badges and the same names as the table
    ]);
    state.content = content;
    if (game && game.status !== "finished") {
      notOver();
      return;
    }
    const replay = await api(`/api/games/${gameId}/replay${q}`);
    state.seats = game ? game.seats.map(seatInfo) : [];
    state.names = game ? state.seats.map((x) => x.name) : replay.seats ?? [];
    steps = new ReplaySteps(replay);
    $("slider").max = String(steps.length - 1);
    fill(
      $("moves"),
      replay.frames.map((f, i) => h("li", { dataset: { step: i + 1 }, onclick: () => show(i + 1) }, `${i + 1}. `, logText(linesOf(f)[0] ?? "", state.names, content))),
    );
    show(0);
    loadAnalysis(replay).catch(() => {}); // the review is extra: the replay works without it
  } catch (e) {
    if (e?.code === "not_finished") notOver();
    else fill($("move-text"), h("p.error", {}, errorText(e)));
  }
}

$("slider").addEventListener("input", (e) => show(Number(e.target.value)));
$("prev").addEventListener("click", () => show(step - 1));
$("next").addEventListener("click", () => show(step + 1));
$("first").addEventListener("click", () => show(0));
$("last").addEventListener("click", () => show(steps ? steps.length - 1 : 0));
function toggleOverlay() {
  board.overlay = !board.overlay;
  $("overlay-btn").setAttribute("aria-pressed", String(board.overlay));
  frame ||= requestAnimationFrame(draw);
}
$("overlay-btn").addEventListener("click", toggleOverlay);
installCardPeek(() => state.content);
document.addEventListener("keydown", (e) => {
  if (e.target.closest("input")) return;
  if (e.key === "m" || e.key === "M") toggleOverlay();
  if (e.key === "ArrowLeft") show(step - 1);
  else if (e.key === "ArrowRight") show(step + 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(steps ? steps.length - 1 : 0);
});

main();
