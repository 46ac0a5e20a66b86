// The client's text in the reader's language: one JSON catalogue per language in /static/i18n,
// keyed by stable names. The page's <html lang> (set by the server from the reader's choice or
// Accept-Language) says which. English is the source and the fallback for a missing key, so a
// page never shows a bare key to a person; tests/web/test_i18n_catalogues.py fails when a key
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

/** A date and time the reader's way. */
export function formatDateTime(value, options = { dateStyle: "medium", timeStyle: "short" }) {
  const date = value instanceof Date ? value : new Date(value);
  return new Intl.DateTimeFormat(language, options).format(date);
}
