"""The simulator's terminal view (tools/simview.py): half blocks, braille and its status line,
the legend, a terminal too small."""

import goldens
import lcd_render
import pcd8544_model
import pexpect
import simterm
import simview
from simterm import (
    ANSI,
    last_drawn,
    last_is,
    last_screen,
    pause,
    read_until,
    screens_in,
    spawn,
    started,
    started_small,
)


def test_a_small_terminal_gets_the_compact_braille_view(tmp_path):
    # The usual 80x24 terminal cannot hold the 84x24 half-block frame: the simulator draws the
    # glass in braille instead (42x12 characters), here the title screen, dot for dot.
    title = lcd_render.braille(goldens.glass("title"))
    assert len(title.split("\n")) == 12 and len(title.split("\n")[0]) == 42
    child = spawn(tmp_path, dimensions=(24, 80))
    out = started(child)
    screen = read_until(child, out, last_is(lambda dark, status: len(dark) > 200))
    child.send("q")
    child.expect(pexpect.EOF)
    frame = ANSI.sub("", screen).split("\u250c")[-1].split("\u2514")[0]
    shown = [line[1:43] for line in frame.split("\n") if line.startswith("\u2502")]
    assert len(shown) == 12, frame
    # The logo and the name (pixel rows 0..35) dot for dot; "press key" below them blinks.
    assert shown[:9] == title.split("\n")[:9], frame
    assert screens_in(screen)[-1][1] is None  # no status line: the title has no status column


class mp_sim_words(simterm.SimWords):
    """The status column read back with the firmware's font and layout (from MicroPython)."""

    def test_the_status_column_is_read_back_as_text_from_the_glass(self, mp_output):
        table = simterm.table(mp_output)
        # The small terminal's status line comes from the pixels, read with the firmware's own
        # font and layout (sent by simulator_mp): what the glass shows, whatever screen drew it.
        expected = {
            "board_1p": "X YOU  HARD  W 0  D 0  L 0",
            "thinking": "O ...  HARD  W 0  D 0  L 0",
            "win_1p": "WIN!   EASY  W 1  D 0  L 0",
            "board_2p": "X GO   2P    X 0  O 0  D 0",
            "win_2p": "X WIN  2P    X 1  O 0  D 0",
            "draw_2p": "DRAW   2P    X 1  O 0  D 1",
            "demo": "DEMO   O HAR  X 0  O 0  D 0",
            "title": None,
            "menu": None,
            "settings": None,
        }
        for name, text in expected.items():
            assert simview.status_text(goldens.glass(name), table) == text, name
        assert simview.status_text(goldens.glass("board_1p"), None) is None


def test_a_too_small_terminal_is_told_so_and_a_narrow_one_gets_a_wrapped_legend(tmp_path):
    # The braille view needs 44 columns (42 and its frame) and, that narrow, 19 lines (title,
    # frame, status line, the legend in 3 lines); less than that, a line says so and that keys
    # are ignored (on a line of its own where the terminal is too narrow for both).
    assert simview.compact_size(30) == simview.compact_size(60) == (44, 19)
    assert simview.compact_size(80) == (44, 18)  # the legend's two lines fit
    child = spawn(tmp_path, dimensions=(10, 30), colour="")
    out = started_small(child)
    new = read_until(child, out, lambda text: "too small: 30x10, need 44x19" in text)
    assert last_drawn(new) == ["too small: 30x10, need 44x19", "keys ignored"]
    child.setwinsize(20, 60)
    read_until(child, out, lambda text: "q quit" in text and "\u2514" in text)
    pause(child, out, 0.3)
    rows = last_drawn(out[0])
    assert len(rows) <= 20 and all(len(row) <= 59 for row in rows), rows
    assert "  h hint (hold SELECT)  u undo (hold PREV)" in rows, rows  # cut between items
    assert "  p menu (hold NEXT)  q quit" in rows, rows
    assert screens_in(out[0]), "the braille picture"
    child.setwinsize(18, 44)  # a line too few
    new = read_until(child, out, lambda text: "44x18, need 44x19" in text)
    assert last_drawn(new) == ["too small: 44x18, need 44x19; keys ignored"]  # fits in 43
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_keys_typed_while_the_terminal_is_too_small_are_ignored(tmp_path):
    # Enter typed at the title in a terminal too small to show it used to open the menu unseen:
    # made big again, the terminal still shows the title, and only then do keys act.
    child = spawn(tmp_path, dimensions=(10, 30), colour="")
    out = started_small(child)
    pause(child, out, 1.5)  # the firmware boots and draws its title, unseen
    child.send("\r \x1b[C")
    pause(child, out, 0.5)
    child.setwinsize(20, 60)
    read_until(child, out, lambda text: "q quit" in text and "\u2514" in text)
    title = pcd8544_model.pixels_of(goldens.glass("title"))
    logo = lambda dark: {(x, y) for x, y in dark if y < 36}  # noqa: E731 - "press key" blinks
    pause(child, out, 0.8)  # time enough for a press the simulator had kept to act
    assert logo(last_screen(out[0])) == logo(title)
    child.send("\r")
    menu = pcd8544_model.pixels_of(goldens.glass("menu"))
    read_until(child, out, last_is(lambda dark, status: dark == menu))
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
