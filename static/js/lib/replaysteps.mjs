// Stepping through a finished game's replay as the server sends it (GET /api/games/{id}/replay):
// the engine's view at the start, then per move the RFC 6902 ops to the next view. Stepping
// forward applies the ops; every document built is kept, so stepping back (or jumping) only
// reads one. No rule is worked out here: every number shown is the engine's. Pure; no DOM.

import { applyPatch } from "./patch.mjs";

export class ReplaySteps {
  /** `replay`: {start, frames: [{seq, seat, action, lines, ops}], final_scores, seats}. */
  constructor(replay) {
    this.replay = replay;
    this.docs = [replay.start]; // docs[i]: the view after move i (0: the start)
  }

  /** The number of steps: the start and one per move. */
  get length() {
    return this.replay.frames.length + 1;
  }

  /** `i` kept within the steps. */
  clamp(i) {
    return Math.max(0, Math.min(this.length - 1, Number.isFinite(i) ? Math.trunc(i) : 0));
  }

  /** The view at step `i` (built forward from the nearest document already built). */
  viewAt(i) {
    const k = this.clamp(i);
    while (this.docs.length <= k) {
      const n = this.docs.length;
      this.docs.push(applyPatch(this.docs[n - 1], this.replay.frames[n - 1].ops));
    }
    return this.docs[k];
  }

  /** The move that led to step `i` ({seq, seat, action, lines}), or null for the start. */
  moveAt(i) {
    const k = this.clamp(i);
    return k === 0 ? null : this.replay.frames[k - 1];
  }

  /** The squares of the Dragon step `i` placed, or null when it placed none. */
  placedAt(i) {
    const k = this.clamp(i);
    if (k === 0) return null;
    const before = this.viewAt(k - 1).board.dragons.length;
    const dragons = this.viewAt(k).board.dragons;
    return dragons.length > before ? dragons[dragons.length - 1].cells : null;
  }
}
