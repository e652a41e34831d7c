# The colours of a Nokia 5110 module's glass: backlight on or off, and the contrast (Vop).
# SPDX-License-Identifier: MIT
"""One palette for every picture of the glass: the PNGs (lcd_render), the simulator's terminal
and the web page (web/oxoweb.py, under MicroPython WebAssembly). Runs under CPython and
MicroPython."""

# (glass between cells, cell off, ink) with the backlight on and off.
LIT = ((0xB9, 0xCC, 0x7E), (0xAD, 0xC1, 0x73), (0x1F, 0x2B, 0x1B))
UNLIT = ((0x93, 0x9E, 0x7C), (0x8A, 0x95, 0x74), (0x22, 0x28, 0x20))

# Contrast, continuous so that every step of a live preview shows: below VOP_FULL the ink fades
# (gone at VOP_FAINT), above it the background darkens (half way to ink at Vop 120). At
# VOP_FULL, the settings' default, the colours are exactly LIT / UNLIT.
VOP_FAINT = 20  # at or below: ink invisible
VOP_FULL = 60  # full ink, clean background: the default contrast
VOP_DARK_SPAN = 120  # Vop above VOP_FULL per whole step of background towards ink (capped at 1/2)


def shade(vop=None):
    """(cell, ink) for Vop 0..127 (None: VOP_FULL) as places 0..1 on the path from the cell
    colour (0) to full ink (1): the ink fades below VOP_FULL, the cell darkens above it. The
    simulator's 256-colour view dithers along this path."""
    if vop is None:
        vop = VOP_FULL
    ink = min(1.0, max(0.0, (vop - VOP_FAINT) / (VOP_FULL - VOP_FAINT)))
    cell = min(0.5, max(0.0, (vop - VOP_FULL) / VOP_DARK_SPAN))
    return cell, ink


def mix(a, b, t):
    """RGB a moved the fraction t of the way to RGB b, rounded."""
    return tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(3))


def colours(backlight, vop=None):
    """(glass between cells, cell off, ink) RGB for the backlight on/off and Vop 0..127 (None:
    VOP_FULL)."""
    gap, cell, ink = LIT if backlight else UNLIT
    # The cell only darkens at full ink (shade()), so both are places on the cell-ink path.
    cell_at, ink_at = shade(vop)
    return gap, mix(cell, ink, cell_at), mix(cell, ink, ink_at)
