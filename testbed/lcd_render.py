"""Render what a PCD8544 glass shows: PNG with a greenish LCD look (Pillow), or text.

CPython only. `source` everywhere is a pcd8544_model.Model (its glass after mode and power-down,
its backlight pin and Vop are used) or a 504-byte MONO_VLSB 84x48 buffer (shown as is).

    python testbed/lcd_render.py RECORDING.hex OUT.png [--scale 4]   # a fakebus recording
"""

import argparse
import sys
from pathlib import Path

import pcd8544_model as pm
from glasslook import colours
from PIL import Image, ImageDraw

WIDTH, HEIGHT = pm.WIDTH, pm.HEIGHT
MARGIN = 2  # glass pixels of empty glass around the picture


def _glass_of(source):
    if isinstance(source, pm.Model):
        return source.glass(), source.backlight, source.vop if source.showing else None
    glass = bytes(source)
    if len(glass) != pm.RAM_SIZE:
        raise ValueError("a glass is 504 bytes (84x48 MONO_VLSB), got %d" % len(glass))
    return glass, None, None


def image(source, scale=4, backlight=None, vop=None):
    """A PIL RGB image of the glass, each pixel a scale x scale cell (a 1-pixel grid if >= 3).

    `backlight` (True/False) and `vop` (0..127, see colours()) default to the model's state;
    for a bare buffer: lit, nominal contrast (VOP_FULL).

    The grid is the glass between the pixels' electrodes, a hairline on the real module: a
    whole device pixel of it between two lit pixels would cut a dark area (a highlighted row)
    into a mesh that swallows its light letters, so there it takes the ink, as the dark
    segments nearly touch; between an unlit pixel and any other it shows (web/glass.js draws
    the same).
    """
    glass, model_light, model_vop = _glass_of(source)
    if backlight is None:
        backlight = model_light is not False
    gap, cell, ink = colours(backlight, model_vop if vop is None else vop)
    size = (scale * (WIDTH + 2 * MARGIN), scale * (HEIGHT + 2 * MARGIN))
    img = Image.new("RGB", size, gap)
    draw = ImageDraw.Draw(img)
    dot = scale - 1 if scale >= 3 else scale
    lit = pm.pixels_of(glass)
    for y in range(HEIGHT):
        for x in range(WIDTH):
            left, top = scale * (x + MARGIN), scale * (y + MARGIN)
            if (x, y) not in lit:
                draw.rectangle((left, top, left + dot - 1, top + dot - 1), cell)
                continue
            right, below = (x + 1, y) in lit, (x, y + 1) in lit
            wide = scale if right else dot
            tall = scale if below else dot
            corner = right and below and (x + 1, y + 1) in lit
            draw.rectangle((left, top, left + wide - 1, top + dot - 1), ink)
            draw.rectangle((left, top, left + dot - 1, top + tall - 1), ink)
            if corner:
                draw.rectangle((left, top, left + scale - 1, top + scale - 1), ink)
    return img


def save_png(source, path, scale=4, **options):
    """Write the glass as a PNG to `path`; return the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    image(source, scale, **options).save(path)
    return path


def text(source, border=True):
    """The glass as 24 lines of Unicode half blocks, framed by default."""
    return pm.glass_text(_glass_of(source)[0], border)


# Braille dot bits of a 2x4 cell, by (column, row): U+2800 + the sum of the lit dots.
_BRAILLE_DOT = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))


def braille(source):
    """The glass as 12 lines of 42 braille characters (2x4 pixels each): a compact view for
    terminals too small for the 84x24 half-block text."""
    glass = _glass_of(source)[0]
    lines = []
    for row in range(pm.HEIGHT // 4):
        chars = []
        for col in range(pm.WIDTH // 2):
            bits = 0
            for dx in (0, 1):
                for dy in range(4):
                    x, y = 2 * col + dx, 4 * row + dy
                    if glass[(y >> 3) * pm.WIDTH + x] >> (y & 7) & 1:
                        bits |= _BRAILLE_DOT[dx][dy]
            chars.append(chr(0x2800 + bits))
        lines.append("".join(chars))
    return "\n".join(lines)


def same_pixels(a, b):
    """Two images (or PNG paths) have the same size and the same RGB pixel data."""
    a = Image.open(a) if isinstance(a, (str, Path)) else a
    b = Image.open(b) if isinstance(b, (str, Path)) else b
    return a.size == b.size and a.convert("RGB").tobytes() == b.convert("RGB").tobytes()


def main(argv=None):
    parser = argparse.ArgumentParser(description="Render a fakebus recording (hex) to PNG.")
    parser.add_argument("recording", type=Path, help="hex text written by fakebus.Bus.hexlify()")
    parser.add_argument("png", type=Path)
    parser.add_argument("--scale", type=int, default=4)
    args = parser.parse_args(argv)
    model = pm.Model().feed(args.recording.read_text())
    save_png(model, args.png, args.scale)
    print(text(model))
    for anomaly in model.anomalies:
        print("anomaly:", anomaly, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
