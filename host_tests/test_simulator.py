"""The simulator as a person uses it (tools/simulator.py): the firmware started, keys in a
terminal, scripts, what it says when the firmware stops."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from itertools import pairwise

import goldens
import lcd_render
import pcd8544_model
import pexpect
import simprocess
import simread
import simterm
import simulator
from PIL import Image
from simterm import CLOSING, ROOT, cursor_cell, in_shell, pump, read_until, screens_in
from wavread import notes_of, pitches, wav_of


def test_ctrl_c_quits_and_restores_the_terminal(tmp_path):
    # The pty's modes after the simulator are the cooked ones again (canonical input, echo),
    # as before the simulator made them raw (q quits through the same `finally`: the end of
    # test_keys_typed_fast_queue_in_order_one_whole_press_each).
    status, said, modes = in_shell(tmp_path, key="\x03", after="backlight on")
    assert status == 0 and re.search(CLOSING, said), said[-2000:]
    flags = [w for w in modes if w.lstrip("-") in ("icanon", "echo", "isig", "opost")]
    assert sorted(flags) == ["echo", "icanon", "isig", "opost"], modes


def test_without_micropython_the_message_comes_in_a_restored_terminal(tmp_path):
    code = (
        "import sys; sys.path.insert(0, %r); import mpyrun; "
        "mpyrun.micropython_path = lambda: None; import simulator; "
        "sys.exit(simulator.main(['--flash', %r]))" % (str(ROOT / "tools"), str(tmp_path))
    )
    child = pexpect.spawn(sys.executable, ["-c", code], encoding="utf-8", timeout=20)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    # Printed while the terminal is cooked: its line ends as \r\n, at the start of a line.
    assert re.search(
        r"(^|\r\n)simulator: the MicroPython unix port is not installed.*\r\n$", child.before
    ), repr(child.before)


COACH_ON = {"coach": True, "coach_told": True}  # the Coach setting on, its meaning told already


def test_keys_typed_fast_queue_in_order_one_whole_press_each(tmp_path):
    # An 80x24 terminal (the new user's): too small for the 84x24 half-block frame, so the glass
    # is drawn in braille (42x12), with the status column as a line of text and the Coach's
    # marks as a text board beside the glass.
    (tmp_path / "flash").mkdir()
    (tmp_path / "flash" / "settings.json").write_text(json.dumps(COACH_ON))
    child = simterm.spawn(tmp_path, dimensions=(24, 80))
    # Typed at once, before the simulator has even started (they must not be flushed) and
    # while the firmware boots (nothing may reach its safe-mode check at power-on); then any
    # key opens the menu, Down picks "2 Players", Enter starts the game with the cursor in the
    # centre, and four Rights move it four free cells: 5, 6, 7, 8.
    child.send(" \x1b[B\r" + "\x1b[C" * 4)
    child.expect("oxo5110 simulator")  # its first drawing
    out = [child.before + child.after + child.buffer]  # all it wrote: read_until adds to it
    child.buffer = ""
    new = read_until(child, out, simterm.last_is(lambda lines, status: cursor_cell(lines) == 8))
    # The title came first, dot for dot (its logo and name: "press key" below them blinks),
    # with no status line (it has no status column).
    lines, status = next(shown for shown in screens_in(out[0]) if simterm.dots(shown[0]) > 200)
    title = lcd_render.braille(goldens.glass("title")).split("\n")
    assert lines[:9] == title[:9] and not status  # its pixel rows 0..35
    assert screens_in(new)[-1][1] == "X GO   2P    X 0  O 0  D 0"  # the status line, in text
    # Beside the glass, one space after its frame: the marks the glass shows in its cells (dots
    # in braille), as coach_panel writes them (its own test: test_simview's
    # test_the_marks_beside_the_braille_board_...), the cursor's cell (8) inverted. A note
    # says once what the full view needs; nothing is wider or taller than the terminal.
    end = time.monotonic() + 0.3  # the whole frame, and the notes under it
    read_until(child, out, lambda text: time.monotonic() > end)
    raw = out[0].split("\x1b[H")[-1].split("\r\n")
    rows = simterm.last_drawn(out[0])
    draw = simread.Mark("D", False, False)
    panel = [" " + simterm.ANSI.sub("", line) for line in simread.coach_panel([draw] * 9, 33)]
    assert [row[45:] for row in rows[1:15]] == panel, rows
    assert [row for row in raw if "\x1b[7m" in row] == [raw[11]], raw
    assert raw[11].endswith("\u2502" + simread.REVERSE % " D  "), raw[11]
    assert [row for row in rows if "full view" in row] == [
        "simulator: this terminal is 80x24; the full view (every pixel) needs 86x33"
    ]
    assert len(rows) <= 24 and all(len(row) <= 79 for row in rows), rows
    # Right then Left at once: two presses one after the other (to 0 and back), not the
    # PREV+NEXT chord that opens the menu.
    child.send("\x1b[C\x1b[D")
    cells = lambda text: [cursor_cell(lines) for lines, _ in screens_in(text)]  # noqa: E731
    new = read_until(child, out, lambda text: cells(text)[-2:] == [0, 8])
    assert all(status for _, status in screens_in(new)), "the board screen stayed"
    # "p" (hold NEXT: the menu, "Continue" chosen), at once Down and Enter: Down is not
    # swallowed by the hold, so Enter starts "1P vs CPU" instead of continuing the 2P game.
    child.send("p\x1b[B\r")
    new = read_until(
        child, out, simterm.last_is(lambda lines, status: status and "HARD" in status)
    )
    assert screens_in(new)[-1][1].endswith("HARD  W 0  D 0  L 0"), screens_in(new)[-1]
    assert any(status is None for _, status in screens_in(new)), "the menu showed in between"
    # Made taller and wider, the terminal is cleared and gets the half-block view at once,
    # with no key and no new picture on the glass.
    child.setwinsize(40, 100)
    half_block_frame = "\u250c" + "\u2500" * 84 + "\u2510"
    new = read_until(child, out, lambda text: half_block_frame in text)
    assert "\x1b[2J" in new.split(half_block_frame)[0]
    child.send("q")  # the simulator says where the flash is kept, ends, and exits 0
    child.expect(CLOSING)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_script_waits_for_boot_saves_every_new_frame_and_plays_the_buzzer(tmp_path):
    # A press at once used to be held at power-on: safe mode, 4 runs in 6. Now keys start
    # after boot, so each of these runs opens the menu (six at once, to cost little time). A
    # stand-in `paplay` first on PATH keeps every WAV it is handed: the last run plays sound
    # (the default), its chime at power-on and a press's tick apart; --sound off plays none.
    player = tmp_path / "bin" / "paplay"
    player.parent.mkdir()
    player.write_text('#!/bin/sh\ncp "$1" "$HEARD/"\n')
    player.chmod(0o755)
    runs = []
    for i, script in enumerate(["select\n"] * 5 + ["wait 600\nselect\nwait 500\n"]):
        run = tmp_path / str(i)
        (run / "heard").mkdir(parents=True)
        (run / "script").write_text(script)
        argv = simterm.command(run / "flash", "--script", run / "script", "--png", run / "png")
        argv += simterm.SILENT if i < 5 else []
        # The full view's size: pytest-xdist's workers have COLUMNS=80 and LINES=24.
        env = dict(os.environ, HEARD=str(run / "heard"), COLUMNS="100", LINES="40")
        env["PATH"] = "%s:%s" % (player.parent, env["PATH"])
        popen = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        runs.append((run, popen))
    menu = lcd_render.text(goldens.glass("menu"), False).split("\n")
    size = lcd_render.image(pcd8544_model.Model()).size
    for run, popen in runs:
        out, _ = popen.communicate(timeout=60)
        assert popen.returncode == 0 and "\a" not in out, out[-2000:]
        assert simterm.last_screen(out) == menu, out[-3000:]
        said = re.search(r"simulator: (\d+) frames saved in (\S+) ", out)
        assert said and said.group(2) == str(run / "png"), out[-2000:]
        # The --flash given, and so the same command plays on with it.
        closing = re.search(CLOSING, out)
        assert closing.groups() == (str(run / "flash"), "the same command"), out[-2000:]
        # Only new frames are saved: each PNG differs from the one before (picture or
        # backlight); the title and the menu at least.
        images = [Image.open(f).convert("RGB") for f in sorted((run / "png").glob("*.png"))]
        assert len(images) == int(said.group(1)) >= 2
        assert all(a.tobytes() != b.tobytes() for a, b in pairwise(images))
        assert {im.size for im in images} == {size}
    heard = [sorted((run / "heard").iterdir()) for run, _ in runs]
    assert heard[:5] == [[]] * 5 and [w.name for w in heard[5]] == [
        "sound0001.wav",
        "sound0002.wav",
    ]
    # Each sound, note for note: the table's pitches in its order, nothing else. Their lengths
    # are not checked here: the simulator runs on the real clock, where a busy machine makes
    # a step (and so a note's change) late; mp_app_timing holds them on a stepped clock.
    chime, move = heard[5]
    assert pitches(*wav_of(chime), notes_of("CHIME")) == [hz for _, _, hz in notes_of("CHIME")]
    assert pitches(*wav_of(move), notes_of("MOVE")) == [3200]


def test_a_firmware_that_stops_is_shown_explained_and_exits_non_zero(tmp_path):
    # A button held at power-on (on purpose here): the firmware shows SAFE MODE and returns.
    status, text, modes = in_shell(tmp_path, "--hold-at-boot", "select")
    assert status == simulator.FIRMWARE_STOPPED
    # The last picture is what the glass shows, and the simulator says what to do here,
    # after restoring the terminal (its newlines come out as \r\n: cooked mode again).
    safe_mode = lcd_render.text(goldens.glass("screen_safe_mode"), False).split("\n")
    assert simterm.last_screen(text) == safe_mode
    said = text.split("simulator: ")[-1].rstrip()
    assert said == simprocess.SAFE_MODE_HELP.replace("\n", "\r\n"), said
    assert sorted(w for w in modes if w.lstrip("-") in ("icanon", "echo")) == ["echo", "icanon"]


def test_simulator_mp_sees_every_press_refuses_a_bad_action_and_ends_with_the_pipe(tmp_path):
    with simterm.booted(tmp_path) as sim:
        os.write(sim.keys_w, b"JUMP 50 50\n")
        sim.buttons.in_flight += 1
        pump((sim,), lambda: not sim.buttons.in_flight)
        assert sim.screen.notes == ["simulator: no such button or action: JUMP 50 50"]
        # Each press phase counts from the firmware's first poll of the level, not from when
        # the level changed: stopped (SIGSTOP, as a busy machine would deschedule it) right
        # after a press began, the firmware still polls it down before it is let go.
        for button in ("SELECT", "NEXT", "SELECT"):  # the menu, "2 Players", start
            sim.buttons.press(button)
        pump((sim,), lambda: not sim.buttons.pending())
        glass = lambda: lcd_render.braille(sim.screen.model.glass()).split("\n")  # noqa: E731
        assert cursor_cell(glass()) == 4
        for _ in range(4):
            sim.buttons.press("NEXT")
            sim.pump(0)  # hands it to simulator_mp, which presses at once
            time.sleep(0.003)
            os.kill(sim.proc.pid, signal.SIGSTOP)
            time.sleep(0.12)
            os.kill(sim.proc.pid, signal.SIGCONT)
            pump((sim,), lambda: not sim.buttons.pending())
        assert cursor_cell(glass()) == 8
        # The simulator gone (its key pipe closed): the firmware ends itself, no orphan.
        os.close(sim.keys_w)
        while sim.pump(1.0):
            pass
        assert sim.stopped_by_itself()
        why = sim.why()
        assert why.startswith("the firmware stopped (exit status 1); its last output:"), why
        assert "the simulator closed the key pipe" in why, why


def test_a_second_simulator_gets_a_flash_of_its_own_and_each_says_how_to_play_on(
    tmp_path, monkeypatch
):
    # Two `make play LINK=5110`: one flash each, or each overwrites the other's tally.
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    first, second = simulator.Simulator(), simulator.Simulator()
    base = tmp_path / ".local" / "state" / "oxo5110" / "sim-flash"
    assert first.flash == base and first.screen.notes == []
    assert second.flash == base.with_name("sim-flash-2")
    assert second.screen.notes == [
        "simulator: another simulator has the first flash: this one's is %s" % second.flash
    ]
    # The closing line: where the flash is (~ for home) and the command that plays on with it.
    for sim, argv, where, again in (
        (first, [], "", "`make play`"),
        (first, ["--board", "esp32"], "", "`make play BOARD=esp32`"),
        (second, [], "-2", "`make play FLASH=%s`" % second.flash),
    ):
        (line,) = simulator.closing(sim, simulator.options().parse_args(argv))
        found = re.fullmatch(CLOSING + " on with them", line)
        assert found.groups() == ("~/.local/state/oxo5110/sim-flash" + where, again), line
    first.stop()  # its flash is free again
    third = simulator.Simulator()
    assert third.flash == base
    # Held by a process, not by an object: another process finds it taken.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(ROOT / f) for f in ("tools", "testbed")))
    code = "import simprocess; print(simprocess.Simulator().flash)"
    taken = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert taken.stdout.strip() == str(base.with_name("sim-flash-3")), taken.stderr
    second.stop()
    third.stop()


def test_a_key_that_only_wakes_the_board_says_so(tmp_path):
    # The firmware swallows the first press after the backlight went off (dim_s, here 1 s):
    # the glass does not change, so the notes line says why, until a key plays again.
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "settings.json").write_text(json.dumps({"dim_s": 1}))
    with simterm.booted(flash) as sim:
        sim.buttons.press("SELECT")  # the title: the menu
        pump((sim,), lambda: not sim.buttons.pending())
        menu, light, _ = sim.screen.look()
        assert light and sim.screen.wake_note is None
        pump((sim,), lambda: not sim.screen.look()[1])  # dimmed
        sim.buttons.press("NEXT")
        pump((sim,), lambda: not sim.buttons.pending())
        assert sim.screen.look()[:2] == (menu, True)  # lit again, the highlight unmoved
        said = "simulator: that key only woke the board (the backlight had gone off)"
        assert sim.screen.wake_note.startswith(said), sim.screen.wake_note
        rows = "\n".join(sim.screen._rows(os.terminal_size((100, 40)), False))
        assert said in rows
        sim.buttons.press("NEXT")
        pump((sim,), lambda: not sim.buttons.pending())
        assert sim.screen.look()[0] != menu and sim.screen.wake_note is None


def test_only_a_wake_is_called_one():
    # Looks are (glass, backlight, contrast or None asleep), before and after a key.
    woken = simprocess.woken
    assert woken((b"a", False, 40), (b"a", True, 40)) == "the backlight had gone off"
    assert woken((b"", False, None), (b"a", False, 40)) == "the display had gone to sleep"
    assert woken((b"a", False, 40), (b"b", True, 40)) is None  # Light ON chosen in Settings
    assert woken((b"a", False, 40), (b"b", False, 40)) is None  # Light OFF: nothing dims
    assert woken((b"a", True, 40), (b"a", True, 40)) is None


STOPPED_STARTING = "simulator: stopped by Ctrl-C before the firmware had started"


def test_ctrl_c_while_the_modules_load_is_one_line_and_status_130():
    # A Ctrl-C right after `make play` starts lands while Python loads the simulator's modules
    # (Pillow's take longest): here a SIGINT sent as lcd_render is imported.
    code = (
        "import builtins, os, runpy, signal, sys\n"
        "real = builtins.__import__\n"
        "def hooked(name, *args, **kw):\n"
        "    if name == 'lcd_render':\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "    return real(name, *args, **kw)\n"
        "builtins.__import__ = hooked\n"
        "sys.argv = [%r, '--sound', 'off']\n"
        "runpy.run_path(sys.argv[0], run_name='__main__')\n" % str(ROOT / "tools/simulator.py")
    )
    run = subprocess.run(
        [sys.executable, "-c", code], stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    assert (run.returncode, run.stdout) == (simulator.INTERRUPTED, ""), run.stderr
    assert run.stderr.strip() == STOPPED_STARTING, run.stderr


def test_ctrl_c_while_the_firmware_builds_and_boots_is_one_line_and_status_130(tmp_path):
    # The terminal is raw before the simulator starts, so the Ctrl-C typed at once waits as a
    # key (as in the simulator's own raw terminal) for the keyboard's first read, which comes
    # before the firmware can have drawn anything.
    status, said, _ = in_shell(tmp_path, first="stty raw -echo;", key="\x03")
    assert status == simulator.INTERRUPTED, said[-2000:]
    assert "Traceback" not in said and " frames" not in said, said[-2000:]
    assert said.rstrip().endswith(STOPPED_STARTING), said[-2000:]


def test_make_clean_keeps_the_simulated_boards_settings_and_tally(tmp_path, monkeypatch):
    # The default flash is the player's (settings.json, the tally), outside what `make clean`
    # removes; one left in build/ by an older simulator moves there on first use, and says so.
    clean = subprocess.run(
        ["make", "-n", "-s", "-C", str(ROOT), "clean"], capture_output=True, text=True, check=True
    )
    removed = [ROOT / word for line in clean.stdout.splitlines() for word in line.split()[2:]]
    assert clean.stdout.startswith("rm -rf ") and ROOT / "build" in removed, clean.stdout
    old = tmp_path / "build" / "sim" / "flash"
    old.mkdir(parents=True)
    (old / "tally.json").write_text("[3, 1, 2]")
    monkeypatch.setattr(simprocess, "OLD_FLASH", old)
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    sim = simulator.Simulator()
    flash = tmp_path / "home" / ".local" / "state" / "oxo5110" / "sim-flash"
    assert sim.flash == flash and not any(flash.is_relative_to(path) for path in removed)
    assert (flash / "tally.json").read_text() == "[3, 1, 2]" and not old.exists()
    assert sim.screen.notes == [
        "simulator: the board's flash moved to %s (make clean keeps it)" % flash
    ]
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert simulator.Simulator().flash == tmp_path / "state" / "oxo5110" / "sim-flash"


def test_a_folder_that_cannot_be_made_is_one_line_and_status_2(tmp_path, capsys):
    # The new user's trial: --png or --flash under /proc gave a 19-line traceback ending
    # FileNotFoundError; --png naming a file, FileExistsError.
    a_file = tmp_path / "frames.png"
    a_file.write_text("")
    for option, path, why in (
        ("--png", "/proc/x", "cannot make this folder (No such file or directory)"),
        ("--png", str(a_file), "a file is in the way"),
        ("--flash", "/proc/y", "cannot make this folder (No such file or directory)"),
        ("--flash", str(a_file / "flash"), "a file is in the way"),
    ):
        assert simulator.main([option, path, "--script", "/dev/null", "--sound", "off"]) == 2
        said = "simulator: %s %s: %s; give a folder that exists or can be made\n"
        assert capsys.readouterr().err == said % (option, path, why)
    assert a_file.read_text() == ""
