"""The glass renderer (PNG and text). The golden image of the driver's test frame, drawn on
MicroPython and rendered by it, is test_pcd8544.py's (mp_pcd8544_scenes::test_golden_test_frame).
"""

import glasslook
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


def test_image_size_and_colours():
    img = lcd_render.image(glass_with({(0, 0), (83, 47)}), scale=4)
    assert img.size == (4 * 88, 4 * 52) and img.mode == "RGB"
    gap, cell, ink = glasslook.LIT
    assert cell_colour(img, 0, 0) == ink and cell_colour(img, 83, 47) == ink
    assert cell_colour(img, 1, 0) == cell and cell_colour(img, 83, 46) == cell
    assert img.getpixel((4 * 2 + 3, 4 * 2 + 3)) == gap  # the grid line right of/below a cell
    assert img.getpixel((0, 0)) == gap


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
    import fakebus

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


def test_wrong_buffer_size_is_refused():
    with pytest.raises(ValueError, match="504 bytes"):
        lcd_render.image(bytes(503))


def test_failure_png_and_same_pixels(tmp_path):
    glass = glass_with({(10, 20)})
    path = lcd_render.failure_png(glass, "probe", tmp_path)
    assert path == tmp_path / "probe.png" and path.exists()
    assert lcd_render.same_pixels(path, lcd_render.image(glass))
    assert not lcd_render.same_pixels(path, lcd_render.image(glass_with({(10, 21)})))
    assert not lcd_render.same_pixels(path, lcd_render.image(glass, scale=3))


def test_command_line_renders_a_recording(tmp_path, capsys):
    import fakebus

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
