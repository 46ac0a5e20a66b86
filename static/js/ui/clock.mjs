// The turn clock on the table, and browser notifications of my turn.
// Text only through textContent (ui/dom.mjs); styles through classes (static/css/pace.css).

import { formatDateTime, t } from "../lib/i18n.mjs";
import { seatLabel } from "../lib/seats.mjs";
import { fill, h } from "./dom.mjs";
import { bankOf, canExtend, clockLabel, formatSeconds, formatSetting, remainingFor, shouldNotify, shouldOfferNotifications, urgency, vacationUntil } from "../lib/clock.mjs";

const TICK_MS = 250;
const ASKED_KEY = "seadragons.notifications-asked";
// The browser's permission cannot be taken back from a page, so "off" is the page's own switch.
const MUTED_KEY = "seadragons.notifications-muted";

/** The clock panel: one row per seat, the running one counting down between server updates. */
export class ClockPanel {
  /**
   * `now`: the server's time in ms (the connection's estimate), so deadlines count down right;
   * `onExtend()`: ask the server for this turn's extra time (resolves to the new clock);
   * `onZero()`: another seat's time reached zero at a table with extra time: it may have been
   * granted (an extension sends no frame to the others), so the page reads the clock again.
   */
  constructor(el, now = () => Date.now(), onExtend = null, onZero = null) {
    this.el = el;
    this.now = now;
    this.onExtend = onExtend;
    this.onZero = onZero;
    this.zeroTurn = null; // the turn onZero was called for (once a turn)
    this.mySeat = null;
    this.warned = null; // the turn whose "time running out" warning was given
    this.noteTurn = null; // the turn the line under the clock speaks of (cleared when it ends)
    this.extendBtn = null;
    this.warning = null;
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
    this.mySeat = mySeat;
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
        // Daily tables: the seat's time bank and its owner's vacation, both as the server says.
        const bank = bankOf(clock, r.seat);
        const banked = bank === null ? null : h("span.badge.clock-bank", { title: t("clock.bank_title") }, t("clock.bank", { time: formatSeconds(bank) }));
        const until = vacationUntil(clock, r.seat, this.now());
        const away = until ? h("span.badge.clock-vacation", {}, t("clock.vacation_until", { date: formatDateTime(until) })) : null;
        r.row = h("li.clock-row", { dataset: { seat: r.seat } }, h("span.clock-name", {}, names?.[r.seat] ?? seatLabel(r.seat), r.seat === mySeat ? ` ${t("clock.you")}` : ""), r.time, out, banked, away);
        return r.row;
      });
      // Extra time (WCAG 2.2.1): offered to the player to act while the table allows it; the
      // warning below says so when the time runs low.
      this.extendBtn = clock.extension && this.onExtend
        ? h("button.clock-extend", { type: "button", hidden: true, title: t("clock.extend_title"), onclick: () => this.extend(), dataset: { key: "clock-extend" } }, t("clock.extend", { time: formatSetting(clock.extension) }))
        : null;
      this.warning = h("p.clock-warning", { role: "status" });
      fill(this.el, h("h3", {}, t("clock.title")), h("p.muted.clock-label", {}, clockLabel(clock)), h("ol.clock-rows", {}, items), this.extendBtn, this.warning);
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
    const other = clock.seat !== null && clock.seat !== undefined && clock.seat !== this.mySeat;
    if (this.onZero && clock.extension && other && clock.extended !== clock.turn && this.zeroTurn !== clock.turn && (remainingFor(clock, clock.seat, now) ?? 1) <= 0) {
      this.zeroTurn = clock.turn;
      this.onZero();
    }
    const may = canExtend(clock, this.mySeat, now);
    if (this.extendBtn && this.extendBtn.hidden === may) this.extendBtn.hidden = !may;
    // Warned once a turn, when my time turns low, while there is still time to act on it.
    if (this.warning && this.mySeat !== null && urgency(clock, this.mySeat, now) === "low" && this.warned !== clock.turn) {
      this.warned = clock.turn;
      const left = formatSeconds(Math.ceil(remainingFor(clock, this.mySeat, now) ?? 0));
      this.say(may ? t("clock.low_extend", { left, time: formatSetting(clock.extension) }) : t("clock.low", { left }));
    } else if (this.warning?.textContent && this.noteTurn !== clock.turn) this.warning.textContent = "";
  }

  /** A line under the clock (a polite status: read out), kept until the turn ends. */
  say(text) {
    this.noteTurn = this.clock?.turn ?? null;
    this.warning.textContent = text;
  }

  /** Ask for the extra time; the server's answer is the clock to show. */
  async extend() {
    if (!this.onExtend || !this.extendBtn) return;
    this.extendBtn.disabled = true;
    try {
      const clock = await this.onExtend();
      if (clock) {
        this.clock = clock;
        this.tick();
        this.say(t("clock.granted", { time: formatSetting(clock.extension) }));
      }
    } catch (e) {
      this.say(e?.message ?? String(e));
    } finally {
      this.extendBtn.disabled = false;
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
