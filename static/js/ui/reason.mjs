// Why not here: while the placement ghost rests on a spot that is not legal, the engine's reason
// (GET /api/games/{id}/explain) is shown in the decision panel, under the placement bar: over
// the board it covered two to four rows beside the ghost, just where one looks for a spot. The
// client never works a reason out itself: it only asks, once per version and ghost, and shows
// the sentence it is given.

import { api } from "../lib/api.mjs";
import { cellsKey } from "../lib/geometry.mjs";
import * as st from "../lib/state.mjs";
import { h } from "./dom.mjs";

const REST_MS = 150; // the ghost must stay put this long before the server is asked

export class ReasonTip {
  /**
   * @param {HTMLElement} panel the decision panel (ui/actions.mjs): the tip goes under its
   *   placement bar
   * @param {{gameId: number, redraw: () => void}} opts redraw schedules a frame
   */
  constructor(panel, { gameId, redraw }) {
    this.panel = panel;
    this.gameId = gameId;
    this.redraw = redraw;
    this.el = h("div.reason-tip", { role: "status", "aria-live": "polite" });
    this.el.hidden = true;
    panel.append(this.el);
    this.answers = new Map(); // request key -> reason text, or "" while asked / when legal
    this.waiting = null; // {key, timer} of the ghost now resting
  }

  /** Show the reason for the ghost now (called on every frame; asks only when it rests). */
  update(state) {
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
    this.show(text);
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

  show(text) {
    // Right under the placement bar (the panel's slots are made as it first draws them).
    const bar = this.panel.querySelector(':scope > [data-slot="placing"]');
    if (bar && bar.nextElementSibling !== this.el) bar.after(this.el);
    if (this.el.textContent !== text) this.el.textContent = text;
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
