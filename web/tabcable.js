// The link cable between two tabs of this page: the board's link UART over BroadcastChannel.
// SPDX-License-Identifier: MIT
//
// tabend.py's TabEnd (on the board's LINK_UART) calls take() and send() from the firmware's own
// polls, so this end acts only while the firmware looks at its UART, as testbed/tcpcable.py's.
// BroadcastChannel joins the tabs of one origin with no server, and reaches a hidden tab (only
// timers are throttled there). It reaches every tab, so the cable is made by addressing: an end
// in link play (looked at within OPEN_MS) with no partner seeks, another such end offers itself,
// the seeker accepts the first offer; from then on each reads only its partner, and answers
// nobody else (a third tab waits until one of the pair closes, then joins the one left). The
// pair holds while both tabs are open; a closing tab (pagehide) tells its partner, which seeks
// again (its firmware shows NO LINK after 2 s of silence). A tab that crashes holds its partner
// until reloaded. `came` is called as bytes come (oxo.js then steps a hidden tab's firmware).

const NAME = "oxo5110-link";
const OPEN_MS = 5000; // looked at this recently: in link play (a hidden tab's timers run late)
const SEEK_MS = 500; // how often an end with no partner asks

export class TabCable {
  constructor(oxo, came = () => {}) {
    this.came = came;
    this.id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    this.partner = null;
    this.inbox = []; // hex strings from the partner, not taken yet
    this.lookedAt = -Infinity;
    this.soughtAt = -Infinity;
    this.state = oxo.link = { partner: null, joins: 0 }; // what tests read
    this.channel = new BroadcastChannel(NAME);
    this.channel.onmessage = (e) => this.heard(e.data);
    window.addEventListener("pagehide", () => this.leave());
  }

  // -- what the Python end calls -----------------------------------------------------------------

  /** What came from the partner since the last take(), as hex ("" if nothing). */
  take() {
    this.look();
    const hex = this.inbox.join("");
    this.inbox = [];
    return hex;
  }

  /** Send bytes (hex) to the partner; with none they go nowhere, as on a loose cable. */
  send(hex) {
    this.look();
    if (this.partner !== null) this.post("data", this.partner, hex);
  }

  // -- the pairing -------------------------------------------------------------------------------

  look() {
    const now = performance.now();
    this.lookedAt = now;
    if (this.partner === null && now - this.soughtAt >= SEEK_MS) {
      this.soughtAt = now;
      this.post("seek", null);
    }
  }

  post(kind, to, hex = "") {
    this.channel.postMessage({ kind, from: this.id, to, hex });
  }

  join(other) {
    this.partner = this.state.partner = other;
    this.state.joins++;
    this.inbox = []; // a new board on the cable: nothing of the last one is read
  }

  drop() {
    this.partner = this.state.partner = null;
  }

  heard({ kind, from, to, hex }) {
    if (to !== null && to !== this.id) return; // for another end
    const open = performance.now() - this.lookedAt < OPEN_MS;
    if (kind === "data") {
      if (from === this.partner) {
        this.inbox.push(hex);
        this.came();
      }
    } else if (kind === "seek") {
      if (this.partner === null && open) this.post("offer", from);
    } else if (kind === "offer") {
      if (this.partner === null && open) {
        this.join(from);
        this.post("accept", from);
      }
    } else if (kind === "accept") {
      if (this.partner === null) this.join(from);
      else if (this.partner !== from) this.post("bye", from); // taken meanwhile: refused
    } else if (kind === "bye" && from === this.partner) {
      this.drop();
    }
  }

  leave() {
    if (this.partner !== null) this.post("bye", this.partner);
    this.drop();
  }
}
