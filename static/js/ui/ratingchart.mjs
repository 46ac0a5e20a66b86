// A small SVG line chart of one variant's rating history (no chart library).

import { formatNumber, t, tn } from "../lib/i18n.mjs";
import { chartGeometry } from "../lib/ratingchart.mjs";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** An <svg> drawing `history` ([{rating, at, game_id}], oldest first). */
export function ratingChart(history, { width = 320, height = 90, label = t("ratings.history") } = {}) {
  const ratings = history.map((p) => p.rating);
  const g = chartGeometry(ratings, width, height);
  const root = svg("svg", {
    class: "rating-chart",
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: "img",
    "aria-label": tn("ratings.chart_label", ratings.length, {
      label,
      from: ratings.length ? formatNumber(ratings[0]) : "-",
      to: ratings.length ? formatNumber(ratings.at(-1)) : "-",
    }),
    "data-points": ratings.length,
  });
  root.append(svg("rect", { x: 0, y: 0, width, height, class: "chart-bg" }));
  if (ratings.length) {
    root.append(svg("polyline", { points: g.points, class: "chart-line", fill: "none" }));
    const [x, y] = g.coords.at(-1);
    root.append(svg("circle", { cx: x, cy: y, r: 3, class: "chart-dot" }));
    root.append(svg("text", { x: 4, y: 12, class: "chart-label" }, formatNumber(Math.round(g.max))));
    root.append(svg("text", { x: 4, y: height - 4, class: "chart-label" }, formatNumber(Math.round(g.min))));
  }
  return root;
}
