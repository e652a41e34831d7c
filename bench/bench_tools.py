"""Figures for the simulator and deploy (make bench): key-to-frame latency, idle CPU, deploy.

- Simulator: a press (button down now, up 80 ms later) until the terminal has a new frame,
  measured in-process (the same Simulator `make play` runs, drawing into a string).
- Idle CPU: the firmware and the front end on the title screen for 5 s, from /proc (Linux).
- Deploy: `tools/deploy.py deploy --board pico` to the virtual board (compile, copy, reset) until
  the board runs main.py again.
"""

import io
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import benchkit
import simulator
import virtualboard
from benchkit import ROOT


def cpu_seconds(pid):
    fields = Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def settle(sim, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sim.pump(0.05)


def bench_simulator(flash):
    sim = simulator.Simulator(flash=flash, clear=False)
    sim.screen.out = io.StringIO()
    sim.start()
    try:
        settle(sim, 2.5)
        mp0, me0, t0 = cpu_seconds(sim.proc.pid), time.process_time(), time.monotonic()
        settle(sim, 5)
        wall = time.monotonic() - t0
        mp = (cpu_seconds(sim.proc.pid) - mp0) / wall * 100
        me = (time.process_time() - me0) / wall * 100
        latencies = []
        for i in range(9):
            before, start = sim.screen.frames, time.monotonic()
            sim.buttons.press("NEXT" if i else "SELECT")  # the first press opens the menu
            while sim.screen.frames == before and time.monotonic() - start < 2:
                sim.pump(0.002)
            latencies.append((time.monotonic() - start) * 1000)
            settle(sim, 0.3)
    finally:
        sim.stop()
    latencies.sort()
    print(
        "simulator: key to new frame %.0f ms median (%.0f..%.0f, %d presses); idle CPU on the "
        "title: firmware %.1f%%, front end %.1f%%"
        % (latencies[len(latencies) // 2], latencies[0], latencies[-1], len(latencies), mp, me)
    )


def bench_deploy(flash):
    events = []
    board = virtualboard.VirtualBoard(flash, log=events.append)
    thread = threading.Thread(target=board.serve, daemon=True)
    thread.start()
    try:
        start = time.monotonic()
        subprocess.run(
            [sys.executable, str(ROOT / "tools/deploy.py"), "deploy", "--board", "pico"]
            + ["--port", board.port],
            check=True,
            capture_output=True,
        )
        while events[-1:] != ["running main.py"] and time.monotonic() - start < 30:
            time.sleep(0.01)
        took = time.monotonic() - start
    finally:
        board.stop()
        thread.join(5)
        board.close()
    size = sum(p.stat().st_size for p in Path(flash).iterdir())
    print(
        "deploy: %.1f s to the virtual board (mpy-cross, mpremote copy, reset, main.py running); "
        "%d files, %d bytes on its flash after boot"
        % (took, len(list(Path(flash).iterdir())), size)
    )


def main():
    with benchkit.workdir() as tmp:
        bench_simulator(tmp / "sim")
        bench_deploy(tmp / "board")


if __name__ == "__main__":
    main()
