// /watch: every live public game with a small board that updates live, over one socket for
// the whole page (WS /ws/watch). The server sends the summaries (built from the spectator's
// view, as far as a table's spectator delay allows) and their order, most interesting first;
// the page only filters what it shows and draws.

import { $, fill, h } from "../ui/dom.mjs";
import { SummaryBoard } from "../ui/miniboard.mjs";
import { applyWatchFrame, keep, seatsText, statusText } from "../lib/watchboard.mjs";
import { watchSocket } from "../lib/watchsocket.mjs";

const picture = { games: new Map(), order: [], featured: null };
const cards = new Map(); // game id -> {li, board, seats, status}
const list = $("watch-games");
const form = $("watch-filters");

function filters() {
  return Object.fromEntries(new FormData(form).entries());
}

function card(id) {
  let c = cards.get(id);
  if (c) return c;
  const canvas = h("canvas", { "aria-label": `Board of table ${id}` });
  const seats = h("div.meta.watch-seats");
  const status = h("div.meta.watch-status");
  const title = h("b", {}, `Table ${id}`);
  const badges = h("span.watch-badges");
  const li = h(
    "li.watch-card",
    { dataset: { gameId: id } },
    h("div.watch-board", {}, canvas),
    h("div.watch-info", {}, title, badges, seats, status, h("a.button", { href: `/games/${id}` }, "Watch")),
  );
  list.append(li); // the canvas needs a parent in the page before the Board sizes it
  c = { li, board: new SummaryBoard(canvas, () => 260), seats, status, badges };
  cards.set(id, c);
  return c;
}

function render() {
  const f = filters();
  const shown = picture.order.filter((id) => keep(picture.games.get(id), f));
  for (const [id, c] of cards) {
    if (!picture.games.has(id)) {
      c.li.remove();
      cards.delete(id);
    }
  }
  for (const id of shown) {
    const g = picture.games.get(id);
    const c = card(id);
    c.board.show(g);
    c.li.dataset.version = g.v;
    c.seats.textContent = seatsText(g);
    c.status.textContent = statusText(g);
    fill(
      c.badges,
      g.rated ? h("span.badge", {}, "rated") : null,
      g.expansion ? h("span.badge", {}, "expansion") : null,
      g.clock !== "none" ? h("span.badge", {}, `${g.clock} clock`) : null,
      id === picture.featured ? h("span.badge.featured", {}, "featured") : null,
    );
  }
  // In the server's order (most interesting first); hidden by the filters otherwise.
  const visible = new Set(shown);
  for (const [id, c] of cards) c.li.hidden = !visible.has(id);
  for (const id of shown) list.append(cards.get(id).li);
  const total = picture.games.size;
  $("watch-status").textContent = total
    ? `${shown.length} of ${total} live game${total === 1 ? "" : "s"} shown`
    : "No live public game right now.";
}

form.addEventListener("change", render);
watchSocket(
  "view=list",
  (frame) => {
    if (frame.type !== "watch") return;
    applyWatchFrame(picture, frame);
    render();
  },
  (state) => {
    if (state !== "live") $("watch-status").textContent = state === "refused" ? "The server refused the watch channel." : "Reconnecting…";
  },
);
