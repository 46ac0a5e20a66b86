// The /watch channel's packed boards (app/services/watch.py `pack_board`), unpacked into the
// `board` part of a view, so the table's own drawing code (ui/board.mjs) draws them. No DOM.

import { SIZE } from "./geometry.mjs";
import { formatRating, t, tn } from "./i18n.mjs";
import { seatDisplayName as seatWords } from "./seats.mjs";

const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";
const SHIP = { g: "green", p: "purple", r: "red", b: "blue" };

/** A square from its two base-36 characters (r * 15 + c). */
export function cellOf(code) {
  const n = DIGITS.indexOf(code[0]) * 36 + DIGITS.indexOf(code[1]);
  return [Math.floor(n / SIZE), n % SIZE];
}

/** `{rows, ships, dragons}` as a view's board has them, from a summary's packed board. */
export function unpackBoard(packed) {
  const rows = [];
  for (let r = 0; r < SIZE; r++) rows.push(packed.rows.slice(r * SIZE, (r + 1) * SIZE));
  const ships = [];
  for (let i = 0; i + 3 <= packed.ships.length; i += 3) {
    const [r, c] = cellOf(packed.ships.slice(i, i + 2));
    ships.push([r, c, SHIP[packed.ships[i + 2]] ?? "green"]);
  }
  const dragons = packed.dragons.map((d) => {
    const cells = [];
    for (let i = 4; i + 2 <= d.length; i += 2) cells.push(cellOf(d.slice(i, i + 2)));
    return { owner: Number(d[0]), ancestral: d[1] === "a", head: cellOf(d.slice(2, 4)), cells };
  });
  return { rows, ships, dragons };
}

/** Summaries narrowed by the page's filters ("" or undefined: any). */
export function keep(summary, filters) {
  if (filters.players && summary.players !== Number(filters.players)) return false;
  if (filters.expansion && summary.expansion !== (filters.expansion === "true")) return false;
  if (filters.clock && summary.clock !== filters.clock) return false;
  return true;
}

/**
 * Apply one `watch` frame to the page's picture `{games: Map, order: [], featured}`: a full
 * frame replaces it, an update changes the games it carries and drops the ones gone.
 */
export function applyWatchFrame(picture, frame) {
  if (frame.full) picture.games = new Map();
  for (const g of frame.games) picture.games.set(g.id, g);
  for (const id of frame.gone ?? []) picture.games.delete(id);
  picture.order = frame.order.filter((id) => picture.games.has(id));
  picture.featured = frame.featured ?? null;
  return picture;
}

/** "Ann (1043), Marina (greedy bot)": who plays, with ratings once they exist. */
export function seatsText(summary) {
  return summary.seats.map((s) => (s.rating !== null && s.rating !== undefined ? `${seatWords(s)} (${formatRating(s.rating)})` : seatWords(s))).join(", ");
}

/** "turn 7 · Ann to play · 3 watching · 2 moves behind". */
export function statusText(summary) {
  const who = seatWords(summary.seats[summary.to_act]);
  const parts = [t("actions.turn_number", { n: summary.turn })];
  if (who) parts.push(t("watch.to_play", { name: who }));
  parts.push(tn("game.watching", summary.spectators));
  if (summary.delay) parts.push(summary.delay.moves ? tn("watch.moves_behind", summary.delay.moves) : t("watch.seconds_behind", { n: summary.delay.seconds }));
  return parts.join(" · ");
}
