// Waiting in a quick-match pool (/play/{entry}). Every few seconds the page renews its entry
// (POST /api/match/{id}/wait): that keeps the player waiting, and the answer says when the
// table is made (then the page goes there). Leaving the page stops the wait at once (a DELETE
// on the way out); a page that could not say so stops waiting when its entry expires.

import { api, errorText } from "../lib/api.mjs";
import { formatNumber, t, tn } from "../lib/i18n.mjs";
import { $, fill, h } from "../ui/dom.mjs";

const id = Number(document.body.dataset.entry);
const el = $("match");
const RENEW_MS = 2000;
const err = h("p.error", { role: "alert", hidden: true });
let last = null; // the entry as last seen
let stopped = false;

function choiceText(e) {
  return [
    e.players === "any" ? t("match.players_any") : tn("match.players", e.players),
    e.expansion ? t("match.expansion") : t("match.base"),
    t(e.pace === "daily" ? "match.daily" : "match.live"),
    e.rated ? t("match.rated") : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

function seconds(iso) {
  return Math.max(0, Math.ceil((Date.parse(iso) - Date.now()) / 1000));
}

function render(e) {
  last = e;
  if (e.status === "matched") {
    stopped = true;
    fill(el, h("h1", {}, t("match.title")), h("p", {}, t("match.seated")));
    location.href = `/games/${e.game_id}`;
    return;
  }
  const botsIn = seconds(e.bots_at);
  const readyIn = seconds(e.ready_at);
  fill(
    el,
    h("h1", {}, t("match.title")),
    h("p.choice", {}, choiceText(e)),
    h("p.count", { dataset: { waiting: e.waiting } }, formatNumber(e.waiting)),
    h("p.muted", {}, tn("match.waiting", e.waiting)),
    h("p.muted.small", {}, t("match.looking")),
    readyIn > 0 ? h("p.notice", {}, t("match.delayed", { seconds: readyIn })) : null,
    h(
      "div.buttons",
      {},
      h("button.primary", { type: "button", id: "match-bots", disabled: botsIn > 0, onclick: withBots }, botsIn > 0 ? t("match.bots_in", { seconds: botsIn }) : t("match.bots_now")),
      h("button", { type: "button", id: "match-leave", onclick: leave }, t("match.leave")),
    ),
    err,
  );
}

function gone(text) {
  stopped = true;
  fill(el, h("h1", {}, t("match.title")), h("p", {}, text), h("a.button", { href: "/" }, t("match.again")));
}

function failed(ex) {
  if (ex.code === "entry_expired" || ex.code === "not_found") return gone(t("match.gone"));
  err.hidden = false;
  err.textContent = errorText(ex);
}

async function renew() {
  if (stopped) return;
  try {
    render(await api(`/api/match/${id}/wait`, { method: "POST" }));
  } catch (ex) {
    failed(ex);
  }
}

async function withBots() {
  try {
    render(await api(`/api/match/${id}/bots`, { method: "POST" }));
  } catch (ex) {
    failed(ex);
  }
}

async function leave() {
  stopped = true;
  try {
    await api(`/api/match/${id}`, { method: "DELETE" });
    location.href = "/";
  } catch (ex) {
    if (ex.code === "already_matched") return renewOnce();
    failed(ex);
  }
}

async function renewOnce() {
  stopped = false;
  await renew();
}

// Closing the page, or going elsewhere, stops the wait (keepalive: sent as the page goes).
addEventListener("pagehide", () => {
  if (stopped || !last) return;
  fetch(`/api/match/${id}`, { method: "DELETE", credentials: "same-origin", keepalive: true }).catch(() => {});
});

/** Start renewing, unless the entry is gone already (a page opened again after its wait
 * ended: said without a failed request). */
async function start() {
  const mine = await api("/api/match").catch(() => null);
  if (mine && !mine.entries.some((e) => e.id === id)) return gone(t("match.gone"));
  await renew();
  setInterval(renew, RENEW_MS);
}

start();
// The countdowns move between renewals too.
setInterval(() => last && !stopped && render(last), 1000);
