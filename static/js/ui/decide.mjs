// Decisions drawn as the pieces they are about: mission cards to click, payments
// as ship tokens and Reef cards, draws as cards and decks, the pass as a discard and a draw,
// kept cards as card faces, a tail by its track on the Reward Board. Every control is a button
// (keyboard: Tab and Enter), and each sends only a listed action (lib/decisions.mjs).

import { DECK_NAMES, SHIP_NAMES, deckOf, missionText, reefText, trackName, treasureText } from "../lib/cards.mjs";
import { hasKey, t, tn } from "../lib/i18n.mjs";
import * as dec from "../lib/decisions.mjs";
import * as st from "../lib/state.mjs";
import { h, shipChip } from "./dom.mjs";
import { missionNeeds, patternCard } from "./cards.mjs";
import { rewardBoard } from "./reward.mjs";

/** The `_tap` form of a sentence on a touch screen (the last input was a finger), else `_click`. */
const byInput = (ctl, key) => `${key}_${ctl.touch?.() ? "tap" : "click"}`;

/** A Reef card spent in a payment, drawn with the ships it stands for. */
function reefToken(content, id) {
  const r = content?.reefs?.[id];
  const ships = r?.kind === "two_ships" ? r.ships.map((c) => shipChip(c)) : r?.kind === "wild_ship" ? [shipChip("any")] : [];
  return h("span.reef-token", { title: t("decide.card_text", { card: id, text: reefText(content, id) }) }, h("b", {}, id), ships);
}

/** A mission as a small card button: its id, VP and needs. */
export function missionButton(s, id, attrs = {}) {
  const m = s.content?.missions?.[id];
  const picked = s.decision?.kind === "mission" && s.decision.mission === id;
  return h(
    `button.card.mission.mini${picked ? ".picked" : ""}`,
    { type: "button", title: t("decide.mission_title", { mission: id, text: missionText(s.content, id) }), "aria-pressed": String(picked), dataset: { key: `mission-${id}`, mission: id }, ...attrs },
    h("span.mission-head", {}, h("span.card-id", {}, id), m ? h("b.vp", {}, t("scores.vp", { vp: m.vp })) : null),
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
  const head = h("h4", {}, t("decide.missions_title"), " ", h("small.muted", {}, open ? "" : t(byInput(ctl, "decide.missions_hint"))));
  if (!open) return h("div.group.missions-group", {}, head, cards);
  const m = s.content?.missions?.[open.mission];
  const pays = dec.missionPayments(legal, open.mission, s.content);
  const rows = pays.map((p, i) =>
    h(
      `button.payment${i === open.pay ? ".chosen" : ""}`,
      { type: "button", "aria-pressed": String(i === open.pay), disabled: s.pending, onclick: () => ctl.choosePayment(i), dataset: { key: `pay-${i}`, action: JSON.stringify(p.action) }, title: p.cards.length ? tn("decide.pay_title_cards", p.tokens.length, { cards: p.cards.join(", ") }) : tn("decide.pay_title", p.tokens.length) },
      h("span.pay-pieces", {}, p.tokens.map((c) => shipChip(c)), p.cards.map((id) => reefToken(s.content, id))),
      h("small.muted", {}, i === 0 ? t("decide.pay_cheapest", { cost: p.cost }) : t("decide.pay_cost", { cost: p.cost })),
    ),
  );
  const chooser = h(
    "div.chooser",
    { role: "group", "aria-label": t("decide.pay_for", { mission: open.mission }) },
    h("p.chooser-title", {}, h("b", {}, t("decide.complete", { mission: open.mission })), m ? t(m.reef ? "decide.mission_vp_reef" : "decide.mission_vp", { vp: m.vp }) : ""),
    h("small.muted", {}, pays.length > 1 ? t(byInput(ctl, "decide.pay_ways"), { n: pays.length }) : t("decide.pay_with")),
    h("div.payments", {}, rows),
    h(
      "div.buttons",
      {},
      h("button.primary.act-mission", { type: "button", disabled: s.pending || !dec.missionToSend(s), onclick: ctl.sendDecision, dataset: { key: "mission-confirm" } }, t("decide.complete", { mission: open.mission })),
      h("button.ghost-btn", { type: "button", onclick: ctl.closeDecision, dataset: { key: "mission-cancel" } }, t("actions.cancel")),
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
    { type: "button", title: t("decide.deck_top_title", { deck: DECK_NAMES[d] ?? d }), ...attrs, class: `card deck-back mini deck-${d} ${attrs.class ?? ""}` },
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
    h("h4", {}, t("decide.draw_title"), played ? h("small.muted.deck-note", {}, " · ", t(sameDeckOpen ? (turn.effects?.includes("same_deck") ? "decide.deck_open_treasure" : "decide.deck_open") : "decide.deck_not_played", { deck: DECK_NAMES[played] ?? played })) : null),
    cards.length ? h("div.mini-cards", {}, cards) : null,
    end ? h("button.act-end_turn", { type: "button", disabled: s.pending, onclick: () => ctl.act(end), dataset: { key: "end-turn" } }, t("decide.end_turn")) : null,
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
      h("button.pass-open", { type: "button", disabled: s.pending, onclick: ctl.openPass, dataset: { key: "pass-open" } }, t("decide.pass_open")),
      h("small.muted", {}, " ", t("decide.pass_open_note")),
    );
  }
  const discardCards = discards.map((c) =>
    c === null
      ? h("button.pass-discard", { type: "button", "aria-pressed": String(open.discard === null), onclick: () => ctl.passDiscard(null), dataset: { key: "discard-none" } }, t("cards.nothing"))
      : patternCard(s.content, c, { class: `card pattern mini pass-discard deck-${deckOf(c)}${open.discard === c ? " selected" : ""}`, "aria-pressed": String(open.discard === c), onclick: () => ctl.passDiscard(c), dataset: { key: `discard-${c}`, card: c } }),
  );
  const draws = open.discard === undefined ? [] : dec.passDraws(legal, open.discard).sort((a, b) => tableOrder(a.source) - tableOrder(b.source));
  const drawCards = draws.map(({ key, source }) =>
    source
      ? sourceCard(s, source, { class: `pass-draw${open.draw === key ? " selected" : ""}`, "aria-pressed": String(open.draw === key), onclick: () => ctl.passDraw(key), dataset: { key: `pass-draw-${key}`, draw: key } })
      : h("button.pass-draw", { type: "button", "aria-pressed": String(open.draw === key), onclick: () => ctl.passDraw(key), dataset: { key: "pass-draw-none", draw: key } }, t("decide.nothing_to_draw")),
  );
  const a = dec.passToSend(s);
  const drawn = a?.draw?.card ?? (a?.draw ? t("decide.from_deck", { deck: DECK_NAMES[a.draw.deck] ?? a.draw.deck }) : t("cards.nothing"));
  const label = a ? (a.discard ? t("decide.pass_label", { card: a.discard, draw: drawn }) : t("decide.pass_label_no_discard", { draw: drawn })) : t("decide.pass");
  return h(
    "div.group.pass-group.chooser",
    { role: "group", "aria-label": t("decide.pass") },
    h("p.chooser-title", {}, h("b", {}, t("decide.pass")), " · ", t("decide.pass_note")),
    h("small.muted", {}, t(byInput(ctl, "decide.pass_discard"))),
    h("div.mini-cards", {}, discardCards),
    h("small.muted", {}, t("decide.pass_draw")),
    draws.length ? h("div.mini-cards", {}, drawCards) : h("p.muted.small", {}, t("decide.pass_discard_first")),
    h(
      "div.buttons",
      {},
      h("button.primary.act-pass", { type: "button", disabled: s.pending || !a, onclick: ctl.sendDecision, dataset: { key: "pass-confirm", action: a ? JSON.stringify(a) : "" } }, label),
      h("button.ghost-btn", { type: "button", onclick: ctl.closeDecision, dataset: { key: "pass-cancel" } }, t("actions.cancel")),
    ),
  );
}

const tailReason = (reason) => (hasKey(`decide.tail_reason.${reason}`) ? t(`decide.tail_reason.${reason}`) : "");

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
      h("h4", {}, t("decide.keep_reef")),
      h("div.mini-cards", {}, keepReef.map((a) =>
        h("button.card.reef-card.act-keep_reef", { type: "button", disabled: s.pending, onclick: () => ctl.act(a), dataset: { key: `keep-${a.card}`, card: a.card }, title: t("decide.keep", { card: a.card }) }, h("span.card-id", {}, a.card), h("small", {}, reefText(s.content, a.card))),
      )),
    );
  }
  if (keepTreasure.length) {
    parts.push(
      h("h4", {}, t("decide.keep_treasure")),
      h("div.mini-cards", {}, keepTreasure.map((a) =>
        h("button.card.treasure-card.act-keep_treasure", { type: "button", disabled: s.pending, onclick: () => ctl.act(a), dataset: { key: `keep-${a.card}`, card: a.card }, title: t("decide.keep", { card: a.card }) }, h("span.card-id", {}, a.card), h("small", {}, treasureText(s.content, a.card))),
      )),
    );
  }
  if (tails.length === 1) {
    // Only one track can move: nothing to choose, one button to go on.
    const reason = tailReason(view?.pending?.[0]?.reason);
    const a = legal.find((x) => x.type === "choose_tail");
    parts.push(
      h("h4", {}, t("decide.tail_advances", { track: trackName(a.track) }), " ", h("small.muted", {}, t("decide.only_track", { reason }))),
      h("div.buttons", {}, h("button.primary.act-choose_tail", { type: "button", disabled: s.pending, onclick: () => ctl.act(a), dataset: { key: `tail-${a.track}`, action: JSON.stringify(a) } }, t("cards.action.choose_tail", { track: trackName(a.track) }))),
    );
  } else if (tails.length) {
    const reason = tailReason(view?.pending?.[0]?.reason);
    const choose = Object.fromEntries(legal.filter((a) => a.type === "choose_tail").map((a) => [a.track, () => ctl.act(a)]));
    parts.push(
      h("h4", {}, t("decide.which_tail"), " ", h("small.muted", {}, t(byInput(ctl, "decide.which_tail_hint"), { reason }))),
      h("div.reward.in-decision", {}, rewardBoard(view, names, s.content, { choose, disabled: s.pending, seat: s.seat })),
    );
  }
  if (decline) {
    // A treasure may answer this choice (draw four Reef cards, or advance any tail): use or not.
    // Going on is the first choice; a treasure that may answer is offered second, and only
    // when one is held (the neutral step of R-58 is then just "Continue").
    const uses = legal.filter((a) => a.type === "use_treasure");
    parts.push(
      uses.length ? h("h4", {}, t("decide.go_on_or_use")) : null,
      h(
        "div.buttons",
        {},
        h("button.primary.act-decline", { type: "button", disabled: s.pending, onclick: () => ctl.act(decline), dataset: { key: "decline" } }, uses.length ? t("decide.continue_no_treasure") : t("decide.continue")),
        uses.map((a) => h("button.act-use_treasure", { type: "button", disabled: s.pending, onclick: () => ctl.act(a), dataset: { key: `use-now-${a.card}`, card: a.card } }, t("decide.use_now", { card: a.card, text: treasureText(s.content, a.card) }))),
      ),
    );
  }
  // The table sends a step with nothing to choose by itself (pages/game.mjs): say so, the
  // button stays for whoever is quicker.
  if (ctl.goesOnByItself && dec.forcedStep(s)) parts.push(h("p.muted.forced-note", { role: "status" }, t("decide.goes_on_by_itself")));
  return parts.length ? h("div.group.pick-group", {}, parts) : null;
}

const SHIP_WORD = (c) => SHIP_NAMES[c] ?? c;

/** A row of ship tokens to choose one colour from (each a toggle button). */
function shipRow(s, side, colours, chosen, ctl, counts) {
  return h(
    "div.ship-choices",
    { role: "group", "aria-label": side === "from" ? t("decide.convert_from_label") : t("decide.convert_to_label") },
    colours.map((c) =>
      h(
        `button.ship-choice${chosen === c ? ".chosen" : ""}`,
        { type: "button", "aria-pressed": String(chosen === c), disabled: s.pending, onclick: () => ctl.convertPick(side, c), dataset: { key: `convert-${side}-${c}`, colour: c }, title: t(side === "from" ? "decide.convert_give_up" : "decide.convert_becomes", { ship: SHIP_WORD(c) }) },
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
      cards.map((card) => h("button.convert-open", { type: "button", disabled: s.pending, onclick: () => ctl.openConvert(card), dataset: { key: `convert-open-${card}`, card } }, t("decide.convert_open", { card }))),
      h("small.muted", {}, " ", t("decide.convert_open_note")),
    );
  }
  const mine = st.viewOf(s)?.players?.[s.seat]?.ships ?? {};
  const a = dec.convertToSend(s);
  return h(
    "div.group.convert-group.chooser",
    { role: "group", "aria-label": t("decide.convert_with", { card: open.card }) },
    h("p.chooser-title", {}, h("b", {}, t("decide.convert_title")), ` · ${open.card}`),
    h("small.muted", {}, t("decide.convert_step_from")),
    shipRow(s, "from", dec.convertColours(s, "from"), open.from, ctl, mine),
    h("small.muted", {}, t("decide.convert_step_to")),
    open.from ? shipRow(s, "to", dec.convertColours(s, "to"), open.to, ctl) : h("p.muted.small", {}, t("decide.convert_ship_first")),
    h(
      "div.buttons",
      {},
      h("button.primary.act-use_treasure", { type: "button", disabled: s.pending || !a, onclick: ctl.sendDecision, dataset: { key: "convert-confirm", action: a ? JSON.stringify(a) : "" } }, a ? t("decide.convert_confirm", { from: SHIP_WORD(a.convert[0]), to: SHIP_WORD(a.convert[1]) }) : t("decide.convert")),
      h("button.ghost-btn", { type: "button", onclick: ctl.closeDecision, dataset: { key: "convert-cancel" } }, t("actions.cancel")),
    ),
  );
}
