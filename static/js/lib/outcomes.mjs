// What a placement would give, as the engine works it out: GET /api/games/{id}/outcomes lists
// every legal placement of a card with its cost, Gold (from squares, treasures and the Reward
// Board), neighbours' Gold, ships, Reef and treasure draws and tail steps. The client only does
// geometry: which listed outcome the ghost's squares are. Pure; no DOM.

import { cellsKey, realmOf } from "./geometry.mjs";

/** The cache key of a card's outcomes: they hold for one version of the game. */
export const outcomeKey = (version, card) => `${version}|${card}`;

/**
 * The outcome whose placement covers exactly `cells`, or null. With the Ancestral head a set of
 * squares is listed once per realm of the head (R-56): the one whose head lies in the same
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

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * An outcome as short labelled pieces for the placement bar: [{kind, text}] in reading order
 * (cost, Gold and where it comes from, ships, draws, tail steps, neighbours' Gold, notes).
 */
export function outcomeBits(o, names = []) {
  const out = [{ kind: "cost", text: o.cost ? `Cost ${o.cost} Gold` : "No cost" }];
  const g = o.gold ?? {};
  if (g.total) {
    const from = [g.squares && `${g.squares} from squares`, g.treasures && `${g.treasures} from the treasure`, g.rewards && `${g.rewards} from the Reward Board`].filter(Boolean);
    out.push({ kind: "gold", text: `+${g.total} Gold${from.length > 1 || g.treasures || g.rewards ? ` (${from.join(", ")})` : ""}` });
  }
  if (typeof o.gold_after === "number" && typeof o.gold_change === "number") {
    out.push({ kind: "net", text: `Gold ${o.gold_after - o.gold_change} → ${o.gold_after}` });
  }
  if (o.cashed?.length) out.push({ kind: "cashed", text: `cashes ${o.cashed.join(", ")}` });
  if (o.ships) out.push({ kind: "ships", text: plural(o.ships, "ship"), colours: o.ship_colours ?? [] });
  if (o.reef_draws) out.push({ kind: "reefs", text: `+${plural(o.reef_draws, "Reef draw")}` });
  if (o.treasure_draws) out.push({ kind: "treasures", text: `+${plural(o.treasure_draws, "Hidden Treasure draw")}` });
  for (const t of o.tails ?? []) {
    const extra = [t.gold ? `+${t.gold} Gold` : "", t.treasure ? "a treasure draw" : ""].filter(Boolean).join(", ");
    out.push({ kind: "tail", text: `${t.track} tail ${t.from}→${t.to}${extra ? ` (${extra})` : ""}` });
  }
  for (const n of o.neighbours_gold ?? []) out.push({ kind: "neighbour", text: `${names[n.seat] || `Seat ${n.seat + 1}`} +${n.gold} Gold` });
  for (const note of o.notes ?? []) out.push({ kind: "note", text: note });
  return out;
}
