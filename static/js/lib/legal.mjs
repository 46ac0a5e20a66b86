// Legal actions arrive on the socket in a compact form (app/realtime/legal_wire.py): placements
// grouped by card and orientation, as the orientation's squares once and then only the anchors.
// `expandLegal` rebuilds the exact list GET /api/games/{id}/state returns (up to order). Pure.

/**
 * The full list of legal actions from the compact form (null -> none; a list passes through).
 * @param {{place: {base: object, cells: number[][], at: number[][]}[], other: object[]}|object[]|null} legal
 * @returns {object[]}
 */
export function expandLegal(legal) {
  if (!legal) return [];
  if (Array.isArray(legal)) return legal;
  const out = [];
  for (const group of legal.place ?? []) {
    for (const at of group.at) {
      const cells = group.cells.map(([dr, dc]) => [at[0] + dr, at[1] + dc]);
      out.push({ ...group.base, cells, head: cells[at.length > 2 ? at[2] : 0] });
    }
  }
  return out.concat(legal.other ?? []);
}

/** A full list in the compact form's shape, unpacked (as the HTTP API sends it). */
export function looseLegal(actions) {
  return actions && actions.length ? { place: [], other: actions } : null;
}
