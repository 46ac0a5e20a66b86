// Canvas drawing primitives for the board: water, symbols, ships, Dragons, the compass rose.
// Each takes a 2D context and a square's rectangle in CSS pixels (the context is pre-scaled by
// devicePixelRatio, so everything stays crisp on HiDPI screens).

import { PALETTES, SHIP_LETTER, inkOn, markOf, paletteName } from "../lib/marks.mjs";

// The seats' colours of the palette in use: arrays changed in place by setPalette, so every
// module that imported them draws with the chosen palette from its next redraw.
export const PLAYER_HEX = [...PALETTES.standard.players];
export const PLAYER_DARK = [...PALETTES.standard.dark];

/** Switch the seats' colours to the palette `name` ("standard" or "colourblind"). */
export function setPalette(name) {
  const p = PALETTES[paletteName(name)];
  PLAYER_HEX.splice(0, PLAYER_HEX.length, ...p.players);
  PLAYER_DARK.splice(0, PLAYER_DARK.length, ...p.dark);
}
export const SHIP_HEX = { green: "#2f9e47", purple: "#7a3fc6", red: "#d8363a", blue: "#1d3591" };
export const REALM_TINT = {
  starfish: "rgba(255, 128, 96, 0.16)",
  conch: "rgba(255, 214, 120, 0.16)",
  seahorse: "rgba(80, 226, 170, 0.15)",
  turtle: "rgba(150, 128, 255, 0.17)",
};
export const REALM_LABEL = {
  starfish: "#ffb29c",
  conch: "#ffe29a",
  seahorse: "#9ff0cf",
  turtle: "#c8bcff",
};

/** Open water with the realm's tint. */
export function water(ctx, { x, y, w, h }, tint) {
  ctx.fillStyle = "#1f6f96";
  ctx.fillRect(x, y, w, h);
  if (tint) {
    ctx.fillStyle = tint;
    ctx.fillRect(x, y, w, h);
  }
}

/** A Sea Current square: paler water with flowing strokes pointing away from the island. */
export function current(ctx, { x, y, w, h }, horizontal) {
  ctx.fillStyle = "#4fb3d3";
  ctx.fillRect(x, y, w, h);
  ctx.strokeStyle = "rgba(255,255,255,0.55)";
  ctx.lineWidth = Math.max(1, w / 18);
  ctx.lineCap = "round";
  for (const t of [0.33, 0.67]) {
    ctx.beginPath();
    if (horizontal) {
      const yy = y + h * t;
      ctx.moveTo(x + w * 0.12, yy);
      ctx.bezierCurveTo(x + w * 0.4, yy - h * 0.12, x + w * 0.6, yy + h * 0.12, x + w * 0.88, yy);
    } else {
      const xx = x + w * t;
      ctx.moveTo(xx, y + h * 0.12);
      ctx.bezierCurveTo(xx - w * 0.12, y + h * 0.4, xx + w * 0.12, y + h * 0.6, xx, y + h * 0.88);
    }
    ctx.stroke();
  }
}

/** A Whirlpool: a dark spiral. */
export function whirlpool(ctx, { x, y, w, h }) {
  const cx = x + w / 2;
  const cy = y + h / 2;
  const g = ctx.createRadialGradient(cx, cy, 1, cx, cy, w * 0.5);
  g.addColorStop(0, "#0b2c45");
  g.addColorStop(1, "rgba(11,44,69,0)");
  ctx.fillStyle = g;
  ctx.fillRect(x, y, w, h);
  ctx.strokeStyle = "rgba(210,240,255,0.8)";
  ctx.lineWidth = Math.max(1, w / 20);
  ctx.beginPath();
  for (let i = 0; i <= 60; i++) {
    const a = i * 0.32;
    const r = (w * 0.42 * i) / 60;
    const px = cx + Math.cos(a) * r;
    const py = cy + Math.sin(a) * r;
    if (i === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  }
  ctx.stroke();
}

/** A Gold symbol: a coin. */
export function coin(ctx, { x, y, w }) {
  const cx = x + w / 2;
  const cy = y + w / 2;
  const r = w * 0.28;
  ctx.fillStyle = "#f5c542";
  ctx.strokeStyle = "#a87912";
  ctx.lineWidth = Math.max(1, w / 22);
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
  ctx.fillStyle = "#a87912";
  ctx.font = `bold ${Math.round(r * 1.2)}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText("1", cx, cy + 1);
}

/** A Reef symbol: a branching coral. */
export function reef(ctx, { x, y, w }) {
  const base = [x + w / 2, y + w * 0.85];
  ctx.strokeStyle = "#ff7aa8";
  ctx.lineCap = "round";
  ctx.lineWidth = Math.max(1.5, w / 10);
  const branch = (x1, y1, x2, y2) => {
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x2, y2);
    ctx.stroke();
  };
  branch(base[0], base[1], base[0], y + w * 0.25);
  branch(base[0], y + w * 0.6, x + w * 0.25, y + w * 0.35);
  branch(base[0], y + w * 0.5, x + w * 0.75, y + w * 0.22);
  ctx.fillStyle = "#ffd0de";
  for (const [px, py] of [[base[0], y + w * 0.22], [x + w * 0.23, y + w * 0.32], [x + w * 0.77, y + w * 0.2]]) {
    ctx.beginPath();
    ctx.arc(px, py, w * 0.06, 0, Math.PI * 2);
    ctx.fill();
  }
}

/**
 * A seat's mark (circle, triangle, square, diamond, star) centred in a square: the shape tells
 * the Dragons apart where colours look alike. `ink` contrasts with the Dragon's fill.
 */
export function mark(ctx, { x, y, w }, shape, ink, scale = 0.34) {
  const cx = x + w / 2;
  const cy = y + w / 2;
  const r = (w * scale) / 2 + 0.5;
  ctx.save();
  ctx.fillStyle = ink;
  ctx.beginPath();
  if (shape === "circle") {
    // A ring, not a disc: a filled disc and a filled square look alike on a small square.
    ctx.strokeStyle = ink;
    ctx.lineWidth = Math.max(1.5, r * 0.42);
    ctx.arc(cx, cy, r * 0.78, 0, Math.PI * 2);
    ctx.stroke();
    ctx.restore();
    return;
  } else if (shape === "triangle") {
    ctx.moveTo(cx, cy - r);
    ctx.lineTo(cx + r * 0.95, cy + r * 0.75);
    ctx.lineTo(cx - r * 0.95, cy + r * 0.75);
  } else if (shape === "square") ctx.rect(cx - r * 0.75, cy - r * 0.75, r * 1.5, r * 1.5);
  else if (shape === "diamond") {
    ctx.moveTo(cx, cy - r * 1.05);
    ctx.lineTo(cx + r * 0.8, cy);
    ctx.lineTo(cx, cy + r * 1.05);
    ctx.lineTo(cx - r * 0.8, cy);
  } else {
    for (let i = 0; i < 10; i++) {
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      const rr = i % 2 ? r * 0.45 : r * 1.05;
      ctx[i ? "lineTo" : "moveTo"](cx + Math.cos(a) * rr, cy + Math.sin(a) * rr);
    }
  }
  ctx.closePath();
  ctx.fill();
  ctx.restore();
}

/** Every square of a Dragon but its head gets the seat's mark. */
export function dragonMarks(ctx, cells, rect, seat, fill, head = null, alpha = 1) {
  ctx.save();
  ctx.globalAlpha = alpha;
  for (const [r, c] of cells) {
    if (head && head[0] === r && head[1] === c) continue;
    mark(ctx, rect(r, c), markOf(seat), inkOn(fill));
  }
  ctx.restore();
}

/** A Pirate Ship token in its colour: a disc with a hull and its colour's letter. */
export function ship(ctx, { x, y, w }, colour) {
  const cx = x + w / 2;
  const cy = y + w / 2;
  ctx.fillStyle = SHIP_HEX[colour] ?? "#777";
  ctx.strokeStyle = "rgba(255,255,255,0.9)";
  ctx.lineWidth = Math.max(1, w / 18);
  ctx.beginPath();
  ctx.arc(cx, cy, w * 0.38, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
  ctx.fillStyle = "#fff";
  ctx.beginPath(); // hull
  ctx.moveTo(cx - w * 0.22, cy + w * 0.08);
  ctx.lineTo(cx + w * 0.22, cy + w * 0.08);
  ctx.lineTo(cx + w * 0.14, cy + w * 0.2);
  ctx.lineTo(cx - w * 0.14, cy + w * 0.2);
  ctx.closePath();
  ctx.fill();
  // The colour's letter where the sail was: ships are told apart without their colour.
  ctx.font = `800 ${Math.max(7, Math.round(w * 0.34))}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(SHIP_LETTER[colour] ?? "?", cx, cy - w * 0.1);
}

/** An empty ship space (its token was taken): a faint dashed ring. */
export function shipSpace(ctx, { x, y, w }) {
  ctx.strokeStyle = "rgba(255,255,255,0.35)";
  ctx.setLineDash([2, 2]);
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.arc(x + w / 2, y + w / 2, w * 0.3, 0, Math.PI * 2);
  ctx.stroke();
  ctx.setLineDash([]);
}

/** The island's sand. */
export function island(ctx, { x, y, w, h }) {
  ctx.fillStyle = "#e9d59b";
  ctx.fillRect(x, y, w, h);
}

/** The compass rose naming the realms, centred on the island's middle square. */
export function compass(ctx, cx, cy, r) {
  ctx.save();
  ctx.translate(cx, cy);
  ctx.fillStyle = "#2f8f4e";
  ctx.beginPath();
  ctx.arc(0, 0, r * 1.05, 0, Math.PI * 2);
  ctx.fill();
  for (let i = 0; i < 8; i++) {
    const long = i % 2 === 0;
    ctx.rotate(Math.PI / 4);
    ctx.fillStyle = long ? "#fff7e0" : "#c9b27a";
    ctx.beginPath();
    ctx.moveTo(0, -r * (long ? 0.95 : 0.6));
    ctx.lineTo(r * 0.14, 0);
    ctx.lineTo(-r * 0.14, 0);
    ctx.closePath();
    ctx.fill();
  }
  ctx.fillStyle = "#7a4b12";
  ctx.beginPath();
  ctx.arc(0, 0, r * 0.12, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();
}

/** Rounded rectangle path. */
export function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/**
 * A Dragon: its squares as rounded scales joined where they touch, so it reads as one body;
 * `rect(r, c)` gives each square's rectangle. `alpha` < 1 is used for the ghost.
 */
export function dragonBody(ctx, cells, rect, fill, stroke, alpha = 1) {
  const set = new Set(cells.map(([r, c]) => `${r},${c}`));
  ctx.save();
  ctx.globalAlpha = alpha;
  for (const [r, c] of cells) {
    const { x, y, w } = rect(r, c);
    const pad = w * 0.1;
    ctx.fillStyle = fill;
    roundRect(ctx, x + pad, y + pad, w - 2 * pad, w - 2 * pad, w * 0.22);
    ctx.fill();
    ctx.strokeStyle = stroke;
    ctx.lineWidth = Math.max(1, w / 16);
    ctx.stroke();
    // Bridges to the right and below, drawn over the borders so joined squares look fused.
    if (set.has(`${r},${c + 1}`)) ctx.fillRect(x + w - pad - 1, y + w * 0.28, 2 * pad + 2, w * 0.44);
    if (set.has(`${r + 1},${c}`)) ctx.fillRect(x + w * 0.28, y + w - pad - 1, w * 0.44, 2 * pad + 2);
  }
  ctx.restore();
}

/**
 * A Dragon head on its square: a darker disc with eyes and horns. The Ancestral head
 * adds a gold crown ring so it is told apart at a glance.
 */
export function dragonHead(ctx, { x, y, w }, fill, dark, ancestral = false, alpha = 1) {
  const cx = x + w / 2;
  const cy = y + w / 2;
  ctx.save();
  ctx.globalAlpha = alpha;
  if (ancestral) {
    ctx.strokeStyle = "#ffd54a";
    ctx.lineWidth = Math.max(2, w / 9);
    ctx.beginPath();
    ctx.arc(cx, cy, w * 0.42, 0, Math.PI * 2);
    ctx.stroke();
  }
  ctx.fillStyle = dark;
  ctx.beginPath(); // horns
  ctx.moveTo(cx - w * 0.22, cy - w * 0.12);
  ctx.lineTo(cx - w * 0.3, cy - w * 0.38);
  ctx.lineTo(cx - w * 0.06, cy - w * 0.2);
  ctx.moveTo(cx + w * 0.22, cy - w * 0.12);
  ctx.lineTo(cx + w * 0.3, cy - w * 0.38);
  ctx.lineTo(cx + w * 0.06, cy - w * 0.2);
  ctx.fill();
  ctx.beginPath();
  ctx.arc(cx, cy + w * 0.02, w * 0.27, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = fill;
  ctx.lineWidth = Math.max(1, w / 20);
  ctx.stroke();
  ctx.fillStyle = "#fff";
  for (const dx of [-0.1, 0.1]) {
    ctx.beginPath();
    ctx.arc(cx + dx * w, cy - w * 0.02, w * 0.06, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.fillStyle = "#111";
  for (const dx of [-0.1, 0.1]) {
    ctx.beginPath();
    ctx.arc(cx + dx * w, cy - w * 0.01, w * 0.028, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}
