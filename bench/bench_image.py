"""Figures for `make image` (make bench): each board's image sizes, build time, free space.

The filesystem images only: a MicroPython release cannot be downloaded here, and merging adds
its bytes unchanged (its own size, plus the 0xFF gap up to the filesystem on the ESP32).
"""

import benchkit
import image

RUNS = 3


def bench(board):
    made, took = benchkit.mean_s(lambda: image.make(board), RUNS)
    fs = made.fs
    for path, data in made.files.items():
        print("  %-24s %5d KB" % (path.name, len(data) // 1024))
    used, free = fs.used_blocks * 4, fs.free_bytes // 1024
    share = 100 * fs.free_bytes / (fs.block_count * 4096)
    blocks = "%d blocks of 4 KB" % fs.block_count
    print(f"  filesystem: {blocks}; the game uses {used} KB, {free} KB free ({share:.0f} %)")
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
