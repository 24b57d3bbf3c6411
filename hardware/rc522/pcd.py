"""The ISO/IEC 14443-3 type A layer on an MFRC522: the reader (PCD) side.

This module talks to the chip only through an *io* object (see
:mod:`hardware.rc522.transport`), which supplies the register map as
attributes (``io.CommandReg`` …, as named by the ``mfrc522`` package) and
five operations::

    io.write(reg, value)          # one register
    io.write_fifo(data)           # many bytes into FIFODataReg, one SPI transaction
    io.read_regs([reg, ...])      # several registers in one SPI transaction
    io.sleep_us(us)               # wait (real time on a Pi, modelled time in the emulator)
    io.hard_reset()               # pulse the reader's RST line

It is written in the subset of Python that MicroPython runs (no dataclasses,
no annotations), because the reader bridge firmware on the Pico runs this very
file: ``firmware_config/bridge/`` copies it next to its ``main.py``.

How a poll stays short
----------------------
The ``mfrc522`` package polls ``CommIrqReg`` up to 2,000 times per command.
Here the chip's own timer bounds every command (``TModeReg.TAuto`` starts it
when transmission ends, a reply stops it), and the host *sleeps* for the time
the frame needs on the air (known from its length at 106 kbit/s) plus that
timeout, then reads every status register it needs in one SPI transaction.
An empty pad costs one REQA: 7 SPI transactions and about 0.4 ms on the air.

Inventory of a pad (several stacked cards)
-----------------------------------------
Tags found in the previous poll are in HALT.  :meth:`Pcd.inventory` first
confirms each of them (WUPA, a SELECT with its known UID, HLTA: only that tag
can answer the SELECT; the others fall back to HALT), retrying a miss, then
finds new tags with REQA, which only tags in IDLE answer, resolving collisions
bit by bit, until a REQA meets silence.  (A pad that had no tags starts with
WUPA instead, which also wakes a tag halted by a neighbouring reader.)

A reader whose field is switched off between its polls (``powered_up``) meets
every tag in IDLE: the field's loss reset them (ISO/IEC 14443-3, 6.2: a PICC
enters POWER-OFF without a field and IDLE when powered again).  Its poll asks
only the tags read in the last poll, each once — a tag that does not answer
is still found by the REQA that follows, so a second WUPA/SELECT round would
only cost a departed tag's timeouts — and finds the rest by REQA, never WUPA,
which would wake the tags this poll has just confirmed and halted and read
them a second time through anticollision.
"""

# Frame timing at 106 kbit/s: one bit lasts 128 carrier cycles of 13.56 MHz.
FC = 13560000
BIT_US = 128 * 1000000 / FC                 # 9.44 µs
FDT_US = 1172 * 1000000 / FC                # PICC reply delay after a PCD frame, 86.4 µs
TIMER_TICK_US = 25.0                        # timer prescaler 0x0A9: 13.56 MHz / 339 → 40 kHz

REQA = 0x26
WUPA = 0x52
SEL_CODES = (0x93, 0x95, 0x97)              # cascade levels 1, 2, 3
CASCADE_TAG = 0x88
HLTA = 0x50
NTAG_READ = 0x30
NTAG_WRITE = 0xA2
NTAG_GET_VERSION = 0x60

# CommIrqReg bits
IRQ_TIMER = 0x01
IRQ_ERR = 0x02
IRQ_IDLE = 0x10
IRQ_RX = 0x20
IRQ_TX = 0x40
# ErrorReg bits
ERR_PROTOCOL = 0x01
ERR_PARITY = 0x02
ERR_CRC = 0x04
ERR_COLL = 0x08
ERR_BUFFER = 0x10

# VersionReg values of chips that work as an MFRC522.  0x91/0x92 are NXP's (datasheet 9.3.4.8); 0x88 and 0xB2
# are Fudan FM17522 clones, 0x12 a counterfeit (the miguelbalboa/rfid driver's self-test tables); 0x82 and 0x89
# are clones sold on cheap RC522 boards (reported by their users, issue 12).  0x00/0xFF mean nobody answers.
KNOWN_VERSIONS = {0x88: "FM17522 clone", 0x90: "MFRC522 v0.0", 0x91: "MFRC522 v1.0",
                  0x92: "MFRC522 v2.0", 0xB2: "FM17522 clone", 0x12: "counterfeit MFRC522",
                  0x82: "MFRC522 clone", 0x89: "MFRC522 clone"}


class RfidError(Exception):
    """Something went wrong talking to a tag or the reader."""


class NoReply(RfidError):
    """No tag answered before the chip's timer ran out."""


class Garbled(RfidError):
    """A reply that fails its CRC_A or BCC check, or breaks the protocol."""


class ReaderFault(RfidError):
    """The reader chip itself does not answer sensibly (wiring, power, a wedged chip)."""


class Collision(RfidError):
    """Several tags answered at once; ``bit`` is the first bit (0-based, in the reply) that differs."""

    def __init__(self, bit, data):
        # super(), not RfidError.__init__(self, …): MicroPython's exception classes have no __init__ attribute
        super().__init__("collision at bit %d" % bit)
        self.bit = bit
        self.data = data


def crc_a(data):
    """CRC_A of ISO/IEC 14443-3 (preset 0x6363, reflected CCITT), as the two bytes sent after ``data``."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def with_crc(data):
    data = bytes(data)
    return data + crc_a(data)


def check_crc(reply):
    """The payload of ``reply`` without its CRC, or :class:`Garbled` when the CRC does not match."""
    if len(reply) < 3 or crc_a(reply[:-2]) != bytes(reply[-2:]):
        raise Garbled("CRC_A mismatch in reply %s" % _hex(reply))
    return bytes(reply[:-2])


def bcc(data):
    x = 0
    for b in data:
        x ^= b
    return x


def _hex(data):
    return "".join("%02X" % b for b in data)


def air_us(nbits):
    """Time on air of a frame carrying ``nbits`` data bits: start, data, one parity bit per byte, end."""
    return (2 + nbits + nbits // 8) * BIT_US


def cascade_parts(uid):
    """The 4-byte UID parts sent at each cascade level (``88`` marks "more levels follow")."""
    uid = bytes(uid)
    if len(uid) == 4:
        return [uid]
    if len(uid) == 7:
        return [bytes((CASCADE_TAG,)) + uid[:3], uid[3:]]
    if len(uid) == 10:
        return [bytes((CASCADE_TAG,)) + uid[:3], bytes((CASCADE_TAG,)) + uid[3:6], uid[6:]]
    raise ValueError("a UID has 4, 7 or 10 bytes, not %d" % len(uid))


class KnownTags:
    """The UIDs a pad's next poll confirms: those found, and those missed in fewer than ``keep`` polls in a row.

    A tag that misses a poll stays in HALT; only WUPA wakes it, and the
    discovery step uses REQA, so forgetting it after one missed poll would lose
    it for as long as it lies there.  Keeping it on the list for ``keep`` polls
    (more than the debouncer needs to report it gone) costs one short timeout
    per attempt for a tag that really left.
    """

    def __init__(self, keep=8):
        self.keep = keep
        self.misses = {}

    def uids(self):
        return list(self.misses)

    def read_last(self):
        """The UIDs read in the last poll: the ones a poll confirms first (see :meth:`Pcd.inventory`)."""
        return [uid for uid, missed in self.misses.items() if missed == 0]

    def missing(self):
        """The UIDs kept although the last poll did not read them (a field left on: see :meth:`Pcd.inventory`)."""
        return [uid for uid, missed in self.misses.items() if missed > 0]

    def update(self, found, unresolved=False):
        """After a poll that found ``found``.  ``unresolved`` (a pile hid the pad): no tag missed anything — the
        cards under the pile lie there still, HALTed with the field on, and only a confirm's WUPA finds them."""
        if unresolved:
            for uid in found:
                self.misses[uid] = 0
            return
        for uid in list(self.misses):
            if uid not in found:
                self.misses[uid] += 1
                if self.misses[uid] >= self.keep:
                    del self.misses[uid]
        for uid in found:
            self.misses[uid] = 0

    def clear(self):
        self.misses = {}


class Pcd:
    """One MFRC522 and the tags in its field.

    ``timeout_us`` bounds the wait for a reply to REQA, WUPA, anticollision and
    SELECT; ISO 14443-3 fixes the reply delay at 86 µs, so 300 µs leaves room
    for slow tags without making an empty pad expensive.
    """

    unresolved = False     # the last inventory met a card it could not read (see inventory)

    def __init__(self, io, timeout_us=300, confirm_attempts=3):
        self.io = io
        self.timeout_us = timeout_us
        self.confirm_attempts = confirm_attempts
        self._reload = None          # cached TReloadReg value (ticks), so it is written only when it changes
        self._fifo_clean = False     # FIFO known to be empty: skip the flush
        self.version = None
        self.unresolved = False
        self._left_ready = False     # the last inventory ended on a failed anticollision: tags may lie READY

    # -- chip set-up -------------------------------------------------------------------
    def init(self):
        """Soft-reset the chip, set the timer and the RF front end, switch the antenna on.

        Returns the version register; raises :class:`ReaderFault` if it is not an
        MFRC522 (0x00 or 0xFF mean "nobody answers on MISO").
        """
        io = self.io
        io.write(io.CommandReg, io.PCD_RESETPHASE)
        io.sleep_us(50)
        version = io.read_regs([io.VersionReg])[0]
        self.version = version
        if version not in KNOWN_VERSIONS:
            raise ReaderFault("version register reads 0x%02X" % version)
        io.write(io.TModeReg, 0x80)          # TAuto: timer starts when a transmission ends
        io.write(io.TPrescalerReg, 0xA9)     # 25 µs per tick
        self._reload = None
        io.write(io.TxAutoReg, 0x40)         # 100 % ASK, as type A needs
        io.write(io.ModeReg, 0x3D)           # CRC preset 0x6363 (used by the coprocessor self-test)
        io.write(io.TxModeReg, 0x00)         # CRCs are computed and checked by the host: no mode switching
        io.write(io.RxModeReg, 0x00)
        io.write(io.CollReg, 0x00)           # ValuesAfterColl = 0: bits after a collision read as 0
        io.write(io.TxControlReg, 0x83)      # antenna drivers TX1 and TX2 on
        io.write(io.CommIEnReg, 0x80)
        self._fifo_clean = False
        return version

    def read_version(self):
        return self.io.read_regs([self.io.VersionReg])[0]

    def recover(self):
        """Pulse the RST line and initialise again (a reader that stopped answering or answers garbage)."""
        self.io.hard_reset()
        return self.init()

    def crc_self_test(self):
        """Let the chip's CRC coprocessor compute CRC_A of a known frame and compare with ours."""
        io = self.io
        sample = bytes((0x93, 0x70, 0x88, 0x04, 0x12, 0x34, 0xB2))
        io.write(io.CommandReg, io.PCD_IDLE)
        io.write(io.DivIrqReg, 0x04)
        io.write(io.FIFOLevelReg, 0x80)
        io.write_fifo(sample)
        io.write(io.CommandReg, io.PCD_CALCCRC)
        io.sleep_us(20)
        irq, lo, hi = io.read_regs([io.DivIrqReg, io.CRCResultRegL, io.CRCResultRegM])
        io.write(io.CommandReg, io.PCD_IDLE)
        self._fifo_clean = True
        return bool(irq & 0x04) and bytes((lo, hi)) == crc_a(sample)

    def antenna(self, on):
        self.io.write(self.io.TxControlReg, 0x83 if on else 0x80)

    # -- one frame -----------------------------------------------------------------------
    def _set_timeout(self, us):
        ticks = max(1, int(us / TIMER_TICK_US + 0.999))
        if ticks != self._reload:
            io = self.io
            if self._reload is None or (ticks >> 8) != (self._reload >> 8):
                io.write(io.TReloadRegH, ticks >> 8)
            io.write(io.TReloadRegL, ticks & 0xFF)
            self._reload = ticks

    def transceive(self, data, tx_bits=0, rx_align=0, reply_bits=16, timeout_us=None, reply_delay_us=0):
        """Send ``data`` (its last byte holds ``tx_bits`` bits, 0 = all 8) and return ``(reply, valid_bits)``.

        ``reply_bits`` is the longest reply expected; the host sleeps for the
        frame, the reply delay and that reply (or the timer, whichever is later)
        and then reads all status in one transaction.  Raises :class:`NoReply`,
        :class:`Collision`, :class:`Garbled`.
        """
        io = self.io
        timeout_us = self.timeout_us if timeout_us is None else timeout_us
        self._set_timeout(timeout_us)
        io.write(io.CommandReg, io.PCD_IDLE)
        io.write(io.CommIrqReg, 0x7F)
        if not self._fifo_clean:
            io.write(io.FIFOLevelReg, 0x80)
        io.write_fifo(data)
        io.write(io.CommandReg, io.PCD_TRANSCEIVE)
        io.write(io.BitFramingReg, 0x80 | (rx_align << 4) | tx_bits)      # StartSend
        sent_bits = len(data) * 8 - ((8 - tx_bits) % 8)
        on_air = air_us(sent_bits)
        expected = FDT_US + reply_delay_us + air_us(reply_bits)
        # Usually sleep until the timer must have fired (one status read settles it); a slow
        # reply (an EEPROM write) is looked at when expected, then every 200 µs until the timer.
        wait = on_air + (expected if reply_delay_us else max(timeout_us, expected)) + BIT_US
        io.sleep_us(wait)
        irq, err, level, control, coll = self._status()
        deadline = on_air + timeout_us + air_us(64 * 8)     # a longer reply than expected: bounded wait
        while not irq & (IRQ_RX | IRQ_TIMER) and wait < deadline:
            io.sleep_us(200)
            wait += 200
            irq, err, level, control, coll = self._status()
        if not irq & (IRQ_RX | IRQ_TIMER):
            self._fifo_clean = False
            raise ReaderFault("no interrupt from the chip after %d µs (CommIrqReg 0x%02X)" % (wait, irq))
        if irq & IRQ_RX == 0 or level == 0:
            self._fifo_clean = True
            raise NoReply("no reply")
        if level > 64:
            self._fifo_clean = False
            raise ReaderFault("FIFO level register reads %d" % level)
        reply = bytes(io.read_regs([io.FIFODataReg] * level))
        self._fifo_clean = True
        last_bits = control & 0x07
        valid = (level - 1) * 8 + (last_bits or 8)
        if err & ERR_COLL:
            if coll & 0x20:                     # CollPosNotValid
                raise Garbled("collision outside the valid range")
            raise Collision((coll & 0x1F or 32) - 1, reply)   # bit index in the FIFO, alignment included
        if err & (ERR_PROTOCOL | ERR_PARITY | ERR_BUFFER):
            raise Garbled("reply with reader error flags 0x%02X" % err)
        return reply, valid

    def _status(self):
        """CommIrq, Error, FIFOLevel, Control and Coll in one transaction, plus the version register.

        Reading the version register costs one byte more, not one transaction
        more, and catches a reader that stopped answering (0x00), answers
        garbage, or was reset behind our back, in every single frame.
        """
        io = self.io
        irq, err, level, control, coll, version = io.read_regs(
            [io.CommIrqReg, io.ErrorReg, io.FIFOLevelReg, io.ControlReg, io.CollReg, io.VersionReg])
        if self.version is not None and version != self.version:
            self._fifo_clean = False
            raise ReaderFault("version register reads 0x%02X instead of 0x%02X" % (version, self.version))
        return irq, err, level, control, coll

    def transmit(self, data):
        """Send a frame nobody answers (HLTA): wait only until it has left the antenna."""
        io = self.io
        io.write(io.CommandReg, io.PCD_IDLE)
        if not self._fifo_clean:
            io.write(io.FIFOLevelReg, 0x80)
        io.write_fifo(data)
        io.write(io.CommandReg, io.PCD_TRANSMIT)
        io.sleep_us(air_us(len(data) * 8) + 2 * BIT_US)
        self._fifo_clean = True

    # -- ISO 14443-3 commands ------------------------------------------------------------
    def request(self, wake_up=False):
        """REQA (tags in IDLE) or WUPA (IDLE and HALT): the ATQA, or None if the field is empty."""
        try:
            reply, bits = self.transceive(bytes((WUPA if wake_up else REQA,)), tx_bits=7, reply_bits=16)
        except NoReply:
            return None
        except Collision as exc:
            return exc.data            # different ATQAs overlap: still someone is there
        return reply

    def halt(self):
        self.transmit(with_crc((HLTA, 0x00)))

    def _select_level(self, level, part):
        """SELECT at ``level`` with a complete 4-byte ``part``; returns the SAK."""
        frame = with_crc(bytes((SEL_CODES[level], 0x70)) + part + bytes((bcc(part),)))
        reply, bits = self.transceive(frame, reply_bits=24)
        if bits != 24:
            raise Garbled("SAK of %d bits" % bits)
        return check_crc(reply)[0]

    def select_known(self, uid):
        """SELECT a tag whose UID we know, skipping anticollision; True if it answered."""
        parts = cascade_parts(uid)
        for level, part in enumerate(parts):
            sak = self._select_level(level, part)
            more = bool(sak & 0x04)
            if more != (level < len(parts) - 1):
                raise Garbled("SAK 0x%02X does not fit a %d-byte UID" % (sak, len(uid)))
        return True

    def anticollision(self, level):
        """The complete 4-byte UID part of one tag at cascade ``level``, resolving collisions bit by bit.

        Known bits are sent with the ANTICOLLISION command; tags whose UID starts
        with them answer with the rest.  At a collision we take the branch with a
        1 at that bit and go on; the other branch is found by a later REQA.
        """
        known = bytearray(5)
        nknown = 0
        for _ in range(33):                 # at most one round per bit of the 32-bit part, plus one
            nbytes, nbits = nknown // 8, nknown % 8
            sent = bytes((SEL_CODES[level], 0x20 + (nbytes << 4) + nbits)) + bytes(known[:nbytes + (1 if nbits else 0)])
            try:
                reply, valid = self.transceive(sent, tx_bits=nbits, rx_align=nbits,
                                               reply_bits=40 - nknown)
            except Collision as exc:
                pos = nbytes * 8 + exc.bit        # position of the colliding bit in the 40-bit part
                if pos < nknown or pos >= 32:
                    raise Garbled("collision reported at bit %d" % pos)
                self._merge(known, nbytes * 8, nknown, exc.data, pos)
                known[pos // 8] |= 1 << (pos % 8)
                nknown = pos + 1
                continue
            if valid < 40 - nbytes * 8:
                raise Garbled("anticollision reply of %d bits" % valid)
            self._merge(known, nbytes * 8, nknown, reply, 40)
            part = bytes(known[:4])
            if bcc(part) != known[4]:
                raise Garbled("BCC mismatch in UID part %s" % _hex(known))
            return part
        raise Garbled("anticollision did not converge")

    @staticmethod
    def _merge(known, base, start, reply, upto):
        """Copy UID-part bits ``start``…``upto - 1`` from ``reply``, whose bit 0 is part bit ``base``."""
        for pos in range(start, upto):
            b = pos - base
            if b // 8 >= len(reply):
                break
            if (reply[b // 8] >> (b % 8)) & 1:
                known[pos // 8] |= 1 << (pos % 8)
            else:
                known[pos // 8] &= ~(1 << (pos % 8)) & 0xFF

    def select_new(self):
        """Anticollision and SELECT through all cascade levels: the UID of one tag now ACTIVE."""
        uid = b""
        for level in range(3):
            part = self.anticollision(level)
            sak = self._select_level(level, part)
            if sak & 0x04:
                if part[0] != CASCADE_TAG:
                    raise Garbled("SAK says more UID follows, but part %s has no cascade tag" % _hex(part))
                uid += part[1:]
                continue
            uid += part
            if len(uid) not in (4, 7, 10):
                raise Garbled("UID of %d bytes" % len(uid))
            return uid
        raise Garbled("more than three cascade levels")

    def confirm(self, uid, attempts=None):
        """Is the tag ``uid`` (HALT since the last poll) still here?  It ends in HALT again."""
        # under a pile (the last inventory could not read the pad) every attempt times out: one will do, so
        # that a pile does not slow down the whole table's cycle
        for _ in range(1 if self.unresolved else attempts or self.confirm_attempts):
            try:
                if self.request(wake_up=True) is None:
                    continue
                self.select_known(uid)
            except (NoReply, Garbled, Collision):
                self._unselectable = True      # something answered the WUPA, but not to its SELECT
                continue
            self.halt()
            return True
        return False

    def inventory(self, known=(), limit=8, powered_up=False, ask_twice=False, missing=()):
        """Every tag on the pad: ``known`` UIDs (bytes) confirmed, new ones discovered; a list of UIDs.

        On a pad that had no tags, discovery starts with WUPA rather than REQA,
        so that a tag another reader has halted (a card lying across two pads)
        is seen here too and can be reported as a conflict.  ``limit`` bounds
        the discovery loop: a pad holds at most that many tags.  ``powered_up``:
        the field has just been switched on, so every tag lies in IDLE — one
        confirm attempt each, and discovery by REQA (see the module's docstring).
        ``ask_twice``: cards are arriving on this pad (a slap), so beside exactly
        one card a silent REQA is asked once more — a second card stacked on the
        first is detuned and now and then sits out a round.  ``missing``: UIDs
        kept although the last poll did not read them (a field left on): each is
        asked once, and its silence wakes nobody — it most likely left, and one
        still lying there is HALTed, so that one WUPA and SELECT find it.
        """
        found = []
        self._unselectable = False
        for uid in known:
            if self.confirm(uid, 1 if powered_up else None):
                found.append(bytes(uid))
        lost = len(found) < len(known)
        for uid in missing:
            if self.confirm(uid, 1):
                found.append(bytes(uid))
        confirmed = len(found)
        failures = 0
        # WUPA (not REQA) when the pad had no tags, or when a tag read in the last poll did not answer: cards
        # that went quiet under a pile are HALTed, and only WUPA lets them show that something is still there
        # (with the field just switched on nothing lies in HALT but what this poll has confirmed).  A tag
        # missing since an earlier poll does not: the WUPA would wake every card confirmed above, to be read
        # through anticollision once more, in each poll until it is forgotten (KnownTags.keep)
        wake_up = not known or (lost and not powered_up)
        self.unresolved = False
        quiet = 0
        # tags left READY by a failed anticollision — in this poll, or at the end of the last one (a pile) —
        # fall back to IDLE on the next request without answering (ISO/IEC 14443-3 state machine): after a
        # failure, ask once more, or a pile would look like an empty pad in every other poll
        left_ready = self._left_ready
        while len(found) < limit and failures < 3:
            try:
                if self.request(wake_up=wake_up) is None:
                    quiet += 1
                    # beside one card a second stacked one is detuned and now and then sits out a round (the
                    # physics' TWO_STACK_ANSWER): while cards arrive, ask once more rather than a cycle later
                    if (failures == 0 and not left_ready and not (ask_twice and len(found) == 1)) or quiet > 1:
                        break
                    left_ready = False
                    continue
                uid = self.select_new()
            except NoReply:
                # the REQA/WUPA was answered, then silence: what three or more stacked tags do (the physics'
                # PiicoDev report); another try in this poll meets the same silence, so the next poll asks
                failures = 3
                continue
            except (Garbled, Collision):
                failures += 1
                continue
            wake_up = False
            self.halt()
            if uid not in found:
                found.append(uid)
                quiet = 0
            else:
                # a card read twice (woken by a WUPA, or its HLTA was lost) is no answer from a new one: counted
                # as a silence, so that a card that answers every other request cannot keep the loop going
                quiet += 1
                if quiet > 1:
                    break
        # Something answered REQA/WUPA but would not let itself be selected, and nothing new was found: a
        # pile of three or more cards, a collision that would not resolve (or, now and then, a neighbour's
        # garbled reply: the debouncer wants two such polls in a row before it tells the player).  Known
        # tags that all answered WUPA but none its SELECT, on a pad where nothing could be read, are a pile
        # too: its tags, left READY by the last poll, fall back silently at the first request of this one.
        self.unresolved = len(found) == confirmed and (failures > 0 or (self._unselectable and not found))
        self._left_ready = failures > 0
        return found

    # -- NTAG21x memory ------------------------------------------------------------------
    def read_pages(self, page):
        """Four pages (16 bytes) from ``page`` of the ACTIVE tag."""
        reply, bits = self.transceive(with_crc((NTAG_READ, page)), reply_bits=18 * 8, timeout_us=1000)
        data = check_crc(reply)
        if len(data) != 16:
            raise Garbled("READ returned %d bytes" % len(data))
        return data

    def write_page(self, page, data):
        """Write four bytes to ``page`` of the ACTIVE tag; the tag acknowledges after programming."""
        if len(data) != 4:
            raise ValueError("an NTAG page holds 4 bytes")
        reply, bits = self.transceive(with_crc(bytes((NTAG_WRITE, page)) + bytes(data)),
                                      reply_bits=4, timeout_us=10000, reply_delay_us=4100)
        if bits != 4 or reply[0] & 0x0F != 0x0A:
            raise Garbled("write of page %d not acknowledged (0x%X)" % (page, reply[0] & 0x0F))

    def activate(self, uid):
        """Wake and SELECT the tag ``uid`` so that it accepts READ/WRITE; raises if it is not here."""
        if self.request(wake_up=True) is None:
            raise NoReply("tag %s does not answer" % _hex(uid))
        self.select_known(uid)
