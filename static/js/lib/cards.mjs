// Card and action wording from the static content (/content.json) and the view. Pure; no DOM.
// Anything the client does not know (a future card kind, a new action type) falls back to a
// readable form of its JSON, so new server features stay usable before the client learns them.

export const DECK_NAMES = { S: "Small", M: "Medium", L: "Large" };
export const SHIP_COLOURS = ["green", "purple", "red", "blue"];
export const SHIP_NAMES = { green: "green", purple: "purple", red: "red", blue: "dark blue", any: "any colour" };
export const PLAYER_COLOURS = ["orange", "green", "purple", "pink", "yellow"];
export const REALMS = ["starfish", "conch", "seahorse", "turtle"];

const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

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
    .map(([col, n]) => `${n} ${SHIP_NAMES[col] ?? col}`)
    .join(" + ");
  return `${ships}: ${m.vp} VP${m.reef ? ", 1 Reef draw" : ""}`;
}

/** A Reef card's effect in a few words. */
export function reefText(content, id) {
  const r = content?.reefs?.[id];
  if (!r) return id;
  switch (r.kind) {
    case "two_ships":
      return `Two ships: ${r.ships.map((s) => SHIP_NAMES[s]).join(" + ")}`;
    case "wild_ship":
      return "Ship wild (any colour)";
    case "hidden_dragon":
      return `Hidden Dragon in ${cap(r.realm)}`;
    case "gold":
      return `Gold card (${r.gold || 4} Gold)`;
    case "advance_tails":
      return `Advance tails: ${r.tracks.join(", ")}`;
    case "advance_tail_gold":
      return `Advance ${r.tracks[0]} tail, +${r.gold} Gold`;
    default:
      return `${id} (${r.kind.replace(/_/g, " ")})`;
  }
}

// Hidden Treasure effects (expansion rulebook), by the engine's effect names.
export const TREASURE_TEXT = {
  reef4: "Draw 4 Reef cards, keep 1",
  no_cost: "No Gold cost for Whirlpools and Currents this turn",
  triple_gold: "Triple Gold from Gold spaces this turn",
  extra_body: "One extra Dragon body this turn",
  free_shape: "Any connected shape of the card's size",
  convert: "Convert a ship to another colour for a mission",
  contact_gold: "2 Gold per Dragon your new Dragon touches",
  same_deck: "Draw from the same deck you played",
  any_tail: "Advance any tail for each ship",
  two_missions: "Complete two missions this turn",
};

/** A Hidden Treasure card's effect in a few words. */
export function treasureText(content, id) {
  const effect = content?.treasures?.[id];
  return effect ? TREASURE_TEXT[effect] ?? effect.replace(/_/g, " ") : id;
}

function sourceText(src) {
  if (!src) return "nothing";
  if (src.source === "market" || src.card) return src.card;
  return `top of the ${DECK_NAMES[src.deck] ?? src.deck} deck`;
}

function paymentText(a) {
  const parts = Object.entries(a.tokens ?? {}).map(([c, n]) => `${n} ${SHIP_NAMES[c] ?? c}`);
  for (const c of a.cards ?? []) parts.push(c);
  return parts.length ? parts.join(" + ") : "nothing";
}

/** A readable label for any action object; unknown types are labelled from their JSON. */
export function actionLabel(content, a) {
  switch (a.type) {
    case "place":
      return `Place ${a.card}`;
    case "mission":
      return `Complete ${a.mission}, paying ${paymentText(a)}`;
    case "draw":
      return `Draw ${sourceText(a)}`;
    case "pass":
      return `Pass: discard ${a.discard ?? "nothing"}, draw ${sourceText(a.draw)}`;
    case "end_turn":
      return "End turn";
    case "cash_gold":
      return `Cash ${a.card} for 4 Gold`;
    case "keep_reef":
      return `Keep ${a.card}: ${reefText(content, a.card)}`;
    case "keep_treasure":
      return `Keep ${a.card}: ${treasureText(content, a.card)}`;
    case "choose_tail":
      return `Advance the ${a.track} tail`;
    case "play_reef":
      return `Play ${a.card}${a.tracks?.length ? ` (${a.tracks.join(", ")})` : ""}`;
    case "use_treasure":
      return `Use ${a.card} (${treasureText(content, a.card)})${a.convert ? `: ${a.convert.join(" to ")}` : ""}`;
    case "use_ancestral":
      return "Use the Ancestral head";
    case "draw_reefs":
      return "Draw Reef cards";
    case "decline":
      return "Decline (use no treasure)";
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
 * is only a draw. Unknown (undefined) keeps both.
 */
export function phaseText(phase, canMission = undefined) {
  if (phase === "mission" && canMission === false) return "draw a Pattern card";
  return (
    { place: "place a Dragon or pass", mission: "complete a mission or draw", draw: "draw a Pattern card", over: "game over" }[
      phase
    ] ?? String(phase)
  );
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
  if (kind === "mission") return `Mission ${code}: ${missionText(content, code)}`;
  if (kind === "reef") return `Reef card ${code}: ${reefText(content, code)}`;
  if (kind === "treasure") return `Hidden Treasure ${code}: ${treasureText(content, code)}`;
  if (kind === "pattern") return `${DECK_NAMES[deckOf(code)] ?? ""} Pattern card ${code} (${shapeOf(content, code)?.length ?? "?"} squares)`;
  return code;
}
