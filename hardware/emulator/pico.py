"""The reader bridge's Pico, emulated: its SPI bus of RC522s, and the firmware on it.

:class:`MicroPythonBoard` runs the firmware on a real MicroPython (the
WebAssembly port, under node) and answers its SPI transfers from emulated
RC522s: the firmware's tests use it.  :class:`EmulatedBridgeBoard` runs the
same ``bridge.py`` under CPython with stand-ins for ``machine.SPI`` and
``machine.Pin``, for ``companion doctor --emulate``, which must not need node.
:func:`load_firmware` imports ``firmware_config/bridge/bridge.py`` with the
host's copies of the files that go onto the Pico beside it (``pcd``,
``protocol``, ``ntag``).  :class:`PicoSPI` hands each transfer to the emulated
RC522 whose chip-select pin is low, as the real bus does.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from hardware import ntag
from hardware.bridge import protocol
from hardware.emulator.chip import RP2040_TRANSFER_S, EmulatedRC522, ModelClock
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

    def __init__(self, channels: int = 16, write=None, clock: ModelClock | None = None, fields: str | None = None):
        self.clock = clock or ModelClock()
        self.reset = ResetPin(20)
        self.cs = [Pin(n) for n in range(channels)]
        self.chips = [EmulatedRC522(self.clock, reset_pin=self.reset, host_overhead=RP2040_TRANSFER_S)
                      for _ in range(channels)]
        self.spi = PicoSPI(dict(zip(self.cs, self.chips)))
        self.lines: list[str] = []
        firmware = load_firmware()
        self.bridge = firmware.Bridge(self.spi, self.cs, self.reset, write or self.lines.append,
                                      lambda us: self.clock.sleep(us / 1e6), fields=fields or pinmap_fields(),
                                      ticks_us=lambda: int(self.clock.now * 1e6))


def pinmap_fields() -> str:
    """What the shipped firmware does with the fields: ``FIELDS`` of firmware_config/bridge/pinmap.py."""
    import re
    found = re.search(r'^FIELDS = "(\w+)"', (FIRMWARE_DIR / "pinmap.py").read_text(), re.M)
    return found.group(1) if found else "on"


# -- the firmware under a real MicroPython ----------------------------------------------------------------

REPO = Path(__file__).resolve().parents[2]
MICROPYTHON_DIR = REPO / ".micropython"          # companion/bootstrap.py installs the npm package here
MICROPYTHON_MJS = MICROPYTHON_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
RUNNER = REPO / "hardware" / "bridge" / "micropython" / "run.mjs"
FIRMWARE_FILES = [REPO / "hardware" / "rc522" / "pcd.py", REPO / "hardware" / "bridge" / "protocol.py",
                  REPO / "hardware" / "ntag.py"] + [FIRMWARE_DIR / n for n in ("bridge.py", "pinmap.py", "main.py")]


def micropython_available() -> str | None:
    """None when node and the MicroPython WebAssembly package are installed, else what is missing."""
    import shutil
    if shutil.which("node") is None:
        return "node is not installed (Debian package nodejs; companion/bootstrap.py installs it)"
    if not MICROPYTHON_MJS.exists():
        return f"MicroPython's WebAssembly port is not installed in {MICROPYTHON_DIR} (companion/bootstrap.py)"
    return None


USB_TX_BUFSIZE = 256       # CFG_TUD_CDC_TX_BUFSIZE of MicroPython's TinyUSB config at full speed
CDC_TX_TIMEOUT_S = 0.5     # MICROPY_HW_USB_CDC_TX_TIMEOUT of the rp2 port, as the issue measured it
UPDATE_GP = 22             # firmware_config/bridge/pinmap.py UPDATE_PIN


class MicroPythonBoard:
    """A Pico running the bridge firmware on a real MicroPython, with ``channels`` emulated RC522s.

    The firmware files are copied onto the board as ``mpremote`` would copy them
    and ``main.py`` runs; ``node`` hosts MicroPython's WebAssembly port, and its
    ``machine`` stand-in (``hardware/bridge/micropython/``) sends every pin
    change and SPI transfer here, where the chip whose chip select is low
    answers (:class:`PicoSPI`).  Between two calls of :meth:`run_until` the
    firmware waits inside an SPI transfer, so a test changes the table (places
    tags, kills a reader) while the Pico is stopped mid-poll, as on a real table.

    The watchdog is modelled: ``machine.WDT(timeout=ms)`` arms it, ``feed()``
    rearms it, and when modelled time passes the timeout without a feed the
    board restarts (MicroPython starts afresh and runs ``main.py``).  At the
    restart the RP2040's pins fall back to inputs with pull-downs, so the shared
    RST line goes low and every reader is reset too.  :meth:`stall` makes the
    next SPI transfer hang (a wedged SPI block) for that long.
    """

    def __init__(self, channels: int = 16, clock: ModelClock | None = None, cs_pins=None, reset_gp: int = 20,
                 files=None):
        missing = micropython_available()
        if missing:
            raise RuntimeError(missing)
        self.clock = clock or ModelClock()
        self.files = list(files or FIRMWARE_FILES)
        self.reset = ResetPin(reset_gp, value=0)
        cs_numbers = list(cs_pins if cs_pins is not None else range(channels))
        self.cs = {n: Pin(n) for n in cs_numbers}
        self.chips = [EmulatedRC522(self.clock, reset_pin=self.reset, host_overhead=RP2040_TRANSFER_S)
                      for _ in cs_numbers]
        self.spi = PicoSPI({self.cs[n]: chip for n, chip in zip(cs_numbers, self.chips)})
        self.raw_lines: list[bytes] = []    # every line the firmware wrote, as bytes
        self.lines: list[str] = []          # the same, as text
        self.boots = 0
        self.exits: list[str] = []          # tracebacks of MicroPython stopping (main.py raised or returned)
        self.transfers = 0
        self.inputs: dict[int, int] = {}    # input pins held to a level (a jumper to GND: 0); else pulled up
        self.host_reading = True            # the host reads the port (False: open, but not read)
        self.usb_room = USB_TX_BUFSIZE      # bytes free in the CDC TX buffer
        self._usb_fifo: list[bytes] = []    # lines waiting in that buffer for the host to read
        self.cdc_timeouts = 0               # writes that waited MicroPython's CDC TX timeout
        self.at_repl = False                # main.py returned on purpose (update mode): MicroPython waits
        self._proc = None
        self._stall_s = 0.0
        self._bus_errors = 0
        self._boot()

    # -- the board ---------------------------------------------------------------------------------
    def _boot(self) -> None:
        import subprocess
        self._kill()
        self.boots += 1
        self.wdt_timeout_s: float | None = None
        self.last_feed = self.clock.now
        for pin in self.cs.values():
            pin.value(0)                     # RP2040 pins come up as inputs with pull-downs
        self.reset.value(0)
        self._proc = subprocess.Popen(["node", str(RUNNER), MICROPYTHON_MJS.as_uri(), *map(str, self.files)],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def _kill(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
            self._proc.stdin.close()
            self._proc.stdout.close()
            self._proc = None

    def close(self) -> None:
        self._kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def stall(self, seconds: float) -> None:
        """The next SPI transfer hangs for ``seconds`` of modelled time."""
        self._stall_s = seconds

    def bus_error(self, count: int = 1) -> None:
        """The next ``count`` SPI transfers raise ``OSError(EIO)`` in the firmware (a bus error of the port)."""
        self._bus_errors = count

    # -- running ------------------------------------------------------------------------------------
    def run_until(self, done, max_messages: int = 200_000) -> None:
        """Let the firmware run until ``done()`` holds (checked after every line it writes)."""
        for _ in range(max_messages):
            if self._step() and done():
                return
        raise TimeoutError(f"the firmware did not get there in {max_messages} messages; last lines: {self.lines[-5:]}")

    def run_for(self, seconds: float, max_messages: int = 5_000_000) -> None:
        """Let the firmware run for ``seconds`` of modelled time."""
        end = self.clock.now + seconds
        for _ in range(max_messages):
            if self.clock.now >= end:
                return
            self._step()
        raise TimeoutError(f"the firmware ran {max_messages} messages and did not reach {seconds} s")

    def run_until_repl(self, max_messages: int = 200_000) -> None:
        """Run until main.py has returned on purpose (update mode)."""
        for _ in range(max_messages):
            if self.at_repl:
                return
            self._step()
        raise TimeoutError(f"the firmware did not return to the REPL; last lines: {self.lines[-5:]}")

    def run_lines(self, n: int, kind: str | None = None) -> list[str]:
        """Run until ``n`` more lines (of type ``kind``, e.g. "POLL") were written; returns the new lines."""
        start = len(self.raw_lines)
        tag = f" {kind} " if kind else " "
        count = [0]

        def enough():
            count[0] += tag in self.lines[-1]
            return count[0] >= n
        self.run_until(enough)
        return self.lines[start:]

    def _step(self) -> bool:
        """Handle one message from the board; True when it was a line of output."""
        message = self._proc.stdout.readline()
        if not message:
            raise RuntimeError(f"MicroPython ended without a word; last lines: {self.lines[-5:]}")
        code, _, arg = message.decode().rstrip("\n").partition(" ")
        if code == "S":
            self.transfers += 1
            if self._stall_s:
                self.clock.sleep(self._stall_s)
                self._stall_s = 0.0
            if self._watchdog_fired():
                return False
            if self._bus_errors:
                self._bus_errors -= 1
                self._proc.stdin.write(b"!5\n")
                self._proc.stdin.flush()
                return False
            tx = bytes.fromhex(arg)
            rx = bytearray(len(tx))
            self.spi.write_readinto(tx, rx)
            self._proc.stdin.write(rx.hex().encode() + b"\n")
            self._proc.stdin.flush()
        elif code == "P":
            number, level = map(int, arg.split())
            pin = self.reset if number == self.reset.number else self.cs.get(number)
            if pin is not None:
                pin.value(level)
        elif code == "T":
            self.clock.sleep(int(arg) / 1e6)
            self._watchdog_fired()
        elif code == "D":
            self.wdt_timeout_s = int(arg) / 1000
            self.last_feed = self.clock.now
        elif code == "W":
            self.last_feed = self.clock.now
        elif code == "I":
            self._answer(str(self.inputs.get(int(arg), 1)))
        elif code == "C":
            self._answer(str(int(self.clock.now * 1e6)))
            self._watchdog_fired()
        elif code == "U":
            self._answer("1" if self.host_reading or self.usb_room > 0 else "0")
        elif code == "O":
            return self._usb_write(bytes.fromhex(arg))
        elif code == "E":
            self.exits.append(bytes.fromhex(arg).decode("utf-8", "replace"))
            if self.lines and self.lines[-1].split(" ")[1:2] == ["HELLO"] and " update " in self.lines[-1]:
                self.at_repl = True                    # update mode: at the REPL, no watchdog, for mpremote
                return False
            if self.wdt_timeout_s is None:
                raise RuntimeError(f"MicroPython stopped and no watchdog restarts it:\n{self.exits[-1]}")
            self.clock.sleep(self.wdt_timeout_s)       # sitting at the REPL until the watchdog bites
            self._boot()
        elif code == "R":
            self._boot()
        return False

    def _answer(self, text: str) -> None:
        self._proc.stdin.write(text.encode() + b"\n")
        self._proc.stdin.flush()

    def _usb_write(self, raw: bytes) -> bool:
        """A line written to USB serial: to the host, or into the CDC buffer while the host does not read.

        MicroPython waits up to its CDC TX timeout for room (mp_usbd_cdc_tx_strn), then writes what fits."""
        if self.host_reading:
            self._deliver(raw)
            return True
        if len(raw) > self.usb_room:
            self.cdc_timeouts += 1
            self.clock.sleep(CDC_TX_TIMEOUT_S)
            raw = raw[:self.usb_room]
        self.usb_room -= len(raw)
        if raw:
            self._usb_fifo.append(raw)
        self._watchdog_fired()
        return False

    def _deliver(self, raw: bytes) -> None:
        self.raw_lines.append(raw)
        self.lines.append(raw.decode("utf-8", "replace"))

    def stop_reading(self) -> None:
        """The host keeps the port open but stops reading it."""
        self.host_reading = False

    def resume_reading(self) -> None:
        """The host reads again: what waited in the CDC buffer arrives first."""
        for raw in self._usb_fifo:
            self._deliver(raw)
        self._usb_fifo.clear()
        self.usb_room = USB_TX_BUFSIZE
        self.host_reading = True

    def hold_update_pin(self, low: bool = True) -> None:
        """A jumper from the update pin (GP22) to GND, read by the firmware at boot."""
        self.inputs[UPDATE_GP] = 0 if low else 1

    def press_run(self) -> None:
        """Press RUN (or unplug and plug USB): MicroPython starts afresh with the files on the board."""
        self.at_repl = False
        self._boot()

    def _watchdog_fired(self) -> bool:
        if self.wdt_timeout_s is not None and self.clock.now - self.last_feed > self.wdt_timeout_s:
            self._boot()
            return True
        return False
