// The leaderboard: established (non-provisional) ratings per variant, best first, paged.
// Every number comes from GET /api/leaderboard.

import { api, errorText } from "../lib/api.mjs";
import { formatNumber, formatRating, t } from "../lib/i18n.mjs";
import { $, fill, h } from "../ui/dom.mjs";

const root = $("leaderboard");
// The games' names stay as published.
const VARIANTS = ["base", "expansion"];
const variantName = (v) => t(`variant.${v}`);

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
      ...VARIANTS.map((v) => h("button", { type: "button", "aria-pressed": String(v === variant), onclick: () => go(v, 1) }, variantName(v))),
    );
    const rows = b.entries.map((e) =>
      h("tr", {}, h("td", {}, formatNumber(e.rank)), h("td", {}, h("a", { href: `/u/${encodeURIComponent(e.username)}` }, e.display_name)), h("td", {}, formatRating(e.rating)), h("td", {}, formatNumber(e.games))),
    );
    fill(
      root,
      h("h1", {}, t("leaderboard.title")),
      tabs,
      rows.length
        ? h("table#board", {}, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("leaderboard.player")), h("th", {}, t("leaderboard.rating")), h("th", {}, t("leaderboard.games")))), h("tbody", {}, rows))
        : h("p.muted", {}, t("leaderboard.empty")),
      h(
        "p.pager",
        {},
        h("button", { type: "button", disabled: b.page <= 1, onclick: () => go(variant, b.page - 1) }, t("common.previous")),
        " ",
        t("common.page_of", { page: formatNumber(b.page), pages: formatNumber(b.pages) }),
        " ",
        h("button", { type: "button", disabled: b.page >= b.pages, onclick: () => go(variant, b.page + 1) }, t("common.next")),
      ),
    );
  } catch (e) {
    fill(root, h("h1", {}, t("leaderboard.title")), h("p.error", { role: "alert" }, errorText(e)));
  }
}

load();
