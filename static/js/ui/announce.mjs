// Live regions for a screen reader: one log of what happened (each move, worded from the
// server's log frames) and one status line for the ghost being placed. Both are visually hidden;
// the game log panel shows the same moves on screen.

const KEEP = 12; // lines kept in the log region: old ones are read already, and the DOM stays small

export class Announcer {
  /** @param {HTMLElement} log a role=log region; @param {HTMLElement} status a role=status one */
  constructor(log, status) {
    this.log = log;
    this.status = status;
  }

  /** Announce one sentence (appended: a live log reads additions only). */
  say(text) {
    if (!text) return;
    const p = document.createElement("p");
    p.textContent = text;
    this.log.append(p);
    while (this.log.childElementCount > KEEP) this.log.firstElementChild.remove();
  }

  /** The ghost's sentence: replaced only when it changed (a repeat would be read again). */
  ghost(text) {
    if (this.status.textContent !== text) this.status.textContent = text;
  }
}
