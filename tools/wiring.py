"""Draw each board's wiring picture, docs/wiring-<board>.svg, from its board file's constants.

    .venv/bin/python tools/wiring.py    (make wiring) write every board's picture and the cable's

The board file is read, not run: its constants (LCD_*, BTN_*, BUZZER, LIGHT_ON, LINK_TX and
LINK_RX) and the comment on their line, where a physical pin it names ("pin 24") must be the
one the header puts that GPIO on. docs/wiring-link.svg shows two boards joined by the link
cable (PAIR). Headers: tools/pinouts.py; drawing: tools/wiringsvg.py and tools/wiringpair.py.
"""

import re
import sys
from pathlib import Path
from typing import NamedTuple

import boardlist
import pinouts

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
GROUND, POWER, LCD_TERMINALS = pinouts.GROUND, pinouts.POWER, pinouts.LCD_TERMINALS
BUTTONS = ("PREV", "SELECT", "NEXT")  # the order the parts are listed in, each BTN_<name>
LINK_ENDS = ("TX", "RX")  # the link cable's pins, each LINK_<end>; its GND is any GND pin
PAIR = ("esp32", "pico")  # the boards of docs/wiring-link.svg: the pins face each other


class Wiring(NamedTuple):
    """What connects to what on one board: header Pins (tools/pinouts.py), or None."""

    name: str
    source: str  # "boards/pico.py"
    header: pinouts.Header
    lcd: tuple  # ((label, other names, Pin / GROUND / None), ...) in LCD_TERMINALS order
    buttons: tuple  # ((name, Pin), ...)
    buzzer: object  # Pin or None
    light_on: int
    link: tuple  # (("TX", Pin), ("RX", Pin)), or () for a board file without a link cable


def _pin(header, found, const, source):
    """The header Pin of the GPIO constant `const`, checked against its comment's "pin N"."""
    gpio, comment = found[const]
    if gpio is None:
        return None
    pin = pinouts.gpio_pin(header, gpio)
    said = re.search(r"\bpin (\d+)\b", comment)
    if said and int(said.group(1)) != pin.number:
        raise ValueError(
            "%s: %s = %d is %s on the %s's header, pin %s, but its comment says pin %s"
            % (source, const, gpio, pin.label, header.title, pin.number,
               said.group(1))
        )  # fmt: skip
    return pin


def read(name, boards_dir=boardlist.BOARDS):
    """The Wiring of board file boards/<name>.py; ValueError for a board with no header
    drawing, a missing constant or a comment naming another pin."""
    path = boardlist.board_file(name, boards_dir)
    source = "boards/%s" % path.name
    if name not in pinouts.HEADERS:
        raise ValueError(
            "%s: no header drawing for board %r (add its pinout to tools/pinouts.py)"
            % (source, name)
        )
    header = pinouts.HEADERS[name]
    found = boardlist.constants(path.read_text())
    needed = [c for _, c, _ in LCD_TERMINALS if c not in (GROUND, POWER)]
    missing = [c for c in needed + ["BTN_" + b for b in BUTTONS] if c not in found]
    if missing:
        raise ValueError("%s: no %s constant" % (source, ", ".join(missing)))
    (power,) = pinouts.labelled(header, pinouts.POWER_3V3)
    ends = {GROUND: GROUND, POWER: power}
    lcd = tuple(
        (label, other, ends[c] if c in ends else _pin(header, found, c, source))
        for label, c, other in LCD_TERMINALS
    )
    return Wiring(
        name=name,
        source=source,
        header=header,
        lcd=lcd,
        buttons=tuple((b, _pin(header, found, "BTN_" + b, source)) for b in BUTTONS),
        buzzer=_pin(header, found, "BUZZER", source) if "BUZZER" in found else None,
        light_on=found.get("LIGHT_ON", (1, ""))[0],
        link=tuple((end, _pin(header, found, "LINK_" + end, source)) for end in LINK_ENDS)
        if all("LINK_" + end in found for end in LINK_ENDS)
        else (),
    )


def picture(name, boards_dir=boardlist.BOARDS):
    """The SVG text of board `name`'s wiring picture."""
    import wiringsvg

    return wiringsvg.render(read(name, boards_dir))


def pair_picture(names=PAIR, boards_dir=boardlist.BOARDS):
    """The SVG text of the picture of two boards joined by the link cable."""
    import wiringpair

    return wiringpair.render(*(read(name, boards_dir) for name in names))


def pictures():
    """{docs/wiring-<name>.svg: SVG text} of every picture `make wiring` draws."""
    found = {name: picture(name) for name in boardlist.known_boards()}
    found["link"] = pair_picture()
    return {DOCS / ("wiring-%s.svg" % name): text for name, text in found.items()}


def main():
    """Write each picture that differs from what its board files draw (test_wiring.py fails
    while one does)."""
    for path, text in pictures().items():
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            print("wiring: wrote %s" % path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
