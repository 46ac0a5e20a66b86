// The end of a game: the result comes first. The final scores (the winner, then the table) and
// the rematch panel move into one box at the top of the side column on wide screens, or above
// the board on one column; the leftover hand, the log and the rest follow. Before, "Final
// scores" began some 760 px down a 900 px window, under the rematch offer and the hand.

import { h } from "./dom.mjs";

/**
 * Move `parts` (in order) into the result box, placed first: in `side` (wide) or first in
 * `table` (one column). Called again it only moves the box if the layout changed.
 */
export function resultFirst({ table, side, parts }, oneColumn) {
  let box = document.getElementById("result");
  if (!box) {
    box = h("div#result.result-first");
    box.append(...parts);
  }
  const home = oneColumn ? table : side;
  if (home.firstElementChild !== box) home.prepend(box);
  return box;
}
