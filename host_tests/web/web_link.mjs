// Link play between two tabs (web/tabcable.js, over BroadcastChannel): they join, a move on one
// shows on the other, a third tab waits while the pair plays, closing one gives NO LINK on the
// other; a hidden tab (its timers once a second, or a minute, as Chromium's) keeps the link.
// SPDX-License-Identifier: MIT
// Run by host_tests/test_web.py (class web_link). On the real clock: the two firmwares talk
// through their own timers, which a fake clock per page would have to step in turn.

import { saysWhy } from "./coachcheck.mjs";
import * as oxo from "./oxopage.mjs";

// "waiting" on the glass (linkplay.py draws its lines in the 8x8 font, the third at y=16).
const WAITING = (s, _, o) => window.oxoRead.text(o.glass, 0, 16, 7) === "waiting";
// A link game on the glass: the status column's LINK and whose turn, YOU or the other's mark
// and "..." (linkplay.py draw(), widgets.status).
const JOINED = (s) => (s.label === "LINK" && ["YOU", "..."].includes(s.turn) ? s : null);
// linkgame.LOST on the glass: widgets.sign's NO LINK, light letters on an ink bar.
const NO_LINK = (s, _, o) => window.oxoRead.findSmall("NO LINK", o.glass, true) !== null;
// The other's move arrived: `marks` marks or more.
const MARKS = (s, marks) => (s.label === "LINK" && s.marks >= marks ? s : null);

// From the title to Link play: PREV wraps to the menu's last row.
const toLinkPlay = (page) => oxo.fromTitle(page, "Link play", "PREV");
const COACH_OFF = "The coach is off. Turn it on in the menu (hold NEXT, or P): Settings, Coach.";

export async function test_two_tabs_join_play_and_see_the_other_leave(t) {
  const a = await oxo.open(t);
  const b = await oxo.open(t, { page: await t.newPage() });
  await toLinkPlay(a);
  await oxo.until(a, WAITING); // alone: nobody to join
  await toLinkPlay(b);
  const sa = await oxo.until(a, JOINED);
  const sb = await oxo.until(b, JOINED);
  const joins = await Promise.all([a, b].map((p) => p.evaluate(() => window.oxo.link.joins)));
  const shown = await Promise.all([a, b].map((p) => p.evaluate(() => document.visibilityState)));
  t.log(`joined: ${sa.turn} / ${sb.turn}, joins ${joins}, ${shown}`);
  t.assert.deepEqual(joins, [1, 1]);
  await Promise.all([a, b].map((page) => saysWhy(page, COACH_OFF))); // its default: off

  // One of them moves first (X: the higher nonce), the other sees its mark arrive.
  const [mover, other] = sa.turn === "YOU" ? [a, b] : [b, a];
  const before = await oxo.until(mover, oxo.YOUR_TURN);
  t.assert.equal(before.marks, 0);
  t.assert.equal((await oxo.read(other, "state")).turn, "...", "both, or neither, to move");
  await oxo.press(mover, "SELECT");
  const seen = await oxo.until(other, oxo.YOUR_TURN);
  t.log(`the move: ${before.board} on one, ${seen.board} on the other`);
  t.assert.equal(seen.marks, 1);
  t.assert.equal(seen.board.replace("#", "."), before.board.replace("#", "m"));

  // A third tab in link play finds nobody free: it waits, the pair plays on.
  const c = await oxo.open(t, { page: await t.newPage() });
  await toLinkPlay(c);
  await oxo.until(c, WAITING);
  await oxo.press(other, "SELECT"); // a move of the other's
  await oxo.until(mover, MARKS, { arg: 2 });
  t.assert.ok(await oxo.until(c, WAITING), "the third tab joined a pair at play");
  t.assert.equal(await c.evaluate(() => window.oxo.link.joins), 0);
  await c.close();

  // The mover's tab is closed: NO LINK on the other's glass (linkgame.LOST_MS, 2 s of silence).
  const closed = performance.now();
  await mover.close();
  await oxo.until(other, NO_LINK, { timeout: 8000 });
  t.log(`NO LINK ${Math.round(performance.now() - closed)} ms after the close`);
}
test_two_tabs_join_play_and_see_the_other_leave.timeout = 40;

export async function test_the_coach_beside_a_link_game(t) {
  // The Coach on (the two tabs share the browser's flash): "waiting" is no game yet; joined, the
  // mover's grid has the scores of the empty board, the other's says whose turn it is.
  const a = await oxo.open(t, { settings: oxo.COACH_ON });
  await toLinkPlay(a);
  await oxo.until(a, WAITING);
  await saysWhy(a, "No game on the glass: start 1P or 2P from the menu.");
  const b = await oxo.open(t, { page: await t.newPage() });
  await toLinkPlay(b);
  const [mover, other] = (await oxo.until(a, JOINED)).turn === "YOU" ? [a, b] : [b, a];
  await oxo.until(mover, oxo.YOUR_TURN);
  await saysWhy(other, "The other side's turn: the scores show when it is yours.");
  await mover.waitForFunction(() =>
    document.getElementById("coach-caption").textContent === "Coach: X to move");
  t.assert.equal(await mover.locator("#coach-grid td.mark").count(), 9);
}

// A hidden tab: document.hidden, and its timers held to the next multiple of
// window.oxoHidden ms (Chromium aligns a hidden page's timers to whole seconds, and to whole
// minutes once hidden for 5 minutes), from when that is set (headless tabs are all visible).
function hideLater() {
  const setTimer = window.setTimeout;
  window.setTimeout = (fn, ms = 0, ...args) => {
    const every = window.oxoHidden;
    if (!every) return setTimer(fn, ms, ...args);
    const due = performance.now() + ms;
    return setTimer(fn, Math.ceil(due / every) * every - performance.now(), ...args);
  };
  Object.defineProperty(document, "hidden", { get: () => !!window.oxoHidden });
}

// Whether the glass ever showed NO LINK from when window.oxoWatch is set: looked at every frame
// the browser draws.
function watchNoLink() {
  const look = () => {
    if (window.oxoWatch && window.oxo && window.oxo.glass &&
        window.oxoRead.findSmall("NO LINK", window.oxo.glass, true) !== null) {
      window.oxoSawNoLink = true;
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

// Two tabs join; in turn each of them, the one whose player is not to move, is hidden, its
// timers held to multiples of first 1 s, then 1 minute: each time for 5 s (2.5 times the silence
// that makes NO LINK) neither glass shows NO LINK, and a move in front shows behind. What the
// other tab sends steps a hidden tab's firmware (oxo.js came()): without it, the tab whose timers
// run once a minute would step once a minute.
export async function test_a_hidden_tab_whose_timers_run_once_a_second_or_a_minute_keeps_the_link(
  t,
) {
  await t.context.addInitScript(watchNoLink);
  await t.context.addInitScript(hideLater);
  const a = await oxo.open(t);
  const b = await oxo.open(t, { page: await t.newPage() });
  await toLinkPlay(a);
  await toLinkPlay(b);
  await oxo.until(b, JOINED);
  for (const page of [a, b]) await page.evaluate(() => { window.oxoWatch = true; });
  // The minute last: a tab shown again may wait that long for the timer set while hidden.
  for (const every of [1000, 60000]) {
    const [mover, hidden] = (await oxo.until(a, JOINED)).turn === "YOU" ? [a, b] : [b, a];
    const steps = () => hidden.evaluate(() => window.oxo.steps);
    await hidden.evaluate((every) => { window.oxoHidden = every; }, every);
    const from = await steps();
    const noLink = async (when) => {
      const seen = await Promise.all([a, b].map((p) => p.evaluate(() => !!window.oxoSawNoLink)));
      t.log(`${every} ms, ${when}: the hidden tab stepped ${(await steps()) - from} times; ` +
        `NO LINK seen ${seen}`);
      t.assert.deepEqual(seen, [false, false], `NO LINK with a tab's timers every ${every} ms`);
    };
    // What is checked is an absence over a time: a wait for the time itself.
    const until = await mover.evaluate(() => performance.now() + 5000);
    await mover.waitForFunction((until) => performance.now() >= until, until, { polling: 100 });
    await noLink("5 s");
    const before = await oxo.until(mover, oxo.YOUR_TURN);
    await oxo.press(mover, "SELECT");
    // Read at each frame: the hidden tab's setTimeout, which the wait would poll with, is held.
    await oxo.until(hidden, MARKS, { arg: before.marks + 1, timeout: 10000, polling: "raf" });
    await noLink("a move");
    await hidden.evaluate(() => { window.oxoHidden = 0; });
  }
}
test_a_hidden_tab_whose_timers_run_once_a_second_or_a_minute_keeps_the_link.timeout = 60;
