"""The shipped Territory catalogue, loaded, checked and priced once for the engine.

Loading raises :class:`~companion.games.territory.cards.CardError` naming every
card the engine could not play, so a bad card never reaches a game.
"""
from __future__ import annotations

from .cards import Creature, Land, load
from .pricing import price

CATALOGUE = load()
CREATURES: dict[str, Creature] = CATALOGUE.creatures
LANDS: dict[str, Land] = CATALOGUE.lands
LAND_IDS: tuple[str, ...] = tuple(LANDS)
CREATURE_IDS: tuple[str, ...] = tuple(CREATURES)
FINAL_COST: dict[str, int] = {}
STARS: dict[str, int] = {}
for _c in CREATURES.values():
    _b = price(_c, CATALOGUE.biomes)
    FINAL_COST[_c.id], STARS[_c.id] = _b.final, _b.stars


_NAMES = {card_id: CATALOGUE.name(card_id) for card_id in (*CREATURES, *LANDS)}


def name(card_id: str) -> str:
    """"Ash (Grey Wolf)", "Pine Forest", or the id of a card nobody knows."""
    return _NAMES.get(card_id, card_id) if isinstance(card_id, str) else repr(card_id)
