// A player's profile (/u/{username}): ratings per variant with their history chart, games
// played and won by player count, mean points per category against their opponents, recent
// games (each a replay link, each account a profile link) and head-to-head (?vs=name).
// Every number comes from GET /api/users/{username}/profile.

import { api, errorText } from "../lib/api.mjs";
import { $, fill, h } from "../ui/dom.mjs";
import { ratingChart } from "../ui/ratingchart.mjs";
import { watchSocket } from "../lib/watchsocket.mjs";

const root = $("profile");
const username = document.body.dataset.username;
const VARIANT = { base: "Sea Dragons", expansion: "Treasures of the Deep" };
const CATEGORY = {
  gold: "Gold",
  ships: "Ships",
  missions: "Missions",
  most_missions: "Most missions",
  realms: "Majorities",
  tails: "Tails",
};

export function ratingText(r) {
  if (r.rating === null) return "unrated";
  return r.provisional ? `${r.rating}?` : String(r.rating);
}

function playerLink(seat) {
  const label = `${seat.name}${seat.place ? ` (${ordinal(seat.place)}${seat.quit ? ", left" : ""})` : ""}`;
  return seat.username ? h("a.player-link", { href: `/u/${encodeURIComponent(seat.username)}` }, label) : h("span", {}, label);
}

function ordinal(n) {
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n] ?? "th"}`;
}

function change(n) {
  if (n === null || n === undefined) return "";
  return n >= 0 ? ` (+${n})` : ` (${n})`;
}

function gameLine(g) {
  const others = g.seats.filter((s) => s.seat !== g.seat);
  return h(
    "li.game-line",
    { dataset: { gameId: g.game_id } },
    h("b", {}, g.place ? ordinal(g.place) : "–"),
    ` of ${g.players} · ${g.total ?? "–"} VP · ${VARIANT[g.variant]}${g.rated ? ` · rated${change(g.rating_change)}` : ""} · vs `,
    ...others.flatMap((s, i) => [i ? ", " : "", playerLink(s)]),
    " · ",
    h("a", { href: g.replay }, "replay"),
  );
}

function ratingsSection(p) {
  return h(
    "section.ratings",
    {},
    h("h2", {}, "Ratings"),
    ...p.ratings.map((r) =>
      h(
        "div.rating",
        { dataset: { variant: r.variant } },
        h("h3", {}, VARIANT[r.variant]),
        h("p.rating-number", { title: r.provisional ? "provisional: fewer games than needed for a settled rating" : "" }, ratingText(r)),
        h("p.muted", {}, `${r.games} rated game${r.games === 1 ? "" : "s"}${r.rank ? ` · rank ${r.rank}` : r.rating !== null ? " · provisional (not on the leaderboard yet)" : ""}`),
        r.history.length ? ratingChart(r.history, { label: `${VARIANT[r.variant]} rating` }) : null,
      ),
    ),
  );
}

function resultsSection(p) {
  const rows = p.by_players.map((b) => h("tr", {}, h("td", {}, `${b.players} players`), h("td", {}, b.played), h("td", {}, b.won)));
  const cats = Object.keys(CATEGORY).filter((c) => p.averages.you[c] !== null || p.averages.opponents[c] !== null);
  return h(
    "section.results",
    {},
    h("h2", {}, "Games"),
    rows.length
      ? h("table#by-players", {}, h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "played"), h("th", {}, "won"))), h("tbody", {}, rows))
      : h("p.muted", {}, "No finished public games yet."),
    p.averages.games
      ? h(
          "table#averages",
          {},
          h("caption", {}, "Mean points per game"),
          h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, username), h("th", {}, "opponents"))),
          h("tbody", {}, cats.map((c) => h("tr", {}, h("td", {}, CATEGORY[c]), h("td", {}, p.averages.you[c] ?? "–"), h("td", {}, p.averages.opponents[c] ?? "–")))),
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
    h("label", {}, "Against ", h("input", { name: "vs", value: new URL(location.href).searchParams.get("vs") ?? "", maxlength: 32, "data-key": "vs" })),
    h("button", { type: "submit" }, "Compare"),
  );
  const parts = [h("h2", {}, "Head to head"), form];
  if (p.vs) {
    const v = p.vs;
    parts.push(
      h("p#vs-record", {}, `${v.games} games against ${v.opponent.display_name}: ahead ${v.ahead}, behind ${v.behind}, level ${v.level}`),
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
  const button = h("button#follow", { type: "button" }, "Watch their next game");
  const stop = () => {
    stopFollowing?.();
    stopFollowing = null;
    button.textContent = "Watch their next game";
    status.replaceChildren();
  };
  button.addEventListener("click", () => {
    if (stopFollowing) return stop();
    let first = true;
    let current = null; // the game they play as we start waiting: their next one is another
    button.textContent = "Stop waiting";
    status.textContent = "Waiting…";
    stopFollowing = watchSocket(`view=follow&user=${encodeURIComponent(p.username)}`, (frame) => {
      if (frame.type !== "follow") return;
      if (first) {
        first = false;
        current = frame.game_id;
        fill(
          status,
          current ? [`${p.display_name} is playing now: `, h("a#follow-current", { href: `/games/${current}` }, `table ${current}`), ". "] : null,
          `Waiting for ${p.display_name}'s next game: it opens here when it starts.`,
        );
        return;
      }
      if (frame.game_id !== null && frame.game_id !== current) {
        status.textContent = `Table ${frame.game_id} started: opening it…`;
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
      h("section.recent", {}, h("h2", {}, "Recent games"), p.recent.length ? h("ul#recent.games", {}, p.recent.map(gameLine)) : h("p.muted", {}, "None yet.")),
      vsSection(p),
    );
  } catch (e) {
    fill(root, h("h1", {}, username), h("p.error", { role: "alert" }, errorText(e)));
  }
}

load();
