// The link cable between two tabs of this page: the board's link UART over BroadcastChannel.
// SPDX-License-Identifier: MIT
//
// tabend.py's TabEnd (plugged into the board's LINK_UART) calls take() and send(): the firmware's
// own polls, so this end does something only while the firmware looks at its UART, as
// testbed/tcpcable.py's end does. Why BroadcastChannel: it joins the tabs (and windows) of one
// origin in one browser with no server, no network and no shared worker to host; its messages
// reach a hidden tab (only timers are throttled there). It reaches every tab of the origin, so a
// cable is made of it by addressing: each end has an id, and an end in link play that has no
// other end (it was looked at within OPEN_MS) seeks; another such end offers itself, the seeker
// accepts the first offer, and from then on each reads only what its partner sends to it. An end
// with a partner answers nobody else: a third tab in link play finds nobody and waits ("waiting"
// on its glass) until one of the pair is closed, then joins the end left alone, as a new board
// on its cable. The pair holds while both tabs are open (a cable stays plugged when a board
// leaves link play): closing or reloading a tab (pagehide) tells its partner, which then seeks
// again; the firmware sees its silence first (NO LINK after 2 s, linkgame.LOST_MS). A tab that
// dies without a pagehide (a crash) holds its partner until that tab is reloaded. `came` is
// called as bytes come from the partner (oxo.js steps a hidden tab's firmware then).

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
