// Decisions drawn as the pieces they are about: mission cards to click, payments
// as ship tokens and Reef cards, draws as cards and decks, the pass as a discard and a draw,
// kept cards as card faces, a tail by its track on the Reward Board. Every control is a button
// (keyboard: Tab and Enter), and each sends only a listed action (lib/decisions.mjs).

import { DECK_NAMES, deckOf, missionText, reefText, treasureText } from "../lib/cards.mjs";
import * as dec from "../lib/decisions.mjs";
import * as st from "../lib/state.mjs";
import { h, shipChip } from "./dom.mjs";
import { missionNeeds, patternCard } from "./cards.mjs";
import { rewardBoard } from "./reward.mjs";

/** "tap" on a touch screen (the last input was a finger), else "click". */
const clickWord = (ctl) => (ctl.touch?.() ? "tap" : "click");

/** A Reef card spent in a payment, drawn with the ships it stands for. */
function reefToken(content, id) {
  const r = content?.reefs?.[id];
  const ships = r?.kind === "two_ships" ? r.ships.map((c) => shipChip(c)) : r?.kind === "wild_ship" ? [shipChip("any")] : [];
  return h("span.reef-token", { title: `${id}: ${reefText(content, id)}` }, h("b", {}, id), ships);
}

/** A mission as a small card button: its id, VP and needs. */
export function missionButton(s, id, attrs = {}) {
  const m = s.content?.missions?.[id];
  const picked = s.decision?.kind === "mission" && s.decision.mission === id;
  return h(
    `button.card.mission.mini${picked ? ".picked" : ""}`,
    { type: "button", title: `Complete ${id}: ${missionText(s.content, id)}`, "aria-pressed": String(picked), dataset: { key: `mission-${id}`, mission: id }, ...attrs },
    h("span.mission-head", {}, h("span.card-id", {}, id), m ? h("b.vp", {}, `${m.vp} VP`) : null),
    h("span.needs", {}, missionNeeds(s.content, id)),
  );
}

/** Complete a mission: the completable cards, then the open one's payments and a confirm. */
export function missionChoices(s, ctl) {
  const legal = st.legalOf(s);
  const ids = dec.completableMissions(legal);
  if (!ids.length) return null;
  const open = s.decision?.kind === "mission" ? s.decision : null;
  const cards = h("div.mini-cards", {}, ids.map((id) => missionButton(s, id, { disabled: s.pending, onclick: () => ctl.openMission(id) })));
  const head = h("h4", {}, "Complete a mission ", h("small.muted", {}, open ? "" : `· ${clickWord(ctl)} one (or draw below to skip)`));
  if (!open) return h("div.group.missions-group", {}, head, cards);
  const m = s.content?.missions?.[open.mission];
  const pays = dec.missionPayments(legal, open.mission, s.content);
  const rows = pays.map((p, i) =>
    h(
      `button.payment${i === open.pay ? ".chosen" : ""}`,
      { type: "button", "aria-pressed": String(i === open.pay), disabled: s.pending, onclick: () => ctl.choosePayment(i), dataset: { key: `pay-${i}`, action: JSON.stringify(p.action) }, title: `Pay with ${p.tokens.length} ship token(s)${p.cards.length ? ` and ${p.cards.join(", ")}` : ""}` },
      h("span.pay-pieces", {}, p.tokens.map((c) => shipChip(c)), p.cards.map((id) => reefToken(s.content, id))),
      h("small.muted", {}, i === 0 ? `cheapest · ${p.cost} VP of ships` : `${p.cost} VP of ships`),
    ),
  );
  const chooser = h(
    "div.chooser",
    { role: "group", "aria-label": `Pay for ${open.mission}` },
    h("p.chooser-title", {}, h("b", {}, `Complete ${open.mission}`), m ? ` · ${m.vp} VP${m.reef ? " + a Reef draw" : ""}` : ""),
    h("small.muted", {}, pays.length > 1 ? `Pay with (${pays.length} ways; ${clickWord(ctl)} one to swap):` : "Pay with:"),
    h("div.payments", {}, rows),
    h(
      "div.buttons",
      {},
      h("button.primary.act-mission", { type: "button", disabled: s.pending || !dec.missionToSend(s), onclick: ctl.sendDecision, dataset: { key: "mission-confirm" } }, `Complete ${open.mission}`),
      h("button.ghost-btn", { type: "button", onclick: ctl.closeDecision, dataset: { key: "mission-cancel" } }, "Cancel"),
    ),
  );
  return h("div.group.missions-group", {}, head, cards, chooser);
}

/** A draw source as a card: a face-up Pattern card, or a deck's back with its size. */
function sourceCard(s, src, attrs) {
  const view = st.viewOf(s);
  if (src?.card) return patternCard(s.content, src.card, { ...attrs, class: `card pattern mini deck-${deckOf(src.card)} ${attrs.class ?? ""}` });
  const d = src?.deck;
  return h(
    "button",
    { type: "button", title: `Top of the ${DECK_NAMES[d]} deck`, ...attrs, class: `card deck-back mini deck-${d} ${attrs.class ?? ""}` },
    h("span", {}, DECK_NAMES[d] ?? "?"),
    h("b", {}, view?.deck_sizes?.[d] ?? 0),
  );
}

/** Draw sources in table order: each deck (S, M, L), its face-down top first, then its face-up cards. */
function tableOrder(src) {
  const d = src?.card ? deckOf(src.card) : src?.deck;
  return "SML".indexOf(d) * 2 + (src?.card ? 1 : 0);
}

/** Draw a Pattern card: the listed draws as cards (or "End turn" when nothing can be drawn). */
export function drawChoices(s, ctl) {
  const legal = st.legalOf(s);
  const draws = legal.filter((a) => a.type === "draw").sort((a, b) => tableOrder(a) - tableOrder(b));
  const end = legal.find((a) => a.type === "end_turn");
  if (!draws.length && !end) return null;
  const turn = st.viewOf(s)?.turn;
  const played = turn?.played_deck;
  // Which decks are open is the engine's (the view's draw_decks, else the listed draws), never
  // guessed: with the same-deck treasure the deck just played is among them.
  const openDecks = turn?.draw_decks ?? draws.map((a) => (a.card ? deckOf(a.card) : a.deck));
  const sameDeckOpen = !!played && openDecks.includes(played);
  const cards = draws.map((a) =>
    sourceCard(s, a, { disabled: s.pending, onclick: () => ctl.act(a), class: "can act-draw", dataset: { key: `draw-${dec.drawKey(a.card ? { card: a.card } : a)}`, action: JSON.stringify(a) } }),
  );
  return h(
    "div.group.draw-group",
    {},
    h("h4", {}, "Draw a Pattern card", played ? h("small.muted.deck-note", {}, sameDeckOpen ? ` · the ${DECK_NAMES[played]} deck you played is open too${turn.effects?.includes("same_deck") ? " (your treasure)" : ""}` : ` · not from the ${DECK_NAMES[played]} deck you played`) : null),
    cards.length ? h("div.mini-cards", {}, cards) : null,
    end ? h("button.act-end_turn", { type: "button", disabled: s.pending, onclick: () => ctl.act(end), dataset: { key: "end-turn" } }, "End turn (nothing to draw)") : null,
  );
}

/** Pass: closed, one button; open, the discard and the draw as cards, then a confirm. */
export function passChoices(s, ctl) {
  const legal = st.legalOf(s);
  const discards = dec.passDiscards(legal);
  if (!discards.length) return null;
  const open = s.decision?.kind === "pass" ? s.decision : null;
  if (!open) {
    return h(
      "div.group.pass-group",
      {},
      h("button.pass-open", { type: "button", disabled: s.pending, onclick: ctl.openPass, dataset: { key: "pass-open" } }, "Pass instead…"),
      h("small.muted", {}, " return a head, discard a card, draw one, +2 Gold"),
    );
  }
  const discardCards = discards.map((c) =>
    c === null
      ? h("button.pass-discard", { type: "button", "aria-pressed": String(open.discard === null), onclick: () => ctl.passDiscard(null), dataset: { key: "discard-none" } }, "nothing")
      : patternCard(s.content, c, { class: `card pattern mini pass-discard deck-${deckOf(c)}${open.discard === c ? " selected" : ""}`, "aria-pressed": String(open.discard === c), onclick: () => ctl.passDiscard(c), dataset: { key: `discard-${c}`, card: c } }),
  );
  const draws = open.discard === undefined ? [] : dec.passDraws(legal, open.discard).sort((a, b) => tableOrder(a.source) - tableOrder(b.source));
  const drawCards = draws.map(({ key, source }) =>
    source
      ? sourceCard(s, source, { class: `pass-draw${open.draw === key ? " selected" : ""}`, "aria-pressed": String(open.draw === key), onclick: () => ctl.passDraw(key), dataset: { key: `pass-draw-${key}`, draw: key } })
      : h("button.pass-draw", { type: "button", "aria-pressed": String(open.draw === key), onclick: () => ctl.passDraw(key), dataset: { key: "pass-draw-none", draw: key } }, "nothing to draw"),
  );
  const a = dec.passToSend(s);
  const label = a ? `Pass: discard ${a.discard ?? "nothing"}, draw ${a.draw?.card ?? (a.draw ? `from the ${DECK_NAMES[a.draw.deck]} deck` : "nothing")}` : "Pass";
  return h(
    "div.group.pass-group.chooser",
    { role: "group", "aria-label": "Pass" },
    h("p.chooser-title", {}, h("b", {}, "Pass"), " · return a head and take 2 Gold"),
    h("small.muted", {}, `1. Discard (or ${clickWord(ctl)} a card in your hand)`),
    h("div.mini-cards", {}, discardCards),
    h("small.muted", {}, "2. Draw"),
    draws.length ? h("div.mini-cards", {}, drawCards) : h("p.muted.small", {}, "Choose the card to discard first."),
    h(
      "div.buttons",
      {},
      h("button.primary.act-pass", { type: "button", disabled: s.pending || !a, onclick: ctl.sendDecision, dataset: { key: "pass-confirm", action: a ? JSON.stringify(a) : "" } }, label),
      h("button.ghost-btn", { type: "button", onclick: ctl.closeDecision, dataset: { key: "pass-cancel" } }, "Cancel"),
    ),
  );
}

const TAIL_REASONS = { blue_ship: "for the dark blue ship you took", any_tail: "with your Hidden Treasure" };

/** A choice only you can make now: keep a Reef card or a treasure, or advance a tail. */
export function pickChoices(s, ctl, names) {
  const legal = st.legalOf(s);
  const view = st.viewOf(s);
  const keepReef = legal.filter((a) => a.type === "keep_reef");
  const keepTreasure = legal.filter((a) => a.type === "keep_treasure");
  const tails = dec.tailChoices(legal);
  const decline = legal.find((a) => a.type === "decline");
  const parts = [];
  if (keepReef.length) {
    parts.push(
      h("h4", {}, "Keep one Reef card"),
      h("div.mini-cards", {}, keepReef.map((a) =>
        h("button.card.reef-card.act-keep_reef", { type: "button", disabled: s.pending, onclick: () => ctl.act(a), dataset: { key: `keep-${a.card}`, card: a.card }, title: `Keep ${a.card}` }, h("span.card-id", {}, a.card), h("small", {}, reefText(s.content, a.card))),
      )),
    );
  }
  if (keepTreasure.length) {
    parts.push(
      h("h4", {}, "Keep one Hidden Treasure"),
      h("div.mini-cards", {}, keepTreasure.map((a) =>
        h("button.card.treasure-card.act-keep_treasure", { type: "button", disabled: s.pending, onclick: () => ctl.act(a), dataset: { key: `keep-${a.card}`, card: a.card }, title: `Keep ${a.card}` }, h("span.card-id", {}, a.card), h("small", {}, treasureText(s.content, a.card))),
      )),
    );
  }
  if (tails.length === 1) {
    // Only one track can move: nothing to choose, one button to go on.
    const reason = TAIL_REASONS[view?.pending?.[0]?.reason] ?? "";
    const a = legal.find((x) => x.type === "choose_tail");
    parts.push(
      h("h4", {}, `Your ${a.track} tail advances `, h("small.muted", {}, `${reason} · the only track that can move`)),
      h("div.buttons", {}, h("button.primary.act-choose_tail", { type: "button", disabled: s.pending, onclick: () => ctl.act(a), dataset: { key: `tail-${a.track}`, action: JSON.stringify(a) } }, `Advance the ${a.track} tail`)),
    );
  } else if (tails.length) {
    const reason = TAIL_REASONS[view?.pending?.[0]?.reason] ?? "";
    const choose = Object.fromEntries(legal.filter((a) => a.type === "choose_tail").map((a) => [a.track, () => ctl.act(a)]));
    parts.push(
      h("h4", {}, `Advance which tail? `, h("small.muted", {}, `${reason} · ${clickWord(ctl)} its track`)),
      h("div.reward.in-decision", {}, rewardBoard(view, names, s.content, { choose, disabled: s.pending, seat: s.seat })),
    );
  }
  if (decline) {
    // A treasure may answer this choice (draw four Reef cards, or advance any tail): use or not.
    // Going on is the first choice; a treasure that may answer is offered second, and only
    // when one is held (the neutral step of R-58 is then just "Continue").
    const uses = legal.filter((a) => a.type === "use_treasure");
    parts.push(
      uses.length ? h("h4", {}, "Go on, or use a Hidden Treasure now?") : null,
      h(
        "div.buttons",
        {},
        h("button.primary.act-decline", { type: "button", disabled: s.pending, onclick: () => ctl.act(decline), dataset: { key: "decline" } }, uses.length ? "Continue (use no treasure)" : "Continue"),
        uses.map((a) => h("button.act-use_treasure", { type: "button", disabled: s.pending, onclick: () => ctl.act(a), dataset: { key: `use-now-${a.card}`, card: a.card } }, `Use ${a.card}: ${treasureText(s.content, a.card)}`)),
      ),
    );
  }
  return parts.length ? h("div.group.pick-group", {}, parts) : null;
}

const SHIP_WORD = (c) => (c === "blue" ? "dark blue" : c);

/** A row of ship tokens to choose one colour from (each a toggle button). */
function shipRow(s, side, colours, chosen, ctl, counts) {
  return h(
    "div.ship-choices",
    { role: "group", "aria-label": side === "from" ? "The ship to convert" : "The colour it becomes" },
    colours.map((c) =>
      h(
        `button.ship-choice${chosen === c ? ".chosen" : ""}`,
        { type: "button", "aria-pressed": String(chosen === c), disabled: s.pending, onclick: () => ctl.convertPick(side, c), dataset: { key: `convert-${side}-${c}`, colour: c }, title: `${side === "from" ? "Give up" : "Becomes"} a ${SHIP_WORD(c)} ship` },
        shipChip(c, side === "from" ? counts?.[c] : undefined),
        h("small", {}, SHIP_WORD(c)),
      ),
    ),
  );
}

/** The Convert treasure as a choice on the ship tokens: the ship given up, then its new colour. */
export function convertChoices(s, ctl) {
  const legal = st.legalOf(s);
  const cards = dec.convertCards(legal);
  if (!cards.length) return null;
  const open = s.decision?.kind === "convert" ? s.decision : null;
  if (!open) {
    return h(
      "div.group.convert-group",
      {},
      cards.map((card) => h("button.convert-open", { type: "button", disabled: s.pending, onclick: () => ctl.openConvert(card), dataset: { key: `convert-open-${card}`, card } }, `Convert a ship with ${card}…`)),
      h("small.muted", {}, " one of your ships becomes another colour, for a mission"),
    );
  }
  const mine = st.viewOf(s)?.players?.[s.seat]?.ships ?? {};
  const a = dec.convertToSend(s);
  return h(
    "div.group.convert-group.chooser",
    { role: "group", "aria-label": `Convert a ship with ${open.card}` },
    h("p.chooser-title", {}, h("b", {}, `Convert a ship`), ` · ${open.card}`),
    h("small.muted", {}, "1. The ship you give up"),
    shipRow(s, "from", dec.convertColours(s, "from"), open.from, ctl, mine),
    h("small.muted", {}, "2. The colour it becomes"),
    open.from ? shipRow(s, "to", dec.convertColours(s, "to"), open.to, ctl) : h("p.muted.small", {}, "Choose the ship first."),
    h(
      "div.buttons",
      {},
      h("button.primary.act-use_treasure", { type: "button", disabled: s.pending || !a, onclick: ctl.sendDecision, dataset: { key: "convert-confirm", action: a ? JSON.stringify(a) : "" } }, a ? `Convert ${SHIP_WORD(a.convert[0])} to ${SHIP_WORD(a.convert[1])}` : "Convert"),
      h("button.ghost-btn", { type: "button", onclick: ctl.closeDecision, dataset: { key: "convert-cancel" } }, "Cancel"),
    ),
  );
}
