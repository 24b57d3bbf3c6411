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
    n1 = "0.lane1"          # pad id = zone id of the game

A different table is a different profile file, never a code change.  With no
profile (the simulated table), every zone of the game is its own pad.

:class:`TableState` turns :class:`PadEvent` s into :class:`ZoneChange` s and
says plainly when a sighting cannot become one (unknown tag, unused pad).
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Literal

SEEN: Literal["seen"] = "seen"
GONE: Literal["gone"] = "gone"


@dataclass(frozen=True)
class PadEvent:
    """A debounced sighting: tag ``uid`` appeared on (``seen``) or left (``gone``) ``pad``.

    ``t`` is ``time.monotonic()`` when the reader saw it.  ``card_id`` is set
    when the tag itself says which card it is (an NDEF record written by the
    companion), so no registry lookup is needed.
    """

    pad: str
    uid: str
    kind: Literal["seen", "gone"]
    t: float = 0.0
    card_id: str | None = None

    def __post_init__(self):
        if self.kind not in (SEEN, GONE):
            raise ValueError(f"PadEvent kind must be 'seen' or 'gone', not {self.kind!r}")


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


class ProfileError(ValueError):
    """A table profile that cannot be used; the message names the file and every problem."""


@dataclass
class Layout:
    """Pad → zone for one game on one table."""

    game: str
    pad_to_zone: dict[str, str]

    @classmethod
    def identity(cls, game: str, zone_ids) -> "Layout":
        """The simulated table: one virtual pad per zone, named like the zone."""
        return cls(game, {z: z for z in zone_ids})

    def zone_of(self, pad: str) -> str | None:
        return self.pad_to_zone.get(pad)

    def pads_of(self, zone: str) -> list[str]:
        return [p for p, z in self.pad_to_zone.items() if z == zone]

    def validate(self, zone_ids, source: str = "layout") -> None:
        """Every mapped zone must exist; every zone of the game must have a pad."""
        known = set(zone_ids)
        problems = [f"pad {p!r} maps to {z!r}, which {self.game} does not have"
                    for p, z in self.pad_to_zone.items() if z not in known]
        mapped = set(self.pad_to_zone.values())
        missing = [z for z in zone_ids if z not in mapped]
        if missing:
            problems.append("no pad for zone(s) " + ", ".join(missing))
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
#: A pad is its name, or a table naming it with options (``mode`` = hold | tap).
_PAD = {"anyOf": [_NAME, {"type": "object", "required": ["id"],
                          "properties": {"id": _NAME, "mode": _PAD_MODE}}]}

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
                "cs_gpio": _GPIO, "reset_gpio": _GPIO, "port": {"type": "string", "minLength": 1, "maxLength": 200},
                "pads": {"type": "array", "maxItems": 16, "items": _PAD}}}},
        "pads": {"type": "object", "maxProperties": 256,
                 "additionalProperties": {"type": "object", "properties": {"mode": _PAD_MODE}}},
        "layouts": {"type": "object", "maxProperties": 16, "additionalProperties": {
            "type": "object", "maxProperties": 256, "additionalProperties": _NAME}},
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


def pad_name(pad) -> str:
    """A reader's pad entry: ``"n1"`` or ``{id = "n1", mode = "tap"}``."""
    return pad["id"] if isinstance(pad, dict) else pad


def load_profile(path: str | Path) -> TableProfile:
    """Read and check a table profile file; :class:`ProfileError` names file, line and field."""
    from companion import validate
    try:
        doc, text = validate.load(path, PROFILE_SCHEMA, "toml", MAX_PROFILE_BYTES, "table profile")
    except validate.InputError as exc:
        raise ProfileError(str(exc)) from None
    return parse_profile(doc, str(path))


def parse_profile(doc: dict, source: str) -> TableProfile:
    from companion import validate
    try:
        validate.check(doc, PROFILE_SCHEMA, source)
    except validate.InputError as exc:
        raise ProfileError(str(exc)) from None
    problems = []
    pads: list[str] = []
    for n, reader in enumerate(doc.get("readers", []), start=1):
        for pad in map(pad_name, reader.get("pads", [])):
            if pad in pads:
                problems.append(f"pad {pad!r} is listed by two readers")
            pads.append(pad)
    layouts = {}
    for game, mapping in doc.get("layouts", {}).items():
        if pads:
            unknown = [p for p in mapping if p not in pads]
            if unknown:
                problems.append(f"[layouts.{game}] uses pads no reader has: {', '.join(unknown)}")
        layouts[game] = Layout(game, dict(mapping))
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


Sighting = ZoneChange | UnknownTag | UnusedPad


class TableState:
    """What lies on every pad, fed by pad events.

    ``resolve(uid)`` maps a UID to a card id or None (the tag registry's
    ``lookup``).  A tag seen on a second pad while still on the first is
    treated as moved: the hardware reports real conflicts before this point.
    """

    def __init__(self, layout: Layout, resolve: Callable[[str], str | None]):
        self.layout = layout
        self._resolve = resolve
        self.on_pad: dict[str, dict[str, str | None]] = {}   # pad → uid → card id

    def feed(self, ev: PadEvent) -> list[Sighting]:
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
            zone = self.layout.zone_of(ev.pad)
            if card_id is None:
                out.append(UnknownTag(ev.pad, ev.uid))
            elif zone is None:
                out.append(UnusedPad(ev.pad, ev.uid, card_id))
            else:
                out.append(ZoneChange(ev.pad, zone, card_id, True, ev.uid))
        else:
            out.extend(self._leave(ev.pad, ev.uid))
        return out

    def _leave(self, pad: str, uid: str) -> list[Sighting]:
        cards = self.on_pad.get(pad, {})
        if uid not in cards:
            return []
        card_id = cards.pop(uid)
        zone = self.layout.zone_of(pad)
        if card_id is None or zone is None:
            return []
        return [ZoneChange(pad, zone, card_id, False, uid)]

    def cards_on(self, pad: str) -> list[str]:
        return [c for c in self.on_pad.get(pad, {}).values() if c]
