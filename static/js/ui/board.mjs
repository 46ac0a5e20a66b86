// The board canvas: sizing for devicePixelRatio, drawing the view, and pointer input for the
// placement ghost. Reads the headless state; changes it only through lib/state.mjs functions.

import { boardLayout, cellRect, hitTest, realmOf, SIZE } from "../lib/geometry.mjs";
import { realmName } from "../lib/cards.mjs";
import { language } from "../lib/i18n.mjs";
import { realmsOf } from "../lib/realms.mjs";
import * as st from "../lib/state.mjs";
import * as paint from "./paint.mjs";
import { boxAround, PulseLayer } from "./pulselayer.mjs";
import { drawRealmOverlay } from "./realms.mjs";

const HIGHLIGHT_MS = 2500; // how long the newest Dragon stays outlined
const PULSE_MS = 1005; // one beat of the outline's pulse (as bright again after about a second)

const REALM_CORNERS = [
  ["starfish", 0, 0],
  ["conch", 0, 1],
  ["turtle", 1, 0],
  ["seahorse", 1, 1],
];

export class Board {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {object} state the headless state (lib/state.mjs)
   * @param {{redraw: () => void, onLock?: () => void, maxSide?: () => number}} hooks redraw
   *   schedules a frame; maxSide caps the board's CSS size (the page keeps it in view)
   */
  constructor(canvas, state, hooks) {
    this.canvas = canvas;
    this.state = state;
    this.hooks = hooks;
    this.layout = boardLayout(300, 300);
    this.dpr = 1;
    this.pointerType = "mouse"; // last pointer kind: touch taps behave differently from hovering
    this.overlay = false; // draw the realm majorities on the board (toggled by the page)
    this.layers = new Map(); // name -> PulseLayer over the board (made when first asked for)
    const ro = new ResizeObserver(() => this.resize());
    ro.observe(canvas.parentElement);
    window.addEventListener("resize", () => this.resize());
    canvas.addEventListener("pointermove", (e) => this.onMove(e));
    canvas.addEventListener("pointerdown", (e) => this.onDown(e));
    canvas.addEventListener("pointerleave", () => this.hooks.redraw());
    this.resize();
  }

  /** Match the backing store to the CSS size times devicePixelRatio (crisp on HiDPI). */
  resize() {
    const box = this.canvas.parentElement.getBoundingClientRect();
    // As wide as the column allows, but never taller than the room the page gives it.
    const cap = this.hooks.maxSide?.() ?? window.innerHeight - 90;
    const side = Math.max(240, Math.floor(Math.min(box.width, cap)));
    const dpr = window.devicePixelRatio || 1;
    if (side === this.side && dpr === this.dpr) return this.fitLayers(); // avoid observer loops
    this.side = side;
    this.canvas.style.width = `${side}px`;
    this.canvas.style.height = `${side}px`;
    this.canvas.width = Math.round(side * dpr);
    this.canvas.height = Math.round(side * dpr);
    this.dpr = dpr;
    this.fitLayers();
    this.layout = boardLayout(side, side, Math.max(14, Math.round(side * 0.035)));
    this.hooks.redraw();
  }

  /** The layer called `name` over the board, for what pulses (ui/pulselayer.mjs). */
  layer(name) {
    if (!this.layers.has(name)) this.layers.set(name, new PulseLayer(this.canvas));
    return this.layers.get(name);
  }

  fitLayers() {
    for (const layer of this.layers.values()) layer.fit();
  }

  cellAt(e) {
    const r = this.canvas.getBoundingClientRect();
    return hitTest(this.layout, e.clientX - r.left, e.clientY - r.top);
  }

  onMove(e) {
    this.pointerType = e.pointerType;
    const s = this.state;
    if (!s.selected || s.locked || e.pointerType === "touch") return;
    const cell = this.cellAt(e);
    if (cell && (!s.anchor || cell[0] !== s.anchor[0] || cell[1] !== s.anchor[1])) {
      st.moveGhostTo(s, cell);
      this.hooks.redraw();
    }
  }

  /**
   * Click/tap: with the ghost free, a click on a legal spot locks it (then the head is chosen);
   * on a locked ghost, a click on one of its squares makes that square the head, elsewhere
   * frees it again. A touch tap first moves the ghost there (no hover on touch screens).
   * While the ghost's squares are chosen one by one (extra body, free shape), a click adds or
   * removes the square under it.
   */
  onDown(e) {
    this.pointerType = e.pointerType;
    const s = this.state;
    const cell = this.cellAt(e);
    if (!s.selected || !cell) return;
    e.preventDefault();
    this.canvas.focus();
    if (s.freeCells && !s.locked) {
      st.toggleSquare(s, cell); // squares one by one: a click adds or removes one
    } else if (s.locked) {
      if (!st.chooseHead(s, cell)) {
        st.unlockGhost(s);
        st.moveGhostTo(s, cell);
      }
    } else {
      const moved = !s.anchor || s.anchor[0] !== cell[0] || s.anchor[1] !== cell[1];
      st.moveGhostTo(s, cell);
      if (!(e.pointerType === "touch" && moved) && st.lockGhost(s)) this.hooks.onLock?.();
    }
    this.hooks.redraw();
  }

  rect(r, c) {
    return cellRect(this.layout, r, c);
  }

  /** Draw everything for the current state. */
  draw() {
    const ctx = this.canvas.getContext("2d");
    const { width, height } = this.canvas;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    const view = st.viewOf(this.state);
    this.drawFrame(ctx);
    if (!view) return this.drawGlow(null);
    this.drawSquares(ctx, view.board);
    this.drawDragons(ctx, view.board.dragons);
    this.drawGlow(view);
    this.drawBestMove(ctx);
    if (this.overlay) drawRealmOverlay(ctx, realmsOf(view), (r, c) => this.rect(r, c));
    this.drawGhost(ctx);
  }

  drawFrame(ctx) {
    const { x0, y0, size } = this.layout;
    const side = this.canvas.width / this.dpr;
    const bg = ctx.createLinearGradient(0, 0, 0, side);
    bg.addColorStop(0, "#0c3553");
    bg.addColorStop(1, "#082538");
    ctx.fillStyle = bg;
    paint.roundRect(ctx, 0, 0, side, side, 14);
    ctx.fill();
    const m = Math.max(12, (side - size) / 2);
    ctx.font = `600 ${Math.round(m * 0.55)}px system-ui, sans-serif`;
    ctx.textBaseline = "middle";
    for (const [realm, row, col] of REALM_CORNERS) {
      ctx.fillStyle = paint.REALM_LABEL[realm];
      ctx.textAlign = col ? "right" : "left";
      const x = col ? x0 + size : x0;
      const y = row ? y0 + size + m / 2 : y0 - m / 2;
      ctx.fillText(realmName(realm).toLocaleUpperCase(language), x, y);
    }
  }

  drawSquares(ctx, board) {
    const ships = new Map(board.ships.map(([r, c, col]) => [`${r},${c}`, col]));
    const island = [];
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const ch = board.rows[r][c];
        const rc = this.rect(r, c);
        if (ch === "I") {
          paint.island(ctx, rc);
          island.push(rc);
          continue;
        }
        if (ch === "~") paint.current(ctx, rc, r === 7);
        else paint.water(ctx, rc, paint.REALM_TINT[realmOf(r, c)]);
        if (ch === "W") paint.whirlpool(ctx, rc);
        else if (ch === "G") paint.coin(ctx, rc);
        else if (ch === "R") paint.reef(ctx, rc);
        const ship = ships.get(`${r},${c}`);
        if (ship) paint.ship(ctx, rc, ship);
        else if (ch === "S") paint.shipSpace(ctx, rc);
      }
    }
    this.drawGrid(ctx);
    const mid = this.rect(7, 7);
    paint.compass(ctx, mid.x + mid.w / 2, mid.y + mid.h / 2, mid.w * 1.05);
  }

  drawGrid(ctx) {
    const { x0, y0, cell, size } = this.layout;
    ctx.strokeStyle = "rgba(255,255,255,0.12)";
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let i = 0; i <= SIZE; i++) {
      // Half-pixel offsets put 1px lines on device pixels when dpr is 1.
      const p = i * cell + 0.5;
      ctx.moveTo(x0 + p, y0);
      ctx.lineTo(x0 + p, y0 + size);
      ctx.moveTo(x0, y0 + p);
      ctx.lineTo(x0 + size, y0 + p);
    }
    ctx.stroke();
    // Realm borders: the currents in row 7 and column 7 separate the four realms.
    ctx.strokeStyle = "rgba(255,255,255,0.35)";
    ctx.lineWidth = 2;
    ctx.strokeRect(x0 + 1, y0 + 1, size - 2, size - 2);
  }

  drawDragons(ctx, dragons) {
    const rect = (r, c) => this.rect(r, c);
    for (const d of dragons) {
      const fill = paint.PLAYER_HEX[d.owner] ?? "#ccc";
      const dark = paint.PLAYER_DARK[d.owner] ?? "#555";
      paint.dragonBody(ctx, d.cells, rect, fill, dark);
      paint.dragonMarks(ctx, d.cells, rect, d.owner, fill, d.head);
      paint.dragonHead(ctx, rect(d.head[0], d.head[1]), fill, dark, d.ancestral);
    }
  }

  /** The review's better placement (replays only): a dashed outline beside the Dragon played. */
  drawBestMove(ctx) {
    const cells = this.state.bestMove?.cells;
    if (!cells?.length) return;
    ctx.save();
    ctx.strokeStyle = "#ffd84d";
    ctx.lineWidth = 3;
    ctx.setLineDash([5, 4]);
    for (const [r, c] of cells) {
      const { x, y, w } = this.rect(r, c);
      ctx.strokeRect(x + 2.5, y + 2.5, w - 5, w - 5);
    }
    ctx.restore();
  }

  /**
   * The newest Dragon's outline, on a layer over the board that pulses (the compositor plays the
   * pulse; the board is not drawn again for it) until the highlight expires, when a redraw
   * removes it. With prefers-reduced-motion it stays still; in the replay (`still`) it stays
   * until another move is shown.
   */
  drawGlow(view) {
    const s = this.state;
    const placed = view && st.highlightActive(s, Date.now(), HIGHLIGHT_MS) ? s.lastPlaced : null;
    if (!placed && !this.layers.has("newest")) return; // boards that never highlight get no layer
    const rects = placed?.cells.map(([r, c]) => this.rect(r, c)) ?? [];
    const draw = (ctx) => {
      ctx.strokeStyle = "#fff";
      ctx.lineWidth = 3;
      ctx.shadowColor = "#fff";
      ctx.shadowBlur = 10;
      for (const { x, y, w } of rects) ctx.strokeRect(x + 1.5, y + 1.5, w - 3, w - 3);
    };
    const until = placed?.still ? { beats: 0 } : { untilMs: placed?.at + HIGHLIGHT_MS - Date.now(), expired: () => this.hooks.redraw() };
    const box = placed && boxAround(rects, 12); // the shadow's blur reaches about 10 px out
    this.layer("newest").show(placed, { dpr: this.dpr, box, draw }, { beatMs: PULSE_MS, low: 0.5, ...until });
  }

  /** Over the ghost, what is switched on for it (Ancestral head, a treasure): seen where one looks. */
  drawActiveCaption(ctx, cells) {
    const on = st.activeNow(this.state);
    if (!on.length) return;
    const text = on.map((x) => x.short).join(" · ");
    const top = cells.reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a));
    const { x, y, w } = this.rect(top[0], top[1]);
    ctx.save();
    ctx.font = `700 ${Math.max(10, Math.round(w * 0.42))}px system-ui, sans-serif`;
    const tw = ctx.measureText(text).width + 10;
    const bh = Math.max(14, w * 0.6);
    const bx = Math.min(Math.max(2, x), this.canvas.clientWidth - tw - 2);
    const by = Math.max(2, y - bh - 3);
    ctx.fillStyle = "rgba(242, 179, 61, 0.95)";
    paint.roundRect(ctx, bx, by, tw, bh, 4);
    ctx.fill();
    ctx.fillStyle = "#2b1800";
    ctx.textAlign = "left"; // other painters leave it centred
    ctx.textBaseline = "middle";
    ctx.fillText(text, bx + 5, by + bh / 2 + 0.5);
    ctx.restore();
  }

  /** A card only looked at (not my time to place): the Dragon's shape, no verdict, no crosses. */
  drawLookingGhost(ctx, cells, rect, seat) {
    paint.dragonBody(ctx, cells, rect, paint.PLAYER_HEX[seat], "#e8eef5", 0.45);
    ctx.save();
    ctx.strokeStyle = "#e8eef5";
    ctx.lineWidth = 2;
    ctx.setLineDash([3, 3]);
    for (const [r, c] of cells) {
      const { x, y, w } = this.rect(r, c);
      ctx.strokeRect(x + 2, y + 2, w - 4, w - 4);
    }
    ctx.restore();
  }

  drawGhost(ctx) {
    const s = this.state;
    if (!s.selected) return;
    for (const [r, c] of st.legalHintCells(s)) {
      const { x, y, w } = this.rect(r, c);
      ctx.fillStyle = "rgba(255,255,255,0.55)";
      ctx.beginPath();
      ctx.arc(x + w / 2, y + w / 2, Math.max(1.5, w * 0.07), 0, Math.PI * 2);
      ctx.fill();
    }
    const cells = st.ghostCells(s).filter(([r, c]) => r >= 0 && r < SIZE && c >= 0 && c < SIZE);
    if (!cells.length) return;
    const legal = !!st.currentAction(s);
    const seat = s.seat ?? 0;
    const rect = (r, c) => this.rect(r, c);
    if (st.lookingOnly(s)) return this.drawLookingGhost(ctx, cells, rect, seat);
    const edge = legal ? "#7CFC9A" : "#ff5a5a";
    paint.dragonBody(ctx, cells, rect, legal ? paint.PLAYER_HEX[seat] : "#8a8a8a", edge, 0.72);
    if (legal) paint.dragonMarks(ctx, cells, rect, seat, paint.PLAYER_HEX[seat], s.locked ? st.headCell(s) : null, 0.8);
    ctx.save();
    ctx.strokeStyle = edge;
    ctx.lineWidth = 2.5;
    ctx.setLineDash(s.locked ? [] : [5, 3]);
    for (const [r, c] of cells) {
      const { x, y, w } = this.rect(r, c);
      ctx.strokeRect(x + 2, y + 2, w - 4, w - 4);
    }
    ctx.restore();
    if (!legal) {
      // A cross on each square, so illegal is clear without relying on colour alone.
      ctx.strokeStyle = "rgba(255,90,90,0.9)";
      ctx.lineWidth = 2;
      for (const [r, c] of cells) {
        const { x, y, w } = this.rect(r, c);
        ctx.beginPath();
        ctx.moveTo(x + w * 0.3, y + w * 0.3);
        ctx.lineTo(x + w * 0.7, y + w * 0.7);
        ctx.moveTo(x + w * 0.7, y + w * 0.3);
        ctx.lineTo(x + w * 0.3, y + w * 0.7);
        ctx.stroke();
      }
    }
    this.drawActiveCaption(ctx, cells);
    const head = st.headCell(s);
    if (legal && head && s.locked) {
      const fill = paint.PLAYER_HEX[seat];
      const anc = !!s.doc?.view?.turn?.ancestral;
      paint.dragonHead(ctx, this.rect(head[0], head[1]), fill, paint.PLAYER_DARK[seat], anc, 0.95);
    }
  }
}
