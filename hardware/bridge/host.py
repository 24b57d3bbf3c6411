"""The host side of the reader bridge: read its lines over pyserial, feed the table, survive unplugging.

:class:`BridgeReader` opens the bridge's serial port, reads lines in a worker
thread, checks each one (:mod:`hardware.bridge.protocol`), and hands every
``POLL`` to the table's debouncer as a read of pad ``pads[channel]``.  When the
cable is pulled (a read raises ``SerialException``/``OSError``) it closes the
port and tries to open it again every ``reconnect_s`` until the bridge is back;
while it is away its pads get no reads at all, so nothing is reported gone
because of the cable.

Whatever arrives on the port, the worker keeps reading: a line that fails
its CRC, carries an impossible sequence number or channel, or trips a bug
here is counted as garbled (the last one is kept for ``companion doctor``),
never raised.  A bridge that sends no line for :attr:`SILENT_S` seconds is
reported not ok (a hung Pico is restarted by its watchdog and says ``HELLO``
again).  Work per line is bounded (docs/hardware/bridge.md, "Limits"): a line
over ``MAX_LINE_BYTES`` is refused as it arrives, a POLL over
``MAX_UIDS_PER_POLL`` UIDs is refused before it is split, sequence numbers that
repeat or jump are counted as anomalies (not as 65,535 lost lines) and make
the bridge not ok when they pile up, and the card ids kept are bounded.  ``NDEF`` lines carry the message of each new tag; it is decoded here
with ndeflib and the card id travels with the tag's next ``POLL``.
"""
from __future__ import annotations

import os
import stat
import threading
import time
from collections import OrderedDict, deque

from companion.table import is_serial_device
from hardware.bridge.protocol import (KINDS, MAX_LINE_BYTES, MAX_SEQ, ProtocolError, channel_ok, decode,
                                      parse_uids)
from hardware.ndef import Unreadable, card_id_in_message

READ_CHUNK = 4096          # bytes taken from the port at a time (what is waiting, up to this)
# A forward jump in sequence numbers of at most MAX_GAP counts as that many lines lost; more, a repeat
# or a step back is an anomaly (the stream is not one bridge counting up).  A guess: USB bulk transfers
# are CRC-checked and retried by USB itself, so a real loss is a line or two garbled by a bad cable.
MAX_GAP = 256
SEQ_WINDOW = 64            # the latest lines whose sequence numbers are judged together …
NONSENSE_AT = 8            # … and how many anomalies among them make the bridge not ok
RESTART_SEQ = 16           # a step back to a sequence number this small: the bridge restarted, its HELLO lost
MAX_KNOWN_TAGS = 4096      # card ids remembered per bridge (least recently seen forgotten first)


def open_serial_device(port: str, **kwargs):
    """Open the serial device ``port`` with ``serial.Serial``: only a device path a profile may name.

    Never ``serial_for_url``: its URL handlers (``spy://…?file=``, ``socket://``)
    write files and open connections.  The path must pass
    :func:`companion.table.is_serial_device` and be a character device.
    """
    if not is_serial_device(port):
        raise ValueError(f"{port[:60]!r} is not a serial device path")
    if not stat.S_ISCHR(os.stat(port).st_mode):          # FileNotFoundError: not plugged in
        raise OSError(f"{port} is not a character device")
    import serial
    return serial.Serial(port, **kwargs)


def find_usb_serial(serial_number: str, comports=None) -> str | None:
    """The device path of the USB serial port whose serial number is ``serial_number`` (pyserial's list_ports)."""
    if comports is None:
        from serial.tools.list_ports import comports
    for info in comports():
        if info.serial_number == serial_number and is_serial_device(info.device):
            return info.device
    return None


class OverlongLine:
    """What :class:`LineFramer` gives for a line longer than it keeps: its first bytes only."""

    def __init__(self, head: bytes):
        self.head = head

    def claimed_channel(self) -> str | None:
        """The channel the line's start names, if it looks like one (unchecked: the CRC was never read)."""
        parts = self.head.split(b" ", 3)
        if len(parts) >= 3 and parts[1].decode("ascii", "replace") in KINDS[1:]:
            field = parts[2].decode("ascii", "replace")
            return field if channel_ok(field) else None
        return None


class LineFramer:
    """Bytes in, whole lines out; a line longer than ``max_bytes`` is dropped as it arrives, never kept whole.

    Once a line passes ``max_bytes`` without its ``\n``, :meth:`feed` gives one
    :class:`OverlongLine` and skips everything up to the next ``\n``: reading
    resynchronises there, and memory stays at ``max_bytes`` whatever the bridge sends.
    """

    HEAD = 40

    def __init__(self, max_bytes: int = MAX_LINE_BYTES):
        self.max_bytes = max_bytes
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list:
        out: list = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end + 1]
            if self._skipping:
                self._skipping = end < 0
            elif len(self._buf) + len(piece) - (end >= 0) > self.max_bytes:
                out.append(OverlongLine(bytes((self._buf + piece[:self.HEAD])[:self.HEAD])))
                self._buf.clear()
                self._skipping = end < 0
            elif end < 0:
                self._buf += piece
            else:
                out.append(bytes(self._buf + piece))
                self._buf.clear()
            if end < 0:
                return out
            start = end + 1


def _remember(table: OrderedDict, key, value, limit: int = MAX_KNOWN_TAGS) -> None:
    table[key] = value
    table.move_to_end(key)
    while len(table) > limit:
        table.popitem(last=False)


class BridgeReader:
    kind = "bridge"
    SILENT_S = 2.0             # the firmware sends a line per channel every few ms: 2 s of silence is a hang

    def __init__(self, spec, *, open_port=open_serial_device, baudrate: int = 115200, reconnect_s: float = 0.5,
                 clock=time.monotonic, comports=None):
        """``open_port(device, baudrate=, timeout=)`` is the seam tests use (a pty, ``loop://``); a
        profile's port only ever reaches :func:`open_serial_device`.  ``comports``: pyserial's
        ``list_ports.comports``, to find a bridge named by ``usb_serial``."""
        self.spec = spec
        self.pads = list(spec.pads)
        self._open_port = open_port
        self._comports = comports
        self.device = spec.port or None
        self.baudrate = baudrate
        self.reconnect_s = reconnect_s
        self.clock = clock
        self.port = None
        self.connected = False
        self.detail = "not started"
        self.firmware = None
        self.fields: str | None = None      # the firmware's own word on its fields (HELLO), see _handle
        self.versions: dict[int, str] = {}
        self.channel_faults: dict[int, str] = {}
        self.lines = self.lost = self.garbled = self.reconnects = 0
        self.repeated = self.out_of_order = self.restarts = 0
        self._anomalies: deque[bool] = deque(maxlen=SEQ_WINDOW)
        self._framer = LineFramer()
        self.last_line_at: float | None = None
        self.connected_at: float | None = None
        self.last_garbled = ""
        self.card_ids: OrderedDict[str, str | None] = OrderedDict()   # UID -> card id (None: it carries none)
        self.unreadable: OrderedDict[str, str] = OrderedDict()        # UID -> why its card id cannot be read
        self._last_seq: int | None = None
        self._jump = (0, 0)                 # long forward jumps not yet confirmed: (lines they skip, how many)
        self._feed = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- the port -------------------------------------------------------------------------------
    def _connect(self) -> bool:
        where = self.spec.where().removeprefix("the reader bridge ")
        try:
            if self.spec.port is None:
                self.device = find_usb_serial(self.spec.usb_serial, self._comports)
                if self.device is None:
                    raise OSError(f"no USB serial device with serial number {self.spec.usb_serial} is plugged in")
            self.port = self._open_port(self.device, baudrate=self.baudrate, timeout=0.2)
        except Exception as exc:               # SerialException, OSError, ValueError: all mean "not there"
            self.port = None
            self.connected = False
            self.detail = (f"reader bridge {self.spec.id} {where} is not there ({exc}) — "
                           f"check the USB cable; retrying every {self.reconnect_s:g} s")
            return False
        self.connected = True
        self.connected_at = self.clock()
        self._last_seq = None
        self._jump = (0, 0)
        self._framer = LineFramer()
        self.detail = f"reader bridge on {self.device} connected"
        return True

    def _disconnect(self, why: str) -> None:
        if self.port is not None:
            try:
                self.port.close()
            except Exception:
                pass
        self.port = None
        self.connected = False
        self.detail = f"reader bridge {self.spec.id} on {self.device} {why}; retrying every {self.reconnect_s:g} s"

    def probe(self) -> bool:
        """Open the port now (``open_profile_table`` uses this to decide whether the table is there)."""
        return self.port is not None or self._connect()

    # -- the worker --------------------------------------------------------------------------------
    def start(self, feed, background: bool = True) -> None:
        """``feed(pad, uids)`` is called from the worker thread for every good POLL line.

        ``background=False`` starts no thread: lines are then given to :meth:`handle_line`
        by the caller (the emulated bridge of ``companion doctor --emulate``).
        """
        self._feed = feed
        if not background:
            self.connected, self.detail = True, f"reader bridge {self.spec.id} (emulated)"
            return
        self._thread = threading.Thread(target=self._run, name=f"bridge-{self.spec.id}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            if self.port is None and not self._connect():
                self._stop.wait(self.reconnect_s)
                continue
            try:
                data = self.port.read(max(1, min(self.port.in_waiting, READ_CHUNK)))
            except Exception as exc:           # the cable was pulled
                self._disconnect(f"was unplugged ({exc.__class__.__name__})")
                self.reconnects += 1
                continue
            if data:
                self.handle_bytes(data)

    def handle_bytes(self, data: bytes) -> None:
        """Take bytes as they came from the port: whole lines are handled, an over-long one refused."""
        for line in self._framer.feed(data):
            self.handle_line(line)

    def handle_line(self, line: bytes | str | OverlongLine) -> None:
        """Take one line from the bridge; never raises (a bad line is counted, and the last one kept)."""
        if not isinstance(line, OverlongLine) and len(line) > MAX_LINE_BYTES:
            line = OverlongLine(bytes(line[:LineFramer.HEAD], "ascii", "replace") if isinstance(line, str)
                                else bytes(line[:LineFramer.HEAD]))
        if isinstance(line, OverlongLine):
            channel = line.claimed_channel()
            self.garbled += 1
            self.last_garbled = (f"a line longer than {MAX_LINE_BYTES:,} bytes"
                                 + (f" claiming channel {channel}" if channel is not None else "")
                                 + f", dropped up to its end, in {line.head!r}")
            return
        try:
            self._handle(line)
        except Exception as exc:               # ProtocolError, or a bug: the worker must keep reading
            self.garbled += 1
            self.last_garbled = f"{exc} in {bytes(line if isinstance(line, bytes) else line.encode())[:60]!r}"

    def _handle(self, line: bytes | str) -> None:
        seq, kind, fields = decode(line)
        if kind != "HELLO" and int(fields[0]) >= len(self.pads):       # decode() checked it is 0-15
            raise ProtocolError(f"channel {fields[0]} is not one of the {len(self.pads)} pads of this bridge")
        self.lines += 1
        self.last_line_at = self.clock()
        if kind == "HELLO":
            self.firmware = " ".join(fields[:3])[:80]
            if self._last_seq is not None:
                self.restarts += 1
            # what the firmware really does with the fields: "switched", "on" (bridge-2 and older said
            # nothing and kept them on), or "update" (booted with its update pin low: it reads no cards)
            mode = fields[2] if len(fields) > 2 else "on"
            self.fields = mode if mode in ("switched", "on", "update") else "unknown"
            self._last_seq = seq
            self._jump = (0, 0)
            self._anomalies.append(False)
            return
        if not self._in_sequence(seq):
            return
        channel = int(fields[0])
        try:
            self._line(kind, channel, fields)
        except ProtocolError as exc:
            raise ProtocolError(f"channel {channel} (pad {self.pads[channel]}): {exc}") from None

    def _in_sequence(self, seq: int) -> bool:
        """Count ``seq`` against the last one; False for a repeat (a duplicate line, dropped).

        A forward jump longer than :data:`MAX_GAP` (under half the sequence space, RFC 1982's
        serial-number arithmetic) is believed only once a line carries on from it by a small step:
        a bridge whose host stopped reading skips thousands of lines (its backlog may arrive as a
        few jumps) and then counts on — those are lost lines — while a stream that jumps about never
        carries on: each of its jumps is an anomaly.
        """
        last, self._last_seq = self._last_seq, seq
        anomalies = 0
        if last is not None:
            step = (seq - last) % MAX_SEQ
            if step == 0:
                self.repeated += 1
                anomalies += 1
            elif step <= MAX_GAP + 1:
                self.lost += self._jump[0] + step - 1      # carried on: the jumps before were skipped lines
                self._jump = (0, 0)
            elif seq < last and seq < RESTART_SEQ:
                self.restarts += 1                 # counted from 0 again: a restart whose HELLO was lost
                self._jump = (0, 0)
            elif step < MAX_SEQ // 2:
                self._jump = (self._jump[0] + step - 1, self._jump[1] + 1)    # judged by the lines after it
                return True
            else:
                self.out_of_order += 1             # backwards
                anomalies += 1
            if step == 0 or step >= MAX_SEQ // 2:
                self.out_of_order += self._jump[1]     # nothing carried on from these jumps
                anomalies += self._jump[1]
                self._jump = (0, 0)
        self._anomalies.extend([True] * anomalies or [False])
        return last != seq

    def nonsense(self) -> int:
        """Anomalous sequence numbers among the latest :data:`SEQ_WINDOW` lines."""
        return sum(self._anomalies)

    def _line(self, kind: str, channel: int, fields: list[str]) -> None:
        if kind == "READER":
            self.versions[channel] = fields[1] if len(fields) > 1 else "00"
        elif kind == "FAULT":
            self.channel_faults[channel] = " ".join(fields[1:])
        elif kind == "NDEF":
            self._card_id(fields)
        elif kind == "POLL":
            if len(fields) not in (2, 3) or fields[2:] not in ([], ["?"]):
                raise ProtocolError("POLL needs a channel and a UID list (and ? for a pad it could not read)")
            uids = parse_uids(fields[1])
            unread = fields[2:] == ["?"]
            self.channel_faults.pop(channel, None)
            if self._feed is not None:
                known = {u: self.card_ids[u] for u in uids if u in self.card_ids}
                for uid in known:
                    self.card_ids.move_to_end(uid)
                if unread:
                    self._feed(self.pads[channel], uids, known or None, unresolved=True)
                elif known:
                    self._feed(self.pads[channel], uids, known)
                else:
                    self._feed(self.pads[channel], uids)

    def _card_id(self, fields: list[str]) -> None:
        if len(fields) < 3:
            raise ProtocolError("NDEF needs a channel, a UID and a message")
        (uid,) = parse_uids(fields[1])
        message = fields[2]
        if message == "-":
            value = None
        elif message == "?":
            value = Unreadable(" ".join(fields[3:]) or "unreadable TLVs")
        else:
            value = card_id_in_message(bytes.fromhex(message))
        if isinstance(value, Unreadable):
            _remember(self.unreadable, uid, value.why)
            value = None
        else:
            self.unreadable.pop(uid, None)
        _remember(self.card_ids, uid, value)

    # -- TableSource-style status ---------------------------------------------------------------
    def status(self) -> dict:
        faults = "; ".join(f"channel {ch} ({self.pads[ch] if ch < len(self.pads) else '?'}): {text}"
                           for ch, text in sorted(self.channel_faults.items()))
        detail = self.detail
        silent = self.silent_for()
        nonsense = self.nonsense()
        if self.connected:
            detail += f", firmware {self.firmware or 'unknown'}, {self.lines} lines, {self.lost} lost, {self.garbled} garbled"
            if self.repeated or self.out_of_order or self.restarts:
                detail += (f", {self.repeated} repeated and {self.out_of_order} out-of-order sequence numbers, "
                           f"{self.restarts} {'restart' if self.restarts == 1 else 'restarts'}")
            if silent is not None:
                detail += (f"; no line for {silent:.1f} s — the bridge has stopped reporting "
                           f"(its watchdog should restart it; if not, unplug it and plug it back)")
            if nonsense >= NONSENSE_AT:
                detail += (f"; its sequence numbers make no sense ({nonsense} of the last {len(self._anomalies)} "
                           f"lines repeated or out of order) — is something else writing to {self.device}, "
                           f"or is its firmware not the bridge's?")
        if self.last_garbled:
            detail += f"; last bad line: {self.last_garbled}"
        if faults:
            detail += "; " + faults
        if self.unreadable:
            latest = list(self.unreadable.items())[-3:]
            detail += f"; {len(self.unreadable)} {'tag' if len(self.unreadable) == 1 else 'tags'} with an unreadable card id: " + "; ".join(
                f"tag {uid}: unreadable card id ({why})" for uid, why in latest)
        ok = self.connected and not faults and silent is None and nonsense < NONSENSE_AT
        return {"id": self.spec.id, "kind": "bridge", "ok": ok, "detail": detail,
                "where": self.spec.where(), "pads": self.pads, "versions": dict(self.versions),
                "lost": self.lost, "garbled": self.garbled, "reconnects": self.reconnects,
                "repeated": self.repeated, "out_of_order": self.out_of_order, "restarts": self.restarts,
                "fields": self.fields}

    def silent_for(self) -> float | None:
        """Seconds without a line, once that is more than :attr:`SILENT_S` while connected; else None."""
        if not self.connected or self.connected_at is None:
            return None
        since = self.clock() - max(self.connected_at, self.last_line_at or self.connected_at)
        return since if since > self.SILENT_S else None

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._disconnect("closed")
