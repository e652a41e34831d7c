// The page's coach (issue 21) against coachcheck.mjs's plain minimax and alpha-beta: the tree
// explorer's every score, mark, count, best line and cut-off, on the empty board and mid-game;
// the grid beside the glass in a game, with the Coach setting, in the review and the CPU's turn,
// its place as its words change; each one's code fetched when first used; the explorer by
// keyboard. On a phone: web_device's phone check.
// SPDX-License-Identifier: MIT
// Run by host_tests/test_web.py (class web_coach).

import * as oxo from "./oxopage.mjs";
import {
  COACH_FILES, COACH_OFF, exploreAndCheck, GAME, grid, gridShows, markOf, MIDGAME, moves,
  openExplorer, ORDER, place, saysWhy, SIDE, twoPlayers, wins,
} from "./coachcheck.mjs";

// The explorer opened at the position `cells`: its moves are that position's free cells, in
// the engine's order.
async function explorerAt(t, page, cells) {
  await openExplorer(page);
  t.assert.deepEqual(await page.locator("#tree > li.node").evaluateAll((all) =>
    all.map((li) => li.dataset.path)), ORDER.filter((c) => !cells[c]).map(String));
}

const treeNote = (page) => page.locator("#explorer .tree-note").textContent();

export async function test_the_tree_of_the_empty_board(t) {
  const page = await oxo.open(t);
  // The explorer's code comes when it is first opened (issue 26), once.
  t.assert.equal(await page.locator("#explorer #tree").count(), 0, "its parts came early");
  t.assert.deepEqual(oxo.served(t, COACH_FILES), []);
  await openExplorer(page);
  t.assert.equal(await page.locator("#tree > li.node").count(), 9);
  t.assert.match(await treeNote(page), /^The moves from the empty board, in the engine's order/);
  t.assert.deepEqual(oxo.served(t, COACH_FILES).sort(), COACH_FILES);
  await page.locator("#explorer > summary").click();
  await page.locator("#explorer > summary").click();
  await page.waitForFunction(() => document.getElementById("explorer").open);
  t.assert.equal(await page.locator("#tree > li.node").count(), 9);
  t.assert.deepEqual(oxo.served(t, COACH_FILES).sort(), COACH_FILES, "fetched again");
  await exploreAndCheck(t, page, Array(9).fill(0), 1);
}
test_the_tree_of_the_empty_board.timeout = 60;

// -- the keyboard --------------------------------------------------------------------------------

export async function test_the_explorer_by_keyboard_its_help_after_it_and_escape(t) {
  const page = await oxo.open(t);
  // Tab to the explorer's summary, Enter opens it; Tab on to the first move.
  await page.locator("#mute").focus();
  for (let k = 0; !(await page.evaluate(() =>
    document.activeElement.matches("#explorer > summary"))); k++) {
    if (k > 20) t.assert.fail("Tab never reaches the explorer");
    await page.keyboard.press("Tab");
  }
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll("#tree > li.node").length === 9);
  t.assert.match(await page.locator("#explorer .tree-note").textContent(), /Esc.*back to the game/s);
  // The tree comes first, what its numbers mean after it, collapsed.
  const seen = await page.evaluate(() => {
    const explorer = document.getElementById("explorer");
    const tree = document.getElementById("tree");
    const help = [...explorer.querySelectorAll("details")];
    const words = [...explorer.querySelectorAll("p")].filter((p) => /plies/.test(p.textContent));
    const before = (a, b) => !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    return {
      help: help.map((d) => [d.querySelector(":scope > summary").textContent, d.open,
        before(tree, d)]),
      // The explanation: inside the collapsed details, none of it shown with the tree.
      hidden: words.map((p) => [p.closest("details") !== explorer, p.checkVisibility()]),
      // What is said above the tree: short, and why the moves come in this order.
      above: [...explorer.querySelectorAll(":scope > p")].filter((p) => before(p, tree))
        .map((p) => p.textContent.replace(/\s+/g, " ")),
    };
  });
  t.log(JSON.stringify(seen));
  t.assert.deepEqual(seen.help, [["What the numbers mean", false, true]]);
  t.assert.ok(seen.hidden.length > 0 && seen.hidden.every(([inside, shown]) => inside && !shown));
  t.assert.equal(seen.above.length, 1);
  t.assert.match(seen.above[0], /centre, corners, edges: alpha-beta's cut-offs depend on it/);
  await page.keyboard.press("Tab"); // X centre: on the best line, outlined in the accent
  const focused = () => page.evaluate(() => {
    const b = document.activeElement;
    return { path: b.closest("li.node")?.dataset.path, expanded: b.getAttribute("aria-expanded"),
      children: b.parentElement.querySelectorAll(":scope > ul:not([hidden]) > li").length };
  });
  t.assert.deepEqual(await focused(), { path: "4", expanded: "false", children: 0 });
  // Its focus ring is not the best line's outline.
  const look = await page.evaluate(() => {
    const b = document.activeElement;
    const style = getComputedStyle(b);
    return { line: b.closest("li").matches(".line"), visible: b.matches(":focus-visible"),
      ring: style.outlineStyle, ringColour: style.outlineColor, border: style.borderTopColor };
  });
  t.log(JSON.stringify(look));
  t.assert.deepEqual([look.line, look.visible], [true, true]);
  t.assert.notEqual(look.ring, "none");
  t.assert.notEqual(look.ringColour, look.border, "the focus ring has the best line's colour");
  // The keys work the tree there, not the game.
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
  // What the numbers mean, by keyboard: Tab past the tree to it, Enter opens it.
  await page.locator('#tree li[data-path="7"] > button').focus();
  await page.keyboard.press("Tab");
  t.assert.ok(await page.evaluate(() => document.activeElement.matches("#tree-help > summary")));
  await page.keyboard.press("Enter");
  t.assert.ok(await page.locator("#tree-help > p").isVisible());
  // Escape gives the keys back: Enter is SELECT, and the title gives way to the main menu.
  await page.keyboard.press("Escape");
  t.assert.equal(await page.evaluate(() =>
    document.getElementById("explorer").contains(document.activeElement)), false);
  await page.keyboard.press("Enter");
  await oxo.highlighted(page, "1P vs CPU");
}

// -- the grid beside the glass ------------------------------------------------------------------

export async function test_the_scores_beside_the_glass_in_a_game_and_its_tree(t) {
  const page = await oxo.open(t, { settings: oxo.COACH_ON });
  t.assert.equal((await grid(page)).why, "No game on the glass: start 1P or 2P from the menu.");
  t.assert.deepEqual(oxo.served(t, COACH_FILES), [], "the coach's code came before its scores");
  await twoPlayers(page);
  const cells = Array(9).fill(0);
  let side = 1;
  await gridShows(t, page, cells, side);
  // The first scores brought coach.js, and only it.
  t.assert.deepEqual(oxo.served(t, COACH_FILES), ["coach.js"]);
  for (let k = 0; k < GAME.length; k++) {
    await gridShows(t, page, cells, side);
    if (k === MIDGAME) {
      t.log(`mid-game: ${cells.join("")}, ${SIDE[side]} to move`);
      await openExplorer(page);
      // Its words say what the tree is of: the game's position, not the empty board.
      t.assert.match(await treeNote(page), /^The moves from the position on the glass, in/);
      await exploreAndCheck(t, page, cells, side);
    }
    await place(page, GAME[k]);
    cells[GAME[k]] = side;
    side = 3 - side;
  }
  t.assert.ok(wins(cells, 1), "the game was meant to end with X's line");
  await page.waitForFunction(() => /over/.test(document.getElementById("coach-why").textContent));
  const over = await grid(page);
  t.assert.equal(over.why, "The game is over: hold SELECT (or H) to review it, move by move.");
  t.assert.deepEqual(over.best, []);
}
test_the_scores_beside_the_glass_in_a_game_and_its_tree.timeout = 90;


export async function test_the_grid_follows_the_coach_setting(t) {
  const page = await oxo.open(t); // the device's default: the coach off
  await twoPlayers(page);
  await place(page, 4);
  const cells = [0, 0, 0, 0, 1, 0, 0, 0, 0];
  // Off: beside the glass no more than on it, no scores, and how to turn it on.
  await saysWhy(page, COACH_OFF);
  t.assert.deepEqual(await grid(page),
    { cells: Array(9).fill(""), best: [], caption: "Coach", why: COACH_OFF });
  t.assert.deepEqual(oxo.served(t, COACH_FILES), [], "the coach's code came with it off");
  // The explorer is there all the same (opening it is the player's choice): the position on
  // the glass, O to move.
  await explorerAt(t, page, cells);
  // Turned on as the words say, with the page's keys (Escape first: the explorer's summary
  // has the focus, and with it the keys).
  await page.keyboard.press("Escape");
  await page.keyboard.press("p"); // hold NEXT: the menu
  await oxo.highlighted(page, "Continue");
  await oxo.choose(page, "Settings");
  await oxo.press(page, "SELECT");
  await oxo.highlighted(page, "Contr");
  await oxo.choose(page, "Coach");
  await oxo.press(page, "SELECT"); // ON; the first time, what the marks mean shows until a press
  await oxo.menu(page, (m) => m.rows.every((row) => row.label !== "Coach"));
  await oxo.press(page, "SELECT");
  await oxo.menu(page, (m) => m.highlight >= 0 && m.rows[m.highlight].label === "Coach" &&
    m.rows[m.highlight].value === "ON");
  await oxo.choose(page, "Back");
  await oxo.press(page, "SELECT");
  await oxo.highlighted(page, "Settings");
  await oxo.choose(page, "Continue", "PREV");
  await oxo.press(page, "SELECT");
  await gridShows(t, page, cells, 2);
}
test_the_grid_follows_the_coach_setting.timeout = 60;

// review.py: the move reviewed, its mover and its cell, the scores those before it.
const CELL_NAMES = ["top left", "top", "top right", "left", "centre", "right", "bottom left",
  "bottom", "bottom right"];
const reviewing = (step, count, side, cell) =>
  `Review, move ${step} of ${count}: ${SIDE[side]} played ${CELL_NAMES[cell]}. ` +
  "The scores before it:";

export async function test_the_review_beside_the_glass(t) {
  // The coach off: the device's review shows its scores all the same, and so does the grid.
  const page = await oxo.open(t);
  await twoPlayers(page);
  for (const cell of GAME) await place(page, cell);
  await page.waitForFunction(() => window.oxoRead.state().turn.startsWith("WIN")); // X's, in 2P
  await page.keyboard.press("h"); // hold SELECT on the result: the review, its first move
  const cells = Array(9).fill(0);
  await gridShows(t, page, cells, 1, reviewing(1, GAME.length, 1, GAME[0]));
  for (let step = 1; step < 4; step++) {
    cells[GAME[step - 1]] = 2 - (step % 2);
    await oxo.press(page, "NEXT");
    const side = 1 + (step % 2);
    await gridShows(t, page, cells, side, reviewing(step + 1, GAME.length, side, GAME[step]));
  }
  // The explorer roots at the position reviewed: X centre, O top, X top left; O to move. (Its
  // tree there is the one checked node by node mid-game, MIDGAME, in the check above.)
  await explorerAt(t, page, cells);
  t.assert.equal(await page.locator("#tree-root .mini").textContent(),
    cells.map((c) => SIDE[c] || "\u00b7").join(""));
  t.assert.match(await page.locator("#tree-root").textContent(), /O to move/);
}
test_the_review_beside_the_glass.timeout = 60;

export async function test_the_cpu_turn_says_so(t) {
  // A 1P game where the CPU starts (settings.py starts 1: menurow.STARTS_LABELS' CPU).
  const page = await oxo.open(t, { settings: { ...oxo.COACH_ON, starts: 1 } });
  // While the CPU thinks the page says whose turn it is: watch every answer the coach gives.
  await page.evaluate(() => {
    window.oxoWhy = [];
    const why = document.getElementById("coach-why");
    new MutationObserver(() => window.oxoWhy.push(why.textContent))
      .observe(why, { childList: true, characterData: true, subtree: true });
  });
  await oxo.press(page, "SELECT");
  await oxo.highlighted(page, "1P vs CPU");
  await oxo.press(page, "SELECT");
  await page.waitForFunction(() =>
    window.oxoWhy.includes("The other side's turn: the scores show when it is yours."));
  // The first scores bring the grid's code (coach.js), which draws them once it is in: it
  // comes over the network, whatever the page's clock does.
  await page.waitForFunction(() =>
    document.getElementById("coach-caption").textContent !== "Coach");
  t.assert.equal((await grid(page)).caption, "Coach: O to move");
}

// Where the grid's parts are: nothing moves as the words beside it change.
const places = (page) => page.evaluate(() => {
  const top = (sel) => Math.round(document.querySelector(sel).getBoundingClientRect().top);
  const why = document.getElementById("coach-why");
  return { why: why.textContent, grid: top("#coach-grid"), caption: top("#coach-caption"),
    words: top(".coach .key-to"), fits: why.scrollHeight <= why.clientHeight };
});

export async function test_the_grid_keeps_its_place(t) {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
    const seen = [];
    for (const settings of [oxo.COACH_ON, {}]) {
      const page = await oxo.open(t, { context: { viewport }, settings });
      seen.push(await places(page)); // no game
      await twoPlayers(page);
      await place(page, 4);
      await saysWhy(page, settings.coach ? "" : COACH_OFF);
      seen.push(await places(page)); // the scores, or the coach off
      await page.context().close();
    }
    t.log(viewport.width, JSON.stringify(seen));
    t.assert.deepEqual(seen.map((s) => s.why !== ""), [true, false, true, true]);
    for (const s of seen) {
      t.assert.ok(s.fits, `${viewport.width} px: "${s.why}" does not fit its place`);
      for (const part of ["grid", "caption", "words"]) {
        t.assert.equal(s[part], seen[0][part], `${viewport.width} px: the ${part} moved ` +
          `with "${s.why}"`);
      }
    }
  }
}
test_the_grid_keeps_its_place.timeout = 60;
