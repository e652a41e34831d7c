// The board's flash in the browser: settings.json and error.log kept in localStorage.
// SPDX-License-Identifier: MIT

const FILES = ["settings.json", "error.log"]; // what the board keeps on its flash
const PREFIX = "oxo5110:"; // localStorage key prefix

// localStorage, which may be refused (privacy settings) or full: then kept in memory.
export const store = {
  ok: true, // false once the browser refused: the page plays, and says nothing will be kept
  memory: new Map(),
  get(key) {
    try { return localStorage.getItem(PREFIX + key); } catch { return this.refused(key); }
  },
  set(key, value) {
    try {
      if (value === null) localStorage.removeItem(PREFIX + key);
      else localStorage.setItem(PREFIX + key, value);
      return;
    } catch { this.refused(); }
    if (value === null) this.memory.delete(key); else this.memory.set(key, value);
  },
  refused(key) {
    this.ok = false;
    return key === undefined ? null : this.memory.get(key) ?? null;
  },
};

export class Flash {
  // The files between the port's filesystem (at its root) and the store.
  constructor() {
    this.FS = null; // the port's, once restore() put the files in it
    this.synced = new Map(); // file -> its text as this tab last read or wrote it
    this.forgotten = false;
  }

  restore(FS) {
    this.FS = FS;
    for (const name of FILES) {
      const text = store.get(name);
      this.synced.set(name, text);
      if (text !== null) this.FS.writeFile("/" + name, text);
    }
  }

  save() {
    // Only what this tab's firmware changed: two tabs open do not undo each other's saves.
    if (this.forgotten || !this.FS) return;
    for (const name of FILES) {
      let text = null;
      try { text = this.FS.readFile("/" + name, { encoding: "utf8" }); } catch { /* not yet */ }
      if (text === this.synced.get(name)) continue;
      this.synced.set(name, text);
      store.set(name, text);
    }
  }

  // Nothing is saved any more, then the files go (the page reloads after).
  forget() {
    this.forgotten = true;
    for (const name of FILES) store.set(name, null);
  }
}
