// The end-of-game score breakdown per player and category, each realm's majority on a
// row of its own (with the Whirlpools left uncovered), and a stacked bar chart.

import { realmName, trackName } from "../lib/cards.mjs";
import { formatList, formatNumber, hasKey, t, tn } from "../lib/i18n.mjs";
import { seatLabel } from "../lib/seats.mjs";
import { fill, h, seatMark } from "./dom.mjs";

// A category the client does not know yet shows its code.
const label = (c) => (hasKey(`scores.category.${c}`) ? t(`scores.category.${c}`) : c);
const CAT_COLOURS = { gold: "#f5c542", ships: "#4f7be0", missions: "#52b788", most_missions: "#9ad1a8", realms: "#e07a5f", tails: "#b392f0" };

/** A player's tail on one track: "12 VP", and under it "tile 12 · full" (or half, or short). */
function tailCell(d) {
  if (!d) return "·";
  const reach = d.full ? t("scores.tail.full") : d.half ? t("scores.tail.half") : t("scores.tail.not_reached");
  return [h("b", {}, t("scores.vp", { vp: formatNumber(d.vp) })), h("small.muted.tail-how", {}, " ", t("scores.tail.how", { tile: d.tile, reach }))];
}

/** The Dragons counted in a realm, and whether that count includes Hidden Dragon cards. */
function realmCell(d) {
  if (!d?.count) return null;
  const text = d.hidden && d.hidden_included ? tn("scores.realm.dragons_hidden", d.count, { hidden: d.hidden }) : tn("scores.realm.dragons", d.count);
  return h("small.muted.realm-how", { title: t("scores.realm.title") }, " ", text);
}

/** Render the final score table and chart into `el` (hidden until the game is over). */
export function renderScores(el, scores, names, colours) {
  if (!scores) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const players = scores.players;
  const cats = Object.keys(players[0]?.categories ?? {});
  const nameOf = (seat) => names[seat] || (hasKey(`colour.${colours[seat]}`) ? t(`colour.${colours[seat]}`) : colours[seat]) || seatLabel(seat);
  const winners = new Set(scores.winners);
  const head = h("tr", {}, h("th", { scope: "col" }, t("scores.category")), players.map((p) => h("th", { scope: "col" }, seatMark(p.seat), nameOf(p.seat), winners.has(p.seat) ? " ★" : "")));
  const realmRows = (c) =>
    c !== "realms" || !players[0]?.realms
      ? []
      : Object.keys(players[0].realms).map((realm) => {
          const w = scores.realm_whirlpools?.[realm];
          return h(
            "tr.sub",
            { dataset: { realm } },
            h("th", { scope: "row" }, h("span.realm-dot", { dataset: { realm } }), realmName(realm), w !== undefined ? h("small.muted", {}, " · ", tn("scores.whirlpools", w)) : null),
            players.map((p) => h("td", { dataset: { seat: p.seat } }, h("span.realm-vp", {}, p.realms[realm] || "·"), realmCell(p.realm_detail?.[realm]))),
          );
        });
  // Each track's Bonus tile, how far the tail got and the VP, from the engine's detail.
  const tailRows = (c) =>
    c !== "tails" || !players[0]?.tails_detail
      ? []
      : players[0].tails_detail.map(({ track }, i) =>
          h(
            "tr.sub.tail-row",
            { dataset: { track } },
            h("th", { scope: "row" }, hasKey(`scores.tail.row.${track}`) ? t(`scores.tail.row.${track}`) : t("scores.tail.row", { track: trackName(track) })),
            players.map((p) => h("td", { dataset: { seat: p.seat } }, tailCell(p.tails_detail[i]))),
          ),
        );
  const rows = cats.flatMap((c) => [h(`tr${c === "realms" ? ".realms-total" : ""}`, {}, h("th", { scope: "row" }, label(c)), players.map((p) => h("td", {}, p.categories[c]))), ...realmRows(c), ...tailRows(c)]);
  const total = h("tr.total", {}, h("th", { scope: "row" }, t("scores.total")), players.map((p) => h("td", {}, h("b", {}, p.total))));
  const table = h("table.scores", {}, h("thead", {}, head), h("tbody", {}, rows, total));
  const max = Math.max(1, ...players.map((p) => p.total));
  const bars = players.map((p) =>
    h(
      "div.bar-row",
      {},
      h("span.bar-name", {}, nameOf(p.seat)),
      h(
        "div.bar",
        { role: "img", "aria-label": t("scores.bar_label", { name: nameOf(p.seat), vp: formatNumber(p.total) }) },
        cats.filter((c) => p.categories[c] > 0).map((c) =>
          h("span.seg", { title: t("scores.segment", { category: label(c), vp: formatNumber(p.categories[c]) }), style: { width: `${(100 * p.categories[c]) / max}%`, background: CAT_COLOURS[c] ?? "#999" } }),
        ),
      ),
      h("b.bar-total", {}, p.total),
    ),
  );
  const legend = h("div.legend", {}, cats.map((c) => h("span", {}, h("i", { style: { background: CAT_COLOURS[c] ?? "#999" } }), label(c))));
  const winText = scores.winners.length > 1 ? t("scores.shared", { names: formatList(scores.winners.map(nameOf)) }) : t("scores.wins", { name: nameOf(scores.winners[0]) });
  fill(el, h("h2", {}, t("scores.title")), h("p.winner", {}, winText), table, h("div.chart", {}, bars), legend);
}
