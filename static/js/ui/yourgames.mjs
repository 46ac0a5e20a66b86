// "Your games" in the lobby: the games waiting for me first (with their clocks), then
// my other games, then finished ones with my place, points and rating change (GET
// /api/me/history, paged); the tab title counts those waiting for me.

import { api } from "../lib/api.mjs";
import { homeLine, titleWithCount } from "../lib/clock.mjs";
import { formatNumber, formatOrdinal, formatRating, t, tParts } from "../lib/i18n.mjs";
import { seatDisplayName } from "../lib/seats.mjs";
import { fill, h } from "./dom.mjs";

function item(game, me, kind) {
  const href = kind === "finished" ? `/games/${game.id}/replay` : `/games/${game.id}`;
  const label = { waiting: t("yourgames.play"), playing: game.status === "open" ? t("yourgames.open") : t("yourgames.watch"), finished: t("yourgames.replay") }[kind];
  return h(
    "li",
    { dataset: { gameId: game.id, group: kind } },
    h("div", {}, h("b", {}, t("common.table", { id: game.id })), kind === "waiting" ? h("span.badge", {}, t("yourgames.your_turn")) : null, h("div.meta", {}, homeLine(game, me.id, Date.now()))),
    h(kind === "waiting" ? "a.button" : "a", { href }, label),
  );
}

let historyPage = 1;

function turn(el, me, baseTitle, by) {
  historyPage = Math.max(1, historyPage + by);
  renderYourGames(el, me, baseTitle);
}

function finishedItem(g) {
  const parts = [
    g.place === null
      ? t("yourgames.result_pending")
      : t("yourgames.result", { place: formatOrdinal(g.place), players: g.players, vp: formatNumber(g.total) }),
  ];
  // Stepping away (a bot plays on, the seat stays mine) is not leaving the table.
  if (g.place !== null && g.quit) parts.push(t(g.stepped_away ? "yourgames.stepped_away" : "yourgames.left"));
  if (g.rated && g.rating_change !== null) {
    const change = `${g.rating_change >= 0 ? "+" : ""}${formatRating(g.rating_change)}`;
    parts.push(t("yourgames.rated_change", { change, after: formatRating(g.rating_after) }));
  } else if (g.rated) parts.push(t("yourgames.rated"));
  const others = g.seats.filter((s) => s.seat !== g.seat);
  return h(
    "li",
    { dataset: { gameId: g.game_id, group: "finished" } },
    h(
      "div",
      {},
      h("b", {}, t("common.table", { id: g.game_id })),
      h("div.meta.result", {}, parts.join(" · ")),
      h("div.meta", {}, ...tParts("clock.home.with", { names: others.flatMap((s, i) => [i ? ", " : "", s.username ? h("a", { href: `/u/${encodeURIComponent(s.username)}` }, s.name) : seatDisplayName(s)]) })),
    ),
    h("a", { href: g.replay }, t("yourgames.replay")),
  );
}

/** Fill `el` with my games and put the count of games waiting for me in the tab title. */
export async function renderYourGames(el, me, baseTitle) {
  if (!me) {
    fill(el, h("li.muted", {}, t("yourgames.sign_in")));
    document.title = baseTitle;
    return 0;
  }
  const home = await api("/api/me/home");
  const groups = [
    ["waiting", t("yourgames.waiting")],
    ["playing", t("yourgames.other_games")],
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
          h("button", { type: "button", disabled: done.page <= 1, onclick: () => turn(el, me, baseTitle, -1) }, t("yourgames.newer")),
          " ",
          t("common.page_of", { page: formatNumber(done.page), pages: formatNumber(done.pages) }),
          " ",
          h("button", { type: "button", disabled: done.page >= done.pages, onclick: () => turn(el, me, baseTitle, 1) }, t("yourgames.older")),
        )
      : null;
    items.push(h("li.group-title", {}, t("yourgames.finished")), ...done.games.map(finishedItem), pager);
  }
  fill(el, items.length ? items : h("li.muted", {}, t("yourgames.none")));
  document.title = titleWithCount(baseTitle, home.waiting_count);
  return home.waiting_count;
}
