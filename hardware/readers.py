"""Readers of a table profile: checking the ``[[readers]]`` entries and building them.

A table profile (``firmware_config/tables/*.toml``) lists readers::

    [[readers]]
    id = "north-attacker"
    kind = "rc522"        # an RC522 on the Pi's SPI
    bus = 0               # SPI bus 0 or 1
    cs = 0                # hardware chip select (SPI0: 0-1, SPI1: 0-2) … or cs_gpio = <BCM pin>
    reset_gpio = 25       # BCM pin of the RST line (readers may share one)
    pads = ["n-attacker"] # exactly one pad per rc522 reader

    [[readers]]
    id = "pico"
    kind = "bridge"       # a Pico running firmware_config/bridge, on USB serial
    port = "/dev/ttyACM0" # a serial device (companion.table.SERIAL_DEVICE), or instead
                          # usb_serial = "E660583883265F2A": the board's USB serial number
    pads = ["p0", "p1"]   # pad i = the bridge's reader channel i

Readers with ``cs_gpio`` share one spidev node of their bus, used in ``no_cs``
mode (the kernel then leaves chip select alone) while each toggles its own GPIO
around every transfer: a node no ``cs`` reader uses, or else the bus's last
node, whose mode is switched per transfer (see :class:`SharedSpiNode`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from companion.table import USB_SERIAL, ProfileError, TableProfile, is_serial_device
from hardware.rc522.pcd import KNOWN_VERSIONS, KnownTags, Pcd, RfidError, ReaderFault
from hardware.rc522.transport import Mfrc522Transport, open_spidev

# Readers whose pads are closer than this (centre to centre) hear each other's tags while both fields
# are on: RC522s 8 cm apart did (miguelbalboa/rfid#589); we keep a margin.  docs/hardware/emulator.md.
CROSSTALK_CM = 10.0
# For this long after a card arrived on a pad its polls ask a silent REQA twice (Pcd.inventory's ask_twice): cards
# slapped onto it come 120 ms apart (the aim), a slap of three lasts ~0.25 s.  A guess with margin; a lone
# card resting longer costs no second REQA (one on every poll lengthened a bridge's cycle by ~1 ms a busy pad).
ARRIVALS_S = 0.5
# After switching a field on, a PCD should wait 5.1 ms before its first REQA: a PICC must be ready
# within 5 ms of an unmodulated field (ISO/IEC 14443-3, 5.2.1 and its note).
GUARD_S = 5.1e-3
FIELD_MODES = ("switched", "on")

HARDWARE_CS = {0: (0, 1), 1: (0, 1, 2)}
SPI_PINS = {0: {7, 8, 9, 10, 11}, 1: {16, 17, 18, 19, 20, 21}}     # BCM pins each bus claims
BCM_PINS = range(2, 28)
RECOVERY_INTERVAL_S = 1.0


@dataclass(frozen=True)
class ReaderSpec:
    """One ``[[readers]]`` entry, checked."""

    id: str
    kind: str
    pads: tuple[str, ...]
    bus: int | None = None
    cs: int | None = None
    cs_gpio: int | None = None
    reset_gpio: int | None = None
    port: str | None = None
    usb_serial: str | None = None          # a bridge named by its USB serial number (found at open)

    def where(self) -> str:
        """Where a tinkerer finds this reader: "SPI0 CE0", "SPI1 with chip select on GPIO 5", "/dev/ttyACM0"."""
        if self.kind == "bridge":
            if self.port is None and self.usb_serial is not None:
                return f"the reader bridge with USB serial number {self.usb_serial}"
            return f"the reader bridge on {self.port}"
        if self.cs is not None:
            return f"SPI{self.bus} CE{self.cs}"
        return f"SPI{self.bus} with chip select on GPIO {self.cs_gpio}"


@dataclass(frozen=True)
class ReadingPlan:
    """The profile's ``[reading]`` section: whether fields are switched, and where the pads lie.

    ::

        [reading]
        fields = "switched"          # or "on"; default: switched unless every two pads are
                                     # CROSSTALK_CM or more apart (or no positions are given)
        spi_hz = 1_000_000           # the SPI clock (default 4 MHz): lower it for wires over 30 cm
        [reading.positions]          # pad centres in cm, as seen from above
        n1 = [0, 0]
        n2 = [9, 0]
    """

    fields: str
    positions: dict
    why: str

    @property
    def switched(self) -> bool:
        return self.fields == "switched"

    def near(self, a: str, b: str) -> bool:
        """Could pads ``a`` and ``b`` cross-talk (or is it unknown)?"""
        pa, pb = self.positions.get(a), self.positions.get(b)
        if pa is None or pb is None:
            return True
        return ((pa[0] - pb[0]) ** 2 + (pa[1] - pb[1]) ** 2) ** 0.5 < CROSSTALK_CM

    def closest(self) -> float | None:
        pads = list(self.positions)
        dists = [((self.positions[a][0] - self.positions[b][0]) ** 2
                  + (self.positions[a][1] - self.positions[b][1]) ** 2) ** 0.5
                 for i, a in enumerate(pads) for b in pads[i + 1:]]
        return min(dists) if dists else None


def reading_plan(profile: TableProfile) -> ReadingPlan:
    """The ``[reading]`` section, checked; :class:`ProfileError` says what is wrong."""
    raw = profile.raw.get("reading", {})
    problems = []
    if not isinstance(raw, dict):
        raise ProfileError(f"{profile.source}: [reading] must be a table")
    positions = {}
    for pad, at in (raw.get("positions") or {}).items():
        if (not isinstance(at, list) or len(at) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in at)):
            problems.append(f"[reading.positions] {pad} must be [x, y] in cm, e.g. [0, 9]")
        elif profile.pads and pad not in profile.pads:
            problems.append(f"[reading.positions] names pad {pad!r}, which no reader has")
        else:
            positions[pad] = (float(at[0]), float(at[1]))
    fields = raw.get("fields")
    unknown = set(raw) - {"fields", "positions", "spi_hz"}
    hz = raw.get("spi_hz")
    if hz is not None and not (isinstance(hz, int) and SPI_HZ_RANGE[0] <= hz <= SPI_HZ_RANGE[1]):
        problems.append(f"[reading] spi_hz must be a whole number of Hz from {SPI_HZ_RANGE[0]:_} to "
                        f"{SPI_HZ_RANGE[1]:_} (the RC522 reads up to 10 MHz; 1_000_000 suits long wires), not {hz!r}")
    if unknown:
        problems.append(f"[reading]: unknown {'setting' if len(unknown) == 1 else 'settings'} {', '.join(sorted(unknown))}")
    if fields is not None and fields not in FIELD_MODES:
        problems.append(f"[reading] fields must be \"switched\" or \"on\", not {fields!r}")
    if problems:
        raise ProfileError(f"{profile.source}: " + "; ".join(problems))
    plan = ReadingPlan("switched", positions, "")
    closest = plan.closest()
    if fields is not None:
        why = "set in the profile"
    elif closest is None or len(positions) < len(profile.pads):
        fields, why = "switched", "pad positions unknown, so neighbours may cross-talk"
    elif closest < CROSSTALK_CM:
        fields, why = "switched", f"pads {closest:g} cm apart, closer than {CROSSTALK_CM:g} cm"
    else:
        fields, why = "on", f"every two pads at least {CROSSTALK_CM:g} cm apart"
    return ReadingPlan(fields, positions, why)


def poll_order(pads: list[str], plan: ReadingPlan | None) -> list[int]:
    """An order of the pads (indices) in which each next pad is, where possible, no neighbour of the last.

    With switched fields the next reader's field goes on while the current one
    is read, so that its tags are powered by the time it is asked; two
    neighbours with both fields on would cross-talk, so they are never
    consecutive if the table allows it.
    """
    if plan is None or not plan.switched:
        return list(range(len(pads)))
    left = list(range(len(pads)))
    order = [left.pop(0)]
    while left:
        last = pads[order[-1]]
        pick = next((i for i in left if not plan.near(last, pads[i])), left[0])
        left.remove(pick)
        order.append(pick)
    return order


def reader_specs(profile: TableProfile) -> list[ReaderSpec]:
    """The profile's readers, checked; :class:`ProfileError` lists every problem, naming file and reader."""
    problems: list[str] = []
    specs: list[ReaderSpec] = []
    for n, raw in enumerate(profile.raw.get("readers", []), start=1):
        name = f"reader {n} ({raw.get('id', 'no id')})"
        spec = _check_reader(raw, name, problems)
        if spec is not None:
            specs.append(spec)
    ids = [s.id for s in specs]
    for dup in sorted({i for i in ids if ids.count(i) > 1}):
        problems.append(f"two readers are called {dup!r}")
    hardware_cs: dict[tuple[int, int], str] = {}
    gpio_use: dict[int, str] = {}
    for s in specs:
        if s.kind != "rc522":
            continue
        if s.cs is not None:
            other = hardware_cs.setdefault((s.bus, s.cs), s.id)
            if other != s.id:
                problems.append(f"readers {other} and {s.id} both use SPI{s.bus} CE{s.cs}")
        if s.cs_gpio is not None:
            other = gpio_use.setdefault(s.cs_gpio, s.id)
            if other != s.id:
                problems.append(f"readers {other} and {s.id} both use GPIO {s.cs_gpio} as chip select")
    buses = {s.bus for s in specs if s.kind == "rc522"}
    spi_pins = set().union(*(SPI_PINS[b] for b in buses)) if buses else set()
    for s in specs:
        for label, pin in (("cs_gpio", s.cs_gpio), ("reset_gpio", s.reset_gpio)):
            if pin is not None and pin in spi_pins:
                problems.append(f"reader {s.id}: {label} = {pin} is a pin of an SPI bus the table uses")
        if s.reset_gpio is not None and s.reset_gpio in gpio_use:
            problems.append(f"reader {s.id}: reset_gpio = {s.reset_gpio} is also a chip select")
    if problems:
        raise ProfileError(f"{profile.source}: " + "; ".join(problems))
    return specs


def _check_reader(raw: dict, name: str, problems: list[str]) -> ReaderSpec | None:
    reader_id = raw.get("id")
    if not isinstance(reader_id, str) or not reader_id:
        problems.append(f"{name}: needs an id, e.g. id = \"north-attacker\"")
        return None
    kind = raw.get("kind")
    pads = raw.get("pads", [])
    if not isinstance(pads, list) or not pads or not all(isinstance(p, str) for p in pads):
        problems.append(f"{name}: 'pads' must be a non-empty list of pad names")
        return None
    before = len(problems)
    if kind == "rc522":
        if len(pads) != 1:
            problems.append(f"{name}: an rc522 reader has exactly one pad, not {len(pads)}")
        bus = raw.get("bus")
        if bus not in HARDWARE_CS:
            problems.append(f"{name}: bus must be 0 or 1, not {bus!r}")
            return None
        cs, cs_gpio = raw.get("cs"), raw.get("cs_gpio")
        if (cs is None) == (cs_gpio is None):
            problems.append(f"{name}: give either cs (a hardware chip select) or cs_gpio (a BCM pin), not both or neither")
        elif cs is not None and cs not in HARDWARE_CS[bus]:
            problems.append(f"{name}: SPI{bus} has chip selects {', '.join(map(str, HARDWARE_CS[bus]))}, not {cs!r}")
        elif cs_gpio is not None and cs_gpio not in BCM_PINS:
            problems.append(f"{name}: cs_gpio must be a BCM pin 2-27, not {cs_gpio!r}")
        reset = raw.get("reset_gpio")
        if reset is not None and reset not in BCM_PINS:
            problems.append(f"{name}: reset_gpio must be a BCM pin 2-27, not {reset!r}")
        unknown = set(raw) - {"id", "kind", "bus", "cs", "cs_gpio", "reset_gpio", "pads"}
        if unknown:
            problems.append(f"{name}: unknown {'setting' if len(unknown) == 1 else 'settings'} {', '.join(sorted(unknown))}")
        if len(problems) > before:
            return None
        return ReaderSpec(reader_id, kind, tuple(pads), bus=bus, cs=cs, cs_gpio=cs_gpio, reset_gpio=reset)
    if kind == "bridge":
        port, usb_serial = raw.get("port"), raw.get("usb_serial")
        if (port is None) == (usb_serial is None):
            problems.append(f"{name}: a bridge needs port = \"/dev/ttyACM0\" (or another serial device) "
                            f"or usb_serial = \"<its USB serial number>\": one of the two")
        elif port is not None and not is_serial_device(port):
            problems.append(f"{name}: port {port[:60]!r} is not a serial device such as /dev/ttyACM0")
        elif usb_serial is not None and not (isinstance(usb_serial, str) and USB_SERIAL.fullmatch(usb_serial)):
            problems.append(f"{name}: usb_serial {str(usb_serial)[:60]!r} is not a USB serial number")
        if len(pads) > 16:
            problems.append(f"{name}: the bridge polls at most 16 readers, {len(pads)} pads given")
        unknown = set(raw) - {"id", "kind", "port", "usb_serial", "pads"}
        if unknown:
            problems.append(f"{name}: unknown {'setting' if len(unknown) == 1 else 'settings'} {', '.join(sorted(unknown))}")
        if len(problems) > before:
            return None
        return ReaderSpec(reader_id, kind, tuple(pads), port=port, usb_serial=usb_serial)
    problems.append(f"{name}: kind must be \"rc522\" or \"bridge\", not {kind!r}")
    return None


def gpio_cs_node(specs: list[ReaderSpec], bus: int) -> int:
    """The spidev node (chip select number) that GPIO chip-select readers of ``bus`` borrow.

    A node no hardware-chip-select reader uses if there is one (it stays in
    ``no_cs`` mode), else the bus's last node, shared: :class:`SharedSpiNode`
    switches ``no_cs`` on for the GPIO readers' transfers and off for its own reader's.
    """
    used = {s.cs for s in specs if s.kind == "rc522" and s.bus == bus and s.cs is not None}
    free = [cs for cs in HARDWARE_CS[bus] if cs not in used]
    return free[-1] if free else HARDWARE_CS[bus][-1]


class SharedSpiNode:
    """One opened spidev node used by several readers, some with the kernel's chip select, some without.

    Every reader gets a :meth:`port`; a transfer first puts the node in the
    chip-select mode that reader needs (one ioctl, only when it changes).
    Transfers all come from the one polling thread, so switching is safe.
    """

    def __init__(self, spi):
        self.spi = spi
        self.no_cs = bool(getattr(spi, "no_cs", False))
        self.users = 0

    def port(self, no_cs: bool) -> "_SpiPort":
        self.users += 1
        return _SpiPort(self, no_cs)

    def xfer2(self, data, no_cs: bool):
        if no_cs != self.no_cs:
            self.spi.no_cs = no_cs
            self.no_cs = no_cs
        return self.spi.xfer2(data)

    def release(self) -> None:
        self.users -= 1
        if self.users == 0:
            self.spi.close()


class _SpiPort:
    def __init__(self, node: SharedSpiNode, no_cs: bool):
        self.node, self.no_cs, self.closed = node, no_cs, False

    def xfer2(self, data):
        return self.node.xfer2(data, self.no_cs)

    def close(self):
        if not self.closed:
            self.closed = True
            self.node.release()


class PadReader:
    """One RC522 under one pad: polls it, remembers its tags between polls, recovers it when it fails.

    :meth:`poll` returns the UIDs (upper-case hex) on the pad, or None when the
    reader could not be asked (no information, which is not the same as an
    empty pad).  A reader that stops answering or answers garbage is pulsed on
    its reset line (with every reader sharing that line) and initialised again,
    at most once per ``RECOVERY_INTERVAL_S``.
    """

    kind = "rc522"

    def __init__(self, spec: ReaderSpec, transport: Mfrc522Transport, clock=time.monotonic, ndef=None,
                 max_tags: int = 8, switched: bool = False):
        self.spec = spec
        self.pad = spec.pads[0]
        self.transport = transport
        self.pcd = Pcd(transport)
        self.clock = clock
        self.ndef = ndef                     # hardware.ndef.NdefCache, or None
        self.max_tags = max_tags             # a real RC522 field powers a handful of stacked tags at most
        self.known = KnownTags()
        self.ok = False
        self.detail = "not started"
        self.version: int | None = None
        self.faults = 0
        self.recoveries = 0
        self.needs_init = True
        self.line_mates: list[PadReader] = []    # readers sharing this reset line (self included)
        self._next_recovery = 0.0
        self.switched = switched             # field on only while this pad is read (see ReadingPlan)
        self._warm_since: float | None = None
        self._arrived: float | None = None   # when a poll last found a card the poll before had not

    def open(self) -> bool:
        try:
            self.version = self.pcd.init()
        except ReaderFault as exc:
            self._fail(exc)
            return False
        self.needs_init = False
        self.ok = True
        self.detail = f"{KNOWN_VERSIONS[self.version]} (version 0x{self.version:02X})"
        self._warm_since = self.clock()          # init switched the antenna on
        if self.switched:
            self.rest()
        return True

    # -- the field ----------------------------------------------------------------------------
    def warm(self) -> None:
        """Switch the field on (tags need up to 5 ms to power up before they answer)."""
        if not self.switched or self._warm_since is not None or not self.ok or self.needs_init:
            return
        try:
            self.pcd.antenna(True)
        except (ReaderFault, OSError):
            return
        self._warm_since = self.clock()

    def _ready(self) -> None:
        """Field on for at least the ISO/IEC 14443-3 guard time."""
        if not self.switched:
            return
        self.warm()
        if self._warm_since is None:
            return
        wait = GUARD_S - (self.clock() - self._warm_since)
        if wait > 0:
            self.transport.sleep_us(wait * 1e6)

    def rest(self) -> None:
        """Switch the field off again (switched readers only), so no neighbour hears this pad's tags."""
        if not self.switched or self._warm_since is None:
            return
        self._warm_since = None
        try:
            self.pcd.antenna(False)
        except (ReaderFault, OSError):
            pass

    def _fail(self, exc: Exception) -> None:
        self.ok = False
        self.faults += 1
        self.detail = diagnose(self.spec, exc, self.transport)

    def recover(self) -> bool:
        """Pulse the reset line and initialise every reader on it again."""
        self.recoveries += 1
        self.transport.hard_reset()
        for mate in self.line_mates or [self]:
            mate.needs_init = True
            mate.known.clear()
        return self.open()

    def poll(self) -> list[str] | None:
        if self.needs_init and not self.open():
            return self._try_recovery()
        if not self.ok:
            return self._try_recovery()
        try:
            self._ready()
            last = self.known.read_last()
            arriving = self._arrived is not None and self.clock() - self._arrived < ARRIVALS_S
            uids = self.pcd.inventory(last, self.max_tags, powered_up=self.switched, ask_twice=arriving,
                                      missing=() if self.switched else self.known.missing())
        except ReaderFault as exc:
            self._fail(exc)
            return self._try_recovery()
        if any(u not in last for u in uids):
            self._arrived = self.clock()
        self.known.update(uids, self.pcd.unresolved)
        return [u.hex().upper() for u in uids]

    def _try_recovery(self) -> list[str] | None:
        now = self.clock()
        if now < self._next_recovery:
            return None
        self._next_recovery = now + RECOVERY_INTERVAL_S
        if self.recover():
            try:
                self._ready()
                uids = self.pcd.inventory([], self.max_tags)
                self.known.update(uids)
                return [u.hex().upper() for u in uids]
            except RfidError as exc:
                self._fail(exc)
        return None

    def card_ids(self, uids: list[str]) -> dict[str, str | None]:
        """Card ids written on the tags (NDEF), read once per UID and cached."""
        if self.ndef is None or not self.ok:
            return {}
        return {uid: self.ndef.card_id(self.pcd, bytes.fromhex(uid)) for uid in uids}

    def status(self) -> dict:
        return {"id": self.spec.id, "kind": "rc522", "ok": self.ok, "detail": self.detail,
                "where": self.spec.where(), "pads": list(self.spec.pads),
                "version": None if self.version is None else f"0x{self.version:02X}",
                "faults": self.faults, "recoveries": self.recoveries,
                "fields": "switched" if self.switched else "on"}

    def close(self) -> None:
        self.transport.close()


def diagnose(spec: ReaderSpec, exc: Exception, transport=None) -> str:
    """What is wrong with a reader, in words a tinkerer can act on."""
    text = str(exc)
    where = spec.where()
    if "reads 0x00" in text:
        return (f"reader {spec.id} on {where} does not answer: version register reads 0x00 — "
                f"check 3.3 V, GND and the MISO wire")
    if "reads 0xFF" in text:
        return (f"reader {spec.id} on {where} does not answer: version register reads 0xFF — MISO stays high: "
                f"check the MISO wire and that the chip select is the one in the profile; if other readers "
                f"share the bus, one of them may be holding MISO (an RC522 does not release it when "
                f"deselected): give each reader's MISO its 74HC125 buffer (docs/hardware/wiring.md, 'MISO')")
    if "version register" in text:
        return (f"reader {spec.id} on {where} answers garbage ({text}) — another reader may be "
                f"holding MISO (see docs/hardware/wiring.md, 'MISO'), or the wires are too long; "
                f"it will be reset on GPIO {spec.reset_gpio}" if spec.reset_gpio is not None else
                f"reader {spec.id} on {where} answers garbage ({text}) and has no reset_gpio to reset it")
    return f"reader {spec.id} on {where}: {text}"


def build_rc522(spec: ReaderSpec, specs: list[ReaderSpec], shared: dict, *, pin_factory=None,
                spi_speed_hz: int = 4_000_000, clock=time.monotonic, ndef=None,
                switched: bool = False) -> PadReader:
    """A :class:`PadReader` on the Pi's SPI (spidev) with gpiozero pins; raises OSError without SPI.

    ``shared`` holds what several readers use and the caller closes at the end:
    reset lines (by BCM pin) and opened spidev nodes (by ``(bus, cs)``).
    """
    from gpiozero import DigitalOutputDevice
    cs = spec.cs if spec.cs is not None else gpio_cs_node(specs, spec.bus)
    node = shared.get(("spi", spec.bus, cs))
    if node is None:
        node = shared[("spi", spec.bus, cs)] = SharedSpiNode(open_spidev(spec.bus, cs, spi_speed_hz))
    chip_select = None
    if spec.cs_gpio is not None:
        chip_select = DigitalOutputDevice(spec.cs_gpio, active_high=False, initial_value=False,
                                          pin_factory=pin_factory)
    reset = None
    if spec.reset_gpio is not None:
        reset = shared.get(spec.reset_gpio)
        if reset is None:
            reset = shared[spec.reset_gpio] = DigitalOutputDevice(
                spec.reset_gpio, initial_value=True, pin_factory=pin_factory)
    transport = Mfrc522Transport(node.port(no_cs=chip_select is not None), reset=reset, own_reset=False,
                                 name=spec.id, chip_select=chip_select)
    return PadReader(spec, transport, clock=clock, ndef=ndef, switched=switched)


def link_reset_lines(readers: list[PadReader]) -> None:
    """Tell readers that share a reset line about each other (a reset re-initialises them all)."""
    by_line: dict[int, list[PadReader]] = {}
    for r in readers:
        if r.spec.reset_gpio is not None:
            by_line.setdefault(r.spec.reset_gpio, []).append(r)
    for mates in by_line.values():
        for r in mates:
            r.line_mates = mates


SPI_HZ_DEFAULT = 4_000_000
SPI_HZ_RANGE = (100_000, 10_000_000)      # the MFRC522 datasheet: SPI up to 10 Mbit/s


def spi_hz(profile: TableProfile) -> int:
    """The SPI clock the profile asks for (``[reading] spi_hz``; lower it for long wires), else 4 MHz."""
    return int((profile.raw.get("reading") or {}).get("spi_hz", SPI_HZ_DEFAULT))


def open_profile_table(profile: TableProfile, *, pin_factory=None, spi_speed_hz: int | None = None):
    """A :class:`~hardware.polling.PolledTable` on the profile's readers, or ``(None, problems)``.

    Returns ``(table, [])`` when at least one reader answers (the others show
    what is wrong in ``status()``), else ``(None, problems)`` in plain words.
    """
    from hardware.ndef import NdefCache
    from hardware.polling import PolledTable
    try:
        specs = reader_specs(profile)
        plan = reading_plan(profile)
    except ProfileError as exc:
        return None, [str(exc)]
    problems: list[str] = []
    reset_lines: dict = {}
    readers = []
    card_ids = NdefCache()                  # one cache for the table: a card moved to another pad is not re-read
    for spec in specs:
        if spec.kind != "rc522":
            continue
        try:
            readers.append(build_rc522(spec, specs, reset_lines, pin_factory=pin_factory,
                                       spi_speed_hz=spi_speed_hz or spi_hz(profile), ndef=card_ids,
                                       switched=plan.switched))
        except (OSError, ImportError) as exc:
            problems.append(no_spi_message(spec, exc, specs))
    link_reset_lines(readers)
    answering = [r for r in readers if r.open()]
    problems.extend(r.detail for r in readers if not r.ok)
    bridges = []
    for spec in specs:
        if spec.kind == "bridge":
            from hardware.bridge.host import BridgeReader
            bridge = BridgeReader(spec)
            if bridge.probe():
                bridges.append(bridge)
            else:
                problems.append(bridge.detail)
    if not answering and not bridges:
        for r in readers:
            r.close()
        for device in shared_pins(reset_lines):
            device.close()
        return None, problems
    return PolledTable(readers, bridges, owned=shared_pins(reset_lines), name=profile.name, plan=plan), []


def shared_pins(shared: dict) -> list:
    """The gpiozero devices among the shared things (spidev nodes close with their last reader)."""
    return [v for k, v in shared.items() if isinstance(k, int)]


def spidev_node(spec: ReaderSpec, specs: list[ReaderSpec]) -> str:
    cs = spec.cs if spec.cs is not None else gpio_cs_node(specs, spec.bus)
    return f"/dev/spidev{spec.bus}.{cs}"


def no_spi_message(spec: ReaderSpec, exc: Exception, specs: list[ReaderSpec] = ()) -> str:
    node = spidev_node(spec, list(specs) or [spec])
    if isinstance(exc, FileNotFoundError) or "No such file" in str(exc):
        return (f"reader {spec.id} on {spec.where()}: {node} does not exist — this machine has no SPI bus "
                f"{spec.bus} (on a Pi: add dtparam=spi=on" + (", dtoverlay=spi1-3cs" if spec.bus == 1 else "")
                + " to /boot/firmware/config.txt and reboot)")
    if isinstance(exc, PermissionError):
        return f"reader {spec.id} on {spec.where()}: no permission to open {node} — add your user to the spi group"
    return f"reader {spec.id} on {spec.where()}: cannot open SPI: {exc}"
