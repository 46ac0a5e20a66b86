// When the table makes a sound, which one, and whether it may: pure decisions (no DOM, no audio),
// so Node tests them. ui/sound.mjs plays them with the Web Audio API; ui/tablecues.mjs feeds it.

/** The cues, the most important first: when several fall due together only the first sounds. */
export const CUE_ORDER = ["end", "your_turn", "chat", "move"];

/**
 * Each cue's notes, generated (no sound files): [frequency Hz, start s, length s, volume 0..1].
 * Short and soft: a rising pair for my turn, a single low tick for a move, a light double blip
 * for chat, a rising major chord for the end.
 */
export const TONES = {
  your_turn: [
    [660, 0, 0.12, 0.22],
    [880, 0.13, 0.2, 0.22],
  ],
  move: [[392, 0, 0.07, 0.12]],
  chat: [
    [988, 0, 0.05, 0.1],
    [1319, 0.07, 0.06, 0.1],
  ],
  end: [
    [523, 0, 0.16, 0.2],
    [659, 0.17, 0.16, 0.2],
    [784, 0.34, 0.36, 0.2],
  ],
};

/**
 * The cues a new document brings against the one before, each `{myTurn, over}` (the page's
 * reading of it); none for the first document: what was there already is no news.
 */
export function documentCues(before, after) {
  if (!before || !after) return [];
  if (after.over && !before.over) return ["end"];
  if (after.myTurn && !before.myTurn) return ["your_turn"];
  return [];
}

/** A log frame's cue: a move by another seat (my own moves are no news to me). */
export function logCue(frame, mySeat) {
  return typeof frame?.seat === "number" && frame.seat !== mySeat ? "move" : null;
}

/** Whether a chat line was said by someone else (a line of mine makes no sound, no mark). */
export function chatFromOther(line, myUserId) {
  return !(myUserId != null && line?.user_id === myUserId);
}

/** Of the cues due together, the one to play (null: none). */
export function strongest(cues) {
  return CUE_ORDER.find((c) => cues.includes(c)) ?? null;
}

/** The localStorage key of the sound switch: one for playing, one for watching. */
export function soundKey(watching) {
  return watching ? "seadragons.sound.watching" : "seadragons.sound";
}

/**
 * Whether sound is on: what this browser chose ("on" / "off"), else the default: on at my own
 * table, off on the watch pages (a spectator's table, /tv).
 */
export function soundOn(stored, watching) {
  if (stored === "on") return true;
  if (stored === "off") return false;
  return !watching;
}

/** Sound only once the page has had a user gesture: browsers refuse audio before one. */
export function mayPlay({ on, gestured }) {
  return !!on && !!gestured;
}

/** Unread chat lines after one more line: counted while the chat is out of sight. */
export function unreadAfter(unread, { fromOther, chatSeen }) {
  return fromOther && !chatSeen ? unread + 1 : unread;
}
