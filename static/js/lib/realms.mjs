// Realm majorities for display. Every view carries them (`view.realms`, computed by the engine
// for its viewer, R-60; a replay's views count every Hidden Dragon), so nothing here works out
// a majority: no copy of R-43 in the client. Pure; no DOM.

/** The realms to show for a view (the engine's figures; none before the first view). */
export function realmsOf(view) {
  return view?.realms ?? [];
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
