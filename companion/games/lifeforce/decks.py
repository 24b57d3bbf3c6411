"""Deck building rules of Lifeforce Battle and the two sample decks.

Rules text, "Step 1. Build Your Deck" (and RULINGS.md): exactly 50 cards, at
least 5 of every colour, no card twice, at most 10 Green and at most 10 Purple.

:func:`validate_deck` returns *every* problem at once, in words a player
understands, so the deck screen can list them::

    >>> validate_deck(["lifeforce.great-tit"] * 2)
    ['2 cards: exactly 50 needed', 'Great Tit twice: all cards must be different', ...]

An empty list means the deck is legal.
"""
from __future__ import annotations

import functools
import json
from collections import Counter
from pathlib import Path

from companion.cards import DATA_DIR
from companion.games.lifeforce.animals import ANIMALS, COLOURS, GAME, colour_label, name

DECK_SIZE = 50
HAND_SIZE = 5             # a starting hand, and what both draw up to after a battle
MIN_PER_COLOUR = 5
MAX_PER_COLOUR = {"green": 10, "purple": 10}
DECKS_FILE = DATA_DIR / GAME / "decks.json"

_TIMES = {2: "twice", 3: "three times"}


# Decks found legal, remembered: every game's setup checks both decks, and a benchmark or a search
# sets up thousands of games with the same two.  A legal deck stays legal while the program runs
# (cards are only ever added, and a card's values never change), so only legal decks are kept.
_LEGAL: set[tuple] = set()


def validate_deck(card_ids) -> list[str]:
    """Every way ``card_ids`` breaks the deck building rules; [] for a legal deck."""
    ids = list(card_ids)
    try:
        if tuple(ids) in _LEGAL:
            return []
    except TypeError:                    # an unhashable entry: not a card id, said below
        pass
    problems = []
    if len(ids) != DECK_SIZE:
        problems.append(f"{len(ids)} card{'' if len(ids) == 1 else 's'}: exactly {DECK_SIZE} needed")
    for card_id, n in Counter(ids).items():
        if n > 1:
            problems.append(f"{name(card_id)} {_TIMES.get(n, f'{n} times')}: all cards must be different")
    unknown = [c for c in dict.fromkeys(ids) if c not in ANIMALS]
    for card_id in unknown:
        problems.append(f"{card_id}: not a Lifeforce Battle card")
    per_colour = Counter(ANIMALS[c].colour for c in ids if c in ANIMALS)
    for colour in COLOURS:
        n = per_colour[colour]
        if n < MIN_PER_COLOUR:
            problems.append(f"{n} {colour_label(colour)}: at least {MIN_PER_COLOUR} needed")
        limit = MAX_PER_COLOUR.get(colour)
        if limit is not None and n > limit:
            problems.append(f"{n} {colour_label(colour)}: at most {limit} allowed")
    if not problems and len(_LEGAL) < 1000:
        _LEGAL.add(tuple(ids))
    return problems


def load_decks(path: str | Path = DECKS_FILE) -> dict[str, dict]:
    """Ready-made decks by id: ``{"north-sample": {"name": ..., "cards": [50 ids]}, ...}``."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return {d["id"]: {"name": d["name"], "cards": list(d["cards"])} for d in data["decks"]}


def sample_decks() -> list[list[str]]:
    """The two shipped sample decks (North's, South's): legal and with no card in common (new lists
    each time; the file is read once)."""
    return [list(cards) for cards in _sample_decks()]


@functools.cache
def _sample_decks() -> tuple[tuple[str, ...], ...]:
    decks = load_decks()
    return tuple(decks["north-sample"]["cards"]), tuple(decks["south-sample"]["cards"])
