// Why not here: while the placement ghost rests on a spot that is not legal, the engine's reason
// (GET /api/games/{id}/explain) is shown under the ghost. The client never works a reason out
// itself: it only asks, once per version and ghost, and draws the sentence it is given.

import { api } from "../lib/api.mjs";
import { cellsKey } from "../lib/geometry.mjs";
import * as st from "../lib/state.mjs";
import { h } from "./dom.mjs";

const REST_MS = 150; // the ghost must stay put this long before the server is asked

export class ReasonTip {
  /**
   * @param {HTMLCanvasElement} canvas the board; the tip is placed in its wrapper
   * @param {{gameId: number, redraw: () => void}} opts redraw schedules a frame
   */
  constructor(canvas, { gameId, redraw }) {
    this.canvas = canvas;
    this.gameId = gameId;
    this.redraw = redraw;
    this.el = h("div.reason-tip", { role: "status", "aria-live": "polite" });
    this.el.hidden = true;
    canvas.parentElement.append(this.el);
    this.answers = new Map(); // request key -> reason text, or "" while asked / when legal
    this.waiting = null; // {key, timer} of the ghost now resting
  }

  /** Show the reason for the ghost now (called on every frame; asks only when it rests). */
  update(state, board) {
    const action = illegalGhost(state);
    if (!action) return this.hide();
    const key = `${state.version}|${cellsKey(action.cells)}|${action.card}`;
    const text = this.answers.get(key);
    if (text === undefined) {
      this.hide();
      if (this.waiting?.key !== key) {
        clearTimeout(this.waiting?.timer);
        this.waiting = { key, timer: setTimeout(() => this.ask(key, state.version, action), REST_MS) };
      }
      return;
    }
    if (!text) return this.hide();
    this.show(text, action.cells, board);
  }

  async ask(key, version, action) {
    for (const k of this.answers.keys()) if (!k.startsWith(`${version}|`)) this.answers.delete(k);
    this.answers.set(key, "");
    const q = new URLSearchParams({ version: String(version), action: JSON.stringify(action) });
    try {
      const r = await api(`/api/games/${this.gameId}/explain?${q}`);
      this.answers.set(key, r.reason?.text ?? "");
    } catch (e) {
      // A newer version or a busy server: nothing to show; a later rest asks again.
      this.answers.delete(key);
    }
    this.redraw();
  }

  show(text, cells, board) {
    const lowest = Math.max(...cells.map(([r]) => r));
    const cols = cells.filter(([r]) => r === lowest).map(([, c]) => c);
    const rect = board.rect(lowest, Math.min(...cols));
    const x = this.canvas.offsetLeft + rect.x;
    const y = this.canvas.offsetTop + rect.y + rect.h + 4;
    if (this.el.textContent !== text) this.el.textContent = text;
    this.el.style.left = `${Math.max(0, Math.min(x, this.canvas.offsetLeft + board.side - 220))}px`;
    this.el.style.top = `${y}px`;
    this.el.hidden = false;
  }

  hide() {
    if (!this.el.hidden) this.el.hidden = true;
  }
}

/** The `place` action of the ghost when it is mine to place and not legal there, else null. */
function illegalGhost(s) {
  if (!s.selected || s.seat === null || s.pending || !st.isMyTurn(s)) return null;
  if (!st.placeActions(s).length || st.currentAction(s)) return null;
  const cells = st.ghostCells(s);
  if (!cells.length) return null;
  return { type: "place", card: s.selected, cells, head: st.headCell(s) ?? cells[0] };
}
