"""Arcmage cards as the engine needs them: type, faction, cost, combat values.

The catalogue (``companion/data/arcmage/cards.json``) gives every card::

    {"id": "arcmage.elf-druid", "name": "Elf Druid",
     "attrs": {"type": "creature", "faction": "gaian", "number": 101, "version": 3,
               "cost": 3, "atk": 2, "defence": 3, "subtypes": ["Elf", "Druid"]}}

``type`` is one of :data:`CARD_TYPES`.  Regions carry ``hp``, ``chapter``
(1, 2 or 3: the roman I/II/III of the card) and ``draw_on_loss``; magic carries
the ``domain`` whose servants must be worth its ``cost``; equipment carries a
``subtype`` and its ``atk``/``defence`` bonus; ``copies`` overrides the usual
limit of 4 copies a deck.  Players' own cards (``<data dir>/cards/arcmage.json``)
are merged over the shipped ones (see :mod:`companion.cards`).
"""
from __future__ import annotations

from companion import cards as catalogue_files
from companion.cards import Card, Catalogue
from companion.engine import IllegalAction

GAME = "arcmage"
CARD_TYPES = ("creature", "region", "event", "magic", "spell", "equipment")
FACTIONS = {
    "gaian": "Gaian",
    "dark-legion": "Dark Legion",
    "red-banner": "Red Banner",
    "house-of-nobles": "House of Nobles",
    "the-empire": "The Empire",
}
DOMAINS = ("politics", "science", "faith")
DOMAIN_LABELS = {"politics": "Politics", "science": "Science", "faith": "Faith"}
CHAPTER_NUMERALS = {1: "I", 2: "II", 3: "III"}
DEFAULT_COPIES = 4

_catalogue: Catalogue | None = None
_with_user_cards = False


def catalogue() -> Catalogue:
    """The shipped catalogue; a player's own cards join it the first time an
    unknown id is looked up (so a plain engine run never touches the data dir)."""
    global _catalogue
    if _catalogue is None:
        _catalogue = catalogue_files.load_catalogue(GAME)
    return _catalogue


def card(card_id: str) -> Card:
    """The card called ``card_id``, or IllegalAction in words a player understands.

    An id the shipped catalogue lacks is looked up once more with the player's
    own cards (``<data dir>/cards/arcmage.json``) merged in.
    """
    global _catalogue, _with_user_cards
    found = catalogue().get(card_id)
    if found is None and not _with_user_cards and catalogue_files.user_dir() is not None:
        _with_user_cards = True
        try:
            _catalogue = catalogue_files.load_catalogue(GAME)
        except catalogue_files.CatalogueError:
            pass
        found = _catalogue.get(card_id)
    if found is None:
        raise IllegalAction(f"{card_id} is not an Arcmage card this companion knows; add it on the Cards screen")
    return found


def kind(card_id: str) -> str:
    return card(card_id).attrs.get("type", "")


def name(card_id: str) -> str:
    return card(card_id).name


def cost(card_id: str) -> int | None:
    """The printed gold cost, or None when it is X/T (the player says it)."""
    value = card(card_id).attrs.get("cost", 0)
    return value if isinstance(value, int) else None


def copies_allowed(c: Card) -> int:
    return int(c.attrs.get("copies", DEFAULT_COPIES))


def faction_label(faction: str) -> str:
    return FACTIONS.get(faction, faction)


def by_type(card_type: str) -> list[str]:
    """Ids of every known card of ``card_type``, cheapest first (random play uses it)."""
    return [c.id for c in sorted(catalogue(), key=lambda c: (c.attrs.get("cost", 0) if isinstance(c.attrs.get("cost", 0), int) else 99, c.id))
            if c.attrs.get("type") == card_type]
