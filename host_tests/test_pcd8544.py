"""The PCD8544 driver under the real MicroPython unix port, checked through the model.

The golden test frame lives in host_tests/golden/. After an intended change to what the display
shows, regenerate it with

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest host_tests/test_pcd8544.py

and review the new PNG (and its .txt twin) in the diff. CI never regenerates it.
"""

import random

import fakebus
import goldens
import lcd_render
import mpcheck
import pcd8544_model as pm
import pytest

# -- scenes: the driver on MicroPython, the recording replayed into the model on CPython --------

INIT_OPTIONS = ("", "cs=0", "rst=0", "light=0", "cs=0 rst=0 light=0", "contrast=45 bias=3 tc=2")


def random_frames():
    """The frames of test_scene_pixels: whole rows, columns, a checkerboard, seeded noise."""
    rng = random.Random(5110)
    frames = [set(), {(x, y) for x in range(84) for y in range(48)}]
    frames += [{(x, 0) for x in range(84)}, {(0, y) for y in range(48)}]
    frames += [{(x, y) for x in range(84) for y in range(48) if (x + y) % 2}]
    for density in (0.02, 0.3, 0.5, 0.9):
        for _ in range(3):
            frames.append({(x, y) for x in range(84) for y in range(48) if rng.random() < density})
    return frames


@pytest.fixture(scope="module")
def frames_file(tmp_path_factory):
    """random_frames() as mp_pcd8544.py reads them: a line a frame, "xxyy" a pixel."""
    path = tmp_path_factory.mktemp("frames") / "frames.txt"
    lines = ("".join("%02x%02x" % p for p in sorted(frame)) for frame in random_frames())
    path.write_text("\n".join(lines) + "\n")
    return path


def steps(mp_output, scene):
    """[(label, recording bytes)] that check test_scene_<scene> printed."""
    found = []
    for line in mp_output.check("test_scene_" + scene).splitlines():
        tag, label_and_hex = line.split(" ", 1)
        label, hexed = (
            label_and_hex.rsplit(" ", 1) if " " in label_and_hex else (label_and_hex, "")
        )
        assert tag == "STEP", line
        found.append((label, fakebus.unhexlify(hexed) if hexed else b""))
    return found


def shows(model, expected, tmp_path, name):
    """Assert the glass shows exactly `expected` (a set of (x, y)); on failure save a PNG."""
    dark = model.dark_pixels()
    if dark != expected:
        png = lcd_render.save_png(model, tmp_path / (name + ".png"))
        raise AssertionError(
            "%s: glass differs: missing %s, extra %s; picture: %s\n%s"
            % (
                name,
                sorted(expected - dark)[:10],
                sorted(dark - expected)[:10],
                png,
                lcd_render.text(model),
            )
        )


class mp_pcd8544(mpcheck.Script):
    """The driver's checks on MicroPython; each scene it draws there, the model replays here."""

    heapsize = "256k"
    args = (mpcheck.fixture("frames_file"),) + INIT_OPTIONS  # see mp_pcd8544.py

    @pytest.mark.parametrize("options", INIT_OPTIONS)
    def test_init_leaves_a_blank_normal_display_and_no_anomaly(self, mp_output, options):
        label = ("init " + options).strip()  # as test_scene_init labels the option set
        (raw,) = [raw for name, raw in steps(mp_output, "init") if name == label]
        model = pm.Model().feed(raw)
        assert model.anomalies == [], model.anomalies
        assert model.initialised and not model.powered_down and model.mode == pm.NORMAL
        assert model.unwritten == 0, "the RAM must be cleared: reset leaves noise"
        assert model.dark_pixels() == set() and model.ignored == 0
        expected = dict(contrast=60, bias=4, tc=0)
        expected.update((k, int(v)) for k, v in (o.split("=") for o in options.split()))
        got = dict(contrast=model.vop, bias=model.bias, tc=model.tc)
        assert got == {key: expected[key] for key in got}
        events = fakebus.decode(raw)
        pins = {e[1] for e in events if e[0] == "pin"}
        if "rst=0" not in options:
            assert model.resets == 1
            first_spi = next(i for i, e in enumerate(events) if e[0] == "spi")
            rst_levels = [e[2] for e in events[:first_spi] if e[:2] == ("pin", "rst")]
            assert rst_levels == [1, 0, 1], "RES must be pulsed low before the first byte"
        else:
            assert "rst" not in pins
        if "cs=0" not in options:
            assert [e for e in events if e[:2] == ("pin", "cs")][-1][2] == 1, "SCE left low"

    def test_random_pixel_sets_round_trip_through_bus_and_model(self, mp_output, tmp_path):
        # Every pixel where drawn, exactly, in every frame: the corners, whole rows and
        # columns among them (text and shapes are framebuf's; the golden frame holds them).
        frames = random_frames()
        model = pm.Model(cs=None)
        shown = 0
        for label, raw in steps(mp_output, "pixels"):
            model.feed(raw)
            if label == "frame":
                shows(model, frames[shown], tmp_path, "random-%d" % shown)
                shown += 1
        assert shown == len(frames) and model.anomalies == []

    def test_inverse_power_down_and_contrast_as_the_datasheet_says(self, mp_output, tmp_path):
        left = {(x, y) for x in range(42) for y in range(48)}
        right = {(x, y) for x in range(42, 84) for y in range(48)}
        model = pm.Model()
        seen = []
        for label, raw in steps(mp_output, "modes"):
            model.feed(raw)
            seen.append(label)
            if label in ("picture", "normal", "on"):
                assert model.mode == pm.NORMAL and not model.powered_down
                shows(model, left, tmp_path, label)
            elif label == "inverse":
                assert model.mode == pm.INVERSE
                shows(model, right, tmp_path, label)
                assert model.ram_pixel(0, 0) == 1, "inverse must not touch the RAM"
            elif label in ("off", "contrast while off"):
                assert model.powered_down
                shows(model, set(), tmp_path, label)
                assert model.ram_pixel(41, 47) == 1 and model.ram_pixel(42, 47) == 0
            if label == "contrast while off":
                assert model.vop == 33 and model.h == 0
            elif label == "contrast then show":
                assert model.vop == 70 and model.h == 0
                shows(model, {(10, 10)}, tmp_path, label)
        assert seen == ["picture", "inverse", "normal", "off", "contrast while off", "on"] + [
            "contrast then show"
        ]
        assert model.anomalies == []

    def test_golden_test_frame(self, mp_output, tmp_path):
        ((label, raw),) = steps(mp_output, "golden")
        model = pm.Model().feed(raw)
        assert model.anomalies == []
        snap = (model.glass(), model.backlight, model.vop if model.showing else None)
        goldens.check("pcd8544_test_frame", snap, tmp_path)
