// The rules page's examples: small live boards drawn by the table's own board code, of
// positions the engine built and scored (GET /api/learn/examples). Every figure shown is the
// engine's; this page only draws.

import { api, errorText } from "../lib/api.mjs";
import { t } from "../lib/i18n.mjs";
import * as st from "../lib/state.mjs";
import { Board } from "../ui/board.mjs";
import { fill, h } from "../ui/dom.mjs";
import { drawTarget } from "../ui/lesson.mjs";

const SIDE = 340; // the largest side of an example board, in CSS pixels

/** One example: its board (with the squares it is about outlined), its words and figures. */
function exampleFigure(ex, content) {
  const canvas = h("canvas", { role: "img", "aria-label": t("rules.board_label", { title: ex.title }) });
  const fig = h(
    "figure.example",
    { dataset: { example: ex.id, kind: ex.kind } },
    h("div.board-wrap", {}, canvas),
    h(
      "figcaption",
      {},
      h("h3", {}, ex.title),
      h("p", {}, ex.text),
      ex.figures.length
        ? h("table.figures", {}, h("tbody", {}, ex.figures.map((f) => h("tr", { dataset: { label: f.label } }, h("th", {}, f.label), h("td.value", {}, String(f.value))))))
        : null,
    ),
  );
  return { fig, canvas, ex, content };
}

function mount({ canvas, ex, content }) {
  const state = st.createState({ content });
  state.names = ex.names;
  st.setDocument(state, { view: ex.view, legal_actions: [] }, 0);
  let frame = 0;
  const target = { cells: ex.marks };
  const draw = () => {
    frame = 0;
    board.draw();
    if (ex.marks.length) drawTarget(board, target);
    canvas.dataset.drawn = "true";
  };
  const board = new Board(canvas, state, { redraw: () => (frame ||= requestAnimationFrame(draw)), maxSide: () => SIDE });
}

async function main() {
  const places = document.querySelectorAll("[data-examples]");
  if (!places.length) return;
  try {
    const [content, { examples }] = await Promise.all([api("/content.json"), api("/api/learn/examples")]);
    for (const place of places) {
      const kinds = place.dataset.examples.split(",");
      const items = examples.filter((x) => kinds.includes(x.kind) || kinds.includes(x.id)).map((x) => exampleFigure(x, content));
      fill(place, items.map((x) => x.fig));
      items.forEach(mount);
    }
  } catch (e) {
    for (const place of places) fill(place, h("p.error", { role: "alert" }, t("rules.examples_failed", { error: errorText(e) })));
  }
}

main();
