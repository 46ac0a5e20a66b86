// The table's sounds, generated with the Web Audio API (no sound files to fetch), and the switch
// that turns them on or off for this browser (localStorage, one choice for playing and one for
// watching: lib/cues.mjs soundKey). Browsers refuse audio before the page had a user gesture,
// so nothing sounds until the first press or key; cues due before that are dropped, not queued.

import { TONES, mayPlay, soundKey, soundOn, strongest } from "../lib/cues.mjs";
import { t } from "../lib/i18n.mjs";

const GATHER_MS = 120; // cues falling due this close together (a move and then my turn) sound once
const GESTURES = ["pointerdown", "keydown", "touchstart"];

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage refused (private mode): the default
  }
}

export class Sound {
  /**
   * @param {HTMLButtonElement|null} button the switch (aria-pressed: sound on)
   * @param {{watching: boolean}} opts watching: a spectator's table or /tv (off by default)
   */
  constructor(button, { watching = false } = {}) {
    this.key = soundKey(watching);
    this.on = soundOn(stored(this.key), watching);
    this.gestured = !!navigator.userActivation?.hasBeenActive;
    this.ctx = null; // the AudioContext, made at the first gesture
    this.due = [];
    this.timer = 0;
    this.played = []; // cues sounded, for the browser tests: [{cue, at}] (at: the audio clock)
    const wake = () => {
      this.gestured = true;
      if (this.on) this.context();
      for (const g of GESTURES) removeEventListener(g, wake, true);
    };
    for (const g of GESTURES) addEventListener(g, wake, true);
    this.button = button;
    if (button) {
      button.textContent = t("sound.label");
      button.title = t("sound.title");
      button.addEventListener("click", () => this.set(!this.on));
      this.show();
    }
  }

  show() {
    this.button?.setAttribute("aria-pressed", String(this.on));
  }

  /** Turn sound on or off, remembered for this browser. */
  set(on) {
    this.on = on;
    try {
      localStorage.setItem(this.key, on ? "on" : "off");
    } catch {
      // applied to this page only
    }
    this.show();
  }

  context() {
    if (!this.ctx) {
      const Ctx = window.AudioContext ?? window.webkitAudioContext;
      if (!Ctx) return null;
      this.ctx = new Ctx();
    }
    if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
    return this.ctx;
  }

  /** A cue falls due; cues due together sound once, as the most important of them. */
  cue(name) {
    if (!name) return;
    this.due.push(name);
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = 0;
        const cue = strongest(this.due);
        this.due = [];
        this.play(cue);
      }, GATHER_MS);
    }
  }

  play(cue) {
    const notes = TONES[cue];
    if (!notes || !mayPlay({ on: this.on, gestured: this.gestured })) return;
    const ctx = this.context();
    if (!ctx) return;
    const start = ctx.currentTime + 0.01;
    for (const [freq, at, len, volume] of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      // A quick rise and an exponential fall: no click at either end.
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(volume, start + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start + at);
      osc.stop(start + at + len + 0.02);
    }
    this.played.push({ cue, at: start });
  }
}
