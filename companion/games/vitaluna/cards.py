"""Vita Luna's cards as the engine uses them: creatures with attack, health, colour and epics,
and the four singular cards.

The catalogue ships in ``companion/data/vitaluna/cards.json``.  Only a few values
are printed in the rules text (the Wolf is 3/2, the Rat attacks for 1, the
Anaconda has 5 health…); every other value is a *sample* and each card lists
which of its values are samples in ``attrs["sample"]``.  Players whose printed
cards differ put corrected entries in ``<data dir>/cards/vitaluna.json`` (same
format, same ids); :func:`user_edits` reads them and a game keeps them in its
options (``card_edits``), so a game record replays with the values it was
played with, on any machine::

    >>> table = card_table({"vitaluna.wolf": {"name": "Wolf", "attrs": {"attack": 4}}})
    >>> table["vitaluna.wolf"].attack, table["vitaluna.wolf"].health
    (4, 2)
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from companion.cards import CatalogueError, PlayersCardError, load_catalogue, parse_catalogue, read_players_file

GAME = "vitaluna"
COLOURS = ("black", "blue", "red")
SINGULARS = ("burn", "swap", "steal", "heal")
#: what each singular card needs on the table to be played (rules, Singular cards)
SINGULAR_NEEDS = {
    "burn": "an opposing creature on a white position",
    "steal": "an opposing creature on white with a free white position of yours opposite it",
    "heal": "one of your creatures on white that is injured",
    "swap": "a creature of yours and one of the opponent's on white positions",
}
#: what each singular card targets, said when a target is refused
SINGULAR_TARGETS = {
    "burn": "Burn targets an opposing creature on a white position",
    "steal": "Steal targets an opposing creature on a white position with your white position opposite it free",
    "heal": "Heal targets one of your injured creatures on a white position",
    "swap": "Swap needs one of your creatures on white (own) and one of the opponent's on white (zone)",
}

# Epics as bit flags: the attack loop tests them millions of times.
MOVE_ANYWHERE, POISONOUS, RESISTANT, ARMOUR, HOLDS, ANCHOR, RETALIATE, PRONGED = (1 << n for n in range(8))
EPICS = {
    "move_anywhere": (MOVE_ANYWHERE, "move anywhere"),
    "poisonous": (POISONOUS, "poisonous"),
    "resistant": (RESISTANT, "resistant"),
    "armour": (ARMOUR, "armour"),
    "holds": (HOLDS, "holds"),
    "anchor": (ANCHOR, "anchor"),
    "retaliate": (RETALIATE, "retaliate"),
    "pronged": (PRONGED, "pronged attack"),
}


class Creature(NamedTuple):
    id: str
    name: str
    colour: str        # the colour of the card's reverse: black, blue or red
    attack: int
    health: int        # printed health: a creature never has more
    epics: int         # EPICS bit flags

    def epic_names(self) -> list[str]:
        return [label for bit, label in EPICS.values() if self.epics & bit]

    def label(self) -> str:
        """"Porcupine 1/4 (retaliate)"."""
        epics = self.epic_names()
        return f"{self.name} {self.attack}/{self.health}" + (f" ({', '.join(epics)})" if epics else "")


class Singular(NamedTuple):
    id: str
    name: str
    singular: str      # burn, swap, steal or heal


def _creature(card_id: str, name: str, attrs: dict) -> Creature:
    where = f"{card_id} ({name})"
    colour = attrs.get("colour")
    if colour not in COLOURS:
        raise CatalogueError(f"{where}: colour must be black, blue or red, not {colour!r}")
    attack, health = attrs.get("attack"), attrs.get("health")
    if not isinstance(attack, int) or attack < 0:
        raise CatalogueError(f"{where}: attack must be a whole number ≥ 0, not {attack!r}")
    if not isinstance(health, int) or health < 1:
        raise CatalogueError(f"{where}: health must be a whole number ≥ 1, not {health!r}")
    flags = 0
    for epic in attrs.get("epics", []):
        if epic not in EPICS:
            raise CatalogueError(f"{where}: unknown epic {epic!r}; epics are {', '.join(EPICS)}")
        flags |= EPICS[epic][0]
    return Creature(card_id, name, colour, attack, health, flags)


def _entry(card_id: str, name: str, attrs: dict) -> Creature | Singular:
    if attrs.get("kind") == "singular":
        if attrs.get("singular") not in SINGULARS:
            raise CatalogueError(f"{card_id} ({name}): singular must be one of {', '.join(SINGULARS)}")
        return Singular(card_id, name, attrs["singular"])
    return _creature(card_id, name, attrs)


class CardTable(dict):
    """card id → :class:`Creature` or :class:`Singular`, plus the creature ids of each colour
    (``by_colour["black"]``, in catalogue order) and each creature's :meth:`Creature.label`."""

    def __init__(self, entries: dict):
        super().__init__(entries)
        self.by_colour = {colour: tuple(c.id for c in entries.values()
                                        if isinstance(c, Creature) and c.colour == colour) for colour in COLOURS}
        self.labels = {c.id: c.label() for c in entries.values() if isinstance(c, Creature)}


def _build(edits: dict) -> CardTable:
    shipped = {c.id: (c.name, dict(c.attrs)) for c in load_catalogue(GAME)}
    for card_id, entry in edits.items():
        name, attrs = shipped.get(card_id, (card_id, {}))
        attrs = {**attrs, **entry.get("attrs", {})}
        shipped[card_id] = (entry.get("name") or name, attrs)
    return CardTable({card_id: _entry(card_id, name, attrs) for card_id, (name, attrs) in shipped.items()})


_tables: dict[str, CardTable] = {}
_shipped_table: list[CardTable] = []


def card_table(edits: dict | None = None) -> CardTable:
    """Every card of a game: the shipped catalogue with ``edits`` (id → {"name", "attrs"}) merged over it.

    An edit may change some attributes only; a new id adds a card (a second
    Rat of your own deck, say).  Tables are cached: the engine asks on every action.
    """
    if not edits:
        if not _shipped_table:
            _shipped_table.append(_build({}))
        return _shipped_table[0]
    key = json.dumps(edits, sort_keys=True)
    table = _tables.get(key)
    if table is None:
        if len(_tables) > 32:
            _tables.clear()
        table = _tables[key] = _build(edits)
    return table


def user_edits(data_dir: Path | None) -> dict:
    """The player's own card values from ``<data dir>/cards/vitaluna.json`` ({} when there is none)."""
    if data_dir is None:
        return {}
    path = Path(data_dir) / "cards" / f"{GAME}.json"
    doc = read_players_file(GAME, Path(data_dir))      # shared checks: UTF-8, size, nesting, schema
    if doc is None:
        return {}
    try:
        cards = parse_catalogue(doc, GAME, str(path))
        edits = {c.id: {"name": c.name, "attrs": dict(c.attrs)} for c in cards}
        _build(edits)                  # refuse bad values now, with the file's name, not mid-game
    except CatalogueError as exc:
        text = str(exc) if str(exc).startswith(str(path)) else f"{path}: {exc}"
        raise PlayersCardError(text) from None
    return edits


def add_held(held: list[dict], seat: int, colour: str, n: int) -> list[dict]:
    """Cards of ``colour`` that ``seat`` holds, changed by ``n`` (never below 0)."""
    out = list(held)
    out[seat] = dict(held[seat])
    out[seat][colour] = max(0, out[seat][colour] + n)
    return out
