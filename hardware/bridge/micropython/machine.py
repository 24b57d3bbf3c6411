"""``machine`` for the bridge firmware running on MicroPython's WebAssembly port in the test suite.

Same names and arguments as MicroPython's rp2 port (docs.micropython.org,
``machine.Pin``, ``machine.SPI``, ``machine.WDT``), but every pin change,
transfer and watchdog call goes to the RC522 emulator in the host process
(``hardware/emulator/pico.py``) through ``run.mjs``.
"""
import js


class Pin:
    OUT = 1
    IN = 0
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self._level = 0
        if value is not None:
            self.value(value)

    def value(self, level=None):
        if level is None:
            if self.mode == Pin.IN:             # an input: its level is the board's (a jumper to GND or not)
                return int(js.picoCall("I %d" % self.id))
            return self._level
        self._level = 1 if level else 0
        js.picoSend("P %d %d" % (self.id, self._level))

    def __call__(self, level=None):
        return self.value(level)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class SPI:
    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0, sck=None, mosi=None,
                 miso=None):
        if id not in (0, 1):
            raise ValueError("SPI(%d) doesn't exist" % id)
        self.baudrate = baudrate

    def write_readinto(self, write_buf, read_buf):
        if len(write_buf) != len(read_buf):
            raise ValueError("buffers must be the same length")
        reply = js.picoCall("S " + "".join("%02x" % b for b in write_buf))
        if reply.startswith("!"):               # the host injects a bus error, as the port raises one
            raise OSError(int(reply[1:]))
        for i in range(len(read_buf)):
            read_buf[i] = int(reply[2 * i:2 * i + 2], 16)

    def write(self, buf):
        self.write_readinto(buf, bytearray(len(buf)))


class WDT:
    def __init__(self, id=0, timeout=5000):
        if not 1 <= timeout <= 8388:        # the RP2040's watchdog counts at most 8.388 s
            raise ValueError("timeout must be between 1 and 8388 ms")
        js.picoSend("D %d" % timeout)

    def feed(self):
        js.picoSend("W")


def reset():
    js.picoCall("R")
