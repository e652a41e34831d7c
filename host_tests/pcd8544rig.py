"""A PCD8544 on the recording bus (testbed/fakebus.py) with the usual pins, for the tests of the
model (test_pcd8544_model.py, test_pcd8544_model_wire.py)."""

import fakebus
import pcd8544_model as pm


class Rig:
    """A bus with the usual pins, and shorthands to send commands and data."""

    def __init__(self, cs=True, rst=True):
        self.bus = fakebus.Bus()
        self.spi = fakebus.SPI(self.bus)
        self.dc = fakebus.Pin(self.bus, "dc", 0)
        self.cs = fakebus.Pin(self.bus, "cs", 1) if cs else None
        self.rst = fakebus.Pin(self.bus, "rst", 1) if rst else None
        self.model = pm.Model()

    def send(self, dc, payload):
        self.dc(dc)
        if self.cs is not None:
            self.cs(0)
        self.spi.write(bytes(payload))
        if self.cs is not None:
            self.cs(1)
        return self.feed()

    def cmd(self, *codes):
        return self.send(0, codes)

    def data(self, payload):
        return self.send(1, payload)

    def reset(self):
        self.rst(0)
        self.rst(1)
        return self.feed()

    def feed(self):
        self.model.feed(self.bus.take())
        return self.model

    def start(self, vop=0x38, tc=0, bias=4):
        """The datasheet's typical start: RES pulse, extended set, Vop, TC, BS, basic, normal."""
        if self.rst is not None:
            self.reset()
        return self.cmd(0x21, 0x80 | vop, 0x04 | tc, 0x10 | bias, 0x20, 0x0C)


def started(**kw):
    rig = Rig(**kw)
    rig.start()
    return rig
