// The expansion's Reward Board (R-50..R-53): three tracks with each player's tail, the spaces'
// rewards (Hidden Treasure, Gold, Arrow tokens), milestone B and the bonus tile at A.
// view.reward = {length, milestone, spaces: {track: [space 1..length]}, arrows: {track:
// {position: colour}}, bonus: {track: tile id}}; a tail at 0 is still on the start space.

import { fill, h } from "./dom.mjs";
import { PLAYER_HEX, SHIP_HEX } from "./paint.mjs";

const TRACKS = ["green", "purple", "red"];

/** A space's reward as a short label and a tooltip. */
function spaceLabel(code, arrow) {
  if (code === "T") return ["HT", "Hidden Treasure: draw 2, keep 1"];
  if (code === "A") return arrow ? ["➜", `Arrow: advance your ${arrow} tail`] : ["·", "Arrow slot (empty)"];
  const gold = /^g(\d)$/.exec(code ?? "");
  if (gold) return [`${gold[1]}G`, `${gold[1]} Gold`];
  return [code ?? "", code ? String(code) : "no reward"];
}

/** Render the Reward Board, or hide it in base games. */
export function renderReward(el, view, names, content) {
  if (!view?.expansion || !view.reward?.spaces) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const { length, milestone, spaces, arrows = {}, bonus = {} } = view.reward;
  const tiles = content?.bonus_tiles ?? {};
  const rows = TRACKS.map((t) => {
    const cells = [];
    for (let pos = 0; pos <= length; pos++) {
      const arrow = arrows[t]?.[String(pos)];
      const [label, tip] = pos === 0 ? ["start", "start"] : spaceLabel(spaces[t]?.[pos - 1], arrow);
      const tails = view.players.filter((p) => (p.tails?.[t] ?? 0) === pos);
      const mark = pos === length ? "A" : pos === milestone ? "B" : null;
      cells.push(
        h(
          `div.rw-space${mark ? `.mark-${mark}` : ""}`,
          { title: `${t} ${pos}: ${tip}${mark ? ` (milestone ${mark})` : ""}` },
          mark ? h("b.rw-mark", {}, mark) : null,
          h("small", { style: arrow ? { color: SHIP_HEX[arrow] } : null }, label),
          h("div.tails", {}, tails.map((p) => h("i.tail", { style: { background: PLAYER_HEX[p.seat] }, title: `${names[p.seat] || p.colour}'s tail` }))),
        ),
      );
    }
    const tile = tiles[bonus[t]];
    return h(
      `div.rw-track.track-${t}`,
      {},
      h("span.rw-name", {}, t),
      h("div.rw-spaces", { style: { gridTemplateColumns: `repeat(${length + 1}, 1fr)` } }, cells),
      h("span.rw-tile", { title: tile?.text ?? "Bonus tile" }, bonus[t] ?? "?", h("small", {}, tile?.text ?? "")),
    );
  });
  fill(el, h("h3", {}, "Reward Board"), rows);
}
