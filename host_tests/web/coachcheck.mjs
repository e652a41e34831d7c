// What the checks of the page's coach need (web_coach.mjs, web_device.mjs; web_link.mjs the
// words): a plain minimax and alpha-beta of their own, the explorer read and checked against
// them, a 2P game, the grid read, the words beside it.
// SPDX-License-Identifier: MIT

import * as oxo from "./oxopage.mjs";

// -- the test's own tic-tac-toe ------------------------------------------------------------------

const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8],
  [2, 4, 6]];
export const ORDER = [4, 0, 2, 6, 8, 1, 3, 5, 7]; // centre, corners, edges: the explorer's move order
const INF = 1000;
export const wins = (cells, side) => LINES.some((l) => l.every((i) => cells[i] === side));
const ended = (cells) => wins(cells, 1) || wins(cells, 2) || !cells.includes(0);

// Plain minimax, every move tried: [the value for `side` to move, the positions visited]. A
// win `ply` plies after the position the plies count from scores 100 - ply for the winner.
export function minimax(cells, side, ply) {
  if (wins(cells, 3 - side)) return [ply - 100, 1];
  if (!cells.includes(0)) return [0, 1];
  let best = -INF, nodes = 1;
  for (let i = 0; i < 9; i++) {
    if (cells[i]) continue;
    cells[i] = side;
    const [value, n] = minimax(cells, 3 - side, ply + 1);
    cells[i] = 0;
    nodes += n;
    best = Math.max(best, -value);
  }
  return [best, nodes];
}

// Each free cell's score for `side` to move (null taken), each move's minimax count, the top
// score and the best cells, those with it (none when every move ties).
export function moves(cells, side) {
  const scores = Array(9).fill(null), counts = Array(9).fill(null);
  for (let i = 0; i < 9; i++) {
    if (cells[i]) continue;
    cells[i] = side;
    const [value, n] = minimax(cells, 3 - side, 1);
    cells[i] = 0;
    scores[i] = -value;
    counts[i] = n;
  }
  const free = scores.filter((s) => s !== null);
  const top = Math.max(...free);
  const tie = free.every((s) => s === top); // the device boxes none then, nor does the page
  const best = tie ? [] : scores.flatMap((s, i) => (s === top ? [i] : []));
  return { scores, counts, top, best };
}

// coach.py's words: W n, I win with my n-th move from here; L n, they win with their n-th.
export function markOf(score) {
  if (score > 0) return "W" + (100 - score + 1) / 2;
  if (score < 0) return "L" + (100 + score) / 2;
  return "D";
}

// A plain fail-hard negamax alpha-beta from the root, moves in ORDER: the set of the paths
// (cells played from the root, as digits) of every position it visits.
function alphabetaVisits(root, side) {
  const seen = new Set();
  const cells = [...root];
  const search = (path, side, ply, alpha, beta) => {
    seen.add(path);
    if (wins(cells, 3 - side)) return ply - 100;
    if (!cells.includes(0)) return 0;
    for (const i of ORDER) {
      if (cells[i]) continue;
      cells[i] = side;
      const value = -search(path + i, 3 - side, ply + 1, -beta, -alpha);
      cells[i] = 0;
      if (value >= beta) return beta;
      if (value > alpha) alpha = value;
    }
    return alpha;
  };
  search("", side, 0, -INF, INF);
  return seen;
}

// The best line: the first best move in ORDER, then the reply, to the end of the game.
export function bestLine(root, side) {
  const cells = [...root];
  let line = "";
  while (!ended(cells)) {
    const { scores, top } = moves(cells, side);
    const i = ORDER.find((c) => scores[c] === top);
    cells[i] = side;
    line += i;
    side = 3 - side;
  }
  return line;
}

const play = (root, side, path) => {
  const cells = [...root];
  for (const ch of path) cells[Number(ch)] = side, side = 3 - side;
  return [cells, side];
};

// -- what the page shows -----------------------------------------------------------------------

const number = (text) => (/-$/.test(text) ? null : Number(text.replace(/\D/g, "")));

// Every node of the explorer as shown: its path, the texts of its parts and its tags.
async function shownNodes(page) {
  return page.locator("#tree li.node").evaluateAll((all) => all.map((li) => {
    const own = (sel) => li.querySelector(`:scope > :is(button, div) ${sel}`);
    const text = (sel) => own(sel).textContent;
    return {
      path: li.dataset.path,
      move: text(".move"), mark: text(".mark"), score: text(".score"),
      tags: [...li.querySelectorAll(":scope > :is(button, div) .tag")].map((t) => t.textContent),
      minimax: text(".minimax"), alphabeta: text(".alphabeta"), engine: text(".engine"),
      expandable: !!li.querySelector(":scope > button[aria-expanded]"),
    };
  }));
}

// Open the explorer, by a click (or `how`: "tap"), and wait for its moves.
export async function openExplorer(page, how = "click") {
  await page.locator("#explorer > summary")[how]();
  await page.waitForFunction(() => document.querySelectorAll("#tree > li.node").length > 0);
}

// Expand the node `path` (its button, clicked or tapped) and wait for its replies.
export async function expand(page, path, how = "click") {
  await page.locator(`#tree li[data-path="${path}"] > button`)[how]();
  await page.waitForFunction((p) =>
    document.querySelector(`#tree li[data-path="${p}"] > ul > li`), path);
}

export const SIDE = ["", "X", "O"];

// Every node shown against the test's minimax and alpha-beta from `root`, `side` to move.
async function checkTree(t, page, root, side) {
  const nodes = await shownNodes(page);
  const visits = alphabetaVisits(root, side);
  const line = bestLine(root, side);
  t.assert.ok(nodes.length > 0, "no nodes shown");
  const parents = new Map();
  let cut = 0, ties = 0;
  for (const n of nodes) {
    const parentPath = n.path.slice(0, -1);
    if (!parents.has(parentPath)) parents.set(parentPath, moves(...play(root, side, parentPath)));
    const [before, mover] = play(root, side, parentPath);
    const cell = Number(n.path.at(-1));
    const { scores, counts, best } = parents.get(parentPath);
    const over = ended(play(root, side, n.path)[0]);
    const has = (tag) => n.tags.includes(tag);
    // What the node shows, against what the test's own searches say (the engine's count: any).
    const shown = { free: before[cell] === 0, mover: n.move.split(" ")[0], score: n.score,
      mark: n.mark, best: has("best"), line: has("best line"), cut: has("cut off"),
      minimax: number(n.minimax), alphabeta: number(n.alphabeta), expandable: n.expandable,
      over: has("game over"), engine: has("game over") || number(n.engine) > 0 };
    t.assert.deepEqual(shown, { free: true, mover: SIDE[mover], score: `(${scores[cell]})`,
      mark: markOf(scores[cell]), best: best.includes(cell), line: line.startsWith(n.path),
      cut: !visits.has(n.path), minimax: counts[cell],
      alphabeta: [...visits].filter((p) => p.startsWith(n.path)).length, expandable: !over, over,
      engine: true }, `node ${n.path} (${n.move})`);
    if (!best.length) ties++;
    if (shown.cut) cut++;
  }
  // The root's line: the whole run's counts.
  const head = await page.locator("#tree-root").evaluate((d) => ({
    minimax: d.querySelector(".minimax").textContent,
    alphabeta: d.querySelector(".alphabeta").textContent,
  }));
  t.assert.equal(number(head.minimax), minimax([...root], side, 0)[1], "the root's minimax");
  t.assert.equal(number(head.alphabeta), visits.size, "the root's alpha-beta");
  t.log(`${nodes.length} nodes checked, ${cut} cut off, ${ties} among siblings that all tie; ` +
    `best line ${line}; root: ${head.minimax}, ${head.alphabeta}`);
  return { nodes, line };
}

// Expand the best line to its end, then every move of the root; check all of it.
export async function exploreAndCheck(t, page, root, side) {
  const line = bestLine(root, side);
  for (let k = 1; k < line.length; k++) await expand(page, line.slice(0, k));
  const firsts = await page.locator("#tree > li.node").evaluateAll((all) =>
    all.map((li) => li.dataset.path));
  for (const path of firsts) {
    const open = await page.locator(`#tree li[data-path="${path}"] > button`)
      .getAttribute("aria-expanded");
    if (open === "false") await expand(page, path);
  }
  // A node alpha-beta cut off, opened: everything below it is cut off too.
  const { nodes } = await checkTree(t, page, root, side);
  const cutNode = nodes.find((n) => n.tags.includes("cut off") && n.expandable &&
    n.path.length === 2);
  t.assert.ok(cutNode, "no cut-off node two plies down to open");
  await expand(page, cutNode.path);
  const again = await checkTree(t, page, root, side);
  const under = again.nodes.filter((n) => n.path.startsWith(cutNode.path) && n.path !== cutNode.path);
  t.assert.ok(under.length > 0 && under.every((n) => n.tags.includes("cut off")));
}

// -- a two-player game in the page ---------------------------------------------------------------

// From the title: a 2P game. The game's status (whose go), not only a cell that reads as the
// cursor: the menu's highlighted row, still there for a moment, may read as one.
export async function twoPlayers(page) {
  await oxo.fromTitle(page, "2 Players");
  return oxo.until(page, (s) => (s.turn.startsWith("GO") && s.cursor >= 0 ? s : null));
}

// Move the cursor to `cell` with NEXT (it steps through the free cells) and place the mark:
// then the cursor leaves the cell (to a free one, or none at the end). Not a count of the
// cells with ink: with the device's coach on, the free cells hold its marks.
export async function place(page, cell) {
  let s = await oxo.until(page, (s) => (s.cursor >= 0 ? s : null));
  for (let k = 0; s.cursor !== cell; k++) {
    if (k > 9) throw new Error(`the cursor does not reach cell ${cell}: ${s.board}`);
    await oxo.press(page, "NEXT");
    s = await oxo.until(page, oxo.MOVED, { arg: s.cursor });
  }
  await oxo.press(page, "SELECT");
  return oxo.until(page, (s, was) => (s.cursor !== was ? s : null), { arg: cell });
}

// Until the words beside the grid are `why`.
export const saysWhy = (page, why) =>
  page.waitForFunction((w) => document.getElementById("coach-why").textContent === w, why);

// The coach's grid as shown: the 9 cells' texts, the outlined ones, the caption, why none.
export const grid = (page) => page.evaluate(() => ({
  cells: [...document.querySelectorAll("#coach-grid td")].map((td) => td.textContent),
  best: [...document.querySelectorAll("#coach-grid td")].flatMap((td, i) =>
    td.classList.contains("best") ? [i] : []),
  caption: document.getElementById("coach-caption").textContent,
  why: document.getElementById("coach-why").textContent,
}));

// Until the grid shows the scores for `cells` with `side` to move, as the test's minimax has
// them, and `why` in the words' place (bounded; the last grid said if not).
export async function gridShows(t, page, cells, side, why = "") {
  const { scores, best } = moves([...cells], side);
  const want = {
    cells: cells.map((c, i) => (c ? SIDE[c] : markOf(scores[i]))),
    best,
    caption: `Coach: ${SIDE[side]} to move`,
    why,
  };
  let got;
  for (let k = 0; k < 100; k++) {
    got = await grid(page);
    if (JSON.stringify(got) === JSON.stringify(want)) return got;
    await page.waitForTimeout(20);
  }
  t.assert.deepEqual(got, want, `the coach for ${cells.join("")}, ${SIDE[side]} to move`);
}

export const GAME = [4, 1, 0, 8, 6, 3, 2]; // X centre, O top, X top left, O blocks, X forks, X wins
export const MIDGAME = 3; // the tree is checked after this many moves: O to move, X threatening
// The code of the coach's grid and of the explorer: none of it comes with the first frame.
export const COACH_FILES = ["coach.js", "explorer.bin", "explorer.js"];
// The grid's words with the device's Coach setting off.
export const COACH_OFF = "The coach is off. Turn it on in the menu (hold NEXT, or P): Settings, Coach.";
