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

What runs where: :mod:`hardware.ntag` finds the message among the tag's TLVs
(skipping the Lock Control TLV a factory-fresh NTAG213 carries); it runs on
the Pi and, copied, on the reader bridge's Pico.  The message itself is
encoded and decoded by ndeflib (the NDEF library of nfcpy) on the Pi only:
MicroPython has no ndeflib, so the bridge sends the message bytes in hex and
the host decodes them here.  Whatever a tag holds, reading it gives a card
id, "none", or "unreadable" (:data:`UNREADABLE`), never an exception.
"""
from __future__ import annotations

import threading

import ndef

from hardware import ntag
from hardware.rc522.pcd import Pcd, RfidError

RECORD_TYPE = "urn:nfc:ext:tabletop-companion.org:card"
FIRST_USER_PAGE = ntag.FIRST_USER_PAGE


class NdefError(ValueError):
    pass


class Unreadable:
    """The tag's memory holds something that is not a readable card id (``why`` says what)."""

    def __init__(self, why: str):
        self.why = why

    def __repr__(self):
        return f"Unreadable({self.why!r})"

    def __str__(self):
        return f"unreadable card id ({self.why})"


def encode_card_id(card_id: str) -> bytes:
    """The TLV bytes that carry ``card_id``, padded to whole 4-byte pages."""
    payload = card_id.encode("utf-8")
    if len(payload) > 200:
        raise NdefError(f"card id {card_id!r} is too long for a tag record")
    message = b"".join(ndef.message_encoder([ndef.Record(RECORD_TYPE, "", payload)]))
    tlv = bytes((0x03, len(message))) + message + b"\xFE"
    return tlv + bytes(-len(tlv) % 4)


def card_id_in_message(message: bytes) -> str | None | Unreadable:
    """The card id in an NDEF message (ndeflib decodes it), None if it holds none, or :class:`Unreadable`."""
    if not message:
        return None                         # an empty NDEF TLV: a blank tag
    try:
        # known_types={}: every record stays a plain Record, so no record-specific parser runs on tag bytes;
        # "relax" accepts what other writers get slightly wrong (a missing ME flag, say).  External type
        # names compare case-insensitively (NFC Forum RTD 1.0, 3.2.2).
        for record in ndef.message_decoder(message, errors="relax", known_types={}):
            if record.type.lower() == RECORD_TYPE:
                return bytes(record.data).decode("utf-8")
    except UnicodeDecodeError:
        return Unreadable("card id is not UTF-8")
    except (ndef.DecodeError, ValueError) as exc:   # ValueError: ndeflib refusing a malformed type name
        return Unreadable(f"NDEF: {exc}")
    return None


def decode_card_id(area: bytes) -> str | None | Unreadable:
    """The card id in a whole data area (the bytes from page 4), None, or :class:`Unreadable`."""
    status, value = ntag.find_message(area)
    if status == ntag.FOUND:
        return card_id_in_message(value)
    if status == ntag.BAD:
        return Unreadable(value)
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


def read_card_id(pcd: Pcd, uid: bytes) -> str | None | Unreadable:
    """The card id written on the tag ``uid``, None, or :class:`Unreadable`.  Raises ``RfidError`` only."""
    status, value = ntag.read_message(pcd, uid)
    if status == ntag.FOUND:
        return card_id_in_message(value)
    if status == ntag.BAD:
        return Unreadable(value)
    return None


class NdefCache:
    """Card ids read from tags, one read per UID (a failed read is retried once on a later poll).

    :meth:`card_id` gives the debouncer a card id or None; a tag whose memory
    holds something unreadable counts as carrying no card id (the companion
    then looks its UID up as for any unwritten tag), and why is kept in
    :attr:`unreadable` for the Hardware screen and ``companion doctor``.
    """

    GIVE_UP_AFTER = 2          # failed reads before a tag counts as "carries no card id" (e.g. MIFARE Classic)

    def __init__(self):
        self._ids: dict[bytes, str | None] = {}
        self._failures: dict[bytes, int] = {}
        self._lock = threading.Lock()
        self.unreadable: dict[bytes, str] = {}
        self.reads = 0

    def card_id(self, pcd: Pcd, uid: bytes) -> str | None:
        with self._lock:
            if uid in self._ids:
                return self._ids[uid]
        self.reads += 1
        try:
            value = read_card_id(pcd, uid)
        except RfidError:
            with self._lock:
                self._failures[uid] = self._failures.get(uid, 0) + 1
                if self._failures[uid] < self.GIVE_UP_AFTER:
                    return None             # a bad read: try again on the next sighting
            value = None
        return self.settle(uid, value)

    def settle(self, uid: bytes, value: str | None | Unreadable) -> str | None:
        """Remember what the tag ``uid`` carries (read here, or by the reader bridge); the card id or None."""
        with self._lock:
            if isinstance(value, Unreadable):
                self.unreadable[bytes(uid)] = value.why
                value = None
            self._ids[bytes(uid)] = value
        return value

    def known(self, uid: bytes) -> bool:
        with self._lock:
            return bytes(uid) in self._ids

    def remember(self, uid: bytes, card_id: str | None) -> None:
        with self._lock:
            self._ids[bytes(uid)] = card_id
            self.unreadable.pop(bytes(uid), None)
