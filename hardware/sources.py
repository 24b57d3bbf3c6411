"""Table sources: where `PadEvent`s come from.

A table source is the tiny contract between readers and the rest (Phoniebox's
reader contract)::

    source.pads                  # pad ids this table has
    source.start(on_event)       # on_event(PadEvent) is called, possibly from a worker thread
    source.status()              # list of dicts, one per reader: {"id", "kind", "ok", "detail"}
    source.close()               # also a context manager

The UI never imports this module: the composition root (`companion run`)
hands it a source.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable

from companion.table import GONE, SEEN, PadEvent

EventSink = Callable[[PadEvent], None]


class TableSource:
    pads: list[str] = []

    def start(self, on_event: EventSink) -> None:
        raise NotImplementedError

    def status(self) -> list[dict]:
        return []

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


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


def open_table_source(config) -> TableSource:
    """The readers of the table profile, or the simulated table, with the reason in its status.

    * ``--sim``, or no profile: the simulated table (emulated RC522 readers, one per pad);
    * a profile whose readers answer: a :class:`~hardware.polling.PolledTable` on them;
    * a profile whose readers cannot be opened (no SPI on this machine, a bridge
      not plugged in, a reader that does not answer): the simulated table, with
      the profile's pads and a status line that says why.
    """
    from hardware.emulator.table import EmulatedTable
    if getattr(config, "sim", False):
        return _fallback(EmulatedTable(), "simulated table (--sim)")
    profile = config.profile()
    if profile is None or not profile.raw.get("readers"):
        return _fallback(EmulatedTable(), "simulated table: no table profile with readers")
    from hardware.readers import open_profile_table
    if _devices_present(profile):
        # the readers poll in their own supervised process (hardware.supervisor)
        from hardware.supervisor import SupervisedTable, profile_readers
        status_path = Path(config.data_dir) / STATUS_FILE if getattr(config, "data_dir", None) else None
        table = SupervisedTable(profile_readers, (profile,), status_path=status_path)
        problems = table.wait_opened()
        if not problems:
            return table
        table.close()
    else:
        # nothing to open on this machine: let the driver say why, in-process (no process to start)
        table, problems = open_profile_table(profile)
        if table is not None:
            return table
    return _fallback(EmulatedTable(profile.pads), "simulated table, because " + "; ".join(problems))


STATUS_FILE = "reader-process.json"       # the supervisor's last word, for `companion doctor`


def _devices_present(profile) -> bool:
    """Does any device node a reader of ``profile`` needs exist here (an spidev node, a bridge's port)?"""
    from hardware.readers import reader_specs, spidev_node
    from companion.table import ProfileError
    try:
        specs = reader_specs(profile)
    except ProfileError:
        return False
    for spec in specs:
        if spec.kind == "bridge" and spec.port is None:
            from hardware.bridge.host import find_usb_serial
            node = find_usb_serial(spec.usb_serial)          # a bridge named by its USB serial number
        else:
            node = spec.port if spec.kind == "bridge" else spidev_node(spec, specs)
        if node and Path(node).exists():
            return True
    return False


def _fallback(table, why: str) -> TableSource:
    table.fallback_reason = why
    return table
