"""The type check catches wrong calls into the device APIs, per port, and nothing that is right."""

import textwrap

import pytest
import typecheck

PORTS = ("rp2", "esp32")

GOOD = """\
import framebuf
import machine
import time

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


_WIDTH = const(84)


class Lcd(framebuf.FrameBuffer):
    def __init__(self, spi, dc):
        self.buf = bytearray(_WIDTH * 6)
        super().__init__(self.buf, _WIDTH, 48, framebuf.MONO_VLSB)
        self.spi = spi
        self.dc = dc

    def show(self):
        self.dc(1)
        self.spi.write(self.buf)


def build():
    spi = machine.SPI(1, baudrate=4_000_000, sck=machine.Pin(10), mosi=machine.Pin(11))
    lcd = Lcd(spi, machine.Pin(12, machine.Pin.OUT, value=0))
    lcd.text("hi", 0, 0, 1)
    lcd.show()
    start = time.ticks_ms()
    time.sleep_ms(time.ticks_diff(time.ticks_add(start, 5), time.ticks_ms()))
    machine.Pin(3, machine.Pin.IN, machine.Pin.PULL_UP).value()
    return lcd
"""


def check(port, tmp_path, source, name="probe"):
    path = tmp_path / (name + ".py")
    path.write_text(textwrap.dedent(source))
    return typecheck.run_mypy(port, [path], cache_dir=tmp_path / "cache")


@pytest.mark.parametrize("port", PORTS)
def test_correct_device_code_has_no_errors(port, tmp_path):
    lines, errors = check(port, tmp_path, GOOD)
    assert errors == 0, "\n".join(lines)


WRONG = (
    ("machine.Pin(1).valeu()", '"Pin" has no attribute "valeu"'),
    ('framebuf.FrameBuffer(b, 1, 2, 3).textt("x", 0, 0)', 'has no attribute "textt"'),
    ("machine.Pin(1, machine.Pin.PULL_SIDEWAYS)", 'has no attribute "PULL_SIDEWAYS"'),
    ("time.ticks_diff(1)", 'No overload variant of "ticks_diff"'),
    ("machine.SPI(1).write(1, 2, 3)", 'Too many arguments for "write"'),
)


@pytest.mark.parametrize("port", PORTS)
def test_each_wrong_call_inside_an_unannotated_function_is_reported(port, tmp_path):
    # One function per wrong call, so every error has its own line (7, 11, 15, ...).
    source = "import framebuf\nimport machine\nimport time\n"
    for wrong, _ in WRONG:
        source += "\n\ndef run(b):\n    %s\n" % wrong
    lines, errors = check(port, tmp_path, source)
    found = [
        any("probe.py:%d: error:" % (7 + 4 * i) in line and expected in line for line in lines)
        for i, (_, expected) in enumerate(WRONG)
    ]
    assert found == [True] * len(WRONG), "\n".join(lines)


def test_each_port_uses_its_own_stubs(tmp_path):
    source = "import rp2\n\n\ndef run():\n    rp2.StateMachine(0)\n"
    assert check("rp2", tmp_path, source)[1] == 0
    lines, errors = check("esp32", tmp_path, source)
    assert errors == 1 and 'module named "rp2"' in "\n".join(lines)


def test_only_the_const_guard_redefinition_is_forgiven(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("def const(x):\n    return x\ndef konst(x):\n    return x\n")
    output = "".join(
        "%s:%d: error: %s: details  [misc]\n%s:%d: note: Original:\n"
        % (source, n, text, source, n)
        for n, text in ((1, typecheck._CONST_GUARD), (3, typecheck._CONST_GUARD), (1, "Other"))
    )
    lines, errors = typecheck.filter_messages(output)
    assert errors == 2
    assert [line.split(": ", 1)[0] for line in lines] == ["%s:3" % source] * 2 + [
        "%s:1" % source
    ] * 2


def test_missing_stubs_say_how_to_install_them(tmp_path):
    with pytest.raises(RuntimeError, match="make typecheck"):
        typecheck.run_mypy("rp2", [tmp_path / "x.py"], stubs_root=tmp_path)


def test_board_without_a_port_is_refused(monkeypatch):
    monkeypatch.setattr(typecheck.boardlist, "PORT_OF_BOARD", {})
    with pytest.raises(RuntimeError, match="PORT_OF_BOARD"):
        typecheck.check_board("pico")
