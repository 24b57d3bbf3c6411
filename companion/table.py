"""The table: pad events in, zone changes out.

The hardware knows readers and pads; a game knows zones.  A *table profile*
(a TOML file, see ``firmware_config/tables/``) lists the readers and their pads
and, per game, a *layout* that maps each pad to one of the game's zones::

    name = "Sam's table, 10 pads"

    [[readers]]
    id = "north-1"
    kind = "rc522"          # read by hardware/, ignored here
    pads = ["n1"]

    [layouts.sams]
    n1 = { zone = "0.lane1", mode = "tap" }   # pad id = zone id of the game, and how the pad is used
    n2 = "0.lane2"                            # mode left out: the zone's own (tap for a stack)

A different table is a different profile file, never a code change.  With no
profile (the simulated table), every zone of the game is its own pad.

Pad modes (docs/hardware/tables.md).  Stacked tags detune each other, so a
reader cannot be trusted to see a pile; a pad is therefore used in one of two ways:

* ``hold`` — the cards lying on the pad are the zone's contents (one card, two
  at most): a card put down enters the zone, a card lifted leaves it;
* ``tap`` — the card is laid on the pad and then moved onto its pile beside
  the pad: each new sighting is one card entering the zone, and lifting it
  means nothing.  Cards leave the zone by the rules (a round ends, a creature
  dies) or by being tapped on another pad (a discard or graveyard pad).

:class:`TableState` turns :class:`PadEvent` s into :class:`ZoneChange` s and
says plainly when a sighting cannot become one (unknown tag, unused pad).
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Literal

SEEN: Literal["seen"] = "seen"
GONE: Literal["gone"] = "gone"
UNREAD: Literal["unread"] = "unread"       # a pad answers, but a card there cannot be read (a pile, a collision)


@dataclass(frozen=True)
class PadEvent:
    """A debounced sighting: tag ``uid`` appeared on (``seen``) or left (``gone``) ``pad``.

    ``unread``: something on ``pad`` answers but cannot be read (three or more
    stacked cards, a collision that does not resolve); ``uid`` is empty.

    ``t`` is ``time.monotonic()`` when the reader saw it.  ``card_id`` is set
    when the tag itself says which card it is (an NDEF record written by the
    companion), so no registry lookup is needed.
    """

    pad: str
    uid: str
    kind: Literal["seen", "gone", "unread"]
    t: float = 0.0
    card_id: str | None = None

    def __post_init__(self):
        if self.kind not in (SEEN, GONE, UNREAD):
            raise ValueError(f"PadEvent kind must be 'seen', 'gone' or 'unread', not {self.kind!r}")


@dataclass(frozen=True)
class ZoneChange:
    """A card appeared in (``present``) or left a zone of the current game."""

    pad: str
    zone: str
    card_id: str
    present: bool
    uid: str = ""


@dataclass(frozen=True)
class UnknownTag:
    """A tag nobody has registered: the screen offers to assign it a card."""

    pad: str
    uid: str


@dataclass(frozen=True)
class UnusedPad:
    """A card on a pad that the current game's layout does not use."""

    pad: str
    uid: str
    card_id: str | None


@dataclass(frozen=True)
class UnreadCards:
    """Cards on ``pad`` that answer but cannot be read: the player is asked to lay them one at a time.

    ``hold``: the pad's zone holds its card where it lies (a position, an attacker, a play pad), so
    there is no pile to put the cards onto: only the card that belongs there goes back.
    """

    pad: str
    zone: str | None
    hold: bool = False

    def text(self, where: str | None = None) -> str:
        """The notice, naming the pad as the board does (``where``: its zone's label) or else by its id."""
        where = where or f"Pad {self.pad}"
        then = "then leave only the card that belongs there" if self.hold else "then onto its pile"
        return (f"{where}: a card could not be read (cards on top of each other). Lift them off and lay the "
                f"cards one at a time, each until it is read, {then}")


class ProfileError(ValueError):
    """A table profile that cannot be used; the message names the file and every problem."""


HOLD, TAP = "hold", "tap"

# A pile's cards laid again after its notice (TableState._relaid; docs/hardware/tables.md):
PILE_LOOKBACK_S = 3.0    # cards counted on the pad this long before the notice may lie in the pile (a slap
                         # lasts < 1 s; a pile is built a think-and-reach apart, ~2 s for three cards)
RELAY_S = 30.0           # the notice read, the pile lifted off, its cards laid one at a time: within this
MODES = (HOLD, TAP)


def zone_mode(zone) -> str:
    """The mode a zone needs when the profile does not say: ``tap`` for a stack, ``hold`` otherwise."""
    return TAP if getattr(zone, "stack", False) else HOLD


@dataclass
class Layout:
    """Pad → zone for one game on one table, and each pad's mode (``hold`` or ``tap``)."""

    game: str
    pad_to_zone: dict[str, str]
    modes: dict[str, str] = field(default_factory=dict)     # pad → mode; a pad not named: hold

    @classmethod
    def identity(cls, game: str, zones) -> "Layout":
        """The simulated table: one virtual pad per zone, named like the zone.

        ``zones`` are :class:`~companion.engine.Zone` s (their ``stack`` gives the
        mode) or bare zone ids (every pad then holds).
        """
        zones = list(zones)
        ids = [getattr(z, "id", z) for z in zones]
        return cls(game, {z: z for z in ids}, {getattr(z, "id", z): zone_mode(z) for z in zones})

    def zone_of(self, pad: str) -> str | None:
        return self.pad_to_zone.get(pad)

    def mode_of(self, pad: str) -> str:
        return self.modes.get(pad, HOLD)

    def pads_of(self, zone: str) -> list[str]:
        return [p for p, z in self.pad_to_zone.items() if z == zone]

    def validate(self, zones, source: str = "layout") -> None:
        """Every mapped zone must exist; every zone of the game must have a pad.

        Given :class:`~companion.engine.Zone` s (not bare ids), pads whose mode
        the profile left out get their zone's (:func:`zone_mode`).
        """
        zones = list(zones)
        zone_ids = [getattr(z, "id", z) for z in zones]
        for z in zones:
            if hasattr(z, "stack"):
                for pad in self.pads_of(z.id):
                    self.modes.setdefault(pad, zone_mode(z))
        known = set(zone_ids)
        # A pad for a zone the game has only with other options (Sam's solo hand pad in a game of
        # two people) is no mistake: this game does not use it, and a card on it is an unused pad's.
        unknown = {p: z for p, z in self.pad_to_zone.items() if z not in known}
        if unknown:
            optional = _zones_with_some_options(self.game)
            for pad in [p for p, z in unknown.items() if z in optional]:
                del self.pad_to_zone[pad]
                self.modes.pop(pad, None)
        problems = [f"pad {p!r} maps to {z!r}, which {self.game} does not have"
                    for p, z in self.pad_to_zone.items() if z not in known]
        mapped = set(self.pad_to_zone.values())
        labels = {z.id: z.label for z in zones if hasattr(z, "label")}
        missing = [f"{z} ({labels[z]})" if z in labels else z for z in zone_ids if z not in mapped]
        if missing:
            problems.append(f"no pad for {'zone' if len(missing) == 1 else 'zones'} " + ", ".join(missing))
        if problems:
            raise ProfileError(f"{source} [layouts.{self.game}]: " + "; ".join(problems))


@dataclass
class TableProfile:
    """A parsed table profile file."""

    name: str
    source: str
    pads: list[str]
    layouts: dict[str, Layout]
    raw: dict = field(repr=False, default_factory=dict)   # the whole document, for hardware/ and outputs

    def layout(self, game: str) -> Layout:
        if game not in self.layouts:
            raise ProfileError(f"{self.source}: no [layouts.{game}] section; this table cannot play {game}")
        return self.layouts[game]


MAX_PROFILE_BYTES = 256_000
_NAME = {"type": "string", "minLength": 1, "maxLength": 64}
_INT = {"type": "integer"}             # ranges are the hardware's to explain (hardware.pins, .readers)
_GPIO = _INT
_SEAT = _INT
_PAD_MODE = {"enum": ["hold", "tap"]}
_PAD = _NAME

#: Everything a table profile may hold, as JSON Schema: types and sizes only.  What the hardware
#: makes of it (SPI buses, pins, chip selects) is checked by ``hardware.readers`` and ``hardware.pins``,
#: layouts against each game's zones by :func:`check_layouts`; ``companion run``, ``companion doctor``
#: and the app all read a profile through :func:`load_profile`, so they agree on every file.
PROFILE_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 200},
        "description": {"type": "string", "maxLength": 4000},
        "readers": {"type": "array", "maxItems": 64, "items": {
            "type": "object",
            "properties": {
                "id": {"type": "string", "maxLength": 64}, "kind": {"type": "string", "maxLength": 20},
                "bus": _INT, "cs": _INT,
                "cs_gpio": _GPIO, "reset_gpio": _GPIO,
                "port": {"type": "string", "minLength": 1, "maxLength": 200},            # see check_device_names
                "usb_serial": {"type": "string", "minLength": 1, "maxLength": 200},
                "pads": {"type": "array", "maxItems": 16, "items": _PAD}}}},
        "layouts": {"type": "object", "maxProperties": 16, "additionalProperties": {
            "type": "object", "maxProperties": 256, "additionalProperties": {"anyOf": [
                _NAME, {"type": "object", "required": ["zone"], "additionalProperties": False,
                        "properties": {"zone": _NAME, "mode": _PAD_MODE}}]}}},
        "reading": {"type": "object", "properties": {
            "fields": {"enum": ["switched", "on"]},
            "spi_hz": _INT,
            "positions": {"type": "object", "maxProperties": 256, "additionalProperties": {
                "type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "number"}}}}},
        "leds": {"type": "array", "maxItems": 64, "items": {
            "type": "object",
            "properties": {"id": {"type": "string", "maxLength": 64}, "kind": {"type": "string", "maxLength": 20},
                           "seat": _SEAT,
                           "pads": {"type": "array", "maxItems": 16, "items": _NAME},
                           "gpio": _GPIO, "red": _GPIO, "green": _GPIO, "blue": _GPIO,
                           "common_anode": {"type": "boolean"}}}},
        "buttons": {"type": "array", "maxItems": 8, "items": {
            "type": "object",
            "properties": {"id": {"type": "string", "maxLength": 64}, "seat": _SEAT, "gpio": _GPIO,
                           "pull_up": {"type": "boolean"}}}},
        "buzzer": {"type": "object", "properties": {"gpio": _GPIO, "active_high": {"type": "boolean"}}},
    },
}


#: The only strings a profile may give as a reader's ``port``: serial device nodes, named in full.
#: pyserial's ``serial_for_url`` would run URL handlers (``spy://…?file=`` writes a file, ``socket://``
#: connects), and a relative path or ``..`` could name any file; so nothing else reaches an opener.
#: ttyACM: USB CDC (the Pico); ttyUSB: USB-serial adapters; ttyAMA/ttyS and serial0/1: the Pi's own
#: UARTs; /dev/serial/by-id|by-path: udev's stable names (a name starting with a letter or digit, so
#: never ``.`` or ``..``).
SERIAL_DEVICE = re.compile(r"/dev/(?:tty(?:ACM|USB|AMA|S)[0-9]{1,3}|serial[01]"
                           r"|serial/by-(?:id|path)/[A-Za-z0-9][A-Za-z0-9_.:+-]{0,199})", re.ASCII)
#: A USB serial number as a bridge reports it (the Pico's is its flash id, 16 hex digits).
USB_SERIAL = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}", re.ASCII)


def is_serial_device(value) -> bool:
    """Is ``value`` a serial device path a profile may name (:data:`SERIAL_DEVICE`)?"""
    return isinstance(value, str) and SERIAL_DEVICE.fullmatch(value) is not None


def check_device_names(doc: dict, source: str, text: str | None = None) -> None:
    """Refuse, in one sentence naming the key, a reader ``port`` or ``usb_serial`` that is not one.

    Runs at profile load (:func:`parse_profile`), so ``companion run``, ``doctor``
    and the app refuse the file before anything opens a port.
    """
    from companion import validate
    for n, reader in enumerate(doc.get("readers", [])):
        if not isinstance(reader, dict):
            continue
        for key, pattern, wanted in (
                ("port", SERIAL_DEVICE, "a serial device such as /dev/ttyACM0, /dev/ttyUSB0 or "
                                        "/dev/serial/by-id/usb-…, or give the bridge's USB serial number "
                                        "as usb_serial = \"E660583883265F2A\" instead"),
                ("usb_serial", USB_SERIAL, "a USB serial number: letters, digits, '.', '_', ':' and '-', "
                                           "at most 64")):
            value = reader.get(key)
            if value is None or (isinstance(value, str) and pattern.fullmatch(value)):
                continue
            line = validate.locate(text, ["readers", n, key], "toml")
            where = f"{source}, line {line}" if line else source
            shown = repr(value[:60]) + ("…" if len(value) > 60 else "") if isinstance(value, str) else repr(value)
            raise ProfileError(f"{where}: readers[{n}].{key} = {shown} is not {wanted}")


def layout_for(rules, options: dict, profile: "TableProfile | None" = None) -> Layout:
    """The layout a game with these (normalised) options is played on: the table profile's,
    checked against the game's zones, or without a profile one virtual pad per zone.  Raises
    :class:`ProfileError` with a sentence when the profile's layout does not fit the game."""
    zones = rules.zones(options)
    if profile is None:
        return Layout.identity(rules.name, zones)
    layout = profile.layout(rules.name)
    layout.validate(zones, profile.source)
    return layout


def load_profile(path: str | Path) -> TableProfile:
    """Read and check a table profile file; :class:`ProfileError` names file, line and field."""
    from companion import validate
    try:
        doc, text = validate.load(path, PROFILE_SCHEMA, "toml", MAX_PROFILE_BYTES, "table profile")
    except validate.InputError as exc:
        raise ProfileError(str(exc)) from None
    check_device_names(doc, str(path), text)
    return parse_profile(doc, str(path))


def parse_profile(doc: dict, source: str) -> TableProfile:
    from companion import validate
    try:
        validate.check(doc, PROFILE_SCHEMA, source)
    except validate.InputError as exc:
        raise ProfileError(str(exc)) from None
    check_device_names(doc, source)
    problems = []
    pads: list[str] = []
    for n, reader in enumerate(doc.get("readers", []), start=1):
        for pad in reader.get("pads", []):
            if pad in pads:
                problems.append(f"pad {pad!r} is listed by two readers")
            pads.append(pad)
    layouts = {}
    for game, mapping in doc.get("layouts", {}).items():
        # a pad maps to its zone's name, or to { zone = ..., mode = "hold" | "tap" } (the schema checked which)
        zones = {pad: v["zone"] if isinstance(v, dict) else v for pad, v in mapping.items()}
        modes = {pad: v["mode"] for pad, v in mapping.items() if isinstance(v, dict) and "mode" in v}
        if pads:
            unknown = [p for p in zones if p not in pads]
            if unknown:
                problems.append(f"[layouts.{game}] uses pads no reader has: {', '.join(unknown)}")
        layouts[game] = Layout(game, zones, modes)
    if problems:
        raise ProfileError(f"{source}: " + "; ".join(problems))
    return TableProfile(doc.get("name", Path(source).stem), source, pads, layouts, doc)


def check_layouts(profile: TableProfile) -> list[str]:
    """Every ``[layouts.<game>]`` against that game's zones (default options); problems as sentences."""
    from companion import games
    problems = []
    for game, layout in profile.layouts.items():
        try:
            rules = games.get(game)
        except games.UnknownGame:
            if game not in games.KNOWN_GAMES:
                problems.append(f"[layouts.{game}]: there is no game called {game!r} "
                                f"(games: {', '.join(games.KNOWN_GAMES)})")
            continue
        try:
            layout.validate([z.id for z in rules.zones(rules.normalise_options({}))], profile.source)
        except ProfileError as exc:
            problems.append(str(exc).removeprefix(f"{profile.source} "))
    return problems


def _zones_with_some_options(game: str) -> set[str]:
    """Every zone ``game`` has with one of its options set to any of its choices."""
    from companion import games
    try:
        rules = games.get(game)
    except games.UnknownGame:
        return set()
    defaults = rules.normalise_options({})
    zones = {z.id for z in rules.zones(defaults)}
    for option in rules.options:
        for choice in option.choices or ():
            zones |= {z.id for z in rules.zones(dict(defaults, **{option.id: choice}))}
    return zones


Sighting = ZoneChange | UnknownTag | UnusedPad | UnreadCards


class TableState:
    """What lies on every pad, fed by pad events.

    ``resolve(uid)`` maps a UID to a card id or None (the tag registry's
    ``lookup``).  A tag seen on a second pad while still on the first is
    treated as moved: the hardware reports real conflicts before this point.

    Per pad mode: on a ``hold`` pad ``seen`` is a card entering the zone and
    ``gone`` one leaving it; on a ``tap`` pad ``seen`` is a card entering the
    zone and ``gone`` (the card moved onto its pile) changes nothing, so the
    engines see exactly the zone changes a hold pad would give for a card
    that is still there.  ``taps`` counts the cards tapped per pad.
    """

    def __init__(self, layout: Layout, resolve: Callable[[str], str | None]):
        self.layout = layout
        self._resolve = resolve
        self.on_pad: dict[str, dict[str, str | None]] = {}   # pad → uid → card id
        self.taps: dict[str, int] = {}
        self._tapped_at: dict[str, dict[str, float]] = {}     # tap pad → uid → when it last entered the zone there
        self._relaying: dict[str, tuple[float, set[str]]] = {}  # tap pad → (its notice, cards counted from its pile)

    def feed(self, ev: PadEvent) -> list[Sighting]:
        if ev.kind == UNREAD:
            self._notice(ev)
            return [UnreadCards(ev.pad, self.layout.zone_of(ev.pad), self.layout.mode_of(ev.pad) == HOLD)]
        card_id = ev.card_id or self._resolve(ev.uid)
        out: list[Sighting] = []
        if ev.kind == SEEN:
            for pad, cards in self.on_pad.items():
                if pad != ev.pad and ev.uid in cards:
                    out.extend(self._leave(pad, ev.uid))
                    break
            if ev.uid in self.on_pad.get(ev.pad, {}):
                return out                       # already known there: a repeat, not a change
            self.on_pad.setdefault(ev.pad, {})[ev.uid] = card_id
            if self._relaid(ev):
                return out                       # a pile's card laid again as its notice asked: counted once
            zone = self.layout.zone_of(ev.pad)
            if card_id is None:
                out.append(UnknownTag(ev.pad, ev.uid))
            elif zone is None:
                out.append(UnusedPad(ev.pad, ev.uid, card_id))
            else:
                if self.layout.mode_of(ev.pad) == TAP:
                    self.taps[ev.pad] = self.taps.get(ev.pad, 0) + 1
                    self._tapped_at.setdefault(ev.pad, {})[ev.uid] = ev.t
                out.append(ZoneChange(ev.pad, zone, card_id, True, ev.uid))
        else:
            out.extend(self._leave(ev.pad, ev.uid))
        return out

    def _notice(self, ev: PadEvent) -> None:
        """A tap pad could not read a pile: remember which cards of it have already entered the zone.

        Those are the cards counted on the pad that still lay there when the notice came, and
        those counted there in the :data:`PILE_LOOKBACK_S` before it (a slap's first card may
        already have been slid off).  See :meth:`_relaid`.
        """
        if self.layout.mode_of(ev.pad) != TAP:
            return
        tapped = self._tapped_at.get(ev.pad, {})
        counted = {u for u, t in tapped.items() if ev.t - t <= PILE_LOOKBACK_S} | set(self.on_pad.get(ev.pad, {}))
        earlier = self._relaying.get(ev.pad)
        if earlier is not None and ev.t - earlier[0] <= RELAY_S:
            counted |= earlier[1]
        self._relaying[ev.pad] = (ev.t, {u for u in counted if u in tapped})

    def _relaid(self, ev: PadEvent) -> bool:
        """Whether ``ev`` is a card of a pile, already counted, laid on its tap pad again after the notice.

        The notice tells the player to lift the pile off and lay its cards one
        at a time (:class:`UnreadCards`); the player cannot tell which of them
        were read, so lays them all.  Within :data:`RELAY_S` of the notice a card
        counted on that pad from the pile — before the notice, or when first
        read after it — enters the zone once (docs/hardware/tables.md, "A pile's
        cards laid again").
        """
        episode = self._relaying.get(ev.pad)
        if episode is None:
            return False
        since, counted = episode
        if ev.t - since > RELAY_S:
            del self._relaying[ev.pad]
            return False
        if ev.uid in counted:
            return True
        counted.add(ev.uid)                  # read for the first time now: a later lay of it is the same card
        return False

    def _leave(self, pad: str, uid: str) -> list[Sighting]:
        cards = self.on_pad.get(pad, {})
        if uid not in cards:
            return []
        card_id = cards.pop(uid)
        zone = self.layout.zone_of(pad)
        if card_id is None or zone is None or self.layout.mode_of(pad) == TAP:
            return []                   # a tapped card went onto its pile: it stays in the zone
        return [ZoneChange(pad, zone, card_id, False, uid)]

    def cards_on(self, pad: str) -> list[str]:
        return [c for c in self.on_pad.get(pad, {}).values() if c]
