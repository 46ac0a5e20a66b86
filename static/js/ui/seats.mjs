// The table before it starts: seats (with bot badges), the invite link, join / leave / start.

import { api, errorText } from "../lib/api.mjs";
import { inviteBase, inviteUrl, logPieces, seatBadges, seatInfo, seatName } from "../lib/seats.mjs";
import { withCodes } from "./cards.mjs";
import { fill, h, seatMark } from "./dom.mjs";
import { PLAYER_HEX } from "./paint.mjs";
import { predictionBox } from "./ratinglinks.mjs";
import { PLAYER_COLOURS } from "../lib/cards.mjs";
import { t, tn } from "../lib/i18n.mjs";
import { botLevelName } from "../lib/seats.mjs";

export { seatName };

const BOT_LEVELS = ["greedy", "expert", "random"];

/** Badge elements for a seat: "bot · greedy" (with a robot icon drawn by CSS), "left". */
export function badges(info, over = false) {
  return seatBadges(info, over).map((b) =>
    h(`span.badge-seat.${b.kind}`, { title: { bot: t("waiting.badge_bot_title", { level: botLevelName(info.bot) }), left: t("waiting.badge_left_title"), reserved: t("waiting.badge_reserved_title") }[b.kind] }, b.text),
  );
}

/**
 * A log line as nodes: players by name, in their colour (lib/seats.mjs logPieces), and card
 * codes (M30, MS07, RF11) marked with a preview of the card on hover (with `content`).
 */
export function logText(text, names, content = null) {
  return logPieces(text, names).flatMap((p) =>
    typeof p !== "string" ? h("span.pname", { style: { "--pc": PLAYER_HEX[p.seat] } }, seatMark(p.seat), p.name) : content ? withCodes(content, p) : p,
  );
}

const cancelAsked = new Set(); // tables whose host pressed "Cancel the table" once

/** Render the waiting room; `reload` refetches the game after any change. */
export function renderWaiting(el, game, me, reload) {
  const run = (fn) => async () => {
    try {
      await fn();
    } catch (e) {
      el.querySelector(".error")?.remove();
      el.append(h("p.error", { role: "alert" }, errorText(e)));
      return;
    }
    reload();
  };
  const isHost = me && me.id === game.host_id;
  const seats = game.seats.map((s) => {
    const info = seatInfo(s);
    const remove =
      isHost && info.bot && !info.standIn
        ? h("button.link", { type: "button", onclick: run(() => api(`/api/games/${game.id}/bots/${s.seat}`, { method: "DELETE" })), "aria-label": t("waiting.remove_bot_label", { n: s.seat + 1 }) }, t("waiting.remove_bot"))
        : null;
    return h(
      `li.seat${info.empty ? ".empty" : ""}`,
      { style: { "--pc": PLAYER_HEX[s.seat] }, dataset: { seat: s.seat } },
      seatMark(s.seat),
      h("span.colour", {}, t(`colour.${PLAYER_COLOURS[s.seat]}`).toLocaleLowerCase()),
      h("b", {}, info.name ?? t("waiting.empty_seat")),
      s.player && s.player.id === game.host_id ? h("span.muted", {}, " ", t("join.host")) : null,
      game.your_seat === s.seat ? h("span.you", {}, t("panels.you")) : null,
      badges(info),
      remove,
    );
  });
  const free = game.seats.filter((s) => seatInfo(s).empty).length;
  const seated = game.your_seat !== null && game.your_seat !== undefined;
  const buttons = [];
  if (!seated && free) {
    const code = new URLSearchParams(location.search).get("code");
    buttons.push(h("button.primary", { type: "button", onclick: run(() => api(`/api/games/${game.id}/join`, { method: "POST", body: code ? { invite_code: code } : {} })) }, t("waiting.take_seat")));
  }
  // A player leaves the table; the host cancels it (nobody is left waiting at a dead table).
  if (seated && !isHost) buttons.push(h("button", { type: "button", dataset: { key: "leave" }, onclick: run(() => api(`/api/games/${game.id}/leave`, { method: "POST" })) }, t("waiting.leave")));
  if (isHost) {
    // Two steps, so a slip of the finger does not end the table for everyone seated.
    // The second step survives the waiting room's redraws (a player joining or leaving).
    const sure = h("button.danger", { type: "button", hidden: !cancelAsked.has(game.id), dataset: { key: "cancel-sure" }, onclick: run(() => api(`/api/games/${game.id}/cancel`, { method: "POST" })) }, t("waiting.cancel_sure"));
    const ask = h("button", { type: "button", dataset: { key: "cancel-table" }, onclick: () => (cancelAsked.add(game.id), (sure.hidden = false), sure.focus()) }, t("waiting.cancel_table"));
    buttons.push(ask, sure);
  }
  if (isHost && free) {
    const help = t("waiting.bot_level_help");
    // The choice names the level for players and marks the slow one; one line says what each does.
    const level = h("select", { "aria-label": t("waiting.bot_level"), title: help }, BOT_LEVELS.map((l) => h("option", { value: l }, t(`bot.choice.${l}`))));
    const about = ["random", "greedy", "expert"].flatMap((l, i) => [i ? h("br") : null, t(`bot.about.${l}`)]);
    buttons.push(level, h("button", { type: "button", onclick: run(() => api(`/api/games/${game.id}/bots`, { method: "POST", body: { level: level.value } })) }, t("waiting.add_bot")), h("small.muted.bot-levels", {}, ...about));
  }
  if (isHost) {
    buttons.push(
      h("button.primary", { type: "button", disabled: !!free, onclick: run(() => api(`/api/games/${game.id}/start`, { method: "POST" })), title: free ? t("waiting.start_needs_full") : "" }, t("waiting.start")),
    );
  }
  const base = inviteBase(document.body.dataset.publicUrl, location.origin);
  const link = game.invite_code ? inviteUrl(base, game.invite_code) : null;
  const invite = link
    ? h(
        "div.invite",
        {},
        h("label", { for: "invite-link" }, t("waiting.invite_link")),
        h("input#invite-link", { readonly: true, value: link, onfocus: (e) => e.target.select() }),
        h("button", { type: "button", onclick: (e) => navigator.clipboard?.writeText(link).then(() => (e.target.textContent = t("waiting.copied"))) }, t("waiting.copy")),
      )
    : null;
  const status = free
    ? tn(isHost ? "waiting.status_free_host" : "waiting.status_free", free)
    : isHost
      ? t("waiting.status_full_host")
      : t("waiting.status_full");
  const about = [
    tn(game.expansion ? "join.about_expansion" : "join.about_base", game.players),
    game.visibility === "private" ? t("waiting.private") : t("waiting.public"),
    ...(game.rated ? [t("yourgames.rated")] : []),
  ].join(" · ");
  fill(
    el,
    h("h2", {}, t("common.table", { id: game.id })),
    h("p.muted", {}, about),
    h("ul.seats", {}, seats),
    game.rated ? predictionBox(game, (seat) => seatInfo(game.seats[seat]).name ?? t("seats.seat", { n: seat + 1 })) : null,
    invite,
    h("div.buttons", {}, buttons),
    h("p.muted.wait-status", { role: "status" }, status),
  );
}
