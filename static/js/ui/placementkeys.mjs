// The table's placement controls and keys, one copy for the game page and the tutorials: the
// placement bar's buttons (ui/actions.mjs calls these controls) and the keyboard (1-9 a card,
// arrows, R, F, N / Shift+N, H, E, Enter, Esc, M, D, B). Each page passes its own parts: how
// it picks a card, sends an action, redraws, shows the majorities.

import * as dec from "../lib/decisions.mjs";
import * as st from "../lib/state.mjs";

export const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/**
 * The placement bar's controls over `state`: each changes the state and asks for a redraw;
 * `confirm` sends the fixed ghost's listed action with `act`.
 * @param {object} state the table state (lib/state.mjs)
 * @param {() => void} schedule redraw soon
 * @param {(action: object) => void} act send an action
 */
export function placementControls(state, schedule, act) {
  return {
    rotate: () => (st.rotateGhost(state), schedule()),
    mirror: () => (st.mirrorGhost(state), schedule()),
    nextLegal: () => (st.cycleLegal(state), schedule()),
    editSquares: () => (st.shapeAgain(state) || st.editSquares(state), schedule()),
    lock: () => (st.lockGhost(state), schedule()),
    cycleHead: () => (st.chooseHead(state), schedule()),
    cancel: () => (st.clearSelection(state), schedule()),
    confirm: () => {
      const a = state.locked && st.placementToSend(state);
      if (a) act(a);
    },
  };
}

/**
 * The decision panel's choosers (missions, the pass, Convert) over `state`. `revealed` runs
 * after a chooser opened from elsewhere on the page (the game page scrolls it into view).
 */
export function decisionControls(state, schedule, revealed = () => {}) {
  const opened = (yes) => {
    if (yes) st.clearSelection(state);
    revealed();
    schedule();
  };
  return {
    openMission: (id) => opened(dec.openMission(state, id)),
    choosePayment: (i) => (dec.choosePayment(state, i), schedule()),
    openPass: () => (dec.openPass(state) && st.clearSelection(state), schedule()),
    passDiscard: (card) => (dec.passDiscard(state, card), schedule()),
    passDraw: (key) => (dec.passDraw(state, key), schedule()),
    closeDecision: () => (dec.closeDecision(state), schedule()),
    openConvert: (card) => opened(dec.openConvert(state, card)),
    convertPick: (side, colour) => (dec.convertPick(state, side, colour), schedule()),
  };
}

/** D: the first control of the decision panel (else of the hand), so keys skip the page's rest. */
export function focusDecision(decisions, hand) {
  const first = [...decisions.querySelectorAll("button:not([disabled])")].find((b) => !b.closest("details"));
  (first ?? hand.querySelector("button:not([disabled])"))?.focus();
}

/**
 * Listen to the table's keys on the document. `o`: `state`, `controls` (placementControls'),
 * `pick(card)` (a hand card chosen), `toggleOverlay()` (M), `schedule()`, and the page's
 * `board` canvas, `decisions` panel and `hand` panel. Returns the handler.
 */
export function installPlacementKeys(o) {
  const { state, controls, pick, toggleOverlay, schedule, board, decisions, hand } = o;
  function onKey(e) {
    if (e.target.closest("input, textarea, select") || e.altKey || e.ctrlKey || e.metaKey) return;
    const k = e.key;
    const cards = st.myHand(state);
    if (/^[1-9]$/.test(k) && cards[Number(k) - 1]) pick(cards[Number(k) - 1]);
    else if (k === "m" || k === "M") toggleOverlay();
    else if (k === "d" || k === "D") focusDecision(decisions, hand);
    else if ((k === "b" || k === "B") && document.activeElement !== board) board.focus();
    else if (k === "Escape" && state.decision) dec.closeDecision(state);
    else if (!state.selected) return;
    else if (ARROWS[k]) {
      if (state.locked) st.unlockGhost(state);
      st.moveGhostBy(state, ...ARROWS[k]);
    } else if (k === "r" || k === "R") st.rotateGhost(state);
    else if (k === "f" || k === "F") st.mirrorGhost(state);
    else if (k === "n" || k === "N") st.cycleLegal(state, e.shiftKey ? -1 : 1);
    else if (k === "h" || k === "H") st.chooseHead(state);
    else if ((k === "e" || k === "E") && st.shapeIsFree(state)) st.shapeAgain(state) || st.editSquares(state);
    else if (k === "Escape") state.locked ? st.unlockGhost(state) : st.clearSelection(state);
    else if (k === "Enter" && e.target.tagName !== "BUTTON") state.locked ? controls.confirm() : st.lockGhost(state);
    else return;
    e.preventDefault();
    schedule();
  }
  document.addEventListener("keydown", onKey);
  return onKey;
}
