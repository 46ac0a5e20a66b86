// Account settings (issue 14): the email address for "your turn" notices (verified by a link),
// and notices on or off.

import { api, errorText } from "../lib/api.mjs";
import { $, fill, h } from "../ui/dom.mjs";

const root = $("account");

function note(text, kind = "muted") {
  return h(`p.${kind}`, kind === "error" ? { role: "alert" } : {}, text);
}

async function save(path, body, status) {
  try {
    render(await api(path, { method: "POST", body }), status);
  } catch (e) {
    render(null, { error: errorText(e) });
  }
}

let last = null; // the settings last shown

function render(settings, status = {}) {
  if (settings) last = settings;
  const s = last;
  if (!s) return;
  const parts = [h("h1", {}, "Account")];
  if (s.guest) {
    parts.push(note("Emails need an account: register from the lobby to keep your games and get notices."));
    fill(root, ...parts, h("a", { href: "/" }, "Back to the lobby"));
    return;
  }
  if (!s.email_enabled) parts.push(note("This server sends no email, so there are no email notices here."));
  const verified = s.email && s.email_verified;
  parts.push(
    h("h2", {}, "Email for “your turn” notices"),
    s.email
      ? note(verified ? `${s.email} is confirmed.` : `${s.email}: open the link we sent to confirm it.`, verified ? "muted" : "warning")
      : note("No address yet."),
    h(
      "form#email-form.form-grid",
      {
        onsubmit: (e) => {
          e.preventDefault();
          const email = new FormData(e.target).get("email");
          save("/api/me/email", { email }, { info: "Check your inbox for the confirmation link." });
        },
      },
      h("label", {}, "Email address", h("input", { name: "email", type: "email", required: true, maxlength: 254, autocomplete: "email", value: s.email ?? "" })),
      h("button.primary", { type: "submit", disabled: !s.email_enabled }, s.email ? "Change and confirm" : "Add and confirm"),
    ),
    s.email ? h("button.link", { type: "button", onclick: () => save("/api/me/email", { email: null }) }, "Remove the address") : null,
    h("h2", {}, "Notices"),
    h(
      "label.check",
      {},
      h("input#notices", { type: "checkbox", checked: s.notices, onchange: (e) => save("/api/me/notices", { enabled: e.target.checked }) }),
      " Email me when it is my turn and I do not have the game open",
    ),
  );
  if (status.info) parts.push(note(status.info));
  if (status.error) parts.push(note(status.error, "error"));
  fill(root, ...parts);
}

async function main() {
  try {
    const me = await api("/api/me");
    $("me").textContent = me.display_name;
    render(await api("/api/me/account"));
  } catch (e) {
    fill(root, h("h1", {}, "Account"), note(e.code === "not_signed_in" ? "Sign in from the lobby first." : errorText(e), "error"), h("a", { href: "/" }, "Back to the lobby"));
  }
}

main();
