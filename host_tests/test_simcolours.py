"""The glass's colours in the terminal (tools/simcolours.py): 24-bit, 256 dithered."""

import re
from itertools import groupby

import glasslook
import simcolours
from simterm import booted, pump

SGR_24 = re.compile(r"\x1b\[38;2;(\d+);(\d+);(\d+);48;2;(\d+);(\d+);(\d+)m")


def test_256_colours_show_every_contrast_step_the_24_bit_view_shows():
    # tmux and friends (no $COLORTERM) get 256 colours, whose nearest match is the same for
    # Vop 60..74: the glass is dithered between neighbouring palette colours instead, so each
    # step changes the picture, for both view sizes and the backlight on and off.
    for light in (True, False):
        for lines in (12, 24):
            paints = [simcolours.glass_paint(light, vop, "256", lines) for vop in range(20, 121)]
            assert all(a != b for a, b in zip(paints, paints[1:], strict=False)), (light, lines)
            assert paints[40] != paints[41] != paints[42]  # Vop 60, 61, 62: the default's steps
        # The default contrast looks as it did: the nearest palette colours, everywhere.
        _, paper, ink = glasslook.colours(light, 60)
        at_60 = {part for row in simcolours.glass_paint(light, 60, "256", 12) for part in row}
        assert at_60 == {simcolours.sgr(ink, paper, "256")}
        # 24-bit colours need no dither: one colour, exactly the glass's.
        at_61 = {part for row in simcolours.glass_paint(light, 61, "24bit", 24) for part in row}
        _, paper, ink = glasslook.colours(light, 61)
        assert at_61 == {simcolours.sgr(ink, paper, "24bit")}


def test_contrast_steps_and_backlight_shade_the_glass_in_the_terminal(tmp_path):
    # Every contrast step of the live preview changes the shade (not only at the extremes).
    shades = [glasslook.colours(True, vop) for vop in range(20, 121)]
    assert all(a != b for a, b in zip(shades, shades[1:], strict=False))
    assert glasslook.colours(True, 60) == glasslook.LIT  # the default: the golden colours
    # With 256 colours too, Vop 40 and 70 and the backlight on and off look different.
    looks = {
        simcolours.sgr(ink, paper, "256")
        for light, vop in ((True, 40), (True, 70), (False, 40), (False, 70))
        for _, paper, ink in [glasslook.colours(light, vop)]
    }
    assert len(looks) == 4, looks
    # A person's way, on the firmware: Settings, contrast 60 down to 50 step by step, then the
    # light off. The terminal's glass takes the model's Vop and backlight for its ink and paper.
    with booted(tmp_path) as sim:
        pump((sim,), lambda: sim.screen.look()[1])  # lit: the boot's unlit frames are over
        sim.screen.clear, sim.screen.colours = True, "24bit"  # as in a truecolor terminal
        # Settings (above Link play), Contr, down to 50, then Light: off.
        sim.press("SELECT", "PREV", "PREV", "SELECT", "SELECT", *["PREV"] * 10)
        sim.press("SELECT", "NEXT", "SELECT")
        pump((sim,), lambda: not sim.buttons.pending())
        text = sim.screen.out.getvalue()
    painted = (tuple(int(v) for v in match.groups()) for match in SGR_24.finditer(text))
    seen = [rgb for rgb, _ in groupby(painted)]  # each colour change
    wanted = [glasslook.colours(True, vop) for vop in range(60, 49, -1)]
    wanted.append(glasslook.colours(False, 50))
    assert seen == [ink + paper for _, paper, ink in wanted], seen
    assert "backlight off" in text.split("\u250c")[-2]
