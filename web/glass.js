// The glass: the PCD8544 model's picture drawn on the page's canvas, cell by cell, in the
// module's colours (backlight, contrast) at a whole number of device pixels per LCD pixel.
// SPDX-License-Identifier: MIT

export const WIDTH = 84, HEIGHT = 48, MARGIN = 2; // glass pixels; MARGIN of empty glass around
export const GLASS_BYTES = WIDTH * HEIGHT / 8; // MONO_VLSB: a byte holds 8 rows of a column

export class Glass {
  // Draws on `canvas`; keeps what it shows on `oxo` (cell, dpr, glass, colours), where the
  // page's tests read it.
  constructor(canvas, oxo) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d", { alpha: false });
    this.oxo = oxo;
  }

  // As many whole device pixels an LCD pixel as the canvas's box has room for (at least 2).
  fit() {
    const { canvas, oxo } = this;
    const dpr = window.devicePixelRatio || 1;
    const box = getComputedStyle(canvas.parentElement);
    const room = canvas.parentElement.clientWidth - parseFloat(box.paddingLeft) -
      parseFloat(box.paddingRight);
    const cell = Math.max(2, Math.floor(((room || 336) * dpr) / (WIDTH + 2 * MARGIN)));
    if (cell === oxo.cell && dpr === oxo.dpr) return;
    oxo.cell = cell;
    oxo.dpr = dpr;
    canvas.width = cell * (WIDTH + 2 * MARGIN);
    canvas.height = cell * (HEIGHT + 2 * MARGIN);
    canvas.style.width = `${canvas.width / dpr}px`;
    this.draw();
  }

  // `glass`: the 504 bytes (MONO_VLSB); `colours`: [gap, cell, ink] as CSS colours.
  show(glass, colours) {
    this.oxo.glass = glass;
    this.oxo.colours = colours;
    this.draw();
  }

  draw() {
    const { ctx, canvas, oxo } = this;
    const glass = oxo.glass;
    if (!glass || !oxo.cell) return;
    const [gap, paper, ink] = oxo.colours;
    const cell = oxo.cell;
    const dot = cell >= 3 ? cell - 1 : cell; // a 1-pixel grid between cells, as on the glass
    const lit = (x, y) => x < WIDTH && y < HEIGHT &&
      ((glass[(y >> 3) * WIDTH + x] >> (y & 7)) & 1) === 1;
    ctx.fillStyle = gap;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = paper;
    for (let y = 0; y < HEIGHT; y++) {
      for (let x = 0; x < WIDTH; x++) {
        if (!lit(x, y)) ctx.fillRect((x + MARGIN) * cell, (y + MARGIN) * cell, dot, dot);
      }
    }
    // The grid is the glass between the electrodes, a hairline on the real module: a whole
    // device pixel of it between two lit pixels would cut a dark area (a highlighted row)
    // into a mesh that swallows its light letters, so there it takes the ink, as the dark
    // segments nearly touch (testbed/lcd_render.py draws the same).
    ctx.fillStyle = ink;
    for (let y = 0; y < HEIGHT; y++) {
      for (let x = 0; x < WIDTH; x++) {
        if (!lit(x, y)) continue;
        const left = (x + MARGIN) * cell, top = (y + MARGIN) * cell;
        const right = lit(x + 1, y), below = lit(x, y + 1);
        ctx.fillRect(left, top, right ? cell : dot, dot);
        ctx.fillRect(left, top, dot, below ? cell : dot);
        if (right && below && lit(x + 1, y + 1)) ctx.fillRect(left, top, cell, cell);
      }
    }
  }
}
