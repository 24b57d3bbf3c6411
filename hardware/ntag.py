"""Where the NDEF message lies in an NTAG21x: the NFC Forum Type 2 Tag TLV area.

An NTAG213/215/216 keeps its capability container (CC) in page 3 and its data
area from page 4 on, as a chain of TLV blocks (NFC Forum Type 2 Tag Operation
spec 1.1, section 2.3)::

    00                    NULL TLV: one byte of padding, no length
    01 <len> <value>      Lock Control TLV: where the dynamic lock bytes are
    02 <len> <value>      Memory Control TLV: reserved memory
    03 <len> <value>      NDEF Message TLV: the message
    FD <len> <value>      proprietary
    FE                    Terminator TLV: nothing follows

``<len>`` is one byte, or ``FF`` and two bytes big-endian for 255 bytes and
more.  A factory-fresh NTAG213 holds ``01 03 A0 0C 34`` (a Lock Control TLV
pointing at its dynamic lock bytes in page 40) and then ``03 00 FE`` (an empty
message); NTAG215/216 start with ``03 00 FE`` (NXP's NTAG213/215/216
datasheet, "memory content at delivery").  On NTAG21x the dynamic lock bytes
and configuration pages lie *after* the data area the CC announces, so no
reserved byte ever falls inside a message: skipping the control TLVs is all a
reader has to do.

This module finds the message; it does not interpret it.  ndeflib decodes
messages, not Type 2 Tag TLVs (nfcpy walks them in its tag driver,
``nfc.tag.tt2``, bound to its own reader stack), so the walk is written here.  The host decodes it
with ndeflib (:mod:`hardware.ndef`); the reader bridge firmware on the Pico,
which has no ndeflib, runs this very file (copied as ``ntag.py``) and sends the
message bytes to the host in hex.  So it is written in the subset of Python
that MicroPython runs, and nothing in a tag's memory can make it raise: it
returns :data:`BAD` instead.
"""

CC_PAGE = 3
CC_MAGIC = 0xE1
FIRST_USER_PAGE = 4
MAX_MESSAGE = 256           # bytes of message we accept at most: a card id record needs about 50
MAX_AREA = 1024             # bytes of data area we walk at most (an NTAG216 has 888), whatever the CC claims

FOUND, NONE, MORE, BAD = "found", "none", "more", "bad"


def find_message(area, complete=True):
    """Walk the TLVs of ``area`` (data area bytes from page 4).

    Returns ``(FOUND, message)``, ``(NONE, None)`` when the chain ends (a
    terminator, or the end of the area) without an NDEF TLV, or ``(BAD, why)``.
    With ``complete=False`` (``area`` is only the start of the data area) it
    may also return ``(MORE, None)``: read on.
    """
    i = 0
    n = len(area)
    while i < n:
        t = area[i]
        if t == 0x00:
            i += 1
            continue
        if t == 0xFE:
            return NONE, None
        if i + 1 >= n:
            break
        length = area[i + 1]
        start = i + 2
        if length == 0xFF:
            if i + 3 >= n:
                break
            length = area[i + 2] << 8 | area[i + 3]
            start = i + 4
        if t == 0x03:
            if length > MAX_MESSAGE:
                return BAD, "NDEF message of %d bytes" % length
            if start + length > n:
                break
            return FOUND, bytes(area[start:start + length])
        if t not in (0x01, 0x02, 0xFD):
            return BAD, "unknown TLV 0x%02X at byte %d" % (t, i)
        i = start + length
    if not complete:
        return MORE, None
    if i == n:
        return NONE, None                   # the chain fills the area exactly, with no terminator
    return BAD, "a TLV runs past the end of the data area"


def read_message(pcd, uid):
    """``(status, message or why)`` for the tag ``uid`` on ``pcd``'s pad (see :func:`find_message`).

    Reads 4 pages at a time from page 3 (so the CC comes with the first 12
    data bytes, at no extra cost) until the NDEF TLV is complete, never past
    the data area the CC announces.  ``NONE`` for a tag without an NDEF CC.
    Communication errors are the driver's (``RfidError``) and are left to the
    caller; the tag is halted again in every case.
    """
    pcd.activate(uid)
    try:
        block = pcd.read_pages(CC_PAGE)
        if block[0] != CC_MAGIC:
            return NONE, None
        size = min(block[2] * 8, MAX_AREA)
        area = bytes(block[4:])
        page = CC_PAGE + 4
        while True:
            complete = len(area) >= size
            status, value = find_message(area[:size], complete)
            if status != MORE:
                return status, value
            area += pcd.read_pages(page)
            page += 4
    finally:
        pcd.halt()
