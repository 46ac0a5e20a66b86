// The turn clock on the table, and browser notifications of my turn.
// Text only through textContent (ui/dom.mjs); styles through classes (static/css/pace.css).

import { t } from "../lib/i18n.mjs";
import { seatLabel } from "../lib/seats.mjs";
import { fill, h } from "./dom.mjs";
import { clockLabel, formatSeconds, remainingFor, shouldNotify, shouldOfferNotifications, urgency } from "../lib/clock.mjs";

const TICK_MS = 250;
const ASKED_KEY = "seadragons.notifications-asked";
// The browser's permission cannot be taken back from a page, so "off" is the page's own switch.
const MUTED_KEY = "seadragons.notifications-muted";

/** The clock panel: one row per seat, the running one counting down between server updates. */
export class ClockPanel {
  /** `now`: the server's time in ms (the connection's estimate), so deadlines count down right. */
  constructor(el, now = () => Date.now()) {
    this.el = el;
    this.now = now;
    this.clock = null; // the last clock from the server (GET .../state or the socket document)
    this.rows = []; // [{seat, time}] elements updated by each tick
    this.key = ""; // what the rows were built from
    this.timer = 0;
  }

  /** Show `clock` with the seats' names; hides itself for tables without a clock. */
  update(clock, names, mySeat) {
    this.clock = clock ?? null;
    if (!clock || clock.mode === "none" || !Array.isArray(clock.remaining)) {
      this.el.hidden = true;
      clearInterval(this.timer);
      this.timer = 0;
      return;
    }
    this.el.hidden = false;
    const key = JSON.stringify([clock, names, mySeat]);
    if (key !== this.key) {
      this.key = key;
      this.rows = clock.remaining.map((_, seat) => ({
        seat,
        time: h("span.clock-time", { dataset: { seat } }),
        row: null,
      }));
      const items = this.rows.map((r) => {
        const out = clock.timeouts?.[r.seat] ? h("span.badge.clock-timeouts", { title: t("clock.timeouts_title") }, t("clock.timeouts", { n: clock.timeouts[r.seat] })) : null;
        r.row = h("li.clock-row", { dataset: { seat: r.seat } }, h("span.clock-name", {}, names?.[r.seat] ?? seatLabel(r.seat), r.seat === mySeat ? ` ${t("clock.you")}` : ""), r.time, out);
        return r.row;
      });
      fill(this.el, h("h3", {}, t("clock.title")), h("p.muted.clock-label", {}, clockLabel(clock)), h("ol.clock-rows", {}, items));
    }
    this.tick();
    if (!this.timer) this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  /** Redraw the times (no rebuild): the running seat's comes from the deadline and the time now. */
  tick() {
    const clock = this.clock;
    if (!clock) return;
    const now = this.now();
    for (const r of this.rows) {
      const left = remainingFor(clock, r.seat, now);
      const text = left === null ? "" : formatSeconds(Math.ceil(left));
      if (r.time.textContent !== text) r.time.textContent = text;
      const running = clock.seat === r.seat && !!clock.deadline;
      r.row.classList.toggle("running", running);
      r.row.dataset.urgency = urgency(clock, r.seat, now);
    }
  }
}

/**
 * "Notify me when it's my turn": the permission is asked once, from this button's click; then a
 * notification is shown for my turn whenever the page is open but hidden.
 */
export class TurnNotifier {
  constructor(el, gameId) {
    this.el = el;
    this.gameId = gameId;
    this.lastNotified = null; // the turn last notified (once per turn, however many decisions)
    this.supported = typeof Notification !== "undefined";
    this.offer();
  }

  offer() {
    const asked = localStorage.getItem(ASKED_KEY) === "1";
    const permission = this.supported ? Notification.permission : "denied";
    if (this.supported && permission === "granted") {
      this.showSwitch();
      return;
    }
    if (!shouldOfferNotifications({ supported: this.supported, permission, asked })) {
      this.el.hidden = true;
      return;
    }
    const ask = async () => {
      localStorage.setItem(ASKED_KEY, "1");
      try {
        await Notification.requestPermission();
      } finally {
        this.el.hidden = true;
        if (Notification.permission === "granted") this.showSwitch();
      }
    };
    fill(this.el, h("button.link", { type: "button", onclick: ask }, t("clock.notify_offer")));
    this.el.hidden = false;
  }

  /** Whether the player switched the notices off on this browser. */
  get muted() {
    return localStorage.getItem(MUTED_KEY) === "1";
  }

  /** With the permission granted: a switch to turn the notices off (and on again). */
  showSwitch() {
    const btn = h("button.link.notify-switch", { type: "button", "aria-pressed": String(!this.muted), dataset: { key: "notify-switch" } });
    const label = () => {
      btn.textContent = this.muted ? t("clock.notices_off") : t("clock.notices_on");
      btn.setAttribute("aria-pressed", String(!this.muted));
    };
    btn.addEventListener("click", () => {
      if (this.muted) localStorage.removeItem(MUTED_KEY);
      else localStorage.setItem(MUTED_KEY, "1");
      label();
    });
    label();
    fill(this.el, btn);
    this.el.hidden = false;
  }

  /** The document says I must decide in turn `turn`: notify if the page is hidden (once a turn). */
  yourTurn(turn) {
    if (!this.supported) return;
    const hidden = document.visibilityState === "hidden";
    if (!shouldNotify({ hidden, permission: Notification.permission, version: turn, lastNotified: this.lastNotified, muted: this.muted })) return;
    this.lastNotified = turn;
    const note = new Notification(t("clock.notification_title"), { body: t("clock.notification_body", { id: this.gameId }), tag: `seadragons-turn-${this.gameId}` });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  }
}
