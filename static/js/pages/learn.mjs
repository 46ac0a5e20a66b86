// The tutorials' page: the table's own board, hand, markets and decision panel, driven by a
// lesson instead of a live game. The server replays the lesson's fixed game with the engine
// (POST /api/learn/{lesson}/position) from the learner's answers so far, which this page keeps
// (in sessionStorage, so a reload stays at the step); each move is sent to .../act, and the
// engine (or the lesson) answers with the next position or the reason for the refusal.

import { api, errorText } from "../lib/api.mjs";
import { cellsKey } from "../lib/geometry.mjs";
import { t, tn, tParts } from "../lib/i18n.mjs";
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
import { logText } from "../ui/seats.mjs";
import { initSheet, keysToggle, maxBoardSide, oneColumn, watchBars } from "../ui/layout.mjs";
import { installCardPeek } from "../ui/cards.mjs";
import { drawTarget, LessonReasonTip, markTargets } from "../ui/lesson.mjs";
import { boxAround } from "../ui/pulselayer.mjs";
import { decisionControls, installPlacementKeys, placementControls } from "../ui/placementkeys.mjs";

const params = new URLSearchParams(location.search);
const lessonId = params.get("lesson");
let revealPlacing = false; // on one column, scroll the sheet to the placing buttons after the next render
const LESSON_SHEET_SHARE = 0.5; // of the screen's height, at most, for the sheet on one column
const state = st.createState({});
let lessons = []; // GET /api/learn: both tutorials' lessons in order
let pos = null; // the last position the server sent
let answers = []; // the learner's actions at the steps so far
let refusal = null; // {code, text} of the last refused move, shown in the lesson panel
let frame = 0;
let panelsDirty = true;
const TARGET_PULSE = { beatMs: 1630, low: 0.1, beats: 6 };

const storeKey = () => `seadragons.learn.${lessonId}`;
const saveAnswers = () => sessionStorage.setItem(storeKey(), JSON.stringify(answers));
function loadAnswers() {
  try {
    const a = JSON.parse(sessionStorage.getItem(storeKey()) ?? "[]");
    return Array.isArray(a) ? a : [];
  } catch {
    return [];
  }
}

const board = new Board($("board"), state, { redraw: () => schedule(false), onLock: () => schedule(true), maxSide: maxBoardSide });
watchBars(() => board.resize());
const reasonTip = new LessonReasonTip($("actions"), { redraw: () => schedule(false), where: () => ({ lesson: lessonId, answers }) });
// Read-only handles for the browser tests (they read the state, never drive it).
window.seadragons = { state, board, st, lesson: () => ({ pos, answers, refusal }) };

function schedule(panels = true) {
  panelsDirty ||= panels;
  if (!frame) frame = requestAnimationFrame(render);
}

function render() {
  frame = 0;
  ensureOutcomes();
  board.draw();
  // The step's target pulses a few beats on a layer of its own, then stays (the board is not
  // drawn again for the pulse).
  const target = pos?.target?.cells && !pos.done ? pos.target : null;
  const box = target && boxAround(target.cells.map(([r, c]) => board.rect(r, c)), 4);
  board.layer("target").show(target, { dpr: board.dpr, box, draw: (ctx) => drawTarget(board, target, ctx) }, TARGET_PULSE);
  reasonTip.update(state);
  updatePlacement($("actions"), state, false);
  if (!panelsDirty || !pos) return;
  panelsDirty = false;
  const view = st.viewOf(state);
  const colours = view.players.map((p) => p.colour);
  renderLesson();
  renderPlayers($("players"), state);
  renderMarkets($("markets"), state, controls);
  renderHand($("hand"), state, pick, act);
  renderActions($("actions"), state, controls);
  if (revealPlacing) {
    revealPlacing = false;
    $("actions").querySelector(".placing-buttons")?.scrollIntoView({ block: "nearest" });
  }
  $("actions").hidden = pos.done; // the lesson panel says what comes next
  renderReward($("reward"), view, state.names, state.content, { seat: state.seat });
  renderRealms($("realms"), view.realms, state.names, view.over ? { subtitle: t("learn.realms_final"), hiddenNote: t("learn.realms_hidden_note") } : {});
  renderScores($("scores"), view.over ? view.scores : null, state.names, colours);
  fill($("log"), (pos.log ?? []).slice(-60).map((t) => h("li", {}, logText(t, state.names, state.content))));
  $("log").scrollTop = $("log").scrollHeight;
  markTargets(document.querySelector(".learn-table"), pos.done ? null : pos.target);
  // Set once the panels show the position (the browser tests wait for it).
  document.body.dataset.step = String(pos.step);
  document.body.dataset.done = String(pos.done);
}

/**
 * The lesson panel: the step and what to do (with a refusal's reason) above the decision and
 * the hand; below them the why, what the move gives, the moves to try (refused by the engine)
 * and the navigation.
 */
function renderLesson() {
  const el = $("lesson");
  const more = $("lesson-more");
  const step = pos.text;
  const next = lessons[lessons.findIndex((x) => x.id === pos.lesson) + 1];
  const nav = h(
    "div.buttons.lesson-nav",
    {},
    h("button", { type: "button", onclick: back, disabled: !answers.length || state.pending, dataset: { key: "lesson-back" } }, t("learn.back_step")),
    h("button.ghost-btn", { type: "button", onclick: restart, disabled: !answers.length || state.pending, dataset: { key: "lesson-restart" } }, t("learn.start_again")),
    h("a", { href: "/learn" }, t("learn.all_lessons")),
  );
  const refused = refusal
    ? h("p.lesson-refusal.error", { role: "alert", dataset: { code: refusal.code } }, h("b", {}, t("learn.refused")), " ", refusal.text)
    : null;
  if (pos.done) {
    fill(
      el,
      h("h2", {}, pos.title),
      h("p.lesson-step", {}, t("learn.done_steps", { steps: pos.steps })),
      h("p.lesson-done", { dataset: { key: "lesson-done" } }, pos.done_text ?? t("learn.lesson_done")),
      next ? h("p", {}, h("a.primary-link", { href: `/learn?lesson=${next.id}`, dataset: { key: "next-lesson" } }, t("learn.next_lesson", { title: next.title }))) : h("p", {}, tParts("learn.last_lesson", { link: h("a", { href: "/" }, t("learn.play_real_game")) })),
      nav,
    );
    fill(more);
    more.hidden = true;
    return;
  }
  fill(
    el,
    h("h2", {}, pos.title, " · ", h("span.lesson-step", {}, t("learn.step_of", { step: pos.step + 1, steps: pos.steps }))),
    h("h3.lesson-title", {}, step.title),
    h("p.lesson-do", {}, h("b", {}, t("learn.do")), " ", step.do),
    refused,
  );
  more.hidden = false;
  fill(
    more,
    pos.step === 0 ? h("p.lesson-intro", {}, pos.intro) : null,
    // The step's rulings (R-xx) stay in the answer, for tests and the docs: players never read ids.
    h("p.lesson-why", {}, step.why),
    pos.gives?.length ? h("div.lesson-gives", {}, h("b", {}, t("learn.gives")), " ", pos.gives.map((line) => h("span", {}, `${line} `))) : null,
    pos.target?.cells ? h("p", {}, h("button.link", { type: "button", onclick: showMe, dataset: { key: "show-me" } }, t("learn.show_me")), h("small.muted", {}, " ", t("learn.show_me_note"))) : null,
    pos.tries.length
      ? h(
          "div.buttons.lesson-tries",
          {},
          pos.tries.map((x, i) => h("button.try", { type: "button", disabled: state.pending, onclick: () => act(x.action), dataset: { key: `try-${i}`, tryAction: JSON.stringify(x.action) } }, x.label)),
        )
      : null,
    nav,
  );
}

// --- talking to the lesson ------------------------------------------------------------------

function show(p) {
  pos = p;
  state.names = p.names;
  state.seat = p.seat;
  state.seats = p.names.map((name) => ({ name }));
  // The step number is the version: a ghost's reason and its outcomes are cached per version.
  st.setDocument(state, { view: p.view, legal_actions: p.legal_actions }, p.step);
  dec.reconcileDecision(state);
  $("lesson-progress").textContent = p.done ? t("learn.progress_done") : t("learn.progress", { step: p.step + 1, steps: p.steps });
  schedule();
}

async function load() {
  state.pending = true;
  try {
    show(await api(`/api/learn/${lessonId}/position`, { method: "POST", body: { answers } }));
  } catch (e) {
    if (e.code === "bad_answers" && answers.length) {
      // Saved answers from another version of the lesson: start it again.
      answers = [];
      saveAnswers();
      return load();
    }
    fill($("lesson"), h("p.error", { role: "alert" }, errorText(e)), h("a", { href: "/learn" }, t("learn.all_lessons")));
  } finally {
    state.pending = false;
    schedule();
  }
}

/** Send a move: the next position, or the engine's (or the lesson's) reason it is refused. */
async function act(action) {
  if (state.pending || !pos || pos.done) return;
  state.pending = true;
  state.error = null;
  schedule();
  try {
    const next = await api(`/api/learn/${lessonId}/act`, { method: "POST", body: { answers, action } });
    answers = [...answers, action];
    saveAnswers();
    refusal = null;
    st.clearSelection(state);
    dec.closeDecision(state);
    show(next);
  } catch (e) {
    refusal = { code: e.reason?.code ?? e.code, text: errorText(e) };
  } finally {
    state.pending = false;
    schedule();
  }
}

function back() {
  answers = answers.slice(0, -1);
  saveAnswers();
  refusal = null;
  st.clearSelection(state);
  dec.closeDecision(state);
  load();
}

function restart() {
  answers = [];
  saveAnswers();
  refusal = null;
  st.clearSelection(state);
  dec.closeDecision(state);
  load();
}

/**
 * Put the ghost on the step's squares and fix it there: the step's card, then the listed legal
 * spots one by one until the ghost covers the marked squares (nothing decided here).
 */
function showMe() {
  const t = pos?.target;
  if (!t?.cells || state.pending) return;
  if (state.selected !== t.action.card) st.selectCard(state, t.action.card);
  if (state.locked) st.unlockGhost(state);
  const want = cellsKey(t.cells);
  for (let i = 0; i < st.placeActions(state).length && cellsKey(st.ghostCells(state)) !== want; i++) st.cycleLegal(state);
  if (cellsKey(st.ghostCells(state)) === want) {
    st.lockGhost(state);
    if (t.head) st.chooseHead(state, t.head);
  }
  schedule();
}

const outcomeCache = new Map();

/** The engine's outcomes of the selected card's placements (the ghost's preview numbers). */
function ensureOutcomes() {
  const s = state;
  if (!s.selected || !pos || pos.done || !st.placeActions(s).length) return;
  const key = `${outcomeKey(s.version, s.selected)}|${answers.length}`;
  if (s.outcomes?.lessonKey === key) return;
  const entry = outcomeCache.get(key) ?? { key: outcomeKey(s.version, s.selected), lessonKey: key, list: null, error: null };
  s.outcomes = entry;
  if (outcomeCache.has(key)) return;
  outcomeCache.set(key, entry);
  api(`/api/learn/${lessonId}/outcomes`, { method: "POST", body: { answers, card: s.selected } })
    .then((r) => (entry.list = r.outcomes))
    .catch((e) => (entry.error = errorText(e)))
    .finally(() => schedule(false));
}

// --- input: the table's controls, with the lesson's act ------------------------------------

function pick(card) {
  if (state.decision?.kind === "pass") dec.passDiscard(state, card);
  else if (state.selected === card) st.clearSelection(state);
  else if (st.selectCard(state, card)) {
    dec.closeDecision(state);
    revealPlacing = oneColumn(); // the sheet is small: bring the placing buttons into it
  }
  schedule();
}

function sendDecision() {
  const a = dec.missionToSend(state) ?? dec.passToSend(state) ?? dec.convertToSend(state);
  if (a) act(a);
}

const controls = {
  act,
  touch: () => board.pointerType === "touch",
  ...decisionControls(state, schedule),
  sendDecision,
  ...placementControls(state, schedule, act),
  reclaim: () => {},
  handOver: () => {},
};

function toggleOverlay() {
  board.overlay = !board.overlay;
  $("overlay-btn").setAttribute("aria-pressed", String(board.overlay));
  schedule(false);
}

// --- the index of lessons ---------------------------------------------------------------------

function renderIndex() {
  const groups = [
    ["base", t("learn.group.base")],
    ["deep", t("learn.group.deep")],
  ];
  fill(
    $("lessons"),
    h("h1", {}, t("learn.title")),
    h("p.lead", {}, t("learn.lead")),
    groups.map(([id, title]) =>
      h(
        "section.lesson-group",
        {},
        h("h2", {}, title),
        h(
          "ol.lesson-list",
          {},
          lessons.filter((x) => x.tutorial === id).map((x) => h("li", {}, h("a", { href: `/learn?lesson=${x.id}`, dataset: { lesson: x.id } }, x.title), h("small.muted", {}, ` · ${tn("learn.steps", x.steps)}`), h("p.muted.small", {}, x.intro))),
        ),
      ),
    ),
    h("p", {}, tParts("learn.rules_link", { link: h("a", { href: "/rules" }, t("learn.how_to_play")) })),
  );
}

async function main() {
  try {
    [state.content, { lessons }] = await Promise.all([api("/content.json"), api("/api/learn")]);
  } catch (e) {
    fill($("lessons"), h("p.error", { role: "alert" }, errorText(e)));
    return;
  }
  installCardPeek(() => state.content);
  if (!lessonId) {
    renderIndex();
    return;
  }
  $("lessons").hidden = true;
  $("table").hidden = false;
  installPlacementKeys({ state, controls, pick, toggleOverlay, schedule, board: $("board"), decisions: $("actions"), hand: $("hand") });
  $("overlay-btn").addEventListener("click", toggleOverlay);
  keysToggle($("keys-btn"), $("keys"), () => board.resize());
  // One column: what to do, the decision and the hand in the sheet under the board, which may
  // take all the room the board leaves (a lesson has no log or chat to keep in view).
  initSheet($("sheet"), $("sheet-handle"), () => board.resize(), { share: LESSON_SHEET_SHARE });
  board.resize();
  answers = loadAnswers();
  await load();
}

main();
