// The keyboard's "next legal spot" (N) against the engine's own positions: whole random games
// (base and expansion, tests/js/make_fixtures.py placing.json) as the socket sends them (the
// compact legal actions, expanded by lib/legal.mjs), and the Ancestral head, extra-body and
// free-shape positions. Wherever the ghost was and however it was turned, N puts it exactly on
// the squares of a listed placement, and pressing N again visits every listed spot.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as st from "../../static/js/lib/state.mjs";
import { cellsKey } from "../../static/js/lib/geometry.mjs";
import { expandLegal } from "../../static/js/lib/legal.mjs";

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const content = load("content.json");

/** A table at a position: the seat's hand and its legal actions (a minimal view). */
function table(seat, hand, legal) {
  const s = st.createState({ gameId: 1, content });
  s.seat = seat;
  const players = [];
  players[seat] = { hand };
  st.setDocument(s, { view: { viewer: seat, players, board: { dragons: [] } }, legal_actions: legal }, 1, 0);
  return s;
}

function positions() {
  const out = load("placing.json").positions.map((p) => ({ name: `placing seat ${p.seat}`, s: table(p.seat, p.hand, expandLegal(p.legal)) }));
  for (const name of ["ancestral.json", "extra_body.json", "free_shape.json", "mid.json", "start.json"]) {
    const doc = load(name);
    const s = st.createState({ gameId: 1, content });
    s.seat = doc.view.viewer;
    st.setDocument(s, doc, 1, 0);
    out.push({ name, s });
  }
  return out;
}

const listed = (s) => new Set(st.placeActions(s).map((a) => cellsKey(a.cells)));

test("the fixtures hold many placing positions, with the Ancestral head and free shapes", () => {
  const all = positions();
  assert.ok(all.length >= 30, all.length);
  const cards = all.flatMap(({ s }) => [...new Set(st.allPlaceActions(s).map((a) => a.card))]);
  assert.ok(cards.length >= 60, cards.length);
  // A spot listed more than once (one per realm of the Ancestral head), and squares no
  // orientation of the card's shape covers (extra body, free shape).
  assert.ok(all.some(({ s }) => st.allPlaceActions(s).length > new Set(st.allPlaceActions(s).map((a) => `${a.card}|${cellsKey(a.cells)}`)).size));
  assert.ok(all.some(({ s }) => st.myHand(s).some((c) => (st.selectCard(s, c), st.shapeIsFree(s)))));
});

test("from anywhere, turned any way, N lands exactly on a listed placement", () => {
  for (const { name, s } of positions()) {
    for (const card of new Set(st.allPlaceActions(s).map((a) => a.card))) {
      st.selectCard(s, card);
      const want = listed(s);
      for (let rot = 0; rot < 4; rot++) {
        for (const mirrored of [false, true]) {
          for (const anchor of [[0, 0], [7, 7], [14, 14], [3, 11], [12, 2]]) {
            st.selectCard(s, card);
            s.rot = rot;
            s.mirrored = mirrored;
            s.anchor = anchor;
            assert.ok(st.cycleLegal(s), `${name} ${card}`);
            const key = cellsKey(st.ghostCells(s));
            assert.ok(want.has(key), `${name} ${card}: N left the ghost on ${key}`);
            assert.ok(st.currentAction(s), `${name} ${card}: no action for ${key}`);
            assert.equal(cellsKey(st.currentAction(s).cells), key);
          }
        }
      }
    }
  }
});

test("N and Shift+N visit every listed spot of the card, each time on a listed one", () => {
  for (const { name, s } of positions()) {
    for (const card of new Set(st.allPlaceActions(s).map((a) => a.card))) {
      for (const dir of [1, -1]) {
        st.selectCard(s, card);
        const want = listed(s);
        const seen = new Set();
        // The keyboard test's keys first: R, F and a step down before N.
        st.rotateGhost(s);
        st.mirrorGhost(s);
        st.moveGhostBy(s, 1, 0);
        for (let i = 0; i < want.size + 1; i++) {
          st.cycleLegal(s, dir);
          const key = cellsKey(st.ghostCells(s));
          assert.ok(want.has(key), `${name} ${card} (${dir}): N left the ghost on ${key}`);
          seen.add(key);
        }
        assert.equal(seen.size, want.size, `${name} ${card} (${dir}): ${seen.size} of ${want.size} spots`);
      }
    }
  }
});

test("a fixed ghost's action to send is the listed one with the chosen head", () => {
  for (const { name, s } of positions()) {
    const card = st.allPlaceActions(s)[0].card;
    st.selectCard(s, card);
    st.cycleLegal(s);
    assert.ok(st.lockGhost(s), name);
    st.chooseHead(s);
    const sent = st.placementToSend(s);
    assert.equal(cellsKey(sent.cells), cellsKey(st.ghostCells(s)));
    assert.ok(sent.cells.some(([r, c]) => r === sent.head[0] && c === sent.head[1]), name);
  }
});
