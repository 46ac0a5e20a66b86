// An invite link /join/{code}: the code names the table (GET /api/invites/{code}); sign in as a
// guest if needed, take a seat, go to the table. Old links with ?game={id} keep working.

import { api, errorText } from "../lib/api.mjs";
import { t, tn } from "../lib/i18n.mjs";
import { seatInfo } from "../lib/seats.mjs";
import { $, fill, h } from "../ui/dom.mjs";
import { PLAYER_HEX } from "../ui/paint.mjs";
import { badges } from "../ui/seats.mjs";

const code = document.body.dataset.code;
const gameParam = new URLSearchParams(location.search).get("game");
const el = $("join");
const tableUrl = (id) => `/games/${id}?code=${encodeURIComponent(code)}`;

function fail(text) {
  fill(el, h("h1", {}, t("join.title")), h("p.error", { role: "alert" }, text), h("a", { href: "/" }, t("join.go_to_lobby")));
}

/** The game this code opens, or null when no table has it. */
async function findGame() {
  try {
    return await api(`/api/invites/${encodeURIComponent(code)}`);
  } catch (e) {
    if (gameParam && e.code !== "no_such_invite") {
      // A server without the lookup (a bare 404 not_found): the link's ?game= names the table.
      return api(`/api/games/${encodeURIComponent(gameParam)}?invite_code=${encodeURIComponent(code)}`);
    }
    if (e.code === "no_such_invite" || e.status === 404) return null;
    throw e;
  }
}

async function join(game) {
  try {
    await api(`/api/games/${game.id}/join`, { method: "POST", body: { invite_code: code } });
  } catch (e) {
    // Full or started meanwhile: the table page shows what applies (watching, the scores).
    if (e.status !== 409) throw e;
  }
  location.href = tableUrl(game.id);
}

function seatList(game) {
  return h(
    "ul.seats.compact",
    {},
    game.seats.map((s) => {
      const info = seatInfo(s);
      return h(
        `li.seat${info.empty ? ".empty" : ""}`,
        { style: { "--pc": PLAYER_HEX[s.seat] } },
        h("span.swatch"),
        h("b", {}, info.name ?? t("join.free_seat")),
        s.player && s.player.id === game.host_id ? h("span.muted", {}, " ", t("join.host")) : null,
        badges(info),
      );
    }),
  );
}

async function main() {
  const [game, session] = await Promise.all([findGame(), api("/api/session").catch(() => null)]);
  const me = session?.user ?? null;
  if (!game) return fail(t("join.no_such_table"));
  const open = game.status === "open";
  const free = game.seats.some((s) => seatInfo(s).empty);
  if (game.your_seat !== null && game.your_seat !== undefined) return (location.href = tableUrl(game.id));
  if (game.status === "cancelled") return fail(t("join.cancelled", { id: game.id }));
  if (!open || !free) {
    // Too late to sit down; the link still lets you watch (private games included).
    const why = game.status === "finished" ? t("join.over") : open ? t("join.full") : t("join.started");
    return fill(
      el,
      h("h1", {}, t("common.table", { id: game.id })),
      h("p", {}, why),
      seatList(game),
      h("div.buttons", {}, h("a.button", { href: game.status === "finished" ? `/games/${game.id}/replay` : tableUrl(game.id) }, game.status === "finished" ? t("join.see_replay") : t("join.watch"))),
    );
  }
  const host = game.seats.find((s) => s.player?.id === game.host_id)?.player?.display_name;
  const heading = h("h1", {}, host ? t("join.invited_by", { name: host, id: game.id }) : t("join.invited", { id: game.id }));
  const about = h("p.muted", {}, tn(game.expansion ? "join.about_expansion" : "join.about_base", game.players));
  if (me) {
    return fill(
      el,
      heading,
      about,
      seatList(game),
      h("div.buttons", {}, h("button.primary", { type: "button", onclick: () => join(game).catch((e) => fail(errorText(e))) }, t("join.join_as", { name: me.display_name }))),
    );
  }
  const err = h("p.error", { role: "alert", hidden: true });
  fill(
    el,
    heading,
    about,
    seatList(game),
    h("p.muted", {}, t("join.guest_hint")),
    h(
      "form",
      {
        onsubmit: async (e) => {
          e.preventDefault();
          try {
            await api("/api/session/guest", { method: "POST", body: { name: new FormData(e.target).get("name") } });
            await join(game);
          } catch (ex) {
            err.hidden = false;
            err.textContent = errorText(ex);
          }
        },
      },
      h("input", { name: "name", placeholder: t("join.your_name"), required: true, maxlength: 24, "aria-label": t("join.your_name"), autocomplete: "nickname" }),
      " ",
      h("button.primary", { type: "submit" }, t("join.join_table")),
    ),
    err,
  );
}

main().catch((e) => fail(errorText(e)));
