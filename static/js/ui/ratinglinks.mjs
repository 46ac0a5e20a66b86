// Ratings in the game pages: a finished game's players linked to their profiles (with their
// place and rating change once recorded), and a rated table's expected places in the waiting
// room. The numbers come from GET /api/games/{id} (seats), GET /api/me/history-like results in
// GET /api/games/{id}/prediction; nothing is computed here.

import { api, errorText } from "../lib/api.mjs";
import { formatPercent, t } from "../lib/i18n.mjs";
import { fill, h } from "./dom.mjs";

/** Fill `el` with a link to each account's profile at a finished game (`game`: GET /api/games/{id}). */
export function renderProfileLinks(el, game) {
  const people = game.seats.filter((s) => s.player?.username);
  if (!people.length) {
    el.hidden = true;
    return;
  }
  fill(
    el,
    h("h3", {}, game.rated ? t("ratings.players_rated") : t("ratings.players")),
    h(
      "ul.profile-links",
      {},
      people.map((s) => h("li", {}, h("a.profile-link", { href: `/u/${encodeURIComponent(s.player.username)}`, dataset: { seat: s.seat } }, s.player.display_name))),
    ),
  );
  el.hidden = false;
}

/** A box that fills itself with a rated table's expected places (one request). */
export function predictionBox(game, nameOf) {
  const box = h("div.prediction", { "aria-live": "polite" }, h("p.muted", {}, t("ratings.expected_loading")));
  api(`/api/games/${game.id}/prediction`)
    .then((p) => {
      const rows = [...p.seats].sort((a, b) => a.place - b.place || b.win - a.win);
      fill(
        box,
        h("h3", {}, t("ratings.expected")),
        h(
          "ol.prediction-list",
          {},
          rows.map((r) => h("li", { dataset: { seat: r.seat } }, t("ratings.expected_row", { name: nameOf(r.seat), place: r.place, win: formatPercent(Math.round(r.win * 100)) }))),
        ),
      );
    })
    .catch((e) => fill(box, h("p.muted", {}, t("ratings.expected_error", { error: errorText(e) }))));
  return box;
}
