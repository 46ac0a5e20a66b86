// Turn clocks, "Your games" and turn notifications in words and numbers. Pure: no
// DOM, no timers (the caller passes `now`), so it is tested under Node.
//
// A clock is what the server sends in GET /api/games/{id}, GET .../state and the socket
// document: {mode: "none"} or {mode: "live"|"daily", initial?, per_turn, turn, seat,
// started_at, deadline, remaining: [seconds per seat], timeouts: [per seat]}; daily also
// grace, bank_cap, banks: [seconds per seat], vacation_until: [ISO time or null per seat].

import { formatList, t, tn } from "./i18n.mjs";
import { botLevelName } from "./seats.mjs";

/** Whole seconds as a short readable duration: "0:07", "4:05", "1:02:03", "2 d 3 h". */
export function formatSeconds(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  if (d >= 1) {
    const h = Math.floor((s % 86400) / 3600);
    return h ? t("clock.days_hours", { d, h }) : t("clock.days", { d });
  }
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** A setting as people say it: 600 -> "10 min", 90 -> "90 s", 86400 -> "24 h", 259200 -> "3 days". */
export function formatSetting(seconds) {
  if (seconds >= 2 * 86400 && seconds % 86400 === 0) return tn("clock.setting_days", seconds / 86400);
  if (seconds >= 3600 && seconds % 3600 === 0) return t("clock.setting_hours", { n: seconds / 3600 });
  if (seconds >= 60 && seconds % 60 === 0) return t("clock.setting_minutes", { n: seconds / 60 });
  return t("clock.setting_seconds", { n: seconds });
}

/** The clock of a table in a few words ("" when it has none), for the lobby and the table. */
export function clockLabel(clock) {
  if (!clock || clock.mode === "none") return "";
  const extension = clock.extension ? formatSetting(clock.extension) : null;
  const initial = formatSetting(clock.initial ?? 0);
  const perTurn = formatSetting(clock.per_turn);
  if (clock.mode === "live") {
    return extension ? t("clock.live_label_extension", { initial, per_turn: perTurn, extension }) : t("clock.live_label", { initial, per_turn: perTurn });
  }
  if (clock.mode === "daily") return extension ? t("clock.daily_label_extension", { per_turn: perTurn, extension }) : t("clock.daily_label", { per_turn: perTurn });
  return "";
}

/**
 * Whether `seat` may ask for the table's extra time now (POST .../clock/extend): its clock is
 * running with time left, the table offers an extension and this turn has not had it. The
 * server decides; this only says when to offer the button.
 */
export function canExtend(clock, seat, nowMs) {
  if (!clock?.extension || seat === null || seat === undefined || !isRunning(clock, seat)) return false;
  if (clock.extended !== null && clock.extended !== undefined && clock.extended === clock.turn) return false;
  return (remainingFor(clock, seat, nowMs) ?? 0) > 0;
}

/** A daily seat's time bank in seconds as the server computed it; null where there is none. */
export function bankOf(clock, seat) {
  if (!clock || clock.mode !== "daily" || !clock.bank_cap || !Array.isArray(clock.banks)) return null;
  return clock.banks[seat] ?? null;
}

/**
 * When `seat`'s player is back from vacation (the server's ISO time), or null; null too once
 * that time has passed at `nowMs` (the server drops it at the next turn).
 */
export function vacationUntil(clock, seat, nowMs = Date.now()) {
  const until = (clock && Array.isArray(clock.vacation_until) && clock.vacation_until[seat]) || null;
  return until && Date.parse(until) > nowMs ? until : null;
}

/** Whether `seat`'s clock is the one running now. */
export function isRunning(clock, seat) {
  return !!clock && clock.mode !== "none" && clock.seat === seat && clock.seat !== null && !!clock.deadline;
}

/**
 * Seconds left for `seat` at `nowMs` (ms since the epoch): the running seat counts down to the
 * deadline; the others show what they will have (their bank, or the daily allowance).
 * null when the table has no clock or the game has not started.
 */
export function remainingFor(clock, seat, nowMs) {
  if (!clock || clock.mode === "none" || !Array.isArray(clock.remaining)) return null;
  if (isRunning(clock, seat)) return Math.max(0, (Date.parse(clock.deadline) - nowMs) / 1000);
  return clock.remaining[seat] ?? null;
}

/** "low" under a tenth of the turn's allowance (or 30 s), "out" at zero, else "ok". */
export function urgency(clock, seat, nowMs) {
  const left = remainingFor(clock, seat, nowMs);
  if (left === null || !isRunning(clock, seat)) return "ok";
  if (left <= 0) return "out";
  const whole = (Date.parse(clock.deadline) - Date.parse(clock.started_at)) / 1000;
  return left <= Math.max(30, whole / 10) ? "low" : "ok";
}

/** The lobby's tab title: the number of games waiting for me in front. */
export function titleWithCount(base, waiting) {
  return waiting > 0 ? `(${waiting}) ${base}` : base;
}

/**
 * Whether to show a browser notification for my turn `version` (the game page passes the turn
 * number, so a turn of several decisions notifies once): only while the page is hidden, with
 * permission granted, once per value.
 */
export function shouldNotify({ hidden, permission, version, lastNotified, muted = false }) {
  return !muted && hidden && permission === "granted" && version !== lastNotified;
}

/** Whether to offer the "notify me" button: notifications exist, undecided, never asked here. */
export function shouldOfferNotifications({ supported, permission, asked }) {
  return supported && permission === "default" && !asked;
}

/** Whether every seat of a table is taken (the server's `full`, else counted from the seats). */
export function isFull(game) {
  if (typeof game.full === "boolean") return game.full;
  return (game.seats ?? []).every((s) => s.player || s.bot_level);
}

/** The line of a "Your games" entry: opponents, the clock, the deadline or the winners. */
export function homeLine(game, meId, nowMs) {
  const others = game.seats
    .filter((s) => !(s.player && s.player.id === meId))
    .map((s) => s.player?.display_name ?? s.bot_name ?? (s.bot_level ? t("clock.home.bot", { level: botLevelName(s.bot_level) }) : t("clock.home.open_seat")));
  const parts = [t("clock.home.with", { names: others.join(", ") })];
  if (game.status === "finished") {
    const w = game.winners ?? [];
    parts.push(w.length ? t("clock.home.won_by", { names: formatList(w) }) : t("clock.home.finished"));
    return parts.join(" · ");
  }
  const label = clockLabel(game.clock);
  if (label) parts.push(label);
  if (game.status === "live" && isRunning(game.clock, game.your_seat)) {
    parts.push(t("clock.home.left", { time: formatSeconds(remainingFor(game.clock, game.your_seat, nowMs)) }));
  }
  if (game.status === "open") parts.push(isFull(game) ? t("clock.home.full") : t("clock.home.waiting"));
  return parts.join(" · ");
}

/**
 * The clock of the lobby form's choice for POST /api/games: "none", "live:300:5", "daily:86400",
 * with the extra time a turn may ask for last when there is one ("live:300:5:120",
 * "daily:86400:3600").
 */
export function clockSpec(choice) {
  const [mode, a, b, c] = String(choice ?? "none").split(":");
  if (mode === "live") return { mode, initial: Number(a), per_turn: Number(b), ...(c ? { extension: Number(c) } : {}) };
  if (mode === "daily") return { mode, per_turn: Number(a), ...(b ? { extension: Number(b) } : {}) };
  return { mode: "none" };
}
