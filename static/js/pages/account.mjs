// Account settings: "your turn" email notices (an address confirmed by a link, on or off) as far
// as this server sends email at all, and the password. Every sentence about email says what the
// server will really do: a server without a mail server offers no address field and no box.

import { api, errorText } from "../lib/api.mjs";
import { $, fill, h } from "../ui/dom.mjs";

const root = $("account");
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;

function note(text, kind = "muted") {
  return h(`p.${kind}`, kind === "error" ? { role: "alert" } : {}, text);
}

// --- email notices ------------------------------------------------------------------------

const mail = h("section#mail", { "aria-live": "polite" });
let last = null; // the settings last shown

async function save(path, body, status) {
  try {
    renderMail(await api(path, { method: "POST", body }), status);
  } catch (e) {
    renderMail(null, { error: errorText(e) });
  }
}

/** What the notices box does, in the state the account is in now. */
function noticeState(s) {
  const confirmed = s.email && s.email_verified;
  if (!s.notices) return "Off: no emails are sent to you.";
  if (confirmed) return `On: an email goes to ${s.email} when it is your turn and you do not have the game open.`;
  if (s.email) return `On, but no email goes out until you confirm ${s.email} with the link we sent.`;
  return "On, but no email goes out until you add an address and confirm it with the link we send.";
}

function renderMail(settings, status = {}) {
  if (settings) last = settings;
  const s = last;
  if (!s) return;
  // Redrawn after the box is switched: an address being typed meanwhile stays as typed.
  const typed = status.keepTyped ? mail.querySelector("input[name=email]")?.value : undefined;
  const parts = [h("h2", {}, "Email notices")];
  if (!s.email_enabled) {
    parts.push(note("This server is not set up to send email, so it sends no “your turn” notices and has no use for your address. Its operator can set it up (SEADRAGONS_SMTP_URL)."));
    fill(mail, ...parts);
    return;
  }
  const verified = s.email && s.email_verified;
  parts.push(
    s.email
      ? note(verified ? `${s.email} is confirmed.` : `${s.email} is not confirmed yet: open the link we sent to it.`, verified ? "muted" : "warning")
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
      h("label", {}, "Email address", h("input", { name: "email", type: "email", required: true, maxlength: 254, autocomplete: "email", value: typed ?? s.email ?? "" })),
      h("button.primary", { type: "submit" }, s.email ? "Change and confirm" : "Add and confirm"),
    ),
    s.email ? h("p", {}, h("button.link", { type: "button", onclick: () => save("/api/me/email", { email: null }) }, "Remove the address")) : null,
    h(
      "p",
      {},
      h(
        "label.check",
        {},
        h("input#notices", { type: "checkbox", checked: s.notices, onchange: (e) => save("/api/me/notices", { enabled: e.target.checked }, { keepTyped: true }) }),
        " Email me when it is my turn and I do not have the game open",
      ),
    ),
    note(noticeState(s)),
  );
  if (status.info) parts.push(note(status.info));
  if (status.error) parts.push(note(status.error, "error"));
  fill(mail, ...parts);
}

// --- password -----------------------------------------------------------------------------

function passwordInput(name, label, autocomplete) {
  return h("label", {}, label, h(`input#${name}`, { name, type: "password", required: true, minlength: name === "current_password" ? 1 : PASSWORD_MIN, maxlength: PASSWORD_MAX, autocomplete }));
}

/** The change-password form; built once, so a refresh of the email part keeps what is typed. */
function passwordSection() {
  const result = h("div#password-result", { "aria-live": "polite" });
  const form = h(
    "form#password-form.form-grid",
    {
      // One field a row: three labelled fields side by side do not fit a phone.
      style: { gridTemplateColumns: "minmax(0, 1fr)" },
      onsubmit: async (e) => {
        e.preventDefault();
        const data = new FormData(form);
        if (data.get("new_password") !== data.get("repeat_password")) {
          fill(result, note("The two new passwords differ.", "error"));
          return;
        }
        try {
          const done = await api("/api/me/password", { method: "POST", body: { current_password: data.get("current_password"), new_password: data.get("new_password") } });
          form.reset();
          const others = done.signed_out === 1 ? "1 other session was" : `${done.signed_out} other sessions were`;
          fill(result, note(`Password changed. ${others} signed out; this one stays signed in.`));
        } catch (err) {
          const text = err.code === "wrong_password" ? "That is not your current password." : errorText(err);
          fill(result, note(text, "error"));
        }
      },
    },
    passwordInput("current_password", "Current password", "current-password"),
    passwordInput("new_password", `New password (${PASSWORD_MIN} to ${PASSWORD_MAX} characters)`, "new-password"),
    passwordInput("repeat_password", "New password again", "new-password"),
    h("button.primary", { type: "submit" }, "Change password"),
  );
  return h("section#password", {}, h("h2", {}, "Password"), note("Changing it signs you out everywhere else."), form, result);
}

async function main() {
  try {
    const me = await api("/api/me");
    $("me").textContent = me.display_name;
    const settings = await api("/api/me/account");
    if (settings.guest) {
      fill(root, h("h1", {}, "Account"), note("Emails and a password need an account: register from the lobby to keep your games and get notices."), h("a", { href: "/" }, "Back to the lobby"));
      return;
    }
    fill(root, h("h1", {}, "Account"), mail, passwordSection());
    renderMail(settings);
  } catch (e) {
    fill(root, h("h1", {}, "Account"), note(e.code === "not_signed_in" ? "Sign in from the lobby first." : errorText(e), "error"), h("a", { href: "/" }, "Back to the lobby"));
  }
}

main();
