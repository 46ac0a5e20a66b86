// The table in words, for a screen reader: square names (columns A to O, rows 1 to 15), what a
// square holds, the ghost and the engine's outcome of it, and what each move changed, worded
// from the server's log frames (the engine's log lines and events): no rule is worked out here.
// Pure; no DOM. Every sentence is in WORDS, whole, so it can be translated as one piece.

import { SHIP_NAMES } from "./cards.mjs";
import { logPieces } from "./seats.mjs";
import { outcomeBits } from "./outcomes.mjs";
import { realmOf, SIZE } from "./geometry.mjs";

export const COLUMNS = "ABCDEFGHIJKLMNO";

export const WORDS = {
  island: "island",
  current: "Sea Current",
  whirlpool: "Whirlpool",
  gold: "Gold space",
  reef: "Reef space",
  shipSpace: "empty ship space",
  water: "water",
  ship: (colour) => `${colour} ship`,
  dragon: (who) => `${who} Dragon`,
  head: (who) => `${who} Dragon head`,
  ancestralHead: (who) => `${who} Ancestral Dragon head`,
  ghost: "your ghost",
  ghostHead: "your ghost's head",
  ghostLegal: "legal",
  ghostIllegal: "not legal",
  mine: "your",
  whose: (name) => `${name}'s`,
  seatWord: (n) => `Seat ${n}`,
  caption: (rows, cols) => `The board as text: ${rows} rows numbered 1 to ${rows} from the top, ${cols} columns lettered A to O from the left.`,
  realm: (name) => `${name} realm`,
  noCard: "No card picked.",
  ghostAt: (card, squares) => `${card} on ${squares}.`,
  ghostOff: (card) => `${card} is partly off the board.`,
  legal: "Legal here.",
  notLegal: "Not legal here.",
  locked: (head) => `Fixed; head on ${head}. Press Enter to place, H for the next head square.`,
  working: "Working out the outcome.",
  placedOn: (squares, head) => `The Dragon covers ${squares}, head on ${head}.`,
  and: " and ",
  timeout: (who) => `${who} ran out of time: a bot played this move.`,
  you: "You",
  yourTurn: "Your turn",
};

const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

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
 * @param ghost {cells, head, legal} or null
 */
export function squareWords(view, names, me, ghost = null) {
  const who = (seat) => (seat === me ? WORDS.mine : WORDS.whose(names[seat] || WORDS.seatWord(seat + 1)));
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
      out[r][c] = `${head ? WORDS.ghostHead : WORDS.ghost} (${ghost.legal ? WORDS.ghostLegal : WORDS.ghostIllegal}) over ${out[r][c]}`;
    }
  }
  return out;
}

/** The realm a square lies in, or null (the currents and the island belong to none). */
export function realmName(r, c) {
  const realm = realmOf(r, c);
  return realm ? cap(realm) : null;
}

/**
 * The ghost in one or two sentences: where it is, legal or not, and the engine's outcome of it
 * (cost, Gold, ships, draws, tails) once the outcomes are in.
 * @param g {card, cells, legal, locked, head, outcome} (outcome: the engine's, or null)
 */
export function ghostSentence(g, names = []) {
  if (!g?.card) return WORDS.noCard;
  const inside = g.cells.filter(([r, c]) => r >= 0 && r < SIZE && c >= 0 && c < SIZE);
  const where = inside.length === g.cells.length && inside.length ? WORDS.ghostAt(g.card, squaresText(inside)) : WORDS.ghostOff(g.card);
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
 * What a move changed, from its log frame (the server's `log` frame: text lines and events):
 * the lines with players' names for the seat colours ("You" for mine), and for a placement the
 * squares the Dragon covers. Returns the sentences to announce.
 */
export function moveSentences(frame, names, me) {
  const said = (text) =>
    logPieces(text, names)
      .map((p) => (typeof p === "string" ? p : p.seat === me ? WORDS.you : p.name))
      .join("")
      // "You's green tail", "You +1 Gold": mine in plain English.
      .replace(/\bYou's\b/g, "Your")
      .replace(/; You \+(\d+) Gold/g, "; you gained $1 Gold")
      .replace(/^You to play$/, WORDS.yourTurn);
  const out = [];
  if (frame.note) out.push(said(frame.note));
  const events = frame.events ?? [];
  (frame.text ?? []).forEach((line, i) => {
    if (!line) return;
    let text = said(line);
    const ev = events[i];
    if (ev?.type === "placed" && Array.isArray(ev.cells) && ev.head) text += `. ${WORDS.placedOn(squaresText(ev.cells), squareName(ev.head))}`;
    out.push(text);
  });
  return out;
}
