// The tutorial's additions to the table: the step's target drawn over the board, the page's
// own controls marked where the step asks to act, and the ghost's reason asked of the lesson's
// endpoint. What is legal, and why not, is always the engine's answer (POST /api/learn/...).

import { api } from "../lib/api.mjs";
import { cellsKey } from "../lib/geometry.mjs";
import { ReasonTip } from "./reason.mjs";

/**
 * Outline the squares the step asks for (and the head's square, where it matters), on `ctx`:
 * the board's own canvas (the rules page's still examples) or the layer the tutorial pulses.
 */
export function drawTarget(board, target, ctx = board.canvas.getContext("2d")) {
  if (!target?.cells?.length) return;
  ctx.save();
  if (ctx.canvas === board.canvas) ctx.setTransform(board.dpr, 0, 0, board.dpr, 0, 0);
  ctx.strokeStyle = "rgb(255, 216, 77)";
  ctx.lineWidth = 3;
  ctx.setLineDash([6, 3]);
  for (const [r, c] of target.cells) {
    const { x, y, w } = board.rect(r, c);
    ctx.strokeRect(x + 1.5, y + 1.5, w - 3, w - 3);
  }
  if (target.head) {
    const { x, y, w } = board.rect(target.head[0], target.head[1]);
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.arc(x + w / 2, y + w / 2, w * 0.36, 0, Math.PI * 2);
    ctx.stroke();
  }
  ctx.restore();
}

/** The same action, whatever the order of its keys. */
export function sameAction(a, b) {
  if (!a || !b) return false;
  if (a.type === "place" && b.type === "place") return a.card === b.card && cellsKey(a.cells) === cellsKey(b.cells);
  // Keys sorted at every depth (a replacer list would drop nested keys it does not name).
  const deep = (x) =>
    Array.isArray(x) ? x.map(deep) : x && typeof x === "object" ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, deep(x[k])])) : x;
  return JSON.stringify(deep(a)) === JSON.stringify(deep(b));
}

/**
 * Mark (class `lesson-target`) the controls that do what the step asks: a button whose
 * `data-action` is the step's action, the hand card to place, the Mission to open, the pass,
 * the treasure to use. Returns how many were marked.
 */
export function markTargets(root, target) {
  for (const el of root.querySelectorAll(".lesson-target")) el.classList.remove("lesson-target");
  const a = target?.action;
  if (!a) return 0;
  const found = [];
  for (const el of root.querySelectorAll("[data-action]")) {
    try {
      if (el.dataset.action && sameAction(JSON.parse(el.dataset.action), a)) found.push(el);
    } catch {
      // a button without an action
    }
  }
  const q = (sel) => found.push(...root.querySelectorAll(sel));
  if (a.type === "place") q(`#hand [data-key="card-${a.card}"]`);
  if (a.type === "mission") q(`[data-key="mission-${a.mission}"]`);
  if (a.type === "pass") {
    q('[data-key="pass-open"]');
    q(`.pass-discard[data-key="discard-${a.discard ?? "none"}"]`);
    // The chooser's keys are lib/decisions.mjs drawKey's: card:<id>, deck:<deck> or none.
    const draw = a.draw?.card ? `card:${a.draw.card}` : a.draw?.deck ? `deck:${a.draw.deck}` : "none";
    q(`.pass-draw[data-draw="${draw}"]`);
  }
  if (a.type === "draw" && a.card) q(`#markets [data-key="card-${a.card}"], [data-key="draw-${a.card}"]`);
  if (a.type === "draw" && a.deck) q(`#markets [data-key="deck-${a.deck}"]`);
  if (a.type === "keep_reef" || a.type === "keep_treasure") q(`[data-key="keep-${a.card}"]`);
  if (a.type === "use_treasure") q(`[data-key="use-${a.card}"]`);
  if (a.type === "decline") q('[data-key="decline"]');
  if (a.type === "choose_tail") q(`#actions button[data-key="tail-${a.track}"]`);
  for (const el of found) el.classList.add("lesson-target");
  return found.length;
}

/** The ghost's reason, asked of the lesson (the same engine explanation as at a table). */
export class LessonReasonTip extends ReasonTip {
  /** @param {() => {lesson: string, answers: object[]}} where the lesson and answers now */
  constructor(panel, { redraw, where }) {
    super(panel, { gameId: 0, redraw });
    this.where = where;
  }

  async ask(key, version, action) {
    for (const k of this.answers.keys()) if (!k.startsWith(`${version}|`)) this.answers.delete(k);
    this.answers.set(key, "");
    const { lesson, answers } = this.where();
    try {
      const r = await api(`/api/learn/${lesson}/explain`, { method: "POST", body: { answers, action } });
      this.answers.set(key, r.reason?.text ?? "");
    } catch {
      this.answers.delete(key);
    }
    this.redraw();
  }
}
