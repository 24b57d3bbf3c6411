"""The simulated table: virtual pads in an ideal world (no physics), for tests of the app's logic.

The emulated table (:mod:`hardware.emulator.table`) is the one the app uses
without hardware: it goes through every layer a real reader does.
"""
from __future__ import annotations

import threading
import time
from typing import Callable

from companion.table import GONE, SEEN, PadEvent
from hardware.contract import EventSink, TableSource


class SimulatedTable(TableSource):
    """Virtual pads that a screen or a test puts virtual tags on, in an ideal world (no physics).

    ``place(pad, uid)`` and ``lift(pad, uid)`` emit the same debounced
    `PadEvent`s a real reader would.  On a ``tap`` pad (``set_modes``) a placed
    card is moved onto its pile at once: ``seen`` then ``gone``.
    """

    simulated = True

    def __init__(self, pads: list[str] | None = None, clock: Callable[[], float] = time.monotonic):
        self.pads = list(pads or [])
        self._clock = clock
        self._sink: EventSink | None = None
        self._lock = threading.Lock()
        self.on_pad: dict[str, set[str]] = {}
        self.modes: dict[str, str] = {}

    def start(self, on_event: EventSink) -> None:
        self._sink = on_event

    def set_pads(self, pads: list[str], modes: dict[str, str] | None = None) -> None:
        self.pads = list(pads)
        if modes is not None:
            self.set_modes(modes)

    def set_modes(self, modes: dict[str, str]) -> None:
        self.modes = dict(modes)

    def place(self, pad: str, uid: str) -> None:
        with self._lock:
            here = self.on_pad.setdefault(pad, set())
            if uid in here:
                return
            here.add(uid)
        self._emit(PadEvent(pad, uid, SEEN, self._clock()))
        if self.modes.get(pad) == "tap":
            self.lift(pad, uid)

    def lift(self, pad: str, uid: str) -> None:
        with self._lock:
            if uid not in self.on_pad.get(pad, set()):
                return
            self.on_pad[pad].discard(uid)
        self._emit(PadEvent(pad, uid, GONE, self._clock()))

    def clear(self) -> None:
        for pad, uids in list(self.on_pad.items()):
            for uid in list(uids):
                self.lift(pad, uid)

    def status(self) -> list[dict]:
        return [{"id": "simulated", "kind": "simulated", "ok": True,
                 "detail": f"simulated table, {len(self.pads)} virtual pads"}]

    def _emit(self, ev: PadEvent) -> None:
        if self._sink is not None:
            self._sink(ev)
