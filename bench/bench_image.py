"""Figures for `make image` (make bench): each board's image sizes, build time, free space.

The filesystem images only: a MicroPython release cannot be downloaded here, and merging adds
its bytes unchanged (its own size, plus the 0xFF gap up to the filesystem on the ESP32).
"""

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tools")]  # as `python bench/<this file>`

import image  # noqa: E402

RUNS = 3


def bench(board):
    start = time.perf_counter()
    for _ in range(RUNS):
        made = image.make(board)
    took = (time.perf_counter() - start) / RUNS
    fs = made.fs
    for path, data in made.files.items():
        print("  %-24s %5d KB" % (path.name, len(data) // 1024))
    used = fs.used_blocks * 4
    print(
        "  filesystem: %d blocks of 4 KB; the game uses %d KB, %d KB free (%.0f %%)"
        % (
            fs.block_count,
            used,
            fs.free_bytes // 1024,
            100 * fs.free_bytes / (fs.block_count * 4096),
        )
    )
    print(
        "  build (compile with mpy-cross + littlefs + container): %.2f s (mean of %d)"
        % (took, RUNS)
    )


def main():
    print("make image: the filesystem images (nothing written)")
    for board in ("pico", "esp32"):
        print(board)
        bench(board)


if __name__ == "__main__":
    main()
