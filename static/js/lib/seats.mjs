// Who sits where, in words: seat labels for the lobby, the waiting room and the player panels,
// the invite link, and the tab title. Pure; no DOM (tested under Node).

import { PLAYER_COLOURS } from "./cards.mjs";
import { formatList, hasKey, t } from "./i18n.mjs";

const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** A bot level as people read it ("greedy"); the level itself is a protocol value. */
export function botLevelName(level) {
  return hasKey(`bot.level.${level}`) ? t(`bot.level.${level}`) : level;
}

/**
 * A finished or watched game's seat name in the reader's language: a bot's own name and its
 * level ("Marina (greedy bot)" / "Marina (bot codicioso)") from `bot_name` and `bot` /
 * `bot_level`, else the server's `name` (a player's; the server words a bot in English).
 */
export function seatDisplayName(seat) {
  if (!seat) return null;
  const level = seat.bot ?? seat.bot_level;
  return seat.bot_name && level ? t("seats.bot_seat", { name: seat.bot_name, level: botLevelName(level) }) : seat.name;
}

/** "Seat 3": a seat without a name (seats counted from 1). */
export function seatLabel(seat) {
  return t("seats.seat", { n: seat + 1 });
}

/**
 * What a seat of GET /api/games/{id} shows. A seat is empty, a person's, a pure bot seat, or a
 * person's seat a bot plays for now (`stand_in_for`); `left` marks an owner who left the game.
 * @returns {{name: string|null, bot: string|null, standIn: boolean, left: boolean, empty: boolean}}
 */
export function seatInfo(seat) {
  const bot = seat?.bot_level ?? null;
  const person = seat?.player?.display_name ?? null;
  return {
    // A bot of its own has its own name ("Marina"; its level shows as a badge), so two bots are
    // told apart by more than colour; a stand-in keeps its owner's name.
    name: person ?? (bot ? (seat.bot_name ?? (hasKey(`seats.bot_name.${bot}`) ? t(`seats.bot_name.${bot}`) : `${cap(bot)} bot`)) : null),
    bot,
    standIn: !!(bot && person),
    left: !!seat?.left,
    empty: !person && !bot,
    // an empty seat a rematch keeps for this player until they answer.
    reservedFor: !person && !bot ? (seat?.reserved_for?.display_name ?? null) : null,
  };
}

/** The name shown for a seat (null for an empty one). */
export function seatName(seat) {
  return seatInfo(seat).name;
}

/**
 * The short badge texts for a seat: a bot and its level, a stand-in, a player who left. Once the
 * game is `over` a stand-in is told in the past ("a bot played"): nobody plays any more.
 */
export function seatBadges(info, over = false) {
  const out = [];
  const level = botLevelName(info.bot);
  if (info.bot) out.push({ kind: "bot", text: info.standIn ? t(over ? "seats.badge.stand_in_over" : "seats.badge.stand_in", { level }) : t("seats.badge.bot", { level }) });
  if (info.left) out.push({ kind: "left", text: t("seats.badge.left") });
  if (info.reservedFor) out.push({ kind: "reserved", text: t("seats.badge.reserved", { name: info.reservedFor }) });
  return out;
}

/**
 * Where invite links point: the server's public URL when it has one (the page carries it in
 * `data-public-url`), else the page's own origin. The host may be looking at 127.0.0.1, an
 * address useless to a friend elsewhere.
 */
export function inviteBase(publicUrl, origin) {
  const base = (publicUrl || "").trim().replace(/\/+$/, "");
  return /^https?:\/\/[^/]/.test(base) ? base : origin;
}

/** The invite link for a game: the code alone names it (GET /api/invites/{code}). */
export function inviteUrl(origin, code) {
  return `${origin}/join/${encodeURIComponent(code)}`;
}

/** The tab title: marked while the game waits for me, so a background tab shows it. */
export function titleFor(base, myTurn) {
  return myTurn ? t("seats.title_your_turn", { title: base }) : base;
}

/**
 * A log line with players' names in place of their colours. Lines name seats by capitalised
 * colours ("Green placed S16 ...; Orange +1 Gold", "Verde colocó ..." in Spanish: lib/logline.mjs
 * words them from the catalogue, an older server's `text` in English); ship and track colours
 * are lower case, so only capitalised seat colours of this game are replaced.
 * @returns {Array<string|{seat: number, name: string}>} text pieces and players
 */
export function logPieces(text, names) {
  const colours = PLAYER_COLOURS.slice(0, names.length);
  const seatOf = new Map();
  for (const [seat, c] of colours.entries()) {
    seatOf.set(cap(c), seat);
    seatOf.set(t(`colour.${c}`), seat);
  }
  if (!seatOf.size) return [text];
  const out = [];
  let last = 0;
  // \p{L} boundaries: \b does not know accented letters.
  const words = [...seatOf.keys()].map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  for (const m of text.matchAll(new RegExp(`(?<!\\p{L})(${words.join("|")})(?!\\p{L})`, "gu"))) {
    const seat = seatOf.get(m[1]);
    if (!names[seat]) continue;
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push({ seat, name: names[seat] });
    last = m.index + m[1].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const CONN_STATES = ["connecting", "live", "polling", "reconnecting", "offline"];

/** The connection badge: "Live" only while the game runs; a finished game says so. */
export function connLabel(status, over) {
  if (over && (status === "live" || status === "polling")) return { status: "over", text: t("seats.conn.over") };
  return { status, text: CONN_STATES.includes(status) ? t(`seats.conn.${status}`) : status };
}

/** A finished game's result in one line: the winner(s) by name, then each player's name beside
 * their total, best first ("Marina won · Marina 87, Ann 64, Cy 51"). */
export function resultText(scores, names) {
  if (!scores?.players?.length) return "";
  const name = (s) => names[s] || seatLabel(s);
  const winners = scores.winners ?? [];
  const who = winners.length > 1 ? t("seats.result_shared", { names: formatList(winners.map(name)) }) : t("seats.result_won", { name: name(winners[0]) });
  const totals = [...scores.players].sort((a, b) => b.total - a.total).map((p) => t("seats.result_score", { name: name(p.seat), total: p.total }));
  return `${who} · ${totals.join(", ")}`;
}
