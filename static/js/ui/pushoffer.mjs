// The "Notify me" button for pushes with the tab closed (the table's bar and the account page).
// Hidden where the browser cannot take pushes; worded by what this browser's state is.

import { errorText } from "../lib/api.mjs";
import { t } from "../lib/i18n.mjs";
import { currentPush, disablePush, enablePush } from "../lib/push.mjs";
import { fill, h } from "./dom.mjs";

const WORDS = {
  off: "push.notify_me",
  on: "push.on_here",
  denied: "push.blocked",
};

/** Fill `el` with the offer; `onChange` after a switch (the account page redraws its list). */
export async function pushOffer(el, { onChange = () => {} } = {}) {
  const { state } = await currentPush().catch(() => ({ state: "unsupported" }));
  draw(el, state, onChange);
}

function draw(el, state, onChange, error = null) {
  if (state === "unsupported") {
    el.hidden = true;
    return;
  }
  const parts = [];
  if (state === "denied") {
    parts.push(h("span.muted", {}, t(WORDS.denied)));
  } else {
    const btn = h(
      "button.link.push-switch",
      { type: "button", "aria-pressed": String(state === "on"), dataset: { key: "push-switch" } },
      t(WORDS[state]),
    );
    btn.addEventListener("click", async () => {
      btn.disabled = true;
      try {
        const next = state === "on" ? await disablePush() : await enablePush();
        draw(el, next, onChange);
      } catch (e) {
        draw(el, state, onChange, errorText(e));
      }
      onChange();
    });
    parts.push(btn);
  }
  if (error) parts.push(h("span.error", { role: "alert" }, ` ${error}`));
  fill(el, ...parts);
  el.hidden = false;
}
