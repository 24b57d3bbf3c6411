"""Tables built from emulated readers: the simulated table, and any profile without its hardware.

:class:`EmulatedTable` gives every pad an :class:`~hardware.emulator.EmulatedRC522`
polled by the real driver (:class:`~hardware.readers.PadReader` on a
:class:`~hardware.rc522.transport.Mfrc522Transport`, reset lines on gpiozero's
MockFactory) and the real :class:`~hardware.debounce.Debouncer`.  ``place`` and
``lift`` put a virtual tag on a pad or take it away and poll that pad until the
debouncer has decided, so the events arrive before they return, as the direct
:class:`~hardware.simulated.SimulatedTable` does, but through every layer a real
table uses.  Time inside is the emulator's modelled time — the debouncer's
windows too, so a card is read for its settle window in modelled time — and
the events carry the table's ``clock`` (the host's ``time.monotonic()`` by
default).  Hands (:mod:`hardware.emulator.hands`) move cards on the chips
directly, at modelled times, while the table polls.

The table lives in the realistic world by default (:class:`~hardware.emulator.physics.Physics`:
stacked tags detune, neighbouring fields cross-talk, tags need up to 5 ms to
power up, ``time.sleep`` overshoots); ``physics=Physics(ideal=True)`` and
``ModelClock(overshoot=None)`` give the ideal one for unit tests.  Pads of a
profile lie where its ``[reading.positions]`` say; pads made up on the fly lie
in a row ``AD_HOC_SPACING_CM`` apart, and their fields are switched.

Pad modes: ``set_modes({pad: "tap"})`` makes ``place`` on that pad a tap — the
card is laid on the pad, read, and moved onto its pile beside the pad, as a
player does (docs/hardware/tables.md).
"""
from __future__ import annotations

import time

from companion.table import TableProfile
from companion.tags import normalise_uid
from hardware.debounce import Debouncer
from hardware.emulator.chip import EmulatedRC522, Faults, ModelClock
from hardware.emulator.physics import Physics
from hardware.emulator.tags import VirtualTag
from hardware.polling import PolledTable
from hardware.readers import PadReader, ReaderSpec, ReadingPlan, link_reset_lines, reader_specs, reading_plan
from hardware.rc522.transport import Mfrc522Transport

RESET_PIN = 25           # the simulated table's readers share one reset line, like the 16-pad wiring
AD_HOC_SPACING_CM = 9.0  # pads made up on the fly: one card width plus a gap, closer than the cross-talk distance


def _mock_factory():
    from gpiozero.pins.mock import MockFactory
    return MockFactory()


class EmulatedTable(PolledTable):
    """A table of emulated RC522 readers, one per pad (or per ``[[readers]]`` entry of a profile)."""

    simulated = True

    def __init__(self, pads=None, *, specs: list[ReaderSpec] | None = None, clock=time.monotonic,
                 model: ModelClock | None = None, pin_factory=None, ndef=None, debouncer: Debouncer | None = None,
                 physics: Physics | None = None, plan: ReadingPlan | None = None, host_overhead: float | None = None):
        self.model = model or ModelClock()
        self.physics = physics or Physics()
        self.plan = plan or ReadingPlan("switched", {}, f"emulated pads in a row {AD_HOC_SPACING_CM:g} cm apart")
        self.host_overhead = host_overhead
        self.modes: dict[str, str] = {}
        self.bridged: dict[str, ModelClock] = {}          # pad → the clock of the bus it is polled on, if not the Pi's
        self.pin_factory = pin_factory or _mock_factory()
        self._reset_lines: dict[int, object] = {}
        self.chips: dict[str, EmulatedRC522] = {}
        self.virtual_tags: dict[str, VirtualTag] = {}
        self._ndef = ndef
        readers = [self._emulated_reader(s) for s in (specs or [])]
        link_reset_lines(readers)
        super().__init__(readers, debouncer=debouncer or Debouncer(), clock=clock, min_cycle_s=0.0,
                         name="emulated", plan=self.plan)
        for pad in pads or []:
            self._ensure_pad(pad)

    @classmethod
    def from_profile(cls, profile: TableProfile, **kwargs) -> "EmulatedTable":
        """The profile's RC522 readers, emulated (bridges are left out: they have their own stand-in)."""
        specs = [s for s in reader_specs(profile) if s.kind == "rc522"]
        kwargs.setdefault("plan", reading_plan(profile))
        return cls(specs=specs, **kwargs)

    def _emulated_reader(self, spec: ReaderSpec) -> PadReader:
        from gpiozero import DigitalOutputDevice
        reset = None
        if spec.reset_gpio is not None:
            reset = self._reset_lines.get(spec.reset_gpio)
            if reset is None:
                reset = self._reset_lines[spec.reset_gpio] = DigitalOutputDevice(
                    spec.reset_gpio, initial_value=True, pin_factory=self.pin_factory)
        extra = {} if self.host_overhead is None else {"host_overhead": self.host_overhead}
        chip = EmulatedRC522(self.model, reset_pin=reset.pin if reset is not None else None,
                             faults=Faults(seed=len(self.chips) + 1), physics=self.physics, **extra)
        pad = spec.pads[0]
        self.chips[pad] = chip
        if pad not in self.plan.positions:
            # a pad made up on the fly lies in a row with the others; the plan knows it too (pre-warming)
            self.plan.positions[pad] = (AD_HOC_SPACING_CM * len(self.chips), -50.0)
        self.physics.put(chip, self.plan.positions[pad])
        transport = Mfrc522Transport(chip, reset=reset, sleep=self.model.sleep, name=spec.id)
        # the ideal world lets a simulated pile hold far more cards than a real field could power
        return PadReader(spec, transport, clock=lambda: self.model.now, ndef=self._ndef,
                         max_tags=64 if self.physics.ideal else 8, switched=self.plan.switched)

    def _ensure_pad(self, pad: str) -> PadReader:
        for r in self.readers:
            if r.pad == pad:
                return r
        spec = ReaderSpec(f"emulated-{pad}", "rc522", (pad,), bus=0, cs=0, reset_gpio=RESET_PIN)
        reader = self._emulated_reader(spec)
        self.readers.append(reader)
        self.pads.append(pad)
        link_reset_lines(self.readers)
        if self._sink is not None:
            reader.open()
        return reader

    # -- the SimulatedTable interface ----------------------------------------------------------
    def start(self, on_event, background: bool = False) -> None:
        super().start(on_event, background=background)

    def set_pads(self, pads: list[str], modes: dict[str, str] | None = None) -> None:
        for pad in pads:
            self._ensure_pad(pad)
        if modes is not None:
            self.set_modes(modes)

    def set_modes(self, modes: dict[str, str]) -> None:
        """Pad → "hold" or "tap" (a pad not named holds)."""
        self.modes = dict(modes)

    def tag(self, uid: str, kind: str | None = None) -> VirtualTag:
        """The virtual tag with ``uid`` (one object per UID, so it can lie across two pads)."""
        uid = normalise_uid(uid)            # BadUid, in words, for anything that is not a 4/7/10-byte UID
        if uid not in self.virtual_tags:
            self.virtual_tags[uid] = VirtualTag(uid, kind)
        return self.virtual_tags[uid]

    def place(self, pad: str, uid: str, offset=None) -> list:
        """Put the tag on ``pad`` and poll until the pad's reader has reported it; returns the events.

        On a ``tap`` pad the card is then moved onto its pile beside the pad
        (lifted, and polled until the reader has noticed).
        """
        reader = self._ensure_pad(pad)
        tag = self.tag(uid)
        chip = self.chips[pad]
        if offset is None and tag not in chip.tags:
            # as tables.md asks of players: a second card on a hold pad lies with its sticker offset
            offset = (0.0, 3.0 * len(chip.tags))
        chip.place(tag, offset)
        events = self._settle(reader, lambda: tag.uid_hex in self.debouncer.on_pad(pad)
                              or any(c.uid == tag.uid_hex for c in self.debouncer.conflicts()), tag)
        if self.modes.get(pad) == "tap":
            events += self.lift(pad, uid)
        return events

    def lift(self, pad: str, uid: str) -> list:
        """Take the tag off ``pad`` and poll until the removal is reported; returns the events."""
        reader = self._ensure_pad(pad)
        tag = self.virtual_tags.get(normalise_uid(uid))
        if tag is None:
            return []
        self.chips[pad].remove(tag)
        return self._settle(reader, lambda: tag.uid_hex not in self.debouncer.on_pad(pad), tag)

    def slide(self, over: str, to: str, uid: str) -> list:
        """A card slid by hand across pad ``over`` onto pad ``to`` (the hands model's drag, in modelled time);
        the events it gave.  The simulated table's drag: a card counts where it comes to rest."""
        from hardware.emulator.hands import Hands, play
        for pad in (over, to):
            self._ensure_pad(pad)
        if self._sink is None:
            self.start(lambda ev: None)
        events: list = []
        sink = self._sink
        self._sink = lambda ev: (events.append(ev), sink(ev))
        try:
            hands = Hands(self.plan.positions, self.modes, uids=[normalise_uid(uid)])
            gesture = hands.drag(over, to, self.model.now)
            if self.modes.get(to) != "tap":
                gesture.moves = [m for m in gesture.moves if m.on or m.pad != to]    # it stays where it rests
            play(self, [gesture])
        finally:
            self._sink = sink
        return events

    def clear(self) -> None:
        for pad, chip in self.chips.items():
            for tag in list(chip.tags):
                self.lift(pad, tag.uid_hex)

    @property
    def on_pad(self) -> dict[str, set[str]]:
        return {pad: set(self.debouncer.on_pad(pad)) for pad in self.pads}

    def _settle(self, reader: PadReader, done, tag: VirtualTag) -> list:
        """Poll ``reader`` (and every other pad ``tag`` lies on) until ``done()``, for at most the
        debouncer's windows and a second of modelled time."""
        if self._sink is None:
            self.start(lambda ev: None)
        events = []
        give_up = self.model.now + self.debouncer.lift_s + 1.0
        while self.model.now < give_up:
            events.extend(self.poll_reader(reader))
            for other in self.readers:
                if other is not reader and self.chips.get(other.pad) in tag.fields:
                    events.extend(self.poll_reader(other))
            if done():
                break
        return events

    def own_bus(self, pads, model: ModelClock) -> None:
        """Poll ``pads`` on a bus of their own, on ``model``'s clock, side by side with the Pi's readers.

        A reader bridge's Pico polls its channels on its own SPI bus while the Pi
        polls its RC522s: two clocks running in parallel, not one cycle through
        both.  The caller steps whichever bus is behind (``hands_bench``).
        """
        for reader in self.readers:
            if reader.pad in pads:
                self.chips[reader.pad].clock = model
                reader.transport._sleep = model.sleep
                reader.clock = lambda m=model: m.now
                self.bridged[reader.pad] = model

    def repolls(self, reader) -> bool:
        return reader.pad not in self.bridged

    def debounce_time(self) -> float:
        return self.model.now

    def bus_time(self, reader) -> float:
        return self.bridged.get(reader.pad, self.model).now

    def same_bus(self, a, b) -> bool:
        return self.bridged.get(a.pad) is self.bridged.get(b.pad)

    def feed(self, pad: str, uids: list[str], card_ids: dict | None = None, unresolved: bool = False) -> list:
        """As a real table, but the debouncer's windows run on modelled time (the clock of the pad's bus)."""
        from dataclasses import replace
        now = self.bridged.get(pad, self.model).now
        events = self.debouncer.feed(pad, uids, now, card_ids, unresolved)
        # a pad on a bus of its own (a bench's bridge) is stamped with that bus's modelled time
        stamp = now if pad in self.bridged else self.clock()
        events = [replace(ev, t=stamp) for ev in events]
        for ev in events:
            self._emit(ev)
        return events

    fallback_reason = ""

    def status(self) -> list[dict]:
        """One line for the whole simulated table (and why it is simulated), then any conflicts."""
        why = self.fallback_reason or "simulated table"
        head = {"id": "simulated", "kind": "simulated", "ok": True,
                "detail": f"{why} — {len(self.pads)} virtual pads read by emulated RC522s"}
        return [head] + [s for s in super().status() if s["kind"] == "conflict"]

    def reader_status(self) -> list[dict]:
        """Every emulated reader, as a real table lists its readers."""
        return super().status()

    def close(self) -> None:
        super().close()
        for device in self._reset_lines.values():
            device.close()
