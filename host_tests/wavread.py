"""What the simulator's WAVs play (tools/simsound.py renders them): read back as samples, and as
the notes of a sound's table, for test_simsound and test_simulator."""

import array
import wave

import sound


def wav_of(path):
    """(samples as ints, frames a second) of a mono 16-bit WAV."""
    with wave.open(str(path), "rb") as f:
        assert f.getnchannels() == 1 and f.getsampwidth() == 2
        samples = array.array("h", f.readframes(f.getnframes()))
        return list(samples), f.getframerate()


def notes_of(name):
    """[(start ms, end ms, Hz)] of a table."""
    t = sound.table(name)
    out = []
    at = 0
    for i in range(0, len(t), 2):
        out.append((at, at + t[i + 1], t[i]))
        at += t[i + 1]
    return out


def pitches(samples, rate, notes, periods=8):
    """The notes of a square wave in order, each as the Hz of `notes` it plays (within 2 %,
    measured over `periods` whole periods from each rising zero crossing; a window across a
    change of note matches none): consecutive windows of one note make one entry, a run of
    windows longer than `periods` that matches no note is None."""
    rising = [i for i in range(1, len(samples)) if samples[i - 1] <= 0 < samples[i]]
    tables = sorted({hz for _, _, hz in notes if hz})
    runs = []  # [note or None, windows]
    for a, b in zip(rising, rising[periods:], strict=False):
        measured = periods * rate / (b - a)
        near = [hz for hz in tables if abs(measured - hz) <= hz * 0.02]
        note = near[0] if near else None
        if runs and runs[-1][0] == note:
            runs[-1][1] += 1
        else:
            runs.append([note, 1])
    return [note for note, windows in runs if note is not None or windows > periods]
