# Driver for the PCD8544 LCD controller (Nokia 5110 display, 84x48 pixels) on an SPI bus.
# SPDX-License-Identifier: MIT
import time

import framebuf
from micropython import const
from valid import int_in

# Facts from the Philips PCD8544 datasheet (1999). The serial interface reads a byte MSB first,
# only while SCE is low, and D/C with its last bit: 0 = command, 1 = data (SPI mode 0, 4 Mbit/s).

# Function set, either instruction set: 0010 0 PD V H
_FUNCTION_SET = const(0x20)
_POWER_DOWN = const(0x04)  # PD: oscillator and LCD voltage off, RAM kept
_VERTICAL = const(0x02)  # V: Y auto-increments first (this driver uses horizontal, V=0)
_EXTENDED = const(0x01)  # H: the next commands use the extended instruction set

# Basic instruction set (H=0)
_DISPLAY_BLANK = const(0x08)  # display control 0000 1D0E: D,E = 00 blank
_DISPLAY_NORMAL = const(0x0C)  # 10 normal
_DISPLAY_ALL_ON = const(0x09)  # 01 all segments on
_DISPLAY_INVERSE = const(0x0D)  # 11 inverse video
_SET_Y = const(0x40)  # 0100 0yyy: bank 0..5
_SET_X = const(0x80)  # 1xxx xxxx: column 0..83

# Extended instruction set (H=1)
_TEMP_COEFF = const(0x04)  # 0000 01tt: temperature coefficient TC 0..3
_BIAS = const(0x10)  # 0001 0bbb: bias system BS 0..7 (mux rate 1:48 for BS=3)
_SET_VOP = const(0x80)  # 1vvv vvvv: VLCD = 3.06 V + Vop * 0.06 V

WIDTH = const(84)
HEIGHT = const(48)

# After reset: PD=1, H=0, display blank, Vop=0. The three zeroed bytes get Vop, TC and BS.
_INIT = const(
    (
        _FUNCTION_SET | _EXTENDED,  # 0x21 power up (PD=0), horizontal addressing, extended set
        _SET_VOP,  # 0x80|Vop operating voltage: the contrast
        _TEMP_COEFF,  # 0x04|TC temperature coefficient
        _BIAS,  # 0x10|BS bias system
        _FUNCTION_SET,  # 0x20 back to the basic set (0x80|n means "set X" again)
        _DISPLAY_NORMAL,  # 0x0C normal display mode
    )
)
# _SET_X | 0, _SET_Y | 0 (basic set): the frame starts at the top left
_HOME = const(b"\x80\x40")


class PCD8544(framebuf.FrameBuffer):
    """An 84x48 MONO_VLSB frame buffer that show() copies to a PCD8544.

    `spi` is a configured bus (mode 0, at most 4 MHz; the driver never sets its speed); `dc`,
    and the optional `cs` (SCE), `rst` (RES) and `backlight` are output Pins. `contrast` is Vop
    0..127 (VLCD = 3.06 V + 0.06 V * Vop; Nokia 5110 modules show well at about 40..72; the
    generator is specified up to 8.5 V, Vop 90), `bias` 0..7, `tc` 0..3. `backlight_on` is the
    backlight pin level that lights it (modules differ). Raises ValueError for values outside
    these ranges. The backlight pin is left as the caller set it up until backlight() is called.
    """

    width = WIDTH
    height = HEIGHT

    def __init__(
        self, spi, dc, cs=None, rst=None, backlight=None, contrast=60, bias=4, tc=0, backlight_on=1
    ):
        self._spi = spi
        self._dc = dc
        self._cs = cs
        self._rst = rst
        self._light = backlight
        self._light_on = 1 if backlight_on else 0
        self._init = bytearray(_INIT)
        self._init[1] |= int_in("contrast", contrast, 0, 127)
        self._init[2] |= int_in("tc", tc, 0, 3)
        self._init[3] |= int_in("bias", bias, 0, 7)
        self._one = bytearray(1)  # command buffers made once: no allocation later
        self._three = bytearray(3)
        self.buffer = bytearray(WIDTH * HEIGHT // 8)
        super().__init__(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self.init()

    def init(self):
        """Reset (if there is a RES pin), set up the controller and show the buffer.

        Call it again to recover a display that lost power: the picture in the buffer is sent
        again (inverse video and power-down are reset to normal and on).
        """
        if self._cs is not None:
            self._cs(1)
        if self._rst is not None:
            # The datasheet wants a RES low pulse of at least 100 ns after power-on, else the
            # state is undefined; 1 ms is the shortest sleep every port offers.
            self._rst(0)
            time.sleep_ms(1)
            self._rst(1)
        self._command(self._init)
        self._function = _FUNCTION_SET
        # Reset does not clear the RAM (datasheet): this write replaces the noise.
        self.show()

    def _command(self, buf):
        self._dc(0)
        if self._cs is None:
            self._spi.write(buf)
        else:
            self._cs(0)
            self._spi.write(buf)
            self._cs(1)

    def show(self):
        """Send the frame buffer: address 0,0 then 504 data bytes, in two SPI writes."""
        cs = self._cs
        if cs is not None:
            cs(0)
        self._dc(0)
        self._spi.write(_HOME)
        self._dc(1)
        self._spi.write(self.buffer)
        if cs is not None:
            cs(1)

    def _set(self, command):
        self._one[0] = command
        self._command(self._one)

    def contrast(self, value):
        """Set Vop 0..127 (ValueError outside); the display keeps showing its picture."""
        vop = int_in("contrast", value, 0, 127)
        cmd = self._three
        cmd[0] = self._function | _EXTENDED
        cmd[1] = _SET_VOP | vop
        # Back to H=0 at once: with H=1 the next "set X" (0x80|x) would set Vop instead.
        cmd[2] = self._function
        self._command(cmd)

    def invert(self, on):
        """Inverse video on or off (display control D=1, E=1); the RAM is unchanged."""
        self._set(_DISPLAY_INVERSE if on else _DISPLAY_NORMAL)

    def power_off(self):
        """Power down (PD=1): the glass goes blank, the controller keeps its RAM."""
        self._function = _FUNCTION_SET | _POWER_DOWN
        self._set(self._function)

    def power_on(self):
        """Leave power-down: the picture in the controller's RAM shows again."""
        self._function = _FUNCTION_SET
        self._set(self._function)

    def backlight(self, on):
        """Backlight on or off; does nothing without a backlight pin."""
        if self._light is not None:
            self._light(self._light_on if on else 1 - self._light_on)
