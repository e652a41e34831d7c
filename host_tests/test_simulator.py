"""The simulator as a person uses it: keys in a terminal, the LCD drawn in half blocks."""

import sys
from pathlib import Path

import lcd_render
import pcd8544_model
import pexpect
import pytest
import simulator
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
HALF = {" ": (0, 0), "\u2580": (1, 0), "\u2584": (0, 1), "\u2588": (1, 1)}


def last_screen(text):
    """The 84x48 pixels (set of (x, y)) of the last LCD the terminal shows."""
    frame = text.split("\u250c")[-1].split("\u2514")[0]
    rows = [line for line in frame.split("\n") if line.startswith("\u2502")][:24]
    assert len(rows) == 24, frame
    dark = set()
    for r, line in enumerate(rows):
        cells = line[1:85]
        assert len(cells) == 84, repr(line)
        for x, ch in enumerate(cells):
            top, bottom = HALF[ch]
            if top:
                dark.add((x, 2 * r))
            if bottom:
                dark.add((x, 2 * r + 1))
    return dark


@pytest.fixture(scope="module")
def words(micropython):
    """word -> (status-column box, its dark pixels) as the game's screens module draws it."""
    out = micropython.run(ROOT / "host_tests/mp/mp_sim_words.py", heapsize="128k")
    assert out.returncode == 0, out.stderr
    result = {}
    for line in out.stdout.splitlines():
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


def spawn(tmp_path, *args, dimensions=(40, 100)):
    return pexpect.spawn(
        sys.executable,
        [str(ROOT / "tools/simulator.py"), "--flash", str(tmp_path / "flash"), *args],
        cwd=str(ROOT),
        encoding="utf-8",
        dimensions=dimensions,
        timeout=20,
    )


def golden_glass(name):
    """The 504-byte glass of a golden screen, from its half-block text twin."""
    rows = (ROOT / "host_tests/golden/screens" / (name + ".txt")).read_text().split("\n")
    rows = [line[1:85] for line in rows if line.startswith("|")]
    assert len(rows) == 24
    glass = bytearray(504)
    for r, line in enumerate(rows):
        for x, ch in enumerate(line):
            for dy, on in enumerate(HALF[ch]):
                if on:
                    y = 2 * r + dy
                    glass[(y >> 3) * 84 + x] |= 1 << (y & 7)
    return glass


def test_a_small_terminal_gets_the_compact_braille_view(tmp_path):
    # The usual 80x24 terminal cannot hold the 84x24 half-block frame: the simulator draws the
    # glass in braille instead (42x12 characters), here the title screen, dot for dot.
    title = lcd_render.braille(golden_glass("title"))
    assert len(title.split("\n")) == 12 and len(title.split("\n")[0]) == 42
    child = spawn(tmp_path, dimensions=(24, 80))
    child.expect("backlight on")
    screen = settle(child, 1.5)
    child.send("q")
    child.expect(pexpect.EOF)
    frame = screen.split("\u250c")[-1].split("\u2514")[0]
    shown = [line[1:43] for line in frame.split("\n") if line.startswith("\u2502")]
    assert len(shown) == 12, frame
    # The logo and the name (pixel rows 0..35) dot for dot; "press key" below them blinks.
    assert shown[:9] == title.split("\n")[:9], frame


def settle(child, seconds):
    """Read whatever the simulator draws for `seconds`; return all output so far."""
    try:
        child.expect(pexpect.TIMEOUT, timeout=seconds)
    except pexpect.EOF:
        pass
    return child.before


def test_play_a_game_against_the_cpu_to_its_result_then_quit(tmp_path, words):
    child = spawn(tmp_path)
    child.expect("backlight on")
    screen = settle(child, 1.5)
    assert len(last_screen(screen)) > 200  # the title screen
    child.send(" ")  # any key: the menu
    settle(child, 0.4)
    child.send("\r")  # "1P vs CPU"
    seen = settle(child, 0.8)
    assert shown_word(last_screen(seen), words) is None  # a game is on
    result = None
    for _ in range(30):
        child.send(" ")  # place a mark at the cursor (the CPU answers)
        seen += settle(child, 0.7)
        result = shown_word(last_screen(seen), words)
        if result:
            break
        child.send("\x1b[C")  # the cursor to the next free cell
        seen += settle(child, 0.2)
    assert result in ("LOST", "DRAW", "WIN!"), seen[-3000:]
    child.send("q")
    child.expect(r"simulator: (\d+) frames")
    assert int(child.match.group(1)) > 10
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("key", ["\x03", "q"])
def test_quit_key_restores_the_terminal(tmp_path, key):
    # A shell runs the simulator in this pty, then prints the pty's modes: they must be the
    # cooked ones again (canonical input, echo), as before the simulator made them raw.
    command = "stty -a; echo MODES-END; %s %s --flash %s; echo EXIT=$?; stty -a" % (
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
    script.write_text("wait 1200  # the title\nselect\nwait 300\nselect  # 1P vs CPU\nnext x2\n")
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


def test_bad_script_lines_are_reported(tmp_path):
    script = tmp_path / "bad.txt"
    script.write_text("select\njump\n")
    with pytest.raises(ValueError, match="bad.txt:2"):
        simulator.read_script(script)
    script.write_text("select\nnext x2 # twice\nhold prev\nwait 100\n")
    assert simulator.read_script(script) == [
        ("SELECT", 80),
        ("NEXT", 80),
        ("NEXT", 80),
        ("PREV", 800),
        (None, 100),
    ]


def test_without_micropython_it_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(simulator.mpyrun, "micropython_path", lambda: None)
    sim = simulator.Simulator(flash=tmp_path)
    with pytest.raises(RuntimeError, match="MicroPython unix port is not installed"):
        sim.start()
