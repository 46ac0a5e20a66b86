// Decisions on the pieces against real engine documents: a mission's payments,
// the pass as two choices, a tail by its track. Every action chosen is one of the listed ones.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as st from "../../static/js/lib/state.mjs";
import * as dec from "../../static/js/lib/decisions.mjs";

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const content = load("content.json");

function table(name) {
  const doc = load(name);
  const s = st.createState({ gameId: 1, content });
  s.seat = doc.view.viewer;
  st.setDocument(s, doc, 10, 0);
  return s;
}

const listed = (s, a) => st.legalOf(s).includes(a);

test("completable missions are the listed ones, each once, in listed order", () => {
  const s = table("mission.json");
  const ids = st.legalOf(s).filter((a) => a.type === "mission").map((a) => a.mission);
  assert.deepEqual(dec.completableMissions(st.legalOf(s)), [...new Set(ids)]);
  assert.ok(ids.length > dec.completableMissions(st.legalOf(s)).length); // several payments each
});

test("payments: one per listed action, cheapest first (VP given up, then pieces)", () => {
  const s = table("mission.json");
  for (const m of dec.completableMissions(st.legalOf(s))) {
    const pays = dec.missionPayments(st.legalOf(s), m, content);
    assert.equal(pays.length, st.legalOf(s).filter((a) => a.type === "mission" && a.mission === m).length);
    for (const p of pays) {
      assert.ok(listed(s, p.action));
      const tokens = Object.values(p.action.tokens).reduce((a, b) => a + b, 0);
      assert.equal(p.tokens.length, tokens);
      const worth = p.cards.map((c) => content.reefs[c].vp); // the engine's R-40 value, sent in the content
      assert.equal(p.cost, tokens + worth.reduce((a, b) => a + b, 0));
    }
    for (let i = 1; i < pays.length; i++) assert.ok(pays[i - 1].cost <= pays[i].cost, `${m} sorted`);
  }
  // A Two-Ship card gives up 2 VP like two tokens, but in one piece: it comes first.
  const ms07 = dec.missionPayments(st.legalOf(s), "MS07", content);
  assert.deepEqual(ms07[0].cards, ["RF02"]);
  assert.deepEqual(ms07[1].tokens.sort(), ["green", "red"]);
});

test("opening a mission selects the cheapest payment; a chosen payment is what is sent", () => {
  const s = table("mission.json");
  assert.equal(dec.openMission(s, "MS99"), false); // not listed: nothing opens
  assert.equal(s.decision, null);
  assert.ok(dec.openMission(s, "MS21"));
  const pays = dec.missionPayments(st.legalOf(s), "MS21", content);
  assert.equal(dec.missionToSend(s), pays[0].action);
  assert.ok(dec.choosePayment(s, pays.length - 1));
  assert.equal(dec.missionToSend(s), pays.at(-1).action);
  assert.equal(dec.choosePayment(s, pays.length), false);
  assert.equal(dec.missionToSend(s), pays.at(-1).action);
});

test("the pass is a discard then a draw, and sends the listed pass for that pair", () => {
  const s = table("mid.json");
  const legal = st.legalOf(s);
  const passes = legal.filter((a) => a.type === "pass");
  const discards = dec.passDiscards(legal);
  assert.deepEqual(discards, [...new Set(passes.map((a) => a.discard))]);
  assert.ok(dec.openPass(s));
  assert.equal(s.decision.discard, undefined); // two cards in hand: the player chooses
  assert.equal(dec.passToSend(s), null);
  assert.equal(dec.passDraw(s, "deck:S"), false); // the discard comes first
  assert.ok(dec.passDiscard(s, discards[1]));
  const draws = dec.passDraws(legal, discards[1]);
  assert.equal(draws.length, passes.filter((a) => a.discard === discards[1]).length);
  assert.equal(dec.passDraw(s, "card:NOPE"), false);
  assert.ok(dec.passDraw(s, draws.at(-1).key));
  const a = dec.passToSend(s);
  assert.ok(listed(s, a));
  assert.equal(a.discard, discards[1]);
  assert.equal(dec.drawKey(a.draw), draws.at(-1).key);
  // Changing the discard keeps the draw when that pair is listed too.
  assert.ok(dec.passDiscard(s, discards[0]));
  assert.equal(dec.passToSend(s).discard, discards[0]);
});

test("a stale decision is dropped when the listed actions change", () => {
  const s = table("mission.json");
  dec.openMission(s, "MS24");
  dec.choosePayment(s, 2);
  st.setDocument(s, load("mid.json"), 11, 0); // a new turn: no missions listed
  dec.reconcileDecision(s);
  assert.equal(s.decision, null);
  const t = table("mid.json");
  dec.openPass(t);
  dec.passDiscard(t, dec.passDiscards(st.legalOf(t))[0]);
  st.setDocument(t, load("mission.json"), 11, 0); // no pass listed any more
  dec.reconcileDecision(t);
  assert.equal(t.decision, null);
});

test("a pending tail choice offers the tracks of the listed choose_tail actions", () => {
  const s = table("tail.json");
  assert.deepEqual(dec.tailChoices(st.legalOf(s)), st.legalOf(s).filter((a) => a.type === "choose_tail").map((a) => a.track));
  assert.ok(dec.tailChoices(st.legalOf(s)).length >= 1);
  assert.deepEqual(dec.tailChoices(st.legalOf(table("mid.json"))), []);
});

test("a hand card with exactly one use is its own button; several uses stay separate", () => {
  const legal = [
    { type: "cash_gold", card: "RF21" },
    { type: "use_treasure", card: "HT10", convert: ["green", "red"] },
    { type: "use_treasure", card: "HT10", convert: ["green", "blue"] },
    { type: "play_reef", card: "RF26" },
  ];
  assert.equal(dec.handCardAction(legal, "RF21"), legal[0]);
  assert.equal(dec.handCardAction(legal, "RF26"), legal[3]);
  assert.equal(dec.handCardAction(legal, "HT10"), null);
  assert.equal(dec.handCardAction(legal, "S01"), null);
});
