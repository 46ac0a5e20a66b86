// Who sits where, in words: seat labels for the lobby, the waiting room and the player panels,
// the invite link, and the tab title. Pure; no DOM (tested under Node).

import { PLAYER_COLOURS } from "./cards.mjs";

const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

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
    name: person ?? (bot ? (seat.bot_name ?? `${cap(bot)} bot`) : null),
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
  if (info.bot) out.push({ kind: "bot", text: info.standIn ? `bot (${info.bot}) ${over ? "played" : "plays"}` : `bot · ${info.bot}` });
  if (info.left) out.push({ kind: "left", text: "left" });
  if (info.reservedFor) out.push({ kind: "reserved", text: `kept for ${info.reservedFor}` });
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
  return myTurn ? `● Your turn · ${base}` : base;
}

/**
 * A log line with players' names in place of their colours. The server writes seats as
 * capitalised colours ("Green placed S16 ...; Orange +1 Gold"); ship and track colours are
 * lower case, so only capitalised seat colours of this game are replaced.
 * @returns {Array<string|{seat: number, name: string}>} text pieces and players
 */
export function logPieces(text, names) {
  const words = PLAYER_COLOURS.slice(0, names.length).map(cap);
  if (!words.length) return [text];
  const out = [];
  let last = 0;
  for (const m of text.matchAll(new RegExp(`\\b(${words.join("|")})\\b`, "g"))) {
    const seat = words.indexOf(m[1]);
    if (!names[seat]) continue;
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push({ seat, name: names[seat] });
    last = m.index + m[1].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const CONN_TEXT = { connecting: "Connecting…", live: "Live", polling: "Live (polling)", reconnecting: "Reconnecting…", offline: "Offline, retrying…" };

/** The connection badge: "Live" only while the game runs; a finished game says so. */
export function connLabel(status, over) {
  if (over && (status === "live" || status === "polling")) return { status: "over", text: "Game over" };
  return { status, text: CONN_TEXT[status] ?? status };
}

/** A finished game's result in one line: the winner(s) by name, then every total, best first. */
export function resultText(scores, names) {
  if (!scores?.players?.length) return "";
  const name = (s) => names[s] || `Seat ${s + 1}`;
  const winners = scores.winners ?? [];
  const who = winners.length > 1 ? `${winners.map(name).join(" and ")} shared the win` : `${name(winners[0])} won`;
  const totals = scores.players.map((p) => p.total).sort((a, b) => b - a);
  return `${who} · ${totals.join(" – ")}`;
}
