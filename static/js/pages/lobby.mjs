// The lobby: sign in (guest, login, register), create a table, and the game lists.

import { api, errorText } from "../lib/api.mjs";
import { t } from "../lib/i18n.mjs";
import { $, fill, h } from "../ui/dom.mjs";
import { resultText, seatInfo } from "../lib/seats.mjs";
import { badges } from "../ui/seats.mjs";
import { clockLabel, clockSpec, isFull } from "../lib/clock.mjs";
import { renderYourGames } from "../ui/yourgames.mjs";
import { showFeatured } from "../ui/featured.mjs";

let me = null; // the signed-in user or null
// The server's limits (app/services/users.py): names and usernames 24 characters, passwords 8
// to 128.
const NAME_MAX = 24;
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;
const baseTitle = document.title; // "(n) " is put in front for games waiting for me

function identityForms() {
  const tabs = [t("lobby.tab_guest"), t("lobby.tab_login"), t("lobby.tab_register")];
  let current = 0;
  const box = h("div");
  const err = h("p.error", { role: "alert", hidden: true });
  const show = () => {
    const [path, fields, label] = [
      ["/api/session/guest", [["name", t("join.your_name"), "text", NAME_MAX]], t("yourgames.play")],
      ["/api/session/login", [["username", t("lobby.username"), "text", NAME_MAX], ["password", t("account.password"), "password", PASSWORD_MAX]], t("lobby.tab_login")],
      ["/api/users", [["username", t("lobby.username"), "text", NAME_MAX], ["password", t("account.password"), "password", PASSWORD_MAX]], t("lobby.create_account")],
    ][current];
    const signUp = current === 2;
    const form = h(
      "form",
      {
        onsubmit: async (e) => {
          e.preventDefault();
          const body = Object.fromEntries(new FormData(e.target).entries());
          try {
            await api(path, { method: "POST", body });
            await refresh();
          } catch (ex) {
            err.hidden = false;
            err.textContent = errorText(ex);
          }
        },
      },
      fields.map(([name, ph, type, max]) => {
        const attrs = { name, placeholder: ph, type, required: true, maxlength: max, "aria-label": ph, autocomplete: type === "password" ? (signUp ? "new-password" : "current-password") : "username" };
        // Sign-up: the rules are said before sending, and the browser holds to them too.
        if (signUp) Object.assign(attrs, name === "password" ? { minlength: PASSWORD_MIN } : { pattern: "[A-Za-z0-9_.\\-]{3,24}", minlength: 3 }, { "aria-describedby": "signup-rules" });
        return h("input", attrs);
      }),
      signUp ? h("p#signup-rules.muted.small", {}, t("lobby.signup_rules", { min: PASSWORD_MIN, max: PASSWORD_MAX })) : null,
      h("button.primary", { type: "submit" }, label),
    );
    fill(
      box,
      h("div.tabs", { role: "tablist" }, tabs.map((tab, i) => h("button", { type: "button", role: "tab", "aria-selected": String(i === current), onclick: () => ((current = i), show()) }, tab))),
      form,
      err,
    );
  };
  show();
  return box;
}

let identityShown = null; // the JSON of the user the identity box was built for

/**
 * The sign-in box, rebuilt only when who is signed in changed: the 10 s refresh of the lists
 * must not reset a tab someone chose or empty the fields they are typing in.
 */
function renderIdentity() {
  const el = $("identity");
  $("me").textContent = me ? me.display_name : "";
  const key = JSON.stringify(me);
  if (key === identityShown) return;
  identityShown = key;
  if (!me) {
    fill(el, h("h2", {}, t("lobby.welcome")), identityForms());
    return;
  }
  const logout = async () => {
    await api("/api/session/logout", { method: "POST" }).catch(() => {});
    await refresh();
  };
  fill(
    el,
    h("h2", {}, t("lobby.ahoy", { name: me.display_name })),
    h("p.muted", {}, me.guest ? t("lobby.guest_note") : t("lobby.signed_in_as", { username: me.username })),
    me.guest ? identityUpgrade() : null,
    h("div.buttons", {}, h("button", { type: "button", onclick: logout }, t("lobby.log_out"))),
  );
}

function identityUpgrade() {
  const err = h("p.error", { role: "alert", hidden: true });
  return h(
    "details",
    {},
    h("summary", {}, t("lobby.register_guest")),
    h(
      "form",
      {
        onsubmit: async (e) => {
          e.preventDefault();
          try {
            await api("/api/users", { method: "POST", body: Object.fromEntries(new FormData(e.target).entries()) });
            await refresh();
          } catch (ex) {
            err.hidden = false;
            err.textContent = errorText(ex);
          }
        },
      },
      h("input", { name: "username", placeholder: t("lobby.username"), required: true, maxlength: NAME_MAX, "aria-label": t("lobby.username") }),
      h("input", { name: "password", type: "password", placeholder: t("account.password"), required: true, maxlength: PASSWORD_MAX, "aria-label": t("account.password") }),
      h("button", { type: "submit" }, t("lobby.tab_register")),
    ),
    err,
  );
}

function gameItem(g, kind) {
  const seats = g.seats.map(seatInfo);
  const taken = seats.filter((s) => !s.empty).length;
  // Who sits there, bots marked as such, so a table of bots is not mistaken for people.
  const who = seats.flatMap((s, i) => [i ? ", " : "", s.empty ? "·" : h("span.who-seat", {}, s.name, badges(s))]);
  // A full waiting table has nothing to join: it says so and offers to look, not to sit down.
  const full = kind === "open" && isFull(g);
  const mine = g.your_seat !== null && g.your_seat !== undefined;
  const link =
    kind === "finished"
      ? h("a", { href: `/games/${g.id}/replay` }, t("yourgames.replay"))
      : h(full && !mine ? "a" : "a.button", { href: `/games/${g.id}` }, kind === "open" ? (mine ? t("yourgames.open") : full ? t("lobby.look") : t("lobby.join")) : mine ? t("yourgames.play") : t("yourgames.watch"));
  const status = full ? t("clock.home.full") : ["open", "live", "finished", "cancelled"].includes(g.status) ? t(`lobby.status.${g.status}`) : g.status;
  const meta = [
    t("lobby.taken", { taken, players: g.players }),
    g.expansion ? t("lobby.expansion") : null,
    g.visibility === "private" ? t("lobby.private") : null,
    g.rated ? t("yourgames.rated") : null,
    status,
  ].filter(Boolean);
  return h(
    "li",
    { dataset: { gameId: g.id } },
    h(
      "div",
      {},
      h("b", {}, t("common.table", { id: g.id })),
      g.your_turn ? h("span.badge", {}, t("yourgames.your_turn")) : null,
      h("div.meta", {}, meta.join(" · ")),
      clockLabel(g.clock) ? h("div.meta.clock-meta", {}, clockLabel(g.clock)) : null,
      h("div.meta.who-list", {}, who),
      kind === "finished" && g.final_scores ? h("div.result", {}, resultText(g.final_scores, seats.map((x) => x.name))) : null,
    ),
    link,
  );
}

async function loadList(id, path, kind) {
  try {
    const data = await api(path);
    const items = data.games.map((g) => gameItem(g, kind === "mine" ? g.status : kind));
    fill($(id), items.length ? items : h("li.muted", {}, t("lobby.none")));
  } catch (e) {
    fill($(id), h("li.muted", {}, kind === "mine" ? t("yourgames.sign_in") : errorText(e)));
  }
}

async function refresh() {
  // GET /api/session answers 200 even signed out: no failed request in the console.
  me = (await api("/api/session").catch(() => null))?.user ?? null;
  renderIdentity();
  $("create").hidden = !me;
  $("rated-option").hidden = !me || me.guest;
  await Promise.all([
    renderYourGames($("my-games"), me, baseTitle).catch((e) => fill($("my-games"), h("li.muted", {}, errorText(e)))),
    loadList("open-games", "/api/games?status=open", "open"),
    loadList("live-games", "/api/games?status=live", "live"),
    loadList("finished-games", "/api/games?status=finished", "finished"),
  ]);
}

$("create-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  const players = Number(f.get("players"));
  const bots = Math.min(Number(f.get("bots")), players - 1);
  const body = { players, expansion: f.get("expansion") === "on", visibility: f.get("visibility") };
  if (f.get("rated") === "on") body.rated = true; // accounts only (the option is hidden for guests)
  const delay = f.get("spectator_delay");
  if (body.rated && delay) {
    const [kind, amount] = delay.split(":");
    body.spectator_delay = { [kind]: Number(amount) }; // checked by the server
  }
  body.clock = clockSpec(f.get("clock"));
  const err = $("create-error");
  const submit = e.target.querySelector("button[type=submit]");
  submit.disabled = true;
  let game = null;
  try {
    game = await api("/api/games", { method: "POST", body });
    // Bots take the empty seats one by one (host only, before the start).
    for (let i = 0; i < bots; i++) {
      await api(`/api/games/${game.id}/bots`, { method: "POST", body: { level: f.get("bot_level") } });
    }
    location.href = `/games/${game.id}`;
  } catch (ex) {
    submit.disabled = false;
    err.hidden = false;
    // The table exists even if a bot could not sit down: the waiting room can add bots again.
    err.textContent = game ? t("lobby.bot_failed", { id: game.id, error: errorText(ex) }) : errorText(ex);
  }
});

/** Keep the bot count below the number of seats, and the level only when there are bots. */
function syncCreateForm() {
  const form = $("create-form");
  const players = Number(form.players.value);
  for (const opt of form.bots.options) opt.disabled = Number(opt.value) > players - 1;
  if (Number(form.bots.value) > players - 1) form.bots.value = String(players - 1);
  form.bot_level.disabled = form.bots.value === "0";
  // A spectator delay is for rated live tables only (the server refuses it elsewhere).
  const delayOn = form.rated.checked && !form.clock.value.startsWith("daily");
  $("delay-option").hidden = !delayOn;
  $("delay-help").hidden = !delayOn;
  form.spectator_delay.disabled = !delayOn;
}
$("create-form").addEventListener("change", syncCreateForm);
syncCreateForm();

refresh();
// Every LOBBY_REFRESH_SECONDS (the server's setting, 10 s by default).
setInterval(refresh, Number(document.body.dataset.refreshMs) || 10000);
showFeatured($("featured"));
