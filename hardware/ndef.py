"""Self-describing cards: the card id written on the tag as an NDEF record.

A tag registered once in one companion's database is unknown to every other
companion.  Writing the card id *onto* the tag fixes that: any companion reads
it back and needs no registry.  The id goes into NTAG21x user memory (from
page 4) as an NFC Forum NDEF message holding one *external type* record::

    03 <len>                      NDEF message TLV
      D4 <type len> <payload len> record header: MB ME SR, TNF 4 (external type)
      "tabletop-companion.org:card"   record type
      "sams/042"                  payload: the card id, UTF-8
    FE                            terminator TLV

An external type keeps phones from treating the tag as a web link or a note,
and a phone app can still read it.  Reading a tag costs a few READ commands,
so :class:`NdefCache` reads each UID once and remembers the answer (including
"no card id on this tag").
"""
from __future__ import annotations

import threading

from hardware.rc522.pcd import Pcd, RfidError

RECORD_TYPE = b"tabletop-companion.org:card"
FIRST_USER_PAGE = 4


class NdefError(ValueError):
    pass


def encode_card_id(card_id: str) -> bytes:
    """The TLV bytes that carry ``card_id``, padded to whole 4-byte pages."""
    payload = card_id.encode("utf-8")
    if len(payload) > 200:
        raise NdefError(f"card id {card_id!r} is too long for a tag record")
    record = bytes((0xD4, len(RECORD_TYPE), len(payload))) + RECORD_TYPE + payload
    tlv = bytes((0x03, len(record))) + record + b"\xFE"
    return tlv + bytes(-len(tlv) % 4)


def decode_card_id(memory: bytes) -> str | None:
    """The card id in user memory (starting at page 4), or None when the tag carries none."""
    i = 0
    while i < len(memory):
        t = memory[i]
        if t == 0x00:                      # NULL TLV: padding
            i += 1
            continue
        if t == 0xFE or i + 1 >= len(memory):
            return None
        length = memory[i + 1]
        start = i + 2
        if length == 0xFF:
            if i + 3 >= len(memory):
                return None
            length = memory[i + 2] << 8 | memory[i + 3]
            start = i + 4
        if t == 0x03:
            return _card_id_in_message(memory[start:start + length])
        i = start + length
    return None


def _card_id_in_message(message: bytes) -> str | None:
    i = 0
    while i + 3 <= len(message):
        header = message[i]
        short = header & 0x10
        has_id = header & 0x08
        type_len = message[i + 1]
        if short:
            payload_len = message[i + 2]
            j = i + 3
        else:
            if i + 6 > len(message):
                return None
            payload_len = int.from_bytes(message[i + 2:i + 6], "big")
            j = i + 6
        id_len = 0
        if has_id:
            id_len = message[j]
            j += 1
        rtype = message[j:j + type_len]
        payload = message[j + type_len + id_len:j + type_len + id_len + payload_len]
        if header & 0x07 == 0x04 and rtype == RECORD_TYPE:
            try:
                return payload.decode("utf-8")
            except UnicodeDecodeError:
                return None
        if header & 0x40:                  # ME: last record
            return None
        i = j + type_len + id_len + payload_len
    return None


def write_card_id(pcd: Pcd, uid: bytes, card_id: str) -> None:
    """Write ``card_id`` onto the tag ``uid`` lying on ``pcd``'s pad, and check it by reading it back."""
    data = encode_card_id(card_id)
    pcd.activate(uid)
    try:
        cc = pcd.read_pages(3)[:4]
        if cc[0] != 0xE1:
            raise NdefError("this tag has no NDEF capability container (not an NTAG21x?)")
        capacity = cc[2] * 8
        if len(data) > capacity:
            raise NdefError(f"card id needs {len(data)} bytes, the tag has {capacity}")
        for n in range(len(data) // 4):
            pcd.write_page(FIRST_USER_PAGE + n, data[4 * n:4 * n + 4])
    finally:
        pcd.halt()
    if read_card_id(pcd, uid) != card_id:
        raise NdefError("the card id read back differs from the one written")


def read_card_id(pcd: Pcd, uid: bytes, max_pages: int = 64) -> str | None:
    """The card id written on the tag ``uid``, or None.  Reads 4 pages at a time until the TLV ends."""
    pcd.activate(uid)
    try:
        memory = b""
        page = FIRST_USER_PAGE
        while page < FIRST_USER_PAGE + max_pages:
            memory += pcd.read_pages(page)
            page += 4
            if memory[0] != 0x03 or memory[1] == 0xFF or len(memory) >= memory[1] + 2:
                break                       # the message is complete, or not one we wrote
        return decode_card_id(memory)
    finally:
        pcd.halt()


class NdefCache:
    """Card ids read from tags, one read per UID (a failed read is retried once on a later poll)."""

    GIVE_UP_AFTER = 2          # failed reads before a tag counts as "carries no card id" (e.g. MIFARE Classic)

    def __init__(self):
        self._ids: dict[bytes, str | None] = {}
        self._failures: dict[bytes, int] = {}
        self._lock = threading.Lock()
        self.reads = 0

    def card_id(self, pcd: Pcd, uid: bytes) -> str | None:
        with self._lock:
            if uid in self._ids:
                return self._ids[uid]
        self.reads += 1
        try:
            value = read_card_id(pcd, uid)
        except RfidError:
            value = _NOT_READABLE
        with self._lock:
            if value is _NOT_READABLE:
                self._failures[uid] = self._failures.get(uid, 0) + 1
                if self._failures[uid] < self.GIVE_UP_AFTER:
                    return None             # a bad read: try again on the next sighting
                value = None
            self._ids[uid] = value
        return value

    def remember(self, uid: bytes, card_id: str | None) -> None:
        with self._lock:
            self._ids[bytes(uid)] = card_id


_NOT_READABLE = object()
