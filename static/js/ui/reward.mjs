// The expansion's Reward Board (R-50..R-53): three tracks with each player's tail, the spaces'
// rewards (Hidden Treasure, Gold, Arrow tokens), milestone B and the bonus tile at A.
// view.reward = {length, milestone, spaces: {track: [space 1..length]}, arrows: {track:
// {position: colour}}, bonus: {track: tile id}}; a tail at 0 is still on the start space.
// When a tail must be advanced, each open track is a button: click (or Enter) to choose it.

import { glyphOf } from "../lib/marks.mjs";
import { fill, h } from "./dom.mjs";
import { PLAYER_HEX, SHIP_HEX } from "./paint.mjs";

const TRACKS = ["green", "purple", "red"];
const WORDS = {
  advance: "Advance my ",
  tailAt: (pos) => (pos === null || pos === undefined ? " tail" : ` tail, now at space ${pos}`),
};

/** A space's reward as a short label and a tooltip. */
function spaceLabel(code, arrow) {
  if (code === "T") return ["HT", "Hidden Treasure: draw 2, keep 1"];
  if (code === "A") return arrow ? ["➜", `Arrow: advance your ${arrow} tail`] : ["·", "Arrow slot (empty)"];
  const gold = /^g(\d)$/.exec(code ?? "");
  if (gold) return [`${gold[1]}G`, `${gold[1]} Gold`];
  return [code ?? "", code ? String(code) : "no reward"];
}

/** The key to the board's abbreviations. */
function legend() {
  return h(
    "p.legend.rw-legend",
    {},
    h("span", {}, h("b", {}, "HT"), " Hidden Treasure (draw 2, keep 1)"),
    h("span", {}, h("b", {}, "2G"), " Gold"),
    h("span", {}, h("b", {}, "➜"), " Arrow: advances your tail of its colour"),
    h("span", {}, h("b", {}, "B"), " milestone: half the tile"),
    h("span", {}, h("b", {}, "A"), " end: the whole tile"),
    h("span", {}, h("i.legend-tail"), " a player's tail"),
  );
}

/**
 * The board's nodes. `opts.choose` maps a track to a callback: those tracks become buttons
 * (a tail to advance); `opts.seat` marks my own tails.
 */
export function rewardBoard(view, names, content, opts = {}) {
  const { length, milestone, spaces, arrows = {}, bonus = {} } = view.reward;
  const tiles = content?.bonus_tiles ?? {};
  const choose = opts.choose ?? {};
  const rows = TRACKS.map((t) => {
    const cells = [];
    for (let pos = 0; pos <= length; pos++) {
      const arrow = arrows[t]?.[String(pos)];
      const [label, tip] = pos === 0 ? ["0", "start"] : spaceLabel(spaces[t]?.[pos - 1], arrow);
      const tails = view.players.filter((p) => (p.tails?.[t] ?? 0) === pos);
      const mark = pos === length ? "A" : pos === milestone ? "B" : null;
      cells.push(
        h(
          `span.rw-space${mark ? `.mark-${mark}` : ""}`,
          { title: `${t} ${pos}: ${tip}${mark ? ` (milestone ${mark})` : ""}` },
          mark ? h("b.rw-mark", {}, mark) : null,
          h("small", { style: arrow ? { color: SHIP_HEX[arrow] } : null }, label),
          h("span.tails", {}, tails.map((p) => h(`i.tail${p.seat === opts.seat ? ".mine" : ""}`, { style: { color: PLAYER_HEX[p.seat] }, title: `${names[p.seat] || p.colour}'s tail` }, glyphOf(p.seat)))),
        ),
      );
    }
    const tile = tiles[bonus[t]];
    const pick = choose[t];
    const mine = opts.seat !== undefined && opts.seat !== null ? view.players[opts.seat]?.tails?.[t] : null;
    const parts = [
      h("span.rw-name", {}, t),
      h("span.rw-spaces", { style: { gridTemplateColumns: `repeat(${length + 1}, minmax(0, 1fr))` } }, cells),
      h("span.rw-tile", { title: tile?.text ?? "Bonus tile" }, bonus[t] ?? "?", h("small", {}, tile?.text ?? "")),
    ];
    if (!pick) return h(`div.rw-track.track-${t}`, { dataset: { track: t } }, parts);
    // The button's name is its words (no aria-label that would differ from what it shows):
    // "Advance my green tail, now at space 2"; the spaces drawn beside it are left to the eye
    // (the Reward Board panel reads them when no choice is open).
    const [name, spacesRow, tileBox] = parts;
    spacesRow.setAttribute("aria-hidden", "true");
    tileBox.setAttribute("aria-hidden", "true");
    return h(
      `button.rw-track.track-${t}.can.act-choose_tail`,
      { type: "button", disabled: !!opts.disabled, onclick: pick, dataset: { track: t, key: `tail-${t}` } },
      h("span.rw-name", {}, h("span.sr-only", {}, WORDS.advance), name.textContent, h("span.sr-only", {}, WORDS.tailAt(mine))),
      spacesRow,
      tileBox,
    );
  });
  return [...rows, legend()];
}

/** Render the Reward Board, or hide it in base games (and while a decision shows it). */
export function renderReward(el, view, names, content, opts = {}) {
  if (!view?.expansion || !view.reward?.spaces || opts.hidden) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  fill(el, h("h3", {}, "Reward Board"), rewardBoard(view, names, content, opts));
}
