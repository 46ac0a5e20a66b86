// The "Play now" form of the home page (the lobby): join the quick-match pool for the choice
// (POST /api/match) and go to the waiting page (/play/{entry}). Signed out, it first signs in
// as a guest with the name given (guests play unrated; rated is shown to accounts only).

import { api, errorText } from "../lib/api.mjs";
import { t } from "../lib/i18n.mjs";

const form = document.getElementById("play-now-form");

async function signedIn() {
  return (await api("/api/session").catch(() => null))?.user ?? null;
}

/** Show the name field to a visitor, and the rated option to accounts only. */
async function sync() {
  const me = await signedIn();
  form.querySelector("[data-guest-name]").hidden = Boolean(me);
  const rated = form.querySelector("[data-rated]");
  rated.hidden = !me || me.guest;
  if (rated.hidden) form.rated.checked = false;
  return me;
}

if (form) {
  const err = form.querySelector(".error");
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const submit = form.querySelector("button[type=submit]");
    err.hidden = true;
    submit.disabled = true;
    try {
      if (!(await signedIn())) {
        const name = String(f.get("name") ?? "").trim();
        if (!name) {
          form.querySelector("[data-guest-name]").hidden = false;
          throw new Error(t("playnow.name_needed"));
        }
        await api("/api/session/guest", { method: "POST", body: { name } });
      }
      const players = f.get("players") === "any" ? "any" : Number(f.get("players"));
      const body = { players, expansion: f.get("expansion") === "on", pace: f.get("pace"), rated: f.get("rated") === "on" };
      const entry = await api("/api/match", { method: "POST", body });
      location.href = `/play/${entry.id}`;
    } catch (ex) {
      submit.disabled = false;
      err.hidden = false;
      err.textContent = ex.code ? errorText(ex) : ex.message;
    }
  });
  // Signing in or out in the identity box changes what the form asks.
  form.addEventListener("focusin", () => sync().catch(() => {}));
  sync().catch(() => {});
}
