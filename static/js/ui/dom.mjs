// Tiny DOM helpers. Text always goes through textContent, so player names and chat can never
// inject markup (names are escaped everywhere).

import { SHIP_LETTER, glyphOf, luminance, markOf } from "../lib/marks.mjs";
import { PLAYER_HEX } from "./paint.mjs";

/** Create an element: h("button#id.primary", {onclick, title}, "text", child, ...). */
export function h(spec, attrs = {}, ...children) {
  const [head, ...classes] = spec.split(".");
  const [tag, id] = head.split("#");
  const el = document.createElement(tag || "div");
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "style") {
      // Styles go through the CSSOM only: a style attribute would break under the coming
      // Content-Security-Policy (style-src 'self').
      if (typeof v !== "object") throw new TypeError("h(): style must be an object");
      // Custom properties (--pc) need setProperty; Object.assign silently ignores them.
      for (const [p, val] of Object.entries(v)) {
        if (p.startsWith("--")) el.style.setProperty(p, val);
        else el.style[p] = val;
      }
    }
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Replace an element's children, keeping focus on an equivalent control when possible. */
export function fill(el, ...children) {
  const focusKey = document.activeElement?.dataset?.key;
  const wasInside = el.contains(document.activeElement);
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  if (wasInside && focusKey) el.querySelector(`[data-key="${CSS.escape(focusKey)}"]`)?.focus();
}

/** Element by id. */
export const $ = (id) => document.getElementById(id);

const SHIP_WORDS = { green: "green", purple: "purple", red: "red", blue: "dark blue", any: "any colour" };

/**
 * A small ship token (for panels and previews): its colour, its letter (drawn by CSS from
 * data-letter, so the token's text stays its count), and for a screen reader the colour in
 * words with the count.
 */
export function shipChip(colour, count) {
  const word = SHIP_WORDS[colour] ?? colour;
  const said = count === undefined || count === null ? `${word} ship` : `${word} ships: ${count}`;
  return h(`span.chip.ship-${colour}`, { role: "img", "aria-label": said, title: `${word} ships`, dataset: { letter: SHIP_LETTER[colour] ?? "?" } }, count ?? "");
}

/** A seat's mark (its shape, in its colour) beside a name; hidden from screen readers. */
export function seatMark(seat) {
  // On a chip that contrasts with the colour (dark colours of the colour-blind palette on the
  // dark page would hardly show otherwise).
  const pc = PLAYER_HEX[seat];
  return h("span.seat-mark", { "aria-hidden": "true", style: { "--pc": pc, "--pc-bg": luminance(pc) > 0.3 ? "transparent" : "#e6edf2" }, dataset: { mark: markOf(seat) } }, glyphOf(seat));
}

/** A mini drawing of a Pattern card's shape, coloured by deck (yellow, blue, red; R-12). */
export function shapeMini(cells, deck, size = 10) {
  const rows = Math.max(...cells.map(([r]) => r)) + 1;
  const cols = Math.max(...cells.map(([, c]) => c)) + 1;
  const grid = h(`span.shape.deck-${deck}`, {
    style: { gridTemplateColumns: `repeat(${cols}, ${size}px)`, gridTemplateRows: `repeat(${rows}, ${size}px)` },
    "aria-hidden": "true",
  });
  for (const [r, c] of cells) grid.append(h("i", { style: { gridRow: r + 1, gridColumn: c + 1 } }));
  return grid;
}
