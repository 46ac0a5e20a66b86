// Hints at unrated tables: a Hint button on the board bar asks the server what the expert would
// do from my own view (POST /api/games/{id}/hint); a placement is drawn as the ghost, fixed on
// its squares, and the expert's reasons (the engine's numbers, worded by the server) show above
// the decision panel (under the board bar they pushed the board's bottom rows off the screen).
// The reasons go with the ghost they describe: Cancel, or another version, takes them away.
// The client only moves its own ghost onto the listed action it is given.

import { api, errorText } from "../lib/api.mjs";
import { cellsKey } from "../lib/geometry.mjs";
import { t } from "../lib/i18n.mjs";
import * as st from "../lib/state.mjs";
import { h } from "./dom.mjs";

export class HintPanel {
  /**
   * @param {HTMLElement} bar the board bar the button joins
   * @param {HTMLElement} panel the decision panel: the reasons show just above it
   * @param {{gameId: number, state: object, redraw: () => void}} opts redraw rebuilds panels
   */
  constructor(bar, panel, { gameId, state, redraw }) {
    this.gameId = gameId;
    this.state = state;
    this.redraw = redraw;
    this.rated = null; // unknown until the game is read: no button before
    this.busy = false;
    this.placing = false; // whether the reasons shown are a placement's (its ghost on the board)
    this.button = h("button#hint-button.small", { type: "button", onclick: () => this.ask() }, t("hint.button"));
    this.button.hidden = true;
    this.box = h("div#hint-box.hint-box", { role: "status", "aria-live": "polite" });
    this.box.hidden = true;
    bar.append(this.button);
    panel.before(this.box);
    api(`/api/games/${gameId}`)
      .then((g) => (this.rated = !!g.rated))
      .catch(() => (this.rated = true)) // unknown: offer nothing rather than a refusal
      .finally(() => this.update());
  }

  /** Show the button on my turn at an unrated table; a hint of an older version goes away. */
  update() {
    const s = this.state;
    const offer = this.rated === false && s.seat !== null && st.isMyTurn(s);
    this.button.hidden = !offer;
    this.button.disabled = this.busy || !!s.pending;
    // A placement's reasons describe its ghost: gone with it (Cancel), or with the version.
    const ghostGone = this.placing && !s.selected;
    if (this.shownFor !== undefined && (this.shownFor !== s.version || ghostGone)) {
      this.box.hidden = true;
      this.shownFor = undefined;
    }
  }

  async ask() {
    const s = this.state;
    this.busy = true;
    this.update();
    try {
      const hint = await api(`/api/games/${this.gameId}/hint`, { method: "POST", body: { version: s.version } });
      if (hint.version === s.version) this.show(hint);
    } catch (e) {
      this.say([errorText(e)], false);
    } finally {
      this.busy = false;
      this.update();
      this.redraw();
    }
  }

  show(hint) {
    const a = hint.action;
    this.placing = a.type === "place";
    if (this.placing) ghostOn(this.state, a);
    const head = a.type === "place" ? t("hint.place", { card: a.card }) : t("hint.other", { summary: hint.summary });
    this.say([head, ...hint.reasons]);
  }

  say(lines, placing = this.placing) {
    this.placing = placing;
    this.box.replaceChildren(...lines.map((line) => h("p", {}, line)));
    this.box.hidden = false;
    this.shownFor = this.state.version;
  }
}

/** Put my ghost on exactly the squares of a listed `place` action, its head chosen, fixed. */
function ghostOn(s, action) {
  st.unlockGhost(s);
  if (s.selected !== action.card && !st.selectCard(s, action.card)) return;
  const want = cellsKey(action.cells);
  for (let i = 0; i <= st.placeActions(s).length; i++) {
    const cur = st.currentAction(s);
    if (cur && cellsKey(cur.cells) === want) break;
    if (!st.cycleLegal(s, 1)) return;
  }
  if (!st.lockGhost(s)) return;
  const cells = st.ghostCells(s);
  const head = cells.findIndex(([r, c]) => r === action.head[0] && c === action.head[1]);
  if (head >= 0) s.headIndex = head;
}
