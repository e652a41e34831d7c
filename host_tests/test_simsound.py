"""The buzzer made audible (tools/simsound.py): a WAV per sound to a player, the bell, off."""

import io
import os
import subprocess
import sys
import time

import pytest
import simsound
import simview
from firmwaresource import assigned
from simterm import ROOT


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
    t = assigned("sound", name)
    out = []
    at = 0
    for i in range(0, len(t), 2):
        out.append((at, at + t[i + 1], t[i]))
        at += t[i + 1]
    return out


def test_render_wav_is_a_square_wave_at_each_notes_frequency(tmp_path):
    wav = tmp_path / "win.wav"
    notes = notes_of("WIN")
    simsound.render_wav([(a, hz) for a, _, hz in notes] + [(notes[-1][1], 0)], wav)
    samples, rate = wav_of(wav)
    assert rate == simsound.WAV_RATE
    assert len(samples) == round(notes[-1][1] * rate / 1000)  # 860 ms
    assert set(samples) == {0, simsound.WAV_LEVEL, -simsound.WAV_LEVEL}
    for start, end, hz in notes:
        measured = frequency(samples, rate, start + 2, end - 2)
        assert abs(measured - hz) <= hz * 0.005, (start, hz, measured)  # the rest: 0 == 0


def test_the_speaker_bell_and_off(tmp_path):
    # Bell: one bell as each sound begins (a rest inside a sound rings nothing); off: nothing.
    events = b"0 2093 32768\n100 2093 0\n140 3136 32768\n200 3136 0\n"
    for mode, bells in (("bell", 1), ("off", 0)):
        screen = simview.Screen(io.StringIO(), clear=False)
        speaker = simsound.Speaker(mode, screen)
        speaker.feed(events)
        time.sleep(simsound.SOUND_GAP_S + 0.05)
        speaker.tick()  # the sound is over
        speaker.feed(b"900 3200 32768\n906 3200 0\n")
        assert screen.out.getvalue().count("\a") == 2 * bells, mode
        speaker.close()
    with pytest.raises(ValueError, match="sound must be one of on/bell/off"):
        simsound.Speaker("loud", simview.Screen(io.StringIO()))


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
