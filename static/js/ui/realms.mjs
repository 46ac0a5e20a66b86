// Realm majorities, live: a compact table beside the board and an overlay drawn on
// the board itself (toggled with the "Majorities" button or M). The figures come from the
// engine's view, live and in replays.

import { realmSummary } from "../lib/realms.mjs";
import { fill, h, seatMark } from "./dom.mjs";
import { markOf } from "../lib/marks.mjs";
import { PLAYER_HEX, REALM_LABEL, mark, roundRect } from "./paint.mjs";

const cap = (s) => s[0].toUpperCase() + s.slice(1);

/** Render the majorities table into `el` (hidden while there is nothing to show). */
export function renderRealms(el, realms, names, opts = {}) {
  if (!realms?.length) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const seats = realms[0].seats.map((x) => x.seat);
  const name = (s) => names[s] || `Seat ${s + 1}`;
  const head = h(
    "tr",
    {},
    h("th", { scope: "col" }, "Realm"),
    h("th.num", { scope: "col", title: "Whirlpools still uncovered: each is worth 3 VP to the leader (2 with 2 players)" }, "Whirl­pools"),
    seats.map((s) => h("th.seat-col", { scope: "col", style: { "--pc": PLAYER_HEX[s] }, title: name(s) }, seatMark(s), name(s))),
  );
  const rows = realms.map((r) =>
    h(
      "tr",
      { dataset: { realm: r.realm }, title: realmSummary(r, names) },
      h("th", { scope: "row" }, h("span.realm-dot", { dataset: { realm: r.realm } }), cap(r.realm)),
      h("td.num", {}, r.whirlpools),
      r.seats.map((x) => {
        const lead = r.leaders.includes(x.seat);
        const tip = `${name(x.seat)}: ${x.dragons} Dragon${x.dragons === 1 ? "" : "s"} counted${x.hidden ? ` (${x.hidden} of them Hidden Dragon card${x.hidden === 1 ? "" : "s"})` : ""}, ${x.pieces} piece${x.pieces === 1 ? "" : "s"}${x.vp ? `, ${x.vp} VP now` : ""}`;
        return h(
          `td.count${lead ? ".lead" : ""}${x.dragons ? "" : ".none"}`,
          { title: tip, dataset: { seat: x.seat } },
          h("b", {}, x.dragons || "·"),
          // The count includes them: say so, so "4" is not read as 4 plus 1.
          x.hidden ? h("small.hidden-mark", {}, `incl. ${x.hidden} hidden`) : null,
          x.vp ? h("small.vp-now", {}, `${x.vp} VP`) : null,
        );
      }),
    ),
  );
  fill(
    el,
    h("h3", {}, opts.title ?? "Realm majorities", h("small.muted", {}, opts.subtitle ?? " · VP if the game ended now")),
    h("table.realms", {}, h("thead", {}, head), h("tbody", {}, rows)),
    h("p.note", {}, "Dragons counted per realm (an Ancestral head counts twice where it lies; pieces break ties); ", h("b", {}, "bold"), " leads. ", opts.hiddenNote ?? "Hidden Dragon cards count only once revealed, your own excepted."),
  );
}

// The middle square of each realm's 7x7 quadrant.
const CENTRES = { starfish: [3, 3], conch: [3, 11], seahorse: [11, 11], turtle: [11, 3] };

/** Draw the majorities on the board: per realm, a card with each present seat's count. */
export function drawRealmOverlay(ctx, realms, rect) {
  for (const r of realms ?? []) {
    const [row, col] = CENTRES[r.realm];
    const cell = rect(row, col);
    const w = cell.w;
    const present = r.seats.filter((x) => x.dragons).sort((a, b) => b.dragons - a.dragons || b.pieces - a.pieces);
    const lines = Math.max(1, present.length) + 1;
    const lh = w * 0.62;
    const bw = w * 5.4;
    const bh = lh * lines + w * 0.3;
    const x = cell.x + w / 2 - bw / 2;
    const y = cell.y + w / 2 - bh / 2;
    ctx.save();
    ctx.globalAlpha = 0.9;
    ctx.fillStyle = "rgba(4, 22, 36, 0.86)";
    roundRect(ctx, x, y, bw, bh, w * 0.25);
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.strokeStyle = REALM_LABEL[r.realm];
    ctx.lineWidth = 1.5;
    ctx.stroke();
    ctx.textBaseline = "middle";
    ctx.font = `700 ${Math.round(w * 0.36)}px system-ui, sans-serif`;
    ctx.fillStyle = REALM_LABEL[r.realm];
    ctx.textAlign = "left";
    const pools = `${r.whirlpools} Whirlpool${r.whirlpools === 1 ? "" : "s"}`;
    ctx.fillText(`${cap(r.realm)} · ${pools}`, x + w * 0.2, y + w * 0.15 + lh / 2);
    present.forEach((p, i) => {
      const cy = y + w * 0.15 + lh * (i + 1.5);
      // The seat's mark in its colour: told apart by shape too.
      mark(ctx, { x: x + w * 0.45 - w * 0.5, y: cy - w * 0.5, w }, markOf(p.seat), PLAYER_HEX[p.seat], 0.5);
      ctx.fillStyle = "#fff";
      ctx.font = `${r.leaders.includes(p.seat) ? 800 : 500} ${Math.round(w * 0.4)}px system-ui, sans-serif`;
      ctx.fillText(`${p.dragons}${r.leaders.includes(p.seat) ? " ★" : ""}`, x + w * 0.8, cy);
      ctx.textAlign = "right";
      ctx.fillText(p.vp ? `${p.vp} VP` : "", x + bw - w * 0.2, cy);
      ctx.textAlign = "left";
    });
    if (!present.length) {
      ctx.fillStyle = "rgba(255,255,255,0.7)";
      ctx.font = `${Math.round(w * 0.36)}px system-ui, sans-serif`;
      ctx.fillText("no Dragon yet", x + w * 0.2, y + w * 0.15 + lh * 1.5);
    }
    ctx.restore();
  }
}
