// A board drawn from a /watch summary with the table's own Board (ui/board.mjs): the same
// drawing code, fed a view that holds only the summary's board. Read-only: no ghost, no input.

import { Board } from "./board.mjs";
import * as st from "../lib/state.mjs";
import { unpackBoard } from "../lib/watchboard.mjs";

export class SummaryBoard {
  /** @param {HTMLCanvasElement} canvas @param {() => number} [maxSide] the largest CSS side */
  constructor(canvas, maxSide) {
    this.state = st.createState();
    this.pending = false;
    this.board = new Board(canvas, this.state, { redraw: () => this.redraw(), maxSide });
  }

  redraw() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.board.draw();
    });
  }

  /** Show a summary (only the board is drawn; the page writes the rest). */
  show(summary) {
    if (this.version === summary.v && this.gameId === summary.id) return;
    this.version = summary.v;
    this.gameId = summary.id;
    st.setDocument(this.state, { view: { board: unpackBoard(summary.board) } }, summary.v);
    this.redraw();
  }
}
