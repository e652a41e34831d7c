// The buttons: on-screen keys (mouse, touch) and the keyboard set the board's button pins, in
// order, each level held until the firmware has seen it.
// SPDX-License-Identifier: MIT

// A press or release must last past the firmware's debounce, counted from the poll that saw it
// (buttons.py ignores the pin for debounce_ms after an edge it saw), and at least this long:
const LEVEL_MIN_MS = 50;
// A letter's hold outlasts what the firmware acts on (SELECT's long press, PREV/NEXT's first
// repeat) by this much, as the simulator's do (tools/simkeys.py HOLD_SPARE_MS).
const HOLD_SPARE_MS = 50;
const QUEUE_MAX = 32; // levels waiting (16 presses, ~1.6 s); more are dropped
const NAMES = ["PREV", "NEXT", "SELECT"];
const KEYS = {
  ArrowLeft: "PREV", ArrowUp: "PREV", ArrowRight: "NEXT", ArrowDown: "NEXT",
  " ": "SELECT", Enter: "SELECT",
};
const LETTERS = { h: "SELECT", u: "PREV", p: "NEXT" };

class Button {
  // The board's pin of one button. Levels asked for (a press, a release, a letter's hold) are
  // applied in order, each kept until the firmware has surely seen it: a step ran at least
  // debounce_ms (or the hold's length) after the first step that polled it. Timers alone would
  // cut a level short whenever a step runs late (a busy tab), merging two presses or making a
  // hold a click.
  constructor(name, buttons) {
    this.name = name;
    this.buttons = buttons;
    this.down = false; // the level the firmware's pin has
    this.keep = 0; // ms the level must be polled for (from its first poll)
    this.since = -Infinity; // when it took that level (performance.now())
    this.seen = null; // when the first step after the change ran
    this.polled = null; // when the latest step ran
    this.el = document.querySelector(`[data-button="${name}"]`);
  }

  settled(now) {
    if (this.since === -Infinity) return true; // released since power-on
    return now - this.since >= LEVEL_MIN_MS && this.seen !== null &&
      this.polled - this.seen >= Math.max(this.keep, this.buttons.debounceMs);
  }

  apply(down, keep) {
    this.down = down;
    this.keep = keep;
    this.since = performance.now();
    this.seen = this.polled = null;
    this.el.classList.toggle("down", down);
    this.buttons.page.press(this.name, down);
    this.buttons.oxo.lastPress = this.since;
  }

  stepped(now) {
    if (this.seen === null) this.seen = now;
    this.polled = now;
  }
}

export class Buttons {
  // The three buttons of oxoweb.Page `page`, with one queue for all of them. `buzzer` starts
  // on the first press (a user gesture). oxo.lastPress is for the tests.
  constructor(page, oxo, buzzer) {
    this.page = page;
    this.oxo = oxo;
    this.buzzer = buzzer;
    this.stopped = false;
    this.queue = []; // [button name, down, ms to keep it polled], in order of the events
    this.timer = 0;
    const [debounceMs, longMs, repeatDelayMs] = page.timing().split(" ").map(Number);
    this.debounceMs = debounceMs;
    this.holdMs = { SELECT: longMs + HOLD_SPARE_MS, PREV: repeatDelayMs + HOLD_SPARE_MS,
      NEXT: repeatDelayMs + HOLD_SPARE_MS };
    this.all = NAMES.map((name) => new Button(name, this)); // stepped every step: no new array
    this.byName = Object.fromEntries(this.all.map((button) => [button.name, button]));
  }

  push(name, down, keep = 0) {
    if (this.queue.length >= QUEUE_MAX) return;
    this.queue.push([name, down, keep]);
    this.pump();
  }

  // A letter: `name` held for its hold time from the poll that sees it, then let go.
  letter(name) {
    this.push(name, true, this.holdMs[name]);
    this.push(name, false);
  }

  // The level the button will have once the queue is applied.
  last(name) {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (this.queue[i][0] === name) return this.queue[i][1];
    }
    return this.byName[name].down;
  }

  pump() {
    clearTimeout(this.timer);
    this.timer = 0;
    if (this.stopped) return;
    const now = performance.now();
    // One queue for all buttons: a letter's hold ends before the next key's press begins, as
    // in the simulator. A level the button already has only adds its hold time.
    while (this.queue.length) {
      const [name, down, keep] = this.queue[0];
      const button = this.byName[name];
      if (down === button.down && !keep) { this.queue.shift(); continue; }
      if (!button.settled(now)) {
        this.timer = setTimeout(() => this.pump(), 5);
        return;
      }
      this.queue.shift();
      button.apply(down, keep);
    }
  }

  // The firmware ran a step at `now` (performance.now() before it): each pin was polled.
  stepped(now) {
    for (const button of this.all) button.stepped(now);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  // The on-screen keys, the keyboard, and letting go of everything when the page loses focus.
  wire() {
    for (const button of this.all) {
      const el = button.el, name = button.name;
      el.addEventListener("pointerdown", (e) => {
        if (e.button !== 0) return;
        e.preventDefault(); // no focus, no text selection, no emulated mouse events
        el.setPointerCapture(e.pointerId);
        this.buzzer.start();
        this.push(name, true);
      });
      const release = () => { if (this.last(name)) this.push(name, false); };
      el.addEventListener("pointerup", release);
      el.addEventListener("pointercancel", release);
      el.addEventListener("lostpointercapture", release);
      el.addEventListener("contextmenu", (e) => e.preventDefault()); // a long touch is a hold
      el.addEventListener("click", (e) => e.preventDefault()); // the keyboard handler presses
    }
    // Mouse clicks on the page's own controls leave no focus behind, so that the game's keys
    // (arrows, space, enter) go on reaching the game; Tab still reaches them.
    for (const el of document.querySelectorAll(".options button, .options a")) {
      el.addEventListener("mousedown", (e) => e.preventDefault());
    }
    const held = new Map(); // key -> button held by it
    window.addEventListener("keydown", (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      // The page's own controls keep their keys (Enter on a link or a button, Tab).
      if (e.target.closest("input, textarea, select, a, summary, button:not(.key)")) return;
      // Enter or space on a focused key (reached with Tab) presses that key.
      const focused = e.target.closest(".key");
      const own = focused && (e.key === " " || e.key === "Enter") ? focused.dataset.button : null;
      const name = own || KEYS[e.key];
      const letter = LETTERS[e.key.toLowerCase()];
      if (!name && !letter) return;
      e.preventDefault();
      if (e.repeat) return; // auto-repeat: the firmware makes its own repeat and long press
      this.buzzer.start();
      if (!name) {
        this.letter(letter);
      } else if (!held.has(e.key)) {
        held.set(e.key, name);
        this.push(name, true);
      }
    });
    window.addEventListener("keyup", (e) => {
      const name = held.get(e.key);
      if (!name) return;
      held.delete(e.key);
      this.push(name, false);
    });
    const letGo = () => {
      // A key let go in another window sends no keyup here: nothing stays held.
      for (const [key, name] of held) held.delete(key), this.push(name, false);
    };
    window.addEventListener("blur", letGo);
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) return;
      letGo();
      // A hidden tab's timers run late: a note would sound on until the next step.
      this.buzzer.silence();
    });
  }
}
