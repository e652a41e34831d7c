// The page's coach and tree explorer (issue 21) against a plain minimax and a plain alpha-beta
// written here, not taken from the firmware or the page: every score, mark and count shown,
// the best line, the cut-off marks; the scores beside the glass in a game played in the page;
// the keyboard; the phone layout.
// SPDX-License-Identifier: MIT
// Run by host_tests/test_web.py (class web_coach); oxopage.mjs reads the glass.

import * as oxo from "./oxopage.mjs";
import { menu, press } from "./pagekeys.mjs";

// -- the test's own tic-tac-toe ------------------------------------------------------------------

const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8],
  [2, 4, 6]];
const ORDER = [4, 0, 2, 6, 8, 1, 3, 5, 7]; // centre, corners, edges: the explorer's move order
const INF = 1000;
const wins = (cells, side) => LINES.some((l) => l.every((i) => cells[i] === side));
const ended = (cells) => wins(cells, 1) || wins(cells, 2) || !cells.includes(0);

// Plain minimax, every move tried: [the value for `side` to move, the positions visited]. A
// win `ply` plies after the position the plies count from scores 100 - ply for the winner.
function minimax(cells, side, ply) {
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

// Each free cell's score for `side` to move (null taken), and each move's minimax count.
function moves(cells, side) {
  const scores = Array(9).fill(null), counts = Array(9).fill(null);
  for (let i = 0; i < 9; i++) {
    if (cells[i]) continue;
    cells[i] = side;
    const [value, n] = minimax(cells, 3 - side, 1);
    cells[i] = 0;
    scores[i] = -value;
    counts[i] = n;
  }
  return { scores, counts };
}

// coach.py's words: W n, I win with my n-th move from here; L n, they win with their n-th.
function markOf(score) {
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
function bestLine(root, side) {
  const cells = [...root];
  let line = "";
  while (!ended(cells)) {
    const { scores } = moves(cells, side);
    const top = Math.max(...scores.filter((s) => s !== null));
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

async function openExplorer(page) {
  await page.locator("#explorer > summary").click();
  await page.waitForFunction(() => document.querySelectorAll("#tree > li.node").length > 0);
}

// Expand the node `path` (its button) and wait for its replies.
async function expand(page, path) {
  const button = page.locator(`#tree li[data-path="${path}"] > button`);
  await button.click();
  await page.waitForFunction((p) =>
    document.querySelector(`#tree li[data-path="${p}"] > ul > li`), path);
}

const SIDE = ["", "X", "O"];

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
    const { scores, counts } = parents.get(parentPath);
    const free = scores.filter((s) => s !== null);
    const top = Math.max(...free);
    const tie = free.every((s) => s === top); // the device boxes none then: none is best
    const where = `node ${n.path} (${n.move})`;
    t.assert.equal(before[cell], 0, `${where}: not a free cell`);
    t.assert.ok(n.move.startsWith(SIDE[mover] + " "), `${where}: not ${SIDE[mover]}'s move`);
    t.assert.equal(n.score, `(${scores[cell]})`, `${where}: score`);
    t.assert.equal(n.mark, markOf(scores[cell]), `${where}: mark`);
    t.assert.equal(n.tags.includes("best"), scores[cell] === top && !tie, `${where}: best`);
    if (tie) ties++;
    t.assert.equal(n.tags.includes("best line"), line.startsWith(n.path), `${where}: line`);
    t.assert.equal(n.tags.includes("cut off"), !visits.has(n.path), `${where}: cut off`);
    t.assert.equal(number(n.minimax), counts[cell], `${where}: minimax count`);
    const below = [...visits].filter((p) => p.startsWith(n.path)).length;
    t.assert.equal(number(n.alphabeta), below, `${where}: alpha-beta count`);
    const [after] = play(root, side, n.path);
    t.assert.equal(n.expandable, !ended(after), `${where}: expandable`);
    t.assert.equal(n.tags.includes("game over"), ended(after), `${where}: game over`);
    if (!n.tags.includes("game over")) t.assert.ok(number(n.engine) > 0, `${where}: engine`);
    if (n.tags.includes("cut off")) cut++;
  }
  // The root's line: the whole run's counts.
  const head = await page.locator("#tree-root").evaluate((d) => ({
    minimax: d.querySelector(".minimax").textContent,
    alphabeta: d.querySelector(".alphabeta").textContent,
  }));
  t.assert.equal(number(head.minimax), minimax([...root], side, 0)[1], "the root's minimax");
  t.assert.equal(number(head.alphabeta), visits.size, "the root's alpha-beta");
  t.log(`${nodes.length} nodes checked, ${cut} cut off, ${ties} among siblings that all tie; ` +
    `best line ${line}; ` +
    `root: ${head.minimax}, ${head.alphabeta}`);
  return { nodes, line };
}

// Expand the best line to its end, then every move of the root; check all of it.
async function exploreAndCheck(t, page, root, side) {
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

export async function test_the_tree_of_the_empty_board(t) {
  const page = await oxo.open(t);
  await openExplorer(page);
  t.assert.equal(await page.locator("#tree > li.node").count(), 9);
  await exploreAndCheck(t, page, Array(9).fill(0), 1);
}
test_the_tree_of_the_empty_board.timeout = 60;

// -- a two-player game in the page ---------------------------------------------------------------

// From the title: a 2P game (the main menu's second row).
async function twoPlayers(page) {
  await press(page, "SELECT");
  await menu(page, (m) => m.highlight === 0 && m.rows[1].label.startsWith("2 Players"));
  await press(page, "NEXT");
  await menu(page, (m) => m.highlight === 1);
  await press(page, "SELECT");
  return oxo.until(page, (s) => (s.cursor >= 0 ? s : null));
}

// Move the cursor to `cell` with NEXT (it steps through the free cells) and place the mark.
async function place(page, cell) {
  let s = await oxo.until(page, (s) => (s.cursor >= 0 ? s : null));
  for (let k = 0; s.cursor !== cell; k++) {
    if (k > 9) throw new Error(`the cursor does not reach cell ${cell}: ${s.board}`);
    await press(page, "NEXT");
    s = await oxo.until(page, oxo.MOVED, { arg: s.cursor });
  }
  await press(page, "SELECT");
  return oxo.until(page, (s, n) => (s.marks === n + 1 ? s : null), { arg: s.marks });
}

// The coach's grid as shown: the 9 cells' texts, the outlined ones, the caption, why none.
const grid = (page) => page.evaluate(() => ({
  cells: [...document.querySelectorAll("#coach-grid td")].map((td) => td.textContent),
  best: [...document.querySelectorAll("#coach-grid td")].flatMap((td, i) =>
    td.classList.contains("best") ? [i] : []),
  caption: document.getElementById("coach-caption").textContent,
  why: document.getElementById("coach-why").textContent,
}));

// Until the grid shows the scores for `cells` with `side` to move, as the test's minimax has
// them (bounded; the last grid said if not).
async function gridShows(t, page, cells, side) {
  const { scores } = moves([...cells], side);
  const free = scores.filter((s) => s !== null);
  const top = Math.max(...free);
  const tie = free.every((s) => s === top); // the device boxes none then, nor does the page
  const want = {
    cells: cells.map((c, i) => (c ? SIDE[c] : markOf(scores[i]))),
    best: tie ? [] : scores.flatMap((s, i) => (s === top ? [i] : [])),
    caption: `Coach: ${SIDE[side]} to move`,
    why: "",
  };
  let got;
  for (let k = 0; k < 100; k++) {
    got = await grid(page);
    if (JSON.stringify(got) === JSON.stringify(want)) return got;
    await page.waitForTimeout(20);
  }
  t.assert.deepEqual(got, want, `the coach for ${cells.join("")}, ${SIDE[side]} to move`);
}

const GAME = [4, 1, 0, 8, 6, 3, 2]; // X centre, O top, X top left, O blocks, X forks, X wins
const MIDGAME = 3; // the tree is checked after this many moves: O to move, X threatening

export async function test_the_scores_beside_the_glass_in_a_game_and_its_tree(t) {
  const page = await oxo.open(t);
  t.assert.equal((await grid(page)).why, "No game on the glass: start 1P or 2P from the menu.");
  await twoPlayers(page);
  const cells = Array(9).fill(0);
  let side = 1;
  // Cheap: the coach answers (and searches) only when the position changes, not every step.
  await gridShows(t, page, cells, side);
  const updates = await page.evaluate(() => [window.oxo.coach.updates, window.oxo.steps]);
  await page.waitForFunction((n) => window.oxo.steps >= n + 30, updates[1]);
  t.assert.equal(await page.evaluate(() => window.oxo.coach.updates), updates[0],
    "the coach answered again with nothing changed");
  for (let k = 0; k < GAME.length; k++) {
    await gridShows(t, page, cells, side);
    if (k === MIDGAME) {
      t.log(`mid-game: ${cells.join("")}, ${SIDE[side]} to move`);
      await openExplorer(page);
      await exploreAndCheck(t, page, cells, side);
    }
    await place(page, GAME[k]);
    cells[GAME[k]] = side;
    side = 3 - side;
  }
  t.assert.ok(wins(cells, 1), "the game was meant to end with X's line");
  await page.waitForFunction(() => /over/.test(document.getElementById("coach-why").textContent));
  const over = await grid(page);
  t.assert.equal(over.why, "The game is over: no moves left to score.");
  t.assert.deepEqual(over.best, []);
}
test_the_scores_beside_the_glass_in_a_game_and_its_tree.timeout = 90;

export async function test_the_cpu_turn_says_so(t) {
  // A 1P game where the CPU starts: set Starts to CPU in the menu, then play.
  const page = await oxo.open(t, { clock: true });
  await press(page, "SELECT");
  await oxo.tick(page, 200);
  const rows = await menu(page, (m) => (m.highlight === 0 ? m : null));
  const starts = rows.rows.findIndex((r) => r.label.startsWith("Start"));
  t.assert.ok(starts > 0, JSON.stringify(rows));
  // While the CPU thinks the page says whose turn it is: watch every answer the coach gives.
  await page.evaluate(() => {
    window.oxoWhy = [];
    const why = document.getElementById("coach-why");
    new MutationObserver(() => window.oxoWhy.push(why.textContent))
      .observe(why, { childList: true, characterData: true, subtree: true });
  });
  for (let k = 0; k < starts; k++) await press(page, "NEXT"), await oxo.tick(page, 100);
  while ((await page.evaluate(() => window.oxoRead.menu())).rows[starts].value !== "CPU") {
    await press(page, "SELECT");
    await oxo.tick(page, 100);
  }
  for (let k = 0; k < starts; k++) await press(page, "PREV"), await oxo.tick(page, 100);
  await press(page, "SELECT");
  await oxo.tick(page, 1500);
  const seen = await page.evaluate(() => window.oxoWhy);
  t.log(JSON.stringify(seen));
  t.assert.ok(seen.includes("The CPU's turn: the scores show when it is yours."), "no CPU turn");
  t.assert.equal((await grid(page)).caption, "Coach: O to move");
}

// -- keyboard and phone --------------------------------------------------------------------------

export async function test_the_explorer_by_keyboard(t) {
  const page = await oxo.open(t);
  const glass = await page.evaluate(() => Array.from(window.oxo.glass));
  // Tab to the explorer's summary, Enter opens it; Tab on to the first move.
  await page.locator("#mute").focus();
  let k = 0;
  while (!(await page.evaluate(() => document.activeElement.matches("#explorer > summary")))) {
    if (++k > 20) t.assert.fail("Tab never reaches the explorer");
    await page.keyboard.press("Tab");
  }
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll("#tree > li.node").length === 9);
  await page.keyboard.press("Tab");
  const focused = () => page.evaluate(() => {
    const b = document.activeElement;
    return { path: b.closest("li.node")?.dataset.path, expanded: b.getAttribute("aria-expanded"),
      children: b.parentElement.querySelectorAll(":scope > ul:not([hidden]) > li").length };
  });
  t.assert.deepEqual(await focused(), { path: "4", expanded: "false", children: 0 });
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.activeElement.getAttribute("aria-expanded") === "true");
  t.assert.deepEqual(await focused(), { path: "4", expanded: "true", children: 8 });
  await page.keyboard.press(" ");
  await page.waitForFunction(() => document.activeElement.getAttribute("aria-expanded") === "false");
  t.assert.deepEqual(await focused(), { path: "4", expanded: "false", children: 0 });
  await page.keyboard.press(" ");
  await page.keyboard.press("Tab"); // into the replies: O's first
  t.assert.equal((await focused()).path, "40");
  // The game's keys were not pressed meanwhile: the title is on the glass as it was.
  t.assert.equal(await page.evaluate(() => window.oxoRead.text(window.oxo.glass, 10, 21, 8)),
    "OXO 5110");
  t.assert.ok(glass.length === 504);
  // Screen readers: a button's name says the move, its mark and its counts, as the test's own
  // minimax has them.
  const empty = Array(9).fill(0);
  const x = moves(empty, 1);
  const name = await page.locator('#tree li[data-path="4"] > button').textContent();
  t.assert.match(name, new RegExp(`^X centre\\s*${markOf(x.scores[4])}\\s*\\(${x.scores[4]}\\): ` +
    `draw\\s*best line\\s*minimax ${x.counts[4].toLocaleString("en-US")}`)); // all draw: none best
  const o = moves([0, 0, 0, 0, 1, 0, 0, 0, 0], 2);
  const loss = markOf(o.scores[1]);
  const reply = await page.locator('#tree li[data-path="41"] > button').textContent();
  t.assert.match(reply, new RegExp(`^O top\\s*${loss}\\s*\\(${o.scores[1]}\\): they win with ` +
    `their move ${loss.slice(1)}\\s*minimax ${o.counts[1].toLocaleString("en-US")}`));
}

export async function test_the_coach_and_explorer_on_a_phone(t) {
  const context = await t.newContext({ viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  const page = await oxo.open(t, { page: await context.newPage() });
  await page.locator("#explorer > summary").tap();
  await page.waitForFunction(() => document.querySelectorAll("#tree > li.node").length === 9);
  // The deepest the tree goes: the best line to its end.
  const line = bestLine(Array(9).fill(0), 1);
  for (let k = 1; k < line.length; k++) {
    await page.locator(`#tree li[data-path="${line.slice(0, k)}"] > button`).tap();
    await page.waitForFunction((p) =>
      document.querySelector(`#tree li[data-path="${p}"] > ul > li`), line.slice(0, k));
  }
  const seen = await page.evaluate(() => {
    const rect = (el) => el.getBoundingClientRect().toJSON();
    return {
      scroll: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
      targets: [...document.querySelectorAll("#tree button, #explorer > summary")].map(rect),
      grid: rect(document.getElementById("coach-grid")),
      device: rect(document.querySelector(".device")),
    };
  });
  t.log(`scroll ${seen.scroll}, ${seen.targets.length} targets; grid ${JSON.stringify(seen.grid)}`);
  t.assert.ok(seen.scroll[0] <= seen.scroll[1], `it scrolls sideways: ${seen.scroll}`);
  for (const r of seen.targets) {
    t.assert.ok(r.height >= 44 && r.width >= 44, `a ${r.width}x${r.height} target`);
    t.assert.ok(r.right <= 390, `a target past the edge: ${JSON.stringify(r)}`);
  }
  t.assert.ok(seen.grid.right <= 390 && seen.grid.left >= 0, "the coach is off the screen");
  t.assert.ok(seen.grid.top >= seen.device.bottom, "the coach is not below the glass");
}
