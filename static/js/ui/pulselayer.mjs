// A canvas laid over the board for what pulses on it: the newest Dragon's outline, a lesson's
// target. The pulse is an animation of the layer's opacity, which the browser's compositor plays,
// so the board under it is drawn again only when something changes: redrawing the whole board
// on every frame while an outline pulsed cost a table page most of a core.

const motionQuery = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;
/** Whether the person asked for less motion (outlines then stay still). */
export const reducedMotion = () => !!motionQuery?.matches;

export class PulseLayer {
  /** @param {HTMLCanvasElement} board the board's canvas, which the layer covers exactly */
  constructor(board) {
    this.board = board;
    this.canvas = document.createElement("canvas");
    this.canvas.className = "board-layer";
    this.canvas.setAttribute("aria-hidden", "true"); // the board's text and labels say it
    Object.assign(this.canvas.style, { position: "absolute", pointerEvents: "none" });
    const parent = board.parentElement;
    if (getComputedStyle(parent).position === "static") parent.style.position = "relative";
    board.after(this.canvas);
    this.canvas.hidden = true;
    this.key = null; // what is shown (null: nothing)
    this.box = { x: 0, y: 0, w: 0, h: 0 }; // the part of the board it covers, in CSS pixels
    this.boardWidth = board.width;
    this.pulse = null; // the running opacity animation
    this.timer = 0; // the call when what is shown expires
  }

  /** Follow the board: a resize clears the layer (the next `show` draws again), a move of the
   * board in its column moves the layer with it. */
  fit() {
    const { board } = this;
    if (board.width !== this.boardWidth) {
      this.boardWidth = board.width;
      this.key = undefined; // the squares moved: the next show draws even the same key
    }
    this.place();
  }

  place() {
    const { board, canvas, box } = this;
    canvas.style.left = `${board.offsetLeft + box.x}px`; // the board is centred in its column
    canvas.style.top = `${board.offsetTop + box.y}px`;
  }

  /**
   * Show what `draw(ctx)` draws in the board's CSS pixels within `box` ({x, y, w, h}, the part
   * of the board it covers: the less the layer covers, the less each frame of the pulse costs)
   * at `dpr`, for `key`: the same key again changes nothing (its pulse goes on); another key, or
   * null for nothing, replaces it. `beatMs`: one beat from full opacity down to `low` and back;
   * `beats` of them (as many as fit in `untilMs` when that is given), none under
   * prefers-reduced-motion; `untilMs` later `expired()` is called (the page draws again and
   * shows null).
   */
  show(key, { dpr, box, draw }, { beatMs = 1000, low = 0.5, beats = 3, untilMs = null, expired = null } = {}) {
    if (key === this.key) return;
    this.key = key;
    this.pulse?.cancel();
    this.pulse = null;
    clearTimeout(this.timer);
    const { canvas } = this;
    canvas.hidden = key == null;
    if (key == null) return;
    this.box = box;
    canvas.width = Math.ceil(box.w * dpr); // also clears it
    canvas.height = Math.ceil(box.h * dpr);
    canvas.style.width = `${box.w}px`;
    canvas.style.height = `${box.h}px`;
    this.place();
    const ctx = canvas.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, -box.x * dpr, -box.y * dpr);
    draw(ctx);
    const left = untilMs === null ? null : Math.max(0, untilMs);
    const count = left === null ? beats : Math.ceil(left / beatMs);
    if (count > 0 && !reducedMotion() && typeof canvas.animate === "function") {
      const beat = [{ opacity: 1 }, { opacity: low }, { opacity: 1 }];
      this.pulse = canvas.animate(beat, { duration: beatMs, iterations: count, easing: "ease-in-out" });
    }
    if (left !== null && expired) this.timer = setTimeout(expired, left + 20);
  }
}

/** The box around `rects` ({x, y, w}: squares in CSS pixels), `margin` wider on every side. */
export function boxAround(rects, margin) {
  const x = Math.min(...rects.map((r) => r.x)) - margin;
  const y = Math.min(...rects.map((r) => r.y)) - margin;
  const right = Math.max(...rects.map((r) => r.x + r.w)) + margin;
  const bottom = Math.max(...rects.map((r) => r.y + r.w)) + margin;
  return { x, y, w: right - x, h: bottom - y };
}
