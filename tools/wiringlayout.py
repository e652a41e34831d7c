"""Where everything goes in a wiring picture: the header's pins, the parts beside it, and each
wire's path (tools/wiringsvg.py draws them).

The board stands in the middle, its two header columns PITCH apart row by row. Each part goes
on the side most of its pins are on, stacked near the rows it connects to. A wire leaves its pin
sideways, runs along a vertical channel of its own between the board and the parts, and turns
into its part's terminal; a wire whose part is on the other side runs over the top of the
board in a lane of its own. The order of the channels (which wire runs nearest the board) is
the one with the fewest crossings. Part terminals sit half a row off the pin rows, so no wire
ever runs along another.
"""

from itertools import pairwise
from typing import NamedTuple

import pinouts

PITCH = 24  # one header row
INNER = 220  # from the left header column to the right one
CHANNEL0 = 34  # the first channel, from its header column
CHANNEL_STEP = 14
PART_GAP = 22  # from the last channel to the parts' terminals
PART_SPACING = PITCH  # the least room between two parts (they move in whole rows)
LANE0 = -3 * PITCH  # the first lane over the board's top end
LANE_STEP = 12


class Terminal(NamedTuple):
    label: str
    dy: float  # from the part's anchor
    pin: object  # the header Pin it is wired to, or None
    net: str  # wires of one net may share a path
    colour: str


class Part(NamedTuple):
    kind: str  # "lcd", "button", "buzzer"
    name: str
    terminals: tuple  # those facing the board
    top: float  # the part's extent above and below its anchor
    bottom: float
    grounded: bool  # its far end goes to the side's GND rail


class Placed(NamedTuple):
    part: Part
    side: str
    x: float  # where its terminals are
    y: float  # its anchor


class Wire(NamedTuple):
    name: str  # "lcd-DC", "button-PREV", "rail-left"
    pin: pinouts.Pin
    colour: str
    points: tuple  # ((x, y), ...) from the pin to the part


class Layout(NamedTuple):
    pins: dict  # {Pin: (x, y)}
    parts: list  # [Placed]
    rails: dict  # {side: (x, y from, y to)}
    wires: list  # [Wire]
    rows: int


def sign(side):
    return 1 if side == "right" else -1


def pin_column(side):
    return INNER if side == "right" else 0


def pin_xy(pin):
    return (pin_column(pin.side), pin.row * PITCH)


def _side_of(part):
    sides = [t.pin.side for t in part.terminals if t.pin is not None and t.net != "GND"]
    return "left" if sides.count("left") > sides.count("right") else "right"


def _half_row(y):
    return (round(y / PITCH - 0.5) + 0.5) * PITCH


def _stack(parts):
    """Anchor ys for parts on one side, each as near its pins as the stacking allows."""
    wanted = []
    for part in parts:
        offsets = [pin_xy(t.pin)[1] - t.dy for t in part.terminals if t.pin and t.net != "GND"]
        wanted.append(_half_row(sum(offsets) / len(offsets)) if offsets else 0.5 * PITCH)
    ys, below = {}, None
    for i in sorted(range(len(parts)), key=lambda i: (wanted[i], i)):
        y = wanted[i]
        if below is not None:
            y = _at_least(y, below + PART_SPACING - parts[i].top)
        ys[i], below = y, y + parts[i].bottom
    # Centre the stack on what the parts wanted, in whole rows, its top at most half a row
    # above the first pin row.
    shift = round(sum(wanted[i] - ys[i] for i in ys) / len(ys) / PITCH) * PITCH
    highest = min(ys[i] + parts[i].top for i in ys)
    shift = max(shift, -((highest + PITCH / 2) // PITCH) * PITCH)
    return [ys[i] + shift for i in range(len(parts))]


def _at_least(y, floor):
    """The smallest y + k rows (k >= 0 whole) that is >= floor."""
    return y if y >= floor else y + -(-(floor - y) // PITCH) * PITCH


def crossings(a, b):
    """How often polylines a and b cross; running along each other counts as many."""
    count = 0
    for p, q in pairwise(a):
        for r, s in pairwise(b):
            count += _segment_cross(p, q, r, s)
    return count


def _segment_cross(p, q, r, s):
    for along in (0, 1):  # both horizontal (along x), then both vertical (along y)
        across = 1 - along
        if p[across] == q[across] and r[across] == s[across]:
            if p[across] != r[across]:
                return 0
            lo = max(min(p[along], q[along]), min(r[along], s[along]))
            hi = min(max(p[along], q[along]), max(r[along], s[along]))
            return 100 if lo < hi else 0
    if p[1] != q[1]:  # make (p, q) the horizontal one
        p, q, r, s = r, s, p, q
    x, y = r[0], p[1]
    return int(min(p[0], q[0]) < x < max(p[0], q[0]) and min(r[1], s[1]) < y < max(r[1], s[1]))


class _Run(NamedTuple):
    """One wire's stretch on one side: from (x, y0) out to its channel, to y1, on to x1."""

    key: int
    y0: float
    y1: float
    x1: float  # where it ends beyond the channel: a terminal; or the header column, inwards
    net: str


def _path(run, side, channel):
    col = pin_column(side)
    cx = col + sign(side) * (CHANNEL0 + channel * CHANNEL_STEP)
    return ((col, run.y0), (cx, run.y0), (cx, run.y1), (run.x1, run.y1))


def _order(runs, side):
    """The runs' keys from the board outwards, with the fewest crossings (exact, over subsets:
    a pair's crossings depend only on which of the two is nearer the board)."""
    n = len(runs)
    cost = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and runs[i].net != runs[j].net:
                cost[i][j] = crossings(_path(runs[i], side, 0), _path(runs[j], side, 1))
    best = {0: (0, ())}
    for mask in range(1 << n):
        if mask not in best:
            continue
        done, seq = best[mask]
        for j in range(n):
            if not mask & (1 << j):
                extra = sum(cost[i][j] for i in seq)
                new = mask | (1 << j)
                if new not in best or (done + extra, seq + (j,)) < best[new]:
                    best[new] = (done + extra, seq + (j,))
    return [runs[i].key for i in best[(1 << n) - 1][1]]


def layout(header, parts, ground_pins):
    """Place parts beside `header` and route every wired terminal; `ground_pins` are the
    header's GND pins, from which each GND terminal and each side's rail takes the nearest."""
    sides = {part.name: _side_of(part) for part in parts}
    placed = []  # with x for now None: it waits for the number of channels
    for side in SIDES:
        mine = [p for p in parts if sides[p.name] == side]
        if mine:
            placed += [Placed(p, side, None, y) for p, y in zip(mine, _stack(mine), strict=True)]
    ends = []  # [name, pin, colour, net, side of the part, x or "rail"/"terminal", y]
    for where in placed:
        for t in where.part.terminals:
            y = where.y + t.dy
            pin = _nearest(ground_pins, where.side, y) if t.net == "GND" else t.pin
            if pin is not None:
                name = where.part.kind + "-" + t.label
                ends.append([name, pin, t.colour, t.net, where.side, "terminal", y])
    rails = {}
    for side in SIDES:
        grounded = sorted((w for w in placed if w.side == side and w.part.grounded),
                          key=lambda w: w.y)  # fmt: skip
        if grounded:
            pin = _nearest(ground_pins, side, sum(w.y for w in grounded) / len(grounded))
            lanes = [grounded[0].y + grounded[0].part.top - PITCH / 2]
            lanes += [_half_row((a.y + b.y) / 2) for a, b in pairwise(grounded)]
            lanes += [grounded[-1].y + grounded[-1].part.bottom + PITCH / 2]
            lane = min(lanes, key=lambda y: (abs(y - pin_xy(pin)[1]), y))
            rails[side] = (min(lane, grounded[0].y), max(lane, grounded[-1].y))
            ends.append(["rail-" + side, pin, GROUND_COLOUR, "GND", side, "rail", lane])
    runs = {s: sum((e[4] == s) + (e[1].side == s != e[4]) for e in ends) for s in SIDES}
    edge = {s: pin_column(s) + sign(s) * (CHANNEL0 + runs[s] * CHANNEL_STEP + PART_GAP)
            for s in SIDES}  # fmt: skip
    for e in ends:
        e[5] = edge[e[4]] + (sign(e[4]) * RAIL_OFFSET if e[5] == "rail" else 0)
    return Layout(
        pins={p: pin_xy(p) for p in pinouts.pins(header)},
        parts=[w._replace(x=edge[w.side]) for w in placed],
        rails={s: (edge[s] + sign(s) * RAIL_OFFSET,) + ys for s, ys in rails.items()},
        wires=_route(ends),
        rows=max(len(header.left), len(header.right)),
    )


SIDES = ("left", "right")
RAIL_OFFSET = 190  # from a side's terminals to its GND rail, past the parts
GROUND_COLOUR = "#212121"


def _nearest(ground_pins, side, y):
    here = [p for p in ground_pins if p.side == side] or list(ground_pins)
    return min(here, key=lambda p: (abs(pin_xy(p)[1] - y), p.row))


def _route(ends):
    """Each end's wire: out to its channel, over the top if its part is on the other side."""
    crossing = sorted((i for i, e in enumerate(ends) if e[1].side != e[4]),
                      key=lambda i: ends[i][1].row)  # fmt: skip
    lane = {i: LANE0 - k * LANE_STEP for k, i in enumerate(crossing)}
    runs = {s: [] for s in SIDES}
    legs = {}  # {i: [(side, run), ...]} from the pin on
    for i, (_, pin, _, net, side, x, y) in enumerate(ends):
        py = pin_xy(pin)[1]
        if i in lane:
            home = pin_column(pin.side)  # over the top, back inwards from the pin
            legs[i] = [(pin.side, _Run(i, py, lane[i], home, net)),
                       (side, _Run(i, lane[i], y, x, net))]  # fmt: skip
        else:
            legs[i] = [(side, _Run(i, py, y, x, net))]
        for s, run in legs[i]:
            runs[s].append(run)
    channel = {}
    for side in SIDES:
        for k, key in enumerate(_order(runs[side], side)):
            channel[key, side] = k
    wires = []
    for i, (name, pin, colour, *_) in enumerate(ends):
        points = sum((_path(run, s, channel[i, s]) for s, run in legs[i]), ())
        wires.append(Wire(name, pin, colour, tuple(tidy(points))))
    return wires


def tidy(points):
    """Without repeated points and the middle points of straight runs."""
    out = []
    for p in points:
        if out and out[-1] == p:
            continue
        if len(out) >= 2 and any(out[-2][k] == out[-1][k] == p[k] for k in (0, 1)):
            out[-1] = p
        else:
            out.append(p)
    return out
