// Side panels: players, the Pattern and Mission markets, my hand. Plain DOM built from the view.

import { DECK_NAMES, missionText, reefText, treasureText, SHIP_COLOURS, deckOf } from "../lib/cards.mjs";
import * as dec from "../lib/decisions.mjs";
import * as st from "../lib/state.mjs";
import { missionNeeds, patternCard } from "./cards.mjs";
import { missionButton } from "./decide.mjs";
import { fill, h, seatMark, shipChip } from "./dom.mjs";
import { PLAYER_HEX } from "./paint.mjs";
import { badges } from "./seats.mjs";

export { patternCard };

const cap = (s) => s[0].toUpperCase() + s.slice(1);

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function playerPanel(s, p) {
  const view = st.viewOf(s);
  const info = s.seats[p.seat] ?? { name: null, bot: null, standIn: false, left: false };
  const name = info.name || cap(p.colour);
  const toAct = view.turn.seat === p.seat && !view.over;
  // Presence comes from the socket; without it (polling) nothing is claimed either way. A bot
  // seat says so with its own badge (from the seats), so presence only speaks for people.
  const pres = s.presence?.seats?.find((x) => x.seat === p.seat);
  const presence = pres && !pres.bot && !info.bot ? h(`span.presence${pres.connected ? ".on" : ".off"}`, { title: pres.connected ? "connected" : "not connected" }, pres.connected ? "online" : "away") : null;
  const ships = SHIP_COLOURS.map((c) => shipChip(c, p.ships[c] ?? 0));
  const rows = [
    h("div.stat", { title: "Gold" }, h("span.gold-icon", { "aria-hidden": "true" }), h("b", {}, p.gold), " Gold"),
    h("div.stat", { title: "Dragon heads left" }, h("b", {}, p.heads), p.heads === 1 ? " head" : " heads"),
    h("div.stat", { title: "Pattern cards in hand" }, h("b", {}, p.hand_count), p.hand_count === 1 ? " card" : " cards"),
    h("div.stat", { title: "Reef cards" }, h("b", {}, p.reef_count), p.reef_count === 1 ? " reef" : " reefs"),
  ];
  if (view.expansion) rows.push(h("div.stat.wide", { title: "Hidden Treasures held" }, h("b", {}, p.treasure_count ?? 0), p.treasure_count === 1 ? " treasure" : " treasures"));
  const missions = p.missions.map((m) => h("span.tag.mission", { title: missionText(s.content, m) }, m));
  const played = p.played.map((c) => h(`span.tag.deck-${deckOf(c)}`, { title: `played ${c}` }, c));
  const reefs = (p.reefs ?? []).map((c) => h("span.tag.reef", { title: reefText(s.content, c) }, c));
  // Another player's hand and treasures are in the view only once the game is over (R-60):
  // then, and in a replay, they are shown (my own hand is the hand panel).
  const other = p.seat !== s.seat;
  const hand = other && Array.isArray(p.hand) ? p.hand.map((c) => h(`span.tag.deck-${deckOf(c)}`, { title: `in hand: ${c}` }, c)) : [];
  const treasures = other && Array.isArray(p.treasures) ? p.treasures.map((c) => h("span.tag.treasure", { title: treasureText(s.content, c) }, c)) : [];
  // The Ancestral head (R-56) still in supply: a tag, so the stats grid never has to clip it.
  // Switched on for this placement, it says so (it is no longer just "ready").
  const ancOn = view.turn.ancestral && view.turn.seat === p.seat && !view.over;
  const ancestral =
    view.expansion && (p.ancestral || ancOn)
      ? h(`span.tag.ancestral${ancOn ? ".on" : ""}`, { title: ancOn ? "The Ancestral head is on: this placement uses it (counts twice in its realm)" : "The Ancestral Dragon head is still to be placed (counts twice in its realm)" }, ancOn ? "ancestral head ON for this placement" : "ancestral head ready")
      : null;
  const effects = view.turn.seat === p.seat && !view.over ? st.activeNow(s).filter((x) => x.key !== "ancestral").map((x) => h("span.tag.effect-on", { dataset: { effect: x.key }, title: x.text }, `${x.short}: on`)) : [];
  const tags = [p.seat === s.seat ? h("span.you", {}, "you") : null, ...badges(info, view.over), presence, ancestral, ...effects].filter(Boolean);
  return h(
    `section.player${toAct ? ".to-act" : ""}${p.seat === s.seat ? ".me" : ""}${info.bot ? ".is-bot" : ""}`,
    { style: { "--pc": PLAYER_HEX[p.seat] }, "aria-label": `${name}, ${p.colour}${info.bot ? `, ${info.bot} bot` : ""}`, dataset: { seat: p.seat } },
    h(
      "header",
      {},
      seatMark(p.seat),
      h("span.name", { title: `${name} (${p.colour})` }, name),
      toAct ? h("span.turn-dot", { title: "this player decides now" }, "to play") : null,
    ),
    tags.length ? h("div.player-tags", {}, tags) : null,
    h("div.stats", {}, rows),
    h("div.ships", { title: "Ship tokens" }, ships),
    missions.length ? h("div.tags", {}, h("small", {}, `${plural(missions.length, "mission")} `), missions) : null,
    reefs.length ? h("div.tags", {}, h("small", {}, "Reefs "), reefs) : null,
    hand.length ? h("div.tags.hand-tags", {}, h("small", {}, "Hand "), hand) : null,
    treasures.length ? h("div.tags.treasure-tags", {}, h("small", {}, "Treasures "), treasures) : null,
    played.length ? h("details.played", {}, h("summary", {}, `Played (${played.length})`), h("div.tags", {}, played)) : null,
  );
}

/** The player panels, in seat order. */
export function renderPlayers(el, s) {
  const view = st.viewOf(s);
  if (!view) return;
  fill(el, view.players.map((p) => playerPanel(s, p)));
}

/**
 * Pattern market (2 face-up per deck + deck sizes) and Mission market: drawable cards draw,
 * completable missions open their payment chooser (`ctl.act`, `ctl.openMission`).
 */
export function renderMarkets(el, s, ctl) {
  const act = ctl.act;
  const view = st.viewOf(s);
  if (!view) return;
  const legal = st.legalOf(s);
  const drawOf = (card) => legal.find((a) => a.type === "draw" && a.card === card);
  const deckDraw = (deck) => legal.find((a) => a.type === "draw" && a.deck === deck && !a.card);
  const decks = ["S", "M", "L"].map((d) => {
    const faceUp = (view.market[d] ?? []).map((card) => {
      const a = drawOf(card);
      return patternCard(s.content, card, { disabled: !a, class: `card pattern deck-${d}${a ? " can" : ""}`, onclick: a ? () => act(a) : null });
    });
    const da = deckDraw(d);
    const deck = h(
      `button.card.deck-back.deck-${d}${da ? ".can" : ""}`,
      { type: "button", disabled: !da, title: `${DECK_NAMES[d]} deck`, onclick: da ? () => act(da) : null, dataset: { key: `deck-${d}` } },
      h("span", {}, DECK_NAMES[d]),
      h("b", {}, view.deck_sizes[d] ?? 0),
    );
    return h("div.market-row", {}, deck, faceUp);
  });
  const missions = (view.market.missions ?? []).map((m) => missionCard(s, m, ctl));
  const counts = `${view.deck_sizes.missions ?? 0} missions, ${view.deck_sizes.reefs ?? 0} reefs` +
    (view.deck_sizes.treasures !== undefined ? `, ${view.deck_sizes.treasures} treasures` : "") + " in the decks";
  fill(el, h("h3", {}, "Pattern market"), decks, h("h3", {}, "Missions"), h("div.missions", {}, missions), h("small.muted", {}, counts));
}

function missionCard(s, id, ctl) {
  const m = s.content?.missions?.[id];
  const can = dec.completableMissions(st.legalOf(s)).includes(id);
  // A completable mission is a button: clicking it opens the payment chooser.
  if (can) return missionButton(s, id, { class: `card mission can${s.decision?.mission === id ? " picked" : ""}`, disabled: s.pending, onclick: () => ctl.openMission(id) });
  return h(
    "div.card.mission",
    { title: missionText(s.content, id), dataset: { mission: id } },
    h("div.mission-head", {}, h("span.card-id", {}, id), m ? h("b.vp", {}, `${m.vp} VP`) : null),
    h("div.needs", {}, missionNeeds(s.content, id)),
    m?.reef ? h("small", {}, "+ Reef draw") : null,
  );
}

/**
 * My hand: Pattern cards to pick for placing (or to discard while passing), my Reef cards and
 * treasures; a card that has exactly one use now is a button that does it.
 */
export function renderHand(el, s, onPick, act) {
  const view = st.viewOf(s);
  if (!view) return;
  if (s.seat === null) {
    fill(el, h("p.muted", {}, "You are watching this game. Hands are secret until the end."));
    return;
  }
  const me = view.players[s.seat];
  const canPlace = new Set(st.allPlaceActions(s).map((a) => a.card));
  const passing = s.decision?.kind === "pass";
  const cards = (me.hand ?? []).map((card) => {
    const chosen = passing ? s.decision.discard === card : s.selected === card;
    return patternCard(s.content, card, {
      class: `card pattern deck-${deckOf(card)}${chosen ? " selected" : ""}${canPlace.has(card) || passing ? " can" : ""}`,
      "aria-pressed": chosen ? "true" : "false",
      title: passing ? `Discard ${card} to pass` : `Place ${card} (${DECK_NAMES[deckOf(card)]} Pattern card)`,
      onclick: () => onPick(card),
    });
  });
  const useful = (c, text, kind) => {
    const a = dec.handCardAction(st.legalOf(s), c);
    const body = [h("span.card-id", {}, c), h("small", {}, text)];
    if (!a) return h(`div.card.${kind}`, { title: `${c}: ${text}` }, body);
    const verb = { cash_gold: "Cash", play_reef: "Play", use_treasure: "Use" }[a.type];
    return h(`button.card.${kind}.can.act-${a.type}`, { type: "button", disabled: s.pending, onclick: () => act(a), title: `${verb} ${c}: ${text}`, dataset: { key: `use-${c}`, card: c } }, body, h("small.use", {}, verb));
  };
  const reefs = (me.reefs ?? []).map((c) => useful(c, reefText(s.content, c), "reef-card"));
  const treasures = (me.treasures ?? []).map((c) => useful(c, treasureText(s.content, c), "treasure-card"));
  fill(
    el,
    h("h3", {}, "My hand"),
    h("div.hand-cards", {}, cards.length ? cards : h("p.muted", {}, "No Pattern cards")),
    reefs.length ? h("div.hand-cards", {}, reefs) : null,
    treasures.length ? h("div.hand-cards", {}, treasures) : null,
  );
}
