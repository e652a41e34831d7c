// The tree explorer: rendering only, imported by oxo.js when the explorer is first opened. The
// tree and its counts come from MicroPython (oxoweb.Page.tree_root, tree_expand; coachtree.py,
// in explorer.bin).
// SPDX-License-Identifier: MIT

import { CELLS, SIDE, cellOf, measure, say } from "./coach.js";

// The explorer's parts and their style, put in the page when it is first opened (index.html
// has its <details> and summary only).
const STYLE = String.raw`
  #tree, #tree ul { list-style: none; margin: 0; padding: 0; }
  #tree ul { padding-left: 0.7rem; border-left: 1px solid #3b3f45; margin-left: 0.35rem; }
  .node .open, .node .leaf { display: flex; flex-wrap: wrap; align-items: baseline;
    gap: 0.1rem 0.5rem; width: 100%; min-height: 2.75rem; padding: 0.35rem 0.5rem;
    margin: 2px 0; text-align: left; font: inherit; font-size: 0.9rem; color: var(--fg);
    background: #2a2d31; border: 1px solid #3b3f45; border-radius: 6px; }
  .node .open { cursor: pointer; }
  .node .open::before { content: "\25B8" / ""; color: var(--dim); }
  .node .open[aria-expanded="true"]::before { content: "\25BE" / ""; }
  .node .open:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  .node .mark { font-weight: 700; font-family: ui-monospace, Menlo, monospace; }
  .node.line > .open, .node.line > .leaf { border-color: var(--accent); }
  .node.cut > .open, .node.cut > .leaf { opacity: 0.6; border-style: dashed; }
  .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
    white-space: nowrap; } /* for screen readers only */
  .tag { font-size: 0.75rem; padding: 0 0.35rem; border-radius: 4px; background: #3b3f45; }
  .tag.line { background: var(--accent); color: #222; }
  .counts { flex-basis: 100%; display: flex; flex-wrap: wrap; gap: 0 0.8rem;
    color: var(--dim); font-size: 0.8rem; }
  .root { display: flex; flex-wrap: wrap; align-items: center; gap: 0.3rem 0.8rem;
    margin: 0.5rem 0; color: var(--fg); }
  .mini { display: inline-grid; grid-template-columns: repeat(3, 1.1rem); gap: 1px;
    font: 0.8rem/1.1rem system-ui, sans-serif; text-align: center; }
  .mini span { background: #2a2d31; }
  .tree-note { font-size: 0.85rem; margin: 0.2rem 0 0.4rem; }
  #tree-help { margin-top: 0.6rem; }
  #tree-help summary { min-height: 2.75rem; padding: 0.6rem 0; }
`;
const PARTS = `
  <p class="tree-note"><span id="tree-from"></span>, in the engine's order, centre, corners,
  edges: alpha-beta's cut-offs depend on it. In the tree <kbd>Tab</kbd> moves and
  <kbd>Enter</kbd> opens; <kbd>Esc</kbd> gives the keys back to the game.</p>
  <div id="tree-root"></div>
  <ul id="tree" aria-label="moves from this position"></ul>
  <details id="tree-help">
    <summary>What the numbers mean</summary>
    <p>Each move has the engine's exact score from the mover's side: W/L/D as in the coach,
    and the number, a win in <i>n</i> plies 100&minus;<i>n</i>, a loss
    &minus;(100&minus;<i>n</i>), a draw 0. Open a move for the replies to it. <i>best</i>: the
    highest score of its siblings, as the device's coach boxes it (none when every move
    scores the same). <i>best line</i>: the game the engine plays against itself from here.
    <i>cut off</i>: a plain alpha-beta search from here (moves tried in the order shown)
    never looked at that move: a move tried before it had already shown that the other side
    would never let the game reach the position it is played from, or a move above it was
    cut off. Each node counts the positions searched for it: plain minimax (the whole tree
    below it), that alpha-beta run (0 where it cut off), and the engine (every move scored
    exactly, with its shortcuts and symmetries).</p>
  </details>
`;

const count = (n) => n === null || n === undefined ? "-" : n.toLocaleString("en");
// A node's counts (its key, word, and what it counts) and tags (its key and word), in order.
const COUNTS = [["minimax", "minimax", "plain minimax's positions"],
  ["alphabeta", "alpha-beta", "plain alpha-beta's positions"],
  ["engine", "engine", "the engine's positions"]];
const TAGS = [["best", "best"], ["line", "best line"], ["cut", "cut off"], ["over", "game over"]];

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

export class Explorer {
  // `page`: oxoweb.Page; `oxo`: window.oxo, where the last measure is kept; `details`: the
  // explorer's <details>.
  constructor(page, oxo, details) {
    this.page = page;
    this.oxo = oxo;
    this.root = [0, 1]; // the explorer's position: [board, player to move]
    this.built = null; // the root the explorer shows ("board player"), null: none yet
    this.py = 0; // ms in MicroPython of the expansion under way
    this.explorer = details;
    document.head.append(el("style", { text: STYLE }));
    details.insertAdjacentHTML("beforeend", PARTS);
    this.tree = document.getElementById("tree");
    this.head = document.getElementById("tree-root");
    this.from = document.getElementById("tree-from");
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
  }

  // The position on the glass is `root` ([board, player to move]): shown if the explorer is open.
  show(root) {
    this.root = root;
    if (this.explorer.open) this.build();
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
    // What the tree is of, as it changes: with no game on the glass it is the empty board's.
    this.from.textContent = "The moves from " +
      (board ? "the position on the glass" : "the empty board");
    this.built = key;
    measure(this.oxo, "expand", this.py, started);
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
    return el("span", { class: "counts" }, ...COUNTS.map(([key, word, title]) =>
      el("span", { class: key, title, text: `${word} ${count(node[key])}` })));
  }

  // The <li> nodes of the moves from `path`, computed now.
  nodes(path) {
    const [board, player] = this.root;
    const asked = performance.now();
    const moves = JSON.parse(this.page.tree_expand(board, player, path));
    this.py += performance.now() - asked;
    return moves.map((m) => {
      const tags = TAGS.filter(([key]) => m[key])
        .map(([key, text]) => el("span", { class: `tag ${key}`, text }));
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
      measure(this.oxo, "expand", this.py, started);
    }
    list.hidden = open;
    button.setAttribute("aria-expanded", String(!open));
  }
}
