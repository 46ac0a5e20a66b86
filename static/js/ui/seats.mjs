// The table before it starts: seats, the invite link, join / leave / start.

import { api, errorText } from "../lib/api.mjs";
import { fill, h } from "./dom.mjs";
import { PLAYER_HEX } from "./paint.mjs";
import { PLAYER_COLOURS } from "../lib/cards.mjs";

/** The name shown for a seat of GET /api/games/{id}. */
export function seatName(seat) {
  if (seat.player) return seat.player.display_name;
  if (seat.bot_level) return `Bot (${seat.bot_level})`;
  return null;
}

/** The invite link for a game: /join/{code}?game={id} (the code alone does not name the game). */
export function inviteUrl(game) {
  return `${location.origin}/join/${encodeURIComponent(game.invite_code)}?game=${game.id}`;
}

/** Render the waiting room; `reload` refetches the game after any change. */
export function renderWaiting(el, game, me, reload) {
  const run = (fn) => async () => {
    try {
      await fn();
    } catch (e) {
      el.querySelector(".error")?.remove();
      el.append(h("p.error", { role: "alert" }, errorText(e)));
    }
    reload();
  };
  const seats = game.seats.map((s) =>
    h(
      "li.seat",
      { style: { "--pc": PLAYER_HEX[s.seat] } },
      h("span.swatch"),
      h("span", {}, `${PLAYER_COLOURS[s.seat]}: `),
      h("b", {}, seatName(s) ?? "empty seat"),
    ),
  );
  const full = game.seats.every((s) => seatName(s));
  const isHost = me && me.id === game.host_id;
  const seated = game.your_seat !== null && game.your_seat !== undefined;
  const buttons = [];
  if (!seated && !full) {
    buttons.push(h("button.primary", { type: "button", onclick: run(() => api(`/api/games/${game.id}/join`, { method: "POST", body: { invite_code: new URLSearchParams(location.search).get("code") } })) }, "Take a seat"));
  }
  if (seated && !isHost) buttons.push(h("button", { type: "button", onclick: run(() => api(`/api/games/${game.id}/leave`, { method: "POST" })) }, "Leave"));
  if (isHost && !full) {
    const level = h("select", { "aria-label": "Bot level" }, ["greedy", "expert", "random"].map((l) => h("option", { value: l }, l)));
    buttons.push(level, h("button", { type: "button", onclick: run(() => api(`/api/games/${game.id}/bots`, { method: "POST", body: { level: level.value } })) }, "Add a bot"));
  }
  if (isHost) {
    buttons.push(
      h("button.primary", { type: "button", disabled: !full, onclick: run(() => api(`/api/games/${game.id}/start`, { method: "POST" })), title: full ? "" : "Every seat must be taken" }, "Start the game"),
    );
  }
  const invite = game.invite_code
    ? h(
        "div.invite",
        {},
        h("label", { for: "invite-link" }, "Invite link"),
        h("input#invite-link", { readonly: true, value: inviteUrl(game), onfocus: (e) => e.target.select() }),
        h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(inviteUrl(game)) }, "Copy"),
      )
    : null;
  fill(
    el,
    h("h2", {}, `Table ${game.id}`),
    h("p.muted", {}, `${game.players} players · ${game.expansion ? "with Treasures of the Deep" : "base game"} · ${game.visibility}`),
    h("ul.seats", {}, seats),
    invite,
    h("div.buttons", {}, buttons),
    !full ? h("p.muted", {}, "Waiting for players…") : null,
  );
}
