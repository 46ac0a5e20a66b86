// No click without a choice: when my only listed action is a step with nothing to choose
// (lib/decisions.mjs forcedStep: a lone `decline`, R-58's neutral step without the treasure
// that could answer it, or a lone `choose_tail`), the page sends it after a moment in which the
// panel says what happens. It goes by the same road as a click (the page's `act`), so every
// frame the others receive is the one a click would have made, held secret card or not.

import { forcedStep } from "../lib/decisions.mjs";

export const FORCED_STEP_MS = 700;

/**
 * Returns `consider()`, to call after each new document: it (re)arms the send for this
 * version; a newer version, an action in flight or a click first make it send nothing.
 */
export function goOnWhenForced(state, act) {
  let timer = 0;
  return function consider() {
    clearTimeout(timer);
    const version = state.version;
    if (!forcedStep(state)) return;
    timer = setTimeout(() => {
      const a = state.version === version && !state.pending ? forcedStep(state) : null;
      if (a) act(a);
    }, FORCED_STEP_MS);
  };
}
