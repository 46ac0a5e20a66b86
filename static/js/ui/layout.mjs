// Page layout helpers for the table and the replay. Wide screens:
// the board column stays in view (sticky) and the board is sized to fit under the top bar.
// One column (phones, narrow windows): the hand and the decisions sit in a bottom sheet, so
// they stay in reach while the board is in view.

import { t } from "../lib/i18n.mjs";

/** Whether the page is laid out in one column (the CSS breakpoint of .table). */
export const oneColumn = () => window.matchMedia("(max-width: 980px)").matches;

// The share of the screen the bottom sheet may cover (it scrolls inside beyond that).
const SHEET_SHARE = 0.3;

const height = (sel) => document.querySelector(sel)?.getBoundingClientRect().height ?? 0;

/**
 * The largest board side that keeps it whole on screen: under the top bar and the board's own
 * bar on wide screens; on one column, leaving room for the bottom sheet below it.
 */
export function maxBoardSide() {
  const above = height(".topbar") + height(".board-bar") + height(".keys:not([hidden])");
  // Wide: the sticky column starts 6px under the top bar, the bar has an 8px margin, and the
  // page's 30px bottom padding must fit too (else the column is pushed up at the very bottom).
  if (!oneColumn()) return window.innerHeight - above - 6 - 8 - 30 - 4;
  const sheetRoom = Math.min(240, window.innerHeight * SHEET_SHARE);
  return window.innerHeight - above - sheetRoom - 24;
}

/**
 * Calls `onChange` when the bars above the board change height (a status that wraps, a button
 * that appears): the board's largest side depends on them (maxBoardSide), and its own observer
 * only sees its column's width.
 */
export function watchBars(onChange) {
  const ro = new ResizeObserver(() => onChange());
  for (const sel of [".topbar", ".board-bar"]) {
    const el = document.querySelector(sel);
    if (el) ro.observe(el);
  }
}

/** The Keys button shows or hides the keyboard help (no inline handler: CSP). */
export function keysToggle(button, panel, onChange) {
  if (!button || !panel) return;
  button.addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    button.setAttribute("aria-expanded", String(!panel.hidden));
    onChange?.();
  });
}

/**
 * The bottom sheet (one column only): fills the room under the board, can be folded down to
 * its first line with the handle, and the page gets padding so nothing hides under it.
 * `share`: the part of the screen's height it may cover at most. Returns {setFolded(bool)}.
 */
export function initSheet(sheet, handle, onChange, { share = SHEET_SHARE } = {}) {
  if (!sheet) return;
  const root = document.documentElement;
  const place = () => {
    const board = document.getElementById("board");
    // Measured with the page scrolled to the top: the board's bottom edge on the screen.
    const bottom = board ? board.getBoundingClientRect().bottom + window.scrollY : 0;
    // At most SHEET_SHARE of the screen: the board and the page above it stay visible.
    const room = Math.max(160, Math.floor(Math.min(window.innerHeight - bottom - 6, window.innerHeight * share)));
    root.style.setProperty("--sheet-max", `${room}px`);
    root.style.setProperty("--sheet-h", `${oneColumn() ? Math.ceil(sheet.getBoundingClientRect().height) : 0}px`);
  };
  const setFolded = (folded) => {
    sheet.classList.toggle("folded", folded);
    handle?.setAttribute("aria-expanded", String(!folded));
    if (handle) handle.textContent = folded ? t("layout.unfold") : t("layout.fold");
    place();
    onChange?.();
  };
  handle?.addEventListener("click", () => setFolded(!sheet.classList.contains("folded")));
  // Focus never hides behind the sheet (WCAG 2.2 SC 2.4.11): a control the keyboard reaches
  // under it is scrolled up above its top edge.
  document.addEventListener("focusin", (e) => {
    const el = e.target;
    if (!oneColumn() || !(el instanceof Element) || sheet.contains(el) || getComputedStyle(sheet).position !== "fixed") return;
    const top = sheet.getBoundingClientRect().top;
    const r = el.getBoundingClientRect();
    if (r.bottom > top - 4) window.scrollBy({ top: r.bottom - top + 12, behavior: "instant" });
  });
  new ResizeObserver(place).observe(sheet);
  const board = document.getElementById("board");
  if (board) new ResizeObserver(place).observe(board);
  window.addEventListener("resize", place);
  place();
  return { setFolded };
}

/**
 * Call `onChange(kind)` when the input kind ("touch", "mouse", "pen") differs from the last
 * press's (or from `initial`, before the first). The change is applied after the press's click, never between its press and its
 * release: wording that follows the input kind rebuilds buttons, and a button rebuilt under a
 * held press loses its click (a frame drawn between the two, on a busy or slow device).
 */
export function followInputKind(initial, onChange, target = document) {
  let last = initial;
  let waiting = null;
  target.addEventListener("pointerdown", (e) => {
    waiting = e.pointerType;
  }, { capture: true });
  const settle = () => {
    if (waiting === null) return;
    const kind = waiting;
    waiting = null;
    // After this task: the click of this release is dispatched first.
    setTimeout(() => {
      if (kind === last) return;
      last = kind;
      onChange(kind);
    }, 0);
  };
  target.addEventListener("pointerup", settle, { capture: true });
  target.addEventListener("pointercancel", settle, { capture: true });
}
