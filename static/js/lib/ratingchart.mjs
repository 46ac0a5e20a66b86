// The rating-history chart's geometry, pure (no DOM): points in, polyline coordinates out.
// Ratings come from the server (each point is the rating after one rated game); this only
// places them: x by game order, y between the lowest and highest rating with a margin.

/** {points: "x,y x,y ...", min, max} for a chart of `width` x `height` with `pad` inside. */
export function chartGeometry(ratings, width, height, pad = 6) {
  if (!ratings.length) return { points: "", min: null, max: null, coords: [] };
  let min = Math.min(...ratings);
  let max = Math.max(...ratings);
  if (min === max) {
    min -= 10; // a flat line sits in the middle
    max += 10;
  }
  const w = width - 2 * pad;
  const h = height - 2 * pad;
  const step = ratings.length > 1 ? w / (ratings.length - 1) : 0;
  const coords = ratings.map((r, i) => {
    const x = pad + (ratings.length > 1 ? i * step : w / 2);
    const y = pad + h - ((r - min) / (max - min)) * h;
    return [Math.round(x * 10) / 10, Math.round(y * 10) / 10];
  });
  return { points: coords.map(([x, y]) => `${x},${y}`).join(" "), min, max, coords };
}
