// The coach beside the glass and the tree explorer: rendering only. The scores, the tree and
// its counts come from MicroPython (oxoweb.Page.coach, tree_root, tree_expand; coachtree.py).
// SPDX-License-Identifier: MIT

const CELLS = ["top left", "top", "top right", "left", "centre", "right", "bottom left",
  "bottom", "bottom right"];
const SIDE = ["", "X", "O"];
// What a mark says, in words, for a screen reader and the key under the grid (coach.py mark).
const say = (mark) => mark === "D" ? "draw" :
  mark[0] === "W" ? `you win with your move ${mark.slice(1)}` :
  `they win with their move ${mark.slice(1)}`;
const count = (n) => n === null || n === undefined ? "-" : n.toLocaleString("en");
const cellOf = (board, i) => (board >> (2 * i)) & 3;

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

export class Coach {
  // `page`: oxoweb.Page; `oxo`: window.oxo, where the last timings are kept for the bench.
  constructor(page, oxo) {
    this.page = page;
    this.oxo = oxo;
    this.root = [0, 1]; // the explorer's position: [board, player to move]
    this.built = null; // the root the explorer shows ("board player"), null: none yet
    this.py = 0; // ms in MicroPython of the expansion under way
    this.grid = document.getElementById("coach-grid");
    this.why = document.getElementById("coach-why");
    this.caption = document.getElementById("coach-caption");
    this.explorer = document.getElementById("explorer");
    this.tree = document.getElementById("tree");
    this.head = document.getElementById("tree-root");
    this.explorer.addEventListener("toggle", (e) => {
      if (e.target === this.explorer && this.explorer.open) this.build();
    });
    // In the explorer Tab moves between its moves and Space or Enter opens one (buttons.js
    // leaves the keys alone there); Escape gives the keys back to the game: the focus leaves
    // the explorer.
    this.explorer.addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || !this.explorer.contains(document.activeElement)) return;
      e.preventDefault();
      document.activeElement.blur();
    });
    this.tree.addEventListener("click", (e) => {
      const button = e.target.closest("button[aria-expanded]");
      if (button) this.toggle(button);
    });
    // What the benchmark reads (bench/bench_web_coach.mjs): the last scores shown and the last
    // expansion, each {py: ms in MicroPython, total: ms with the rendering, n: which it is
    // (two measures may take the same time)}.
    oxo.coach = { updates: 0, scores: null, expand: null, measures: 0 };
  }

  // A measure for the benchmark: `what` ("scores", "expand") took `py` ms in MicroPython and
  // the rest of the time since `started` rendering.
  measure(what, py, started) {
    this.oxo.coach[what] = { py, total: performance.now() - started, n: ++this.oxo.coach.measures };
  }

  // After each step of the firmware: redraw only when the coach's answer changed.
  stepped() {
    const started = performance.now();
    const text = this.page.coach();
    if (text === null || text === undefined) return;
    const py = performance.now() - started;
    const answer = JSON.parse(text);
    this.show(answer);
    this.oxo.coach.updates++;
    if (answer.marks) this.measure("scores", py, started);
    const root = answer.root;
    if (root[0] !== this.root[0] || root[1] !== this.root[1]) {
      this.root = root;
      if (this.explorer.open) this.build();
    }
  }

  show(answer) {
    const cells = this.grid.querySelectorAll("td");
    this.grid.classList.toggle("none", !answer.marks);
    // Why there are no scores, or what they are of (a step of the device's review): one place
    // of a fixed height (index.html .why), so the grid does not move as the words change.
    this.why.textContent = answer.why || answer.note || "";
    this.caption.textContent = answer.marks ? `Coach: ${SIDE[answer.player]} to move` : "Coach";
    cells.forEach((td, i) => {
      const mark = answer.marks ? answer.marks[i] : null;
      const taken = answer.marks ? SIDE[cellOf(answer.board, i)] : "";
      const best = answer.marks ? answer.best.includes(i) : false;
      td.textContent = mark || taken;
      td.className = mark ? (best ? "mark best" : "mark") : "taken";
      td.setAttribute("aria-label", mark ? `${CELLS[i]}: ${mark}, ${say(mark)}` +
        (best ? ", best" : "") : taken ? `${CELLS[i]}: ${taken}` : `${CELLS[i]}: empty`);
    });
  }

  // The explorer at this.root, its root's moves listed.
  build() {
    const key = this.root.join(" ");
    if (this.built === key) return;
    const started = performance.now();
    const [board, player] = this.root;
    this.py = 0;
    const moves = this.nodes(""); // first: the root's alpha-beta count is the whole run's
    const asked = performance.now();
    const root = JSON.parse(this.page.tree_root(board, player));
    this.py += performance.now() - asked;
    this.tree.replaceChildren(...moves);
    this.head.replaceChildren(this.rootLine(root));
    this.built = key;
    this.measure("expand", this.py, started);
  }

  rootLine(root) {
    const [board, player] = this.root;
    const mini = el("span", { class: "mini", role: "img",
      "aria-label": "the position: " + CELLS.map((c, i) => `${c} ${SIDE[cellOf(board, i)] ||
        "empty"}`).join(", ") });
    for (let i = 0; i < 9; i++) mini.append(el("span", { text: SIDE[cellOf(board, i)] || "\u00b7" }));
    const said = root.over ? "the game is over" : `${SIDE[player]} to move`;
    return el("div", { class: "root" }, mini, el("span", { class: "what", text: said }),
      this.counts(root));
  }

  counts(node) {
    return el("span", { class: "counts" },
      el("span", { class: "minimax", title: "plain minimax's positions", text:
        `minimax ${count(node.minimax)}` }),
      el("span", { class: "alphabeta", title: "plain alpha-beta's positions", text:
        `alpha-beta ${count(node.alphabeta)}` }),
      el("span", { class: "engine", title: "the engine's positions", text:
        `engine ${count(node.engine)}` }));
  }

  // The <li> nodes of the moves from `path`, computed now.
  nodes(path) {
    const [board, player] = this.root;
    const asked = performance.now();
    const moves = JSON.parse(this.page.tree_expand(board, player, path));
    this.py += performance.now() - asked;
    return moves.map((m) => {
      const tags = [];
      if (m.best) tags.push(el("span", { class: "tag best", text: "best" }));
      if (m.line) tags.push(el("span", { class: "tag line", text: "best line" }));
      if (m.cut) tags.push(el("span", { class: "tag cut", text: "cut off" }));
      if (m.over) tags.push(el("span", { class: "tag over", text: "game over" }));
      const label = [
        el("span", { class: "move", text: `${SIDE[m.side]} ${CELLS[m.cell]}` }),
        el("span", { class: "mark", text: m.mark, title: say(m.mark) }),
        el("span", { class: "score", text: `(${m.score})` }),
        el("span", { class: "sr", text: `: ${say(m.mark)}` }), // what the mark is, read aloud
        ...tags, this.counts(m),
      ];
      const li = el("li", { class: "node" + (m.cut ? " cut" : "") + (m.line ? " line" : ""),
        "data-path": m.path });
      if (m.over) {
        li.append(el("div", { class: "leaf" }, ...label));
      } else {
        li.append(el("button", { type: "button", class: "open", "aria-expanded": "false" },
          ...label));
      }
      return li;
    });
  }

  toggle(button) {
    const li = button.parentElement;
    const open = button.getAttribute("aria-expanded") === "true";
    let list = li.querySelector(":scope > ul");
    if (!open && !list) {
      const started = performance.now();
      this.py = 0;
      list = el("ul", {}, ...this.nodes(li.dataset.path)); // a list in a list: "8 items"
      li.append(list);
      this.measure("expand", this.py, started);
    }
    list.hidden = open;
    button.setAttribute("aria-expanded", String(!open));
  }
}
