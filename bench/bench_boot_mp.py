# The MicroPython half of bench_boot.py: boot the firmware as deployed, from littlefs, and
# print figures. Arguments: the deployed files' folder (every module .mpy, the board file as
# board.mpy, main.py as source), a mode, and the board's port (its PORT: the fake machine then
# models that port, as the harness has it do; the rp2 board file stops its watchdog through
# registers only the rp2 model has). Modes:
#   first  stop at the first frame: its time, the files looked up and opened
#   keep   the same, listing each path looked up and opened
#   nogc   the collector off: every byte allocated up to the first frame
#   full   run 2 s, then a settings save: heap in use after boot, flash writes per save
#   heap   every import's heap cost (its own, without the modules it imports), then a press
#          to the menu and two games: the heap in use on each screen and at most while playing
# SPDX-License-Identifier: MIT
import builtins
import gc
import os
import sys
import time
from array import array

import machine
import ramdisk
import utime

source, mode, port = sys.argv[1], sys.argv[2], sys.argv[3]
machine.use_port(port)
machine.reset_state(capacity=16384)
clock = time.use(time.FakeClock())
disk = ramdisk.RAMDisk(512, 256)  # 128 KB: room for what deploy copies (34 files, 47 KB)
os.VfsLfs2.mkfs(disk)
fs = ramdisk.Counted(os.VfsLfs2(disk), keep=mode == "keep")
os.mount(fs, "/flash")
for name in os.listdir(source):
    with open(source + "/" + name, "rb") as src, open("/flash/" + name, "wb") as dst:
        dst.write(src.read())
os.chdir("/flash")
# As on a board ('', the frozen modules, /lib: rp2's and esp32's sys.path), then the host's
# stand-ins (machine, time), which a board has built in: they are found where a board finds its
# built-in machine and time, after the same look-ups ('' and /lib).
stand_ins = [p for p in sys.path if p not in ("", ".frozen")]
sys.path[:] = ["", ".frozen", "/flash/lib"] + stand_ins
fs.reset()


class Stop(BaseException):
    pass


result = {}
# Each import's own heap bytes, in the order the firmware first imports the modules; all made
# beforehand, so that counting allocates nothing the figures would include.
names = [None] * 64
own = array("i", [0] * 64)
nested = array("i", [0] * 16)  # per import in progress: the bytes its own imports took
counts = array("i", [0, 0])  # imports seen, imports in progress
real_import = builtins.__import__


def counting_import(name, *rest):
    if name in sys.modules:
        return real_import(name, *rest)
    gc.collect()
    before = gc.mem_alloc()
    at = counts[0]
    depth = counts[1]
    counts[0] = at + 1
    counts[1] = depth + 1
    names[at] = name
    nested[depth] = 0
    try:
        return real_import(name, *rest)
    finally:
        gc.collect()
        took = gc.mem_alloc() - before
        own[at] = took - nested[depth]
        counts[1] = depth
        if depth:
            nested[depth - 1] += took


# The "heap" mode's SELECT button: (ms, level). A press opens the menu; SELECT clicks (100 ms)
# start a game against the CPU and put X on the cursor's cell, which the app moves to a free
# one after each move, until the game ends; a click starts the next. 600 ms apart: the CPU's
# reply (at most a few ms here) has come.
PRESSES = []
for at in range(500, 12000, 600):
    PRESSES.append((at, 0))
    PRESSES.append((at + 100, 1))
SCREENS = ((400, "title"), (1000, "menu"), (12000, "playing"))
# The board file's pin numbers, read while it is loaded: startup.main() lets the module go once
# the board is built, and holding it here would put it back into the heap figures.
select_pin = []


def listener(target, light):
    if "first" not in result and "app" in sys.modules:
        # The app's loop sleeps right after its first frame: the first sleep with the app
        # imported ends the boot (the driver's reset pulse sleeps before it).
        result["first"] = utime.ticks_diff(utime.ticks_us(), start)
        result["allocated"] = gc.mem_alloc() - base
        result["lookups"] = fs.lookups
        result["opens"] = fs.opens
        if mode in ("first", "keep", "nogc"):
            raise Stop()
    if not select_pin and "board" in sys.modules:  # its build(): the LCD's reset pulse sleeps
        select_pin.append(sys.modules["board"].BTN_SELECT)
    while mode == "heap" and PRESSES and PRESSES[0][0] <= target:
        at, level = PRESSES.pop(0)
        clock.step_to(at)
        machine.set_level(select_pin[0], level)
    clock.step_to(target)
    machine.BUS.clear()
    if mode == "heap":
        gc.collect()
        used = gc.mem_alloc() - base
        for until, name in SCREENS:
            if clock.now < until:
                result[name] = max(result.get(name, 0), used)
                break
        if clock.now >= SCREENS[-1][0]:
            raise Stop()
    elif clock.now >= 2000:
        gc.collect()
        result["after"] = gc.mem_alloc() - base
        raise Stop()


searched = []


def noting_import(name, *rest):
    # machine and time are the host's stand-ins, loaded before the boot: a board, whose
    # machine and time are built in (and extensible), looks each up on '' and /lib (3 names
    # each) at its first import, as it does for os and json here; main.py then keeps them in
    # sys.modules, where every later import finds them.
    if (name == "machine" or name == "time") and name not in searched:
        searched.append(name)
        counts[0] += 1
    return real_import(name, *rest)


clock.listener = listener
if mode == "heap":
    builtins.__import__ = counting_import
elif mode == "keep":
    builtins.__import__ = noting_import
gc.collect()
base = gc.mem_alloc()
print("base", base)
if mode == "nogc":
    gc.disable()
start = utime.ticks_us()
try:
    import main  # noqa: F401 - main.py, source: compiled now, as a board does at every boot
except Stop:
    pass
builtins.__import__ = real_import
gc.enable()
for key in result:
    print(key, result[key])
for at in range(counts[0] if mode == "heap" else 0):
    print("import %s %d" % (names[at], own[at]))
if mode == "keep":
    print("stand_in_imports", counts[0])
    for kind, path in fs.paths[: result["lookups"] + result["opens"]]:
        print(kind, path)
if mode == "full":
    from settings import Settings

    s = Settings.load()
    before = disk.writes
    s.set("tally1", (1, 0, 0))
    s.save()
    print("flash_ops_per_save", disk.writes - before)
    print("settings_bytes", os.stat("settings.json")[6])
