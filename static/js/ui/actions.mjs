// The decision panel: the placement bar (rotate, mirror, head, confirm, with the cost and
// rewards preview) and one button for every other legal action, grouped. Action types the
// client does not know still get a button labelled from their JSON, so nothing is unreachable.

import { actionGroup, actionLabel, phaseText } from "../lib/cards.mjs";
import * as st from "../lib/state.mjs";
import { fill, h, shipChip } from "./dom.mjs";

const GROUPS = [
  ["choice", "Choose"],
  ["missions", "Complete a mission"],
  ["draw", "Draw a Pattern card"],
  ["other", "Other actions"],
  ["pass", "Pass instead"],
];

/** Preview line for the ghost: cost and what the covered symbols give. */
function previewLine(s) {
  const p = st.preview(s);
  const bits = [h("span.cost", {}, p.cost ? `Cost ${p.cost} Gold` : "No cost")];
  if (p.gold) bits.push(h("span", {}, `+${p.gold} Gold`));
  if (p.reefs) bits.push(h("span", {}, `+${p.reefs} Reef draw${p.reefs > 1 ? "s" : ""}`));
  if (p.ships.length) bits.push(h("span", {}, "ships ", p.ships.map((c) => shipChip(c))));
  return h("div.preview", { "aria-live": "polite" }, bits);
}

function placementBar(s, ctl) {
  if (!s.selected) {
    const can = st.allPlaceActions(s).length > 0;
    return can ? h("p.hint", {}, "Pick a card from your hand to place a Dragon (or press 1 / 2).") : null;
  }
  const legal = !!st.currentAction(s);
  const status = s.locked
    ? "Choose the head square (click a square of the Dragon, or H), then confirm."
    : legal
      ? "Legal here: click or press Enter to fix it."
      : "Not legal here. Move it (arrows / pointer), rotate (R), mirror (F), or N for the next legal spot.";
  const count = st.placeActions(s).length;
  return h(
    "div.placing",
    {},
    h("div.placing-title", {}, h("b", {}, `Placing ${s.selected}`), h("span.muted", {}, ` · ${count} legal spot${count === 1 ? "" : "s"}`)),
    h(`p.status${legal ? ".ok" : ".bad"}`, { role: "status" }, status),
    previewLine(s),
    h(
      "div.buttons",
      {},
      h("button", { type: "button", onclick: ctl.rotate, disabled: s.locked, dataset: { key: "rotate" }, title: "Rotate (R)" }, "⟳ Rotate"),
      h("button", { type: "button", onclick: ctl.mirror, disabled: s.locked, dataset: { key: "mirror" }, title: "Mirror (F)" }, "⇋ Mirror"),
      h("button", { type: "button", onclick: ctl.nextLegal, disabled: s.locked || !count, dataset: { key: "next" }, title: "Next legal spot (N)" }, "Next spot"),
      s.locked
        ? h("button", { type: "button", onclick: ctl.cycleHead, dataset: { key: "head" }, title: "Next head square (H)" }, "Head ↻")
        : h("button", { type: "button", onclick: ctl.lock, disabled: !legal, dataset: { key: "lock" } }, "Fix here"),
      h("button.primary", { type: "button", onclick: ctl.confirm, disabled: !s.locked || s.pending, dataset: { key: "confirm" }, title: "Confirm (Enter)" }, "Place Dragon"),
      h("button.ghost-btn", { type: "button", onclick: ctl.cancel, dataset: { key: "cancel" }, title: "Cancel (Esc)" }, "Cancel"),
    ),
  );
}

/** A short line about what is awaited, for players and spectators alike. */
function waitingLine(s) {
  const v = st.viewOf(s);
  if (!v) return null;
  if (v.over) {
    return h(
      "div.turn-line",
      {},
      h("p", {}, h("b", {}, "Game over"), " · the final scores are below the board"),
      h("div.buttons", {}, h("a.button", { href: `/games/${s.gameId}/replay${location.search}` }, "Watch the replay"), h("a.button", { href: "/" }, "Back to the lobby")),
    );
  }
  const who = v.turn.seat === s.seat ? "Your turn" : `${s.names[v.turn.seat] || v.players[v.turn.seat].colour} to play`;
  const pend = v.pending?.[0];
  const what = pend ? `choosing (${pend.kind.replace(/_/g, " ")})` : phaseText(v.turn.phase);
  return h("p.turn-line", {}, h("b", {}, who), ` · ${what} · turn ${v.turn.number}`);
}

const shownBySlot = new WeakMap(); // slot element -> the JSON of what it last showed

/**
 * The slot `name` of the panel `el`: a child created once and kept, so that updating one part
 * of the panel never replaces another part's buttons under the pointer.
 */
function slot(el, name) {
  let child = el.querySelector(`:scope > [data-slot="${name}"]`);
  if (!child) {
    child = h("div", { dataset: { slot: name } });
    el.append(child);
  }
  return child;
}

/** Redraw slot `name` with `draw()` only when `inputs` differ from what it shows. */
function keyedSlot(el, name, inputs, draw) {
  const target = slot(el, name);
  const key = JSON.stringify(inputs);
  if (shownBySlot.get(target) === key) return;
  shownBySlot.set(target, key);
  fill(target, draw());
}

function actionGroups(s, ctl) {
  const groups = new Map();
  for (const a of st.otherActions(s)) {
    const g = actionGroup(a);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(a);
  }
  return GROUPS.filter(([g]) => groups.has(g)).map(([g, title]) => {
    const acts = groups.get(g);
    const buttons = acts.map((a, i) =>
      h(
        `button.action.act-${a.type}`,
        { type: "button", disabled: s.pending, onclick: () => ctl.act(a), dataset: { key: `${g}-${i}`, action: JSON.stringify(a) } },
        actionLabel(s.content, a),
      ),
    );
    // Passing has many combinations (discard x draw); keep them folded away.
    if (g === "pass") return h("details.group", {}, h("summary", {}, `${title} (${acts.length} ways)`), h("div.buttons.wrap", {}, buttons));
    return h("div.group", {}, h("h4", {}, title), h("div.buttons.wrap", {}, buttons));
  });
}

/**
 * Render the decision panel. Each part lives in its own slot and is redrawn only when what it
 * shows changed: a bot's move changes the turn line, never the "Take my seat back" button, so a
 * click on that button cannot be lost to a rebuild (issue 13, point 2). `ctl` holds the
 * controller's callbacks.
 */
export function renderActions(el, s, ctl) {
  const v = st.viewOf(s);
  if (!v) return;
  const legal = st.legalOf(s);
  const mine = s.seat !== null ? s.seats[s.seat] : null;
  const ghost = [s.selected, s.rot, s.mirrored, s.anchor, s.locked, s.headIndex];
  keyedSlot(el, "turn", [v.over, v.turn, v.pending?.[0]?.kind ?? null, s.seat, s.names, s.gameId], () => waitingLine(s));
  // A bot plays my seat (I let it, or the host did while I was away): offer it back.
  keyedSlot(el, "stand-in", [mine?.bot ?? null, v.over], () =>
    mine?.bot && !v.over
      ? h("div.stand-in", {}, h("p", {}, `A ${mine.bot} bot is playing your seat.`), h("button.primary", { type: "button", onclick: ctl.reclaim, dataset: { key: "reclaim" } }, "Take my seat back"))
      : null,
  );
  keyedSlot(el, "error", [s.error], () => (s.error ? h("p.error", { role: "alert" }, s.error) : null));
  keyedSlot(el, "placing", [ghost, legal, s.pending], () => placementBar(s, ctl));
  keyedSlot(el, "choices", [legal, s.pending, s.selected], () => actionGroups(s, ctl));
  keyedSlot(el, "spectator", [s.seat === null], () => (s.seat === null ? h("p.muted", {}, "Spectator mode: read-only.") : null));
  // The reverse: step away and let a bot play for me until I take the seat back.
  keyedSlot(el, "hand-over", [!!mine, mine?.bot ?? null, v.over], () =>
    mine && !mine.bot && !v.over
      ? h("details.hand-over", {}, h("summary", {}, "Step away"), h("p.muted", {}, "A bot plays your seat until you take it back."), h("button", { type: "button", onclick: ctl.handOver, dataset: { key: "hand-over" } }, "Let a bot play for me"))
      : null,
  );
}
