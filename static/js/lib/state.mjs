// The headless game-table state: one plain object, mutated only through the functions here,
// read by the renderers. No DOM, so every rule of the client's behaviour is unit-tested in Node.
// Legality is never computed here: a ghost is legal exactly when its squares equal the squares
// of a `place` action the server listed in legal_actions.

import { cellsKey, onBoard, orient, orientationFor, placeAt, step, SIZE } from "./geometry.mjs";
import { matchOutcome, outcomeKey } from "./outcomes.mjs";
import { shapeOf } from "./cards.mjs";
import { hasKey, t } from "./i18n.mjs";

/** A fresh table state. */
export function createState(opts = {}) {
  return {
    gameId: opts.gameId ?? null, // id of the game on this page
    content: opts.content ?? null, // static card data from /content.json (shapes, missions, reefs)
    version: -1, // server version of `doc`; every action carries it (stale ones are refused)
    doc: null, // {view, legal_actions}: exactly the document the server's patches apply to
    docSeq: 0, // bumped by every setDocument: a cheap "the document changed" stamp for redraws
    seat: null, // my seat number, or null when spectating (then everything is read-only)
    names: [], // display names by seat, from GET /api/games/{id}
    seats: [], // lib/seats.mjs seatInfo by seat (bot level, stand-in, left), from the same call
    status: "connecting", // connection state shown to the player (connecting|live|polling|reconnecting|offline)
    selected: null, // hand card id being placed, or null when no card is picked
    rot: 0, // quarter turns clockwise applied to the selected card's shape (R key)
    mirrored: false, // whether the shape is mirrored before rotating (F key)
    anchor: null, // [row, col] where the ghost's pivot sits (pointer or arrow keys), or null
    locked: false, // true once the player fixed a legal spot and is choosing the head
    headIndex: 0, // index into the ghost's squares of the chosen head square
    freeCells: null, // the ghost's squares one by one (extra-body and free-shape treasures), or null: the card's shape
    outcomes: null, // {key, list, error}: the engine's outcomes of the selected card's placements (lib/outcomes.mjs)
    decision: null, // an open chooser (lib/decisions.mjs): {kind: "mission", mission, pay} | {kind: "pass", discard, draw}
    pending: false, // an action was sent and not answered yet: input waits to avoid doubles
    lastPlaced: null, // {cells, at, still?} of the newest Dragon, highlighted after it lands (still: no pulse)
    error: null, // the last refusal or network problem, shown to the player, or null
    log: [], // readable log lines [{seq, text}] oldest first
    chat: [], // chat messages [{name, text, at}] oldest first
    presence: null, // who is connected, as the server last reported it, or null
  };
}

/** The current view, or null before the first state arrives. */
export const viewOf = (s) => s.doc?.view ?? null;

/** The legal actions for me now (empty for spectators and off-turn). */
export const legalOf = (s) => (s.seat === null ? [] : s.doc?.legal_actions ?? []);

/**
 * Take a new document (full state, or the result of a patch). Detects a newly placed Dragon
 * for the highlight, and drops a selection that no longer makes sense (card left the hand).
 */
export function setDocument(s, doc, version, now = Date.now()) {
  const before = s.doc?.view?.board?.dragons?.length ?? null;
  const couldPlace = allPlaceActions(s).length > 0;
  s.doc = doc;
  s.version = version;
  s.docSeq += 1;
  const dragons = doc?.view?.board?.dragons ?? [];
  if (before !== null && dragons.length > before) {
    s.lastPlaced = { cells: dragons[dragons.length - 1].cells, at: now };
  }
  const hand = myHand(s);
  // Keep a card picked ahead of my turn, but drop it once it left my hand or my placing ended.
  const placingEnded = couldPlace && allPlaceActions(s).length === 0;
  if (s.selected && (!hand.includes(s.selected) || placingEnded)) clearSelection(s);
  if (s.locked && !currentAction(s)) s.locked = false;
}

/** My hand (Pattern card ids), or [] for a spectator. */
export function myHand(s) {
  const v = viewOf(s);
  if (!v || s.seat === null) return [];
  return v.players?.[s.seat]?.hand ?? [];
}

/** Whether the game waits for me right now. */
export function isMyTurn(s) {
  return legalOf(s).length > 0;
}

/** The `place` actions listed for one card (by default the selected one). */
export function placeActions(s, card = s.selected) {
  return legalOf(s).filter((a) => a.type === "place" && a.card === card);
}

/** Every listed `place` action, whatever the card. */
export function allPlaceActions(s) {
  return legalOf(s).filter((a) => a.type === "place");
}

/** Actions other than placements: every one gets a button (missions, draws, pass, ...). */
export function otherActions(s) {
  return legalOf(s).filter((a) => a.type !== "place");
}

/** Pick a hand card to place; the ghost starts where the pointer last was, or mid-board. */
export function selectCard(s, card) {
  if (s.seat === null || !myHand(s).includes(card)) return false;
  s.selected = card;
  s.rot = 0;
  s.mirrored = false;
  s.locked = false;
  s.headIndex = 0;
  s.freeCells = null;
  if (!s.anchor) s.anchor = [Math.floor(SIZE / 2), Math.floor(SIZE / 2) - 3];
  return true;
}

/**
 * Whether the picked card is only being looked at: no placement is listed now (another seat is
 * to play, or this is not the placing step), so the ghost shows where the card could go later,
 * with no legal / not legal verdict.
 */
export function lookingOnly(s) {
  return !!s.selected && allPlaceActions(s).length === 0;
}

/** Drop the card being placed. */
export function clearSelection(s) {
  s.selected = null;
  s.locked = false;
  s.headIndex = 0;
  s.freeCells = null;
}

/** R: a quarter turn clockwise. */
export function rotateGhost(s) {
  if (!s.selected || s.locked) return;
  s.freeCells = null; // back to the card's shape, turned
  s.rot = (s.rot + 1) % 4;
}

/** F: mirror left-right. Mirroring after a rotation must look like flipping what is shown. */
export function mirrorGhost(s) {
  if (!s.selected || s.locked) return;
  s.freeCells = null;
  s.mirrored = !s.mirrored;
  // orient() mirrors before rotating; flipping the displayed shape left-right equals mirroring
  // the base and rotating the other way round.
  s.rot = (4 - s.rot) % 4;
}

/** Put the ghost's pivot on a square (pointer move). */
export function moveGhostTo(s, cell) {
  // Squares chosen one by one stay put under the pointer: a click adds or removes one.
  if (!s.selected || s.locked || !cell || s.freeCells) return;
  s.anchor = [cell[0], cell[1]];
}

/** Arrow keys: move the ghost one square. */
export function moveGhostBy(s, dr, dc) {
  if (!s.selected || s.locked) return;
  if (s.freeCells) {
    const moved = s.freeCells.map(([r, c]) => [r + dr, c + dc]);
    if (onBoard(moved)) s.freeCells = moved;
    return;
  }
  s.anchor = step(s.anchor ?? [7, 7], dr, dc);
}

/** The board squares the ghost covers now, or [] with no card selected. */
export function ghostCells(s) {
  if (s.selected && s.freeCells) return s.freeCells;
  const shape = shapeOf(s.content, s.selected);
  if (!shape || !s.anchor) return [];
  return placeAt(orient(shape, s.rot, s.mirrored), s.anchor);
}

/** The listed `place` action whose squares equal the ghost's, or null (= illegal here). */
export function currentAction(s) {
  const cells = ghostCells(s);
  if (!cells.length) return null;
  const key = cellsKey(cells);
  return placeActions(s).find((a) => cellsKey(a.cells) === key) ?? null;
}

const shapeMemo = { key: null, value: false };

/**
 * Whether the selected card's listed placements include squares its printed shape cannot cover
 * (the extra-body treasure adds a square, the free-shape treasure allows any shape): then the
 * ghost's squares can be added and removed one by one. Read off the listed actions, so the
 * client never knows which treasure allows what.
 */
export function shapeIsFree(s) {
  const key = `${s.docSeq}|${s.selected}`;
  if (shapeMemo.key !== key) {
    const shape = shapeOf(s.content, s.selected);
    shapeMemo.key = key;
    shapeMemo.value = !!shape && placeActions(s).some((a) => a.cells.length !== shape.length || !orientationFor(shape, a.cells));
  }
  return shapeMemo.value;
}

/**
 * Add or remove one square of the ghost (free shapes): a square of the ghost is removed, any
 * other is added. The first change starts from the ghost's squares as they are.
 */
export function toggleSquare(s, cell) {
  if (!s.selected || s.locked || !cell || !onBoard([cell])) return false;
  const cells = (s.freeCells ?? ghostCells(s)).filter(([r, c]) => r >= 0 && r < SIZE && c >= 0 && c < SIZE);
  const i = cells.findIndex(([r, c]) => r === cell[0] && c === cell[1]);
  s.freeCells = i >= 0 ? cells.filter((_, j) => j !== i) : [...cells, [cell[0], cell[1]]];
  return true;
}

/** Start choosing the ghost's squares one by one, from those it covers now (on the board). */
export function editSquares(s) {
  if (!s.selected || s.locked || s.freeCells) return false;
  s.freeCells = ghostCells(s).filter((c) => onBoard([c]));
  return true;
}

/** Back to the card's printed shape (from squares chosen one by one). */
export function shapeAgain(s) {
  if (!s.freeCells || s.locked) return false;
  s.freeCells = null;
  return true;
}

/** The engine's outcome of the ghost's placement (cost, Gold, ...), or null (none, or not yet). */
export function currentOutcome(s) {
  if (!s.outcomes?.list || s.outcomes.key !== outcomeKey(s.version, s.selected)) return null;
  return matchOutcome(s.outcomes.list, ghostCells(s), s.locked ? headCell(s) : null);
}

/** Every square covered by some legal placement of the selected card (a faint hint layer). */
export function legalHintCells(s) {
  const seen = new Map();
  for (const a of placeActions(s)) for (const c of a.cells) seen.set(`${c[0]},${c[1]}`, c);
  return [...seen.values()];
}

/** Fix the ghost where it is (only on a legal spot) so the head can be chosen. */
export function lockGhost(s) {
  const a = currentAction(s);
  if (!a) return false;
  s.locked = true;
  const cells = ghostCells(s);
  const key = `${a.head[0]},${a.head[1]}`;
  s.headIndex = Math.max(0, cells.findIndex(([r, c]) => `${r},${c}` === key));
  return true;
}

/** Back from choosing the head to moving the ghost. */
export function unlockGhost(s) {
  s.locked = false;
}

/** Choose the head: a square of the ghost (by board square), or cycle with no argument. */
export function chooseHead(s, cell) {
  const cells = ghostCells(s);
  if (!cells.length) return false;
  if (!cell) {
    s.headIndex = (s.headIndex + 1) % cells.length;
    return true;
  }
  const i = cells.findIndex(([r, c]) => r === cell[0] && c === cell[1]);
  if (i < 0) return false;
  s.headIndex = i;
  return true;
}

/** The head square of the ghost. */
export function headCell(s) {
  const cells = ghostCells(s);
  return cells.length ? cells[Math.min(s.headIndex, cells.length - 1)] : null;
}

/** The exact action to send for the locked ghost: the listed action with my chosen head. */
export function placementToSend(s) {
  const a = currentAction(s);
  if (!a) return null;
  return { ...a, head: headCell(s) };
}

/**
 * Jump the ghost to the next (dir=1) or previous legal placement of the selected card, so a
 * keyboard user never has to hunt for a legal square.
 */
export function cycleLegal(s, dir = 1) {
  const acts = placeActions(s);
  const shape = shapeOf(s.content, s.selected);
  if (!acts.length || !shape || s.locked) return false;
  const cur = currentAction(s);
  const i = cur ? acts.indexOf(cur) : -1;
  // With the Ancestral head a spot is listed once per realm of the head: skip the
  // entries of the spot the ghost is on, or the ghost would never move on.
  const here = cur ? cellsKey(cur.cells) : null;
  const after = (j) => (j + dir + acts.length) % acts.length;
  let k = after(i);
  while (here !== null && k !== i && cellsKey(acts[k].cells) === here) k = after(k);
  const next = acts[k];
  const o = orientationFor(shape, next.cells);
  if (!o) {
    // Squares the printed shape cannot cover (extra body, free shape): the ghost takes them.
    s.freeCells = next.cells.map(([r, c]) => [r, c]);
    return true;
  }
  s.freeCells = null;
  s.rot = o.rot;
  s.mirrored = o.mirrored;
  s.anchor = o.anchor;
  return true;
}

/** Whether the newest placement should still be highlighted. */
export function highlightActive(s, now = Date.now(), ms = 2500) {
  return !!s.lastPlaced && now - s.lastPlaced.at < ms;
}

/** Append log lines, skipping ones already shown (polling and the socket may repeat them). */
export function addLog(s, entries, max = 300) {
  const seen = new Set(s.log.map((e) => `${e.seq}|${e.text}`));
  for (const e of entries) {
    const key = `${e.seq}|${e.text}`;
    if (!seen.has(key)) {
      s.log.push(e);
      seen.add(key);
    }
  }
  if (s.log.length > max) s.log.splice(0, s.log.length - max);
}

/** Append one chat message, keeping the last `max`. */
export function addChat(s, msg, max = 200) {
  // A reconnect replays recent lines in `chat_history`: ids only grow, so skip ones we have.
  if (msg.id != null && s.chat.some((m) => m.id === msg.id)) return;
  s.chat.push(msg);
  if (s.chat.length > max) s.chat.splice(0, s.chat.length - max);
}

// Short names of what a player can switch on before placing, for the ghost's caption and the
// panel (wording only: whether one is on comes from the view's turn).
const ACTIVE_WORDS = ["ancestral", "no_cost", "triple_gold", "extra_body", "free_shape", "contact_gold", "same_deck"];

/**
 * What the seat to act switched on this turn (the Ancestral head, treasures' effects), as
 * [{key, short, text}]: read from the view's turn, so spectators see it too.
 */
export function activeNow(s) {
  const turn = viewOf(s)?.turn;
  if (!turn || viewOf(s).over) return [];
  const keys = [...(turn.ancestral ? ["ancestral"] : []), ...(turn.effects ?? [])];
  return keys.map((key) => {
    const known = ACTIVE_WORDS.includes(key) && hasKey(`active.${key}.short`);
    const short = known ? t(`active.${key}.short`) : key.replace(/_/g, " ");
    const text = known ? t(`active.${key}.text`) : "";
    return { key, short, text };
  });
}

/**
 * The `take_back` action (undo the head or treasure just switched on) when the engine offers it
 * to me, or null. It is an undo, not a move, so the engine says so in the view's
 * `turn.take_back` (what it would undo) rather than in legal_actions; only the seat to act,
 * while it has a decision, may send it.
 */
export function takeBackAction(s) {
  const listed = legalOf(s).find((a) => a.type === "take_back");
  if (listed) return listed;
  const t = viewOf(s)?.turn;
  return t?.take_back && t.seat === s.seat && isMyTurn(s) ? { type: "take_back" } : null;
}
