// Decisions on the pieces: completing a mission by its card with a payment chosen
// among the listed ones, passing as two small choices, advancing a tail by its track. Pure; no
// DOM. The client never builds an action: every function here picks one of the listed legal
// actions (st.legalOf), so what is sent is always exactly what the server offered.

import { legalOf } from "./state.mjs";

/** End-game VP a Reef card is worth while held, as the engine counts it (content.reefs[id].vp
 * from /content.json): what paying with it gives up. */
function cardWorth(content, id) {
  return content?.reefs?.[id]?.vp ?? 0;
}

/** Missions with at least one listed payment, in market order. */
export function completableMissions(legal) {
  return [...new Set(legal.filter((a) => a.type === "mission").map((a) => a.mission))];
}

/**
 * The listed payments for one mission, cheapest first: each is one `mission` action with the
 * ship tokens it returns (one colour per token) and the Reef cards it spends. "Cheapest" is the
 * fewest end-game VP given up (a token 1, a card its `vp` from the content), then the fewest pieces.
 */
export function missionPayments(legal, mission, content) {
  return legal
    .filter((a) => a.type === "mission" && a.mission === mission)
    .map((action, order) => {
      const tokens = Object.entries(action.tokens ?? {}).flatMap(([colour, n]) => Array.from({ length: n }, () => colour));
      const cards = [...(action.cards ?? [])];
      const cost = tokens.length + cards.reduce((sum, id) => sum + cardWorth(content, id), 0);
      return { action, tokens, cards, cost, order };
    })
    .sort((a, b) => a.cost - b.cost || a.tokens.length + a.cards.length - (b.tokens.length + b.cards.length) || a.order - b.order);
}

/** The distinct cards a pass may discard (null: an empty hand), in listed order. */
export function passDiscards(legal) {
  const seen = new Map();
  for (const a of legal) if (a.type === "pass" && !seen.has(a.discard ?? null)) seen.set(a.discard ?? null, true);
  return [...seen.keys()];
}

/** A stable key for a draw source: "deck:S", "card:S12", or "none". */
export function drawKey(src) {
  if (!src) return "none";
  return src.card ? `card:${src.card}` : `deck:${src.deck}`;
}

/** The draws a pass may take after discarding `discard`, as listed: [{key, source}]. */
export function passDraws(legal, discard) {
  const out = new Map();
  for (const a of legal) {
    if (a.type === "pass" && (a.discard ?? null) === (discard ?? null)) out.set(drawKey(a.draw), a.draw ?? null);
  }
  return [...out].map(([key, source]) => ({ key, source }));
}

/** The listed pass action for a discard and a draw key, or null. */
export function findPass(legal, discard, key) {
  return legal.find((a) => a.type === "pass" && (a.discard ?? null) === (discard ?? null) && drawKey(a.draw) === key) ?? null;
}

/** The tracks a pending tail choice offers (choose_tail actions), in listed order. */
export function tailChoices(legal) {
  return legal.filter((a) => a.type === "choose_tail").map((a) => a.track);
}

/**
 * The one listed action a card in my hand answers to (cash a Gold card, play a Coral Reef, use
 * a treasure), or null when it has none or several (those stay buttons of their own).
 */
export function handCardAction(legal, card) {
  const acts = legal.filter((a) => a.card === card && ["cash_gold", "play_reef", "use_treasure"].includes(a.type));
  return acts.length === 1 ? acts[0] : null;
}

/**
 * The one listed action when the seat to act has nothing to choose: a pending step whose only
 * answer is `decline` (the neutral step of R-58, held by a player without the treasure that
 * could answer it) or `choose_tail` with one track open. Null otherwise: a step with a real
 * choice, several actions, or a lone action of any other kind (a placement, a draw) stays the
 * player's to make. The page sends it for the player (pages/game.mjs), through the same road as
 * a click, so every frame the others receive is the one a click would have made.
 */
export function forcedStep(s) {
  const legal = legalOf(s);
  if (legal.length !== 1) return null;
  return FORCED_TYPES.includes(legal[0].type) ? legal[0] : null;
}
const FORCED_TYPES = ["decline", "choose_tail"];

// --- the open decision in the table state (s.decision) --------------------------------------

/** Open the payment chooser for a mission, the cheapest payment selected. */
export function openMission(s, mission) {
  if (!missionPayments(legalOf(s), mission, s.content).length) return false;
  s.decision = { kind: "mission", mission, pay: 0 };
  return true;
}

/** Select the `i`-th listed payment (in cheapest-first order) of the open mission. */
export function choosePayment(s, i) {
  if (s.decision?.kind !== "mission") return false;
  const n = missionPayments(legalOf(s), s.decision.mission, s.content).length;
  if (!(i >= 0 && i < n)) return false;
  s.decision.pay = i;
  return true;
}

/** The action the open mission chooser would send, or null. */
export function missionToSend(s) {
  if (s.decision?.kind !== "mission") return null;
  return missionPayments(legalOf(s), s.decision.mission, s.content)[s.decision.pay]?.action ?? null;
}

/** Open the pass chooser; a single possible discard (or draw) is chosen already. */
export function openPass(s) {
  const legal = legalOf(s);
  const discards = passDiscards(legal);
  if (!discards.length) return false;
  const discard = discards.length === 1 ? discards[0] : undefined;
  const draws = discard === undefined ? [] : passDraws(legal, discard);
  s.decision = { kind: "pass", discard, draw: draws.length === 1 ? draws[0].key : null };
  return true;
}

/** Pass: choose the card to discard (keeps the draw when it stays possible). */
export function passDiscard(s, card) {
  if (s.decision?.kind !== "pass" || !passDiscards(legalOf(s)).includes(card)) return false;
  s.decision.discard = card;
  if (!passDraws(legalOf(s), card).some((d) => d.key === s.decision.draw)) s.decision.draw = null;
  return true;
}

/** Pass: choose where to draw from (a key of passDraws). */
export function passDraw(s, key) {
  if (s.decision?.kind !== "pass" || s.decision.discard === undefined) return false;
  if (!passDraws(legalOf(s), s.decision.discard).some((d) => d.key === key)) return false;
  s.decision.draw = key;
  return true;
}

/** The pass action the chooser would send (both choices made), or null. */
export function passToSend(s) {
  const d = s.decision;
  if (d?.kind !== "pass" || d.discard === undefined || !d.draw) return null;
  return findPass(legalOf(s), d.discard, d.draw);
}

// --- the Convert treasure: one held ship becomes another colour, chosen on the tokens ---------

/** The listed conversions of one treasure card (use_treasure with `convert: [from, to]`). */
export function convertActions(legal, card) {
  return legal.filter((a) => a.type === "use_treasure" && Array.isArray(a.convert) && (card === undefined || a.card === card));
}

/** The treasure cards offering a conversion now, in listed order. */
export function convertCards(legal) {
  return [...new Set(convertActions(legal).map((a) => a.card))];
}

/** Open the conversion chooser for a treasure card (a single possible ship is chosen already). */
export function openConvert(s, card) {
  const acts = convertActions(legalOf(s), card);
  if (!acts.length) return false;
  const froms = [...new Set(acts.map((a) => a.convert[0]))];
  s.decision = { kind: "convert", card, from: froms.length === 1 ? froms[0] : null, to: null };
  return true;
}

/** The colours the open conversion may give up (`side` "from") or become, as listed. */
export function convertColours(s, side) {
  const d = s.decision;
  if (d?.kind !== "convert") return [];
  const acts = convertActions(legalOf(s), d.card);
  if (side === "from") return [...new Set(acts.map((a) => a.convert[0]))];
  return [...new Set(acts.filter((a) => a.convert[0] === d.from).map((a) => a.convert[1]))];
}

/** Choose the ship to give up or the colour it becomes; a choice no longer listed is dropped. */
export function convertPick(s, side, colour) {
  const d = s.decision;
  if (d?.kind !== "convert" || !convertColours(s, side).includes(colour)) return false;
  d[side] = colour;
  if (side === "from" && !convertColours(s, "to").includes(d.to)) d.to = null;
  return true;
}

/** The listed conversion the chooser would send (both colours chosen), or null. */
export function convertToSend(s) {
  const d = s.decision;
  if (d?.kind !== "convert" || !d.from || !d.to) return null;
  return convertActions(legalOf(s), d.card).find((a) => a.convert[0] === d.from && a.convert[1] === d.to) ?? null;
}

/** Close the open decision. */
export function closeDecision(s) {
  s.decision = null;
}

/** After a new document: drop an open decision the listed actions no longer allow. */
export function reconcileDecision(s) {
  const d = s.decision;
  if (!d) return;
  const legal = legalOf(s);
  if (d.kind === "mission") {
    const n = missionPayments(legal, d.mission, s.content).length;
    if (!n) s.decision = null;
    else if (d.pay >= n) d.pay = 0;
  } else if (d.kind === "convert") {
    if (!convertActions(legal, d.card).length) s.decision = null;
    else if (d.from && !convertColours(s, "from").includes(d.from)) Object.assign(d, { from: null, to: null });
    else if (d.to && !convertToSend(s)) d.to = null;
  } else if (d.kind === "pass") {
    const discards = passDiscards(legal);
    if (!discards.length) s.decision = null;
    else if (d.discard !== undefined && !discards.includes(d.discard)) openPass(s);
    else if (d.draw && !findPass(legal, d.discard, d.draw)) d.draw = null;
  }
}
