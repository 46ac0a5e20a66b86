// A game log line in the reader's language, from the engine's language-neutral pieces
// ([key, params] clauses: app/engine/events.py says how they read). The server words lines the
// same way from the same catalogues (app/i18n/log_lines.py); tests/i18n/test_log_lines.py runs
// both on the same events.
import { hasKey, t } from "./i18n.mjs";
import { PLAYER_COLOURS } from "./cards.mjs";

const MINE = "_mine"; // the suffix of a clause's key in the viewer's own form ("You placed")

function word(kind, value) {
  if (kind === "who" || kind === "neighbour") return value === null || value === undefined ? t("log.someone") : t(`colour.${PLAYER_COLOURS[value]}`);
  if (kind === "ships") return value.map((c) => t(`ship.${c}`)).join(", ");
  if (kind === "deck" || kind === "effect" || kind === "track") return t(`${kind}.${value}`);
  return String(value);
}

/**
 * The key a clause reads with for viewer `me`: its `_mine` form when the clause is about the
 * viewer (the line's subject, or the `neighbour` a clause names) and the catalogue has one.
 * The server chooses the same way (app/engine/events.py `own_key`).
 */
function ownKey(key, params, subject, me) {
  const about = "neighbour" in params ? params.neighbour : subject;
  if (me === null || about !== me) return key;
  return hasKey(key + MINE) ? key + MINE : key;
}

/**
 * The text of one event's line (a list of [key, params] pieces), for viewer `{me}` (a seat:
 * their own clauses read "You placed", "Colocaste") or for anyone. As a `map` callback the
 * second argument is an index, which names no viewer.
 */
export function renderLine(pieces, options = {}) {
  const me = Number.isInteger(options?.me) ? options.me : null;
  const subject = pieces[0]?.[1]?.who;
  return pieces.map(([key, params]) => {
    const worded = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, word(k, v)]));
    return t(ownKey(key, params, subject, me), worded);
  }).join("");
}
