// The leaderboard: established (non-provisional) ratings per variant, best first, paged.
// Every number comes from GET /api/leaderboard.

import { api, errorText } from "../lib/api.mjs";
import { $, fill, h } from "../ui/dom.mjs";

const root = $("leaderboard");
const VARIANT = { base: "Sea Dragons", expansion: "Treasures of the Deep" };

function state() {
  const q = new URL(location.href).searchParams;
  return { variant: q.get("variant") === "expansion" ? "expansion" : "base", page: Math.max(1, Number(q.get("page")) || 1) };
}

function go(variant, page) {
  const url = new URL(location.href);
  url.searchParams.set("variant", variant);
  url.searchParams.set("page", String(page));
  history.replaceState(null, "", url);
  load();
}

async function load() {
  const { variant, page } = state();
  try {
    const b = await api(`/api/leaderboard?variant=${variant}&page=${page}`);
    const tabs = h(
      "p.tabs",
      {},
      ...Object.entries(VARIANT).map(([v, label]) => h("button", { type: "button", "aria-pressed": String(v === variant), onclick: () => go(v, 1) }, label)),
    );
    const rows = b.entries.map((e) =>
      h("tr", {}, h("td", {}, e.rank), h("td", {}, h("a", { href: `/u/${encodeURIComponent(e.username)}` }, e.display_name)), h("td", {}, e.rating), h("td", {}, e.games)),
    );
    fill(
      root,
      h("h1", {}, "Leaderboard"),
      tabs,
      rows.length
        ? h("table#board", {}, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "player"), h("th", {}, "rating"), h("th", {}, "games"))), h("tbody", {}, rows))
        : h("p.muted", {}, "Nobody has a settled rating here yet: ratings stay provisional for about ten rated games."),
      h(
        "p.pager",
        {},
        h("button", { type: "button", disabled: b.page <= 1, onclick: () => go(variant, b.page - 1) }, "Previous"),
        ` page ${b.page} of ${b.pages} `,
        h("button", { type: "button", disabled: b.page >= b.pages, onclick: () => go(variant, b.page + 1) }, "Next"),
      ),
    );
  } catch (e) {
    fill(root, h("h1", {}, "Leaderboard"), h("p.error", { role: "alert" }, errorText(e)));
  }
}

load();
