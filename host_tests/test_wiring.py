"""The wiring pictures (tools/wiring.py): drawn from the board files, in step with them."""

import re
import shutil
import xml.etree.ElementTree as ET

import boardlist
import pinouts
import pytest
import wiring

SVG = "{http://www.w3.org/2000/svg}"
ROOT = wiring.ROOT


def _elements(text):
    root = ET.fromstring(text)
    return {e.get("id"): e for e in root.iter() if e.get("id")}


def _points(line):
    """A polyline's points, as (x, y) floats."""
    return [tuple(float(v) for v in p.split(",")) for p in line.get("points").split()]


def _centre(circle):
    return float(circle.get("cx")), float(circle.get("cy"))


def _grounds(w):
    """The physical numbers of Wiring w's GND pins, as the picture writes them."""
    return {str(p.number) for p in pinouts.labelled(w.header, ("GND",))}


def _boards_with(tmp_path, name, old, new):
    """A copy of boards/ in which boards/<name>.py has line `old` replaced by `new`."""
    folder = tmp_path / "boards"
    shutil.copytree(boardlist.BOARDS, folder)
    path = folder / (name + ".py")
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))
    return folder


def test_each_committed_picture_is_what_the_board_files_draw():
    stale = [path.name for path, text in wiring.pictures().items() if path.read_text() != text]
    assert not stale, "%s differ from the board files: run make wiring" % ", ".join(stale)


@pytest.mark.parametrize(
    "name, old, new, wire, was, now",
    [
        ("pico", "LCD_DC = 20  # pin 26", "LCD_DC = 16  # pin 21", "lcd-DC", "26", "21"),
        ("esp32", "BTN_PREV = 25", "BTN_PREV = 14", "button-PREV", "J1-9", "J1-12"),
        ("pico", "LINK_TX = 0  # pin 1", "LINK_TX = 4  # pin 6", "link-TX", "1", "6"),
        ("esp32", "LINK_RX = 16", "LINK_RX = 13", "link-RX", "J3-12", "J1-15"),
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
        assert _points(drawn)[0] == _centre(elements["pin-" + pin])


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


@pytest.mark.parametrize("name", boardlist.known_boards())
def test_the_lcd_pins_carry_the_names_both_common_breakouts_print(name):
    words = set()
    for text in ET.fromstring(wiring.picture(name)).iter(SVG + "text"):
        words.update(text.text.replace(",", " ").replace("(", " ").replace(")", " ").split())
    for label in ("RST", "CE", "SCE", "CS", "DC", "D/C", "DIN", "DN", "MOSI", "CLK", "SCLK",
                  "VCC", "LIGHT", "BL", "LED", "GND"):  # fmt: skip
        assert label in words


@pytest.mark.parametrize("name", boardlist.known_boards())
def test_every_part_is_wired_from_its_board_file_pin_or_a_gnd(name):
    w = wiring.read(name)
    elements = _elements(wiring.picture(name))
    wires = {k: e for k, e in elements.items() if k.startswith("wire-")}
    pins = {"wire-lcd-" + label: pin for label, _, pin in w.lcd if pin is not None}
    pins |= {"wire-button-" + b: pin for b, pin in w.buttons} | {"wire-buzzer-+": w.buzzer}
    pins |= {"wire-link-" + end: pin for end, pin in w.link} | {"wire-link-GND": pinouts.GROUND}
    assert set(pins) <= set(wires) and "wire-link-TX" in pins
    grounds = _grounds(w)
    for key, pin in pins.items():
        drawn = wires[key].get("data-pin")
        assert drawn in grounds if pin == pinouts.GROUND else drawn == str(pin.number), key
    for drawn in wires.values():
        assert _points(drawn)[0] == _centre(elements["pin-" + drawn.get("data-pin")])


@pytest.mark.parametrize("light_on", [1, 0])
def test_light_goes_through_330_ohm_when_driven_high_and_straight_when_low(tmp_path, light_on):
    # The README's Backlight: LEDs to GND (LIGHT_ON = 1) take 330 ohm between the GPIO and
    # LIGHT; a module that lights on low (LIGHT_ON = 0) takes none.
    line = "LIGHT_ON = 1  #"
    boards = _boards_with(tmp_path, "pico", line, "LIGHT_ON = %d  #" % light_on)
    elements = _elements(wiring.picture("pico", boards))
    resistor = elements.get("resistor-LIGHT")
    assert (resistor is not None) == bool(light_on)
    if resistor is not None:  # on LIGHT's row, between the wire's end and the module's pin
        wire_end = _points(elements["wire-lcd-LIGHT"])[-1]
        top, height = float(resistor.get("y")), float(resistor.get("height"))
        assert top < wire_end[1] < top + height


@pytest.mark.parametrize("name", boardlist.known_boards())
def test_each_button_is_wired_by_two_diagonally_opposite_legs_of_four(name):
    # A 6 mm tactile switch joins its legs in pairs; diagonally opposite legs never are a pair.
    elements = _elements(wiring.picture(name))
    for button, _ in wiring.read(name).buttons:
        legs = {k: _centre(e) for k, e in elements.items() if k.startswith("leg-%s-" % button)}
        assert len(legs) == 4 and len({x for x, _ in legs.values()}) == 2
        assert len({y for _, y in legs.values()}) == 2
        pin, gnd = legs["leg-%s-pin" % button], legs["leg-%s-gnd" % button]
        assert pin[0] != gnd[0] and pin[1] != gnd[1]
        assert _points(elements["lead-%s-gnd" % button])[0] == gnd


README_ROW = re.compile(r"^\| ([^|]+?) \| ([^|]+?) \| ([^|]+?) \|$", re.M)


def _readme_tables(name):
    """The rows (part, GPIO, header pins) of the README's tables for boards/<name>.py."""
    text = (ROOT / "README.md").read_text()
    section = text.split("(`boards/%s.py`):" % name, 1)[1].split("(`boards/", 1)[0]
    return [row for row in README_ROW.findall(section.split("**Backlight.**")[0])
            if not row[0].startswith(("LCD pin", "Button", "Link cable", "---"))]  # fmt: skip


@pytest.mark.parametrize("name", boardlist.known_boards())
def test_the_readme_tables_give_the_gpios_and_header_pins_the_picture_wires(name):
    w = wiring.read(name)
    wanted = {label: pin for label, _, pin in w.lcd} | dict(w.buttons)
    wanted["buzzer +"] = w.buzzer
    wanted |= {"link " + end: pin for end, pin in w.link}
    grounds = _grounds(w)
    numbered = [gpio for _, gpio in w.header.left + w.header.right]
    gpios = dict(zip(pinouts.pins(w.header), numbered, strict=True))
    rows = _readme_tables(name)
    seen = set()
    for part, gpio, numbers in rows:
        key = next((k for k in wanted if part.split(" (")[0] == k), None)
        said = re.findall(r"[A-Z]*\d+(?:-\d+)?", numbers)
        if gpio == "GND":
            assert said and set(said) <= grounds, (part, numbers)
            seen.add(key or part.split(" (")[0])
            continue
        assert key is not None, part
        pin = wanted[key]
        assert said == [str(pin.number)], (part, numbers, pin.number)
        if gpios[pin] is not None:
            assert int(re.search(r"\d+", gpio).group()) == gpios[pin], (part, gpio)
        seen.add(key)
    assert set(wanted) - {"GND"} <= seen
    assert "link GND" in seen


def _group_at(group):
    # The translate(dx dy) of a board's group in the cable's picture.
    dx, dy = re.fullmatch(r"translate\((\S+) (\S+)\)", group.get("transform")).groups()
    return float(dx), float(dy)


def test_the_cable_picture_joins_each_tx_to_the_others_rx_and_gnd_to_gnd():
    a, b = wiring.PAIR
    elements = _elements(wiring.pair_picture())
    at = {name: _group_at(elements["board-" + name]) for name in (a, b)}

    def centre(end):
        board, number = end.split(":")
        x, y = _centre(elements["%s-pin-%s" % (board, number)])
        return x + at[board][0], y + at[board][1]

    joined = {}
    for key in ("wire-%s-TX" % a, "wire-%s-TX" % b, "wire-GND"):
        wire = elements[key]
        points = _points(wire)
        assert points[0] == centre(wire.get("data-from"))
        assert points[-1] == centre(wire.get("data-to"))
        joined[wire.get("data-from")] = wire.get("data-to")
    link = {
        name: {e: "%s:%s" % (name, p.number) for e, p in wiring.read(name).link} for name in at
    }
    assert joined[link[a]["TX"]] == link[b]["RX"] and joined[link[b]["TX"]] == link[a]["RX"]
    gnd = next(end for end in joined if end not in (link[a]["TX"], link[b]["TX"]))
    for end in (gnd, joined[gnd]):
        board, number = end.split(":")
        assert number in _grounds(wiring.read(board))


def test_a_changed_link_pin_moves_its_wire_in_the_cable_picture(tmp_path):
    boards = _boards_with(tmp_path, "pico", "LINK_RX = 1  # pin 2", "LINK_RX = 5  # pin 7")
    wire = _elements(wiring.pair_picture(boards_dir=boards))["wire-esp32-TX"]
    assert wire.get("data-to") == "pico:7"


def test_boards_whose_link_pins_face_away_from_each_other_are_refused():
    with pytest.raises(ValueError, match="link pins must be on the right header column"):
        wiring.pair_picture(("pico", "esp32"))
