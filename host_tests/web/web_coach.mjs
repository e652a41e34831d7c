// The page's tree explorer (issue 21) against the plain minimax and alpha-beta of
// coachcheck.mjs: every score, mark and count shown, the best line, the cut-off marks; its code
// fetched when it is first opened; the keyboard (and Escape giving the keys back), the focus
// ring, what comes first; a phone.
// SPDX-License-Identifier: MIT
// Run by host_tests/test_web.py (class web_coach); oxopage.mjs reads the glass.

import * as oxo from "./oxopage.mjs";
import {
  bestLine, COACH_FILES, exploreAndCheck, markOf, moves, openExplorer,
} from "./coachcheck.mjs";

export async function test_the_tree_of_the_empty_board(t) {
  const page = await oxo.open(t);
  // The explorer's code comes when it is first opened (issue 26), once.
  t.assert.equal(await page.locator("#explorer #tree").count(), 0, "its parts came early");
  t.assert.deepEqual(oxo.served(t, COACH_FILES), []);
  await openExplorer(page);
  t.assert.equal(await page.locator("#tree > li.node").count(), 9);
  t.assert.deepEqual(oxo.served(t, COACH_FILES).sort(), COACH_FILES);
  await page.locator("#explorer > summary").click();
  await page.locator("#explorer > summary").click();
  await page.waitForFunction(() => document.getElementById("explorer").open);
  t.assert.equal(await page.locator("#tree > li.node").count(), 9);
  t.assert.deepEqual(oxo.served(t, COACH_FILES).sort(), COACH_FILES, "fetched again");
  await exploreAndCheck(t, page, Array(9).fill(0), 1);
}
test_the_tree_of_the_empty_board.timeout = 60;

// -- keyboard and phone --------------------------------------------------------------------------

export async function test_the_explorer_by_keyboard_and_escape_gives_the_keys_back(t) {
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
  // Escape gives the keys back: Enter is SELECT, and the title gives way to the main menu.
  await page.keyboard.press("Escape");
  t.assert.equal(await page.evaluate(() =>
    document.getElementById("explorer").contains(document.activeElement)), false);
  await page.keyboard.press("Enter");
  await oxo.menu(page, (m) => m.highlight === 0 && m.rows[0].label.startsWith("1P"));
}

export async function test_the_tree_comes_before_what_the_numbers_mean(t) {
  const page = await oxo.open(t);
  await openExplorer(page);
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
  // Reached by keyboard: Tab past the tree to it, Enter opens it.
  await page.locator('#tree li[data-path="7"] > button').focus();
  await page.keyboard.press("Tab");
  t.assert.ok(await page.evaluate(() => document.activeElement.matches("#tree-help > summary")));
  await page.keyboard.press("Enter");
  t.assert.ok(await page.locator("#tree-help > p").isVisible());
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
