// A game log line in the reader's language, from the engine's language-neutral pieces
// ([key, params] clauses: app/engine/events.py says how they read). The server words lines the
// same way from the same catalogues (app/i18n/log_lines.py); tests/i18n/test_log_lines.py runs
// both on the same events.
import { t } from "./i18n.mjs";
import { PLAYER_COLOURS } from "./cards.mjs";

function word(kind, value) {
  if (kind === "who" || kind === "neighbour") return value === null || value === undefined ? t("log.someone") : t(`colour.${PLAYER_COLOURS[value]}`);
  if (kind === "ships") return value.map((c) => t(`ship.${c}`)).join(", ");
  if (kind === "deck" || kind === "effect" || kind === "track") return t(`${kind}.${value}`);
  return String(value);
}

/** The text of one event's line (a list of [key, params] pieces). */
export function renderLine(pieces) {
  return pieces.map(([key, params]) => {
    const worded = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, word(k, v)]));
    return t(key, worded);
  }).join("");
}
