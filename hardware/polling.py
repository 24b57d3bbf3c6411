"""A table read by real readers: poll every pad in turn, debounce, hand out `PadEvent`s.

:class:`PolledTable` is the :class:`~hardware.contract.TableSource` for a table
profile with readers.  A worker thread polls the RC522 readers one after the
other (the SPI bus does one thing at a time anyway); reader bridges push their
reads from their own threads.  Both go through one :class:`Debouncer`.
"""
from __future__ import annotations

import threading
import time

from hardware.debounce import Conflict, Debouncer
from hardware.contract import EventSink, TableSource


# Switched fields warming at once while a pad is read: with the one being read, four fields on (4 x 100 mA
# at most, docs/hardware/wiring.md); an empty pad's poll (~0.7 ms) times four covers most of the 5.1 ms guard.
WARM_AHEAD = 3
# A cycle of the reader loop lasts at least this long: a small table (Lifeforce's six pads poll in ~4 ms) waits
# out the rest instead of spinning a core of the Pi (the benches model the same wait: hardware/hands_bench.py).
MIN_CYCLE_S = 0.02
# A pad whose card's settle window runs out within this is warmed while the pad before it is read, so that its
# out-of-turn read (poll_due) finds its tags powered instead of waiting out the 5.1 ms guard: a busy pad's
# poll on a Pi 4 lasts up to ~15 ms (docs/hardware/emulator.md, "Where a slap's time goes").
DUE_WARM_S = 0.015


class PolledTable(TableSource):
    """Readers → debouncer → ``on_event``.  ``min_cycle_s`` keeps a small table from spinning the CPU.

    With switched fields (``plan.switched``) each reader's field is on only
    while its pad is read; the next readers' fields (up to :data:`WARM_AHEAD`)
    go on while the current one is read (when none of those pads are
    neighbours), so that the 5.1 ms tags need to power up mostly overlaps with
    work that has to be done anyway.
    """

    simulated = False
    can_write_tags = True                  # write_card_id writes NDEF through the RC522s

    def __init__(self, readers, bridges=(), *, debouncer: Debouncer | None = None, clock=time.monotonic,
                 min_cycle_s: float = MIN_CYCLE_S, owned=(), name: str = "table", plan=None):
        self.plan = plan
        self.readers = list(readers)
        self.bridges = list(bridges)
        self.pads = [p for r in self.readers for p in r.spec.pads] + [p for b in self.bridges for p in b.spec.pads]
        self.debouncer = debouncer or Debouncer()
        self.debouncer.on_conflict = self._conflict
        self.clock = clock
        self.min_cycle_s = min_cycle_s
        self.name = name
        self.cycles = 0
        self._owned = list(owned)          # shared pins (reset lines) to close last
        self._sink: EventSink | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._bus = threading.RLock()      # one SPI conversation at a time: polls, and writes from the screen
        self.conflict_log: list[Conflict] = []
        self.failure: str | None = None    # why the poll thread stopped, if it did

    # -- TableSource ---------------------------------------------------------------------------
    def start(self, on_event: EventSink, background: bool = True) -> None:
        self._sink = on_event
        for r in self.readers:
            r.open()
        for b in self.bridges:
            b.start(self.feed)
        if background and self.readers:
            self._thread = threading.Thread(target=self._run, name=f"{self.name}-poll", daemon=True)
            self._thread.start()

    def status(self) -> list[dict]:
        out = [r.status() for r in self.readers] + [b.status() for b in self.bridges]
        for c in self.debouncer.conflicts():
            out.append({"id": f"conflict-{c.uid}", "kind": "conflict", "ok": False, "detail": c.message(),
                        "pads": list(c.pads)})
        return out

    def conflicts(self) -> list[Conflict]:
        """Cards seen on several pads at once right now."""
        return self.debouncer.conflicts()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        for b in self.bridges:
            b.close()
        for r in self.readers:
            r.close()
        for device in self._owned:
            device.close()

    # -- polling ---------------------------------------------------------------------------------
    def poll_order(self) -> list:
        """The readers in the order one cycle polls them (see :func:`hardware.readers.poll_order`)."""
        from hardware.readers import poll_order
        if getattr(self, "_order_for", None) != len(self.readers):
            self._order = [self.readers[i] for i in poll_order([r.pad for r in self.readers], self.plan)]
            self._order_for = len(self.readers)
        return self._order

    def _warm_ahead(self, reader, after) -> list:
        """``after`` and the readers polled after it, up to :data:`WARM_AHEAD`, whose fields may go on now.

        A switched reader must give its tags 5.1 ms of field before its first
        REQA; an empty pad is read in well under a millisecond, so warming only
        the next reader leaves most of that guard time idle.  Each one warmed
        must lie far enough from the pad being read and from the others warming
        that no tag of theirs is heard (``ReadingPlan.near``); the first that
        does not stops the run.
        """
        order = self.poll_order()
        if getattr(self, "_index_for", None) is not order:
            self._index = {id(r): i for i, r in enumerate(order)}
            self._index_for = order
        chosen = self._due_soon(reader)
        start = self._index.get(id(after))
        if start is None:
            if after not in chosen and len(chosen) < WARM_AHEAD \
                    and not any(self.plan.near(after.pad, x.pad) for x in [reader, *chosen]):
                chosen.append(after)
            return chosen
        for k in range(len(order) - 1):
            r = order[(start + k) % len(order)]
            if r in chosen:
                continue
            if len(chosen) == WARM_AHEAD or r is reader or any(self.plan.near(r.pad, x.pad) for x in [reader, *chosen]):
                break
            chosen.append(r)
        return chosen

    def _due_soon(self, reader) -> list:
        """Readers of this table (not ``reader``, nor its neighbours or each other's) whose pad comes due for
        an out-of-turn read (:meth:`poll_due`) within :data:`DUE_WARM_S`: warmed first, so that read starts at once."""
        soon = set(self.debouncer.due(self.bus_time(reader) + DUE_WARM_S))
        chosen: list = []
        if not soon:
            return chosen
        for r in self.poll_order():
            if len(chosen) == WARM_AHEAD:
                break
            if r.pad in soon and r is not reader and self.same_bus(r, reader) \
                    and not any(self.plan.near(r.pad, x.pad) for x in [reader, *chosen]):
                chosen.append(r)
        return chosen

    def poll_cycle(self) -> list:
        """Poll every RC522 once; returns (and emits) the events this settled."""
        events = []
        order = self.poll_order()
        for i, r in enumerate(order):
            events.extend(self.poll_reader(r, after=order[(i + 1) % len(order)]))
            events.extend(self.poll_due())
        self.cycles += 1
        return events

    def poll_due(self) -> list:
        """Read again at once every pad whose card has lain there for the settle window (see Debouncer.due)."""
        due = self.debouncer.due(self.debounce_time())
        if not due:
            return []
        events = []
        for r in self.poll_order():
            if r.pad in due and self.repolls(r):
                events.extend(self.poll_reader(r))
        return events

    def repolls(self, reader) -> bool:
        """Whether :meth:`poll_due` may read ``reader`` again out of turn (every reader of the Pi's own)."""
        return True

    def debounce_time(self) -> float:
        """The time the debouncer's windows run on."""
        return self.clock()

    def bus_time(self, reader) -> float:
        """The debouncer's time as ``reader``'s bus sees it (one bus, one time, on a Pi)."""
        return self.debounce_time()

    def same_bus(self, a, b) -> bool:
        """Whether readers ``a`` and ``b`` are polled one after the other by one host (all of a Pi's are)."""
        return True

    def poll_reader(self, reader, after=None) -> list:
        """Poll one reader; ``after``: the reader polled next, whose field may be switched on meanwhile."""
        with self._bus:
            if after is not None and after is not reader and self.plan is not None \
                    and getattr(reader, "switched", True):
                for ahead in self._warm_ahead(reader, after):
                    ahead.warm()
            uids = reader.poll()
            card_ids = reader.card_ids(uids) if uids is not None else {}
            reader.rest()
        if uids is None:
            return []
        return self.feed(reader.pad, uids, card_ids, unresolved=reader.pcd.unresolved)

    def write_card_id(self, pad: str, uid: str, card_id: str) -> None:
        """Write ``card_id`` onto the tag ``uid`` lying on ``pad`` (NDEF), so any companion knows the card.

        Raises ``KeyError`` for a pad no RC522 of this table reads (a bridge pad:
        the bridge only reports UIDs), and the driver's or NDEF errors if the tag
        cannot be written; the next sighting then carries the card id.
        """
        from hardware.ndef import write_card_id
        reader = next((r for r in self.readers if r.pad == pad), None)
        if reader is None:
            raise KeyError(f"pad {pad!r} is not read by an RC522 of this table, so its tags cannot be written")
        raw = bytes.fromhex(uid)
        with self._bus:
            reader._ready()
            try:
                write_card_id(reader.pcd, raw, card_id)
            finally:
                reader.rest()
            if reader.ndef is not None:
                reader.ndef.remember(raw, card_id)

    def feed(self, pad: str, uids: list[str], card_ids: dict | None = None, unresolved: bool = False) -> list:
        events = self.debouncer.feed(pad, uids, self.clock(), card_ids, unresolved)
        for ev in events:
            self._emit(ev)
        return events

    def _run(self) -> None:
        while not self._stop.is_set():
            began = time.monotonic()
            try:
                self.poll_cycle()
            except Exception as exc:            # a bug must not kill the table silently
                self.failure = f"polling stopped by an error: {exc!r}"
                for r in self.readers:
                    r.ok, r.detail = False, f"polling stopped by an error: {exc!r}"
                raise
            spare = self.min_cycle_s - (time.monotonic() - began)
            if spare > 0:
                self._stop.wait(spare)

    def _emit(self, ev) -> None:
        if self._sink is not None:
            self._sink(ev)

    def _conflict(self, conflict: Conflict) -> None:
        self.conflict_log.append(conflict)
