// Realm majorities (R-42, R-43, R-56) for display. A live view carries them (`view.realms`,
// computed by the engine for its viewer, R-60); a replay frame rebuilds them here from the
// public board and the Hidden Dragon cards its log revealed. Pure; no DOM.

import { REALMS } from "./cards.mjs";
import { realmOf } from "./geometry.mjs";

/** VP per seat for one realm from {seat: [dragons, pieces]} (R-43, as the engine scores it). */
export function majorityVp(presence, whirlpools, players) {
  const seats = Object.keys(presence).map(Number);
  if (!seats.length) return {};
  const rank = (s) => presence[s][0] * 1000 + presence[s][1]; // Dragons first, pieces break ties
  const ranks = [...new Set(seats.map(rank))].sort((a, b) => b - a);
  const tiers = ranks.map((r) => seats.filter((s) => rank(s) === r));
  if (players === 2) return tiers[0].length === 1 ? { [tiers[0][0]]: 2 * whirlpools } : {};
  const out = {};
  for (const s of tiers[0]) out[s] = 3 * whirlpools;
  if (tiers[0].length === 1 && tiers.length > 1) for (const s of tiers[1]) out[s] = Math.floor((3 * whirlpools) / 2);
  return out;
}

/**
 * Standings per realm (REALMS order) from a view's board, in the engine's `view.realms` form:
 * {realm, whirlpools, leaders, seats: [{seat, dragons, pieces, hidden, vp}]}. `hidden[seat]` maps
 * realms to Hidden Dragon cards to count for that seat (none by default).
 */
export function standingsFromView(view, hidden = []) {
  const n = view.players.length;
  const covered = new Set(view.board.dragons.flatMap((d) => d.cells.map(([r, c]) => `${r},${c}`)));
  const whirl = Object.fromEntries(REALMS.map((r) => [r, 0]));
  view.board.rows.forEach((row, r) =>
    [...row].forEach((ch, c) => {
      const realm = realmOf(r, c);
      if (ch === "W" && realm && !covered.has(`${r},${c}`)) whirl[realm] += 1;
    }),
  );
  return REALMS.map((realm) => {
    const dragons = Array(n).fill(0);
    const pieces = Array(n).fill(0);
    for (const d of view.board.dragons) {
      const inRealm = d.cells.filter(([r, c]) => realmOf(r, c) === realm).length;
      if (!inRealm) continue;
      pieces[d.owner] += inRealm;
      dragons[d.owner] += 1;
      if (d.ancestral && realmOf(d.head[0], d.head[1]) === realm) dragons[d.owner] += 1; // R-56
    }
    const presence = {};
    const seats = dragons.map((count, seat) => {
      const h = hidden[seat]?.[realm] ?? 0;
      if (count + h) presence[seat] = [count + h, pieces[seat]];
      return { seat, dragons: count + h, pieces: pieces[seat], hidden: h };
    });
    const vp = majorityVp(presence, whirl[realm], n);
    for (const x of seats) x.vp = vp[x.seat] ?? 0;
    const top = Math.max(-1, ...Object.values(presence).map(([d, p]) => d * 1000 + p));
    const leaders = Object.keys(presence).map(Number).filter((s) => presence[s][0] * 1000 + presence[s][1] === top);
    return { realm, whirlpools: whirl[realm], leaders, seats };
  });
}

/** The realms to show for a view: the engine's own figures when present, else rebuilt. */
export function realmsOf(view, hidden = []) {
  return view?.realms ?? (view ? standingsFromView(view, hidden) : []);
}

/** One short line per realm for screen readers and tooltips ("Starfish: Ann leads 3-2, 4 Whirlpools"). */
export function realmSummary(realm, names) {
  const name = (s) => names[s] || `Seat ${s + 1}`;
  const cap = realm.realm[0].toUpperCase() + realm.realm.slice(1);
  const counts = realm.seats.filter((x) => x.dragons).sort((a, b) => b.dragons - a.dragons || b.pieces - a.pieces);
  const w = `${realm.whirlpools} Whirlpool${realm.whirlpools === 1 ? "" : "s"} uncovered`;
  if (!counts.length) return `${cap}: nobody yet, ${w}`;
  const lead = realm.leaders.length > 1 ? `${realm.leaders.map(name).join(" and ")} tie` : `${name(realm.leaders[0])} leads`;
  return `${cap}: ${lead} (${counts.map((x) => `${name(x.seat)} ${x.dragons}`).join(", ")}), ${w}`;
}
