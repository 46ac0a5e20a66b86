// Colour is never the only way to tell pieces apart: every seat has a shape (drawn on its
// Dragons, shown beside its name in the seats, panels, log and tables) and every ship colour
// a letter. Two palettes: the printed colours, and one whose colours stay apart in lightness
// under red-green colour blindness (deuteranopia, protanopia). Pure; no DOM.

/** The shape of each seat's mark, by seat (the same in both palettes). */
export const SEAT_MARKS = ["circle", "triangle", "square", "diamond", "star"];

/** The mark as a character, for text (seat lists, the log, tables): hidden from screen readers. */
export const MARK_GLYPH = { circle: "●", triangle: "▲", square: "■", diamond: "◆", star: "★" };

/** The letter on each ship colour's tokens ("blue" is the dark blue ship). */
export const SHIP_LETTER = { green: "G", purple: "P", red: "R", blue: "B", any: "?" };

// Fill and outline per seat. The colour-blind fills were chosen so that every pair of seats,
// and every seat against the water, is at least 28 CIELAB units apart under the Machado (2009)
// deuteranopia and protanopia simulations (tests/e2e/test_a11y_colour.py measures it).
export const PALETTES = {
  standard: {
    players: ["#f28c28", "#35a853", "#8e5bd8", "#ea5aa0", "#f2cc1f"],
    dark: ["#9c4f08", "#1d6a32", "#54308f", "#9a2462", "#9c8200"],
  },
  colourblind: {
    players: ["#a34a0c", "#a9edb9", "#5605a0", "#7a0f45", "#f7d503"],
    dark: ["#4a1d00", "#2f7a45", "#26004a", "#2a0012", "#7a6a00"],
  },
};

export const PALETTE_NAMES = Object.keys(PALETTES);

/** The seat's mark shape (seats beyond five reuse the marks, but the game has at most five). */
export const markOf = (seat) => SEAT_MARKS[((seat ?? 0) % SEAT_MARKS.length + SEAT_MARKS.length) % SEAT_MARKS.length];

/** The seat's mark character. */
export const glyphOf = (seat) => MARK_GLYPH[markOf(seat)];

/** Relative luminance (WCAG) of "#rrggbb". */
export function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The ink for a mark drawn on a fill: dark on light fills, white on dark ones. */
export const inkOn = (hex) => (luminance(hex) > 0.3 ? "rgba(0,0,0,0.72)" : "rgba(255,255,255,0.9)");

/** A palette name from storage, or "standard" for anything unknown. */
export const paletteName = (stored) => (PALETTE_NAMES.includes(stored) ? stored : "standard");
