// Rematch at the end of a game: offer it, see everyone's answer, accept or decline.
// Whoever offers or accepts goes straight to the new table.

import { api, errorText } from "../lib/api.mjs";
import { hasKey, t } from "../lib/i18n.mjs";
import { fill, h } from "./dom.mjs";

const POLL_MS = 3000;
const answerText = (answer) => (hasKey(`rematch.answer.${answer}`) ? t(`rematch.answer.${answer}`) : answer);

export class RematchPanel {
  /** `me`: the signed-in user (or null); nothing is offered to those not seated. */
  constructor(el, gameId, me) {
    this.el = el;
    this.gameId = gameId;
    this.me = me;
    this.timer = 0;
    this.error = "";
  }

  /** Show the panel (the game is over) and keep it current until the page goes. */
  async show() {
    this.el.hidden = false;
    await this.load();
    if (!this.timer) this.timer = setInterval(() => this.load(), POLL_MS);
  }

  async load() {
    try {
      // A spectator of a private game sees it by its invite code, as the table itself.
      const code = new URLSearchParams(location.search).get("code");
      const q = code ? `?invite_code=${encodeURIComponent(code)}` : "";
      this.render(await api(`/api/games/${this.gameId}/rematch${q}`));
    } catch (e) {
      this.error = errorText(e);
      this.render(null);
    }
  }

  async post(what) {
    try {
      const data = await api(`/api/games/${this.gameId}/rematch${what}`, { method: "POST" });
      if (what !== "/decline" && data.rematch_id) location.href = `/games/${data.rematch_id}`;
      else this.render(data);
    } catch (e) {
      this.error = errorText(e);
      this.load();
    }
  }

  render(data) {
    const mine = data?.seats.find((s) => this.me && s.user_id === this.me.id) ?? null;
    const seated = !!mine;
    const parts = [h("h3", {}, t("rematch.title"))];
    if (!data || !data.rematch_id) {
      // Who may offer one, and until when (no time limit: any player, any time after the end),
      // so a page without the button says why.
      if (seated) parts.push(h("button.primary", { type: "button", dataset: { key: "rematch-offer" }, onclick: () => this.post("") }, t("rematch.offer")), h("p.muted.small", {}, t("rematch.window")));
      else parts.push(h("p.muted", {}, t(this.me ? "rematch.none_not_seated" : "rematch.none_signed_out")));
    } else {
      parts.push(h("ul.rematch-seats", {}, data.seats.map((s) => h("li", { dataset: { answer: s.answer } }, t("rematch.seat_answer", { name: s.name, answer: answerText(s.answer) })))));
      if (mine?.answer === "pending") {
        parts.push(
          h("div.buttons", {},
            h("button.primary", { type: "button", dataset: { key: "rematch-accept" }, onclick: () => this.post("/accept") }, t("rematch.accept")),
            h("button", { type: "button", dataset: { key: "rematch-decline" }, onclick: () => this.post("/decline") }, t("rematch.decline"))),
        );
      } else if (mine?.answer === "accepted") {
        parts.push(h("a.button", { href: `/games/${data.rematch_id}` }, t("rematch.go")));
      } else if (!seated) {
        parts.push(h("a", { href: `/games/${data.rematch_id}` }, t("rematch.watch")));
      }
    }
    if (this.error) parts.push(h("p.error", { role: "alert" }, this.error));
    fill(this.el, ...parts);
  }
}
