// What a screen reader says, in Spanish: every square's words, the ghost's sentence and the
// moves (lib/speech.mjs, lib/logline.mjs) read from es.json only. A word the English catalogue
// has and the Spanish one never uses ("and", "placed", "Gold", "your") is an English literal
// glued into a sentence: it fails here. The viewer's own moves are in the second person
// ("Colocaste", not "Tú colocó"). `node --test` runs each file in its own process, so this
// page's language stays here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

globalThis.document = { documentElement: { lang: "es" } };
const speech = await import("../../static/js/lib/speech.mjs");
const { renderLine } = await import("../../static/js/lib/logline.mjs");

const catalogue = (lang) => JSON.parse(readFileSync(new URL(`../../static/i18n/${lang}.json`, import.meta.url)));
// Words of two letters or more, lower case; ids ("HT30", "S16") are not words.
const wordsOf = (text) => (text.replace(/\{\w+\}/g, "").match(/(?<![\p{L}\d])\p{L}{2,}(?![\p{L}\d])/gu) ?? []).map((w) => w.toLocaleLowerCase("es"));
const vocabulary = (lang) => new Set(Object.values(catalogue(lang)).flatMap(wordsOf));
const spanish = vocabulary("es");
const ENGLISH_ONLY = new Set([...vocabulary("en")].filter((w) => !spanish.has(w)));
const NAMES = ["Ana", "Bo", "Cy"];
const RAW_KEY = /\b[a-z]+\.[a-z_]+(\.[a-z_]+)*\b/;

/** A sentence a person hears: no English-only word, no bare key, no unfilled place. */
function heard(text) {
  assert.equal(typeof text, "string");
  assert.ok(text.length > 0);
  const english = wordsOf(text).filter((w) => ENGLISH_ONLY.has(w));
  assert.deepEqual(english, [], `English words in "${text}"`);
  assert.doesNotMatch(text, RAW_KEY, text);
  assert.doesNotMatch(text, /\{\w+\}/, text);
  return text;
}

test("the English-only vocabulary is large enough to catch a glued English word", () => {
  for (const w of ["and", "placed", "took", "paid", "gold", "your", "ship", "tail", "turn"]) assert.ok(ENGLISH_ONLY.has(w), w);
  assert.throws(() => heard("D7, D8 and E9"));
  assert.throws(() => heard("Your cola verde"));
});

test("every square of the board as text is Spanish", () => {
  const rows = Array.from({ length: 15 }, () => ".".repeat(15));
  rows[0] = "GRSWI~" + ".".repeat(9);
  const view = {
    board: {
      rows,
      ships: ["green", "purple", "red", "blue"].map((c, i) => [2, i, c]),
      dragons: [
        { owner: 0, cells: [[4, 0], [4, 1]], head: [4, 1], ancestral: true },
        { owner: 1, cells: [[5, 0], [5, 1]], head: [5, 0], ancestral: false },
        { owner: 2, cells: [[6, 0], [6, 1]], head: [6, 1], ancestral: true },
      ],
    },
  };
  for (const ghost of [null, { cells: [[1, 1], [1, 2]], head: [1, 2], legal: true }, { cells: [[4, 1], [5, 1]], head: [4, 1], legal: false }]) {
    for (const row of speech.squareWords(view, NAMES, 0, ghost)) for (const w of row) heard(w);
    for (const row of speech.squareWords(view, NAMES, null, ghost)) for (const w of row) heard(w);
  }
  assert.equal(speech.squareWords(view, NAMES, 0)[2][3], "barco azul oscuro");
  heard(speech.WORDS.caption(15, 15));
});

test("the ghost's sentence, with the engine's outcome, is Spanish", () => {
  const outcome = {
    cost: 2,
    gold: { total: 4, squares: 1, treasures: 2, rewards: 1 },
    gold_after: 5,
    gold_change: 2,
    ships: 3,
    ship_colours: ["green", "red", "blue"],
    reef_draws: 2,
    treasure_draws: 1,
    tails: [{ track: "purple", from: 1, to: 2, gold: 1, treasure: true }],
    neighbours_gold: [{ seat: 1, gold: 1 }],
  };
  const g = { card: "L05", cells: [[0, 0], [0, 1], [0, 2]], legal: true, locked: true, head: [0, 2], outcome };
  const said = heard(speech.ghostSentence(g, NAMES));
  assert.match(said, /^L05 en A1, B1 y C1\. Permitido aquí\. .*\(verde, rojo, azul oscuro\)/);
  for (const other of [{ ...g, outcome: null }, { ...g, legal: false }, { ...g, cells: [[0, -1], [0, 0]] }, { card: null }]) heard(speech.ghostSentence(other, NAMES));
});

// One line per event type of app/engine/events.py (`line`), as the engine makes its pieces.
const LINES = {
  placed: [
    ["log.placed", { who: 0, card: "S16", squares: 4 }],
    ["log.placed.ancestral", {}],
    ["log.placed.ships", { ships: ["red", "green"] }],
    ["log.placed.gold", { gold: 2 }],
    ["log.placed.reef_draws", { n: 2 }],
    ["log.placed.cost", { cost: 1 }],
    ["log.placed.neighbour_gold", { neighbour: 1, gold: 1 }],
  ],
  placed_one_ship: [["log.placed", { who: 0, card: "S03", squares: 3 }], ["log.placed.ship", { ships: ["blue"] }], ["log.placed.reef_draw", {}]],
  drew: [["log.drew_from_deck", { who: 0, card: "M07", deck: "M" }]],
  drew_hidden: [["log.drew_a_card_from_deck", { who: 0, deck: "L" }]],
  drew_market: [["log.drew_face_up", { who: 0, card: "S02" }]],
  drew_market_hidden: [["log.drew_a_card_face_up", { who: 0 }]],
  mission: [["log.mission", { who: 0, mission: "MS04", vp: 5 }]],
  passed: [["log.passed", { who: 0 }], ["log.passed.discarded", { card: "S07" }]],
  cashed: [["log.cashed", { who: 0 }]],
  reef_kept: [["log.reef_kept", { who: 0 }], ["log.reef_kept.card", { card: "RF11" }]],
  reef_deck_empty: [["log.reef_deck_empty", {}]],
  turn_ended: [["log.turn_ended", { who: 0 }]],
  turn_started: [["log.turn_started", { who: 0 }]],
  game_over: [["log.game_over", {}]],
  tail_advanced: [["log.tail_advanced", { who: 0, track: "red", space: 3 }], ["log.tail_advanced.gold", { gold: 1 }], ["log.tail_advanced.treasure", {}]],
  tail_blocked: [["log.tail_blocked", { who: 0, track: "purple" }]],
  treasure_kept: [["log.treasure_kept", { who: 0 }], ["log.treasure_kept.card", { card: "HT04" }]],
  treasure_used: [["log.treasure_used", { who: 0, effect: "no_cost" }]],
  reef_played: [["log.reef_played", { who: 0, card: "RF25" }], ["log.reef_played.gold", { gold: 2 }]],
  ancestral_declared: [["log.ancestral_declared", { who: 0 }]],
  taken_back: [["log.taken_back_treasure", { who: 0, card: "HT15" }]],
  taken_back_ancestral: [["log.taken_back_ancestral", { who: 0 }]],
};
const THIRD_PERSON = /\b(colocó|tomó|ganó|pagó|robó|cumplió|pasó|cobró|quedó|terminó|usó|jugó|retiró|colocará)\b/u;

test("every move is Spanish, for the one who made it, another player and a spectator", () => {
  const frames = Object.values(LINES).map((pieces, seq) => ({ seq, seat: 0, pieces: [pieces], events: [{ type: "x" }] }));
  for (const me of [0, 1, null]) for (const frame of frames) for (const s of speech.moveSentences(frame, NAMES, me)) heard(s);
  heard(speech.moveSentences({ seq: 1, seat: 1, player: "Bo", timeout: true, pieces: [] }, NAMES, 0)[0]);
});

test("my own moves are in the second person, another's in the third (each event type)", () => {
  for (const [type, pieces] of Object.entries(LINES)) {
    const mine = renderLine(pieces, { me: 0 });
    assert.doesNotMatch(mine, THIRD_PERSON, `${type}: ${mine}`);
    assert.doesNotMatch(mine, /Naranja|Tú /u, `${type}: ${mine}`);
  }
  const said = (pieces, me) => speech.moveSentences({ seq: 1, seat: 0, pieces: [pieces] }, NAMES, me)[0];
  assert.equal(said(LINES.placed, 0), "Colocaste S16 (4 casillas), con la cabeza Ancestral, tomaste barcos (rojo, verde), ganaste 2 de Oro, ganaste 2 robos de Arrecife, pagaste 1 de Oro; Bo +1 de Oro");
  assert.equal(said(LINES.placed, 1), "Ana colocó S16 (4 casillas), con la cabeza Ancestral, tomó barcos (rojo, verde), ganó 2 de Oro, ganó 2 robos de Arrecife, pagó 1 de Oro; tú ganaste 1 de Oro");
  assert.equal(said(LINES.placed, null), "Ana colocó S16 (4 casillas), con la cabeza Ancestral, tomó barcos (rojo, verde), ganó 2 de Oro, ganó 2 robos de Arrecife, pagó 1 de Oro; Bo +1 de Oro");
  assert.equal(said(LINES.placed_one_ship, 0), "Colocaste S03 (3 casillas), tomaste un barco azul oscuro, ganaste 1 robo de Arrecife");
  assert.equal(said(LINES.drew, 0), "Robaste M07 del mazo Mediano");
  assert.equal(said(LINES.mission, 0), "Cumpliste MS04 por 5 PV");
  assert.equal(said(LINES.passed, 0), "Pasaste, devolviste una cabeza y tomaste 2 de Oro, descartando S07");
  assert.equal(said(LINES.tail_advanced, 0), "Tu cola roja avanzó a la casilla 3, +1 de Oro, un robo de Tesoro Oculto");
  assert.equal(said(LINES.tail_advanced, 1), "La cola roja de Ana avanzó a la casilla 3, +1 de Oro, un robo de Tesoro Oculto");
  assert.equal(said(LINES.treasure_used, 0), "Usaste un Tesoro Oculto: no se paga Oro por aguas turbulentas este turno");
  assert.equal(said(LINES.reef_played, 0), "Jugaste el Arrecife de Coral RF25 y tomaste 2 de Oro");
  assert.equal(said(LINES.turn_started, 0), "Tu turno");
  assert.equal(said(LINES.turn_started, 1), "Le toca a Ana");
  // As a `map` callback the index is no viewer: seat 0's line at index 0 keeps its name.
  assert.deepEqual([LINES.cashed].map(renderLine), ["Naranja cobró una carta de Oro por 4 de Oro"]);
});
