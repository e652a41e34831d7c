"""The buzzer made audible (tools/simsound.py): a WAV per sound to a player, the bell, off."""

import io
import time

import pytest
import simsound
import simview
from wavread import notes_of, wav_of


def frequency(samples, rate, start_ms, end_ms):
    """Hz of the square wave between start_ms and end_ms: whole periods between its first and
    last rising zero crossing there; 0 if it is silent."""
    lo, hi = int(start_ms * rate / 1000), int(end_ms * rate / 1000)
    rising = [i for i in range(max(lo, 1), hi) if samples[i - 1] <= 0 < samples[i]]
    if not any(samples[lo:hi]):
        return 0
    assert len(rising) >= 2, (start_ms, end_ms, rising)
    return (len(rising) - 1) * rate / (rising[-1] - rising[0])


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
