// The web page played as a player plays it: the hint by mouse and by key, the page's handling of
// keys and quick presses, and the menu drawn pixel for pixel on a desktop and a phone.
// SPDX-License-Identifier: MIT
// Run by host_tests/test_web.py (class web_play). A whole game by the keyboard: web_page's
// settings check; a move by touch: web_device's phone.

import * as oxo from "./oxopage.mjs";

const menuAt = (page, row) => oxo.menu(page, (m, row) => m.highlight === row, row);

// The hint (a hold of SELECT, play.py _hint): the engine's move blinks under the cursor, the
// cell shown in turn inverted and as the player's mark in black. Without a hint the cursor's
// cell is always inverted, so a frame with none inverted on the player's turn is the hint.
const HINTING = (s, marks) =>
  s.turn === "YOU" && s.cursor < 0 && s.marks === marks + 1 ? s : null;

async function seeHint(t, page, hold, how) {
  const before = await oxo.until(page, oxo.YOUR_TURN);
  await hold();
  const hint = await oxo.until(page, HINTING, { arg: before.marks });
  t.log(`hint by ${how}: ${before.board} -> ${hint.board}`);
  // It blinks back, and the hold placed no mark.
  const after = await oxo.until(page, oxo.YOUR_TURN);
  t.assert.equal(after.marks, before.marks, `${how}: the hold placed a mark: ${after.board}`);
}

export async function test_holding_select_shows_the_hint(t) {
  const page = await oxo.open(t);
  await oxo.fromTitle(page, "1P");
  const select = oxo.key(page, "SELECT");
  await seeHint(t, page, async () => {
    await select.hover();
    await page.mouse.down();
    await page.waitForTimeout(700); // SELECT's long press is 650 ms (buttons.py)
    await page.mouse.up();
  }, "mouse");
  // A move (which ends the hint), the CPU's answer, then the h key, which holds SELECT long
  // enough. Even in a busy tab: here the step after the press comes 150 ms late (a page that
  // let go 650 ms after the press let go 500 ms after the firmware saw it: a click, a mark).
  const s = await oxo.until(page, oxo.YOUR_TURN);
  await select.click();
  await oxo.until(page, oxo.ANSWERED, { arg: s.marks });
  await page.evaluate(() => {
    const key = document.querySelector('.key[data-button="SELECT"]');
    const watch = new MutationObserver(() => {
      if (!key.classList.contains("down")) return; // pressed: the pin is low from now on
      watch.disconnect();
      const end = performance.now() + 150;
      while (performance.now() < end);
    });
    watch.observe(key, { attributes: true, attributeFilter: ["class"] });
  });
  await seeHint(t, page, () => page.keyboard.press("h"), "the h key, late");
}

// Until `n` more of the firmware's steps (one App.step each, 10 ms apart) have run.
async function steps(page, n) {
  const from = await page.evaluate(() => window.oxo.steps);
  await page.waitForFunction(([from, n]) => window.oxo.steps >= from + n, [from, n]);
}

export async function test_key_repeat_is_ignored_and_a_quick_press_is_seen_once(t) {
  const page = await oxo.open(t);
  await page.keyboard.press("Enter");
  await menuAt(page, 0);
  // The menu shows at once, the Enter's click sounds on after it: its last change of the
  // buzzer (to silence) came after the count was read, 1 run in 10.
  await steps(page, 40);
  const menu = () => page.evaluate(() => window.oxoRead.menu());
  const tones = () => page.evaluate(() => window.oxo.tones);
  const before = { menu: await menu(), tones: await tones() };
  // What a held key sends after its first keydown: the firmware makes its own repeat.
  await page.evaluate(() => {
    for (const key of ["ArrowDown", "ArrowRight", "ArrowUp", " ", "Enter", "p", "h", "u"]) {
      const to = document.activeElement || document.body; // where a browser sends keys
      to.dispatchEvent(new KeyboardEvent("keydown", { key, repeat: true, bubbles: true }));
    }
  });
  await steps(page, 40); // 0.4 s: a press would have been seen and drawn
  t.assert.deepEqual(await menu(), before.menu);
  t.assert.equal(await tones(), before.tones, "a repeated key made a sound");

  // Presses far shorter than a poll and the debounce (10 + 30 ms): each seen, once.
  await page.evaluate(() => {
    window.oxoQuick = [];
    for (const type of ["pointerdown", "pointerup", "keydown", "keyup"]) {
      window.addEventListener(type, (e) => window.oxoQuick.push([type, e.timeStamp]), true);
    }
  });
  const box = await oxo.key(page, "NEXT").boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await Promise.all([page.mouse.down(), page.mouse.up()]); // sent together: a few ms apart
  await menuAt(page, 1);
  await Promise.all([page.keyboard.down("ArrowDown"), page.keyboard.up("ArrowDown")]);
  await menuAt(page, 2);
  await steps(page, 40);
  t.assert.equal((await menu()).highlight, 2, "a quick press moved the menu more than once");
  const quick = await page.evaluate(() => window.oxoQuick);
  const at = (type) => quick.find((e) => e[0] === type)[1];
  const held = (down, up) => at(up) - at(down);
  const mouse = held("pointerdown", "pointerup"), key = held("keydown", "keyup");
  t.log(`held: the mouse ${mouse.toFixed(1)} ms, the key ${key.toFixed(1)} ms`);
  t.assert.ok(mouse < 30 && key < 30, "not quick presses"); // else this proves nothing
}

// -- the menu as drawn ---------------------------------------------------------------------------

export async function test_the_menu_is_drawn_as_lcd_render_draws_it(t) {
  // Every device pixel (canvasShows) on a phone at 1 device pixel a CSS pixel, where a cell is
  // 3 device pixels and its grid line a third of it: its highlighted row, light letters on ink,
  // reads as well as a plain one (test_lcd_render.py's
  // test_a_highlighted_row_reads_as_well_as_a_plain_one, at cell sizes 2 to 12); a grid drawn
  // through the highlight's ink lightened it into a mesh. On a desktop: web_device's board
  // option check; a phone at 3 device pixels a CSS pixel (the title, solid ink): its phone check.
  const page = await oxo.open(t, { context: { viewport: oxo.PHONE.viewport } });
  await oxo.press(page, "SELECT");
  await menuAt(page, 0);
  await oxo.canvasShows(t, page, "screens/menu");
  t.assert.equal(await page.evaluate(() => window.oxo.cell), 3);
}
