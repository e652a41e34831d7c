"""Button actions (tools/simkeys.py): their timings, the queue, the keyboard, scripts."""

import io
import re

import pytest
import simkeys
import simulator
import simview


def test_script_lines_and_their_errors(tmp_path, capsys):
    script = tmp_path / "ok.txt"
    script.write_text("select\nnext x2 # twice\nhold prev\nWAIT 100\n# done\n")
    assert simkeys.read_script(script) == [
        ("SELECT", False),
        ("NEXT", False),
        ("NEXT", False),
        ("PREV", True),
        (None, 100),
    ]
    bad = {
        b"select\njump\n": r"bad.txt:2: 'jump': cannot read this; a line is one of: select",
        b"next x99999999\n": r"bad.txt:1: 'next x99999999': repeat count must be 1..1000",
        b"prev x0\n": r"bad.txt:1: .*repeat count must be 1..1000",
        b"hold next x3\n": r"bad.txt:1: .*cannot read this",
        b"wait 600001\n": r"bad.txt:1: .*wait at most 600000 ms",
        b"next x1000\n" * 11: r"bad.txt:11: .*a script has at most 10000 actions",
        b"select\n\xff\xfe\x00next\n": r"bad.txt: not a text script \(not UTF-8 at byte 7\)",
    }
    for text, message in bad.items():
        script = tmp_path / "bad.txt"
        script.write_bytes(text)
        with pytest.raises(ValueError, match=message):
            simkeys.read_script(script)
        # The command says it, names the file, and exits non-zero before starting anything.
        assert simulator.main(["--script", str(script), "--flash", str(tmp_path / "f")]) == 2
        assert re.search("simulator: .*" + message, capsys.readouterr().err)


def test_help_words_and_timings_agree_with_the_keys():
    # "p" is the menu everywhere the simulator says it (the game's word for that screen).
    assert "p  menu (hold NEXT)" in simulator.__doc__
    assert any("p menu (hold NEXT)" in line for line in simview.LEGEND)
    assert "pause" not in simulator.__doc__ + "".join(simview.LEGEND)
    # The figures the help states are the ones used, and fit the firmware's button timing.
    doc = " ".join(simulator.__doc__.split())
    assert "down %d ms then up %d ms" % (simkeys.PRESS_MS, simkeys.GAP_MS) in doc
    hold = simkeys.HOLD_MS
    assert "SELECT %d ms, PREV/NEXT %d ms" % (hold["SELECT"], hold["NEXT"]) in doc
    assert "queue of up to %d" % simkeys.KEY_QUEUE_MAX in doc
    assert simkeys.PRESS_MS >= simkeys.DEBOUNCE_MS + simkeys.POLL_MS
    assert simkeys.HOLD_MS["SELECT"] > simkeys.LONG_MS + 2 * simkeys.POLL_MS
    assert simkeys.HOLD_MS["PREV"] > simkeys.REPEAT_DELAY_MS + 2 * simkeys.POLL_MS


def action(button, down_ms):
    """simulator_mp's line for a press of `button` held down_ms."""
    return b"%s %d %d\n" % (button.encode(), down_ms, simkeys.GAP_MS)


def terminal_size(monkeypatch, columns, lines):
    """The size the Screen finds (it draws into a string: shutil reads COLUMNS and LINES)."""
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("LINES", str(lines))


@pytest.fixture
def buttons(monkeypatch):
    """A button queue whose notes go to a Screen drawing into a string, with a glass to draw,
    in a terminal big enough to show it."""
    terminal_size(monkeypatch, 100, 40)
    screen = simview.Screen(io.StringIO(), clear=False)
    screen.feed(b"P", b"dc - - bl 1")
    return simkeys.Buttons(screen)


@pytest.fixture
def keyboard(buttons):
    """The keyboard reading into `buttons`: keyboard.feed(keys) as they come from the terminal."""
    return simkeys.Keyboard(buttons)


def test_keyboard_queue_keeps_order_and_q_quits(buttons, keyboard):
    keyboard.feed(b"p\x1b[C\x1b[Dhu \r")
    hold, press = simkeys.HOLD_MS, simkeys.PRESS_MS
    assert list(buttons.queue) == [
        action("NEXT", hold["NEXT"]),
        action("NEXT", press),
        action("PREV", press),
        action("SELECT", hold["SELECT"]),
        action("PREV", hold["PREV"]),
        action("SELECT", press),
        action("SELECT", press),
    ]
    keyboard.feed(b"q")
    assert keyboard.quit


def test_dropped_keys_are_counted_in_one_note_that_clears(buttons, keyboard):
    keyboard.feed(b"\x1b[C" * 40)  # a burst: 16 wait, 24 are dropped
    assert len(buttons.queue) == simkeys.KEY_QUEUE_MAX and not keyboard.quit
    assert buttons.screen.notes == []
    note = "simulator: 24 keys dropped: 16 were already waiting"
    drawn = buttons.screen.out.getvalue().split("\n")
    assert drawn[-3:] == [LEGEND_END + "\r", note + "\r", ""], drawn[-4:]
    assert buttons.screen.out.getvalue().count("dropped") == 24  # redrawn in place, each count
    # Still waiting, or drained only a moment ago: the note stays.
    buttons.drops_over(buttons.dropped_at + simkeys.DROP_NOTE_S)
    buttons.queue.clear()
    buttons.drops_over(buttons.dropped_at + 1)
    assert buttons.screen.drop_note == note
    buttons.drops_over(buttons.dropped_at + simkeys.DROP_NOTE_S)
    assert buttons.screen.drop_note is None
    assert buttons.screen.out.getvalue().split("\n")[-2] == LEGEND_END + "\r"
    # A key taken again clears the note at once; one dropped key is "1 key".
    buttons.queue.extend([action("NEXT", 50)] * simkeys.KEY_QUEUE_MAX)
    keyboard.feed(b" ")
    assert buttons.screen.drop_note == "simulator: 1 key dropped: 16 were already waiting"
    buttons.queue.popleft()
    keyboard.feed(b" ")
    assert buttons.screen.drop_note is None and len(buttons.queue) == simkeys.KEY_QUEUE_MAX


def test_keys_are_ignored_while_the_terminal_is_too_small_and_say_so(
    buttons, keyboard, monkeypatch
):
    terminal_size(monkeypatch, 60, 10)  # the braille view needs 19 lines
    buttons.screen.draw()
    assert buttons.screen.out.getvalue().split("\n")[-2:] == [
        "terminal too small: 60x10, need 44x19; keys ignored\r",
        "",
    ]
    keyboard.feed(b" \r\x1b[Cp")
    assert list(buttons.queue) == [] and buttons.screen.drop_note is None
    terminal_size(monkeypatch, 60, 19)  # the view is back: keys act again
    keyboard.feed(b" ")
    assert list(buttons.queue) == [action("SELECT", simkeys.PRESS_MS)]
    terminal_size(monkeypatch, 30, 10)  # quitting works at any size
    keyboard.feed(b"q")
    assert keyboard.quit


LEGEND_END = simview.LEGEND[-1]
