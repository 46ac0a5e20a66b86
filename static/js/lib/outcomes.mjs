// What a placement would give, as the engine works it out: GET /api/games/{id}/outcomes lists
// every legal placement of a card with its cost, Gold (from squares, treasures and the Reward
// Board), neighbours' Gold, ships, Reef and treasure draws and tail steps. The client only does
// geometry: which listed outcome the ghost's squares are. Pure; no DOM.

import { trackName } from "./cards.mjs";
import { cellsKey, realmOf } from "./geometry.mjs";
import { t, tn } from "./i18n.mjs";
import { seatLabel } from "./seats.mjs";

/** The cache key of a card's outcomes: they hold for one version of the game. */
export const outcomeKey = (version, card) => `${version}|${card}`;

/**
 * The outcome whose placement covers exactly `cells`, or null. With the Ancestral head a set of
 * squares is listed once per realm of the head: the one whose head lies in the same
 * realm as `head` (when given) is chosen.
 */
export function matchOutcome(outcomes, cells, head = null) {
  if (!outcomes?.length || !cells?.length) return null;
  const key = cellsKey(cells);
  const same = outcomes.filter((o) => cellsKey(o.action.cells) === key);
  if (same.length <= 1 || !head) return same[0] ?? null;
  const realm = realmOf(head[0], head[1]);
  return same.find((o) => realmOf(o.action.head[0], o.action.head[1]) === realm) ?? same[0];
}

/**
 * An outcome as short labelled pieces for the placement bar: [{kind, text}] in reading order
 * (cost, Gold and where it comes from, ships, draws, tail steps, neighbours' Gold, notes).
 */
export function outcomeBits(o, names = []) {
  const out = [{ kind: "cost", text: o.cost ? t("outcomes.cost", { cost: o.cost }) : t("outcomes.no_cost") }];
  const g = o.gold ?? {};
  if (g.total) {
    const from = [
      g.squares && t("outcomes.gold_from_squares", { n: g.squares }),
      g.treasures && t("outcomes.gold_from_treasure", { n: g.treasures }),
      g.rewards && t("outcomes.gold_from_rewards", { n: g.rewards }),
    ].filter(Boolean);
    const detailed = from.length > 1 || g.treasures || g.rewards;
    out.push({ kind: "gold", text: detailed ? t("outcomes.gold_detail", { gold: g.total, sources: from.join(", ") }) : t("outcomes.gold", { gold: g.total }) });
  }
  if (typeof o.gold_after === "number" && typeof o.gold_change === "number") {
    out.push({ kind: "net", text: t("outcomes.net", { before: o.gold_after - o.gold_change, after: o.gold_after }) });
  }
  if (o.cashed?.length) out.push({ kind: "cashed", text: t("outcomes.cashes", { cards: o.cashed.join(", ") }) });
  if (o.ships) out.push({ kind: "ships", text: tn("outcomes.ships", o.ships), colours: o.ship_colours ?? [] });
  if (o.reef_draws) out.push({ kind: "reefs", text: tn("outcomes.reef_draws", o.reef_draws) });
  if (o.treasure_draws) out.push({ kind: "treasures", text: tn("outcomes.treasure_draws", o.treasure_draws) });
  for (const step of o.tails ?? []) {
    const extra = [step.gold ? t("outcomes.gold", { gold: step.gold }) : "", step.treasure ? t("outcomes.a_treasure_draw") : ""].filter(Boolean).join(", ");
    const words = { track: trackName(step.track), from: step.from, to: step.to, extra };
    out.push({ kind: "tail", text: extra ? t("outcomes.tail_extra", words) : t("outcomes.tail", words) });
  }
  for (const n of o.neighbours_gold ?? []) out.push({ kind: "neighbour", text: t("outcomes.neighbour", { name: names[n.seat] || seatLabel(n.seat), gold: n.gold }) });
  for (const note of o.notes ?? []) out.push({ kind: "note", text: note });
  return out;
}
