// /tv: the featured game (the server's choice: the most interesting live public game, kept
// until it ends, then the next best), large, over one socket (WS /ws/watch?view=featured).

import { $, fill, h } from "../ui/dom.mjs";
import { t } from "../lib/i18n.mjs";
import { SummaryBoard } from "../ui/miniboard.mjs";
import { seatsText, statusText } from "../lib/watchboard.mjs";
import { watchSocket } from "../lib/watchsocket.mjs";
import { Sound } from "../ui/sound.mjs";

let board = null;
// A watch page: its sounds are off until switched on here (kept for this browser).
const sound = new Sound($("sound-btn"), { watching: true });
let last = null; // {id, v}: the game shown and its version, to hear a move on it or its end
window.seadragons = { sound }; // read-only handle for the browser tests

/** A move on the game shown sounds "move"; the game replaced by the next one, "end". */
function hear(game) {
  const now = game ? { id: game.id, v: game.v } : null;
  if (last && now && now.id !== last.id) sound.cue("end");
  else if (last && now && now.v !== last.v) sound.cue("move");
  if (now) last = now;
}

function show(game) {
  const box = $("tv-game");
  if (!game) {
    box.hidden = true;
    $("tv-status").textContent = t("watch.tv_none");
    return;
  }
  box.hidden = false;
  box.dataset.gameId = game.id;
  $("tv-status").textContent = "";
  board ??= new SummaryBoard($("tv-board"), () => Math.min(720, window.innerHeight - 160));
  board.show(game);
  fill(
    $("tv-info"),
    h("h2", {}, t("common.table", { id: game.id })),
    h("p.watch-seats", {}, seatsText(game)),
    h("p.watch-status", {}, statusText(game)),
    h("a.button.primary", { href: `/games/${game.id}` }, t("watch.open_game")),
  );
}

watchSocket(
  "view=featured",
  (frame) => {
    if (frame.type === "featured") {
      hear(frame.game);
      show(frame.game);
    }
  },
  (state) => {
    if (state !== "live") $("tv-status").textContent = state === "refused" ? t("watch.refused") : t("seats.conn.reconnecting");
  },
);
