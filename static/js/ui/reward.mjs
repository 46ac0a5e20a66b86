// The expansion's Reward Board (R-50..R-53): three tracks with each player's tail, the spaces'
// rewards (Hidden Treasure, Gold, Arrow tokens), milestone B and the bonus tile at A.
// view.reward = {length, milestone, spaces: {track: [space 1..length]}, arrows: {track:
// {position: colour}}, bonus: {track: tile id}}; a tail at 0 is still on the start space.
// When a tail must be advanced, each open track is a button: click (or Enter) to choose it.
// The tracks and their order come from the engine's content (content.tracks, /content.json).

import { trackName } from "../lib/cards.mjs";
import { hasKey, t } from "../lib/i18n.mjs";
import { glyphOf } from "../lib/marks.mjs";
import { fill, h } from "./dom.mjs";
import { PLAYER_HEX, SHIP_HEX } from "./paint.mjs";

/** Gold drawn as a coin with its amount on it: "1G" / "1O" read as ten. */
const coin = (n) => h("span.rw-coin", {}, String(n));

/** A space's reward as a short label and a tooltip. */
function spaceLabel(code, arrow) {
  if (code === "T") return [t("reward.abbr.treasure"), t("reward.tip.treasure")];
  if (code === "A") return arrow ? ["➜", t("reward.tip.arrow", { track: trackName(arrow) })] : ["·", t("reward.tip.arrow_empty")];
  const gold = /^g(\d)$/.exec(code ?? "");
  if (gold) return [coin(gold[1]), t("reward.tip.gold", { n: gold[1] })];
  return [code ?? "", code ? String(code) : t("reward.tip.none")];
}

/** The key to the board's abbreviations. */
function legend() {
  return h(
    "p.legend.rw-legend",
    {},
    h("span", {}, h("b", {}, t("reward.abbr.treasure")), " ", t("reward.legend.treasure")),
    h("span", {}, coin(2), " ", t("reward.tip.gold", { n: 2 })),
    h("span", {}, h("b", {}, "➜"), " ", t("reward.legend.arrow")),
    h("span", {}, h("b", {}, "B"), " ", t("reward.legend.milestone")),
    h("span", {}, h("b", {}, "A"), " ", t("reward.legend.end")),
    h("span", {}, h("i.legend-tail"), " ", t("reward.legend.tail")),
  );
}

/**
 * A Bonus tile's words for this table: the value it pays at this player count only (the
 * engine's, from /content.json), in the reader's language; the printed English if the kind is
 * unknown.
 */
function tileWords(tile, players) {
  if (!tile) return "";
  const key = `reward.bonus.${tile.kind}`;
  return hasKey(key) ? t(key, { vp: tile.vp?.[String(players)] ?? "?" }) : tile.text;
}

/**
 * The board's nodes. `opts.choose` maps a track to a callback: those tracks become buttons
 * (a tail to advance); `opts.seat` marks my own tails.
 */
export function rewardBoard(view, names, content, opts = {}) {
  const { length, milestone, spaces, arrows = {}, bonus = {} } = view.reward;
  const tiles = content?.bonus_tiles ?? {};
  const choose = opts.choose ?? {};
  const colourName = (c) => (hasKey(`colour.${c}`) ? t(`colour.${c}`) : c);
  const rows = (content?.tracks ?? []).map((track) => {
    const cells = [];
    for (let pos = 0; pos <= length; pos++) {
      const arrow = arrows[track]?.[String(pos)];
      const [label, tip] = pos === 0 ? ["0", t("reward.tip.start")] : spaceLabel(spaces[track]?.[pos - 1], arrow);
      const tails = view.players.filter((p) => (p.tails?.[track] ?? 0) === pos);
      const mark = pos === length ? "A" : pos === milestone ? "B" : null;
      cells.push(
        h(
          `span.rw-space${mark ? `.mark-${mark}` : ""}`,
          { title: t(mark ? "reward.space_title_mark" : "reward.space_title", { track: trackName(track), pos, tip, mark }) },
          mark ? h("b.rw-mark", {}, mark) : null,
          h("small", { style: arrow ? { color: SHIP_HEX[arrow] } : null }, label),
          h("span.tails", {}, tails.map((p) => h(`i.tail${p.seat === opts.seat ? ".mine" : ""}`, { style: { color: PLAYER_HEX[p.seat] }, title: t("reward.tail_of", { name: names[p.seat] || colourName(p.colour) }) }, glyphOf(p.seat)))),
        ),
      );
    }
    const tile = tiles[bonus[track]];
    const words = tileWords(tile, view.players.length);
    const pick = choose[track];
    const mine = opts.seat !== undefined && opts.seat !== null ? view.players[opts.seat]?.tails?.[track] : null;
    const parts = [
      h("span.rw-name", {}, trackName(track)),
      h("span.rw-spaces", { style: { gridTemplateColumns: `repeat(${length + 1}, minmax(0, 1fr))` } }, cells),
      h("span.rw-tile", { title: words || t("reward.bonus_tile") }, bonus[track] ?? "?", h("small", {}, words)),
    ];
    if (!pick) return h(`div.rw-track.track-${track}`, { dataset: { track } }, parts);
    const advance = mine !== null && mine !== undefined ? t("reward.advance_mine_at", { track: trackName(track), space: mine }) : t("reward.advance_mine", { track: trackName(track) });
    // The button's name is one sentence that holds the words it shows (WCAG's label in name):
    // the visible track name is hidden from the reader, the sentence is read instead; the
    // spaces drawn beside it are left to the eye (the Reward Board panel reads them when no
    // choice is open).
    const [name, spacesRow, tileBox] = parts;
    name.setAttribute("aria-hidden", "true");
    spacesRow.setAttribute("aria-hidden", "true");
    tileBox.setAttribute("aria-hidden", "true");
    return h(
      `button.rw-track.track-${track}.can.act-choose_tail`,
      { type: "button", disabled: !!opts.disabled, onclick: pick, dataset: { track, key: `tail-${track}` } },
      h("span.sr-only", {}, advance),
      name,
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
  fill(el, h("h3", {}, t("reward.title")), rewardBoard(view, names, content, opts));
}
