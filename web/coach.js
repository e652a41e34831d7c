// The coach's scores beside the glass: rendering only, imported by oxo.js at the device's first
// scores. The scores come from MicroPython (oxoweb.Page.coach); the words of a mark and the
// cells' names are also the explorer's (explorer.js).
// SPDX-License-Identifier: MIT

export const CELLS = ["top left", "top", "top right", "left", "centre", "right", "bottom left",
  "bottom", "bottom right"];
export const SIDE = ["", "X", "O"];
// What a mark says, in words, for a screen reader and the key under the grid (coach.py mark).
export const say = (mark) => mark === "D" ? "draw" :
  mark[0] === "W" ? `you win with your move ${mark.slice(1)}` :
  `they win with their move ${mark.slice(1)}`;
export const cellOf = (board, i) => (board >> (2 * i)) & 3;

// A measure for the benchmark (bench_web_coach.mjs), kept on window.oxo.coach: `what`
// ("scores", "expand") took `py` ms in MicroPython and the rest of the time since `started`
// rendering; n numbers them (two measures may take the same time).
export function measure(oxo, what, py, started) {
  oxo.coach[what] = { py, total: performance.now() - started, n: ++oxo.coach.measures };
}

export class Grid {
  // `oxo`: window.oxo, where the last measure is kept.
  constructor(oxo) {
    this.oxo = oxo;
    this.grid = document.getElementById("coach-grid");
    this.why = document.getElementById("coach-why");
    this.caption = document.getElementById("coach-caption");
  }

  // oxoweb.Page.coach's `answer`, asked for at `started`, `py` ms of it in MicroPython.
  show(answer, py, started) {
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
    if (answer.marks) measure(this.oxo, "scores", py, started);
  }
}
