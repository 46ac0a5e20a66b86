// The colour-blind palette switch: the choice is kept per browser (localStorage), so it holds
// for every table and replay opened here, signed in or not. The seats' shapes and the ships'
// letters are drawn in both palettes; this only changes the seats' colours.

import { paletteName } from "../lib/marks.mjs";
import { setPalette } from "./paint.mjs";

const KEY = "seadragons.palette";
const WORDS = {
  label: "Colour-blind colours",
  title: "Colours that stay apart with red-green colour blindness (kept in this browser)",
};

function stored() {
  try {
    return paletteName(localStorage.getItem(KEY));
  } catch {
    return "standard"; // storage refused (private mode): the printed colours
  }
}

/** Apply the stored palette now (before the first drawing). */
export function applyStoredPalette() {
  const name = stored();
  setPalette(name);
  document.body.classList.toggle("palette-colourblind", name === "colourblind");
  return name;
}

/** Make `button` the switch; `changed()` redraws the board and the panels. */
export function paletteToggle(button, changed) {
  button.textContent = WORDS.label;
  button.title = WORDS.title;
  const show = (name) => button.setAttribute("aria-pressed", String(name === "colourblind"));
  show(applyStoredPalette());
  button.addEventListener("click", () => {
    const next = stored() === "colourblind" ? "standard" : "colourblind";
    try {
      localStorage.setItem(KEY, next);
    } catch {
      // not kept across pages, but applied to this one
    }
    setPalette(next);
    document.body.classList.toggle("palette-colourblind", next === "colourblind");
    show(next);
    changed();
  });
}
