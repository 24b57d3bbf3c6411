"""A register-level MFRC522 emulator: a fake SPI device that behaves like the chip.

:class:`EmulatedRC522` takes the same ``xfer2`` byte streams a ``spidev`` device
does and implements what the driver relies on: the 64 registers, the 64-byte
FIFO, the commands Idle, Transmit, Transceive (started by ``StartSend``),
CalcCRC (the CRC coprocessor) and SoftReset, the timer (``TModeReg.TAuto``,
prescaler and reload), the interrupt request bits, ``BitFramingReg`` (TxLastBits
and RxAlign), ``CollReg`` collision positions, ``ControlReg.RxLastBits``, the RF
field (``TxControlReg``) and the RST line.  Frames go to the
:class:`~hardware.emulator.tags.VirtualTag` s in its field; several answers at
once collide bit by bit, as on the air.

Time model (all in seconds of *modelled* time, kept by a shared :class:`ModelClock`)
-----------------------------------------------------------------------------------
* every SPI transaction costs ``host_overhead`` plus 8 bits per byte at ``spi_hz``;
* a frame lasts ``(2 + bits + bits // 8) × 128 / 13.56 MHz`` (start, data, parity, end);
* a tag replies 1172 / 13.56 MHz = 86.4 µs after the end of a frame (FDT),
  plus 4.1 ms of EEPROM programming for an NTAG WRITE;
* the timer starts at the end of a transmission (TAuto) and stops at the 5th
  received bit; it fires ``(TReload + 1) × (2 × TPrescaler + 1) / 13.56 MHz`` later.

``HOST_OVERHEAD_S`` = 35 µs is our figure for one ``spidev.xfer2`` of a few
bytes called from CPython on a Raspberry Pi 4 (Cortex-A72, 1.5 GHz), including
the driver's own Python around it: 10.7–19.3 µs between back-to-back transfers
in the kernel alone (measured from C in raspberrypi/linux issue #4567), about
10 µs of interpreter work (method call, list conversion) and about 10 µs of the
driver's bookkeeping per register access (docs/hardware/emulator.md).  It is an estimate, not a measurement on this
machine (which has no SPI); the benchmark also reports transaction counts so
the figures can be recomputed for another overhead.

Fault injection (:class:`Faults`): missed reads (a tag stays deaf for one
REQA/WUPA round with probability ``miss_rate``), CRC errors (one bit of a reply
flipped with probability ``crc_error_rate``), a dead reader (MISO reads 0x00
whatever happens: a power or wiring fault) and a wedged chip (answers garbage
until its RST line is pulsed) and the RC522's MISO problem (``holds_miso``: it
keeps driving MISO while deselected, so its neighbours on the bus read 0xFF).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from hardware.emulator.tags import VirtualTag, bits_to_bytes, frame_bits
from hardware.rc522.pcd import crc_a
from hardware.rc522.transport import mfrc522_class

R = mfrc522_class()          # register map and command codes, from the mfrc522 package

FC = 13.56e6
BIT_S = 128 / FC
FDT_S = 1172 / FC
HOST_OVERHEAD_S = 35e-6
#: One SPI transaction of the bridge firmware on a Pico (MicroPython on the RP2040 at 125 MHz: chip select
#: down, ``SPI.write_readinto``, chip select up, and the bytecode around them).  An estimate from a user's
#: observation (polpo/rp2040-psram#12: a 3-byte write to an SPI DAC with MicroPython's hardware SPI, twice
#: around a 100 us delay, "takes effectively 200 us", so about 50 us a transaction), not a measurement of ours.
RP2040_TRANSFER_S = 50e-6
SPI_HZ = 4_000_000

RESET_VALUES = {
    R.CommandReg: 0x20, R.CommIEnReg: 0x80, R.CommIrqReg: 0x14, R.Status1Reg: 0x21,
    R.WaterLevelReg: 0x08, R.ControlReg: 0x10, R.CollReg: 0xA0, R.ModeReg: 0x3F,
    R.TxControlReg: 0x80, R.TxSelReg: 0x10, R.RxSelReg: 0x84, R.RxThresholdReg: 0x84,
    R.DemodReg: 0x4D, R.SerialSpeedReg: 0xEB, R.CRCResultRegM: 0xFF, R.CRCResultRegL: 0xFF,
    R.ModWidthReg: 0x26, R.RFCfgReg: 0x48, R.GsNReg: 0x88, R.CWGsPReg: 0x20, R.ModGsPReg: 0x20,
}
CRC_PRESETS = {0: 0x0000, 1: 0x6363, 2: 0xA671, 3: 0xFFFF}


SLEEP_OVERSHOOT_S = (75e-6, 100e-6)


class ModelClock:
    """Modelled time shared by every emulated chip on one host, and the transaction count.

    ``sleep`` overshoots like ``time.sleep`` on a Raspberry Pi running Linux:
    every call that sleeps at all returns 75–100 µs late (timer slack and the
    wake-up; docs/hardware/emulator.md), drawn from a seeded generator.
    ``overshoot=None`` gives the ideal clock.
    """

    def __init__(self, overshoot: tuple[float, float] | None = SLEEP_OVERSHOOT_S, seed: int = 1):
        self.now = 0.0
        self.transactions = 0
        self.overshoot = overshoot
        self.sleeps = 0
        self._rng = random.Random(seed)

    def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            return
        self.sleeps += 1
        self.now += seconds + (self._rng.uniform(*self.overshoot) if self.overshoot else 0.0)


@dataclass
class Faults:
    """What goes wrong with one emulated reader; change the fields at any time."""

    miss_rate: float = 0.0
    crc_error_rate: float = 0.0
    dead: bool = False
    wedged: bool = False
    holds_miso: bool = False       # drives MISO high even when deselected (honoured by bus stand-ins that see chip selects)
    seed: int = 1
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self):
        self.rng = random.Random(self.seed)


class EmulatedRC522:
    """One MFRC522 on an SPI bus.  ``reset_pin``: the gpiozero (Mock)pin wired to its RST input."""

    def __init__(self, clock: ModelClock | None = None, *, version: int = 0x92, spi_hz: int = SPI_HZ,
                 host_overhead: float = HOST_OVERHEAD_S, reset_pin=None, faults: Faults | None = None,
                 physics=None):
        self.clock = clock or ModelClock()
        self.physics = physics             # hardware.emulator.physics.Physics, or None: the ideal world
        self.version = version
        self.spi_hz = spi_hz
        self.max_speed_hz = spi_hz
        self.host_overhead = host_overhead
        self.reset_pin = reset_pin
        self._pin_states_seen = len(reset_pin.states) if reset_pin is not None else 0
        self._pin_function = reset_pin.function if reset_pin is not None else None
        self._reset_held = self._in_reset()      # the RST line's level, looked at again only when it changes
        self.faults = faults or Faults()
        self.tags: list[VirtualTag] = []
        self.transactions = 0
        self.closed = False
        self.hard_resets = 0
        self._power_on()

    # -- the table side -------------------------------------------------------------------
    def place(self, tag: VirtualTag, offset: tuple[float, float] | None = None) -> None:
        """Put ``tag`` in this reader's field (it may lie in another one too, across two pads).

        ``offset``: where its sticker lies relative to the pad centre, in cm
        (stacked tags whose stickers lie on top of each other detune each other).
        """
        if offset is not None:
            tag.offset = (float(offset[0]), float(offset[1]))
        if tag not in self.tags:
            if not tag.fields:
                tag.power_off()
            powered = any(f.field_on for f in tag.fields)
            self.tags.append(tag)
            tag.fields.append(self)
            if self.field_on and not powered:
                self._power_up(tag)

    def remove(self, tag: VirtualTag) -> None:
        if tag in self.tags:
            self.tags.remove(tag)
            tag.fields.remove(self)
            if not tag.fields:
                tag.power_off()

    @property
    def field_on(self) -> bool:
        return bool(self.regs[R.TxControlReg] & 0x03) and not self.faults.dead

    # -- the SPI device ---------------------------------------------------------------------
    def xfer2(self, data: list[int]) -> list[int]:
        self.clock.transactions += 1
        self.transactions += 1
        self.clock.now += self.host_overhead + len(data) * 8 / self.spi_hz
        pin = self.reset_pin
        if pin is not None and (len(pin.states) != self._pin_states_seen or pin.function != self._pin_function):
            self._watch_reset_line()
            self._pin_function = pin.function
            self._reset_held = self._in_reset()
        if self.faults.dead or self._reset_held:
            return [0] * len(data)
        if self.faults.wedged:
            return [self.faults.rng.randrange(256) for _ in data]
        if self._events:
            self._catch_up()
        out = [0]
        if data[0] & 0x80:
            for byte in data[1:]:
                out.append(self._read(data[len(out) - 1] >> 1 & 0x3F))
            return out
        reg = data[0] >> 1 & 0x3F
        for value in data[1:]:
            self._write(reg, value)
            out.append(0)
        return out

    def close(self) -> None:
        self.closed = True

    def _power_up(self, tag: VirtualTag) -> None:
        delay = self.physics.power_up_delay() if self.physics is not None else 0.0
        tag.ready_at = self.clock.now + delay

    # -- reset and power -------------------------------------------------------------------
    def _in_reset(self) -> bool:
        pin = self.reset_pin
        return pin is not None and pin.function == "output" and not pin.state

    def _watch_reset_line(self) -> None:
        pin = self.reset_pin
        if pin is None:
            return
        new = pin.states[self._pin_states_seen:]
        self._pin_states_seen = len(pin.states)
        if any(not s.state for s in new) and pin.function == "output":
            self.hard_resets += 1
            self.faults.wedged = False
            self._power_on()

    def _power_on(self) -> None:
        self.regs = [0] * 64
        for reg, value in RESET_VALUES.items():
            self.regs[reg] = value
        self.fifo: list[int] = []
        self._events: list[tuple[float, int, object]] = []
        self._seq = 0
        self._timer_end: float | None = None
        self._field_off()

    def _field_off(self) -> None:
        """The antenna went off: tags lose power unless another reader's field still feeds them."""
        for tag in self.tags:
            if not any(other is not self and other.field_on for other in tag.fields):
                tag.power_off()

    # -- registers -----------------------------------------------------------------------------
    def _read(self, reg: int) -> int:
        if reg == R.FIFODataReg:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == R.FIFOLevelReg:
            return len(self.fifo)
        if reg == R.VersionReg:
            return self.version
        if reg == R.CommIrqReg and self._timer_end is not None and self.clock.now >= self._timer_end:
            self._fire_timer()
        return self.regs[reg]

    def _write(self, reg: int, value: int) -> None:
        if reg == R.FIFODataReg:
            if len(self.fifo) < 64:
                self.fifo.append(value)
            else:
                self.regs[R.ErrorReg] |= 0x10                       # BufferOvfl
        elif reg == R.FIFOLevelReg:
            if value & 0x80:
                self.fifo.clear()
                self.regs[R.ErrorReg] &= ~0x10
        elif reg in (R.CommIrqReg, R.DivIrqReg):
            mask = value & 0x7F
            if value & 0x80:
                self.regs[reg] |= mask
            else:
                self.regs[reg] &= ~mask
        elif reg == R.CommandReg:
            self._command(value)
        elif reg == R.BitFramingReg:
            self.regs[reg] = value & 0x7F
            if value & 0x80 and self.regs[R.CommandReg] & 0x0F == R.PCD_TRANSCEIVE:
                self._start_transmission(transceive=True)
        elif reg == R.TxControlReg:
            was_on = self.regs[reg] & 0x03
            if not was_on and value & 0x03 and not self.faults.dead:
                for tag in self.tags:
                    if not any(f.field_on for f in tag.fields):
                        self._power_up(tag)
            self.regs[reg] = value
            if was_on and not value & 0x03:
                self._field_off()
        elif reg == R.VersionReg:
            pass
        else:
            self.regs[reg] = value

    def _command(self, value: int) -> None:
        cmd = value & 0x0F
        self.regs[R.CommandReg] = (self.regs[R.CommandReg] & 0xF0) | (value & 0x30) | cmd
        if cmd == R.PCD_RESETPHASE:
            self._power_on()
        elif cmd == R.PCD_IDLE:
            self._events.clear()                # cancels a transmission or reception in progress
            self._timer_end = None
        elif cmd == R.PCD_CALCCRC:
            preset = CRC_PRESETS[self.regs[R.ModeReg] & 0x03]
            crc = _crc(bytes(self.fifo), preset)
            self.fifo.clear()
            self.regs[R.CRCResultRegL], self.regs[R.CRCResultRegM] = crc[0], crc[1]
            self.regs[R.DivIrqReg] |= 0x04
            self.regs[R.Status1Reg] |= 0x20
        elif cmd == R.PCD_TRANSMIT:
            self._start_transmission(transceive=False)

    # -- the air --------------------------------------------------------------------------------
    def _schedule(self, t: float, action) -> None:
        self._seq += 1
        self._events.append((t, self._seq, action))

    def _catch_up(self) -> None:
        while self._events:
            self._events.sort()
            t, _, action = self._events[0]
            if t > self.clock.now:
                break
            self._events.pop(0)
            action()

    def _timer_period(self) -> float:
        prescaler = ((self.regs[R.TModeReg] & 0x0F) << 8) | self.regs[R.TPrescalerReg]
        reload = (self.regs[R.TReloadRegH] << 8) | self.regs[R.TReloadRegL]
        return (reload + 1) * (2 * prescaler + 1) / FC

    def _fire_timer(self) -> None:
        self.regs[R.CommIrqReg] |= 0x01
        self._timer_end = None

    def _start_transmission(self, transceive: bool) -> None:
        data = bytes(self.fifo)
        self.fifo.clear()
        tx_bits = self.regs[R.BitFramingReg] & 0x07
        nbits = frame_bits(data, tx_bits)
        end = self.clock.now + (2 + nbits + nbits // 8) * BIT_S
        self._schedule(end, lambda: self._transmitted(data, nbits, transceive, end))

    def _transmitted(self, data: bytes, nbits: int, transceive: bool, end: float) -> None:
        self.regs[R.CommIrqReg] |= 0x40                                      # TxIRq
        if not transceive:
            self.regs[R.CommIrqReg] |= 0x10                                  # IdleIRq
            self.regs[R.CommandReg] &= 0xF0
        if self.regs[R.TModeReg] & 0x80:
            self._timer_end = end + self._timer_period()
        if not self.regs[R.TxControlReg] & 0x03:
            return                                                           # no field, nobody hears
        replies = []
        physics = self.physics
        overheard = physics.overheard(self, new_round=nbits == 7) if physics is not None else []
        pile = physics is not None and nbits != 7 and physics.pile(self)
        for tag in list(self.tags) + overheard:
            if not tag.ready(end):
                continue                                                     # still powering up
            miss = nbits == 7 and self.faults.miss_rate > 0 and self.faults.rng.random() < self.faults.miss_rate
            if nbits == 7 and physics is not None and tag not in overheard:
                miss = physics.stack_miss(tag, self) or miss
            reply = tag.receive(data, nbits, miss=miss)
            if pile and tag not in overheard:
                continue                            # 3+ tags: they hear the frame, the reader hears no reply
            if reply is not None and tag in overheard:
                bits = physics.garble(reply[0])
                reply = (bits, reply[1])
            if reply is not None:
                replies.append(reply)
        if not transceive or not replies:
            return
        delay = max(extra for _, extra in replies)
        start = end + FDT_S + delay
        bits, collision = _superpose([bits for bits, _ in replies])
        if self.faults.crc_error_rate and self.faults.rng.random() < self.faults.crc_error_rate:
            flip = self.faults.rng.randrange(len(bits))
            bits[flip] ^= 1
        if self._timer_end is not None and self._timer_end > start + 5 * BIT_S:
            self._timer_end = None                                           # stopped by the 5th received bit
        finish = start + (2 + len(bits) + len(bits) // 8) * BIT_S
        self._schedule(finish, lambda: self._received(bits, collision))

    def _received(self, bits: list[int], collision: int | None) -> None:
        align = (self.regs[R.BitFramingReg] >> 4) & 0x07
        if collision is not None and not self.regs[R.CollReg] & 0x80:
            bits = bits[:collision] + [0] * (len(bits) - collision)          # ValuesAfterColl = 0
        data = bits_to_bytes(bits, align)
        room = 64 - len(self.fifo)
        self.fifo.extend(data[:room])
        if len(data) > room:
            self.regs[R.ErrorReg] |= 0x10
        self.regs[R.ControlReg] = (self.regs[R.ControlReg] & 0xF8) | ((align + len(bits)) % 8)
        error = 0
        if collision is not None:
            error |= 0x08
            self.regs[R.CollReg] = (self.regs[R.CollReg] & 0x80) | ((align + collision + 1) % 32)
        else:
            self.regs[R.CollReg] = (self.regs[R.CollReg] & 0x80) | 0x20      # CollPosNotValid
        if self.regs[R.RxModeReg] & 0x80 and len(data) >= 3 and crc_a(data[:-2]) != data[-2:]:
            error |= 0x04
        self.regs[R.ErrorReg] = (self.regs[R.ErrorReg] & 0x10) | error
        self.regs[R.CommIrqReg] |= 0x20 | (0x02 if error else 0)            # RxIRq, ErrIRq


def _superpose(replies: list[list[int]]) -> tuple[list[int], int | None]:
    """Several tags answering at once: the bits until the first one where they differ, and that position."""
    if len(replies) == 1:
        return list(replies[0]), None
    length = max(len(r) for r in replies)
    out = []
    for i in range(length):
        values = {r[i] if i < len(r) else None for r in replies}
        if len(values) > 1:
            return out + [1] * (length - i), i
        out.append(values.pop())
    return out, None


def _crc(data: bytes, preset: int) -> bytes:
    if preset == 0x6363:
        return crc_a(data)
    crc = preset
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))
