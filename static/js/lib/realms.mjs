// Realm majorities for display. Every view carries them (`view.realms`, computed by the engine
// for its viewer, R-60; a replay's views count every Hidden Dragon), so nothing here works out
// a majority: no copy of R-43 in the client. Pure; no DOM.

import { realmName } from "./cards.mjs";
import { formatList, t, tn } from "./i18n.mjs";
import { seatLabel } from "./seats.mjs";

/** The realms to show for a view (the engine's figures; none before the first view). */
export function realmsOf(view) {
  return view?.realms ?? [];
}

/** One short line per realm for screen readers and tooltips ("Starfish: Ann leads 3-2, 4 Whirlpools"). */
export function realmSummary(realm, names) {
  const name = (s) => names[s] || seatLabel(s);
  const counts = realm.seats.filter((x) => x.dragons).sort((a, b) => b.dragons - a.dragons || b.pieces - a.pieces);
  const words = { realm: realmName(realm.realm), whirlpools: tn("realms.whirlpools_uncovered", realm.whirlpools) };
  if (!counts.length) return t("realms.summary_nobody", words);
  words.counts = counts.map((x) => `${name(x.seat)} ${x.dragons}`).join(", ");
  if (realm.leaders.length > 1) return t("realms.summary_tie", { ...words, names: formatList(realm.leaders.map(name)) });
  return t("realms.summary_lead", { ...words, name: name(realm.leaders[0]) });
}
