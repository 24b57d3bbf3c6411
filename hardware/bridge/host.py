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
again).  ``NDEF`` lines carry the message of each new tag; it is decoded here
with ndeflib and the card id travels with the tag's next ``POLL``.
"""
from __future__ import annotations

import threading
import time

from hardware.bridge.protocol import MAX_SEQ, ProtocolError, decode, parse_uids
from hardware.ndef import Unreadable, card_id_in_message


def _serial_for_url(url, **kwargs):
    import serial
    return serial.serial_for_url(url, **kwargs)


class BridgeReader:
    kind = "bridge"
    SILENT_S = 2.0             # the firmware sends a line per channel every few ms: 2 s of silence is a hang

    def __init__(self, spec, *, open_port=_serial_for_url, baudrate: int = 115200, reconnect_s: float = 0.5,
                 clock=time.monotonic):
        self.spec = spec
        self.pads = list(spec.pads)
        self._open_port = open_port
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
        self.last_line_at: float | None = None
        self.connected_at: float | None = None
        self.last_garbled = ""
        self.card_ids: dict[str, str | None] = {}     # UID -> card id (None: the tag carries none)
        self.unreadable: dict[str, str] = {}         # UID -> why its card id cannot be read
        self._last_seq: int | None = None
        self._feed = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- the port -------------------------------------------------------------------------------
    def _connect(self) -> bool:
        try:
            self.port = self._open_port(self.spec.port, baudrate=self.baudrate, timeout=0.2)
        except Exception as exc:               # SerialException, OSError, ValueError: all mean "not there"
            self.port = None
            self.connected = False
            self.detail = (f"reader bridge {self.spec.id} on {self.spec.port} is not there ({exc}) — "
                           f"check the USB cable; retrying every {self.reconnect_s:g} s")
            return False
        self.connected = True
        self.connected_at = self.clock()
        self._last_seq = None
        self.detail = f"reader bridge on {self.spec.port} connected"
        return True

    def _disconnect(self, why: str) -> None:
        if self.port is not None:
            try:
                self.port.close()
            except Exception:
                pass
        self.port = None
        self.connected = False
        self.detail = f"reader bridge {self.spec.id} on {self.spec.port} {why}; retrying every {self.reconnect_s:g} s"

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
                line = self.port.readline()
            except Exception as exc:           # the cable was pulled
                self._disconnect(f"was unplugged ({exc.__class__.__name__})")
                self.reconnects += 1
                continue
            if line:
                self.handle_line(line)

    def handle_line(self, line: bytes | str) -> None:
        """Take one line from the bridge; never raises (a bad line is counted, and the last one kept)."""
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
            self.firmware = " ".join(fields)
            # what the firmware really does with the fields: "switched", "on" (bridge-2 and older said
            # nothing and kept them on), or "update" (booted with its update pin low: it reads no cards)
            self.fields = fields[2] if len(fields) > 2 else "on"
            self._last_seq = seq
            return
        if self._last_seq is not None:
            gap = (seq - self._last_seq - 1) % MAX_SEQ
            self.lost += gap
        self._last_seq = seq
        channel = int(fields[0])
        if kind == "READER":
            self.versions[channel] = fields[1] if len(fields) > 1 else "00"
        elif kind == "FAULT":
            self.channel_faults[channel] = " ".join(fields[1:])
        elif kind == "NDEF":
            self._card_id(fields)
        elif kind == "POLL":
            if len(fields) != 2:
                raise ProtocolError("POLL needs a channel and a UID list")
            uids = parse_uids(fields[1])
            self.channel_faults.pop(channel, None)
            if self._feed is not None:
                known = {u: self.card_ids[u] for u in uids if u in self.card_ids}
                if known:
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
            self.unreadable[uid] = value.why
            value = None
        else:
            self.unreadable.pop(uid, None)
        self.card_ids[uid] = value

    # -- TableSource-style status ---------------------------------------------------------------
    def status(self) -> dict:
        faults = "; ".join(f"channel {ch} ({self.pads[ch] if ch < len(self.pads) else '?'}): {text}"
                           for ch, text in sorted(self.channel_faults.items()))
        detail = self.detail
        silent = self.silent_for()
        if self.connected:
            detail += f", firmware {self.firmware or 'unknown'}, {self.lines} lines, {self.lost} lost, {self.garbled} garbled"
            if silent is not None:
                detail += (f"; no line for {silent:.1f} s — the bridge has stopped reporting "
                           f"(its watchdog should restart it; if not, unplug it and plug it back)")
        if self.last_garbled:
            detail += f"; last bad line: {self.last_garbled}"
        if faults:
            detail += "; " + faults
        if self.unreadable:
            latest = list(self.unreadable.items())[-3:]
            detail += f"; {len(self.unreadable)} tag(s) with an unreadable card id: " + "; ".join(
                f"tag {uid}: unreadable card id ({why})" for uid, why in latest)
        ok = self.connected and not faults and silent is None
        return {"id": self.spec.id, "kind": "bridge", "ok": ok, "detail": detail,
                "where": self.spec.where(), "pads": self.pads, "versions": dict(self.versions),
                "lost": self.lost, "garbled": self.garbled, "reconnects": self.reconnects,
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
