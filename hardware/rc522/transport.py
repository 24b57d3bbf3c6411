"""Register access to one MFRC522, built on the ``mfrc522`` package.

The package's ``MFRC522`` class gives the register map (``CommandReg`` …),
the command codes and ``Read_MFRC522``/``Write_MFRC522``.  Three things in it
are unfit for a table of many readers, so :class:`Mfrc522Transport` replaces
them:

* its ``__init__`` opens ``spidev`` itself and sets up the reset pin through
  ``RPi.GPIO`` (which fails off a Pi and on a Pi 5 without ``rpi-lgpio``):
  here the SPI device is *given* (``spidev`` on a Pi, the emulator in tests)
  and the reset line is a gpiozero device (any pin factory, MockFactory in tests);
* its ``Close_MFRC522`` calls the global ``GPIO.cleanup()``, releasing every
  pin of the process: here closing releases only this reader's own pins;
* it reads one register per SPI transaction: here several registers are read
  in one transaction (the chip takes a stream of addresses) and the FIFO is
  written in one burst.

Importing ``mfrc522`` imports ``RPi.GPIO`` at module level; :func:`mfrc522_class`
imports it with a stand-in in place of ``RPi.GPIO`` that refuses every call, so
the package's own GPIO code can never run in this process.
"""
from __future__ import annotations

import sys
import time
import types

_MFRC522 = None


def _refusing_gpio() -> types.ModuleType:
    module = types.ModuleType("RPi.GPIO")

    def refuse(name):
        def call(*args, **kwargs):
            raise RuntimeError(f"RPi.GPIO.{name}() called: the companion drives pins through gpiozero only")
        return call

    for name in ("setmode", "getmode", "setup", "output", "input", "cleanup", "setwarnings"):
        setattr(module, name, refuse(name))
    module.BCM, module.BOARD, module.OUT, module.IN = 11, 10, 0, 1
    return module


def mfrc522_class():
    """The ``mfrc522.MFRC522.MFRC522`` class, importable on any machine."""
    global _MFRC522
    if _MFRC522 is not None:
        return _MFRC522
    saved = {name: sys.modules.get(name) for name in ("RPi", "RPi.GPIO", "spidev")}
    rpi = types.ModuleType("RPi")
    rpi.GPIO = _refusing_gpio()
    sys.modules["RPi"], sys.modules["RPi.GPIO"] = rpi, rpi.GPIO
    if saved["spidev"] is None:
        try:
            import spidev  # noqa: F401  (only to know whether it exists)
        except ImportError:
            sys.modules["spidev"] = types.ModuleType("spidev")
    try:
        from mfrc522.MFRC522 import MFRC522
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    _MFRC522 = MFRC522
    return MFRC522


class Mfrc522Transport(mfrc522_class()):
    """One reader's SPI device and reset line, with the ``mfrc522`` register map.

    ``spi`` needs ``xfer2(list) -> list`` and ``close()``.  ``reset`` is a
    gpiozero ``DigitalOutputDevice`` (high = running) or None; with
    ``own_reset`` the transport closes it on :meth:`close` (a reset line shared
    by several readers is owned by whoever built them).  ``sleep`` waits so
    many seconds: ``time.sleep`` on a Pi, the emulator's modelled clock in tests.
    """

    def __init__(self, spi, reset=None, own_reset: bool = False, sleep=time.sleep, name: str = "reader",
                 chip_select=None):
        # Deliberately not calling MFRC522.__init__: it opens spidev and RPi.GPIO itself.
        self.spi = spi
        self.reset = reset
        self.own_reset = own_reset
        self.chip_select = chip_select        # gpiozero device for a GPIO chip select (active low), or None
        self._sleep = sleep
        self.name = name
        self.transactions = 0
        self.closed = False

    # -- register access (the five operations hardware.rc522.pcd needs) --------------------
    def _xfer(self, data: list[int]) -> list[int]:
        self.transactions += 1
        if self.chip_select is None:
            return self.spi.xfer2(data)
        self.chip_select.on()                 # active_high=False: on() pulls the line low
        try:
            return self.spi.xfer2(data)
        finally:
            self.chip_select.off()

    def Write_MFRC522(self, addr, val):       # noqa: N802 (the package's name)
        self._xfer([(addr << 1) & 0x7E, val])

    def Read_MFRC522(self, addr):             # noqa: N802
        return self._xfer([((addr << 1) & 0x7E) | 0x80, 0])[1]

    def write(self, reg: int, value: int) -> None:
        self.Write_MFRC522(reg, value)

    def write_fifo(self, data: bytes) -> None:
        self._xfer([(self.FIFODataReg << 1) & 0x7E, *data])

    def read_regs(self, regs: list[int]) -> list[int]:
        """Several registers in one transaction: the chip answers each address byte with the previous one's value."""
        return self._xfer([((r << 1) & 0x7E) | 0x80 for r in regs] + [0])[1:]

    def sleep_us(self, us: float) -> None:
        self._sleep(us / 1e6)

    def hard_reset(self) -> None:
        """Hold RST low for 100 µs, release it and give the oscillator time to start."""
        if self.reset is None:
            self.write(self.CommandReg, self.PCD_RESETPHASE)
        else:
            self.reset.off()
            self._sleep(100e-6)
            self.reset.on()
        self._sleep(5e-3)

    # -- closing --------------------------------------------------------------------------
    def Close_MFRC522(self):                  # noqa: N802 (the package's name; its version calls GPIO.cleanup())
        self.close()

    def close(self) -> None:
        """Release this reader's SPI device and its own pins, and nothing else."""
        if self.closed:
            return
        self.closed = True
        try:
            self.spi.close()
        finally:
            if self.own_reset and self.reset is not None:
                self.reset.close()
            if self.chip_select is not None:
                self.chip_select.close()


def open_spidev(bus: int, device: int, speed_hz: int = 4_000_000, no_cs: bool = False):
    """A ``spidev.SpiDev`` on /dev/spidev<bus>.<device>; raises OSError when SPI is not there."""
    import spidev
    spi = spidev.SpiDev()
    spi.open(bus, device)
    spi.max_speed_hz = speed_hz
    spi.mode = 0
    if no_cs:
        spi.no_cs = True
    return spi
