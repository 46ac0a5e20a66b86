// /tv: the featured game (the server's choice: the most interesting live public game, kept
// until it ends, then the next best), large, over one socket (WS /ws/watch?view=featured).

import { $, fill, h } from "../ui/dom.mjs";
import { SummaryBoard } from "../ui/miniboard.mjs";
import { seatsText, statusText } from "../lib/watchboard.mjs";
import { watchSocket } from "../lib/watchsocket.mjs";

let board = null;

function show(game) {
  const box = $("tv-game");
  if (!game) {
    box.hidden = true;
    $("tv-status").textContent = "No live public game right now: the next one will show here.";
    return;
  }
  box.hidden = false;
  box.dataset.gameId = game.id;
  $("tv-status").textContent = "";
  board ??= new SummaryBoard($("tv-board"), () => Math.min(720, window.innerHeight - 160));
  board.show(game);
  fill(
    $("tv-info"),
    h("h2", {}, `Table ${game.id}`),
    h("p.watch-seats", {}, seatsText(game)),
    h("p.watch-status", {}, statusText(game)),
    h("a.button.primary", { href: `/games/${game.id}` }, "Open this game"),
  );
}

watchSocket(
  "view=featured",
  (frame) => {
    if (frame.type === "featured") show(frame.game);
  },
  (state) => {
    if (state !== "live") $("tv-status").textContent = state === "refused" ? "The server refused the watch channel." : "Reconnecting…";
  },
);
