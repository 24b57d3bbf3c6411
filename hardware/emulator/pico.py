"""Stand-ins for MicroPython's ``machine.SPI`` and ``machine.Pin``, so the bridge firmware runs under CPython.

:func:`load_firmware` imports ``firmware_config/bridge/bridge.py`` with the
host's copies of the two files that go onto the Pico beside it (``pcd`` and
``protocol``).  :class:`PicoSPI` hands each transfer to the emulated RC522
whose chip-select pin is low, as the real bus does.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from hardware import ntag
from hardware.bridge import protocol
from hardware.emulator.chip import EmulatedRC522, ModelClock
from hardware.rc522 import pcd

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware_config" / "bridge"


class Pin:
    """``machine.Pin``: an output whose level the SPI stand-in and the emulator read."""

    OUT, IN = 1, 0

    def __init__(self, number: int, mode: int = OUT, value: int = 1):
        self.number = number
        self.level = value
        self.history = [value]

    def value(self, level: int | None = None):
        if level is None:
            return self.level
        self.level = 1 if level else 0
        self.history.append(self.level)


class ResetPin(Pin):
    """The RST line: the emulated chips watch it through the same interface as a gpiozero MockPin."""

    function = "output"

    @property
    def state(self) -> bool:
        return bool(self.level)

    @property
    def states(self):
        from types import SimpleNamespace
        return [SimpleNamespace(state=bool(v)) for v in self.history]


class PicoSPI:
    """``machine.SPI``: ``write_readinto`` goes to whichever chip has its chip select low."""

    def __init__(self, chips_by_cs: dict[Pin, EmulatedRC522]):
        self.chips_by_cs = chips_by_cs

    def write_readinto(self, tx: bytes, rx: bytearray) -> None:
        selected = [chip for pin, chip in self.chips_by_cs.items() if pin.level == 0]
        out = [0] * len(tx)                 # nobody drives MISO: reads as zeros (pull-down)
        for chip in selected:               # two selected chips fight over MISO: the wired-OR of both
            out = [a | b for a, b in zip(out, chip.xfer2(list(tx)))]
        if any(c.faults.holds_miso for pin, c in self.chips_by_cs.items() if pin.level == 1):
            out = [0xFF] * len(tx)          # a deselected RC522 still driving MISO high wins the line
        rx[:] = bytes(out)


def load_firmware():
    """The firmware's ``bridge`` module, importable under CPython."""
    saved = {name: sys.modules.get(name) for name in ("pcd", "protocol", "ntag")}
    sys.modules["pcd"], sys.modules["protocol"], sys.modules["ntag"] = pcd, protocol, ntag
    try:
        spec = importlib.util.spec_from_file_location("bridge_firmware", FIRMWARE_DIR / "bridge.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        for name, module_before in saved.items():
            if module_before is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module_before
    return module


class EmulatedBridgeBoard:
    """A Pico with ``channels`` emulated RC522s on one bus and a shared reset line, running the firmware."""

    def __init__(self, channels: int = 16, write=None, clock: ModelClock | None = None):
        self.clock = clock or ModelClock()
        self.reset = ResetPin(20)
        self.cs = [Pin(n) for n in range(channels)]
        self.chips = [EmulatedRC522(self.clock, reset_pin=self.reset) for _ in range(channels)]
        self.spi = PicoSPI(dict(zip(self.cs, self.chips)))
        self.lines: list[str] = []
        firmware = load_firmware()
        self.bridge = firmware.Bridge(self.spi, self.cs, self.reset, write or self.lines.append,
                                      lambda us: self.clock.sleep(us / 1e6))
