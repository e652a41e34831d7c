"""The wiring picture as SVG: the board's header, the LCD module, the buttons, the buzzer and
the link cable's plug, and a coloured wire from each board pin to its part (where they go:
tools/wiringlayout.py).

Plain SVG 1.1: no scripts, no external fonts or images (the font is the viewer's own sans-serif),
and the same text for the same wiring. Every header pin has id "pin-<physical number>", every
wire id "wire-<part>-<terminal>" and data-pin, the physical pin it starts from.
"""

from xml.sax.saxutils import escape

import pinouts
import wiringlayout as wl
from wiringlayout import PITCH, Part, Terminal

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
MARGIN = 20
COLOURS = {
    "RST": "#6d4c41",
    "CE": "#8e24aa",
    "DC": "#2e7d32",
    "DIN": "#1565c0",
    "CLK": "#ef6c00",
    "VCC": "#d32f2f",
    "LIGHT": "#00838f",
    "GND": wl.GROUND_COLOUR,
    "PREV": "#3949ab",
    "SELECT": "#558b2f",
    "NEXT": "#ad1457",
    "buzzer": "#b28704",
    "TX": "#d81b60",
    "RX": "#1e88e5",
}
BOARD_COLOURS = {"pico": "#1e6b45", "esp32": "#20303f"}
# What a board's link cable pins cost it, said under its picture.
CABLE_NOTES = {"esp32": "GPIO16 and 17 are a WROVER module's PSRAM: no link play on a WROVER."}
LCD_WIDTH = 300
LCD_LEAD = 64  # from the wires' ends to the module's pins: room for a resistor
OTHER_ROW = 18  # the other module's pin rows
LCD_BOTTOM = 7 * PITCH + 70 + 8 * OTHER_ROW  # the module, then the other pinout under it


def parts(w):
    """The Parts of Wiring w: the LCD, the three buttons, the buzzer and the link cable's plug
    if it has them."""
    lcd = tuple(
        Terminal(label, k * PITCH, None if pin == pinouts.GROUND else pin,
                 "GND" if pin == pinouts.GROUND else label, COLOURS[label])
        for k, (label, _, pin) in enumerate(w.lcd)
    )  # fmt: skip
    found = [Part("lcd", "LCD", lcd, -PITCH - 24, LCD_BOTTOM, False)]
    for name, pin in w.buttons:
        found.append(Part("button", name, (Terminal(name, 0, pin, name, COLOURS[name]),),
                          -40, 14, True))  # fmt: skip
    if w.buzzer is not None:
        plus = Terminal("+", 0, w.buzzer, "buzzer", COLOURS["buzzer"])
        found.append(Part("buzzer", "buzzer", (plus,), -40, 16, True))
    if w.link:
        ends = [Terminal(end, k * PITCH, pin, end, COLOURS[end])
                for k, (end, pin) in enumerate(w.link)]  # fmt: skip
        ends.append(Terminal("GND", len(ends) * PITCH, None, "GND", wl.GROUND_COLOUR))
        found.append(Part("link", "link", tuple(ends), -PITCH - 16, len(ends) * PITCH, False))
    return found


class Canvas:
    """SVG elements and the box they cover."""

    def __init__(self):
        self.items = []
        self.box = [0, 0, 0, 0]

    def grow(self, x0, y0, x1, y1):
        self.box = [min(self.box[0], x0, x1), min(self.box[1], y0, y1),
                    max(self.box[2], x0, x1), max(self.box[3], y0, y1)]  # fmt: skip

    def add(self, element, *corners):
        self.items.append(element)
        for x0, y0, x1, y1 in corners:
            self.grow(x0, y0, x1, y1)

    def element(self, tag, attrs, box, extra="", body=None):
        """<tag a="v" ...extra/>, or with body <tag ...>body</tag>; numbers as _n() writes them."""
        said = " ".join('%s="%s"' % (k, v if isinstance(v, str) else _n(v)) for k, v in attrs)
        end = "/>" if body is None else ">%s</%s>" % (escape(body), tag)
        self.add("<%s %s%s%s" % (tag, said, extra, end), box)

    def text(self, x, y, s, size=11, anchor="start", fill="#212121", bold=False, extra=""):
        width = len(s) * size * 0.62
        x0 = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
        attrs = [("x", x), ("y", y), ("font-size", size), ("text-anchor", anchor), ("fill", fill)]
        attrs += [("font-weight", "bold")] if bold else []
        self.element("text", attrs, (x0, y - size, x0 + width, y + size * 0.3), extra, s)

    def rect(self, x, y, w, h, fill, stroke="none", rx=0, extra=""):
        attrs = [("x", x), ("y", y), ("width", w), ("height", h), ("rx", rx), ("fill", fill)]
        self.element("rect", attrs + [("stroke", stroke)], (x, y, x + w, y + h), extra)

    def circle(self, x, y, r, fill, stroke="none", width=1, extra=""):
        attrs = [("cx", x), ("cy", y), ("r", r), ("fill", fill), ("stroke", stroke)]
        box = (x - r, y - r, x + r, y + r)
        self.element("circle", attrs + [("stroke-width", width)], box, extra)

    def line(self, points, colour, width=2, extra=""):
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        attrs = [("points", " ".join("%s,%s" % (_n(x), _n(y)) for x, y in points))]
        attrs += [("fill", "none"), ("stroke", colour), ("stroke-width", width)]
        attrs += [("stroke-linejoin", "round"), ("stroke-linecap", "round")]
        self.element("polyline", attrs, (min(xs), min(ys), max(xs), max(ys)), extra)

    def place(self, other, dx, dy, extra=""):
        """Another Canvas's elements, moved by (dx, dy), in a group."""
        self.items.append('<g transform="translate(%s %s)"%s>' % (_n(dx), _n(dy), extra))
        self.items += other.items + ["</g>"]
        x0, y0, x1, y1 = other.box
        self.grow(x0 + dx, y0 + dy, x1 + dx, y1 + dy)

    def notes(self, lines):
        """Lines of small print under everything drawn so far."""
        y, x = self.box[3] + 28, self.box[0]
        for k, line in enumerate(lines):
            self.text(x, y + k * 17, line, 11, fill="#37474f")

    def svg(self, title):
        x0, y0 = self.box[0] - MARGIN, self.box[1] - MARGIN
        w, h = self.box[2] - x0 + MARGIN, self.box[3] - y0 + MARGIN
        head = (
            '<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="%s %s %s %s" '
            'font-family="%s">' % (_n(w), _n(h), _n(x0), _n(y0), _n(w), _n(h), FONT)
        )
        back = '<rect x="%s" y="%s" width="%s" height="%s" fill="#ffffff"/>' % (
            _n(x0), _n(y0), _n(w), _n(h))  # fmt: skip
        return "\n".join([head, "<title>%s</title>" % escape(title), back] + self.items
                         + ["</svg>", ""])  # fmt: skip


def _n(v):
    return ("%.1f" % v).rstrip("0").rstrip(".")


def draw_board(c, w, plan):
    """The board under its header pins (plan: a wiringlayout.Layout)."""
    bottom = (plan.rows - 1) * PITCH + PITCH
    top = -2 * PITCH + 6
    c.rect(-20, top, wl.INNER + 40, bottom - top, BOARD_COLOURS.get(w.name, "#333"), rx=8)
    mid = wl.INNER / 2
    if w.header.top == "USB":
        c.rect(mid - 26, top - 10, 52, 24, "#c5cad0", "#7b8188", rx=3)
        c.text(mid, top + 8, "USB", 10, "middle", "#37474f", True)
    else:  # the module's antenna at the top, USB at the bottom end
        zig = [(mid - 60 + 12 * k, top + (10 if k % 2 else 24)) for k in range(11)]
        c.line(zig, "#d4b24c", 3)
        c.rect(mid - 26, bottom - 14, 52, 24, "#c5cad0", "#7b8188", rx=3)
        c.text(mid, bottom + 4, "USB", 10, "middle", "#37474f", True)
    centre = (plan.rows - 1) * PITCH / 2
    turn = ' transform="rotate(-90 %s %s)"' % (_n(mid), _n(centre))
    c.text(mid, centre, w.header.title, 13, "middle", "#ffffff", True, turn)


def draw_pins(c, plan, prefix="pin-"):
    """The header pins, each id prefix + its physical number, ringed in the colour of its wire."""
    used = {wire.pin: wire.colour for wire in plan.wires}
    for pin, (x, y) in plan.pins.items():
        s = wl.sign(pin.side)
        colour = used.get(pin)
        if colour:
            c.circle(x, y, 8, "none", colour, 3)
        c.circle(x, y, 5.5, "#e2c25a", "#8a6d1a", 1, ' id="%s%s"' % (prefix, pin.number))
        c.circle(x, y, 2.2, "#3b3b3b")
        inward = "start" if s < 0 else "end"
        c.text(x - s * 12, y + 3.5, str(pin.number), 9, inward, "#b9c9c0")
        shade = "#ffffff" if colour else "#c9d3cd"
        c.text(x - s * 42, y + 4, pin.label, 11, inward, shade, bool(colour))


def _wires(c, plan):
    for wire in plan.wires:
        c.line(wire.points, "#ffffff", 6)
        c.line(wire.points, wire.colour, 2.6,
               ' id="wire-%s" data-pin="%s"' % (wire.name, wire.pin.number))  # fmt: skip
        x, y = wire.points[-1]
        c.circle(x, y, 3.2, wire.colour)


def _resistor(c, x, y, s, ohms, extra=""):
    """A resistor across (x, y) to (x + s * 36, y), its value above it."""
    c.rect(min(x, x + s * 36), y - 6, 36, 12, "#f3e5c0", "#424242", 2, extra)
    c.text(x + s * 18, y - 11, ohms, 10, "middle", "#424242")


def _lcd(c, w, where):
    """The module LCD_LEAD beyond the wires' ends, each end joined to its pin by a lead; LIGHT's
    lead has the 330 ohm resistor in it when the board drives LIGHT high (LIGHT_ON = 1), as the
    README advises for modules whose LEDs go to GND."""
    s = wl.sign(where.side)
    for k, (label, _, _) in enumerate(w.lcd):
        py = where.y + k * PITCH
        lead = [(where.x, py), (where.x + s * LCD_LEAD, py)]
        c.line(lead, "#ffffff", 6)
        c.line(lead, COLOURS[label], 2.6)
        if label == "LIGHT" and w.light_on:
            _resistor(c, where.x + s * 12, py, s, "330 Ω", ' id="resistor-LIGHT"')
    x, y = where.x + s * LCD_LEAD, where.y
    left = x - 14 if s > 0 else x - LCD_WIDTH
    bottom = y + 7 * PITCH + 20
    c.text(left, y - 32, "Nokia 5110 LCD module (PCD8544), the red breakout", 12, bold=True)
    c.rect(left, y - 20, LCD_WIDTH + 14, bottom - y + 20, "#a8262b", "#6d1216", 6)
    glass_x = left + 158 if s > 0 else left + 14
    c.rect(glass_x, y - 6, 140, 7 * PITCH + 12, "#b9c7a3", "#55604a", 3)
    c.text(glass_x + 70, y + 3.5 * PITCH - 4, "84 x 48", 12, "middle", "#44503a", True)
    c.text(glass_x + 70, y + 3.5 * PITCH + 12, "glass", 10, "middle", "#44503a")
    for k, (label, other, _) in enumerate(w.lcd):
        py = y + k * PITCH
        c.circle(x, py, 5.5, "#e2c25a", "#8a6d1a")
        c.text(x + s * 14, py + 4, label, 12, "start" if s > 0 else "end", "#ffffff", True)
        if other:
            c.text(x + s * 62, py + 4, other, 10, "start" if s > 0 else "end", "#ffd6d6")
    top = bottom + 34
    c.text(left, top, "Or the other common pinout (SparkFun LCD-10168, blue", 11, bold=True)
    c.text(left, top + 14, "breakouts): wire each pin by its name, not its place.", 11)
    c.rect(left, top + 24, 200, 8 * OTHER_ROW + 12, "#1f4f8f", "#12325c", 5)
    for k, (label, same) in enumerate(pinouts.OTHER_LCD_ORDER):
        py = top + 24 + 15 + k * OTHER_ROW
        c.circle(left + 16, py, 6, COLOURS[same])
        c.circle(left + 16, py, 3, "#e2c25a")
        c.text(left + 30, py + 4, label, 11, fill="#ffffff", bold=True)
        c.text(left + 110, py + 4, "= " + same, 10, fill="#cfe0ff")


def _switch(c, x, y, s, rail_x, name, colour):
    """A 6 mm tactile switch seen from above: four legs, joined in pairs inside, so the wire
    and the GND lead take two diagonally opposite legs, always on different pairs."""
    a, b, h = x + s * 40, x + s * 76, 20  # its legs: a and b across, h apart along a side
    c.rect(min(a, b) + 4, y - h - 4, 28, h + 8, "#eceff1", "#424242", 2)
    c.circle((a + b) / 2, y - h / 2, 7, "#757575", "#424242", 1.5)
    c.line([(x, y), (a, y)], "#424242", 2)
    lead = [(b, y - h), (b + s * 14, y - h), (b + s * 14, y), (rail_x, y)]
    c.line(lead, "#424242", 2, ' id="lead-%s-gnd"' % name)
    legs = ((a, y, "pin"), (b, y - h, "gnd"), (a, y - h, "free-1"), (b, y, "free-2"))
    for lx, ly, role in legs:
        fill = "#bdbdbd" if role.startswith("free") else "#ffffff"
        c.circle(lx, ly, 3, fill, "#424242", 2, ' id="leg-%s-%s"' % (name, role))
    c.text((a + b) / 2, y - h - 10, name, 12, "middle", colour, True)


def _buzzer(c, x, y, s, rail_x):
    c.line([(x, y), (x + s * 18, y)], "#424242", 2)
    _resistor(c, x + s * 18, y, s, "100 Ω")
    c.line([(x + s * 54, y), (x + s * 82, y)], "#424242", 2)
    c.circle(x + s * 98, y, 15, "#fafafa", "#424242", 2)
    c.circle(x + s * 98, y, 8, "#e0e0e0", "#9e9e9e", 1)
    c.text(x + s * 76, y - 6, "+", 11, "middle", "#424242", True)
    c.line([(x + s * 113, y), (rail_x, y)], "#424242", 2)
    c.text(x + s * 98, y - 26, "passive piezo buzzer", 12, "middle", COLOURS["buzzer"], True)


def _plug(c, where, s):
    """The link cable's plug: its ends' wires in, the cable out towards the other board."""
    x, y = where.x, where.y
    ends = where.part.terminals
    words = {"TX": "TX → the other board's RX", "RX": "RX ← the other board's TX",
             "GND": "GND — the other board's GND"}  # fmt: skip
    for k, t in enumerate(ends):
        py = y + k * PITCH
        c.line([(x, py), (x + s * 30, py)], t.colour, 2.6)
        c.line([(x + s * 46, py), (x + s * 70, py)], t.colour, 4)
        c.text(x + s * 78, py + 4, words[t.label], 11, "start" if s > 0 else "end", t.colour, True)
    bottom = y + (len(ends) - 1) * PITCH
    c.rect(min(x + s * 30, x + s * 46), y - 10, 16, bottom - y + 20, "#455a64", "#263238", 2)
    label = "link cable (link play), to the other board"
    c.text(x + s * 30, y - 18, label, 12, "start" if s > 0 else "end", "#37474f", True)


def _rails(c, plan):
    for side, (x, top, bottom) in plan.rails.items():
        c.line([(x, top), (x, bottom)], wl.GROUND_COLOUR, 3)
        s = wl.sign(side)
        c.text(x + s * 8, top + 4, "GND", 11, "start" if s > 0 else "end", wl.GROUND_COLOUR, True)
        for where in plan.parts:
            if where.side == side and where.part.grounded:
                c.circle(x, where.y, 4, wl.GROUND_COLOUR)


def _notes(c, w):
    light = (
        "LIGHT_ON = 1: LIGHT is driven high, through 330 Ω (for LEDs to GND). A module that "
        "lights on low (many red ones): no resistor, LIGHT_ON = 0."
        if w.light_on
        else "LIGHT_ON = 0: LIGHT is pulled low to light the backlight (the module's resistors)."
    )
    c.notes((
        "Drawn from %s by tools/wiring.py: the board seen from above, each header pin with "
        "its physical number." % w.source,
        "The LCD takes 3.3 V on VCC, never 5 V. " + light,
        "Each button joins its pin to GND (the board file turns on the pull-ups) through two "
        "diagonally opposite legs of its four; the piezo must be passive.",
    ) + _cable_notes(w))  # fmt: skip


def _cable_notes(w):
    if not w.link:
        return ()
    said = ("The link cable: TX to the other board's RX, RX to its TX, GND to its GND "
            "(docs/wiring-link.svg); any two of these boards, all at 3.3 V.",)  # fmt: skip
    return said + ((CABLE_NOTES[w.name],) if w.name in CABLE_NOTES else ())


def render(w):
    """The SVG text of Wiring w."""
    grounds = pinouts.labelled(w.header, ("GND",))
    plan = wl.layout(w.header, parts(w), grounds)
    c = Canvas()
    draw_board(c, w, plan)
    _wires(c, plan)
    draw_pins(c, plan)
    rail_x = {side: x for side, (x, _, _) in plan.rails.items()}
    for where in plan.parts:
        s = wl.sign(where.side)
        if where.part.kind == "lcd":
            _lcd(c, w, where)
        elif where.part.kind == "button":
            _switch(c, where.x, where.y, s, rail_x[where.side], where.part.name,
                    COLOURS[where.part.name])  # fmt: skip
        elif where.part.kind == "link":
            _plug(c, where, s)
        else:
            _buzzer(c, where.x, where.y, s, rail_x[where.side])
    _rails(c, plan)
    for wire in plan.wires:  # the wires' ends over the parts' pads
        x, y = wire.points[-1]
        c.circle(x, y, 3.2, wire.colour)
    _notes(c, w)
    c.text(c.box[0], c.box[1] - 14, "oxo5110 wiring: %s (%s)" % (w.header.title, w.source), 16,
           bold=True)  # fmt: skip
    return c.svg("oxo5110 wiring: %s" % w.header.title)
