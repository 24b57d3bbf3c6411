"""Virtual ISO/IEC 14443-3 type A tags: the card side of the emulator.

A :class:`VirtualTag` answers frames the way a real tag does in each state of
the ISO 14443-3 state machine::

    IDLE  --REQA/WUPA-->  READY  --SELECT (last level)-->  ACTIVE  --HLTA-->  HALT
    HALT  --WUPA-->  READY*  …  ACTIVE*  (the starred states fall back to HALT, not IDLE)

In READY an ANTICOLLISION frame is answered only if its known bits match the
tag's UID part at the current cascade level; a SELECT with another UID, or any
frame the state does not expect, sends the tag back to IDLE (HALT from the
starred states).  NTAG213/215/216 memory (pages of 4 bytes) answers READ and
WRITE; "classic" is a 4-byte MIFARE Classic-like tag without memory commands.
"""
from __future__ import annotations

from hardware.rc522.pcd import CASCADE_TAG, SEL_CODES, bcc, cascade_parts, crc_a

IDLE, READY, ACTIVE, HALT = "IDLE", "READY", "ACTIVE", "HALT"

# Pages per type and the capability container's size byte (user memory = size × 8 bytes).
NTAG_TYPES = {"ntag213": (45, 0x12), "ntag215": (135, 0x3E), "ntag216": (231, 0x6D)}
NTAG_VERSION = {"ntag213": 0x0F, "ntag215": 0x11, "ntag216": 0x13}
WRITE_TIME_S = 4.1e-3          # NTAG21x EEPROM programming time before the ACK
# Memory content at delivery (NXP NTAG213/215/216 datasheet, "Memory content at delivery"): the
# NTAG213 ships with a Lock Control TLV (01 03 A0 0C 34) before its empty NDEF TLV (03 00) and the
# terminator (FE); the NTAG215/216 with the empty NDEF TLV alone.  Dumps of new NTAG213s show the
# same bytes (docs/hardware/emulator.md).
FACTORY_DATA = {"ntag213": bytes.fromhex("0103A00C340300FE"), "ntag215": bytes.fromhex("0300FE00"),
                "ntag216": bytes.fromhex("0300FE00")}
FACTORY_CONFIG = bytes.fromhex("000000BD" "040000FF" "00050000" "FFFFFFFF" "00000000")   # dyn. lock, CFG0, CFG1, PWD, PACK


class VirtualTag:
    """A tag with a 4-, 7- or 10-byte UID.  ``kind``: ntag213/215/216 or classic."""

    def __init__(self, uid: bytes | str, kind: str | None = None):
        if isinstance(uid, str):
            uid = bytes.fromhex(uid)
        self.uid = bytes(uid)
        self.parts = cascade_parts(self.uid)
        self.kind = kind or ("classic" if len(self.uid) == 4 else "ntag213")
        if self.kind != "classic" and self.kind not in NTAG_TYPES:
            raise ValueError(f"unknown tag kind {self.kind!r}")
        self.memory = self._blank_memory() if self.kind in NTAG_TYPES else None
        self.state = IDLE
        self.from_halt = False
        self.level = 0
        self.deaf = False              # fault injection: ignores everything until the next REQA/WUPA
        self.fields: list = []         # the emulated readers whose field it lies in
        self.offset = (0.0, 0.0)       # where its antenna lies relative to the pad centre (cm)
        self.ready_at = 0.0            # modelled time from which a powered tag answers (power-up delay)

    def __repr__(self):
        return f"VirtualTag({self.uid.hex().upper()}, {self.kind}, {self.state})"

    @property
    def uid_hex(self) -> str:
        return self.uid.hex().upper()

    def _blank_memory(self) -> bytearray:
        pages, size = NTAG_TYPES[self.kind]
        mem = bytearray(pages * 4)
        u = self.uid if len(self.uid) == 7 else (self.uid + bytes(7))[:7]
        mem[0:3] = u[0:3]
        mem[3] = CASCADE_TAG ^ u[0] ^ u[1] ^ u[2]
        mem[4:8] = u[3:7]
        mem[8] = bcc(u[3:7])
        mem[9] = 0x48                                     # "internal" byte, as NXP ships it
        mem[12:16] = bytes((0xE1, 0x10, size, 0x00))     # capability container: NDEF, v1.0, size, read/write
        data = FACTORY_DATA[self.kind]
        mem[16:16 + len(data)] = data
        mem[(pages - 5) * 4:] = FACTORY_CONFIG
        return mem

    @property
    def user_pages(self) -> range:
        pages, _ = NTAG_TYPES[self.kind]
        return range(4, pages - 5)

    def power_off(self) -> None:
        """Out of every field (lifted, or the antenna went off): back to IDLE."""
        self.state, self.from_halt, self.level, self.deaf = IDLE, False, 0, False

    @property
    def atqa(self) -> bytes:
        return bytes(({4: 0x04, 7: 0x44, 10: 0x84}[len(self.uid)], 0x00))

    def _fall_back(self) -> None:
        self.state = HALT if self.from_halt else IDLE
        self.level = 0

    def ready(self, now: float) -> bool:
        """Powered long enough to answer (the ISO/IEC 14443-3 power-up time has passed)."""
        return now >= self.ready_at

    def receive(self, frame: bytes, nbits: int, miss: bool = False) -> tuple[list[int], float] | None:
        """Handle a PCD frame of ``nbits`` bits; returns (reply bits, extra delay s) or None for silence.

        ``miss`` (fault injection, rolled for each REQA/WUPA) makes the tag deaf
        until the next REQA/WUPA, like a tag that did not couple this time.
        """
        if nbits == 7:
            cmd = frame[0] & 0x7F
            if cmd not in (0x26, 0x52):
                return None
            self.deaf = miss
            if self.deaf:
                return None
            if self.state == IDLE or (cmd == 0x52 and self.state == HALT):
                self.from_halt = self.state == HALT
                self.state, self.level = READY, 0
                return _bits(self.atqa), 0.0
            if self.state in (READY, ACTIVE):
                self._fall_back()
            return None
        if self.deaf or self.state in (IDLE, HALT):
            return None
        if self.state == READY:
            return self._ready(frame, nbits)
        return self._active(frame, nbits)

    def _ready(self, frame: bytes, nbits: int):
        if frame[0] != SEL_CODES[self.level] or len(frame) < 2:
            self._fall_back()
            return None
        part = self.parts[self.level]
        field = part + bytes((bcc(part),))
        nvb = frame[1]
        if nvb == 0x70:
            if nbits != 72 or crc_a(frame[:7]) != frame[7:9] or frame[2:7] != field:
                self._fall_back()
                return None
            if self.level < len(self.parts) - 1:
                self.level += 1
                sak = 0x04
            else:
                self.state = ACTIVE
                sak = 0x08 if self.kind == "classic" else 0x00
            return _bits(bytes((sak,)) + crc_a(bytes((sak,)))), 0.0
        known = nbits - 16
        if known < 0 or known > 40 or (nvb >> 4) * 8 + (nvb & 0x0F) != nbits:
            self._fall_back()
            return None
        mine = _bits(field)
        sent = _bits(frame[2:])[:known]
        if mine[:known] != sent:
            return None                     # not this tag's prefix: stay READY, keep quiet
        return mine[known:], 0.0

    def _active(self, frame: bytes, nbits: int):
        if nbits % 8 or len(frame) < 3 or crc_a(frame[:-2]) != frame[-2:]:
            self._fall_back()
            return None
        cmd, body = frame[0], frame[:-2]
        if cmd == 0x50 and body == b"\x50\x00":
            self.state, self.level = HALT, 0
            return None
        if self.memory is None:
            self._fall_back()
            return None
        pages = len(self.memory) // 4
        if cmd == 0x30 and len(body) == 2:
            page = body[1]
            if page >= pages:
                return _bits(b"\x00")[:4], 0.0          # NAK
            data = bytes(self.memory[((page + i) % pages) * 4 + j] for i in range(4) for j in range(4))
            return _bits(data + crc_a(data)), 0.0
        if cmd == 0xA2 and len(body) == 6:
            page = body[1]
            if page < 4 or page >= pages - 5:
                return _bits(b"\x00")[:4], 0.0          # NAK: not user memory
            self.memory[page * 4:page * 4 + 4] = body[2:6]
            return _bits(b"\x0A")[:4], WRITE_TIME_S
        if cmd == 0x60 and len(body) == 1:
            data = bytes((0x00, 0x04, 0x04, 0x02, 0x01, 0x00, NTAG_VERSION[self.kind], 0x03))
            return _bits(data + crc_a(data)), 0.0
        self._fall_back()
        return None


def _bits(data: bytes) -> list[int]:
    """Bytes as a list of bits, least significant bit of each byte first (the order on the air)."""
    return [(b >> i) & 1 for b in data for i in range(8)]


def bits_to_bytes(bits: list[int], offset: int = 0) -> bytes:
    """Pack bits LSB first, the first one at bit ``offset`` of byte 0 (the chip's RxAlign)."""
    total = offset + len(bits)
    out = bytearray((total + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            pos = offset + i
            out[pos // 8] |= 1 << (pos % 8)
    return bytes(out)


def frame_bits(data: bytes, tx_last_bits: int) -> int:
    return len(data) * 8 - ((8 - tx_last_bits) % 8)
