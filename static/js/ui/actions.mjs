// The decision panel: the placement bar (rotate, mirror, head, confirm, with a live preview of
// the ghost under the pointer) and every other decision drawn as its pieces (ui/decide.mjs):
// mission cards and payments, draws as cards, the pass as two choices, picks, a tail by its
// track. Action types the client does not know still get a button labelled from their JSON.

import { actionGroup, actionLabel, phaseText } from "../lib/cards.mjs";
import { cellsKey } from "../lib/geometry.mjs";
import { outcomeBits } from "../lib/outcomes.mjs";
import * as dec from "../lib/decisions.mjs";
import * as st from "../lib/state.mjs";
import { hasKey, t, tn } from "../lib/i18n.mjs";
import { botLevelName } from "../lib/seats.mjs";
import { convertChoices, drawChoices, missionChoices, passChoices, pickChoices } from "./decide.mjs";
import { fill, h, shipChip } from "./dom.mjs";

/**
 * What the ghost's placement gives, as the engine works it out (GET .../outcomes, matched to
 * the ghost's squares): nothing is computed here, so the preview is what placing then does.
 */
function previewBits(s, legal) {
  if (!legal) return [h("span.muted", {}, t("actions.outcome_on_legal"))];
  const o = st.currentOutcome(s);
  if (!o) return [h("span.muted.outcome-wait", {}, s.outcomes?.error ? t("actions.no_preview", { error: s.outcomes.error }) : t("actions.working_out"))];
  return outcomeBits(o, s.names).map((b) =>
    h(`span.${b.kind === "cost" ? "cost" : `out-${b.kind}`}`, {}, b.text, ...(b.colours?.length ? [" ", ...b.colours.map((c) => shipChip(c))] : [])),
  );
}

/** A seat's colour as a word ("Green"), for a seat without a name. */
const colourWord = (c) => (hasKey(`colour.${c}`) ? t(`colour.${c}`) : c);

function statusText(s, legal, touch) {
  if (s.freeCells && !s.locked) {
    const n = s.freeCells.length;
    const key = `actions.free.${legal ? "legal" : "illegal"}_${touch ? "tap" : "click"}`;
    return tn(key, n);
  }
  if (s.locked) return t(touch ? "actions.choose_head_tap" : "actions.choose_head_click");
  if (touch) return legal ? t("actions.legal_tap") : t("actions.illegal_tap");
  return legal ? t("actions.legal_click") : t("actions.illegal_click");
}

/** The bar's frame and buttons; what it says about the ghost is filled in by updatePlacement. */
function placementBar(s, ctl, touch) {
  if (st.lookingOnly(s)) return lookingBar(s, ctl);
  if (!s.selected) {
    const can = st.allPlaceActions(s).length > 0;
    const how = touch ? t("actions.pick_card_tap") : t("actions.pick_card_click");
    return can ? h("p.hint", {}, how) : null;
  }
  const count = st.placeActions(s).length;
  return h(
    "div.placing",
    {},
    h("div.placing-title", {}, h("b", {}, t("actions.placing", { card: s.selected })), h("span.muted", {}, " · ", tn("actions.legal_spots", count))),
    h("p.status", { role: "status" }),
    h("div.preview"),
    h(
      "div.buttons.placing-buttons",
      {},
      h("button", { type: "button", onclick: ctl.rotate, disabled: s.locked, dataset: { key: "rotate" }, title: t("actions.rotate_title") }, t("actions.rotate")),
      h("button", { type: "button", onclick: ctl.mirror, disabled: s.locked, dataset: { key: "mirror" }, title: t("actions.mirror_title") }, t("actions.mirror")),
      h("button", { type: "button", onclick: ctl.nextLegal, disabled: s.locked || !count, dataset: { key: "next" }, title: t("actions.next_title") }, t("actions.next")),
      // This turn the Dragon may take other squares than the card's shape (listed placements say so).
      st.shapeIsFree(s) ? h("button.toggle", { type: "button", onclick: ctl.editSquares, disabled: s.locked, dataset: { key: "edit-squares" }, "aria-pressed": String(!!s.freeCells), title: t("actions.edit_title") }, s.freeCells ? t("actions.card_shape") : t("actions.edit_squares")) : null,
      s.locked
        ? h("button", { type: "button", onclick: ctl.cycleHead, dataset: { key: "head" }, title: t("actions.head_title") }, t("actions.head"))
        : h("button", { type: "button", onclick: ctl.lock, dataset: { key: "lock" }, title: t("actions.lock_title") }, t("actions.lock")),
      h("button.primary", { type: "button", onclick: ctl.confirm, dataset: { key: "confirm" }, title: t("actions.confirm_title") }, t("actions.confirm")),
      h("button.ghost-btn", { type: "button", onclick: ctl.cancel, dataset: { key: "cancel" }, title: t("actions.cancel_title") }, t("actions.cancel")),
    ),
    h("p.legend.ghost-legend", {}, h("i.dot"), t("actions.legend_spots"), " ·", h("i.ok-box"), t("actions.legend_legal"), " ·", h("i.bad-box"), t("actions.legend_illegal")),
  );
}

/**
 * A card picked when no placement is listed (another seat is to play, or not the placing step):
 * whose turn it is, and the card to turn and move over the board, with no verdict on any spot.
 */
function lookingBar(s, ctl) {
  const v = st.viewOf(s);
  const theirs = v.turn.seat !== s.seat;
  const why = theirs ? t("actions.look_their_turn", { name: s.names[v.turn.seat] || colourWord(v.players[v.turn.seat].colour) }) : t("actions.look_not_now");
  return h(
    "div.placing.looking",
    {},
    h("div.placing-title", {}, h("b", {}, t("actions.looking", { card: s.selected }))),
    h("p.status.look", { role: "status" }, why),
    h(
      "div.buttons.placing-buttons",
      {},
      h("button", { type: "button", onclick: ctl.rotate, dataset: { key: "rotate" }, title: t("actions.rotate_title") }, t("actions.rotate")),
      h("button", { type: "button", onclick: ctl.mirror, dataset: { key: "mirror" }, title: t("actions.mirror_title") }, t("actions.mirror")),
      h("button.ghost-btn", { type: "button", onclick: ctl.cancel, dataset: { key: "cancel" }, title: t("actions.cancel_title") }, t("actions.cancel")),
    ),
  );
}

const liveKey = new WeakMap(); // placing bar -> the JSON of the ghost it last described

/**
 * Describe the ghost as it is now: legal or not, cost and rewards, and whether it can be fixed
 * or placed. Runs on every frame (the pointer moves the ghost without any other change) but
 * only touches the text and the buttons' disabled flags: no button is ever replaced, so a click
 * is never lost to it.
 */
export function updatePlacement(el, s, touch = false) {
  const bar = el.querySelector(":scope > [data-slot=placing] > .placing");
  if (!bar || bar.classList.contains("looking")) return; // a card only looked at has no verdict
  const key = JSON.stringify([s.selected, s.rot, s.mirrored, s.anchor, s.freeCells, s.locked, s.headIndex, s.docSeq, s.pending, touch, s.outcomes?.key, !!s.outcomes?.list]);
  if (liveKey.get(bar) === key) return;
  liveKey.set(bar, key);
  const legal = !!st.currentAction(s);
  const status = bar.querySelector(".status");
  status.textContent = statusText(s, legal, touch);
  status.className = `status ${legal ? "ok" : "bad"}`;
  const preview = bar.querySelector(".preview");
  fill(preview, previewBits(s, legal));
  // Which squares the preview describes, and whether the engine's numbers are in (tests wait on it).
  preview.dataset.ghost = cellsKey(st.ghostCells(s));
  preview.dataset.ready = String(!!st.currentOutcome(s));
  const edit = bar.querySelector("[data-key=edit-squares]");
  if (edit) {
    edit.setAttribute("aria-pressed", String(!!s.freeCells));
    edit.textContent = s.freeCells ? t("actions.card_shape") : t("actions.edit_squares");
  }
  const lock = bar.querySelector("[data-key=lock]");
  if (lock) lock.disabled = !legal || s.pending;
  bar.querySelector("[data-key=confirm]").disabled = !s.locked || !legal || s.pending;
}

// What a pending step of the turn is about, in words (the engine's `pending[0].kind`).
const PENDING_WORDS = ["reef", "advance", "tail", "treasure"];

/** A short line about what is awaited, for players and spectators alike. */
function waitingLine(s) {
  const v = st.viewOf(s);
  if (!v) return null;
  if (v.over) {
    return h(
      "div.turn-line",
      {},
      h("p", {}, h("b", {}, t("seats.conn.over")), " · ", t("actions.scores_follow")),
      h("div.buttons", {}, h("a.button", { href: `/games/${s.gameId}/replay${location.search}` }, t("actions.watch_replay")), h("a.button", { href: "/" }, t("common.back_to_lobby"))),
    );
  }
  const who = v.turn.seat === s.seat ? t("actions.your_turn") : t("actions.to_play", { name: s.names[v.turn.seat] || colourWord(v.players[v.turn.seat].colour) });
  const pend = v.pending?.[0];
  const legal = st.legalOf(s);
  const canMission = legal.length ? legal.some((a) => a.type === "mission") : Array.isArray(v.missions_open) ? v.missions_open.length > 0 : undefined;
  const what = pend
    ? PENDING_WORDS.includes(pend.kind) ? t(`actions.pending.${pend.kind}`) : t("actions.pending_other", { kind: pend.kind.replace(/_/g, " ") })
    : phaseText(v.turn.phase, canMission);
  return h("p.turn-line", {}, h("b", {}, who), ` · ${what} · `, t("actions.turn_number", { n: v.turn.number }));
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

/** The actions no piece stands for (and types the client does not know). */
function otherActions(s) {
  const legal = st.legalOf(s);
  // A treasure answering a pending choice is offered beside the Decline button (decide.mjs).
  const answering = legal.some((a) => a.type === "decline");
  // A card in my hand with exactly one use is itself the button (ui/panels.mjs renderHand).
  return st.otherActions(s).filter(
    (a) => a.type !== "take_back" && !isConvert(a) && actionGroup(a) === "other" && !(answering && a.type === "use_treasure") && !(a.card && dec.handCardAction(legal, a.card) === a),
  );
}

/** A button for each of those, labelled from the action (its JSON for unknown types). */
function otherButtons(s, ctl) {
  const acts = otherActions(s);
  if (!acts.length) return null;
  const buttons = acts.map((a, i) =>
    h(
      `button.action.act-${a.type}`,
      { type: "button", disabled: s.pending, onclick: () => ctl.act(a), dataset: { key: `other-${i}`, action: JSON.stringify(a) } },
      actionLabel(s.content, a),
    ),
  );
  return h("div.group", {}, h("h4", {}, t("actions.other")), h("div.buttons.wrap", {}, buttons));
}

const ofTypes = (legal, types) => legal.filter((a) => types.includes(a.type));
const isConvert = (a) => a.type === "use_treasure" && Array.isArray(a.convert);

/**
 * What is switched on for this placement (the Ancestral head, a treasure), for everyone to see,
 * with an Undo while the engine lists `take_back` (until the placement).
 */
function activeLine(s, ctl) {
  const on = st.activeNow(s);
  if (!on.length) return null;
  const v = st.viewOf(s);
  const mine = v.turn.seat === s.seat;
  const back = st.takeBackAction(s);
  return h(
    "div.active-now",
    { role: "status" },
    h("b", {}, mine ? t("actions.switched_on_mine") : t("actions.switched_on", { name: s.names[v.turn.seat] || colourWord(v.players[v.turn.seat].colour) }), " "),
    on.flatMap((x, i) => [i ? " · " : "", h("span.active-tag", { dataset: { active: x.key }, title: x.text }, x.short), x.text ? h("small.muted", {}, ` (${x.text})`) : null]),
    back ? h("button.ghost-btn.act-take_back", { type: "button", disabled: s.pending, onclick: () => ctl.act(back), dataset: { key: "take-back" }, title: t("actions.undo_title") }, t("actions.undo")) : null,
  );
}

/**
 * Render the decision panel. Each part lives in its own slot and is redrawn only when what it
 * shows changed: a bot's move changes the turn line, never the "Take my seat back" button, so a
 * click on that button cannot be lost to a rebuild. `ctl` holds the
 * controller's callbacks (and `touch()`: whether the last input was a finger).
 */
export function renderActions(el, s, ctl) {
  const v = st.viewOf(s);
  if (!v) return;
  const legal = st.legalOf(s);
  const mine = s.seat !== null ? s.seats[s.seat] : null;
  const touch = !!ctl.touch?.();
  const busy = s.pending;
  keyedSlot(el, "turn", [v.over, v.turn, v.pending?.[0]?.kind ?? null, s.seat, s.names, s.gameId, legal.some((a) => a.type === "mission")], () => waitingLine(s));
  // A bot plays my seat (I let it, or the host did while I was away): offer it back.
  keyedSlot(el, "stand-in", [mine?.bot ?? null, v.over], () =>
    mine?.bot && !v.over
      ? h("div.stand-in", {}, h("p", {}, t("actions.stand_in", { level: botLevelName(mine.bot) })), h("button.primary", { type: "button", onclick: ctl.reclaim, dataset: { key: "reclaim" } }, t("actions.reclaim")))
      : null,
  );
  keyedSlot(el, "error", [s.error], () => (s.error ? h("p.error", { role: "alert" }, s.error) : null));
  // The bar's buttons are built when the card, the lock or the number of legal spots change
  // (not on every document: a bot's move must not replace them); the ghost's description
  // follows the pointer on every frame (updatePlacement).
  keyedSlot(el, "active", [st.activeNow(s), v.turn.seat, st.takeBackAction(s), busy, s.names], () => activeLine(s, ctl));
  // While placing, only the status line speaks of taps (updated in place): a switch between
  // finger and mouse must not rebuild the buttons between a press and its release.
  // With no card picked, whether any card can be placed decides the "pick a card" line: it
  // comes back on my next turn after the other seats' turns showed none.
  const canPlace = st.allPlaceActions(s).length > 0;
  const looking = st.lookingOnly(s) ? [v.turn.seat, s.names] : null; // whose turn the look bar names
  keyedSlot(el, "placing", [s.selected, s.locked, st.placeActions(s).length, canPlace, busy, s.selected ? null : touch, st.shapeIsFree(s), looking], () => placementBar(s, ctl, touch));
  updatePlacement(el, s, touch);
  const picks = ofTypes(legal, ["keep_reef", "keep_treasure", "choose_tail", "decline"]);
  if (picks.some((a) => a.type === "decline")) picks.push(...ofTypes(legal, ["use_treasure"]));
  const tailView = picks.some((a) => a.type === "choose_tail") ? [v.reward, v.players.map((p) => p.tails), s.names, v.pending?.[0]?.reason] : null;
  keyedSlot(el, "pick", [picks, tailView, busy, touch], () => pickChoices(s, ctl, s.names));
  keyedSlot(el, "missions", [ofTypes(legal, ["mission"]), s.decision?.kind === "mission" ? s.decision : null, busy, touch], () => missionChoices(s, ctl));
  keyedSlot(el, "convert", [legal.filter(isConvert), s.decision?.kind === "convert" ? s.decision : null, v.players[s.seat ?? 0]?.ships, busy], () => convertChoices(s, ctl));
  keyedSlot(el, "draws", [ofTypes(legal, ["draw", "end_turn"]), v.deck_sizes, v.turn.played_deck, busy], () => drawChoices(s, ctl));
  keyedSlot(el, "pass", [ofTypes(legal, ["pass"]), s.decision?.kind === "pass" ? s.decision : null, v.deck_sizes, busy, touch], () => passChoices(s, ctl));
  keyedSlot(el, "other", [otherActions(s), busy], () => otherButtons(s, ctl));
  keyedSlot(el, "spectator", [s.seat === null], () => (s.seat === null ? h("p.muted", {}, t("actions.spectator")) : null));
  // The reverse: step away and let a bot play for me until I take the seat back.
  keyedSlot(el, "hand-over", [!!mine, mine?.bot ?? null, v.over], () =>
    mine && !mine.bot && !v.over
      ? h("details.hand-over", {}, h("summary", {}, t("actions.step_away")), h("p.muted", {}, t("actions.step_away_note")), h("button", { type: "button", onclick: ctl.handOver, dataset: { key: "hand-over" } }, t("actions.hand_over")))
      : null,
  );
}
