"""The simulator as a person uses it: keys in a terminal, the LCD drawn in half blocks (or
braille in a small terminal), in the glass's colours."""

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import glasslook
import goldens
import lcd_render
import pcd8544_model
import pexpect
import pytest
import simulator
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
HALF = goldens.HALF
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
SGR_24 = re.compile(r"\x1b\[38;2;(\d+);(\d+);(\d+);48;2;(\d+);(\d+);(\d+)m")
BRAILLE_DOT = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))
SILENT = ("--sound", "off")  # the tests run the simulator quietly (the default plays sound)


def screens_in(text):
    """Every LCD picture the terminal output shows, in order: (set of dark (x, y), status line
    or None). Half-block and braille frames alike; colours are stripped."""
    out = []
    for block in ANSI.sub("", text).split("\u250c")[1:]:
        frame, _, after = block.partition("\u2514")
        if "q quit" not in after:
            continue  # cut short at the end of the output read so far
        rows = [line[1:] for line in frame.split("\n") if line.startswith("\u2502")]
        dark = set()
        if len(rows) == 24 and all(len(r) >= 85 for r in rows):
            for r, line in enumerate(rows):
                for x, ch in enumerate(line[:84]):
                    top, bottom = HALF[ch]
                    if top:
                        dark.add((x, 2 * r))
                    if bottom:
                        dark.add((x, 2 * r + 1))
        elif len(rows) == 12 and all(len(r) >= 43 for r in rows):
            for r, line in enumerate(rows):
                for c, ch in enumerate(line[:42]):
                    bits = ord(ch) - 0x2800
                    for dx in (0, 1):
                        for dy in range(4):
                            if bits & BRAILLE_DOT[dx][dy]:
                                dark.add((2 * c + dx, 4 * r + dy))
        else:
            continue
        status = re.search(r"^\s*status: (.*?)\s*$", after.split("\u250c")[0], re.M)
        out.append((dark, status.group(1) if status else None))
    return out


def last_screen(text):
    """The 84x48 pixels (set of (x, y)) of the last LCD the terminal shows."""
    shown = screens_in(text)
    assert shown, text[-3000:]
    return shown[-1][0]


def cursor_cell(dark):
    """The board cell drawn solid (the cursor), or None."""
    for i in range(9):
        x0, y0 = (i % 3) * 16, (i // 3) * 16
        if sum((x, y) in dark for x in range(x0, x0 + 15) for y in range(y0, y0 + 15)) > 120:
            return i
    return None


def read_until(child, out, check, timeout=15):
    """Read the simulator's output (appending to out[0]) until check(the new output since this
    call) is true; fail with the screens seen if it never is. Returns the new output."""
    start = len(out[0])
    for _ in range(int(timeout / 0.1)):
        if check(out[0][start:]):
            return out[0][start:]
        try:
            out[0] += child.read_nonblocking(65536, timeout=0.1)
        except pexpect.TIMEOUT:
            pass
        except pexpect.EOF:
            break
    new = out[0][start:]
    assert check(new), [(cursor_cell(d), s) for d, s in screens_in(new)][-20:] or new[-2000:]
    return new


def last_is(predicate):
    """A check for read_until: the last screen shown (dark pixels, status line) satisfies it."""
    return lambda text: bool(screens_in(text)) and predicate(*screens_in(text)[-1])


def started(child):
    """Wait for the simulator's first drawing; the output so far, as read_until's `out`."""
    child.expect("oxo5110 simulator")
    out = [child.before + child.after + child.buffer]
    child.buffer = ""
    return out


@pytest.fixture(scope="module")
def mp_words(micropython, hostboard):
    out = micropython.run(
        ROOT / "host_tests/mp/mp_sim_words.py", heapsize="256k", paths=(hostboard,)
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.fixture(scope="module")
def table(mp_words):
    """What simulator_mp sends the simulator: the firmware's font and status-column layout."""
    return json.loads(mp_words.split("TABLE ", 1)[1])


@pytest.fixture(scope="module")
def words(mp_words):
    """word -> (status-column box, its dark pixels) as the game's screens module draws it."""
    result = {}
    for line in mp_words.split("TABLE ", 1)[0].splitlines():
        word, x, y, *pixels = line.split()
        box = (int(x), int(y), int(x) + 8 * len(word), int(y) + 8)
        result[word] = (box, {tuple(map(int, p.split(","))) for p in pixels})
    return result


def shown_word(dark, words):
    for word, ((x0, y0, x1, y1), pixels) in words.items():
        region = {(x, y) for (x, y) in dark if x0 <= x < x1 and y0 <= y < y1}
        if region == pixels:
            return word
    return None


def spawn(tmp_path, *args, dimensions=(40, 100), colour="truecolor"):
    env = dict(os.environ, COLORTERM=colour)
    env.pop("NO_COLOR", None)
    return pexpect.spawn(
        sys.executable,
        [str(ROOT / "tools/simulator.py"), "--flash", str(tmp_path / "flash"), *SILENT, *args],
        cwd=str(ROOT),
        encoding="utf-8",
        dimensions=dimensions,
        timeout=20,
        env=env,
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


def pause(child, out, seconds):
    """Read what the simulator draws for `seconds` (appending to out[0]); the new text."""
    start = len(out[0])
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            out[0] += child.read_nonblocking(65536, timeout=max(0.01, end - time.monotonic()))
        except (pexpect.TIMEOUT, pexpect.EOF):
            break
    return out[0][start:]


def test_play_a_game_against_the_cpu_to_its_result_then_quit(tmp_path, words):
    child = spawn(tmp_path)
    out = started(child)
    read_until(child, out, last_is(lambda dark, status: len(dark) > 200))  # the title
    child.send(" \r")  # any key: the menu, then "1P vs CPU"
    pause(child, out, 0.8)
    assert shown_word(last_screen(out[0]), words) is None  # a game is on
    result = None
    for _ in range(30):
        child.send(" ")  # place a mark at the cursor (the CPU answers)
        new = pause(child, out, 0.7)
        # Any frame since: "DRAW" blinks, so the last frame may be between two blinks.
        result = next(filter(None, (shown_word(d, words) for d, _ in screens_in(new))), None)
        if result:
            break
        child.send("\x1b[C")  # the cursor to the next free cell
        pause(child, out, 0.2)
    assert result in ("LOST", "DRAW", "WIN!"), out[0][-3000:]
    child.send("q")
    child.expect(r"simulator: (\d+) frames")
    assert int(child.match.group(1)) >= 6  # title, menu, the board after each move, the result
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("key", ["\x03", "q"])
def test_quit_key_restores_the_terminal(tmp_path, key):
    # A shell runs the simulator in this pty, then prints the pty's modes: they must be the
    # cooked ones again (canonical input, echo), as before the simulator made them raw.
    command = "stty -a; echo MODES-END; %s %s --sound off --flash %s; echo EXIT=$?; stty -a" % (
        sys.executable,
        ROOT / "tools/simulator.py",
        tmp_path / "flash",
    )
    child = pexpect.spawn("bash", ["--norc", "-c", command], encoding="utf-8", timeout=20)
    child.expect("MODES-END")
    before = child.before
    child.expect("backlight on")
    child.send(key)
    child.expect(r"simulator: \d+ frames")
    child.expect("EXIT=0")
    child.expect(pexpect.EOF)
    after = child.before
    flags = [w for w in after.split() if w.lstrip("-") in ("icanon", "echo", "isig", "opost")]
    assert sorted(flags) == ["echo", "icanon", "isig", "opost"], after
    assert all(flag in before.split() for flag in flags)


def test_script_replays_presses_and_png_saves_every_new_frame(tmp_path):
    script = tmp_path / "demo.txt"
    script.write_text("select  # the title: any key\nwait 300\nselect  # 1P vs CPU\nnext x2\n")
    pngs = tmp_path / "png"
    child = spawn(tmp_path, "--script", str(script), "--png", str(pngs))
    child.expect(r"simulator: (\d+) frames")
    frames = int(child.match.group(1))
    child.expect(pexpect.EOF)
    files = sorted(pngs.glob("*.png"))
    assert frames >= 4 and len(files) == frames
    images = [Image.open(f).convert("RGB") for f in files]
    # Only new frames are saved: each PNG differs from the one before (picture or backlight).
    assert all(a.tobytes() != b.tobytes() for a, b in zip(images, images[1:], strict=False))
    assert {im.size for im in images} == {lcd_render.image(pcd8544_model.Model()).size}


def test_script_lines_and_their_errors(tmp_path, capsys):
    script = tmp_path / "ok.txt"
    script.write_text("select\nnext x2 # twice\nhold prev\nWAIT 100\n# done\n")
    assert simulator.read_script(script) == [
        ("SELECT", False),
        ("NEXT", False),
        ("NEXT", False),
        ("PREV", True),
        (None, 100),
    ]
    bad = {
        "select\njump\n": r"bad.txt:2: 'jump': cannot read this; a line is one of: select",
        "next x99999999\n": r"bad.txt:1: 'next x99999999': repeat count must be 1..1000",
        "prev x0\n": r"bad.txt:1: .*repeat count must be 1..1000",
        "hold next x3\n": r"bad.txt:1: .*cannot read this",
        "wait 600001\n": r"bad.txt:1: .*wait at most 600000 ms",
        "next x1000\n" * 11: r"bad.txt:11: .*a script has at most 10000 actions",
    }
    for text, message in bad.items():
        script = tmp_path / "bad.txt"
        script.write_text(text)
        with pytest.raises(ValueError, match=message):
            simulator.read_script(script)
        # The command says it, names the file, and exits non-zero before starting anything.
        assert simulator.main(["--script", str(script), "--flash", str(tmp_path / "f")]) == 2
        assert re.search("simulator: .*" + message, capsys.readouterr().err)


def test_a_binary_script_is_refused_by_name(tmp_path, capsys):
    script = tmp_path / "presses.bin"
    script.write_bytes(b"select\n\xff\xfe\x00next\n")
    assert simulator.main(["--script", str(script), "--flash", str(tmp_path / "f")]) == 2
    err = capsys.readouterr().err
    assert "presses.bin: not a text script (not UTF-8 at byte 7)" in err, err


def test_help_words_and_timings_agree_with_the_keys():
    # "p" is the menu everywhere the simulator says it (the game's word for that screen).
    assert "p  menu (hold NEXT)" in simulator.__doc__
    assert any("p menu (hold NEXT)" in line for line in simulator.LEGEND)
    assert "pause" not in simulator.__doc__ + "".join(simulator.LEGEND)
    # The figures the help states are the ones used, and fit the firmware's button timing.
    doc = " ".join(simulator.__doc__.split())
    assert "down %d ms then up %d ms" % (simulator.PRESS_MS, simulator.GAP_MS) in doc
    assert (
        "SELECT %d ms, PREV/NEXT %d ms"
        % (
            simulator.HOLD_MS["SELECT"],
            simulator.HOLD_MS["NEXT"],
        )
        in doc
    )
    assert "queue of up to %d" % simulator.KEY_QUEUE_MAX in doc
    assert simulator.PRESS_MS >= simulator.DEBOUNCE_MS + simulator.POLL_MS
    assert simulator.HOLD_MS["SELECT"] > simulator.LONG_MS + 2 * simulator.POLL_MS
    assert simulator.HOLD_MS["PREV"] > simulator.REPEAT_DELAY_MS + 2 * simulator.POLL_MS


def test_without_micropython_it_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(simulator.mpyrun, "micropython_path", lambda: None)
    sim = simulator.Simulator(flash=tmp_path)
    with pytest.raises(RuntimeError, match="MicroPython unix port is not installed"):
        sim.start()


def test_keys_typed_fast_queue_in_order_one_whole_press_each(tmp_path):
    # An 80x24 terminal: the braille view and its text status line.
    child = spawn(tmp_path, dimensions=(24, 80))
    # Typed at once, before the simulator has even started (they must not be flushed) and
    # while the firmware boots (nothing may reach its safe-mode check at power-on); then any
    # key opens the menu, Down picks "2 Players", Enter starts the game with the cursor in the
    # centre, and four Rights move it four free cells: 5, 6, 7, 8.
    child.send(" \x1b[B\r" + "\x1b[C" * 4)
    out = started(child)
    new = read_until(child, out, last_is(lambda dark, status: cursor_cell(dark) == 8))
    assert screens_in(new)[-1][1] == "X GO   2P    X 0  O 0  D 0"  # the status line, in text
    # Right then Left at once: two presses one after the other (to 0 and back), not the
    # PREV+NEXT chord that opens the menu.
    child.send("\x1b[C\x1b[D")
    cells = lambda text: [cursor_cell(dark) for dark, _ in screens_in(text)]  # noqa: E731
    new = read_until(child, out, lambda text: cells(text)[-2:] == [0, 8])
    assert all(status for _, status in screens_in(new)), "the board screen stayed"
    # "p" (hold NEXT: the menu, "Continue" chosen), at once Down and Enter: Down is not
    # swallowed by the hold, so Enter starts "1P vs CPU" instead of continuing the 2P game.
    child.send("p\x1b[B\r")
    new = read_until(child, out, last_is(lambda dark, status: status and "HARD" in status))
    assert screens_in(new)[-1][1].endswith("HARD  W 0  D 0  L 0"), screens_in(new)[-1]
    assert any(status is None for _, status in screens_in(new)), "the menu showed in between"
    # Made taller and wider, the terminal is cleared and gets the half-block view at once,
    # with no key and no new picture on the glass.
    frames = len(screens_in(out[0]))
    child.setwinsize(40, 100)
    half_block_frame = "\u250c" + "\u2500" * 84 + "\u2510"
    new = read_until(child, out, lambda text: half_block_frame in text)
    assert "\x1b[2J" in new.split(half_block_frame)[0]
    child.send("q")
    child.expect(r"simulator: (\d+) frames")
    assert frames > 10
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_status_column_is_read_back_as_text_from_the_glass(table):
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
        assert simulator.status_text(goldens.glass(name), table) == text, name
    assert simulator.status_text(goldens.glass("board_1p"), None) is None


def test_contrast_steps_and_backlight_shade_the_glass_in_the_terminal(tmp_path):
    # Every contrast step of the live preview changes the shade (not only at the extremes).
    shades = [glasslook.colours(True, vop) for vop in range(20, 121)]
    assert all(a != b for a, b in zip(shades, shades[1:], strict=False))
    assert glasslook.colours(True, 60) == glasslook.LIT  # the default: the golden colours
    # With 256 colours too, Vop 40 and 70 and the backlight on and off look different.
    looks = {
        simulator.sgr(ink, paper, "256")
        for light, vop in ((True, 40), (True, 70), (False, 40), (False, 70))
        for _, paper, ink in [glasslook.colours(light, vop)]
    }
    assert len(looks) == 4, looks
    # A person's way: Settings, contrast 60 down to 50 step by step, then the light off. The
    # terminal's glass takes the model's Vop and backlight for its ink and paper colours.
    script = tmp_path / "contrast.txt"
    script.write_text(
        "select\nprev  # Settings\nselect\nselect  # Contr\nprev x10\nselect\n"
        "next  # Light\nselect\n"
    )
    child = spawn(tmp_path, "--script", str(script))
    child.expect(r"simulator: \d+ frames")
    text = child.before
    child.expect(pexpect.EOF)
    seen = []
    for match in SGR_24.finditer(text):
        rgb = tuple(int(v) for v in match.groups())
        if not seen or seen[-1] != rgb:
            seen.append(rgb)
    wanted = [glasslook.colours(False, 60)]  # booting: the backlight is not on yet
    wanted += [glasslook.colours(True, vop) for vop in range(60, 49, -1)]
    wanted.append(glasslook.colours(False, 50))
    assert seen == [ink + paper for _, paper, ink in wanted]
    assert "backlight off" in text.split("\u250c")[-2]


def test_a_script_that_starts_with_a_press_waits_for_boot(tmp_path):
    # A press at once used to be held at power-on: safe mode, 4 runs in 6. Now keys start
    # after boot, so each of these runs opens the menu (six at once, to cost little time).
    script = tmp_path / "menu.txt"
    script.write_text("select\n")
    runs = [
        subprocess.Popen(
            [sys.executable, str(ROOT / "tools/simulator.py"), "--script", str(script)]
            + ["--flash", str(tmp_path / ("flash%d" % i)), *SILENT],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for i in range(6)
    ]
    menu = pcd8544_model.pixels_of(goldens.glass("menu"))
    for run in runs:
        out, _ = run.communicate(timeout=60)
        assert run.returncode == 0, out[-2000:]
        assert last_screen(out) == menu, out[-3000:]


def test_a_firmware_that_stops_is_shown_explained_and_exits_non_zero(tmp_path):
    # A button held at power-on (on purpose here): the firmware shows SAFE MODE and returns.
    command = "%s %s --sound off --flash %s --hold-at-boot select; echo EXIT=$?; stty -a" % (
        sys.executable,
        ROOT / "tools/simulator.py",
        tmp_path / "flash",
    )
    child = pexpect.spawn(
        "bash", ["--norc", "-c", command], encoding="utf-8", timeout=30, dimensions=(40, 100)
    )
    child.expect("EXIT=(\\d+)")
    status, text = int(child.match.group(1)), child.before
    child.expect(pexpect.EOF)
    assert status == simulator.FIRMWARE_STOPPED
    # The last picture is what the glass shows, and the simulator says what to do here,
    # after restoring the terminal (its newlines come out as \r\n: cooked mode again).
    assert last_screen(text) == pcd8544_model.pixels_of(goldens.glass("screen_safe_mode"))
    said = text.split("simulator: ")[-1]
    assert said.startswith("the firmware started in safe mode"), said
    assert "--hold-at-boot)\r\nand stopped." in said and "for a real board" in said
    assert "here, run the simulator again without --hold-at-boot to play." in said
    flags = [w for w in child.before.split() if w.lstrip("-") in ("icanon", "echo")]
    assert sorted(flags) == ["echo", "icanon"]


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


def test_keyboard_queue_keeps_order_and_has_a_said_limit(tmp_path):
    sim = simulator.Simulator(flash=tmp_path)
    read, write = os.pipe()
    keyboard = simulator.Keyboard(sim, read)
    os.write(write, b"p\x1b[C\x1b[Dhu \r")
    keyboard(read)
    hold, press = simulator.HOLD_MS, simulator.PRESS_MS
    assert list(sim.queue) == [
        ("NEXT", hold["NEXT"]),
        ("NEXT", press),
        ("PREV", press),
        ("SELECT", hold["SELECT"]),
        ("PREV", hold["PREV"]),
        ("SELECT", press),
        ("SELECT", press),
    ]
    os.write(write, b"\x1b[C" * 20)
    keyboard(read)
    assert len(sim.queue) == simulator.KEY_QUEUE_MAX and not keyboard.quit
    assert sim.screen.drop_note == "simulator: 11 keys dropped: 16 were already waiting"
    os.write(write, b"q")
    keyboard(read)
    assert keyboard.quit
    os.close(read)
    os.close(write)


def test_simulator_mp_refuses_an_unknown_action_and_ends_the_firmware_when_pipes_close(tmp_path):
    sim = simulator.Simulator(flash=tmp_path, clear=False)
    sim.screen.out = io.StringIO()
    sim.start()
    try:
        while not sim.ready:
            assert sim.pump(1.0), sim.screen.console
        os.write(sim.keys_w, b"JUMP 50 50\n")
        sim.in_flight += 1
        while sim.in_flight:
            assert sim.pump(1.0), sim.screen.console
        assert sim.screen.notes == ["simulator: no such button or action: JUMP 50 50"]
        # The simulator gone (its key pipe closed): the firmware ends itself, no orphan.
        os.close(sim.keys_w)
        while sim.pump(1.0):
            pass
        assert sim.stopped_by_itself()
        why = sim.why()
        assert why.startswith("the firmware stopped (exit status 1); its last output:"), why
        assert "the simulator closed the key pipe" in why, why
    finally:
        sim.stop()


def test_a_firmware_that_gets_no_cpu_for_a_while_still_sees_every_press(tmp_path):
    # Each press phase counts from the firmware's first poll of the level, not from when the
    # level changed: stopped (SIGSTOP, as a busy machine would deschedule it) right after a
    # press began, the firmware still polls it down before it is let go.
    sim = simulator.Simulator(flash=tmp_path, clear=False)
    sim.screen.out = io.StringIO()
    sim.start()

    def run_until(done):
        while not done():
            assert sim.pump(1.0), sim.screen.console

    try:
        run_until(lambda: sim.ready)
        for button in ("SELECT", "NEXT", "SELECT"):  # the menu, "2 Players", start
            sim.press(button)
        run_until(lambda: not sim.busy())
        glass = lambda: pcd8544_model.pixels_of(sim.screen.model.glass())  # noqa: E731
        assert cursor_cell(glass()) == 4
        for _ in range(4):
            sim.press("NEXT")
            sim.pump(0)  # hands it to simulator_mp, which presses at once
            time.sleep(0.003)
            os.kill(sim.proc.pid, signal.SIGSTOP)
            time.sleep(0.12)
            os.kill(sim.proc.pid, signal.SIGCONT)
            run_until(lambda: not sim.busy())
        assert cursor_cell(glass()) == 8
    finally:
        sim.stop()


# -- the buzzer ----------------------------------------------------------------------------

SOUND_MODULE = ROOT / "firmware" / "sound.py"


def sound_table(name):
    """A table of firmware/sound.py, read from the source (it is MicroPython code)."""
    import ast

    for node in ast.parse(SOUND_MODULE.read_text()).body:
        if isinstance(node, ast.Assign) and node.targets[0].id == name:
            return ast.literal_eval(node.value)
    raise KeyError(name)


def wav_of(path):
    """(samples as ints, frames a second) of a mono 16-bit WAV."""
    import array
    import wave

    with wave.open(str(path), "rb") as f:
        assert f.getnchannels() == 1 and f.getsampwidth() == 2
        samples = array.array("h", f.readframes(f.getnframes()))
        return list(samples), f.getframerate()


def frequency(samples, rate, start_ms, end_ms):
    """Hz of the square wave between start_ms and end_ms: whole periods between its first and
    last rising zero crossing there; 0 if it is silent."""
    lo, hi = int(start_ms * rate / 1000), int(end_ms * rate / 1000)
    rising = [i for i in range(max(lo, 1), hi) if samples[i - 1] <= 0 < samples[i]]
    if not any(samples[lo:hi]):
        return 0
    assert len(rising) >= 2, (start_ms, end_ms, rising)
    return (len(rising) - 1) * rate / (rising[-1] - rising[0])


def notes_of(name):
    """[(start ms, end ms, Hz)] of a table."""
    t = sound_table(name)
    out = []
    at = 0
    for i in range(0, len(t), 2):
        out.append((at, at + t[i + 1], t[i]))
        at += t[i + 1]
    return out


def test_render_wav_is_a_square_wave_at_each_notes_frequency(tmp_path):
    wav = tmp_path / "win.wav"
    notes = notes_of("WIN")
    simulator.render_wav([(a, hz) for a, _, hz in notes] + [(notes[-1][1], 0)], wav)
    samples, rate = wav_of(wav)
    assert rate == simulator.WAV_RATE
    assert len(samples) == round(notes[-1][1] * rate / 1000)  # 860 ms
    assert set(samples) == {0, simulator.WAV_LEVEL, -simulator.WAV_LEVEL}
    for start, end, hz in notes:
        measured = frequency(samples, rate, start + 2, end - 2)
        assert abs(measured - hz) <= hz * 0.005, (start, hz, measured)  # the rest: 0 == 0


def test_the_speaker_bell_and_off(tmp_path):
    # Bell: one bell as each sound begins (a rest inside a sound rings nothing); off: nothing.
    events = b"0 2093 32768\n100 2093 0\n140 3136 32768\n200 3136 0\n"
    for mode, bells in (("bell", 1), ("off", 0)):
        screen = simulator.Screen(io.StringIO(), clear=False)
        speaker = simulator.Speaker(mode, screen)
        speaker.feed(events)
        time.sleep(simulator.SOUND_GAP_S + 0.05)
        speaker.tick()  # the sound is over
        speaker.feed(b"900 3200 32768\n906 3200 0\n")
        assert screen.out.getvalue().count("\a") == 2 * bells, mode
        speaker.close()
    with pytest.raises(ValueError, match="sound must be one of on/bell/off"):
        simulator.Speaker("loud", simulator.Screen(io.StringIO()))


def test_the_buzzer_reaches_the_simulator_as_a_wav_and_sound_off_plays_nothing(tmp_path):
    # A stand-in `paplay` first on PATH keeps every WAV it is handed. Two runs at once: the
    # default (on) and --sound off. The firmware chimes at power-on, then a press ticks.
    player = tmp_path / "bin" / "paplay"
    player.parent.mkdir()
    player.write_text('#!/bin/sh\ncp "$1" "$HEARD/"\n')
    player.chmod(0o755)
    script = tmp_path / "script.txt"
    script.write_text("wait 600\nselect\nwait 500\n")
    runs = {}
    for mode in ("on", "off"):
        heard = tmp_path / ("heard-" + mode)
        heard.mkdir()
        env = dict(
            os.environ, HEARD=str(heard), PATH="%s:%s" % (player.parent, os.environ["PATH"])
        )
        command = [sys.executable, str(ROOT / "tools/simulator.py"), "--script", str(script)]
        command += ["--flash", str(tmp_path / ("flash-" + mode))]
        command += [] if mode == "on" else ["--sound", "off"]
        runs[mode] = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
    for run in runs.values():
        out, _ = run.communicate(timeout=60)
        assert run.returncode == 0 and "\a" not in out, out[-2000:]
    assert sorted(os.listdir(tmp_path / "heard-off")) == []
    wavs = sorted((tmp_path / "heard-on").iterdir())
    assert [w.name for w in wavs] == ["sound0001.wav", "sound0002.wav"]
    # The chime, note for note: its length and each note's frequency (the firmware ran on
    # the real clock, so each change may come a few ms late: measured inside each note).
    samples, rate = wav_of(wavs[0])
    notes = notes_of("CHIME")
    assert abs(len(samples) * 1000 / rate - notes[-1][1]) <= 15
    for start, end, hz in notes:
        measured = frequency(samples, rate, start + 12, end - 12)
        assert abs(measured - hz) <= hz * 0.01, (hz, measured)
    samples, rate = wav_of(wavs[1])  # MOVE: a 6 ms tick
    assert abs(len(samples) * 1000 / rate - 6) <= 5
    assert abs(frequency(samples, rate, 0, len(samples) * 1000 / rate) - 3200) <= 3200 * 0.02


def test_256_colours_show_every_contrast_step_the_24_bit_view_shows():
    # tmux and friends (no $COLORTERM) get 256 colours, whose nearest match is the same for
    # Vop 60..74: the glass is dithered between neighbouring palette colours instead, so each
    # step changes the picture, for both view sizes and the backlight on and off.
    for light in (True, False):
        for lines in (12, 24):
            paints = [simulator.glass_paint(light, vop, "256", lines) for vop in range(20, 121)]
            assert all(a != b for a, b in zip(paints, paints[1:], strict=False)), (light, lines)
            assert paints[40] != paints[41] != paints[42]  # Vop 60, 61, 62: the default's steps
        # The default contrast looks as it did: the nearest palette colours, everywhere.
        _, paper, ink = glasslook.colours(light, 60)
        at_60 = {part for row in simulator.glass_paint(light, 60, "256", 12) for part in row}
        assert at_60 == {simulator.sgr(ink, paper, "256")}
        # 24-bit colours need no dither: one colour, exactly the glass's.
        at_61 = {part for row in simulator.glass_paint(light, 61, "24bit", 24) for part in row}
        _, paper, ink = glasslook.colours(light, 61)
        assert at_61 == {simulator.sgr(ink, paper, "24bit")}


def last_drawn(text):
    """The rows of the last picture drawn in place (after its cursor-home), colours stripped."""
    return ANSI.sub("", text.split("\x1b[H")[-1]).split("\r\n")


def test_a_too_small_terminal_is_told_so_and_a_narrow_one_gets_a_wrapped_legend(tmp_path):
    # The braille view needs 44 columns (42 and its frame) and, that narrow, 19 lines (title,
    # frame, status line, the legend in 3 lines); less than that, one line says so.
    assert simulator.compact_size(30) == simulator.compact_size(60) == (44, 19)
    assert simulator.compact_size(80) == (44, 18)  # the legend's two lines fit
    child = spawn(tmp_path, dimensions=(10, 30), colour="")
    out = started_small(child)
    read_until(child, out, lambda text: "too small: 30x10, need 44x19" in text)
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
    assert last_drawn(new) == ["terminal too small: 44x18, need 44x19"]  # fits in 43
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def started_small(child):
    """Like started(), for a terminal too small for the simulator's title."""
    child.expect("too small")
    out = [child.before + child.after + child.buffer]
    child.buffer = ""
    return out


def test_dropped_keys_are_counted_in_one_note_that_clears(tmp_path):
    sim = simulator.Simulator(flash=tmp_path, clear=False)
    sim.screen.out = io.StringIO()
    sim.screen.feed(b"P", b"dc - - bl 1")  # a glass to draw on
    read, write = os.pipe()
    keyboard = simulator.Keyboard(sim, read)
    os.write(write, b"\x1b[C" * 40)  # a burst: 16 wait, 24 are dropped
    keyboard(read)
    assert len(sim.queue) == simulator.KEY_QUEUE_MAX and sim.screen.notes == []
    note = "simulator: 24 keys dropped: 16 were already waiting"
    drawn = sim.screen.out.getvalue().split("\n")
    assert drawn[-3:] == [LEGEND_END + "\r", note + "\r", ""], drawn[-4:]
    assert sim.screen.out.getvalue().count("dropped") == 24  # redrawn in place, each count
    # Still waiting, or drained only a moment ago: the note stays.
    sim.drops_over(sim.dropped_at + simulator.DROP_NOTE_S)
    sim.queue.clear()
    sim.drops_over(sim.dropped_at + 1)
    assert sim.screen.drop_note == note
    sim.drops_over(sim.dropped_at + simulator.DROP_NOTE_S)
    assert sim.screen.drop_note is None
    assert sim.screen.out.getvalue().split("\n")[-2] == LEGEND_END + "\r"
    # A key taken again clears the note at once; one dropped key is "1 key".
    sim.queue.extend([("NEXT", 50)] * simulator.KEY_QUEUE_MAX)
    os.write(write, b" ")
    keyboard(read)
    assert sim.screen.drop_note == "simulator: 1 key dropped: 16 were already waiting"
    sim.queue.popleft()
    os.write(write, b" ")
    keyboard(read)
    assert sim.screen.drop_note is None and len(sim.queue) == simulator.KEY_QUEUE_MAX
    os.close(read)
    os.close(write)


LEGEND_END = simulator.LEGEND[-1]
