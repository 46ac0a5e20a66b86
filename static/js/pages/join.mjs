// An invite link /join/{code}?game={id}: sign in as a guest if needed, take a seat, go to the table.

import { api, errorText } from "../lib/api.mjs";
import { $, fill, h } from "../ui/dom.mjs";

const code = document.body.dataset.code;
const gameId = new URLSearchParams(location.search).get("game");
const el = $("join");

async function join() {
  try {
    await api(`/api/games/${gameId}/join`, { method: "POST", body: { invite_code: code } });
  } catch (e) {
    // Already seated, or the table is full/started: the game page shows what applies.
    if (!["already_seated", "game_full", "not_open"].includes(e.code) && e.status !== 409) throw e;
  }
  location.href = `/games/${gameId}?code=${encodeURIComponent(code)}`;
}

async function main() {
  if (!gameId) {
    fill(el, h("h1", {}, "Join a table"), h("p.error", {}, "This invite link is incomplete (no game)."), h("a", { href: "/" }, "Go to the lobby"));
    return;
  }
  const me = await api("/api/me").catch(() => null);
  if (me) return join().catch((e) => fill(el, h("h1", {}, "Join a table"), h("p.error", {}, errorText(e)), h("a", { href: "/" }, "Go to the lobby")));
  const err = h("p.error", { role: "alert", hidden: true });
  fill(
    el,
    h("h1", {}, `You are invited to table ${gameId}`),
    h("p.muted", {}, "Choose a name to play as a guest, or log in from the lobby first."),
    h(
      "form",
      {
        onsubmit: async (e) => {
          e.preventDefault();
          try {
            await api("/api/session/guest", { method: "POST", body: { name: new FormData(e.target).get("name") } });
            await join();
          } catch (ex) {
            err.hidden = false;
            err.textContent = errorText(ex);
          }
        },
      },
      h("input", { name: "name", placeholder: "Your name", required: true, maxlength: 64, "aria-label": "Your name" }),
      " ",
      h("button.primary", { type: "submit" }, "Join the table"),
    ),
    err,
  );
}

main();
