// Replays: rebuild the public view after each move from the setup view and the logged events
// (GET /api/games/{id}/log gives both once a game is over). Pure; no DOM. Only public facts are
// rebuilt (board, Gold, ships, heads, missions, played cards, tails): enough to watch a game.
// A finished game's log names the Reef cards kept (R-60 lets everything show after the end), so
// each frame's realm majorities count the Hidden Dragons held by then.

import { standingsFromView } from "./realms.mjs";

const clone = (x) => JSON.parse(JSON.stringify(x));

function applyEvent(view, e) {
  const p = typeof e.seat === "number" ? view.players[e.seat] : null;
  switch (e.type) {
    case "placed": {
      view.board.dragons.push({ owner: e.seat, cells: e.cells, head: e.head, card: e.card, ancestral: !!e.ancestral });
      const covered = new Set(e.cells.map(([r, c]) => `${r},${c}`));
      view.board.ships = view.board.ships.filter(([r, c]) => !covered.has(`${r},${c}`));
      p.heads -= 1;
      p.played.push(e.card);
      for (const s of e.ships ?? []) p.ships[s] = (p.ships[s] ?? 0) + 1;
      // Gold cards cashed to pay (+4 each), then rewards, then the cost.
      p.gold += 4 * (e.cashed?.length ?? 0) + (e.gold_gained ?? 0) - (e.cost ?? 0);
      for (const [seat, n] of Object.entries(e.neighbour_gold ?? {})) view.players[Number(seat)].gold += n;
      if (e.ancestral && "ancestral" in p) p.ancestral = false;
      break;
    }
    case "mission":
      p.missions.push(e.mission);
      for (const [col, n] of Object.entries(e.tokens ?? {})) p.ships[col] -= n;
      view.market.missions = view.market.missions.filter((m) => m !== e.mission);
      break;
    case "passed":
      p.heads -= 1;
      p.gold += 2;
      if (e.discarded) p.discarded.push(e.discarded);
      break;
    case "cashed":
      p.gold += e.gold ?? 4;
      break;
    case "reef_played":
      p.gold += e.gold ?? 0;
      break;
    case "tail_advanced":
      if (p.tails) p.tails[e.track] = e.to;
      break;
    case "turn_started":
      view.turn.seat = e.seat;
      view.turn.number += 1;
      break;
    case "game_over":
      view.over = true;
      break;
    default:
      break; // draws, keeps and other private details do not change the public board
  }
}

/** Count a kept Hidden Dragon card (its id is in the event's secret part after the end). */
function noteHidden(hidden, e, content) {
  const card = e.type === "reef_kept" ? e.secret?.card : null;
  const reef = card && content?.reefs?.[card];
  if (reef?.kind !== "hidden_dragon" || typeof e.seat !== "number") return;
  const mine = (hidden[e.seat] ??= {});
  mine[reef.realm] = (mine[reef.realm] ?? 0) + 1;
}

/**
 * Frames of a replay: frames[0] is the setup, frames[i] the view after move i.
 * Each frame is {view, move, text, lastPlaced}; `move` is the log entry (null for the setup).
 * The view's `realms` are the majorities at that frame (Hidden Dragons kept so far counted).
 */
export function buildFrames(setupView, moves, finalScores = null, content = null) {
  const hidden = [];
  const setup = clone(setupView);
  setup.realms = standingsFromView(setup, hidden);
  const frames = [{ view: setup, move: null, text: ["Setup"], lastPlaced: null }];
  let view = clone(setup);
  for (const m of moves) {
    view = clone(view);
    let lastPlaced = null;
    for (const e of m.events ?? []) {
      applyEvent(view, e);
      noteHidden(hidden, e, content);
      if (e.type === "placed") lastPlaced = e.cells;
    }
    view.realms = standingsFromView(view, hidden);
    frames.push({ view, move: m, text: m.text ?? [], lastPlaced });
  }
  const last = frames[frames.length - 1].view;
  if (finalScores && last.over) last.scores = finalScores;
  return frames;
}

/** Keep a frame index within range. */
export function clampStep(i, frames) {
  return Math.max(0, Math.min(frames.length - 1, i));
}
