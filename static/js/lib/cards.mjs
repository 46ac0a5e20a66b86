// Card and action wording from the static content (/content.json) and the view. Pure; no DOM.
// Anything the client does not know (a future card kind, a new action type) falls back to a
// readable form of its JSON, so new server features stay usable before the client learns them.
// Words come from the reader's catalogue (lib/i18n.mjs); codes and protocol values stay as sent.

import { hasKey, t, tn } from "./i18n.mjs";

export const DECK_NAMES = { S: t("deck.S"), M: t("deck.M"), L: t("deck.L") };
export const SHIP_COLOURS = ["green", "purple", "red", "blue"];
export const SHIP_NAMES = Object.fromEntries(["green", "purple", "red", "blue", "any"].map((c) => [c, t(`cards.ship_name.${c}`)]));
export const PLAYER_COLOURS = ["orange", "green", "purple", "pink", "yellow"];
export const REALMS = ["starfish", "conch", "seahorse", "turtle"];

const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** "2 green", "1 dark blue": a count of ships of one colour (the adjective agrees in Spanish). */
export function shipCount(colour, n) {
  return hasKey(`cards.ship_count.${colour}.other`) ? tn(`cards.ship_count.${colour}`, n) : `${n} ${colour}`;
}

/** A realm's name ("Starfish"); an unknown realm keeps its code. */
export function realmName(realm) {
  return hasKey(`realm.${realm}`) ? t(`realm.${realm}`) : cap(realm);
}

/** A Reward Board track's colour as a word ("green"; agreeing with "tail" in Spanish). */
export function trackName(track) {
  return hasKey(`track.${track}`) ? t(`track.${track}`) : track;
}

/** A ship colour code as the log words it ("blue"). */
function shipWord(colour) {
  return hasKey(`ship.${colour}`) ? t(`ship.${colour}`) : colour;
}

/** The pattern shape ([row, col] squares) of a card id, or null when unknown. */
export function shapeOf(content, card) {
  const name = content?.pattern_shape?.[card];
  return name ? content.shapes[name] : null;
}

/** "S" | "M" | "L" for a Pattern card id (its first letter, as R-16 numbers them). */
export function deckOf(card) {
  return typeof card === "string" ? card[0] : "?";
}

/** Mission text: the ships it needs and its rewards. */
export function missionText(content, id) {
  const m = content?.missions?.[id];
  if (!m) return id;
  const ships = Object.entries(m.ships)
    .map(([col, n]) => shipCount(col, n))
    .join(" + ");
  return t(m.reef ? "cards.mission_text_reef" : "cards.mission_text", { ships, vp: m.vp });
}

/** A Reef card's effect in a few words. */
export function reefText(content, id) {
  const r = content?.reefs?.[id];
  if (!r) return id;
  switch (r.kind) {
    case "two_ships":
      return t("cards.reef.two_ships", { ships: r.ships.map((s) => SHIP_NAMES[s] ?? s).join(" + ") });
    case "wild_ship":
      return t("cards.reef.wild_ship");
    case "hidden_dragon":
      return t("cards.reef.hidden_dragon", { realm: realmName(r.realm) });
    case "gold":
      return t("cards.reef.gold", { gold: r.gold || 4 });
    case "advance_tails":
      return t("cards.reef.advance_tails", { tracks: r.tracks.map(trackName).join(", ") });
    case "advance_tail_gold":
      return t("cards.reef.advance_tail_gold", { track: trackName(r.tracks[0]), gold: r.gold });
    default:
      return `${id} (${r.kind.replace(/_/g, " ")})`;
  }
}

// Hidden Treasure effects (expansion rulebook), by the engine's effect names.
export const TREASURE_TEXT = Object.fromEntries(
  ["reef4", "no_cost", "triple_gold", "extra_body", "free_shape", "convert", "contact_gold", "same_deck", "any_tail", "two_missions"].map((e) => [
    e,
    t(`cards.treasure.${e}`),
  ]),
);

/** A Hidden Treasure card's effect in a few words. */
export function treasureText(content, id) {
  const effect = content?.treasures?.[id];
  return effect ? TREASURE_TEXT[effect] ?? effect.replace(/_/g, " ") : id;
}

function sourceText(src) {
  if (!src) return t("cards.nothing");
  if (src.source === "market" || src.card) return src.card;
  return t("cards.deck_top", { deck: DECK_NAMES[src.deck] ?? src.deck });
}

function paymentText(a) {
  const parts = Object.entries(a.tokens ?? {}).map(([c, n]) => shipCount(c, n));
  for (const c of a.cards ?? []) parts.push(c);
  return parts.length ? parts.join(" + ") : t("cards.nothing");
}

/** A readable label for any action object; unknown types are labelled from their JSON. */
export function actionLabel(content, a) {
  switch (a.type) {
    case "place":
      return t("cards.action.place", { card: a.card });
    case "mission":
      return t("cards.action.mission", { mission: a.mission, payment: paymentText(a) });
    case "draw":
      return t("cards.action.draw", { source: sourceText(a) });
    case "pass":
      return a.discard
        ? t("cards.action.pass", { card: a.discard, source: sourceText(a.draw) })
        : t("cards.action.pass_no_discard", { source: sourceText(a.draw) });
    case "end_turn":
      return t("cards.action.end_turn");
    case "cash_gold":
      return t("cards.action.cash_gold", { card: a.card });
    case "keep_reef":
      return t("cards.action.keep", { card: a.card, text: reefText(content, a.card) });
    case "keep_treasure":
      return t("cards.action.keep", { card: a.card, text: treasureText(content, a.card) });
    case "choose_tail":
      return t("cards.action.choose_tail", { track: trackName(a.track) });
    case "play_reef":
      return a.tracks?.length
        ? t("cards.action.play_reef_tracks", { card: a.card, tracks: a.tracks.map(trackName).join(", ") })
        : t("cards.action.play_reef", { card: a.card });
    case "use_treasure": {
      const text = treasureText(content, a.card);
      return a.convert
        ? t("cards.action.use_treasure_convert", { card: a.card, text, from: shipWord(a.convert[0]), to: shipWord(a.convert[1]) })
        : t("cards.action.use_treasure", { card: a.card, text });
    }
    case "use_ancestral":
      return t("cards.action.use_ancestral");
    case "draw_reefs":
      return t("cards.action.draw_reefs");
    case "decline":
      return t("cards.action.decline");
    case "take_back":
      return t("cards.action.take_back");
    default:
      return genericLabel(a);
  }
}

/** "Some thing: key value, ..." from an action's JSON (for types the client does not know). */
export function genericLabel(a) {
  const type = String(a.type ?? "action").replace(/_/g, " ");
  const rest = Object.entries(a)
    .filter(([k]) => k !== "type")
    .map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  return cap(type) + (rest.length ? ` (${rest.join(", ")})` : "");
}

/** Group key for the action panel: where a button belongs. */
export function actionGroup(a) {
  if (["mission"].includes(a.type)) return "missions";
  if (["draw", "end_turn"].includes(a.type)) return "draw";
  if (a.type === "pass") return "pass";
  if (["keep_reef", "keep_treasure", "choose_tail", "decline"].includes(a.type)) return "choice";
  if (a.type === "place") return "place";
  return "other";
}

/** Words for a turn phase. */
/**
 * What the phase asks for. `canMission` (from the listed actions of the seat to act, or the
 * view's own flag) says whether a mission can be completed now: without one, the mission phase
 * is only a draw. Unknown (undefined: a spectator or another seat, whose view cannot say, as it
 * hangs on the Reef cards held) names the step without claiming a Mission is possible.
 */
export function phaseText(phase, canMission = undefined) {
  if (phase === "mission" && canMission === false) return t("phase.draw");
  if (phase === "mission" && canMission === undefined) return t("phase.mission_step");
  return ["place", "mission", "draw", "over"].includes(phase) ? t(`phase.${phase}`) : String(phase);
}

// Card codes as the log writes them: Pattern cards (S07, M30, L05), Missions (MS07), Reef cards
// (RF11), Hidden Treasures (HT03).
const CODE = /\b(MS|RF|HT|[SML])(\d{2})\b/g;

/** The kind of card a code names, or null when the content does not know it. */
export function codeKind(content, code) {
  if (content?.missions?.[code]) return "mission";
  if (content?.reefs?.[code]) return "reef";
  if (content?.treasures?.[code]) return "treasure";
  if (content?.pattern_shape?.[code]) return "pattern";
  return null;
}

/**
 * A text split around the card codes it names: strings and {code, kind, text} pieces, where
 * `text` describes the card (for a tooltip). Unknown codes stay plain text.
 */
export function codePieces(content, text) {
  const out = [];
  let last = 0;
  for (const m of String(text).matchAll(CODE)) {
    const code = m[0];
    const kind = codeKind(content, code);
    if (!kind) continue;
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push({ code, kind, text: cardText(content, kind, code) });
    last = m.index + code.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** A card's description by kind: what a tooltip or a preview says. */
export function cardText(content, kind, code) {
  if (kind === "mission") return t("cards.text.mission", { code, text: missionText(content, code) });
  if (kind === "reef") return t("cards.text.reef", { code, text: reefText(content, code) });
  if (kind === "treasure") return t("cards.text.treasure", { code, text: treasureText(content, code) });
  if (kind === "pattern") return patternText(code, shapeOf(content, code)?.length ?? "?");
  return code;
}

/** "Medium Pattern card M30 (4 squares)". */
export function patternText(code, squares) {
  const deck = deckOf(code);
  return t(DECK_NAMES[deck] ? `cards.text.pattern.${deck}` : "cards.text.pattern", { code, n: squares });
}

/** "Medium Pattern card M30": a Pattern card's name, with its deck. */
export function patternName(code) {
  const deck = deckOf(code);
  return t(DECK_NAMES[deck] ? `cards.name.pattern.${deck}` : "cards.name.pattern", { code });
}
