"""Two boards joined by the link cable, as SVG (docs/wiring-link.svg): both headers side by side,
the link pins facing each other, and the cable's three wires: each board's TX to the other's RX,
GND to GND (tools/wiring.py reads the board files; the boards and pins are drawn as in
tools/wiringsvg.py).

Board a stands on the left, its link pins on its right header column; b on the right, its link
pins on its left column, moved down whole rows. Which rows, which GND pins and which wire runs
in which channel between them is the choice with the fewest crossings, then the shortest wires.
Each board is a group, id "board-<name>", moved by its transform; its pins have id
"<name>-pin-<physical number>". Each wire has id "wire-<from board>-TX" (or "wire-GND"), and
data-from and data-to, "<board>:<physical number>" of its two ends.
"""

from itertools import pairwise, permutations

import pinouts
import wiringlayout as wl
import wiringsvg as ws
from wiringlayout import INNER, PITCH

GAP = 240  # from a's right header column to b's left one
LABEL = 34  # a wire's end label, out from its pin


def _link_pins(w, side):
    """{"TX": Pin, "RX": Pin} of Wiring w, on its `side` column; ValueError elsewhere."""
    if not w.link:
        raise ValueError("%s: no link cable (LINK_TX, LINK_RX)" % w.source)
    pins = dict(w.link)
    wrong = [end for end, pin in pins.items() if pin.side != side]
    if wrong:
        raise ValueError(
            "%s: the link pins must be on the %s header column to face the other board, not %s"
            % (w.source, side, ", ".join("%s (%s)" % (e, pins[e].label) for e in wrong))
        )
    return pins


def _grounds(w, side):
    return [p for p in pinouts.labelled(w.header, ("GND",)) if p.side == side]


def _path(start, end, cx):
    return tuple(wl.tidy([start, (cx, start[1]), (cx, end[1]), end]))


def _length(points):
    return sum(abs(p[0] - q[0]) + abs(p[1] - q[1]) for p, q in pairwise(points))


def plan(a, b):
    """(b's shift down, [(name, from, to, (Pin, Pin), points), ...]) for Wirings a and b."""
    mine, theirs = _link_pins(a, "right"), _link_pins(b, "left")
    rows = max(len(b.header.left), len(b.header.right))
    channels = [INNER + GAP * (k + 1) / 4 for k in range(3)]
    best = None
    for shift in range(-rows * PITCH, rows * PITCH, PITCH):
        for ga in _grounds(a, "right"):
            for gb in _grounds(b, "left"):
                joins = [
                    ("wire-%s-TX" % a.name, (a, b), (mine["TX"], theirs["RX"])),
                    ("wire-%s-TX" % b.name, (b, a), (theirs["TX"], mine["RX"])),
                    ("wire-GND", (a, b), (ga, gb)),
                ]
                for order in permutations(channels):
                    wires = []
                    for (name, boards, pins), cx in zip(joins, order, strict=True):
                        ends = [_xy(w, p, a, shift) for w, p in zip(boards, pins, strict=True)]
                        wires.append((name, boards, pins, _path(ends[0], ends[1], cx)))
                    paths = [wire[3] for wire in wires]
                    crossings = sum(
                        wl.crossings(p, q) for i, p in enumerate(paths) for q in paths[i + 1 :]
                    )
                    cost = (crossings, sum(_length(w[3]) for w in wires), shift)
                    if best is None or cost < best[0]:
                        best = (cost, shift, wires)
    return best[1], best[2]


def _xy(w, pin, a, shift):
    x, y = wl.pin_xy(pin)
    return (x, y) if w is a else (x + INNER + GAP, y + shift)


def _board(c, w, dx, dy, wires):
    sub = ws.Canvas()
    pins = {p: wl.pin_xy(p) for p in pinouts.pins(w.header)}
    used = [wl.Wire(name, pin, colour, ()) for name, pin, colour in wires]
    rows = max(len(w.header.left), len(w.header.right))
    layout = wl.Layout(pins=pins, parts=[], rails={}, wires=used, rows=rows)
    ws.draw_board(sub, w, layout)
    ws.draw_pins(sub, layout, w.name + "-pin-")
    c.place(sub, dx, dy, ' id="board-%s"' % w.name)


def _same_kind(w):
    pins = dict(w.link)
    tx, rx = pins["TX"], pins["RX"]
    return (
        "Two %s boards: pin %s (%s, TX) to the other's pin %s (%s, RX), both ways; GND to "
        "GND." % (w.header.title, tx.number, tx.label, rx.number, rx.label)
    )


def render(a, b):
    """The SVG text of Wirings a (left) and b (right) joined by the link cable."""
    shift, wires = plan(a, b)
    colours = [ws.COLOURS["TX"], ws.COLOURS["RX"], wl.GROUND_COLOUR]
    ends = {a.name: [], b.name: []}  # (name, pin, colour) each board's pins are ringed in
    for (name, boards, pins, _), colour in zip(wires, colours, strict=True):
        for w, pin in zip(boards, pins, strict=True):
            ends[w.name].append((name, pin, colour))
    c = ws.Canvas()
    _board(c, a, 0, 0, ends[a.name])
    _board(c, b, INNER + GAP, shift, ends[b.name])
    for (name, boards, pins, points), colour in zip(wires, colours, strict=True):
        c.line(points, "#ffffff", 7)
        said = " ".join(
            'data-%s="%s:%s"' % (role, w.name, p.number)
            for role, w, p in zip(("from", "to"), boards, pins, strict=True)
        )
        c.line(points, colour, 3, ' id="%s" %s' % (name, said))
    for (name, boards, _, points), colour in zip(wires, colours, strict=True):
        for (x, y), w in ((points[0], boards[0]), (points[-1], boards[1])):
            s = 1 if w is a else -1
            role = "GND" if name == "wire-GND" else "TX" if w is boards[0] else "RX"
            c.text(x + s * LABEL, y - 5, role, 11, "middle", colour, True)
    titles = (a.header.title, b.header.title)
    notes = (
        "Drawn from %s and %s by tools/wiring.py: the boards seen from above, each header pin "
        "with its physical number." % (a.source, b.source),
        "Three wires: each board's TX to the other's RX, and GND to GND. Both boards work at "
        "3.3 V, so any two of them can play.",
    ) + tuple(_same_kind(w) for w in (a, b))
    c.notes(notes + tuple(ws.CABLE_NOTES[w.name] for w in (a, b) if w.name in ws.CABLE_NOTES))
    title = "oxo5110 link cable: %s and %s" % titles
    c.text(c.box[0], c.box[1] - 14, title, 16, bold=True)
    return c.svg(title)
