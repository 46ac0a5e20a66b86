// A finished game's analysis (GET /api/games/{id}/analysis, docs/review.md), drawn beside the
// replay: each seat's winning chance over the game, markers on inaccuracies, mistakes and
// blunders, accuracy per player and a "Next mistake" button. Self-contained: the replay page
// mounts it and tells it the move shown (docs/review.md, "In the replay").
// Every number comes from the server's analysis; nothing here judges a move.

import { actionLabel } from "../lib/cards.mjs";
import { formatNumber, formatPercent, hasKey, t } from "../lib/i18n.mjs";
import { seatLabel } from "../lib/seats.mjs";
import { h, fill } from "./dom.mjs";

export const LABELS = ["inaccuracy", "mistake", "blunder"];
const MARK = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const SEAT_HEX = { orange: "#e8892b", green: "#3e9b4f", purple: "#8a5cc7", pink: "#d9628f", yellow: "#d6b928" };
const SEAT_ORDER = ["orange", "green", "purple", "pink", "yellow"];
const PAD = { left: 34, right: 8, top: 8, bottom: 18 };

/** Each seat's winning chance (percent) after its own decisions, as its own view saw it, and
 *  the result at the end (100 for a sole winner, shared on a tie). */
export function seriesOf(analysis) {
  const n = analysis.players.length;
  const series = Array.from({ length: n }, () => []);
  for (const m of analysis.moves) {
    if (!m.forced) series[m.seat].push({ move: m.move, win: m.win.played });
  }
  const last = analysis.moves.length;
  const share = 100 / analysis.winners.length;
  for (let s = 0; s < n; s++) {
    series[s].push({ move: last, win: analysis.winners.includes(s) ? share : 0, final: true });
  }
  return series;
}

/** The labelled moves, in order: {move, seat, label, drop, mark}. */
export function markersOf(analysis) {
  return analysis.moves
    .filter((m) => !m.forced && m.label)
    .map((m) => ({ move: m.move, seat: m.seat, label: m.label, drop: m.drop, mark: MARK[m.label] }));
}

/** The first labelled move after `move` at least as bad as `atLeast` (of `seat` if given), or
 *  null. */
export function nextMistake(analysis, move, { atLeast = "mistake", seat = null } = {}) {
  const rank = LABELS.indexOf(atLeast);
  const found = markersOf(analysis).find(
    (k) => k.move > move && LABELS.indexOf(k.label) >= rank && (seat === null || k.seat === seat),
  );
  return found ? found.move : null;
}

/** The analysis of one move (1-based, as the replay counts), or null. */
export function moveEntry(analysis, move) {
  const m = analysis.moves[move - 1];
  return m && m.move === move ? m : null;
}

/** What the replay draws for the move shown: the action played and the best one found (null
 *  when the move was forced or was the best). */
export function bestMoveOf(analysis, move) {
  const m = moveEntry(analysis, move);
  if (!m || m.forced || JSON.stringify(m.best) === JSON.stringify(m.played)) return null;
  return { played: m.played, best: m.best, drop: m.drop, label: m.label, win: m.win, margin: m.margin };
}

/** The text of a 202 answer: "queued", "analysing: 40%", ... */
export function statusText(status) {
  switch (status?.status) {
    case "pending":
      return status.position
        ? t("analysis.status.queued", { position: status.position, minutes: Math.max(1, Math.round((status.wait_seconds ?? 0) / 60)) })
        : t("analysis.status.pending");
    case "running": return t("analysis.status.running", { percent: formatPercent(status.percent ?? 0) });
    case "failed": return t("analysis.status.failed");
    case "none": return t("analysis.status.none");
    default: return "";
  }
}

/** Pixel geometry of the graph: a polyline per seat, a dot per marker, x for a move. */
export function graphGeometry(analysis, width, height) {
  const moves = Math.max(1, analysis.moves.length);
  const w = width - PAD.left - PAD.right;
  const hh = height - PAD.top - PAD.bottom;
  const x = (move) => PAD.left + (w * (move - 1)) / Math.max(1, moves - 1);
  const y = (win) => PAD.top + hh * (1 - win / 100);
  const lines = seriesOf(analysis).map((points) => points.map((p) => [x(p.move), y(p.win)]));
  const markers = markersOf(analysis).map((k) => {
    const m = moveEntry(analysis, k.move);
    return { ...k, x: x(k.move), y: y(m.win.played) };
  });
  const moveAt = (px) => Math.min(moves, Math.max(1, Math.round(1 + ((px - PAD.left) * (moves - 1)) / w)));
  return { lines, markers, x, y, moveAt, plot: { left: PAD.left, top: PAD.top, width: w, height: hh } };
}

/** Draw the graph on a 2D context (`colours[seat]`: a CSS colour); `current` marks the move shown. */
export function drawGraph(ctx, analysis, { width, height, colours, current = null }) {
  const g = graphGeometry(analysis, width, height);
  ctx.clearRect(0, 0, width, height);
  ctx.strokeStyle = "#bbb";
  ctx.lineWidth = 1;
  ctx.fillStyle = "#666";
  ctx.font = "10px sans-serif";
  for (const pct of [0, 50, 100]) {
    ctx.beginPath();
    ctx.moveTo(g.plot.left, g.y(pct));
    ctx.lineTo(g.plot.left + g.plot.width, g.y(pct));
    ctx.stroke();
    ctx.fillText(formatPercent(pct), 2, g.y(pct) + 3);
  }
  g.lines.forEach((points, seat) => {
    ctx.strokeStyle = colours[seat];
    ctx.lineWidth = 2;
    ctx.beginPath();
    points.forEach(([px, py], i) => (i ? ctx.lineTo(px, py) : ctx.moveTo(px, py)));
    ctx.stroke();
  });
  for (const k of g.markers) {
    ctx.fillStyle = colours[k.seat];
    ctx.beginPath();
    ctx.arc(k.x, k.y, k.label === "blunder" ? 5 : k.label === "mistake" ? 4 : 3, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillStyle = "#000";
    ctx.fillText(k.mark, k.x + 5, k.y - 5);
  }
  if (current !== null) {
    ctx.strokeStyle = "#000";
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(g.x(current), g.plot.top);
    ctx.lineTo(g.x(current), g.plot.top + g.plot.height);
    ctx.stroke();
  }
  return g;
}

/** Seat colours as CSS colours, from the view's colour names (the players' order by default). */
export function seatColours(names = SEAT_ORDER) {
  return names.map((c) => SEAT_HEX[c] ?? "#444");
}

const labelWord = (label) => (hasKey(`analysis.label.${label}`) ? t(`analysis.label.${label}`) : label);

/** The chart's key: each player's colour and name, the marks' meanings, what the axes are. */
function chartLegend(analysis, names, colours) {
  return h(
    "div.analysis-legend",
    {},
    h("ul.analysis-seats", {}, analysis.players.map((p) => h("li", {}, h("i.swatch", { style: { background: colours[p.seat] } }), names[p.seat] ?? seatLabel(p.seat)))),
    h("p.muted.small", {}, LABELS.map((label) => `${MARK[label]} ${labelWord(label)}`).join(" · ")),
    h("p.muted.small.analysis-axes", {}, t("analysis.axes")),
  );
}

/** What the move's words say: a forced step names what was done (the replay's list too). */
export function forcedText(m, name, content = null) {
  return m.taken_back ? t("analysis.taken_back", { name }) : t("analysis.forced_step", { name, action: actionLabel(content, m.played ?? {}) });
}

/**
 * Mount the analysis panel in `el`. Options: `names` (per seat), `colours` (CSS, per seat),
 * `onSelect(move)` (the replay jumps there: a click on the graph or "Next mistake"),
 * `content` (the printed cards, to word a forced step's card).
 * Returns {show(move)}: the replay calls it whenever the move shown changes.
 */
export function mountAnalysis(el, analysis, { names = [], colours = seatColours(), onSelect = () => {}, width = 480, height = 140, content = null } = {}) {
  let current = null;
  const canvas = h("canvas.analysis-graph", { width, height, role: "img", "aria-label": t("analysis.graph_label") });
  const detail = h("p.analysis-move", { "aria-live": "polite" });
  const next = h("button.analysis-next", { type: "button", onclick: () => {
    const to = nextMistake(analysis, current ?? 0);
    if (to !== null) onSelect(to);
  } }, t("analysis.next_mistake"));
  const rows = analysis.players.map((p) =>
    h("tr", {}, h("td", {}, names[p.seat] ?? seatLabel(p.seat)),
      h("td", {}, p.accuracy === null ? "–" : formatPercent(p.accuracy)),
      h("td", {}, String(p.inaccuracies)), h("td", {}, String(p.mistakes)), h("td", {}, String(p.blunders))));
  const table = h("table.analysis-players", {},
    h("tr", {}, h("th", {}, t("analysis.player")), h("th", {}, t("analysis.accuracy")), ...LABELS.map((label) => h("th", { title: labelWord(label), "aria-label": labelWord(label) }, MARK[label]))), ...rows);
  fill(el, canvas, chartLegend(analysis, names, colours), next, detail, table);
  canvas.addEventListener("click", (ev) => {
    const rect = canvas.getBoundingClientRect();
    const g = graphGeometry(analysis, width, height);
    onSelect(g.moveAt(((ev.clientX - rect.left) * width) / rect.width));
  });
  const show = (move) => {
    current = move;
    drawGraph(canvas.getContext("2d"), analysis, { width, height, colours, current });
    const m = moveEntry(analysis, move);
    next.disabled = nextMistake(analysis, move) === null;
    const name = m ? names[m.seat] ?? seatLabel(m.seat) : "";
    if (!m || m.forced) {
      detail.textContent = m ? forcedText(m, name, content) : "";
      return;
    }
    const words = { name, played: formatPercent(m.win.played), best: formatPercent(m.win.best) };
    if (!m.label) {
      detail.textContent = t("analysis.detail", words);
      return;
    }
    detail.textContent = t("analysis.detail_labelled", { ...words, label: labelWord(m.label), drop: formatNumber(m.drop) });
  };
  show(0);
  return { show };
}
