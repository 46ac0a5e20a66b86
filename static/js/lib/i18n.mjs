// The client's text in the reader's language: one JSON catalogue per language in /static/i18n,
// keyed by stable names. The page's <html lang> (set by the server from the reader's choice or
// Accept-Language) says which. English is the source and the fallback for a missing key, so a
// page never shows a bare key to a person; tests/i18n/test_catalogues.py fails when a key
// is missing in either language.
import english from "../../i18n/en.json" with { type: "json" };

export const LANGUAGES = ["en", "es"];
const asked = globalThis.document?.documentElement?.lang || "en";
export const language = LANGUAGES.includes(asked) ? asked : "en";

const own = language === "en"
  ? english
  : (await import(`../../i18n/${language}.json`, { with: { type: "json" } })).default;

const plurals = new Intl.PluralRules(language);

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The text for `key` with `{name}` places filled from `params`. */
export function t(key, params = {}) {
  const text = own[key] ?? english[key];
  return text === undefined ? key : fill(text, params);
}

/** Whether the catalogue has `key` (for keys made from a value the client may not know). */
export function hasKey(key) {
  return key in own || key in english;
}

/**
 * The text for `key` as a list of strings and the values themselves, for a sentence with nodes in
 * it (a link inside a sentence): `{name}` places take `params[name]` as it is, so a DOM node
 * stays a node and the word order stays the translation's.
 */
export function tParts(key, params = {}) {
  const text = own[key] ?? english[key] ?? key;
  const out = [];
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    if (!(m[1] in params)) continue;
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(params[m[1]]);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** The plural form of `key` for `n` (`key.one`, `key.other`: CLDR categories), `{n}` filled. */
export function tn(key, n, params = {}) {
  const form = plurals.select(n);
  const found = [`${key}.${form}`, `${key}.other`].find((k) => own[k] ?? english[k]);
  return found ? t(found, { n, ...params }) : key;
}

/** A number the reader's way (1,234.5 / 1.234,5). */
export function formatNumber(n) {
  return new Intl.NumberFormat(language).format(n);
}

const ordinals = new Intl.PluralRules(language, { type: "ordinal" });

/** "1st", "2nd" ("1.º" in Spanish): `ordinal.one`, `.two`, `.few`, `.other` by CLDR's ordinal rules. */
export function formatOrdinal(n) {
  const key = `ordinal.${ordinals.select(n)}`;
  return t(key in own || key in english ? key : "ordinal.other", { n });
}

/** A percentage given as 0..100 the reader's way ("45%", "45 %"). */
export function formatPercent(pct) {
  return new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 3 }).format(pct / 100);
}

/** "Ann, Bo and Cy" the reader's way ("Ann, Bo y Cy"). */
export function formatList(items, type = "conjunction") {
  return new Intl.ListFormat(language, { style: "long", type }).format(items.map(String));
}

/** A date and time the reader's way. */
export function formatDateTime(value, options = { dateStyle: "medium", timeStyle: "short" }) {
  const date = value instanceof Date ? value : new Date(value);
  return new Intl.DateTimeFormat(language, options).format(date);
}
