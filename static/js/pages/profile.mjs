// A player's profile (/u/{username}): ratings per variant with their history chart, games
// played and won by player count, mean points per category against their opponents, recent
// games (each a replay link, each account a profile link) and head-to-head (?vs=name).
// Every number comes from GET /api/users/{username}/profile.

import { api, errorText } from "../lib/api.mjs";
import { formatNumber, formatOrdinal, formatRating, hasKey, t, tn, tParts } from "../lib/i18n.mjs";
import { $, fill, h } from "../ui/dom.mjs";
import { ratingChart } from "../ui/ratingchart.mjs";
import { watchSocket } from "../lib/watchsocket.mjs";
import { seatDisplayName } from "../lib/seats.mjs";

const root = $("profile");
const username = document.body.dataset.username;
const variantName = (v) => t(`variant.${v}`);
const CATEGORIES = ["gold", "ships", "missions", "most_missions", "realms", "tails"];

export function ratingText(r) {
  if (r.rating === null) return t("profile.unrated");
  return r.provisional ? `${formatRating(r.rating)}?` : formatRating(r.rating);
}

function playerLink(seat) {
  const place = seat.place ? formatOrdinal(seat.place) : null;
  const name = seatDisplayName(seat);
  const label = !place ? name : t(seat.quit ? "profile.player_place_left" : "profile.player_place", { name, place });
  return seat.username ? h("a.player-link", { href: `/u/${encodeURIComponent(seat.username)}` }, label) : h("span", {}, label);
}

function change(n) {
  if (n === null || n === undefined) return "";
  return n >= 0 ? ` (+${formatRating(n)})` : ` (${formatRating(n)})`;
}

function gameLine(g) {
  const others = g.seats.filter((s) => s.seat !== g.seat);
  const parts = [t("profile.of_players", { players: g.players }), t("scores.vp", { vp: g.total ?? "–" }), variantName(g.variant)];
  if (g.rated) parts.push(t("yourgames.rated") + change(g.rating_change));
  return h(
    "li.game-line",
    { dataset: { gameId: g.game_id } },
    h("b", {}, g.place ? formatOrdinal(g.place) : "–"),
    ` ${parts.join(" · ")} · ${t("profile.vs")} `,
    ...others.flatMap((s, i) => [i ? ", " : "", playerLink(s)]),
    " · ",
    h("a", { href: g.replay }, t("profile.replay")),
  );
}

function ratingsSection(p) {
  return h(
    "section.ratings",
    {},
    h("h2", {}, t("profile.ratings")),
    ...p.ratings.map((r) =>
      h(
        "div.rating",
        { dataset: { variant: r.variant } },
        h("h3", {}, variantName(r.variant)),
        h("p.rating-number", { title: r.provisional ? t("profile.provisional_title") : "" }, ratingText(r)),
        h("p.muted", {}, [tn("profile.rated_games", r.games), ...(r.rank ? [t("profile.rank", { rank: formatNumber(r.rank) })] : r.rating !== null ? [t("profile.provisional")] : [])].join(" · ")),
        r.history.length ? ratingChart(r.history, { label: t("profile.rating_of", { variant: variantName(r.variant) }) }) : null,
      ),
    ),
  );
}

function resultsSection(p) {
  const rows = p.by_players.map((b) => h("tr", {}, h("td", {}, tn("profile.players", b.players)), h("td", {}, formatNumber(b.played)), h("td", {}, formatNumber(b.won))));
  const cats = CATEGORIES.filter((c) => p.averages.you[c] !== null || p.averages.opponents[c] !== null);
  const mean = (v) => (v === null || v === undefined ? "–" : formatNumber(v));
  return h(
    "section.results",
    {},
    h("h2", {}, t("profile.games")),
    // Played to the end against left: what leaving costs shows here too.
    p.commitment ? h("p#finished-left.muted", {}, t("profile.finished_left", { finished: formatNumber(p.commitment.finished), left: formatNumber(p.commitment.left) })) : null,
    rows.length
      ? h("table#by-players", {}, h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("profile.played")), h("th", {}, t("profile.won")))), h("tbody", {}, rows))
      : h("p.muted", {}, t("profile.no_games")),
    p.averages.games
      ? h(
          "table#averages",
          {},
          h("caption", {}, t("profile.mean_points")),
          h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, username), h("th", {}, t("profile.opponents")))),
          h("tbody", {}, cats.map((c) => h("tr", {}, h("td", {}, hasKey(`profile.category.${c}`) ? t(`profile.category.${c}`) : c), h("td", {}, mean(p.averages.you[c])), h("td", {}, mean(p.averages.opponents[c]))))),
        )
      : null,
  );
}

function vsSection(p) {
  const form = h(
    "form#vs-form",
    {
      onsubmit: (e) => {
        e.preventDefault();
        const name = new FormData(e.target).get("vs").trim();
        const url = new URL(location.href);
        if (name) url.searchParams.set("vs", name);
        else url.searchParams.delete("vs");
        history.replaceState(null, "", url);
        load();
      },
    },
    h("label", {}, t("profile.against"), " ", h("input", { name: "vs", value: new URL(location.href).searchParams.get("vs") ?? "", maxlength: 32, "data-key": "vs" })),
    h("button", { type: "submit" }, t("profile.compare")),
  );
  const parts = [h("h2", {}, t("profile.head_to_head")), form];
  if (p.vs) {
    const v = p.vs;
    parts.push(
      h("p#vs-record", {}, tn("profile.vs_record", v.games, { name: v.opponent.display_name, ahead: v.ahead, behind: v.behind, level: v.level })),
      h("ul.games", {}, v.recent.map(gameLine)),
    );
  }
  return h("section.vs", {}, ...parts);
}

let stopFollowing = null; // closes the follow socket while the page waits for a game

/**
 * "Watch their next game": the watch channel tells the page which live public game the
 * account plays (WS /ws/watch?view=follow); when a new one starts, the page opens it.
 */
function followSection(p) {
  const status = h("p#follow-status.muted", { "aria-live": "polite" });
  const button = h("button#follow", { type: "button" }, t("profile.follow"));
  const stop = () => {
    stopFollowing?.();
    stopFollowing = null;
    button.textContent = t("profile.follow");
    status.replaceChildren();
  };
  button.addEventListener("click", () => {
    if (stopFollowing) return stop();
    let first = true;
    let current = null; // the game they play as we start waiting: their next one is another
    button.textContent = t("profile.follow_stop");
    status.textContent = t("profile.follow_waiting");
    stopFollowing = watchSocket(`view=follow&user=${encodeURIComponent(p.username)}`, (frame) => {
      if (frame.type !== "follow") return;
      if (first) {
        first = false;
        current = frame.game_id;
        fill(
          status,
          current ? [...tParts("profile.follow_playing_now", { name: p.display_name, table: h("a#follow-current", { href: `/games/${current}` }, t("profile.follow_table", { id: current })) }), " "] : null,
          t("profile.follow_next", { name: p.display_name }),
        );
        return;
      }
      if (frame.game_id !== null && frame.game_id !== current) {
        status.textContent = t("profile.follow_started", { id: frame.game_id });
        location.href = `/games/${frame.game_id}`;
      }
    });
  });
  return h("section.follow", {}, button, status);
}

async function load() {
  stopFollowing?.(); // the section is built again below
  stopFollowing = null;
  const vs = new URL(location.href).searchParams.get("vs");
  const path = `/api/users/${encodeURIComponent(username)}/profile${vs ? `?vs=${encodeURIComponent(vs)}` : ""}`;
  try {
    const p = await api(path);
    fill(
      root,
      h("h1", {}, p.display_name, p.display_name.toLowerCase() !== p.username ? h("span.muted", {}, ` (${p.username})`) : null),
      followSection(p),
      ratingsSection(p),
      resultsSection(p),
      h("section.recent", {}, h("h2", {}, t("profile.recent")), p.recent.length ? h("ul#recent.games", {}, p.recent.map(gameLine)) : h("p.muted", {}, t("profile.none_yet"))),
      vsSection(p),
    );
  } catch (e) {
    fill(root, h("h1", {}, username), h("p.error", { role: "alert" }, errorText(e)));
  }
}

load();
