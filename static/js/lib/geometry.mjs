// Square geometry for the 15x15 board: shape transforms for the placement ghost and
// pixel <-> square conversions for the canvas. Pure functions on [row, col] pairs; no DOM.
// These never decide legality (the server's legal_actions does); they only let the client
// show the shape the player is holding and recognise which legal action it matches.

export const SIZE = 15;

/** Shift squares so the smallest row and column are 0, sorted row-major: a canonical form. */
export function normalise(cells) {
  const r0 = Math.min(...cells.map(([r]) => r));
  const c0 = Math.min(...cells.map(([, c]) => c));
  return cells.map(([r, c]) => [r - r0, c - c0]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** A quarter turn clockwise: (r, c) -> (c, -r), then normalised. */
export function rotate(cells) {
  return normalise(cells.map(([r, c]) => [c, -r]));
}

/** A left-right mirror image, normalised. */
export function mirror(cells) {
  return normalise(cells.map(([r, c]) => [r, -c]));
}

/**
 * The shape after `rot` quarter turns clockwise, mirrored first when `mirrored`.
 * Orientation is kept as (rot, mirrored) rather than as accumulated cells so that R and F
 * compose predictably however many times they are pressed.
 */
export function orient(shape, rot, mirrored) {
  let cells = normalise(shape);
  if (mirrored) cells = mirror(cells);
  for (let i = 0; i < ((rot % 4) + 4) % 4; i++) cells = rotate(cells);
  return cells;
}

/** A stable string key for a set of squares, independent of their order. */
export function cellsKey(cells) {
  return cells
    .map(([r, c]) => [r, c])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([r, c]) => `${r},${c}`)
    .join(" ");
}

/**
 * The square of a normalised shape that follows the pointer: the one nearest the centre of
 * its bounding box, so the ghost sits "under the hand" whatever its orientation.
 */
export function pivotOf(cells) {
  const h = Math.max(...cells.map(([r]) => r));
  const w = Math.max(...cells.map(([, c]) => c));
  let best = cells[0];
  let bestD = Infinity;
  for (const [r, c] of cells) {
    const d = (r - h / 2) ** 2 + (c - w / 2) ** 2;
    if (d < bestD - 1e-9) [best, bestD] = [[r, c], d];
  }
  return best;
}

/** The board squares of an oriented shape whose pivot lies on `anchor` (may be off-board). */
export function placeAt(cells, anchor) {
  const [pr, pc] = pivotOf(cells);
  return cells.map(([r, c]) => [r - pr + anchor[0], c - pc + anchor[1]]);
}

/** Whether every square is on the board. */
export function onBoard(cells) {
  return cells.every(([r, c]) => r >= 0 && r < SIZE && c >= 0 && c < SIZE);
}

/**
 * Find (rot, mirrored, anchor) that reproduce `target` squares from `shape`, or null.
 * Used to jump the ghost onto a legal placement (keyboard "next legal spot").
 */
export function orientationFor(shape, target) {
  const want = cellsKey(normalise(target));
  for (const mirrored of [false, true]) {
    for (let rot = 0; rot < 4; rot++) {
      const cells = orient(shape, rot, mirrored);
      if (cellsKey(cells) !== want) continue;
      // target = oriented shape shifted by its top-left corner, so the pivot shifts with it.
      const r0 = Math.min(...target.map(([r]) => r));
      const c0 = Math.min(...target.map(([, c]) => c));
      const [pr, pc] = pivotOf(cells);
      return { rot, mirrored, anchor: [r0 + pr, c0 + pc] };
    }
  }
  return null;
}

/**
 * Where the board sits inside a canvas of cssWidth x cssHeight pixels: a square grid with a
 * margin for realm names, whole-pixel cells so grid lines stay crisp at any devicePixelRatio.
 */
export function boardLayout(cssWidth, cssHeight, margin = 22) {
  const side = Math.max(0, Math.min(cssWidth, cssHeight) - 2 * margin);
  const cell = Math.max(4, Math.floor(side / SIZE));
  const size = cell * SIZE;
  return {
    cell, // CSS pixels per square
    size, // CSS pixels of the whole grid
    x0: Math.floor((cssWidth - size) / 2), // left edge of column 0
    y0: Math.floor((cssHeight - size) / 2), // top edge of row 0
  };
}

/** The [row, col] under a CSS-pixel point of the canvas, or null outside the grid. */
export function hitTest(layout, x, y) {
  const c = Math.floor((x - layout.x0) / layout.cell);
  const r = Math.floor((y - layout.y0) / layout.cell);
  if (r < 0 || r >= SIZE || c < 0 || c >= SIZE) return null;
  return [r, c];
}

/** The CSS-pixel rectangle of a square. */
export function cellRect(layout, r, c) {
  return { x: layout.x0 + c * layout.cell, y: layout.y0 + r * layout.cell, w: layout.cell, h: layout.cell };
}

/** The realm a square belongs to, or null for currents and the island. */
export function realmOf(r, c) {
  if (r === 7 || c === 7) return null;
  if (r < 7) return c < 7 ? "starfish" : "conch";
  return c < 7 ? "turtle" : "seahorse";
}

/** Move an anchor by a step, kept on the board so arrow keys never lose the ghost. */
export function step(anchor, dr, dc) {
  const clamp = (v) => Math.max(0, Math.min(SIZE - 1, v));
  return [clamp(anchor[0] + dr), clamp(anchor[1] + dc)];
}
