"""The reader bridge's line protocol: what the Pico firmware says to the host.

Every line is ASCII and ends with ``\\n``::

    <seq> <TYPE> <field> … *<CRC>

``seq`` counts lines from 0 to 65535 and wraps, so the host notices a lost
line (a gap); ``CRC`` is CRC-16 (the CRC_A of ISO 14443-3, preset 0x6363) of
everything before `` *``, in four upper-case hex digits, so it notices a
garbled one.  A line that fails either check is dropped: the host then has no
information about that poll, which is not the same as an empty pad.

Types (channel = the bridge's reader number, 0-15 = pad index in the profile):

``HELLO <firmware> <channels>``
    the firmware (re)started; sequence numbers start again from 0.
``READER <channel> <version>``
    a reader was initialised; version register in hex, ``00`` when it does not answer.
``POLL <channel> <uids> [?]``
    one poll of one reader: UIDs in hex separated by commas, ``-`` for none;
    a trailing ``?`` when something on the pad answered but could not be read
    (a pile of three or more stacked cards: ``Pcd.unresolved``), which the host
    turns into the same ``unread`` notice as a Pi reader's (since bridge-4).
``NDEF <channel> <uid> <message>``
    the NDEF message of a tag new on the pad, sent before the ``POLL`` that
    reports the tag: the message in hex, ``-`` for none (a blank tag, or no
    NTAG memory), ``? <why…>`` when the tag's TLVs are unreadable.  The host
    decodes the message with ndeflib (:mod:`hardware.ndef`).
``FAULT <channel> <words…>``
    the reader could not be polled this time (and why); any exception in the
    firmware's poll of a channel, a bug included, comes out as one.

The firmware sends ASCII only.  The host checks the CRC over the bytes as
received, so a line from an older firmware with a ``µ`` in it still counts as
intact (its text is shown with ``?``), and it refuses a sequence number or a
channel that cannot be one (5,000 digits, ``-1``) as a protocol error.

This module runs on the Pico too (MicroPython): it is copied next to the
firmware's ``main.py`` with ``hardware/rc522/pcd.py``.
"""
try:
    from hardware.rc522.pcd import crc_a
except ImportError:                 # on the Pico, the files lie side by side
    from pcd import crc_a

MAX_SEQ = 65536
MAX_CHANNELS = 16
# What one line may carry, so that the host's work per line is bounded (docs/hardware/bridge.md, "Limits").
# UIDs per POLL: a pad reports at most the 8 tags Pcd.inventory discovers (limit=8), plus tags the
# firmware still confirms while they miss polls (KnownTags keeps one for 8 polls): 8 x 8 = 64 is the
# most the firmware can put on a line, and 16 channels x a stack of 4 is the same 64.
MAX_UIDS_PER_POLL = 64
# The longest line the firmware writes: a POLL of 64 ten-byte UIDs is 64 x 21 + 24 = 1,368 bytes; an
# NDEF line carries at most ntag.MAX_MESSAGE = 256 bytes as 512 hex digits; FAULT text is cut to
# MAX_FAULT_TEXT.  2,048 leaves room; a longer line is refused without being kept whole.
MAX_LINE_BYTES = 2048
MAX_FAULT_TEXT = 200
KINDS = ("HELLO", "READER", "POLL", "NDEF", "FAULT")


class ProtocolError(ValueError):
    """A garbled line."""


def checksum(body):
    """CRC of ``body`` (str, or the bytes as received) as four hex digits."""
    crc = crc_a(body.encode() if isinstance(body, str) else body)
    return "%04X" % (crc[0] | crc[1] << 8)


def encode(seq, kind, fields):
    body = "%d %s %s" % (seq % MAX_SEQ, kind, " ".join(str(f) for f in fields))
    return "%s *%s\n" % (body.rstrip(), checksum(body.rstrip()))


def decode(line):
    """``(seq, kind, fields)`` of one line, or :class:`ProtocolError`.

    Runs on the host only.  Any bytes give one or the other: non-ASCII text
    that passes the CRC is kept with ``?`` in place of what is not ASCII.
    """
    if isinstance(line, str):
        line = line.encode("utf-8", "replace")
    raw = bytes(line).strip()
    body, sep, crc = raw.rpartition(b" *")
    if not sep or len(crc) != 4:
        raise ProtocolError("no checksum")
    if checksum(body) != crc.decode("ascii", "replace").upper():
        raise ProtocolError("checksum mismatch")
    text = body.decode("ascii", "replace").replace("\ufffd", "?")
    parts = text.split(" ")
    if len(parts) < 2 or parts[1] not in KINDS:
        raise ProtocolError("malformed line")
    if not (parts[0].isascii() and parts[0].isdigit() and len(parts[0]) <= 5 and int(parts[0]) < MAX_SEQ):
        raise ProtocolError("sequence number %r out of range" % parts[0][:12])
    if parts[1] != "HELLO":
        if len(parts) < 3 or not channel_ok(parts[2]):
            raise ProtocolError("channel %r out of range" % (parts[2][:12] if len(parts) > 2 else ""))
    return int(parts[0]), parts[1], parts[2:]


def channel_ok(field):
    return field.isascii() and field.isdigit() and len(field) <= 2 and int(field) < MAX_CHANNELS


def uids_field(uids):
    return ",".join(uids) if uids else "-"


def parse_uids(field, limit=MAX_UIDS_PER_POLL):
    """The UIDs of a POLL's field; more than ``limit`` of them is a :class:`ProtocolError` (counted first)."""
    if field == "-":
        return []
    count = field.count(",") + 1
    if count > limit:
        raise ProtocolError("%d UIDs in one line, more than the %d a pad can report" % (count, limit))
    uids = field.split(",")
    for uid in uids:
        if len(uid) not in (8, 14, 20):
            raise ProtocolError("bad UID %r" % uid)
        int(uid, 16)
    return [u.upper() for u in uids]
