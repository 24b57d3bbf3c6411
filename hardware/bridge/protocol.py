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
``POLL <channel> <uids>``
    one poll of one reader: UIDs in hex separated by commas, ``-`` for none.
``FAULT <channel> <words…>``
    the reader could not be polled this time (and why).

This module runs on the Pico too (MicroPython): it is copied next to the
firmware's ``main.py`` with ``hardware/rc522/pcd.py``.
"""
try:
    from hardware.rc522.pcd import crc_a
except ImportError:                 # on the Pico, the files lie side by side
    from pcd import crc_a

MAX_SEQ = 65536
KINDS = ("HELLO", "READER", "POLL", "FAULT")


class ProtocolError(ValueError):
    """A garbled line."""


def checksum(body):
    crc = crc_a(body.encode())
    return "%04X" % (crc[0] | crc[1] << 8)


def encode(seq, kind, fields):
    body = "%d %s %s" % (seq % MAX_SEQ, kind, " ".join(str(f) for f in fields))
    return "%s *%s\n" % (body.rstrip(), checksum(body.rstrip()))


def decode(line):
    """``(seq, kind, fields)`` of one line, or :class:`ProtocolError`."""
    if isinstance(line, (bytes, bytearray)):
        try:
            line = bytes(line).decode("ascii")
        except UnicodeError:
            raise ProtocolError("not ASCII")
    line = line.strip()
    body, sep, crc = line.rpartition(" *")
    if not sep or len(crc) != 4:
        raise ProtocolError("no checksum")
    if checksum(body) != crc.upper():
        raise ProtocolError("checksum mismatch")
    parts = body.split(" ")
    if len(parts) < 2 or not parts[0].isdigit() or parts[1] not in KINDS:
        raise ProtocolError("malformed line")
    return int(parts[0]), parts[1], parts[2:]


def uids_field(uids):
    return ",".join(uids) if uids else "-"


def parse_uids(field):
    if field == "-":
        return []
    uids = field.split(",")
    for uid in uids:
        if len(uid) not in (8, 14, 20):
            raise ProtocolError("bad UID %r" % uid)
        int(uid, 16)
    return [u.upper() for u in uids]
