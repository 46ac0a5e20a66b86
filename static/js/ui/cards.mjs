// Card faces shared by the panels and the decisions: a Pattern card with its shape, and a small
// preview of any card a log line names.

import { DECK_NAMES, SHIP_NAMES, codePieces, deckOf, shapeOf } from "../lib/cards.mjs";
import { h, shapeMini, shipChip } from "./dom.mjs";

/** A Pattern card face: its id and shape, in its deck's colour. */
export function patternCard(content, card, attrs = {}) {
  const shape = shapeOf(content, card);
  const deck = deckOf(card);
  return h(
    `button.card.pattern.deck-${deck}`,
    { type: "button", title: `${DECK_NAMES[deck] ?? ""} Pattern card ${card}`, dataset: { key: `card-${card}`, card }, ...attrs },
    shape ? shapeMini(shape, deck, attrs.class?.includes("mini") ? 8 : 12) : null,
    h("span.card-id", {}, card),
  );
}

/** The ships a mission asks for, as tokens ("any" slots striped). */
export function missionNeeds(content, id) {
  const m = content?.missions?.[id];
  if (!m) return [];
  return Object.entries(m.ships).map(([c, n]) => h("span.need", { title: `${n} ${SHIP_NAMES[c]}` }, Array.from({ length: n }, () => shipChip(c))));
}

/** What a card code previews on hover: a Pattern card's shape, a mission's ships. */
function peek(content, piece) {
  if (piece.kind === "pattern") {
    const shape = shapeOf(content, piece.code);
    return shape ? h("span.peek", { "aria-hidden": "true" }, shapeMini(shape, deckOf(piece.code), 9)) : null;
  }
  if (piece.kind === "mission") return h("span.peek", { "aria-hidden": "true" }, missionNeeds(content, piece.code));
  return h("span.peek.peek-text", { "aria-hidden": "true" }, piece.text);
}

/** Text with its card codes marked: each shows what the card is on hover (and in its title). */
export function withCodes(content, text) {
  return codePieces(content, text).map((p) =>
    typeof p === "string" ? p : h(`span.code.code-${p.kind}`, { title: p.text, dataset: { code: p.code } }, p.code, peek(content, p)),
  );
}
