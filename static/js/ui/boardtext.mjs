// The board as a table a screen reader can walk (rows numbered, columns lettered, every square's
// content read), kept in sync with the canvas: the same view and ghost, updated cell by cell on
// every redraw that changed one. Hidden on screen until the "Board as text" switch shows it.

import { COLUMNS, realmName, squareWords, WORDS as SAID } from "../lib/speech.mjs";
import { SIZE } from "../lib/geometry.mjs";
import { h } from "./dom.mjs";

const WORDS = {
  show: "Board as text",
  title: "Show the board as a table of squares (a screen reader reads it either way)",
  corner: "Row",
  rowHead: (n, realms) => `Row ${n}${realms ? ` (${realms})` : ""}`,
};

export class BoardText {
  /**
   * @param {HTMLElement} el the section to fill (its table is built once)
   * @param {HTMLButtonElement|null} toggle the switch that shows the table on screen
   */
  constructor(el, toggle = null) {
    this.el = el;
    this.cells = [];
    this.key = null;
    const head = h("tr", {}, h("th", { scope: "col" }, WORDS.corner), [...COLUMNS.slice(0, SIZE)].map((c) => h("th", { scope: "col" }, c)));
    const rows = [];
    for (let r = 0; r < SIZE; r++) {
      const tds = [];
      for (let c = 0; c < SIZE; c++) tds.push(h("td", { dataset: { square: `${COLUMNS[c]}${r + 1}` } }));
      this.cells.push(tds);
      const realms = [...new Set([realmName(r, 0), realmName(r, SIZE - 1)].filter(Boolean))].join(", ");
      rows.push(h("tr", {}, h("th", { scope: "row" }, WORDS.rowHead(r + 1, realms)), tds));
    }
    this.table = h("table.board-table", {}, h("caption", {}, SAID.caption(SIZE, SIZE)), h("thead", {}, head), h("tbody", {}, rows));
    el.append(this.table);
    if (toggle) {
      toggle.textContent = WORDS.show;
      toggle.title = WORDS.title;
      toggle.setAttribute("aria-pressed", "false");
      toggle.addEventListener("click", () => {
        const on = !el.classList.contains("shown");
        el.classList.toggle("shown", on);
        // Shown, it may scroll sideways: the keyboard must reach it (hidden, it takes no focus).
        if (on) el.tabIndex = 0;
        else el.removeAttribute("tabindex");
        toggle.setAttribute("aria-pressed", String(on));
      });
    }
  }

  /** Bring every square up to date (only the ones whose words changed are touched). */
  update(view, names, me, ghost) {
    if (!view) return;
    const key = JSON.stringify([view.board.dragons.length, view.board.ships, names, me, ghost]);
    if (key === this.key) return;
    this.key = key;
    const words = squareWords(view, names, me, ghost);
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const td = this.cells[r][c];
        if (td.textContent !== words[r][c]) td.textContent = words[r][c];
      }
    }
  }
}
