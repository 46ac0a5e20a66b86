// The replay page: step through a game's moves with a slider, buttons and arrow keys.

import { api, errorText } from "../lib/api.mjs";
import { buildFrames, clampStep } from "../lib/replay.mjs";
import * as st from "../lib/state.mjs";
import { Board } from "../ui/board.mjs";
import { $, fill, h } from "../ui/dom.mjs";
import { installCardPeek } from "../ui/cards.mjs";
import { maxBoardSide } from "../ui/layout.mjs";
import { renderPlayers } from "../ui/panels.mjs";
import { renderRealms } from "../ui/realms.mjs";
import { renderScores } from "../ui/scores.mjs";
import { seatInfo } from "../lib/seats.mjs";
import { logText } from "../ui/seats.mjs";

const gameId = Number(document.body.dataset.gameId);
// Private games: the invite code (from the game page's link) lets a non-player read the log.
const code = new URLSearchParams(location.search).get("code");
const q = code ? `?invite_code=${encodeURIComponent(code)}` : "";
const state = st.createState({ gameId }); // seat stays null: a replay is read-only
let frames = []; // every public view of the game, setup first
let step = 0; // the frame shown
let frame = 0; // pending animation frame id

const board = new Board($("board"), state, { redraw: () => (frame ||= requestAnimationFrame(draw)), maxSide: maxBoardSide });

function draw() {
  frame = 0;
  board.draw();
}

function show(i) {
  step = clampStep(i, frames);
  const f = frames[step];
  state.doc = { view: f.view, legal_actions: [] };
  // Highlight what this move placed (kept on while the frame is shown).
  state.lastPlaced = f.lastPlaced ? { cells: f.lastPlaced, at: Date.now() + 1e9, still: true } : null;
  $("slider").value = String(step);
  $("step-label").textContent = step === 0 ? "Setup" : `Move ${step} of ${frames.length - 1}`;
  const who = f.move ? `${state.names[f.move.seat] ?? f.move.player ?? ""}` : "";
  fill($("move-text"), h("h3", {}, step === 0 ? "Setup" : `Move ${step}${who ? ` · ${who}` : ""}`), h("ul", {}, f.text.map((t) => h("li", {}, logText(t, state.names, state.content)))));
  renderPlayers($("players"), state);
  // The game is over, so every Hidden Dragon kept so far counts (R-60): the standings as they were.
  renderRealms($("realms"), f.view.realms, state.names, { subtitle: step === frames.length - 1 ? " · final" : " · at this move" });
  renderScores($("scores"), f.view.over ? f.view.scores : null, state.names, f.view.players.map((p) => p.colour));
  for (const li of $("moves").children) li.classList.toggle("current", Number(li.dataset.step) === step);
  // Scroll only the move list (scrollIntoView would scroll the whole page too).
  const cur = $("moves").querySelector(".current");
  const list = $("moves");
  if (cur) list.scrollTop = cur.offsetTop - list.clientHeight / 2;
  frame ||= requestAnimationFrame(draw);
}

async function main() {
  try {
    const [content, log, game] = await Promise.all([
      api("/content.json"),
      api(`/api/games/${gameId}/log${q}`),
      api(`/api/games/${gameId}${q}`).catch(() => null), // seats: bot badges and the same names as the table
    ]);
    state.content = content;
    const record = log.record;
    if (!record) {
      fill($("move-text"), h("p", {}, "The replay opens once the game is over."), h("a", { href: `/games/${gameId}` }, "Back to the game"));
      return;
    }
    state.seats = game ? game.seats.map(seatInfo) : [];
    state.names = game ? state.seats.map((x) => x.name) : record.players ?? [];
    frames = buildFrames(record.setup.public, log.moves, record.final_scores, content);
    $("slider").max = String(frames.length - 1);
    fill(
      $("moves"),
      frames.slice(1).map((f, i) => h("li", { dataset: { step: i + 1 }, onclick: () => show(i + 1) }, `${i + 1}. `, logText(f.text[0] ?? "", state.names, content))),
    );
    show(0);
  } catch (e) {
    fill($("move-text"), h("p.error", {}, errorText(e)));
  }
}

$("slider").addEventListener("input", (e) => show(Number(e.target.value)));
$("prev").addEventListener("click", () => show(step - 1));
$("next").addEventListener("click", () => show(step + 1));
$("first").addEventListener("click", () => show(0));
$("last").addEventListener("click", () => show(frames.length - 1));
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
  else if (e.key === "End") show(frames.length - 1);
});

main();
