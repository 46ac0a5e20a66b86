// Card faces shared by the panels and the decisions: a Pattern card with its shape, and a small
// preview of any card a log line names.

import { codePieces, deckOf, patternName, shapeOf, shipCount } from "../lib/cards.mjs";
import { fill, h, shapeMini, shipChip } from "./dom.mjs";

/** A Pattern card face: its id and shape, in its deck's colour. */
export function patternCard(content, card, attrs = {}) {
  const shape = shapeOf(content, card);
  const deck = deckOf(card);
  return h(
    `button.card.pattern.deck-${deck}`,
    { type: "button", title: patternName(card), dataset: { key: `card-${card}`, card }, ...attrs },
    shape ? shapeMini(shape, deck, attrs.class?.includes("mini") ? 8 : 12) : null,
    h("span.card-id", {}, card),
  );
}

/** The ships a mission asks for, as tokens ("any" slots striped). */
export function missionNeeds(content, id) {
  const m = content?.missions?.[id];
  if (!m) return [];
  return Object.entries(m.ships).map(([c, n]) => h("span.need", { title: shipCount(c, n) }, Array.from({ length: n }, () => shipChip(c))));
}

/** What a card code previews: a Pattern card's shape, a mission's ships, or its text. */
function peekBody(content, code, kind) {
  if (kind === "pattern") {
    const shape = shapeOf(content, code);
    return shape ? shapeMini(shape, deckOf(code), 10) : null;
  }
  if (kind === "mission") return h("span.needs", {}, missionNeeds(content, code));
  return null;
}

/** Text with its card codes marked (data-code); installCardPeek shows each card on hover. */
export function withCodes(content, text) {
  return codePieces(content, text).map((p) =>
    typeof p === "string" ? p : h(`span.code.code-${p.kind}`, { title: p.text, dataset: { code: p.code, kind: p.kind } }, p.code),
  );
}

/**
 * One floating preview for every card code on the page (log, replay): shown beside the code
 * under the pointer. It lives on <body> with fixed coordinates, so a scrolling log never clips
 * it. `content()` gives the card data (loaded after start-up).
 */
export function installCardPeek(content) {
  const box = h("div.card-peek", { role: "tooltip", hidden: true });
  document.body.append(box);
  let shown = null;
  document.addEventListener("mouseover", (e) => {
    const code = e.target.closest?.(".code[data-code]");
    if (code === shown) return;
    shown = code;
    if (!code) {
      box.hidden = true;
      return;
    }
    const { code: id, kind } = code.dataset;
    fill(box, h("b", {}, id), peekBody(content(), id, kind), h("small", {}, code.title));
    box.hidden = false;
    const r = code.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    const above = r.top - b.height - 6;
    box.style.top = `${above >= 4 ? above : r.bottom + 6}px`;
    box.style.left = `${Math.max(4, Math.min(r.left, window.innerWidth - b.width - 4))}px`;
  });
}
