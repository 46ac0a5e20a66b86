// The table's cues beyond the board: the sounds (ui/sound.mjs) for my turn, a move by another,
// a chat line and the end; the favicon marked while the game waits for me (the tab title says
// it too: lib/seats.mjs titleFor); and the unread-chat mark on the chat's heading and in the
// board bar, since the chat sits far below the board. Chat lines are read out to screen
// readers as they come (the moves are already, from the log frames).

import { chatFromOther, documentCues, logCue, unreadAfter } from "../lib/cues.mjs";
import { t, tn } from "../lib/i18n.mjs";

const ICON = "/static/img/favicon.svg";
const ICON_TURN = "/static/img/favicon-turn.svg";

export class TableCues {
  /**
   * @param {object} o
   * @param {import("./sound.mjs").Sound} o.sound
   * @param {HTMLElement} o.chat the chat's lines
   * @param {HTMLInputElement} o.input the chat's input
   * @param {HTMLElement} o.badge the mark beside the chat's heading
   * @param {HTMLButtonElement} o.jump the board bar's "new chat" button
   * @param {{say(text: string): void}} o.announcer
   */
  constructor({ sound, chat, input, badge, jump, announcer }) {
    this.sound = sound;
    this.chat = chat;
    this.badge = badge;
    this.jump = jump;
    this.announcer = announcer;
    this.last = null; // {myTurn, over} of the last document
    this.unread = 0;
    this.chatInView = false;
    this.icon = document.querySelector('link[rel="icon"]');
    new IntersectionObserver((entries) => {
      this.chatInView = entries.some((e) => e.isIntersecting);
      this.seen();
    }).observe(chat);
    document.addEventListener("visibilitychange", () => this.seen());
    jump.addEventListener("click", () => {
      chat.scrollIntoView({ block: "center" });
      input.focus({ preventScroll: true });
    });
    this.showUnread();
  }

  /** A new document: the end or my turn may sound; the favicon follows whose turn it is. */
  document({ myTurn, over }) {
    const now = { myTurn: !!myTurn, over: !!over };
    for (const cue of documentCues(this.last, now)) this.sound.cue(cue);
    this.last = now;
    const href = now.myTurn ? ICON_TURN : ICON;
    if (this.icon && this.icon.getAttribute("href") !== href) this.icon.setAttribute("href", href);
  }

  /** A move's log frame. */
  move(frame, mySeat) {
    this.sound.cue(logCue(frame, mySeat));
  }

  /** A chat line new to this page (not the history read on arrival). */
  chatLine(line, myUserId) {
    if (!chatFromOther(line, myUserId)) return;
    this.sound.cue("chat");
    this.announcer.say(t("game.chat_said", { name: line.name ?? "?", text: String(line.text ?? "") }));
    this.unread = unreadAfter(this.unread, { fromOther: true, chatSeen: this.chatSeen() });
    this.showUnread();
  }

  chatSeen() {
    return this.chatInView && document.visibilityState === "visible";
  }

  seen() {
    if (this.unread && this.chatSeen()) {
      this.unread = 0;
      this.showUnread();
    }
  }

  showUnread() {
    const text = this.unread ? tn("game.chat_unread", this.unread) : "";
    this.badge.textContent = text;
    this.badge.hidden = !this.unread;
    this.jump.textContent = text;
    this.jump.hidden = !this.unread;
  }
}
