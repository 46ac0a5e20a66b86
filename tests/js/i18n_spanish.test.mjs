// The client's words in Spanish: a page whose <html lang> is "es" reads every card, action,
// clock, seat, outcome, realm and log text from es.json, and no text is a bare catalogue key.
// `node --test` runs each file in its own process, so this page's language stays here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

globalThis.document = { documentElement: { lang: "es" } };
const i18n = await import("../../static/js/lib/i18n.mjs");
const cards = await import("../../static/js/lib/cards.mjs");
const clock = await import("../../static/js/lib/clock.mjs");
const seats = await import("../../static/js/lib/seats.mjs");
const outcomes = await import("../../static/js/lib/outcomes.mjs");
const realms = await import("../../static/js/lib/realms.mjs");
const { renderLine } = await import("../../static/js/lib/logline.mjs");

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const content = load("content.json");
const english = JSON.parse(readFileSync(new URL("../../static/i18n/en.json", import.meta.url)));
const RAW_KEY = /\b[a-z]+\.[a-z_]+(\.[a-z_]+)*\b/;

/** A text shown to people: not empty, no bare key, no {place} left unfilled. */
function shown(text) {
  assert.equal(typeof text, "string");
  assert.ok(text.length > 0);
  assert.doesNotMatch(text, RAW_KEY, text);
  assert.doesNotMatch(text, /\{\w+\}/, text);
  return text;
}

test("the page's language is Spanish and Intl formats numbers its way", () => {
  assert.equal(i18n.language, "es");
  assert.equal(i18n.formatNumber(12345.5), "12.345,5");
  assert.equal(i18n.formatList(["Ana", "Bo", "Cy"]), "Ana, Bo y Cy");
  assert.equal(i18n.formatOrdinal(2), "2.º");
  assert.equal(i18n.tn("outcomes.ships", 1), "1 barco");
  assert.equal(i18n.tn("outcomes.ships", 3), "3 barcos");
});

test("every card of the content is described in Spanish", () => {
  for (const id of Object.keys(content.missions)) assert.match(shown(cards.cardText(content, "mission", id)), /^Misión MS\d\d: .* PV/);
  for (const id of Object.keys(content.reefs)) assert.match(shown(cards.cardText(content, "reef", id)), /^Carta de Arrecife /);
  for (const id of Object.keys(content.treasures)) assert.match(shown(cards.cardText(content, "treasure", id)), /^Tesoro Oculto /);
  assert.match(cards.cardText(content, "pattern", "M30"), /^Carta de Patrón Mediana M30 \(4 casillas\)$/);
  assert.equal(cards.missionText(content, "MS01"), "2 verdes: 4 PV");
  for (const text of Object.values(cards.TREASURE_TEXT)) shown(text);
});

test("every action type has a Spanish label", () => {
  const actions = [
    { type: "place", card: "S07" },
    { type: "mission", mission: "MS01", tokens: { green: 2 }, cards: [] },
    { type: "draw", deck: "M" },
    { type: "draw", source: "market", card: "L05" },
    { type: "pass", discard: "S07", draw: { deck: "S" } },
    { type: "pass", discard: null, draw: { deck: "L" } },
    { type: "end_turn" },
    { type: "cash_gold", card: "RF01" },
    { type: "keep_reef", card: Object.keys(content.reefs)[0] },
    { type: "keep_treasure", card: Object.keys(content.treasures)[0] },
    { type: "choose_tail", track: "purple" },
    { type: "play_reef", card: "RF25", tracks: ["green", "red"] },
    { type: "use_treasure", card: Object.keys(content.treasures)[0], convert: ["blue", "red"] },
    { type: "use_ancestral" },
    { type: "draw_reefs" },
    { type: "decline" },
  ];
  const labels = actions.map((a) => shown(cards.actionLabel(content, a)));
  assert.equal(labels[0], "Colocar S07");
  assert.equal(labels[1], "Completar MS01 pagando 2 verdes");
  assert.equal(labels[2], "Robar la carta de arriba del mazo Mediano");
  assert.equal(labels[10], "Avanzar la cola morada");
  for (const phase of ["place", "mission", "draw", "over"]) shown(cards.phaseText(phase));
});

test("clocks, seats and results in Spanish", () => {
  assert.equal(clock.clockLabel({ mode: "live", initial: 600, per_turn: 30 }), "Reloj en vivo · 10 min + 30 s por turno");
  assert.equal(clock.clockLabel({ mode: "daily", per_turn: 3 * 86400 }), "3 días por turno");
  const done = { status: "finished", winners: ["Ana", "Marina"], seats: [{ player: { id: 1, display_name: "Ana" } }, { bot_level: "greedy" }] };
  assert.equal(clock.homeLine(done, 2, 0), "con Ana, bot intermedio · ganada por Ana y Marina");
  assert.deepEqual(seats.seatBadges(seats.seatInfo({ bot_level: "expert", player: { display_name: "Nessie" } })).map((b) => b.text), ["juega un bot (fuerte)"]);
  assert.equal(seats.seatName({ bot_level: "random" }), "Bot principiante");
  assert.equal(seats.connLabel("live", true).text, "Partida terminada");
  assert.equal(seats.titleFor("Mesa 3", true), "● Tu turno · Mesa 3");
  const scores = { players: [{ seat: 0, total: 70 }, { seat: 1, total: 60 }, { seat: 2, total: 70 }], winners: [0, 2] };
  assert.equal(seats.resultText(scores, ["Ana", "Bo", "Cy"]), "Ana y Cy compartieron la victoria · Ana 70, Cy 70, Bo 60");
  // A bot's seat on the watch pages, in "Your games" and on profiles: its level in Spanish.
  assert.equal(seats.seatDisplayName({ name: "Marina (greedy bot)", bot: "greedy", bot_name: "Marina" }), "Marina (bot intermedio)");
  assert.equal(seats.seatDisplayName({ name: "Marina (greedy bot)", bot_level: "greedy", bot_name: "Marina" }), "Marina (bot intermedio)");
  assert.equal(seats.seatDisplayName({ name: "Ana", bot_level: null, bot_name: null }), "Ana");
});

test("a placement's outcome and a realm's summary in Spanish", () => {
  const bits = outcomes.outcomeBits(
    { cost: 2, gold: { total: 3, squares: 1, treasures: 2 }, ships: 1, reef_draws: 2, tails: [{ track: "red", from: 1, to: 3, gold: 2 }], neighbours_gold: [{ seat: 1, gold: 1 }] },
    ["Ana", "Bo"],
  );
  assert.deepEqual(bits.map((b) => b.text), [
    "Cuesta 2 de Oro",
    "+3 de Oro (1 de las casillas, 2 del tesoro)",
    "1 barco",
    "+2 robos de Arrecife",
    "cola roja 1→3 (+2 de Oro)",
    "Bo +1 de Oro",
  ]);
  const realm = { realm: "seahorse", whirlpools: 1, leaders: [0], seats: [{ seat: 0, dragons: 3, pieces: 9 }, { seat: 1, dragons: 2, pieces: 7 }] };
  assert.equal(realms.realmSummary(realm, ["Ana", "Bo"]), "Caballito de Mar: lidera Ana (Ana 3, Bo 2), 1 Remolino descubierto");
});

test("log lines are worded in Spanish and the seats' colours still become names", () => {
  const line = renderLine([
    ["log.placed", { who: 1, card: "M30", squares: 4 }],
    ["log.placed.gold", { gold: 2 }],
    ["log.placed.neighbour_gold", { neighbour: 0, gold: 1 }],
  ]);
  assert.equal(line, "Verde colocó M30 (4 casillas), ganó 2 de Oro; Naranja +1 de Oro");
  const pieces = seats.logPieces(line, ["Ana", "Bo"]);
  assert.deepEqual(pieces.filter((p) => typeof p !== "string"), [{ seat: 1, name: "Bo" }, { seat: 0, name: "Ana" }]);
  // An older server's English line still finds its players.
  assert.deepEqual(seats.logPieces("Orange to play", ["Ana", "Bo"]), [{ seat: 0, name: "Ana" }, " to play"]);
});

test("every key the modules build from a value exists in English too", () => {
  for (const c of [...cards.SHIP_COLOURS, "any"]) assert.ok(`cards.ship_count.${c}.other` in english, c);
  for (const r of cards.REALMS) assert.ok(`realm.${r}` in english, r);
  for (const c of cards.PLAYER_COLOURS) assert.ok(`colour.${c}` in english, c);
  for (const d of ["S", "M", "L"]) assert.ok(`cards.text.pattern.${d}` in english && `cards.name.pattern.${d}` in english, d);
});

test("the table in words, the ships' letters and the watch lines in Spanish", async () => {
  const speech = await import("../../static/js/lib/speech.mjs");
  const marks = await import("../../static/js/lib/marks.mjs");
  const watch = await import("../../static/js/lib/watchboard.mjs");
  const letters = ["green", "purple", "red", "blue"].map((c) => marks.SHIP_LETTER[c]);
  assert.deepEqual(letters, ["V", "M", "R", "A"]);
  assert.equal(speech.squaresText([[6, 3], [7, 3], [8, 4]]), "D7, D8 y E9");
  const rows = Array.from({ length: 15 }, () => ".".repeat(15));
  const view = { board: { rows, ships: [], dragons: [{ owner: 1, cells: [[0, 0], [0, 1]], head: [0, 1], ancestral: false }] } };
  const words = speech.squareWords(view, ["Ana", "Bo"], 0, { cells: [[1, 1]], head: [1, 1], legal: true });
  assert.equal(words[0][0], "Dragón de Bo");
  assert.equal(words[0][1], "cabeza del Dragón de Bo");
  assert.equal(words[1][1], "cabeza de tu sombra (permitido) sobre agua");
  const frame = {
    seq: 3,
    seat: 1,
    player: "Bo",
    timeout: true,
    pieces: [[["log.placed", { who: 1, card: "S16", squares: 3 }]], [["log.turn_started", { who: 0 }]]],
    events: [{ type: "placed", cells: [[0, 0], [0, 1], [0, 2]], head: [0, 2] }, { type: "turn_started" }],
  };
  assert.deepEqual(speech.moveSentences(frame, ["Ana", "Bo"], 0), [
    "Bo se quedó sin tiempo: un bot hizo esta jugada.",
    "Bo colocó S16 (3 casillas). El Dragón cubre A1, B1 y C1, con la cabeza en C1.",
    "Tu turno",
  ]);
  const summary = { seats: [{ name: "Ana", rating: 1043 }, { name: "Bo" }], to_act: 1, turn: 7, spectators: 3, delay: { moves: 2 } };
  assert.equal(watch.statusText(summary), "turno 7 · le toca a Bo · 3 mirando · 2 jugadas de retraso");
  for (const row of words) for (const w of row) shown(w);
});
