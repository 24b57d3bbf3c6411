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


def deck_problems(creatures: list[str], lands: list[str] | None = None, budget: int = 100,
                  lands_per_player: int = 25) -> list[str]:
    """Why a deck is not legal, in words (empty: legal).

    Rules, Deck Building: the creature deck's Final Costs add up to the agreed
    budget or less (RULINGS: 100 unless agreed otherwise), each creature card
    once; the land deck holds the agreed number of lands (25).
    """
    problems = [f"{c} is not a creature of the catalogue" for c in creatures if c not in CREATURES]
    twice = sorted({c for c in creatures if creatures.count(c) > 1})
    if twice:
        problems.append("listed twice: " + ", ".join(name(c) for c in twice))
    cost = sum(FINAL_COST.get(c, 0) for c in creatures)
    if cost > budget:
        problems.append(f"the creatures cost {cost}, over the agreed {budget}")
    if not creatures:
        problems.append("there is no creature")
    if lands is not None:
        problems += [f"{l} is not a land of the catalogue" for l in lands if l not in LANDS]
        if len(lands) != lands_per_player:
            problems.append(f"the land deck holds {len(lands)} lands, not the agreed {lands_per_player}")
    return problems
