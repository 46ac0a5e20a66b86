// "Your games" in the lobby: the games waiting for me first (with their clocks), then
// my other games, then finished ones with my place, points and rating change (GET
// /api/me/history, paged); the tab title counts those waiting for me.

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

let historyPage = 1;

function turn(el, me, baseTitle, by) {
  historyPage = Math.max(1, historyPage + by);
  renderYourGames(el, me, baseTitle);
}

function ordinal(n) {
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n] ?? "th"}`;
}

function finishedItem(g) {
  const result = g.place === null
    ? "result being recorded"
    : `${ordinal(g.place)} of ${g.players} · ${g.total} VP${g.quit ? " · left" : ""}`;
  const rating = g.rated && g.rating_change !== null ? ` · rated ${g.rating_change >= 0 ? "+" : ""}${g.rating_change} → ${g.rating_after}` : g.rated ? " · rated" : "";
  const others = g.seats.filter((s) => s.seat !== g.seat);
  return h(
    "li",
    { dataset: { gameId: g.game_id, group: "finished" } },
    h(
      "div",
      {},
      h("b", {}, `Table ${g.game_id}`),
      h("div.meta.result", {}, result + rating),
      h("div.meta", {}, "with ", ...others.flatMap((s, i) => [i ? ", " : "", s.username ? h("a", { href: `/u/${encodeURIComponent(s.username)}` }, s.name) : s.name])),
    ),
    h("a", { href: g.replay }, "Replay"),
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
  ];
  const items = [];
  for (const [kind, title] of groups) {
    if (!home[kind].length) continue;
    items.push(h("li.group-title", {}, title), ...home[kind].map((g) => item(g, me, kind)));
  }
  const done = await api(`/api/me/history?page=${historyPage}`);
  if (done.total) {
    const pager = done.pages > 1
      ? h(
          "li.pager",
          {},
          h("button", { type: "button", disabled: done.page <= 1, onclick: () => turn(el, me, baseTitle, -1) }, "Newer"),
          ` page ${done.page} of ${done.pages} `,
          h("button", { type: "button", disabled: done.page >= done.pages, onclick: () => turn(el, me, baseTitle, 1) }, "Older"),
        )
      : null;
    items.push(h("li.group-title", {}, "Finished"), ...done.games.map(finishedItem), pager);
  }
  fill(el, items.length ? items : h("li.muted", {}, "No games yet: create a table or join one."));
  document.title = titleWithCount(baseTitle, home.waiting_count);
  return home.waiting_count;
}
