"""Reader bridge firmware for a Raspberry Pi Pico (RP2040, MicroPython).

Polls up to 16 RC522 readers on one SPI bus (one GPIO chip select each, one
shared reset line) with the same ISO 14443-3 code the Pi uses
(``hardware/rc522/pcd.py``, copied here as ``pcd.py``), reads the NDEF
message of every new NTAG with ``hardware/ntag.py`` (copied as ``ntag.py``)
and reports over USB serial in the line protocol of
``hardware/bridge/protocol.py`` (copied as ``protocol.py``): sequence numbers
and a CRC-16 on every line.

Surviving the field: whatever goes wrong in the poll of one channel (a bug
included) becomes a ``FAULT`` line in plain ASCII and a reset of that channel,
never the end of the loop; ``machine.WDT`` restarts a Pico that hangs anyway
(the host sees ``HELLO`` again).

Fields (``FIELDS`` in ``pinmap.py``, reported in ``HELLO``): ``"switched"``
keeps every reader's field off except while its pad is read (after the
5.1 ms ISO/IEC 14443-3 guard time), so neighbouring pads cannot hear each
other's tags; channels are read evens first, then odds, and the next channels' fields
(up to ``WARM_AHEAD``) go on while the current one is read (wired in a row,
channels two apart are no neighbours).  ``"on"`` keeps every field on.

Never blocking on USB: a host that keeps the port open but stops reading
fills the CDC buffer, and MicroPython then waits up to its CDC TX timeout in
every write — long enough, line after line, to starve the watchdog.  So a line
is written only when ``select.poll`` says stdout can take bytes
(:class:`LineOut`); meanwhile only the latest ``POLL`` line of each channel is
kept (it supersedes the older ones: the host sees the gap in the sequence
numbers as lost lines) and at most ``BACKLOG`` other lines, oldest dropped.

Updating without BOOTSEL: the rp2 watchdog cannot be stopped once started
(micropython#8600), so ``mpremote cp`` would be cut off by a reset.  With
``UPDATE_PIN`` (GP22) held to GND at boot, :func:`main` says ``HELLO … update``,
arms no watchdog and returns to the REPL, where ``mpremote`` can copy files
(docs/hardware/bridge.md).

Nothing here is specific to the Pico except :func:`main`.  The test suite runs
this file under a real MicroPython (the WebAssembly port, in node) whose
``machine`` module is a stand-in that carries every SPI transfer to the RC522
emulator (``hardware/emulator/pico.py``).
"""
from pcd import KnownTags, Pcd, ReaderFault, RfidError
from protocol import MAX_FAULT_TEXT, encode, uids_field
import ntag

FIRMWARE = "bridge-5"
RECOVER_EVERY = 50          # polls of a faulty channel between two reset attempts
WDT_TIMEOUT_MS = 2000       # a poll round takes milliseconds; a hung loop is restarted after 2 s
NDEF_ATTEMPTS = 2           # failed NDEF reads of one tag before it counts as carrying no card id
GUARD_US = 5100             # ISO/IEC 14443-3: a field on for 5.1 ms before the first REQA/WUPA
BACKLOG = 32                # lines (other than POLL) kept while the host does not read
WARM_AHEAD = 3              # fields warming while a channel is read: four on at once at most (wiring.md)
REPOLL_US = 70000           # a channel that found a new tag is read again this long after, out of turn:
                            # the host's settle window (hardware/debounce.py SETTLE_S), so it counts a
                            # cycle sooner
ARRIVALS_US = 500000        # for this long after a card arrived a poll asks a silent REQA twice (readers.ARRIVALS_S)
DUE_WARM_US = 15000         # a channel due for that repoll within this is warmed while the one before it is read


def _hex(data):
    return "".join("%02X" % b for b in data)


def ascii_words(text):
    """``text`` as printable ASCII (the line protocol's alphabet): ``µ`` becomes ``u``, anything else ``?``."""
    out = []
    for c in str(text).replace("\u00b5", "u"):
        out.append(c if 32 <= ord(c) < 127 else "?")
    return "".join(out)


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


class LineOut:
    """Lines to the host, written only when the USB port can take them; the rest kept, summarised or dropped.

    ``writable()`` says whether stdout can take bytes now (``select.poll`` on
    the Pico).  A ``POLL`` line replaces the waiting ``POLL`` of its channel
    (the newer one says all the older one did); other lines wait, at most
    ``backlog`` of them, the oldest dropped first.  ``dropped`` counts both.
    """

    def __init__(self, write, writable=None, backlog=BACKLOG):
        self._write = write
        self._writable = writable or (lambda: True)
        self.backlog = backlog
        self.waiting = []              # [kind, channel, line], oldest first
        self.dropped = 0

    def send(self, kind, channel, line):
        if kind == "POLL":
            for i in range(len(self.waiting)):
                if self.waiting[i][0] == "POLL" and self.waiting[i][1] == channel:
                    self.waiting.pop(i)
                    self.dropped += 1
                    break
        elif len(self.waiting) >= self.backlog + 16:
            for i in range(len(self.waiting)):
                if self.waiting[i][0] != "POLL":
                    self.waiting.pop(i)
                    self.dropped += 1
                    break
        self.waiting.append([kind, channel, line])
        self.flush()

    def flush(self):
        while self.waiting and self._writable():
            self._write(self.waiting.pop(0)[2])


class Bridge:
    """All channels of one bridge: initialise, poll round-robin, report each poll as one line.

    ``feed`` is called after every channel's poll (``machine.WDT.feed`` on the
    Pico): a loop that stops coming round stops feeding the watchdog.
    """

    def __init__(self, spi, cs_pins, reset_pin, write, sleep_us, feed=None, fields="on", writable=None,
                 ticks_us=None, ticks_diff=None):
        self.out = LineOut(write, writable)
        self.feed = feed or (lambda: None)
        self.fields = fields
        self._sleep_us = sleep_us
        self._ticks_us = ticks_us
        # time.ticks_diff on the Pico: ticks_us wraps (every 2**30 us), so a plain difference goes wrong
        self._since = (lambda t: (ticks_diff or (lambda a, b: a - b))(ticks_us(), t)) if ticks_us else None
        self.warmed_at = [None] * len(cs_pins)     # per channel: ticks_us when its field went on early
        n = len(cs_pins)
        self.order = list(range(0, n, 2)) + list(range(1, n, 2))   # no two neighbours in a row
        self.transports = [PicoTransport(spi, cs, reset_pin, sleep_us) for cs in cs_pins]
        self.pcds = [Pcd(t) for t in self.transports]
        self.known = [KnownTags() for _ in cs_pins]
        self.ndef = [{} for _ in cs_pins]      # per channel: UID -> failed NDEF reads, or True once reported
        self.ok = [False] * len(cs_pins)
        self.since_fault = [0] * len(cs_pins)
        self.new_at = [None] * len(cs_pins)    # per channel: ticks_us when it found a tag new to it
        self.arrived_at = [None] * len(cs_pins)  # per channel: ticks_us of its last poll that found a card arriving
        self.seq = 0

    def send(self, kind, *fields):
        line = encode(self.seq, kind, [ascii_words(f) for f in fields])
        self.out.send(kind, None if kind == "HELLO" else fields[0], line)
        self.seq = (self.seq + 1) % 65536

    def start(self):
        self.seq = 0
        self.send("HELLO", FIRMWARE, len(self.pcds), self.fields)
        for ch in range(len(self.pcds)):
            self._guarded(ch, self._init)
            self._guarded(ch, self._rest)
            self.feed()

    # -- the fields ------------------------------------------------------------------------------
    def _warm(self, ch):
        if self.fields == "switched" and self.ok[ch]:
            self.pcds[ch].antenna(True)

    def _rest(self, ch):
        if self.fields == "switched" and self.ok[ch]:
            self.pcds[ch].antenna(False)

    def _init(self, ch):
        try:
            version = self.pcds[ch].init()
        except ReaderFault as exc:
            self.ok[ch] = False
            self.send("READER", ch, "%02X" % ((self.pcds[ch].version or 0) & 0xFF))
            self.send("FAULT", ch, exc)
            return False
        self.ok[ch] = True
        self.known[ch].clear()
        self.ndef[ch] = {}
        self.send("READER", ch, "%02X" % version)
        return True

    def _recover(self, ch):
        """Pulse the shared reset line: every channel has to be initialised again."""
        self.transports[ch].hard_reset()
        for other in range(len(self.pcds)):
            if other != ch and self.ok[other]:
                self._guarded(other, self._init)
        return self._init(ch)

    def _guarded(self, ch, step):
        """Run ``step(ch)``; any exception, a bug included, is a FAULT of that channel and not the end of the loop."""
        try:
            return step(ch)
        except Exception as exc:
            self.ok[ch] = False
            self.since_fault[ch] = RECOVER_EVERY       # try a reset at once, then every RECOVER_EVERY polls
            why = str(exc) if isinstance(exc, RfidError) else "%s: %s" % (type(exc).__name__, exc)
            why = why[:MAX_FAULT_TEXT]                 # the host refuses lines over MAX_LINE_BYTES
            try:
                self.send("FAULT", ch, why)
            except Exception:
                pass                                   # nothing left to tell it with: the watchdog decides
            return None

    def _poll(self, ch):
        if not self.ok[ch]:
            self.since_fault[ch] += 1
            if self.since_fault[ch] < RECOVER_EVERY:
                return
            self.since_fault[ch] = 0
            if not self._recover(ch):
                return
        if self.new_at[ch] is not None and self._since(self.new_at[ch]) >= REPOLL_US:
            self.new_at[ch] = None                     # this poll is the one the host's settle window wants
        if self.fields == "switched":
            if self.warmed_at[ch] is None:
                self._warm(ch)
            self._sleep_us(self._guard_left(ch))
        try:
            before = self.known[ch].uids()
            switched = self.fields == "switched"       # every tag starts this poll in IDLE (pcd.py)
            last = self.known[ch].read_last()
            arriving = self.arrived_at[ch] is not None and self._since(self.arrived_at[ch]) < ARRIVALS_US
            # fields on: a tag missing since an earlier poll is asked once and wakes nobody (pcd.py)
            uids = self.pcds[ch].inventory(last, powered_up=switched, ask_twice=arriving,
                                           missing=() if switched else self.known[ch].missing())
            if self._ticks_us is not None and any(u not in last for u in uids):
                self.arrived_at[ch] = self._ticks_us()
            unread = self.pcds[ch].unresolved
            self.known[ch].update(uids, unread)
            self._card_ids(ch, uids)                   # NDEF reads need the field on too
        finally:
            self._rest(ch)
        if self._ticks_us is not None and any(u not in before for u in uids) and self.new_at[ch] is None:
            self.new_at[ch] = self._ticks_us()
        if unread:
            # something answered but could not be read (a pile of three or more): the host tells the player
            self.send("POLL", ch, uids_field([_hex(u) for u in uids]), "?")
        else:
            self.send("POLL", ch, uids_field([_hex(u) for u in uids]))

    def _card_ids(self, ch, uids):
        """An ``NDEF`` line for each tag new on the pad, before the POLL that reports it."""
        seen = self.ndef[ch]
        for uid in list(seen):
            if uid not in self.known[ch].misses:
                del seen[uid]                          # gone for good: read again if it comes back
        for uid in uids:
            if seen.get(uid) is True:
                continue
            try:
                status, value = ntag.read_message(self.pcds[ch], uid)
            except ReaderFault:
                raise                                  # the reader's fault, not the tag's: a FAULT and a reset
            except RfidError:
                seen[uid] = seen.get(uid, 0) + 1
                if seen[uid] < NDEF_ATTEMPTS:
                    continue                           # try again on the next poll
                status, value = ntag.NONE, None        # no NTAG READ (a MIFARE Classic): no card id
            seen[uid] = True
            if status == ntag.FOUND and value:
                self.send("NDEF", ch, _hex(uid), _hex(value))
            elif status == ntag.BAD:
                self.send("NDEF", ch, _hex(uid), "?", value)
            else:
                self.send("NDEF", ch, _hex(uid), "-")

    def _guard_left(self, ch):
        """Microseconds still to wait before the tags on ``ch`` have had their power-up time."""
        since = self.warmed_at[ch]
        if since is None or self._ticks_us is None:
            return GUARD_US
        return max(0, GUARD_US - self._since(since))

    def poll_once(self):
        order = self.order
        for i in range(len(order)):
            ch = order[i]
            if self.fields == "switched":
                # a channel due for its repoll soon, then the next channels: their fields go on while this one
                # is read, as long as no two of them (nor this one) are neighbours in the row, so their tags
                # power up during work that is done anyway (the host's hardware/polling.py does the same)
                on = [ch]
                for due in self._due_soon():
                    if len(on) <= WARM_AHEAD and due not in on and not any(abs(due - c) <= 1 for c in on):
                        on.append(due)
                for k in range(1, WARM_AHEAD + 1):
                    nxt = order[(i + k) % len(order)]
                    if nxt in on:
                        continue
                    if len(on) > WARM_AHEAD or any(abs(nxt - c) <= 1 for c in on):
                        break
                    on.append(nxt)
                for nxt in on[1:]:
                    if self.warmed_at[nxt] is None and self.ok[nxt]:
                        self._guarded(nxt, self._warm)
                        self.warmed_at[nxt] = self._ticks_us() if self._ticks_us is not None else None
            self._guarded(ch, self._poll)
            self.warmed_at[ch] = None
            self.out.flush()
            self.feed()
            self._repoll()

    def _due_soon(self):
        """Channels whose repoll (:meth:`_repoll`) comes within ``DUE_WARM_US``: warmed first."""
        if self._ticks_us is None:
            return []
        return [ch for ch in range(len(self.pcds))
                if self.new_at[ch] is not None and self._since(self.new_at[ch]) >= REPOLL_US - DUE_WARM_US]

    def _repoll(self):
        """Read again, out of turn, each channel whose new tag has lain there for ``REPOLL_US``."""
        if self._ticks_us is None:
            return
        for ch in range(len(self.pcds)):
            since = self.new_at[ch]
            if since is not None and self._since(since) >= REPOLL_US:
                self._guarded(ch, self._poll)
                self.warmed_at[ch] = None              # its field is off again, warmed ahead or not
                self.out.flush()
                self.feed()

    def run(self):
        self.start()
        while True:
            self.poll_once()


def main():
    """On the Pico: wire up the pins of PIN_MAP, arm the watchdog, run forever reporting on USB serial (stdout).

    With ``UPDATE_PIN`` held low at boot: say so, arm no watchdog, return to the REPL for ``mpremote``.
    """
    import select
    import sys
    import time
    from machine import SPI, WDT, Pin
    import pinmap
    update = Pin(getattr(pinmap, "UPDATE_PIN", 22), Pin.IN, Pin.PULL_UP)
    channels = len(pinmap.CS_PINS)
    if update.value() == 0:
        sys.stdout.write(encode(0, "HELLO", [FIRMWARE, channels, "update"]))
        return                                          # to the REPL: no watchdog, no polling
    wdt = WDT(timeout=WDT_TIMEOUT_MS)
    spi = SPI(pinmap.SPI_ID, baudrate=pinmap.SPI_HZ, polarity=0, phase=0, sck=Pin(pinmap.SCK),
              mosi=Pin(pinmap.MOSI), miso=Pin(pinmap.MISO))
    cs = [Pin(n, Pin.OUT, value=1) for n in pinmap.CS_PINS]
    reset = Pin(pinmap.RESET, Pin.OUT, value=1)
    poller = select.poll()
    poller.register(sys.stdout, select.POLLOUT)
    # MicroPython's stdio poll says writable while the CDC TX buffer has room (shared/tinyusb/mp_usbd_cdc.c)
    writable = lambda: bool(poller.poll(0))        # noqa: E731
    Bridge(spi, cs, reset, sys.stdout.write, time.sleep_us, wdt.feed, fields=getattr(pinmap, "FIELDS", "on"),
           writable=writable, ticks_us=time.ticks_us, ticks_diff=time.ticks_diff).run()
