"""The type check catches wrong calls into the device APIs, per port. That it reports nothing
on code that is right is `make typecheck` itself: the whole firmware with each board file, on
both ports' stubs, must have no errors (a board file without PORT stops it too)."""

import textwrap

import pytest
import typecheck

PORTS = ("rp2", "esp32")


@pytest.fixture(scope="session")
def cache(tmp_path_factory):
    """One mypy cache per test worker: the stubs are analysed once, not in every test."""
    return tmp_path_factory.mktemp("mypy-cache")


@pytest.fixture
def check(cache, tmp_path):
    def check(port, source, name="probe"):
        path = tmp_path / (name + ".py")
        path.write_text(textwrap.dedent(source))
        return typecheck.run_mypy(port, [path], cache_dir=cache / port)

    return check


WRONG = (
    ("machine.Pin(1).valeu()", '"Pin" has no attribute "valeu"'),
    ('framebuf.FrameBuffer(b, 1, 2, 3).textt("x", 0, 0)', 'has no attribute "textt"'),
    ("machine.Pin(1, machine.Pin.PULL_SIDEWAYS)", 'has no attribute "PULL_SIDEWAYS"'),
    ("time.ticks_diff(1)", 'No overload variant of "ticks_diff"'),
    ("machine.SPI(1).write(1, 2, 3)", 'Too many arguments for "write"'),
)


@pytest.mark.parametrize("port", PORTS)
def test_each_wrong_call_inside_an_unannotated_function_is_reported(port, check):
    # One function per wrong call, so every error has its own line (7, 11, 15, ...).
    source = "import framebuf\nimport machine\nimport time\n"
    for wrong, _ in WRONG:
        source += "\n\ndef run(b):\n    %s\n" % wrong
    lines, errors = check(port, source)
    found = [
        any("probe.py:%d: error:" % (7 + 4 * i) in line and expected in line for line in lines)
        for i, (_, expected) in enumerate(WRONG)
    ]
    assert found == [True] * len(WRONG), "\n".join(lines)


def test_each_port_uses_its_own_stubs(check):
    source = "import rp2\n\n\ndef run():\n    rp2.StateMachine(0)\n"
    assert check("rp2", source)[1] == 0
    lines, errors = check("esp32", source)
    assert errors == 1 and 'module named "rp2"' in "\n".join(lines)


def test_a_class_reaching_into_state_another_class_sets_up_is_reported(check):
    # No mixins: an attribute is known only where its own class (or a base) assigns it. A typo
    # is an error too, and so is a wrong attribute of a device class.
    source = """\
    import machine


    class Play:
        def go(self):
            self.pin.value(self.level)
            return self.levle


    class App(Play):
        def __init__(self):
            self.pin = machine.Pin(2)
            self.level = 1
            self.pin.valeu()
    """
    lines, errors = check("rp2", source)
    text = "\n".join(lines)
    assert errors == 4, text
    assert '"Play" has no attribute "pin"' in text and '"Play" has no attribute "level"' in text
    assert '"Play" has no attribute "levle"' in text and '"Pin" has no attribute "valeu"' in text


def test_missing_stubs_say_how_to_install_them(tmp_path):
    with pytest.raises(RuntimeError, match="make typecheck"):
        typecheck.run_mypy("rp2", [tmp_path / "x.py"], stubs_root=tmp_path)


def test_board_without_a_port_is_refused(tmp_path):
    source = (typecheck.boardlist.BOARDS / "pico.py").read_text()
    assert 'PORT = "rp2"' in source
    (tmp_path / "portless.py").write_text(source.replace('PORT = "rp2"', "PORT_ID = 0"))
    with pytest.raises(RuntimeError, match="PORT ="):
        typecheck.check_board("portless", boards_dir=tmp_path)
