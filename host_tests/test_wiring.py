"""The wiring pictures (tools/wiring.py): drawn from the board files, in step with them."""

import shutil
import xml.etree.ElementTree as ET

import boardlist
import pinouts
import pytest
import wiring

SVG = "{http://www.w3.org/2000/svg}"


def _elements(text):
    root = ET.fromstring(text)
    return {e.get("id"): e for e in root.iter() if e.get("id")}


def _start(wire):
    x, y = wire.get("points").split()[0].split(",")
    return float(x), float(y)


def _centre(circle):
    return float(circle.get("cx")), float(circle.get("cy"))


def _boards_with(tmp_path, name, old, new):
    """A copy of boards/ in which boards/<name>.py has line `old` replaced by `new`."""
    folder = tmp_path / "boards"
    shutil.copytree(boardlist.BOARDS, folder)
    path = folder / (name + ".py")
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))
    return folder


@pytest.mark.parametrize("name", sorted(pinouts.HEADERS))
def test_each_committed_picture_is_what_its_board_file_draws(name):
    committed = wiring.target(name).read_text()
    assert wiring.picture(name) == committed, (
        "docs/wiring-%s.svg differs from boards/%s.py: run make wiring" % (name, name)
    )


@pytest.mark.parametrize(
    "name, old, new, wire, was, now",
    [
        ("pico", "LCD_DC = 20  # pin 26", "LCD_DC = 16  # pin 21", "lcd-DC", "26", "21"),
        ("esp32", "BTN_PREV = 25", "BTN_PREV = 14", "button-PREV", "J1-9", "J1-12"),
    ],
)
def test_a_changed_pin_constant_moves_its_wire_to_that_pin(
    tmp_path, name, old, new, wire, was, now
):
    before = _elements(wiring.picture(name))
    after = _elements(wiring.picture(name, _boards_with(tmp_path, name, old, new)))
    for elements, pin in ((before, was), (after, now)):
        drawn = elements["wire-" + wire]
        assert drawn.get("data-pin") == pin
        assert _start(drawn) == _centre(elements["pin-" + pin])


def test_a_comment_that_names_another_pin_is_refused(tmp_path):
    boards = _boards_with(tmp_path, "pico", "LCD_DC = 20  # pin 26", "LCD_DC = 16  # pin 26")
    said = r"LCD_DC = 16 is GP16 .* pin 21, but its comment says pin 26"
    with pytest.raises(ValueError, match=said):
        wiring.read("pico", boards)


def test_a_board_without_a_header_drawing_is_refused(tmp_path):
    folder = tmp_path / "boards"
    folder.mkdir()
    shutil.copy(boardlist.BOARDS / "pico.py", folder / "feather.py")
    with pytest.raises(ValueError, match="no header drawing for board 'feather'"):
        wiring.read("feather", folder)


@pytest.mark.parametrize("name", sorted(pinouts.HEADERS))
def test_the_lcd_pins_carry_the_names_both_common_breakouts_print(name):
    words = set()
    for text in ET.fromstring(wiring.picture(name)).iter(SVG + "text"):
        words.update(text.text.replace(",", " ").replace("(", " ").replace(")", " ").split())
    for label in ("RST", "CE", "SCE", "CS", "DC", "D/C", "DIN", "DN", "MOSI", "CLK", "SCLK",
                  "VCC", "LIGHT", "BL", "LED", "GND"):  # fmt: skip
        assert label in words


@pytest.mark.parametrize("name", sorted(pinouts.HEADERS))
def test_every_wire_starts_on_a_header_pin_and_every_part_is_wired(name):
    w = wiring.read(name)
    elements = _elements(wiring.picture(name))
    wires = {k: e for k, e in elements.items() if k.startswith("wire-")}
    expected = {"wire-lcd-" + label for label, _, pin in w.lcd if pin is not None}
    expected |= {"wire-button-" + b for b, _ in w.buttons} | {"wire-buzzer-+"}
    assert expected <= set(wires)
    for drawn in wires.values():
        assert _start(drawn) == _centre(elements["pin-" + drawn.get("data-pin")])
