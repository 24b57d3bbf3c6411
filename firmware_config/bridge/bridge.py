"""Reader bridge firmware for a Raspberry Pi Pico (RP2040, MicroPython).

Polls up to 16 RC522 readers on one SPI bus (one GPIO chip select each, one
shared reset line) with the same ISO 14443-3 code the Pi uses
(``hardware/rc522/pcd.py``, copied here as ``pcd.py``) and reports every poll
over USB serial in the line protocol of ``hardware/bridge/protocol.py``
(copied as ``protocol.py``): sequence numbers and a CRC-16 on every line.

Nothing here is specific to the Pico except :func:`main`; the tests run
:class:`Bridge` under CPython with stand-ins for ``machine.SPI``/``machine.Pin``
that drive the RC522 emulator.
"""
from pcd import KnownTags, Pcd, ReaderFault, RfidError
from protocol import encode, uids_field

FIRMWARE = "bridge-1"
RECOVER_EVERY = 50          # polls of a faulty channel between two reset attempts


def _hex(data):
    return "".join("%02X" % b for b in data)


class PicoTransport:
    """Register access to one RC522 over ``machine.SPI`` with its own chip-select ``machine.Pin``."""

    # MFRC522 registers and commands (the host takes these from the mfrc522 package; MicroPython cannot)
    CommandReg, CommIEnReg, DivIEnReg, CommIrqReg, DivIrqReg, ErrorReg = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06
    Status1Reg, Status2Reg, FIFODataReg, FIFOLevelReg = 0x07, 0x08, 0x09, 0x0A
    ControlReg, BitFramingReg, CollReg = 0x0C, 0x0D, 0x0E
    ModeReg, TxModeReg, RxModeReg, TxControlReg, TxAutoReg = 0x11, 0x12, 0x13, 0x14, 0x15
    CRCResultRegM, CRCResultRegL = 0x21, 0x22
    TModeReg, TPrescalerReg, TReloadRegH, TReloadRegL = 0x2A, 0x2B, 0x2C, 0x2D
    VersionReg = 0x37
    PCD_IDLE, PCD_CALCCRC, PCD_TRANSMIT, PCD_TRANSCEIVE, PCD_RESETPHASE = 0x00, 0x03, 0x04, 0x0C, 0x0F

    def __init__(self, spi, cs, reset, sleep_us):
        self.spi = spi
        self.cs = cs
        self.reset = reset
        self._sleep_us = sleep_us

    def _xfer(self, tx):
        rx = bytearray(len(tx))
        self.cs.value(0)
        try:
            self.spi.write_readinto(tx, rx)
        finally:
            self.cs.value(1)
        return rx

    def write(self, reg, value):
        self._xfer(bytes(((reg << 1) & 0x7E, value)))

    def write_fifo(self, data):
        self._xfer(bytes(((self.FIFODataReg << 1) & 0x7E,)) + bytes(data))

    def read_regs(self, regs):
        return list(self._xfer(bytes([((r << 1) & 0x7E) | 0x80 for r in regs] + [0]))[1:])

    def sleep_us(self, us):
        self._sleep_us(int(us))

    def hard_reset(self):
        self.reset.value(0)
        self._sleep_us(100)
        self.reset.value(1)
        self._sleep_us(5000)


class Bridge:
    """All channels of one bridge: initialise, poll round-robin, report each poll as one line."""

    def __init__(self, spi, cs_pins, reset_pin, write, sleep_us):
        self.write = write
        self.transports = [PicoTransport(spi, cs, reset_pin, sleep_us) for cs in cs_pins]
        self.pcds = [Pcd(t) for t in self.transports]
        self.known = [KnownTags() for _ in cs_pins]
        self.ok = [False] * len(cs_pins)
        self.since_fault = [0] * len(cs_pins)
        self.seq = 0

    def send(self, kind, *fields):
        self.write(encode(self.seq, kind, fields))
        self.seq = (self.seq + 1) % 65536

    def start(self):
        self.seq = 0
        self.send("HELLO", FIRMWARE, len(self.pcds))
        for ch in range(len(self.pcds)):
            self._init(ch)

    def _init(self, ch):
        try:
            version = self.pcds[ch].init()
        except ReaderFault as exc:
            self.ok[ch] = False
            self.send("READER", ch, "%02X" % (self.pcds[ch].version or 0))
            self.send("FAULT", ch, str(exc))
            return False
        self.ok[ch] = True
        self.known[ch].clear()
        self.send("READER", ch, "%02X" % version)
        return True

    def _recover(self, ch):
        """Pulse the shared reset line: every channel has to be initialised again."""
        self.transports[ch].hard_reset()
        for other in range(len(self.pcds)):
            if other != ch and self.ok[other]:
                self._init(other)
        return self._init(ch)

    def poll_once(self):
        for ch in range(len(self.pcds)):
            if not self.ok[ch]:
                self.since_fault[ch] += 1
                if self.since_fault[ch] < RECOVER_EVERY or not self._recover(ch):
                    if self.since_fault[ch] >= RECOVER_EVERY:
                        self.since_fault[ch] = 0
                    continue
            try:
                uids = self.pcds[ch].inventory(self.known[ch].uids())
            except RfidError as exc:
                self.ok[ch] = False
                self.since_fault[ch] = RECOVER_EVERY       # try a reset at once, then every RECOVER_EVERY polls
                self.send("FAULT", ch, str(exc))
                continue
            self.known[ch].update(uids)
            self.send("POLL", ch, uids_field([_hex(u) for u in uids]))

    def run(self):
        self.start()
        while True:
            self.poll_once()


def main():
    """On the Pico: wire up the pins of PIN_MAP and run forever, reporting on USB serial (stdout)."""
    import sys
    import time
    from machine import SPI, Pin
    from pinmap import CS_PINS, MISO, MOSI, RESET, SCK, SPI_ID, SPI_HZ
    spi = SPI(SPI_ID, baudrate=SPI_HZ, polarity=0, phase=0, sck=Pin(SCK), mosi=Pin(MOSI), miso=Pin(MISO))
    cs = [Pin(n, Pin.OUT, value=1) for n in CS_PINS]
    reset = Pin(RESET, Pin.OUT, value=1)
    Bridge(spi, cs, reset, sys.stdout.write, time.sleep_us).run()
