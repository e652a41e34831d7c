"""The real MicroPython rp2 port running the game, in the RP2040 emulator rp2040js (`make
test-pico`), checked only through the pins and the USB serial (testbed/picolab.py).

Each check runs on both firmwares, the frozen image and stock MicroPython with deploy's files
(testbed/picosetup.py says where they come from); without the boot ROM, node or either
firmware the file skips in one line, CI or not: an Arm toolchain is not every machine's.
Boots are shared: one game feeds the goldens, the jingles, the flash and a power cycle, then
its REPL session the watchdog and light-sleep checks; one board the power cuts in saves. The
frozen image boots with an empty filesystem range, as a board flashed for the first time.
"""

import functools
import types

import goldens
import lcd_render
import picolab
import picoplay
import picosetup
import pytest
import sound

_PROBLEM = picosetup.problem()
if _PROBLEM:
    pytest.skip("Pico lab: " + _PROBLEM, allow_module_level=True)

TOLERANCE_MS = 5.0  # a note's length and a rest against its table (issue 25)
PITCH = 0.01  # the PWM's nearest frequency to the table's: 125 MHz / (DIV * (TOP + 1))
WATCHDOG_MS = 5000  # firmware/runner.py WATCHDOG_MS


def _board(kind):
    problem = picosetup.problem(kind)
    if problem:
        pytest.skip("Pico lab (%s): %s" % (kind, problem))
    return picolab.boot(kind)


def _fixture(make):
    """The fixture named as `make` without its underscore: make(kind), which runs once per
    process and is kept (functools.cache): each boot costs seconds."""
    return pytest.fixture(name=make.__name__[1:])(lambda kind: make(kind))


def golden(name):
    return bytes(goldens.glass("screens/" + name))


def _title(board, ms=1500, after=None):
    """The first golden title on the glass (drawn after `after` ms), else None."""
    return picoplay.wait_frame(board, ms, lambda g: g == golden("title"), after)


def _power_on(board):
    """Power back on (after a cut, or a power cycle): the title it then shows, else None."""
    board.power_on()
    return _title(board, after=board.resets[-1][0])


# -- one game: the frames, the jingles ------------------------------------------------------


def _shown(board, game, name, since=0):
    match = [f for f in board.frames[since:] if f.glass == golden(name)]
    game.frames[name] = match[0] if match else board.frames[-1]


def _play(board, game, moves, name, end):
    since = len(board.frames)
    for cell in moves[:-1]:
        picoplay.play_cell(board, cell)
    mark = board.t
    picoplay.play_cell(board, moves[-1])
    board.run(1500)  # the jingle (at most about 1 s) and a blink of the result
    _shown(board, game, name, since)
    game.ends[end] = board.notes(mark)


@functools.cache
def _game(kind):
    """What one run of the game showed and played: `frames` by golden name (the first equal
    to it, else the last), `ends`: the notes from each end's last move on, the bus's
    `anomalies`, the flash's first operation and those of the first 600 ms (`boot_ops`), the
    settings `kept` on the flash after a power cycle, then the `session` at its REPL."""
    game = types.SimpleNamespace(frames={}, ends={})
    with _board(kind) as board:
        board.run(150)
        _title(board)
        _shown(board, game, "title")
        board.run(max(0.0, 600 - board.t))  # a first boot (frozen) has made its filesystem
        game.boot_ops = list(board.flash_ops)
        board.press("select")
        _shown(board, game, "menu")
        board.press("next", "select")  # 2 Players
        for cell in (0, 1):
            picoplay.play_cell(board, cell)
        _shown(board, game, "board_2p")
        _play(board, game, (4, 2, 8), "win_2p", "WIN")  # X on the diagonal
        board.press("select")  # the next game
        _play(board, game, (0, 4, 8, 1, 7, 6, 2, 5, 3), "draw_2p", "DRAW")
        # One player against "perfect", placing on the first free cell: the CPU wins.
        board.press("select")
        board.press("next", ms=700)  # held: the menu (Continue, 1P, 2P, Level, ...)
        board.press("next", "next", "next", "select")  # Level: hard -> perfect
        board.press("prev", "prev", "select")  # 1P vs CPU
        mark = board.t
        for _ in range(5):
            if picoplay.wait_frame(board, 1500, lambda g: picoplay.cursor(g) >= 0) is None:
                break  # no cursor: the game is over
            mark = board.t
            picoplay.play_cell(board, picoplay.marks(picoplay.glass(board)).index("."))
        board.run(1500)
        game.ends["LOSS"] = board.notes(mark)
        game.anomalies = list(board.anomalies)
        game.first_flash_op = board.flash_ops[0] if board.flash_ops else None
        # The results saved (a result blinking is saved within App.save_wait_ms, 2 s), then a
        # power cycle: the board mounts what its first boot made rather than making it again.
        board.run(2500)
        _power_on(board)
        board.run(500)  # a filesystem made again would be made by now
        game.kept = picoplay.settings(board)
        game.session = _session(board)  # on the title again: a boot fewer
        return game


# -- the game's board at its REPL: Ctrl-C and the watchdog, light sleep, a hang -------------


_SETTINGS = (
    '{"contrast": 60, "backlight": true, "level": 2, "starts": 2, "tally1": [0, 0, 0], '
    '"tally2": [0, 0, 0], "dim_s": 1, "sleep_s": 2, "sound": true, "coach": false, '
    '"coach_told": false}'
)
# The hang waits rather than spins: the same for the watchdog, and the emulator skips the
# time a waiting core sleeps through instead of running it instruction by instruction.
_HANG = """import app, time
def _hang(self, now):
    while True:
        time.sleep_ms(1000)
app.App.step = _hang
import startup
startup.main()
"""


def _session(board):
    """The REPL session on `board`, at its title: what the checks read, set as it goes."""
    out = types.SimpleNamespace()
    _title(board)
    # Ctrl-C: the REPL, then more than the watchdog's time at it.
    board.interrupt()
    resets = len(board.resets)
    board.run(WATCHDOG_MS + 1500)
    out.repl_answer = board.raw("print('alive', 6 * 7)")[0].strip()
    out.resets_at_repl = board.resets[resets:]
    # A step that hangs: the game started again from the REPL with App.step looping.
    board.interrupt()
    resets = len(board.resets)
    board.enter_raw()
    board.send(_HANG.encode() + b"\x04")
    board.run(WATCHDOG_MS + 1500)
    out.hang_resets = board.resets[resets:]
    bitten = out.hang_resets[0][0] if out.hang_resets else board.t
    out.title_after_hang = _title(board, after=bitten)
    board.interrupt()
    out.log = board.raw("print(open('error.log').read())")[0]
    # Light sleep after 2 s idle (the settings written from the REPL), a soft reset.
    board.raw("with open('settings.json', 'w') as f:\n    f.write(%r)" % _SETTINGS)
    soft = board.t
    board.send(b"\x04")  # soft reset: main.py starts the game again
    assert _title(board, after=soft) is not None
    since = board.t
    board.run(4000)
    out.sleep_clocks = [c for c in board.clocks if c[0] > since]
    out.asleep = not any(board.frames[-1].glass)  # powered down: a blank glass
    woke = len(board.transfers)
    board.press("select", after=300)
    out.woken = [hz for _, hz in board.transfers[woke:]]
    return out


# -- power cuts inside a settings save ------------------------------------------------------


def _to_sound_row(board, first=False):
    """From the title: the settings screen, its Sound row highlighted (the golden settings
    screen on the `first` visit, with the default settings)."""
    board.press("select", *["next"] * 4, "select")  # the menu's 5th row: Settings
    if first:
        assert picoplay.glass(board) == golden("settings"), lcd_render.text(picoplay.glass(board))
    board.press("next", "next")


_MOST_CUTS = 12  # a save of Sound takes up to 7 flash operations on these layouts


@functools.cache
def _cuts(kind):
    """(the flash operations of an uncut save of Sound, [(n, the settings before, after the
    power came back, the title shown)] for a cut after the n-th flash operation of a save, n =
    1, 2, ... until a save takes fewer than n. Each cut is in a save of its own, and how many
    operations a save takes moves with littlefs's state (up to 7 here), so the cuts go on
    until one finds the save over before it."""
    with _board(kind) as board:
        board.run(150)
        assert _title(board) is not None
        _to_sound_row(board, first=True)
        ops = len(board.flash_ops)
        board.press("select", after=1000)  # Sound off, saved in the next quiet gap
        first = board.flash_ops[ops:]
        assert len(first) >= 2, first
        results = []
        for n in range(1, _MOST_CUTS + 1):
            before = picoplay.settings(board)
            board.cut_after(n)
            board.press("select", after=1000)  # Sound toggled: the save is cut at its n-th
            if not board.off:
                board.cut_after(None)  # this save was over in fewer than n operations
                break
            title = _power_on(board)
            after = picoplay.settings(board)
            results.append((n, before, after, title is not None))
            _to_sound_row(board)
        return first, results


# -- safe mode: a button held at power-on ---------------------------------------------------


# At the REPL: what is mounted at /, and a file written there and read back.
_FS_CHECK = """import vfs
with open('mine.txt', 'w') as f:
    f.write('kept')
print([p for _fs, p in vfs.mount()], open('mine.txt').read())"""


@functools.cache
def _safe(kind):
    """(the glass once safe mode shows, the REPL's answer, resets, the REPL's _FS_CHECK) for a
    board powered on with SELECT held, then let go, left at its REPL past the watchdog's
    time: on the frozen image, a first boot (no filesystem yet)."""
    with _board(kind) as board:
        board.pin("select", 0)  # held before the chip starts: pressed at power-on
        board.run(600)
        glass = board.frames[-1].glass if board.frames else None
        board.pin("select", 1)
        board.run(WATCHDOG_MS + 1500)
        answer = board.raw("print('free', 6 * 7)")[0].strip()
        fs = board.raw(_FS_CHECK)[0].strip()
        return glass, bytes(board.serial), answer, list(board.resets), fs


# -- a first boot: Ctrl-C at once, and power cuts while the filesystem is made ---------------


@functools.cache
def _early_ctrl_c(kind):
    """The REPL's _FS_CHECK after a Ctrl-C sent at power-on (the lab holds it until the USB
    serial is up): on the frozen image a first boot, stopped around the filesystem's making."""
    with _board(kind) as board:
        board.interrupt(b"\x03\x03")
        return board.raw(_FS_CHECK)[0].strip()


@functools.cache
def _first_boot_cuts(kind):
    """(the flash operations of an uncut first boot, the game's, [(n, the title shown after the
    power came back, the REPL's _FS_CHECK)] for a cut right after each of them)."""
    ops = _game(kind).boot_ops
    results = []
    for n in range(1, len(ops) + 1):
        with _board(kind) as board:
            board.cut_after(n)
            board.run(600)
            assert board.off, "no cut after %d operations: %r" % (n, board.flash_ops)
            title = _power_on(board)
            board.run(300)
            board.interrupt()
            results.append((n, title is not None, board.raw(_FS_CHECK)[0].strip()))
    return ops, results


game, cuts, safe, early_ctrl_c, first_boot_cuts = map(
    _fixture, (_game, _cuts, _safe, _early_ctrl_c, _first_boot_cuts)
)


@pytest.fixture
def session(game):
    return game.session


# -- the checks, once for each firmware ----------------------------------------------------


@pytest.fixture
def kind(request):
    return request.cls.kind


class _Checks:
    """Every check; a subclass names the firmware. The project's xdist scheduling sends a
    class's items to one worker (host_tests/checkitems.py), which boots each session once."""

    kind = None

    @pytest.mark.parametrize("name", ["title", "menu", "board_2p", "win_2p", "draw_2p"])
    def test_frames_equal_the_goldens(self, game, name, tmp_path):
        frame = game.frames[name]
        if frame.glass != golden(name):
            path = tmp_path / (name + ".actual.png")
            lcd_render.image(frame.glass, scale=4).save(path)
            raise AssertionError(
                "the glass at %.1f ms is not %s (%s):\n%s"
                % (frame.t, name, path, lcd_render.text(frame.glass))
            )

    def test_the_bus_has_no_anomalies(self, game):
        assert game.anomalies == []

    @pytest.mark.parametrize("end", ["WIN", "DRAW", "LOSS"])
    def test_end_of_game_notes_follow_their_table(self, game, end):
        notes = game.ends[end]
        tones = sound.table(end)
        table = list(zip(tones[::2], tones[1::2], strict=True))  # (Hz, ms) each
        heard = [hz for hz, ms in table if hz]
        starts = [
            k
            for k in range(len(notes) - len(heard) + 1)
            if all(abs(notes[k + i][0] - hz) <= PITCH * hz for i, hz in enumerate(heard))
        ]
        assert starts, "no %s (%s) in the notes played: %s" % (end, table, notes)
        played = iter(notes[starts[-1] :])
        last = None
        for hz, ms in table:
            if not hz:  # a rest: the gap before the next tone
                nxt = notes[notes.index(last) + 1]
                assert abs(nxt[1] - last[2] - ms) <= TOLERANCE_MS, (end, last, nxt, ms)
                continue
            last = next(played)
            assert abs(last[2] - last[1] - ms) <= TOLERANCE_MS, (end, hz, ms, last)

    def test_ctrl_c_leaves_a_repl_the_watchdog_does_not_reset(self, session):
        assert session.resets_at_repl == []
        assert session.repl_answer == "alive 42"

    def test_the_lcd_clock_is_at_most_4_mhz_after_light_sleep(self, session):
        # The sleep happened: clk_sys went to the 12 MHz crystal and the glass was powered down.
        assert any(sys_hz == 12e6 for _, sys_hz, _ in session.sleep_clocks), session.sleep_clocks
        assert session.asleep
        assert session.woken, "no transfer to the LCD after the wake"
        assert all(0 < hz <= 4000000 for hz in session.woken), session.woken

    def test_a_hung_step_is_reset_by_the_watchdog_with_one_log_line(self, session):
        assert [why for _, why in session.hang_resets] == ["watchdog"]
        assert session.title_after_hang is not None, "no title after the watchdog's reset"
        lines = [line for line in session.log.splitlines() if line.strip()]
        assert len(lines) == 1 and "watchdog reset" in lines[0], session.log

    def test_a_button_held_at_power_on_gives_safe_mode_and_a_free_repl(self, safe):
        glass, serial, answer, resets, _fs = safe
        assert glass == bytes(goldens.glass("screen_safe_mode"))
        assert b"oxo5110: safe mode" in serial
        assert answer == "free 42"
        assert resets == []  # no watchdog was started: the REPL stays

    def test_safe_mode_has_the_filesystem_mounted_and_writable(self, safe):
        # A user copies files there; on the frozen image this was the board's first boot.
        assert safe[4] == "['/'] kept"

    def test_ctrl_c_at_power_on_leaves_a_repl_with_the_filesystem(self, early_ctrl_c):
        assert early_ctrl_c == "['/'] kept"

    def test_the_flash_is_not_touched_before_the_title(self, game):
        # An erase stalls the core, so an operation begun before the title would end after
        # it: the first one ends later than the title's frame (if there is any at all).
        op = game.first_flash_op
        assert op is None or op[0] > game.frames["title"].t, (op, game.frames["title"].t)

    def test_the_games_results_are_on_the_flash_after_a_power_cycle(self, game):
        assert game.kept is not None, "no settings.json on the flash"
        assert game.kept["tally2"] == [1, 0, 1]  # two players: X won, then a draw
        assert game.kept["tally1"] == [0, 0, 1]  # against the CPU: lost

    def test_a_power_cut_in_a_save_boots_to_the_title_with_old_or_new_settings(self, cuts):
        first, results = cuts
        # A cut after each operation in turn, up to where a save was over before it: at least
        # two (a save after a cut takes fewer operations than the first, 7 here, as littlefs
        # has less to move).
        assert [r[0] for r in results] == list(range(1, len(results) + 1))
        assert len(first) >= 2 and len(results) >= 2, (len(results), first)
        for n, before, after, titled in results:
            assert titled, "no title after the cut after operation %d" % n
            new = dict(before, sound=not before["sound"])
            # The save writes this boot's number too ("boots") if no save of this boot has.
            counted = dict(new, boots=before["boots"] + 1)
            assert after in (before, new, counted), (n, before, after)


class TestFrozen(_Checks):
    kind = "frozen"

    def test_a_power_cut_while_a_first_boot_makes_the_filesystem_boots_to_a_mounted_one(
        self, first_boot_cuts
    ):
        ops, results = first_boot_cuts
        # The filesystem is made on a first boot (frozen/flashfs.py): littlefs writes its
        # superblock to both blocks of its metadata pair, an erase and a program each.
        assert [kind for _t, kind, _at, _size in ops] == ["erase", "program"] * 2, ops
        assert len(results) == len(ops)
        for n, titled, fs in results:
            assert titled, "no title after the cut after operation %d" % n
            assert fs == "['/'] kept", (n, fs)


class TestStock(_Checks):
    kind = "stock"
