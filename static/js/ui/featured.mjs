// The home page's featured game: a small board and who plays, over the watch channel
// (WS /ws/watch?view=featured); it switches by itself when the game ends.

import { fill, h } from "./dom.mjs";
import { SummaryBoard } from "./miniboard.mjs";
import { seatsText, statusText } from "../lib/watchboard.mjs";
import { watchSocket } from "../lib/watchsocket.mjs";

/** Keep `section` (holding a canvas and an info box) showing the featured game. */
export function showFeatured(section) {
  const canvas = section.querySelector("canvas");
  const info = section.querySelector(".featured-info");
  let board = null;
  watchSocket("view=featured", (frame) => {
    if (frame.type !== "featured") return;
    const g = frame.game;
    section.hidden = !g;
    if (!g) return;
    section.dataset.gameId = g.id;
    board ??= new SummaryBoard(canvas, () => 260);
    board.show(g);
    fill(
      info,
      h("b", {}, `Table ${g.id}`),
      h("div.meta", {}, seatsText(g)),
      h("div.meta", {}, statusText(g)),
      h("div.buttons", {}, h("a.button", { href: `/games/${g.id}` }, "Watch"), h("a", { href: "/tv" }, "TV"), h("a", { href: "/watch" }, "All live games")),
    );
  });
}
