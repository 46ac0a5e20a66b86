// The table in words, for a screen reader: square names (columns A to O, rows 1 to 15), what a
// square holds, the ghost and the engine's outcome of it, and what each move changed, worded
// from the server's log frames (the engine's log lines and events): no rule is worked out here.
// Pure; no DOM. Every sentence is one catalogue key (lib/i18n.mjs), whole, so it is translated
// as one piece; whose piece it is ("your Dragon", "Moray's Dragon") is a key of its own too.

import { SHIP_NAMES, realmName as realmWord } from "./cards.mjs";
import { language, t } from "./i18n.mjs";
import { renderLine } from "./logline.mjs";
import { logPieces } from "./seats.mjs";
import { outcomeBits } from "./outcomes.mjs";
import { realmOf, SIZE } from "./geometry.mjs";

export const COLUMNS = "ABCDEFGHIJKLMNO";

/** `who`: {mine: true} or {name}; the sentence of `key` for mine or for a named player. */
const whose = (key, who) => (who.mine ? t(`${key}_mine`) : t(`${key}_of`, { name: who.name }));

export const WORDS = {
  island: t("speech.island"),
  current: t("speech.current"),
  whirlpool: t("speech.whirlpool"),
  gold: t("speech.gold"),
  reef: t("speech.reef"),
  shipSpace: t("speech.ship_space"),
  water: t("speech.water"),
  ship: (colour) => t("speech.ship", { colour }),
  dragon: (who) => whose("speech.dragon", who),
  head: (who) => whose("speech.head", who),
  ancestralHead: (who) => whose("speech.ancestral_head", who),
  ghostOver: (head, legal, under, look = false) => t(`speech.${head ? "ghost_head" : "ghost"}_${look ? "looking" : legal ? "legal" : "illegal"}`, { under }),
  seatWord: (n) => t("seats.seat", { n }),
  caption: (rows, cols) => t("speech.caption", { rows, cols }),
  noCard: t("speech.no_card"),
  ghostAt: (card, squares) => t("speech.ghost_at", { card, squares }),
  ghostOff: (card) => t("speech.ghost_off", { card }),
  legal: t("speech.legal"),
  looking: t("speech.looking"),
  notLegal: t("speech.not_legal"),
  locked: (head) => t("speech.locked", { head }),
  working: t("speech.working"),
  placedOn: (squares, head) => t("speech.placed_on", { squares, head }),
  and: t("speech.and"),
  timeout: (who) => t("speech.timeout", { name: who }),
  you: t("speech.you"),
  yourTurn: t("speech.your_turn"),
};

/** A square's name: its column letter and row number, "D7" for [6, 3]. */
export const squareName = ([r, c]) => `${COLUMNS[c]}${r + 1}`;

/** Squares in reading order as words: "D7, D8 and E8". */
export function squaresText(cells) {
  const names = [...cells].sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(squareName);
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")}${WORDS.and}${names.at(-1)}`;
}

/**
 * What each square holds, as 15 rows of 15 words: the printed board, ships still on it, the
 * Dragons (whose, and which square is the head) and the ghost on top.
 * @param view the engine's view; names: by seat; me: my seat or null
 * @param ghost {cells, head, legal, look} or null (look: only looking, no verdict)
 */
export function squareWords(view, names, me, ghost = null) {
  const who = (seat) => (seat === me ? { mine: true } : { name: names[seat] || WORDS.seatWord(seat + 1) });
  const ships = new Map((view.board.ships ?? []).map(([r, c, col]) => [`${r},${c}`, col]));
  const out = [];
  for (let r = 0; r < SIZE; r++) {
    const row = [];
    for (let c = 0; c < SIZE; c++) {
      const ch = view.board.rows[r][c];
      const ship = ships.get(`${r},${c}`);
      let word = { I: WORDS.island, "~": WORDS.current, W: WORDS.whirlpool, G: WORDS.gold, R: WORDS.reef, S: WORDS.shipSpace }[ch] ?? WORDS.water;
      if (ship) word = WORDS.ship(SHIP_NAMES[ship] ?? ship);
      row.push(word);
    }
    out.push(row);
  }
  for (const d of view.board.dragons ?? []) {
    for (const [r, c] of d.cells) {
      const head = d.head && d.head[0] === r && d.head[1] === c;
      out[r][c] = head ? (d.ancestral ? WORDS.ancestralHead(who(d.owner)) : WORDS.head(who(d.owner))) : WORDS.dragon(who(d.owner));
    }
  }
  if (ghost) {
    for (const [r, c] of ghost.cells) {
      if (r < 0 || r >= SIZE || c < 0 || c >= SIZE) continue;
      const head = ghost.head && ghost.head[0] === r && ghost.head[1] === c;
      out[r][c] = WORDS.ghostOver(head, ghost.legal, out[r][c], !!ghost.look);
    }
  }
  return out;
}

/** The realm a square lies in, or null (the currents and the island belong to none). */
export function realmName(r, c) {
  const realm = realmOf(r, c);
  return realm ? realmWord(realm) : null;
}

/**
 * The ghost in one or two sentences: where it is, legal or not, and the engine's outcome of it
 * (cost, Gold, ships, draws, tails) once the outcomes are in.
 * @param g {card, cells, legal, locked, head, outcome, look} (outcome: the engine's, or null;
 *   look: only looking, not a time to place)
 */
export function ghostSentence(g, names = []) {
  if (!g?.card) return WORDS.noCard;
  const inside = g.cells.filter(([r, c]) => r >= 0 && r < SIZE && c >= 0 && c < SIZE);
  const where = inside.length === g.cells.length && inside.length ? WORDS.ghostAt(g.card, squaresText(inside)) : WORDS.ghostOff(g.card);
  // Only looking (no placement listed now): no verdict, the card can be placed later.
  if (g.look) return `${where} ${WORDS.looking}`;
  const parts = [where, g.legal ? WORDS.legal : WORDS.notLegal];
  if (g.legal) {
    if (g.outcome) {
      const bits = outcomeBits(g.outcome, names).map((b) => (b.colours?.length ? `${b.text} (${b.colours.map((c) => SHIP_NAMES[c] ?? c).join(", ")})` : b.text));
      parts.push(`${bits.join(", ")}.`);
    } else parts.push(WORDS.working);
    if (g.locked && g.head) parts.push(WORDS.locked(squareName(g.head)));
  }
  return parts.join(" ");
}

/**
 * What a move changed, from its log frame (the server's `log` frame: the events' pieces, the
 * English text of an older server, and the events): the lines in the reader's language with
 * players' names for the seat colours, my own clauses in their own form ("You placed",
 * "Colocaste": lib/logline.mjs), and for a placement the squares the Dragon covers. Returns the
 * sentences to announce.
 */
export function moveSentences(frame, names, me) {
  const named = (text) => logPieces(text, names).map((p) => (typeof p === "string" ? p : p.name)).join("");
  const out = [];
  const player = frame.player ?? names[frame.seat] ?? WORDS.seatWord((frame.seat ?? 0) + 1);
  if (frame.timeout) out.push(WORDS.timeout(player));
  else if (frame.note) out.push(named(frame.note));
  const events = frame.events ?? [];
  const pieces = Array.isArray(frame.pieces) ? frame.pieces : null;
  const lines = pieces ? pieces.map((p) => named(renderLine(p, { me }))) : (frame.text ?? []).map((line) => olderLine(line, names, me));
  lines.forEach((text, i) => {
    if (!text) return;
    const ev = events[i];
    if (ev?.type === "placed" && Array.isArray(ev.cells) && ev.head) text += `. ${WORDS.placedOn(squaresText(ev.cells), squareName(ev.head))}`;
    out.push(text);
  });
  return out;
}

/**
 * A line of an older server, which sends English text without pieces: names for the colours,
 * and in English mine as a person says them ("Your green tail", not "You's"). Text in English
 * is not patched into another language's grammar: there it keeps the names.
 */
function olderLine(text, names, me) {
  const english = language === "en";
  const line = logPieces(text, names).map((p) => (typeof p === "string" ? p : english && p.seat === me ? WORDS.you : p.name)).join("");
  if (!english) return line;
  return line
    .replace(/\bYou's\b/g, "Your")
    .replace(/; You \+(\d+) Gold/g, "; you gained $1 Gold")
    .replace(/^You to play$/, WORDS.yourTurn);
}
