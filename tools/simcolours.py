"""The glass's colours in a terminal (tools/simulator.py): 24-bit, or xterm's 256 dithered. The
colours are testbed/glasslook.py's, as in the PNGs and the web page: this only writes them."""

import bisect
import functools
import math

import glasslook


def colour_mode(environ, tty_out):
    """ "24bit", "256" or None: how the terminal is told the glass colours."""
    if not tty_out or "NO_COLOR" in environ:
        return None
    if environ.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return "24bit"
    return "256"


_CUBE = (0, 95, 135, 175, 215, 255)
# xterm's palette from 16 on: its 6x6x6 cube, then its 24 greys.
_PALETTE = [(_CUBE[n // 36], _CUBE[n // 6 % 6], _CUBE[n % 6]) for n in range(216)]
_PALETTE += [(8 + 10 * n,) * 3 for n in range(24)]


def xterm256(rgb):
    """The nearest colour of the xterm 256-colour palette (its 6x6x6 cube or its greys)."""
    far = [sum((a - b) ** 2 for a, b in zip(rgb, c, strict=True)) for c in _PALETTE]
    return 16 + far.index(min(far))


def sgr(ink, paper, mode):
    """The escape sequence for ink on paper (RGB), or "" without colours."""
    if mode == "24bit":
        return "\x1b[38;2;%d;%d;%d;48;2;%d;%d;%dm" % (ink + paper)
    if mode == "256":
        return "\x1b[38;5;%d;48;5;%dm" % (xterm256(ink), xterm256(paper))
    return ""


# 256 colours are too coarse for one Vop step (about 1 RGB unit of the cell's shade): the
# glass is split into picture lines x DITHER_SEGMENTS parts, each painted with one of the two
# palette colours next to the shade on its path (an ordered dither), so each step changes some.
DITHER_SEGMENTS = 4
LADDER_SAMPLES = 256


@functools.lru_cache(maxsize=2)
def _ladder(light):
    """The xterm-256 colours met along the glass's cell-to-ink path (glasslook.shade()) for
    the backlight on/off, with the place on the path each stands for (the ends at 0 and 1)."""
    _, cell, ink = glasslook.LIT if light else glasslook.UNLIT
    codes, starts = [], []
    for i in range(LADDER_SAMPLES + 1):
        code = xterm256(glasslook.mix(cell, ink, i / LADDER_SAMPLES))
        if not codes or codes[-1] != code:
            codes.append(code)
            starts.append(i / LADDER_SAMPLES)
    places = [(a + b) / 2 for a, b in zip(starts, starts[1:] + [1.0], strict=True)]
    places[0], places[-1] = 0.0, 1.0
    return tuple(codes), tuple(places)


def _on_ladder(ladder, place, threshold):
    codes, places = ladder
    k = min(bisect.bisect_right(places, place) - 1, len(codes) - 2)
    part = (place - places[k]) / (places[k + 1] - places[k])
    return codes[k + 1] if part > threshold else codes[k]


def glass_paint(light, vop, mode, lines):
    """The escape sequence for each of DITHER_SEGMENTS parts of each of `lines` picture lines:
    the glass's ink on its cell colour; with 256 colours dithered (see DITHER_SEGMENTS)."""
    _, paper, ink = glasslook.colours(light, vop)
    if mode != "256":
        return [[sgr(ink, paper, mode)] * DITHER_SEGMENTS for _ in range(lines)]
    ladder = _ladder(bool(light))
    paper_at, ink_at = glasslook.shade(vop)
    count = lines * DITHER_SEGMENTS
    stride = _spread(count)
    paint = []
    for k in range(count):  # the k-th part, line by line
        threshold = (k * stride % count + 0.5) / count
        codes = _on_ladder(ladder, ink_at, threshold), _on_ladder(ladder, paper_at, threshold)
        paint.append("\x1b[38;5;%d;48;5;%dm" % codes)
    return [paint[k : k + DITHER_SEGMENTS] for k in range(0, count, DITHER_SEGMENTS)]


def _spread(count):
    """A stride coprime to count near its golden section: consecutive parts get thresholds far
    apart, so the parts that change shade are scattered over the glass."""
    stride = round(count * 0.618)
    while math.gcd(stride, count) != 1:
        stride += 1
    return stride


def painted(line, parts):
    """The picture line with each of its DITHER_SEGMENTS parts in its colours (parts None or
    all "": no colours)."""
    if not parts or not parts[0]:
        return line
    n = len(parts)
    out, last = [], None
    for i, paint in enumerate(parts):
        if paint != last:
            out.append(paint)
            last = paint
        out.append(line[len(line) * i // n : len(line) * (i + 1) // n])
    return "".join(out) + "\x1b[0m"
