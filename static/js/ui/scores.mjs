// The end-of-game score breakdown per player and category, each realm's majority on a
// row of its own (with the Whirlpools left uncovered), and a stacked bar chart.

import { fill, h, seatMark } from "./dom.mjs";

const LABELS = { gold: "Gold", ships: "Ships", missions: "Missions", most_missions: "Most missions", realms: "Realm majorities", tails: "Tails (bonus tiles)" };
const CAT_COLOURS = { gold: "#f5c542", ships: "#4f7be0", missions: "#52b788", most_missions: "#9ad1a8", realms: "#e07a5f", tails: "#b392f0" };

const cap = (s) => s[0].toUpperCase() + s.slice(1);

/** A player's tail on one track: "12 VP", and under it "tile 12 · full" (or half, or short). */
function tailCell(d) {
  if (!d) return "·";
  const reach = d.full ? "full" : d.half ? "half" : "not reached";
  return [h("b", {}, `${d.vp} VP`), h("small.muted.tail-how", {}, ` tile ${d.tile} · ${reach}`)];
}

/** The Dragons counted in a realm, and whether that count includes Hidden Dragon cards. */
function realmCell(d) {
  if (!d?.count) return null;
  const hidden = d.hidden && d.hidden_included ? `, incl. ${d.hidden} hidden` : "";
  return h("small.muted.realm-how", { title: "Dragons counted in the realm (Hidden Dragon cards included at the end)" }, ` (${d.count} Dragon${d.count === 1 ? "" : "s"}${hidden})`);
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
  const nameOf = (seat) => names[seat] || colours[seat] || `Seat ${seat + 1}`;
  const winners = new Set(scores.winners);
  const head = h("tr", {}, h("th", { scope: "col" }, "Category"), players.map((p) => h("th", { scope: "col" }, seatMark(p.seat), nameOf(p.seat), winners.has(p.seat) ? " ★" : "")));
  const realmRows = (c) =>
    c !== "realms" || !players[0]?.realms
      ? []
      : Object.keys(players[0].realms).map((realm) => {
          const w = scores.realm_whirlpools?.[realm];
          return h(
            "tr.sub",
            { dataset: { realm } },
            h("th", { scope: "row" }, h("span.realm-dot", { dataset: { realm } }), realm[0].toUpperCase() + realm.slice(1), w !== undefined ? h("small.muted", {}, ` · ${w} Whirlpool${w === 1 ? "" : "s"}`) : null),
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
            h("th", { scope: "row" }, `${cap(track)} tail`),
            players.map((p) => h("td", { dataset: { seat: p.seat } }, tailCell(p.tails_detail[i]))),
          ),
        );
  const rows = cats.flatMap((c) => [h(`tr${c === "realms" ? ".realms-total" : ""}`, {}, h("th", { scope: "row" }, LABELS[c] ?? c), players.map((p) => h("td", {}, p.categories[c]))), ...realmRows(c), ...tailRows(c)]);
  const total = h("tr.total", {}, h("th", { scope: "row" }, "Total"), players.map((p) => h("td", {}, h("b", {}, p.total))));
  const table = h("table.scores", {}, h("thead", {}, head), h("tbody", {}, rows, total));
  const max = Math.max(1, ...players.map((p) => p.total));
  const bars = players.map((p) =>
    h(
      "div.bar-row",
      {},
      h("span.bar-name", {}, nameOf(p.seat)),
      h(
        "div.bar",
        { role: "img", "aria-label": `${nameOf(p.seat)}: ${p.total} VP` },
        cats.filter((c) => p.categories[c] > 0).map((c) =>
          h("span.seg", { title: `${LABELS[c] ?? c}: ${p.categories[c]}`, style: { width: `${(100 * p.categories[c]) / max}%`, background: CAT_COLOURS[c] ?? "#999" } }),
        ),
      ),
      h("b.bar-total", {}, p.total),
    ),
  );
  const legend = h("div.legend", {}, cats.map((c) => h("span", {}, h("i", { style: { background: CAT_COLOURS[c] ?? "#999" } }), LABELS[c] ?? c)));
  const winText = scores.winners.length > 1 ? `Shared victory: ${scores.winners.map(nameOf).join(", ")}` : `${nameOf(scores.winners[0])} wins!`;
  fill(el, h("h2", {}, "Final scores"), h("p.winner", {}, winText), table, h("div.chart", {}, bars), legend);
}
