"""The Territory catalogue the engine plays with, checked and priced once.

The shipped cards are loaded at import; loading raises
:class:`~companion.games.territory.cards.CardError` naming every card the
engine could not play, so a bad card never reaches a game.

Players design their own creatures and lands.  A game that uses them carries
their definitions in its setup options (``options["cards"]``, the shape of a
cards.json file: ``{"biomes": [...], "cards": [...]}``), so its record replays
anywhere; :func:`admit` adds them to the tables below when the game is set up.
"""
from __future__ import annotations

import json

from companion.cards import CatalogueError, parse_catalogue, read_players_file

from .cards import GAME, CardError, Creature, Land, build_catalogue, load
from .pricing import MAX_FINAL_COST, price

CATALOGUE = load()
CREATURES: dict[str, Creature] = CATALOGUE.creatures
LANDS: dict[str, Land] = CATALOGUE.lands
LAND_IDS: tuple[str, ...] = tuple(LANDS)
CREATURE_IDS: tuple[str, ...] = tuple(CREATURES)
FINAL_COST: dict[str, int] = {}
STARS: dict[str, int] = {}
_NAMES: dict[str, str] = {}
_DEFINED: dict[str, str] = {}     # card id → its definition as JSON, for the cards players added


def over_limit(creatures) -> list[str]:
    """Rules, Creature Deck: "Each creature has a cost ranging from 0 to 100" — the creatures that cost more."""
    out = []
    for c in creatures:
        final = price(c, CATALOGUE.biomes).final
        if final > MAX_FINAL_COST:
            out.append(f"{c.id} ({c.name}) costs {final}: a creature costs 0 to {MAX_FINAL_COST}")
    return out


def _index(creatures, lands) -> None:
    for c in creatures:
        b = price(c, CATALOGUE.biomes)
        FINAL_COST[c.id], STARS[c.id] = b.final, b.stars
        _NAMES[c.id] = c.label
    for land in lands:
        _NAMES[land.id] = land.name


if over_limit(CREATURES.values()):
    raise CardError("shipped cards: " + "; ".join(over_limit(CREATURES.values())))
_index(CREATURES.values(), LANDS.values())
SHIPPED: frozenset[str] = frozenset(CREATURES) | frozenset(LANDS)


def admit(document: dict) -> list[str]:
    """Check the players' own cards (and custom biomes) of a game and make them playable; their ids.

    A card may be admitted again with the same definition (a replay, a resumed
    game); a different card under a known id is refused, as are shipped ids.
    """
    if not isinstance(document, dict):
        raise CardError("the 'cards' option must look like a cards.json file: {\"biomes\": [...], \"cards\": [...]}")
    try:
        cards = parse_catalogue({"game": GAME, "cards": document.get("cards", [])}, GAME, "your cards")
    except CatalogueError as exc:
        raise CardError(str(exc)) from None
    problems = []
    for card in cards:
        definition = json.dumps(card.as_dict(), sort_keys=True)
        if card.id in CREATURES or card.id in LANDS:
            if _DEFINED.get(card.id) != definition:
                problems.append(f"{card.id} is already a card ({_NAMES[card.id]}); give yours its own id")
    if problems:
        raise CardError("your cards: " + "; ".join(problems))
    CATALOGUE.biomes.add(document.get("biomes", []), "your biomes")
    parsed = build_catalogue(cards, [], source="your cards", biomes=CATALOGUE.biomes)
    problems += over_limit(parsed.creatures.values())
    for c in parsed.creatures.values():
        b = price(c, CATALOGUE.biomes)
        if (c.cost is not None and c.cost != b.final) or (c.stars is not None and c.stars != b.stars):
            problems.append(f"{c.id} ({c.name}) says cost {c.cost}, {c.stars} stars, but its stats cost {b.final}, "
                            f"{b.stars} stars: reprint it from the designer")
    if problems:
        raise CardError("your cards: " + "; ".join(problems))
    CREATURES.update(parsed.creatures)
    LANDS.update(parsed.lands)
    _index(parsed.creatures.values(), parsed.lands.values())
    for card in cards:
        _DEFINED[card.id] = json.dumps(card.as_dict(), sort_keys=True)
    return [card.id for card in cards]


def in_game(options: dict, card_id: str) -> bool:
    """A shipped card, or one of the players' own cards the game was set up with (``options["cards"]``)."""
    if card_id in SHIPPED:
        return True
    own = options.get("cards") or {}
    return any(isinstance(c, dict) and c.get("id") == card_id for c in own.get("cards", []))


def players_cards() -> dict | None:
    """``<data dir>/cards/territory.json`` when the composition root set a data dir and it exists."""
    return read_players_file(GAME)     # shared checks; a broken file refuses the start in one sentence


def deck_cost(creatures) -> int:
    """Rules, Deck Building: a creature deck costs its creatures' Final Costs added up."""
    return sum(FINAL_COST[c] for c in creatures)


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
