# For test_simulator: the pixels of each result word in the game's status column (framebuf),
# then the table simulator_mp sends the simulator (the firmware's font and status layout), as JSON.
import framebuf
import screens
import simulator_mp

for word in ("WIN!", "LOST", "DRAW"):
    buf = bytearray(84 * 6)
    fb = framebuf.FrameBuffer(buf, 84, 48, framebuf.MONO_VLSB)
    screens.status_text(fb, 0, word)
    dark = []
    for y in range(48):
        for x in range(84):
            if fb.pixel(x, y):
                dark.append("%d,%d" % (x, y))
    print(word, screens.STATUS_X, screens.ROW_Y[0], " ".join(dark))
print("TABLE", simulator_mp.table())
