"""The simulator's terminal view (tools/simview.py): half blocks, braille with its status line and
the coach's marks read back as text (tools/simread.py), the legend, a terminal too small."""

import io
from pathlib import Path

import goldens
import mpcheck
import simread
import simview
from simterm import last_drawn


def table(mp_output):
    """simulator_mp's table (its fonts, the board's X and O, the status layout) as simread
    reads it."""
    return simread.read_table(bytes.fromhex(mp_output.check("test_table").strip()))


class mp_sim_words(mpcheck.Script):
    """host_tests/mp/mp_sim_words.py: the table simulator_mp sends the simulator, as the
    firmware draws, reads the golden screens back as text."""

    heapsize = "256k"
    paths = (mpcheck.fixture("hostboard"),)

    def test_the_status_column_is_read_back_as_text_from_the_glass(self, mp_output):
        known = table(mp_output)
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
            # The review's column: which move, whose, the verdict (white on black for a result
            # thrown away) and what it kept and became, in the small font.
            "review_best": "X 3/9  BEST  WIN",
            "review_mistake": "O 2/9  MISTAKE  DRAW  >LOSS",
            "review_last": "X 9/9  BEST  WIN",
            "title": None,
            "menu": None,
            "settings": None,
        }
        read = {name: simread.status_text(goldens.glass(name), known) for name in expected}
        assert read == expected
        assert simread.status_text(goldens.glass("board_1p"), None) is None
        # A sign over the level is small font too, white on black: the new user's 80x24 trial
        # read "DRAW   ????  W 0  D 2  L 2" for READY.
        signed = [
            line.rsplit(" ", 1) for line in mp_output.check("test_signed_status").split("\n")
        ]
        assert [sign for sign, _ in signed] == ["READY", "NO LINK", "NO UNDO"], signed
        for sign, glass in signed:
            text = simread.status_text(bytes.fromhex(glass), known)
            assert text == "X YOU  %s  W 0  D 2  L 2" % sign, (sign, text)

    def test_the_coachs_marks_are_read_back_as_text_from_the_glass(self, mp_output):
        # Braille leaves the coach's small marks as dots: the simulator reads them off the
        # glass (the board's grid, the firmware's small font, its X and O) and writes them out.
        known = table(mp_output)
        expected = {
            "coach_empty": ("coach: D D D / D D D / D D D", 4),
            "coach_mid": ("coach: X L3 O / [W3] D D / [W3] D [W3]", 1),
            "coach_cursor_best": ("coach: X L3 O / [W3] D D / [W3] D [W3]", 3),
            "review_best": ("coach: D O X / D X [W3] / D D [W3]", None),
            "review_mistake": ("coach: L3 L3 X / L3 [D] L3 / L3 L3 L3", 1),
            "review_last": ("coach: O O X / W1 X X / O X O", 3),
        }
        for name, (line, cursor) in expected.items():
            cells = simread.coach_marks(goldens.glass(name), known)
            assert cells is not None and simread.coach_line(cells) == line, (name, cells)
            on = [i for i, c in enumerate(cells) if isinstance(c, simread.Mark) and c.cursor]
            assert on == ([] if cursor is None else [cursor]), (name, cells)
        # No marks to show: the coach off (the cursor's cell holds the mover's X in white), no
        # board, the game over, or nothing to read them with.
        for name in ("board_1p", "thinking", "win_1p", "title", "menu", "coach_told", "demo"):
            assert simread.coach_marks(goldens.glass(name), known) is None, name
        assert simread.coach_marks(goldens.glass("coach_mid"), None) is None
        assert simread.board_cells(goldens.glass("board_1p"), known) == (
            ["", "", "X", "?", "X", "O", "O", "", ""]
        )

    def test_the_marks_beside_the_braille_board_line_up_with_its_rows(self, mp_output):
        cells = simread.coach_marks(goldens.glass("coach_mid"), table(mp_output))
        inverse = simread.REVERSE % "L3".center(4)
        assert simread.coach_panel(cells, 33) == [
            "the coach's marks ([ ] = best)",
            "    \u2502    \u2502",
            " X  \u2502" + inverse + "\u2502 O  ",
            "    \u2502    \u2502",
            "\u2500\u2500\u2500\u2500\u253c\u2500\u2500\u2500\u2500\u253c\u2500\u2500\u2500\u2500",
            "    \u2502    \u2502",
            "[W3]\u2502 D  \u2502 D  ",
            "    \u2502    \u2502",
            "\u2500\u2500\u2500\u2500\u253c\u2500\u2500\u2500\u2500\u253c\u2500\u2500\u2500\u2500",
            "    \u2502    \u2502",
            "[W3]\u2502 D  \u2502[W3]",
            "    \u2502    \u2502",
            "W2 you win on your 2nd move",
            "L1 they win next   D a draw",
        ]
        # Narrower, the heading and the key go first; the board stays while it fits.
        narrow = simread.coach_panel(cells, simread.GRID_WIDTH)
        assert (
            narrow[0] == narrow[-1] == narrow[-2] == ""
            and narrow[10] == "[W3]\u2502 D  \u2502[W3]"
        )


def test_the_readme_says_what_terminal_the_full_view_needs():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "smaller than %dx%d gets a compact view" % simview.HALF_BLOCK_SIZE in readme


def test_a_small_terminal_is_said_the_legend_wraps_and_the_full_view_note_goes(monkeypatch):
    # The braille view needs 44 columns (42 and its frame) and, that narrow, 19 lines (title,
    # frame, status line, the legend in 3 lines); less than that, a line says so and that keys
    # are ignored (on a line of its own where the terminal is too narrow for both; the keys
    # themselves: test_simkeys' test_keys_are_ignored_while_the_terminal_is_too_small).
    assert simview.compact_size(30) == simview.compact_size(60) == (44, 19)
    assert simview.compact_size(80) == (44, 18)  # the legend's two lines fit
    screen = simview.Screen(io.StringIO())
    screen.feed(b"P", b"dc - - bl 1")

    def drawn(columns, lines):
        monkeypatch.setenv("COLUMNS", str(columns))
        monkeypatch.setenv("LINES", str(lines))
        screen.draw()
        return last_drawn(screen.out.getvalue())

    assert drawn(30, 10) == ["too small: 30x10, need 44x19", "keys ignored"]
    assert drawn(44, 18) == ["too small: 44x18, need 44x19; keys ignored"]  # fits in 43
    rows = drawn(60, 20)
    assert rows[1] == "\u250c" + "\u2500" * 42 + "\u2510", rows  # the braille view
    assert len(rows) <= 20 and all(len(row) <= 59 for row in rows), rows
    assert "  h hint (hold SELECT)  u undo (hold PREV)" in rows, rows  # cut between items
    assert "  p menu (hold NEXT)  q quit" in rows, rows

    # The note on the full view is said in the compact view with the terminal's size now, and
    # goes with the full view: the new user's 100x40 -> 80x24 -> 100x40 kept "this terminal is
    # 80x24" under the full view.
    def notes(columns, lines):
        return [row for row in drawn(columns, lines) if "full view" in row]

    said = "simulator: this terminal is %dx%d; the full view (every pixel) needs 86x33"
    assert notes(60, 20) == ["simulator: 60x20: the full view (every pixel) needs 86x33"]
    assert notes(79, 24) == [said % (79, 24)]
    assert notes(100, 40) == []
    assert notes(80, 24) == []  # said once


def test_the_simulators_notes_wrap_at_words_within_the_terminal(monkeypatch):
    # The new user's trial cut them at the terminal's edge, losing what mattered: at 100
    # columns "... this one's is /root/.local/state/oxo5110/sim-flas", at 80 "... Link play here
    # and on the other boar". A note wraps at a space, its later lines indented; where not all
    # fit, the newest whole notes are shown.
    screen = simview.Screen(io.StringIO())
    screen.feed(b"P", b"dc - - bl 1")
    flash = "/root/.local/state/oxo5110/sim-flash-2"
    screen.note("another simulator has the first flash: this one's is " + flash)
    screen.note("the link cable is on port 5111: Link play here and on the other board")

    def drawn(columns, lines):
        monkeypatch.setenv("COLUMNS", str(columns))
        monkeypatch.setenv("LINES", str(lines))
        screen.draw()
        rows = last_drawn(screen.out.getvalue())
        assert len(rows) <= lines and all(len(row) < columns for row in rows), rows
        return rows[rows.index(simview.legend(columns - 1)[-1]) + 1 :]  # under the legend

    flash_note = ["simulator: another simulator has the first flash: this one's is", "  " + flash]
    assert drawn(100, 40) == flash_note + [
        "simulator: the link cable is on port 5111: Link play here and on the other board"
    ]
    cable_note = [
        "simulator: the link cable is on port 5111: Link play here and on the other",
        "  board",
    ]
    full_view = ["simulator: this terminal is 80x24; the full view (every pixel) needs 86x33"]
    assert drawn(80, 24) == flash_note + cable_note + full_view
    full_view = ["simulator: this terminal is 80x22; the full view (every pixel) needs 86x33"]
    assert drawn(80, 22) == cable_note + full_view  # the oldest goes whole, not its first line
