// Side panels: players, the Pattern and Mission markets, my hand. Plain DOM built from the view.

import { DECK_NAMES, missionText, reefText, treasureText, shapeOf, SHIP_COLOURS, SHIP_NAMES, deckOf } from "../lib/cards.mjs";
import * as st from "../lib/state.mjs";
import { fill, h, shapeMini, shipChip } from "./dom.mjs";
import { PLAYER_HEX } from "./paint.mjs";
import { badges } from "./seats.mjs";

const cap = (s) => s[0].toUpperCase() + s.slice(1);

/** A Pattern card face: its id and shape, in its deck's colour. */
export function patternCard(content, card, attrs = {}) {
  const shape = shapeOf(content, card);
  const deck = deckOf(card);
  return h(
    `button.card.pattern.deck-${deck}`,
    { type: "button", title: `${DECK_NAMES[deck] ?? ""} Pattern card ${card}`, dataset: { key: `card-${card}`, card }, ...attrs },
    shape ? shapeMini(shape, deck, 12) : null,
    h("span.card-id", {}, card),
  );
}

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
  if (view.expansion) rows.push(h("div.stat.wide", { title: "Hidden Treasures" }, h("b", {}, p.treasure_count ?? 0), p.treasure_count === 1 ? " treasure" : " treasures", p.ancestral ? " · ancestral ready" : ""));
  const missions = p.missions.map((m) => h("span.tag.mission", { title: missionText(s.content, m) }, m));
  const played = p.played.map((c) => h(`span.tag.deck-${deckOf(c)}`, { title: `played ${c}` }, c));
  const reefs = (p.reefs ?? []).map((c) => h("span.tag.reef", { title: reefText(s.content, c) }, c));
  const tags = [p.seat === s.seat ? h("span.you", {}, "you") : null, ...badges(info), presence].filter(Boolean);
  return h(
    `section.player${toAct ? ".to-act" : ""}${p.seat === s.seat ? ".me" : ""}${info.bot ? ".is-bot" : ""}`,
    { style: { "--pc": PLAYER_HEX[p.seat] }, "aria-label": `${name}, ${p.colour}${info.bot ? `, ${info.bot} bot` : ""}`, dataset: { seat: p.seat } },
    h(
      "header",
      {},
      h("span.swatch", { title: cap(p.colour) }),
      h("span.name", { title: `${name} (${p.colour})` }, name),
      toAct ? h("span.turn-dot", { title: "this player decides now" }, "to play") : null,
    ),
    tags.length ? h("div.player-tags", {}, tags) : null,
    h("div.stats", {}, rows),
    h("div.ships", { title: "Ship tokens" }, ships),
    missions.length ? h("div.tags", {}, h("small", {}, `${plural(missions.length, "mission")} `), missions) : null,
    reefs.length ? h("div.tags", {}, h("small", {}, "Reefs "), reefs) : null,
    played.length ? h("details.played", {}, h("summary", {}, `Played (${played.length})`), h("div.tags", {}, played)) : null,
  );
}

/** The player panels, in seat order. */
export function renderPlayers(el, s) {
  const view = st.viewOf(s);
  if (!view) return;
  fill(el, view.players.map((p) => playerPanel(s, p)));
}

/** Pattern market (2 face-up per deck + deck sizes) and Mission market; drawable cards act. */
export function renderMarkets(el, s, act) {
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
  const missions = (view.market.missions ?? []).map((m) => missionCard(s, m));
  const counts = `${view.deck_sizes.missions ?? 0} missions, ${view.deck_sizes.reefs ?? 0} reefs` +
    (view.deck_sizes.treasures !== undefined ? `, ${view.deck_sizes.treasures} treasures` : "") + " in the decks";
  fill(el, h("h3", {}, "Pattern market"), decks, h("h3", {}, "Missions"), h("div.missions", {}, missions), h("small.muted", {}, counts));
}

function missionCard(s, id) {
  const m = s.content?.missions?.[id];
  const can = st.legalOf(s).some((a) => a.type === "mission" && a.mission === id);
  const needs = m
    ? Object.entries(m.ships).map(([c, n]) => h("span.need", { title: `${n} ${SHIP_NAMES[c]}` }, Array.from({ length: n }, () => shipChip(c === "any" ? "any" : c))))
    : [];
  return h(
    `div.card.mission${can ? ".can" : ""}`,
    { title: missionText(s.content, id), dataset: { mission: id } },
    h("div.mission-head", {}, h("span.card-id", {}, id), m ? h("b.vp", {}, `${m.vp} VP`) : null),
    h("div.needs", {}, needs),
    m?.reef ? h("small", {}, "+ Reef draw") : null,
  );
}

/** My hand: Pattern cards to pick for placing, my Reef cards (and treasures). */
export function renderHand(el, s, onPick) {
  const view = st.viewOf(s);
  if (!view) return;
  if (s.seat === null) {
    fill(el, h("p.muted", {}, "You are watching this game. Hands are secret until the end."));
    return;
  }
  const me = view.players[s.seat];
  const canPlace = new Set(st.allPlaceActions(s).map((a) => a.card));
  const cards = (me.hand ?? []).map((card) =>
    patternCard(s.content, card, {
      class: `card pattern deck-${deckOf(card)}${s.selected === card ? " selected" : ""}${canPlace.has(card) ? " can" : ""}`,
      "aria-pressed": s.selected === card ? "true" : "false",
      onclick: () => onPick(card),
    }),
  );
  const reefs = (me.reefs ?? []).map((c) => h("div.card.reef-card", { title: c }, h("span.card-id", {}, c), h("small", {}, reefText(s.content, c))));
  const treasures = (me.treasures ?? []).map((c) => h("div.card.treasure-card", {}, h("span.card-id", {}, c), h("small", {}, treasureText(s.content, c))));
  fill(
    el,
    h("h3", {}, "My hand"),
    h("div.hand-cards", {}, cards.length ? cards : h("p.muted", {}, "No Pattern cards")),
    reefs.length ? h("div.hand-cards", {}, reefs) : null,
    treasures.length ? h("div.hand-cards", {}, treasures) : null,
  );
}
