"""The glass renderer (PNG and text), and a highlighted row read as well as a plain one. Its
size, grid and lit colours at scale 4 are held pixel for pixel by every golden image
(test_app_screens.py; the driver's test frame: mp_pcd8544::test_golden_test_frame).
"""

import random
import unicodedata

import fakebus
import glasslook
import goldens
import lcd_render
import pcd8544_model as pm
import pytest
from PIL import Image


def glass_with(pixels):
    glass = bytearray(504)
    for x, y in pixels:
        glass[(y // 8) * 84 + x] |= 1 << (y % 8)
    return glass


def cell_colour(img, x, y, scale=4):
    """The colour at the centre-ish of glass pixel (x, y)'s cell."""
    return img.getpixel((scale * (x + lcd_render.MARGIN) + 1, scale * (y + lcd_render.MARGIN) + 1))


def test_backlight_and_contrast_change_the_look():
    glass = glass_with({(5, 5)})
    unlit = lcd_render.image(glass, backlight=False)
    assert cell_colour(unlit, 5, 5) == glasslook.UNLIT[2]
    assert cell_colour(unlit, 6, 5) == glasslook.UNLIT[1]
    faint = lcd_render.image(glass, vop=glasslook.VOP_FAINT)
    assert cell_colour(faint, 5, 5) == glasslook.LIT[1], "no ink at a too low Vop"
    dark = lcd_render.image(glass, vop=127)
    assert cell_colour(dark, 6, 5) != glasslook.LIT[1], "background darkens at a high Vop"


def test_a_model_is_rendered_with_its_own_state():
    model = pm.Model(rst=None, light="bl", light_on=1)
    bus = fakebus.Bus()
    fakebus.Pin(bus, "bl", 0)
    dc = fakebus.Pin(bus, "dc", 0)
    spi = fakebus.SPI(bus)
    spi.write(b"\x21\x80\x20\x0c\x80\x40")  # Vop 0: nothing visible
    dc(1)
    spi.write(b"\xff" * 504)
    model.feed(bus.take())
    img = lcd_render.image(model)
    assert cell_colour(img, 0, 0) == glasslook.UNLIT[1], "unlit and Vop 0: no ink"
    assert lcd_render.text(model).count("\u2588") == 84 * 24


def test_braille_draws_each_pixel_as_the_dot_unicode_names_for_its_place():
    # The compact view's drawing (simview draws braille(); the simulator's tests compare its
    # lines with braille() of the golden screen, so they cannot catch a wrong dot here). Read
    # back through the characters' Unicode names, not braille()'s table: dots 1 2 3 7 down a
    # cell's left column, 4 5 6 8 down its right; 42 cells of 2x4 pixels a line, 12 lines.
    rng = random.Random(5110)
    pixels = {(x, y) for x in range(84) for y in range(48) if rng.random() < 0.5}
    lines = lcd_render.braille(glass_with(pixels)).split("\n")
    assert len(lines) == 12 and {len(line) for line in lines} == {42}
    read = set()
    for row, line in enumerate(lines):
        for col, ch in enumerate(line):
            name = unicodedata.name(ch)  # BRAILLE PATTERN BLANK, BRAILLE PATTERN DOTS-1237, ...
            assert name.startswith("BRAILLE PATTERN "), name
            for dot in "" if name.endswith("BLANK") else name.split("-")[1]:
                place = "12374568".index(dot)  # left column top to bottom, then the right
                read.add((2 * col + place // 4, 4 * row + place % 4))
    assert read == pixels


def test_wrong_buffer_size_is_refused():
    with pytest.raises(ValueError, match="504 bytes"):
        lcd_render.image(bytes(503))


def test_save_png_and_same_pixels(tmp_path):
    glass = glass_with({(10, 20)})
    path = lcd_render.save_png(glass, tmp_path / "new" / "probe.png")
    assert path == tmp_path / "new" / "probe.png" and path.exists()
    assert lcd_render.same_pixels(path, lcd_render.image(glass))
    assert not lcd_render.same_pixels(path, lcd_render.image(glass_with({(10, 21)})))
    assert not lcd_render.same_pixels(path, lcd_render.image(glass, scale=3))


def test_command_line_renders_a_recording(tmp_path, capsys):
    bus = fakebus.Bus()
    dc = fakebus.Pin(bus, "dc", 0)
    spi = fakebus.SPI(bus)
    spi.write(b"\x21\xbc\x14\x20\x0c\x80\x40")
    dc(1)
    spi.write(b"\x01" + bytes(503))
    (tmp_path / "rec.hex").write_text(bus.hexlify() + "\n")
    assert lcd_render.main([str(tmp_path / "rec.hex"), str(tmp_path / "out.png")]) == 0
    img = Image.open(tmp_path / "out.png")
    assert (
        cell_colour(img, 0, 0) == glasslook.LIT[2] and cell_colour(img, 1, 0) != (glasslook.LIT[2])
    )
    assert "\u2580" in capsys.readouterr().out


# -- a highlighted row reads as well as a plain one ----------------------------------------------


def luminance(rgb):
    """WCAG 2 relative luminance of an sRGB colour (0..255 a channel)."""
    linear = [v / 255 / 12.92 if v <= 10 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(light, dark):
    """WCAG 2 contrast ratio of two relative luminances (1 to 21)."""
    return (max(light, dark) + 0.05) / (min(light, dark) + 0.05)


def letter_contrast(img, glass, scale, box):
    """How a text's letters stand out in `box` (x0, y0, x1, y1: glass pixels, ends excluded)
    of a rendered glass: the WCAG contrast between the letters' colour and their background's.

    The background is the state most of the box's pixels have (lit in a highlighted row), the
    letters are the other pixels. A letter's colour is its cells' (the squares the renderer
    draws for its pixels); the background is everything the eye sees around the letters: its
    cells and the grid between them (averaged as light, so a light grid through a dark area
    lightens it). The grid pixels that touch a letter's pixel are the letters' edge, counted in
    neither."""
    lit = pm.pixels_of(glass)
    x0, y0, x1, y1 = box
    inside = [(x, y) for y in range(y0, y1) for x in range(x0, x1)]
    dark = 2 * sum((p in lit) for p in inside) > len(inside)
    dot = scale - 1 if scale >= 3 else scale
    pixels = img.load()
    letters, background = [], []
    for x, y in inside:
        for j in range(scale):
            for i in range(scale):
                xs = (x, x + 1) if i >= dot else (x,)
                ys = (y, y + 1) if j >= dot else (y,)
                touched = [(a, b) in lit for a in xs for b in ys]
                colour = pixels[
                    scale * (x + lcd_render.MARGIN) + i, scale * (y + lcd_render.MARGIN) + j
                ]
                if len(touched) == 1 and touched[0] != dark:
                    letters.append(luminance(colour))
                elif all(t == dark for t in touched):
                    background.append(luminance(colour))
    return contrast(sum(letters) / len(letters), sum(background) / len(background))


# (golden screen, the highlighted box, a plain box of text): the menu's and the settings' rows
# (8x8 and small font), the board's cursor over a mark against a plain cell with one.
HIGHLIGHTS = (
    ("menu", (0, 0, 84, 8), (0, 8, 84, 16)),
    ("settings", (0, 0, 84, 8), (0, 8, 84, 16)),
    ("board_1p", (0, 16, 15, 31), (32, 16, 47, 31)),
)


@pytest.mark.parametrize("scale", [2, 3, 4, 5, 6, 8, 10, 12])
@pytest.mark.parametrize("name, highlight, plain", HIGHLIGHTS)
def test_a_highlighted_row_reads_as_well_as_a_plain_one(name, highlight, plain, scale):
    # Scales: the PNGs' 4 and the page's cells (3 on a phone at 1 device pixel a CSS pixel, 5
    # at 1280x800, 10 on a phone at 3). The glass at its best is a cell against ink: every text,
    # highlighted or not, must stand out from its background at least that much.
    glass = goldens.glass(name)
    img = lcd_render.image(glass, scale=scale)
    _, cell, ink = (luminance(c) for c in glasslook.LIT)
    best = contrast(cell, ink)
    inverted = letter_contrast(img, glass, scale, highlight)
    normal = letter_contrast(img, glass, scale, plain)
    seen = "highlighted %.2f, plain %.2f, cell on ink %.2f" % (inverted, normal, best)
    assert inverted >= best * (1 - 1e-9) and normal >= best * (1 - 1e-9), seen
