"""The board's buzzer made audible for tools/simulator.py: each sound (what the firmware's PWM
was given: simulator_mp's b"S" frames) as a WAV to the first audio player found on PATH."""

import array
import shutil
import subprocess
import tempfile
import time
import wave
from pathlib import Path

SOUND_MODES = ("on", "bell", "off")
PLAYERS = (("paplay",), ("pw-play",), ("aplay", "-q"), ("afplay",))  # the first found on PATH
SOUND_GAP_S = 0.15  # silence this long (longer than any rest in sound.py) ends a sound
WAV_RATE = 22050
WAV_LEVEL = 6000  # of 32767: a square wave at 2-4 kHz is shrill; this is about a fifth


def find_player():
    """The command line (a tuple) of the first audio player found on PATH, or None."""
    for command in PLAYERS:
        found = shutil.which(command[0])
        if found:
            return (found,) + command[1:]
    return None


def render_wav(notes, target):
    """Write `notes` - [(ms, Hz)], each a change of the buzzer from that ms on, 0 Hz silent,
    the last entry the silence at the end - to `target` as a mono 16-bit WAV: a square wave,
    as a PWM at 50 % drives a piezo, its phase carried across notes."""
    samples = array.array("h")
    phase = 0.0
    for (_, hz), (end, _) in zip(notes, notes[1:], strict=False):
        count = round((end - notes[0][0]) * WAV_RATE / 1000) - len(samples)
        step = hz / WAV_RATE
        for _ in range(count):
            samples.append((WAV_LEVEL if phase < 0.5 else -WAV_LEVEL) if hz else 0)
            phase = (phase + step) % 1.0
    with wave.open(str(target), "wb") as out:
        out.setparams((1, 2, WAV_RATE, len(samples), "NONE", "not compressed"))  # mono, 16-bit
        out.writeframes(samples.tobytes())


class Speaker:
    """What the firmware's buzzer plays (simulator_mp's b"S" frames: "<ms> <hz> <duty>" lines),
    made audible. "on": each sound (a run of tones ended by SOUND_GAP_S of silence) is
    rendered to a WAV and handed to an audio player in the background as soon as it ends, a
    new one stopping the one still playing; without a player, "bell" instead. "bell": the
    terminal bell as each sound begins. "off": nothing."""

    def __init__(self, mode, screen):
        if mode not in SOUND_MODES:
            raise ValueError("sound must be one of %s, not %r" % ("/".join(SOUND_MODES), mode))
        self.screen = screen
        self.player = None
        if mode == "on":
            self.player = find_player()
            if self.player is None:
                mode = "bell"
                screen.note("no audio player found (paplay, pw-play, aplay, afplay): the bell")
        self.mode = mode
        self.notes = []  # the sound under way: [(ms, Hz)]
        self.quiet_since = None  # monotonic time the buzzer went silent, while a sound is open
        self.folder = None
        self.sounds = 0  # sounds finished (WAVs written)
        self.playing = None  # the player process of the last sound

    def feed(self, payload):
        for line in payload.decode().splitlines():
            ms, hz, duty = (int(v) for v in line.split())
            hz = hz if 0 < duty < 65535 else 0
            if hz and not self.notes and self.mode == "bell":
                self.screen.out.write("\a")
                self.screen.out.flush()
            if hz or self.notes:
                self.notes.append((ms, hz))
            self.quiet_since = None if hz else time.monotonic()

    def wait(self):
        """Seconds until a sound under way may be over (for pump's select), or None."""
        if self.quiet_since is None or not self.notes:
            return None
        return max(0.0, self.quiet_since + SOUND_GAP_S - time.monotonic())

    def tick(self):
        """Finish the sound under way once the buzzer has been silent for SOUND_GAP_S."""
        if self.wait() != 0.0:
            return
        notes, self.notes, self.quiet_since = self.notes, [], None
        if self.mode != "on":
            return
        if self.folder is None:
            self.folder = tempfile.TemporaryDirectory(prefix="oxo5110-sound-")
        self.sounds += 1
        wav = Path(self.folder.name) / ("sound%04d.wav" % self.sounds)
        render_wav(notes, wav)
        self.stop_playing()
        quiet = dict.fromkeys(("stdin", "stdout", "stderr"), subprocess.DEVNULL)
        self.playing = subprocess.Popen(self.player + (str(wav),), **quiet)

    def stop_playing(self):
        if self.playing is not None and self.playing.poll() is None:
            self.playing.terminate()
            self.playing.wait()
        self.playing = None

    def close(self):
        self.stop_playing()
        if self.folder is not None:
            self.folder.cleanup()
