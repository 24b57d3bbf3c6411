"""The host side of the reader bridge: read its lines over pyserial, feed the table, survive unplugging.

:class:`BridgeReader` opens the bridge's serial port, reads lines in a worker
thread, checks each one (:mod:`hardware.bridge.protocol`), and hands every
``POLL`` to the table's debouncer as a read of pad ``pads[channel]``.  When the
cable is pulled (a read raises ``SerialException``/``OSError``) it closes the
port and tries to open it again every ``reconnect_s`` until the bridge is back;
while it is away its pads get no reads at all, so nothing is reported gone
because of the cable.
"""
from __future__ import annotations

import threading
import time

from hardware.bridge.protocol import MAX_SEQ, ProtocolError, decode, parse_uids


def _serial_for_url(url, **kwargs):
    import serial
    return serial.serial_for_url(url, **kwargs)


class BridgeReader:
    kind = "bridge"

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
        self.versions: dict[int, str] = {}
        self.channel_faults: dict[int, str] = {}
        self.lines = self.lost = self.garbled = self.reconnects = 0
        self.last_line_at: float | None = None
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
        try:
            seq, kind, fields = decode(line)
        except ProtocolError:
            self.garbled += 1
            return
        self.lines += 1
        self.last_line_at = self.clock()
        if kind == "HELLO":
            self.firmware = " ".join(fields)
            self._last_seq = seq
            return
        if self._last_seq is not None:
            gap = (seq - self._last_seq - 1) % MAX_SEQ
            self.lost += gap
        self._last_seq = seq
        try:
            channel = int(fields[0])
        except (IndexError, ValueError):
            self.garbled += 1
            return
        if kind == "READER":
            self.versions[channel] = fields[1] if len(fields) > 1 else "00"
        elif kind == "FAULT":
            self.channel_faults[channel] = " ".join(fields[1:])
        elif kind == "POLL" and channel < len(self.pads) and len(fields) == 2:
            try:
                uids = parse_uids(fields[1])
            except (ProtocolError, ValueError):
                self.garbled += 1
                return
            self.channel_faults.pop(channel, None)
            if self._feed is not None:
                self._feed(self.pads[channel], uids)

    # -- TableSource-style status ---------------------------------------------------------------
    def status(self) -> dict:
        faults = "; ".join(f"channel {ch} ({self.pads[ch] if ch < len(self.pads) else '?'}): {text}"
                           for ch, text in sorted(self.channel_faults.items()))
        detail = self.detail
        if self.connected:
            detail += f", firmware {self.firmware or 'unknown'}, {self.lines} lines, {self.lost} lost, {self.garbled} garbled"
        if faults:
            detail += "; " + faults
        return {"id": self.spec.id, "kind": "bridge", "ok": self.connected and not faults, "detail": detail,
                "where": self.spec.where(), "pads": self.pads, "versions": dict(self.versions),
                "lost": self.lost, "garbled": self.garbled, "reconnects": self.reconnects}

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._disconnect("closed")
