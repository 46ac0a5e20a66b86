// Account settings: "your turn" email notices (an address confirmed by a link, on or off) as far
// as this server sends email at all, and the password. Every sentence about email says what the
// server will really do: a server without a mail server offers no address field and no box.

import { api, errorText } from "../lib/api.mjs";
import { formatDateTime, t, tn } from "../lib/i18n.mjs";
import { $, fill, h } from "../ui/dom.mjs";
import { forgetUnlisted, thisDevice } from "../lib/push.mjs";
import { pushOffer } from "../ui/pushoffer.mjs";

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
  if (!s.notices) return t("account.notices.off");
  if (confirmed) return t("account.notices.on", { email: s.email });
  if (s.email) return t("account.notices.on_unconfirmed", { email: s.email });
  return t("account.notices.on_no_address");
}

function renderMail(settings, status = {}) {
  if (settings) last = settings;
  const s = last;
  if (!s) return;
  // Redrawn after the box is switched: an address being typed meanwhile stays as typed.
  const typed = status.keepTyped ? mail.querySelector("input[name=email]")?.value : undefined;
  const parts = [h("h2", {}, t("account.email_notices"))];
  if (!s.email_enabled) {
    parts.push(note(t("account.no_email_server")));
    fill(mail, ...parts);
    return;
  }
  const verified = s.email && s.email_verified;
  parts.push(
    s.email
      ? note(verified ? t("account.email_confirmed", { email: s.email }) : t("account.email_unconfirmed", { email: s.email }), verified ? "muted" : "warning")
      : note(t("account.no_address")),
    h(
      "form#email-form.form-grid",
      {
        onsubmit: (e) => {
          e.preventDefault();
          const email = new FormData(e.target).get("email");
          save("/api/me/email", { email }, { info: t("account.check_inbox") });
        },
      },
      h("label", {}, t("account.email_address"), h("input", { name: "email", type: "email", required: true, maxlength: 254, autocomplete: "email", value: typed ?? s.email ?? "" })),
      h("button.primary", { type: "submit" }, s.email ? t("account.change_and_confirm") : t("account.add_and_confirm")),
    ),
    s.email ? h("p", {}, h("button.link", { type: "button", onclick: () => save("/api/me/email", { email: null }) }, t("account.remove_address"))) : null,
    h(
      "p",
      {},
      h(
        "label.check",
        {},
        h("input#notices", { type: "checkbox", checked: s.notices, onchange: (e) => save("/api/me/notices", { enabled: e.target.checked }, { keepTyped: true }) }),
        " ",
        t("account.notices_box"),
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
          fill(result, note(t("account.passwords_differ"), "error"));
          return;
        }
        try {
          const done = await api("/api/me/password", { method: "POST", body: { current_password: data.get("current_password"), new_password: data.get("new_password") } });
          form.reset();
          fill(result, note(tn("account.password_changed", done.signed_out)));
        } catch (err) {
          const text = err.code === "wrong_password" ? t("account.wrong_password") : errorText(err);
          fill(result, note(text, "error"));
        }
      },
    },
    passwordInput("current_password", t("account.current_password"), "current-password"),
    passwordInput("new_password", t("account.new_password", { min: PASSWORD_MIN, max: PASSWORD_MAX }), "new-password"),
    passwordInput("repeat_password", t("account.repeat_password"), "new-password"),
    h("button.primary", { type: "submit" }, t("account.change_password")),
  );
  return h("section#password", {}, h("h2", {}, t("account.password")), note(t("account.password_note")), form, result);
}

// --- vacation days ------------------------------------------------------------------------

const vacation = h("section#vacation", { "aria-live": "polite" });

async function vacationCall(path, body) {
  try {
    renderVacation(await api(path, { method: "POST", body }));
  } catch (e) {
    renderVacation(null, errorText(e));
  }
}

let lastVacation = null;

/** The year's days, the running vacation (end it early) or the form to start one. */
function renderVacation(v, error = null) {
  if (v) lastVacation = v;
  const s = lastVacation;
  if (!s) return;
  const parts = [
    h("h2", {}, t("account.vacation.title")),
    note(t("account.vacation.explain")),
    note(t("account.vacation.left", { left: s.left_days, allowance: s.allowance_days, year: s.year })),
  ];
  if (s.active) {
    parts.push(
      note(t("account.vacation.until", { date: formatDateTime(s.active.ends_at) }), "warning"),
      h("p", {}, h("button#vacation-end", { type: "button", onclick: () => vacationCall("/api/me/vacation/end") }, t("account.vacation.end"))),
    );
  } else if (s.left_days > 0) {
    const form = h(
      "form#vacation-form.form-grid",
      {
        onsubmit: (e) => {
          e.preventDefault();
          vacationCall("/api/me/vacation", { days: Number(new FormData(form).get("days")) });
        },
      },
      h("label", {}, t("account.vacation.days"), h("input#vacation-days", { name: "days", type: "number", min: 1, max: s.left_days, step: 1, required: true, value: Math.min(7, s.left_days) })),
      h("button.primary", { type: "submit" }, t("account.vacation.start")),
    );
    parts.push(form);
  }
  if (error) parts.push(note(error, "error"));
  fill(vacation, ...parts);
}

// --- push devices --------------------------------------------------------------------------

const devicesBox = h("section#devices", { "aria-live": "polite" });

/** The account's push devices, each removable, and the switch for this browser. */
async function renderDevices(status = null) {
  let out;
  try {
    out = await api("/api/me/devices");
  } catch (e) {
    fill(devicesBox, h("h2", {}, t("push.devices")), note(errorText(e), "error"));
    return;
  }
  forgetUnlisted(out.devices);
  const here = thisDevice();
  const offer = h("p#push-offer", { hidden: true });
  const items = out.devices.map((d) =>
    h(
      "li.device",
      { dataset: { device: String(d.id) } },
      h("span", {}, d.id === here ? t("push.device_here", { label: d.label }) : d.label),
      " ",
      h("span.muted", {}, d.last_ok_at ? t("push.last_ok", { when: formatDateTime(d.last_ok_at) }) : t("push.never_yet")),
      " ",
      h(
        "button.link",
        {
          type: "button",
          "aria-label": t("push.remove_named", { label: d.label }),
          onclick: async () => {
            try {
              await api(`/api/me/devices/${d.id}`, { method: "DELETE" });
              renderDevices({ text: t("push.removed", { label: d.label }) });
            } catch (e) {
              renderDevices({ error: errorText(e) });
            }
          },
        },
        t("push.remove"),
      ),
    ),
  );
  fill(
    devicesBox,
    h("h2", {}, t("push.devices")),
    note(t("push.devices_note")),
    items.length ? h("ul.devices", {}, ...items) : note(t("push.no_devices")),
    offer,
    status?.error ? note(status.error, "error") : status?.text ? note(status.text) : "",
  );
  pushOffer(offer, { onChange: () => renderDevices() });
}

async function main() {
  try {
    const me = await api("/api/me");
    $("me").textContent = me.display_name;
    const settings = await api("/api/me/account");
    if (settings.guest) {
      fill(root, h("h1", {}, t("account.title")), devicesBox, note(t("account.guest")), h("a", { href: "/" }, t("common.back_to_lobby")));
      renderDevices();
      return;
    }
    fill(root, h("h1", {}, t("account.title")), devicesBox, mail, vacation, passwordSection());
    renderMail(settings);
    renderDevices();
    renderVacation(await api("/api/me/vacation"));
  } catch (e) {
    fill(root, h("h1", {}, t("account.title")), note(e.code === "not_signed_in" ? t("account.sign_in_first") : errorText(e), "error"), h("a", { href: "/" }, t("common.back_to_lobby")));
  }
}

main();
