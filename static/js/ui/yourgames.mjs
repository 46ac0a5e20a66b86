// "Your games" in the lobby (issue 14): the games waiting for me first (with their clocks), then
// my other games, then finished ones with the winner; the tab title counts those waiting for me.

import { api } from "../lib/api.mjs";
import { homeLine, titleWithCount } from "../lib/clock.mjs";
import { fill, h } from "./dom.mjs";

function item(game, me, kind) {
  const href = kind === "finished" ? `/games/${game.id}/replay` : `/games/${game.id}`;
  const label = { waiting: "Play", playing: game.status === "open" ? "Open" : "Watch", finished: "Replay" }[kind];
  return h(
    "li",
    { dataset: { gameId: game.id, group: kind } },
    h("div", {}, h("b", {}, `Table ${game.id}`), kind === "waiting" ? h("span.badge", {}, "your turn") : null, h("div.meta", {}, homeLine(game, me.id, Date.now()))),
    h(kind === "waiting" ? "a.button" : "a", { href }, label),
  );
}

/** Fill `el` with my games and put the count of games waiting for me in the tab title. */
export async function renderYourGames(el, me, baseTitle) {
  if (!me) {
    fill(el, h("li.muted", {}, "Sign in to see your games."));
    document.title = baseTitle;
    return 0;
  }
  const home = await api("/api/me/home");
  const groups = [
    ["waiting", "Waiting for you"],
    ["playing", "Your other games"],
    ["finished", "Finished"],
  ];
  const items = [];
  for (const [kind, title] of groups) {
    if (!home[kind].length) continue;
    items.push(h("li.group-title", {}, title), ...home[kind].map((g) => item(g, me, kind)));
  }
  fill(el, items.length ? items : h("li.muted", {}, "No games yet: create a table or join one."));
  document.title = titleWithCount(baseTitle, home.waiting_count);
  return home.waiting_count;
}
